// The one registry of file reporters: a name (the CLI flag `--NAME FILE`), what
// the file is, and the constructor. `run`, `scan` and `lint` pick their report
// flags from it (cli/report_flags.hpp) instead of wiring each reporter by
// hand; a new file reporter is one line in registry.cpp.
#pragma once

#include "reporters/options.hpp"
#include "reporters/reporter.hpp"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::reporters {

struct FileReporterKind {
    std::string_view name;  // "junit": the flag --junit FILE
    std::string_view help;  // "Write a JUnit XML report to FILE"
    std::unique_ptr<Reporter> (*make)(const std::string& path, const ReportOptions& opts);
};

// Every file reporter, in the order reports are fed (JUnit, JSON, HTML).
[[nodiscard]] const std::vector<FileReporterKind>& file_reporters();
// The kind called `name`, or nullptr.
[[nodiscard]] const FileReporterKind* find_file_reporter(std::string_view name);
// The reporter `name` writing `path`; nullptr for an unknown name.
[[nodiscard]] std::unique_ptr<Reporter> make_file_reporter(std::string_view name, const std::string& path,
                                                           const ReportOptions& opts = {});

}  // namespace idconform::reporters
