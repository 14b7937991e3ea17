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

const char* to_string(SkipCause c) noexcept {
    switch (c) {
        case SkipCause::none: return "none";
        case SkipCause::not_applicable: return "not_applicable";
        case SkipCause::not_described: return "not_described";
        case SkipCause::precondition: return "precondition";
        case SkipCause::stopped: return "stopped";
    }
    return "none";
}

const char* skip_cause_words(SkipCause c) noexcept {
    switch (c) {
        case SkipCause::none: return "not skipped";
        case SkipCause::not_applicable: return "not applicable";
        case SkipCause::not_described: return "not described";
        case SkipCause::precondition: return "precondition not met";
        case SkipCause::stopped: return "run stopped";
    }
    return "not skipped";
}

std::optional<SkipCause> parse_skip_cause(std::string_view name) noexcept {
    for (const SkipCause c : skip_causes)
        if (name == to_string(c)) return c;
    if (name == to_string(SkipCause::none)) return SkipCause::none;
    return std::nullopt;
}

SkipCause skip_cause_of_message(std::string_view m) noexcept {
    auto starts = [&](std::string_view p) { return m.substr(0, p.size()) == p; };
    auto has = [&](std::string_view p) { return m.find(p) != std::string_view::npos; };
    if (starts("not applicable")) return SkipCause::not_applicable;
    if (starts("not described")) return SkipCause::not_described;
    if ((starts("not run") || starts("not finished") || starts("not scanned")) &&
        (has("interrupted") || has("--max-failures") || has("--max-violations")))
        return SkipCause::stopped;
    return SkipCause::precondition;
}

void skip(CaseResult& c, SkipCause cause, std::string message) {
    c.outcome = Outcome::skipped;
    c.skip_cause = cause == SkipCause::none ? SkipCause::precondition : cause;
    c.message = std::move(message);
}

const char* to_string(ErrorCause c) noexcept {
    switch (c) {
        case ErrorCause::none: return "none";
        case ErrorCause::suite: return "suite";
        case ErrorCause::transport: return "transport";
        case ErrorCause::harness_limit: return "harness_limit";
        case ErrorCause::authentication: return "authentication";
        case ErrorCause::cleanup: return "cleanup";
        case ErrorCause::input: return "input";
    }
    return "none";
}

std::optional<ErrorCause> parse_error_cause(std::string_view name) noexcept {
    for (std::size_t i = 0; i < error_cause_count; ++i)
        if (name == to_string(static_cast<ErrorCause>(i))) return static_cast<ErrorCause>(i);
    return std::nullopt;
}

bool target_error(ErrorCause c) noexcept {
    return c == ErrorCause::transport || c == ErrorCause::harness_limit || c == ErrorCause::authentication;
}

void set_error(CaseResult& c, ErrorCause cause, std::string message) {
    c.outcome = Outcome::error;
    c.error_cause = cause == ErrorCause::none ? ErrorCause::suite : cause;
    c.message = std::move(message);
}

SkipCause counted_skip_cause(const CaseResult& c) noexcept {
    if (c.outcome != Outcome::skipped) return SkipCause::none;
    return c.skip_cause != SkipCause::none ? c.skip_cause : skip_cause_of_message(c.message);
}

void SuiteResult::count_streamed(const CaseResult& c) noexcept {
    ++streamed[static_cast<std::size_t>(c.outcome)];
    if (c.outcome == Outcome::skipped) ++skipped_streamed[static_cast<std::size_t>(counted_skip_cause(c))];
}

std::size_t SuiteResult::skipped(SkipCause cause) const {
    return skipped_streamed[static_cast<std::size_t>(cause)] +
           static_cast<std::size_t>(std::count_if(cases.begin(), cases.end(), [cause](const CaseResult& c) {
               return c.outcome == Outcome::skipped && counted_skip_cause(c) == cause;
           }));
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

std::size_t RunSummary::skipped(SkipCause cause) const {
    std::size_t n = 0;
    for (const auto& s : suites) n += s.skipped(cause);
    return n;
}

std::size_t RunSummary::total() const {
    std::size_t n = 0;
    for (const auto& s : suites) n += s.total();
    return n;
}

}  // namespace idconform
