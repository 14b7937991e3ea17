// Report flags from the reporter registry (report_flags.hpp).
#include "cli/report_flags.hpp"

#include <algorithm>
#include <stdexcept>

namespace idconform::cli {

void add_junit_flavor_option(CLI::App* cmd, std::string& value) {
    cmd->add_option("--junit-flavor", value,
                    "What the JUnit report holds: full (file/line and properties on each testcase, the transcript; "
                    "what Jenkins' junit step, GitLab and GitHub test-report actions read) or strict (only what the "
                    "Jenkins xUnit plugin's and Apache Ant's JUnit schemas allow)")
        ->check(CLI::IsMember({"full", "strict"}))
        ->default_str("full");
}

reporters::JunitFlavor junit_flavor(const std::string& value) {
    return value == "strict" ? reporters::JunitFlavor::strict : reporters::JunitFlavor::full;
}

void ReportFlags::add_flags(CLI::App* cmd, const std::vector<std::string_view>& names,
                            const std::map<std::string_view, std::string>& extra) {
    for (const auto& kind : reporters::file_reporters()) {
        if (std::find(names.begin(), names.end(), kind.name) == names.end()) continue;
        Flag& f = flags_.emplace_back(Flag{&kind, {}});
        std::string help(kind.help);
        if (const auto it = extra.find(kind.name); it != extra.end()) help += " " + it->second;
        cmd->add_option("--" + std::string(kind.name), f.path, help);
        if (kind.name == "junit") add_junit_flavor_option(cmd, junit_flavor_);
    }
    // a name not in the registry is a programming error, caught by every CLI test
    for (const auto& n : names)
        if (!reporters::find_file_reporter(n)) throw std::logic_error("no file reporter '" + std::string(n) + "'");
}

void ReportFlags::add_to(reporters::MultiReporter& multi, const reporters::ReportOptions& opts) const {
    reporters::ReportOptions with = opts;
    with.junit_flavor = junit_flavor(junit_flavor_);
    for (const auto& f : flags_)
        if (!f.path.empty()) multi.add(f.kind->make(f.path, with));
}

std::vector<std::string> ReportFlags::paths() const {
    std::vector<std::string> out;
    for (const auto& f : flags_)
        if (!f.path.empty()) out.push_back(f.path);
    return out;
}

bool ReportFlags::any() const {
    for (const auto& f : flags_)
        if (!f.path.empty()) return true;
    return false;
}

}  // namespace idconform::cli
