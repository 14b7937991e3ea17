// The file reporters by name (registry.hpp).
#include "reporters/registry.hpp"

#include "reporters/html_reporter.hpp"
#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"

namespace idconform::reporters {

namespace {

template <class R>
std::unique_ptr<Reporter> make(const std::string& path, const ReportOptions& opts) {
    return std::make_unique<R>(path, opts);
}

}  // namespace

const std::vector<FileReporterKind>& file_reporters() {
    static const std::vector<FileReporterKind> kinds = {
        {"junit", "Write a JUnit XML report to FILE", &make<JunitReporter>},
        {"json", "Write a JSON report to FILE", &make<JsonReporter>},
        {"html", "Write a self-contained HTML report to FILE (for auditors; opens from disk)", &make<HtmlReporter>},
    };
    return kinds;
}

const FileReporterKind* find_file_reporter(std::string_view name) {
    for (const auto& k : file_reporters())
        if (k.name == name) return &k;
    return nullptr;
}

std::unique_ptr<Reporter> make_file_reporter(std::string_view name, const std::string& path,
                                             const ReportOptions& opts) {
    const FileReporterKind* k = find_file_reporter(name);
    return k ? k->make(path, opts) : nullptr;
}

}  // namespace idconform::reporters
