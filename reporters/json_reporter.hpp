// JSON reporter (cumulative): the same content as the JUnit report, for
// machines, as one document written atomically at run_finished. Field names
// are stable and listed in reporters/README.md.
#pragma once

#include "reporters/options.hpp"
#include "reporters/reporter.hpp"

#include <boost/json/value.hpp>

#include <string>

namespace idconform::reporters {

// The report as a JSON value (tool_version goes into "version").
[[nodiscard]] boost::json::value json_report(const RunSummary& run, const std::string& tool_version,
                                             const ReportOptions& opts = {});

// Indented text of a JSON value, two spaces per level, keys in insertion
// order; doubles (all of them times) with exactly three decimals, so output
// is stable and diffable.
[[nodiscard]] std::string pretty_json(const boost::json::value& v);

class JsonReporter final : public Reporter {
public:
    explicit JsonReporter(std::string path, ReportOptions opts = {});
    void run_started(const RunInfo& info) override;
    bool run_finished(const RunSummary& run, std::string& error) override;

private:
    std::string path_;
    ReportOptions opts_;
    std::string tool_version_;
};

}  // namespace idconform::reporters
