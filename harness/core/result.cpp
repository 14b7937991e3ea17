// Counting helpers of the result model.
#include "core/result.hpp"

#include <algorithm>

namespace idconform {

const char* to_string(Outcome o) noexcept {
    switch (o) {
        case Outcome::passed: return "passed";
        case Outcome::failed: return "failed";
        case Outcome::error: return "error";
        case Outcome::skipped: return "skipped";
        case Outcome::waived: return "waived";
    }
    return "error";
}

std::size_t SuiteResult::count(Outcome o) const {
    return streamed[static_cast<std::size_t>(o)] +
           static_cast<std::size_t>(
               std::count_if(cases.begin(), cases.end(), [o](const CaseResult& c) { return c.outcome == o; }));
}

std::size_t SuiteResult::total() const {
    std::size_t n = cases.size();
    for (const std::size_t k : streamed) n += k;
    return n;
}

std::string counted_rule(const CheckResult& chk, const CaseResult& c) {
    if (!chk.rule.empty() && chk.rule.find(',') == std::string::npos) return chk.rule;
    return c.rules.empty() ? std::string(no_rule) : c.rules.front();
}

std::vector<std::string> failed_rules(const CaseResult& c) {
    std::vector<std::string> out;
    for (const auto& st : c.steps)
        for (const auto& chk : st.checks) {
            if (chk.ok || chk.warning) continue;
            std::string r = counted_rule(chk, c);
            if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(std::move(r));
        }
    return out;
}

std::vector<std::string> reported_rules(const CaseResult& c) {
    if (c.outcome == Outcome::failed || c.outcome == Outcome::waived) {
        std::vector<std::string> broke = failed_rules(c);
        if (!broke.empty()) return broke;
    }
    return c.rules;
}

std::vector<RuleCount> rule_counts(const CaseResult& c) {
    std::vector<RuleCount> out;
    auto add = [&out](std::string rule) {
        for (auto& rc : out)
            if (rc.rule == rule) {
                ++rc.count;
                return;
            }
        out.push_back({std::move(rule), 1});
    };
    if (c.outcome == Outcome::failed || c.outcome == Outcome::waived)
        for (const auto& st : c.steps)
            for (const auto& chk : st.checks)
                if (!chk.ok && !chk.warning) add(counted_rule(chk, c));
    if (!out.empty()) return out;
    if (c.rules.empty()) add(std::string(no_rule));
    for (const auto& r : c.rules) add(r);
    return out;
}

std::size_t RunSummary::count(Outcome o) const {
    std::size_t n = 0;
    for (const auto& s : suites) n += s.count(o);
    return n;
}

std::size_t RunSummary::total() const {
    std::size_t n = 0;
    for (const auto& s : suites) n += s.total();
    return n;
}

}  // namespace idconform
