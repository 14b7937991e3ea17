// Reading the failures out of an earlier JSON report.
#include "audit/baseline.hpp"

#include "reporters/json_report_reader.hpp"

namespace idconform::audit {

std::string case_key(std::string_view suite, std::string_view name) {
    std::string k;
    k.reserve(suite.size() + name.size() + 1);
    k.append(suite);
    k += '\x1f';  // a unit separator: cannot appear in a YAML name by accident
    k.append(name);
    return k;
}

namespace {

// Keeps the key and rules of each failing case, nothing else.
class Failures final : public reporters::ReportVisitor {
public:
    explicit Failures(Baseline& b) : b_(b) {}
    void take_case(CaseResult&& c) override {
        if (!is_finding(c.outcome)) return;
        std::string key = case_key(c.suite, c.name);
        b_.failing.emplace(std::move(key), Baseline::Entry{std::move(c.suite), std::move(c.name), std::move(c.rules)});
    }

private:
    Baseline& b_;
};

BaselineLoad finish(bool ok, Baseline&& b, const std::string& why) {
    BaselineLoad out;
    if (ok) out.baseline = std::move(b);
    else out.error = "baseline " + why;
    return out;
}

}  // namespace

BaselineLoad load_baseline_text(std::string_view text, const std::string& path) {
    Baseline b;
    b.path = path;
    Failures keep(b);
    std::string error;
    const bool ok = reporters::read_json_report_text(text, path, keep, error, {.case_outline_only = true});
    return finish(ok, std::move(b), error);
}

BaselineLoad load_baseline(const std::string& path) {
    Baseline b;
    b.path = path;
    Failures keep(b);
    std::string error;
    const bool ok = reporters::read_json_report(path, keep, error, {.case_outline_only = true});
    return finish(ok, std::move(b), error);
}

}  // namespace idconform::audit
