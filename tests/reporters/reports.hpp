// A run's report as the reporters write it (there is one rendering path: the
// events): the run replayed into a JUnit or JSON reporter writing a scratch
// file, read back.
#pragma once

#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"
#include "sample_run.hpp"
#include "test_util.hpp"

#include <atomic>
#include <string>

namespace idconform::test {

namespace detail {

inline fs::path report_path(const char* ext) {
    static std::atomic<int> n{0};
    return scratch_dir("reports") / ("r" + std::to_string(n++) + ext);
}

// The value of the document element's `timestamp` attribute replaced by
// `timestamp`, or the attribute left out when it is "".
inline std::string with_run_timestamp(std::string xml, const std::string& timestamp) {
    const auto root = xml.find("<testsuites");
    const auto at = root == std::string::npos ? root : xml.find(" timestamp=\"", root);
    if (at == std::string::npos || at > xml.find('>', root)) return xml;
    const auto end = xml.find('"', at + 12);
    if (timestamp.empty()) xml.erase(at, end + 1 - at);
    else xml.replace(at + 12, end - at - 12, timestamp);
    return xml;
}

}  // namespace detail

// The JUnit document of `run`, its run start `timestamp` ("" leaves it out).
inline std::string junit_text(const RunSummary& run, const std::string& timestamp = "",
                              const reporters::ReportOptions& opts = {}, const reporters::RunInfo& info = {}) {
    const fs::path path = detail::report_path(".xml");
    reporters::JunitReporter r(path.string(), opts);
    r.run_started(info);
    std::string error;
    REQUIRE_MESSAGE(replay(r, run, error), error);
    return detail::with_run_timestamp(read_file(path), timestamp);
}

// The JSON report of `run` (tool_version goes into "version").
inline std::string json_text(const RunSummary& run, const std::string& tool_version,
                             const reporters::ReportOptions& opts = {}) {
    const fs::path path = detail::report_path(".json");
    reporters::JsonReporter r(path.string(), opts);
    reporters::RunInfo info;
    info.tool_version = tool_version;
    r.run_started(info);
    std::string error;
    REQUIRE_MESSAGE(replay(r, run, error), error);
    return read_file(path);
}

}  // namespace idconform::test
