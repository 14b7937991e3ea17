// Checks over collected ids and over the run's field versions.
#include "runner/collected.hpp"

#include "runner/evidence.hpp"
#include "runner/sequence_checks.hpp"

namespace idconform::runner {

bool evaluate_collected(const suite::Case& c, const Scope& scope, const std::string& rule,
                               const std::map<std::string, std::vector<std::string>>& collected, CaseResult& r) {
    StepRecord rec;
    rec.name = "checks over the collected ids";
    for (const auto& ce : c.collected) {
        static const std::vector<std::string> none;
        const auto it = collected.find(ce.list);
        const std::vector<std::string>& values = it == collected.end() ? none : it->second;
        auto add = [&](SequenceVerdict v) {
            CheckResult ch;
            ch.rule = rule;
            ch.what = "'" + ce.list + "': " + v.what;
            ch.expected = std::move(v.expected);
            ch.actual = std::move(v.actual);
            ch.ok = v.ok;
            ch.pos = ce.pos;
            rec.checks.push_back(std::move(ch));
        };
        const std::size_t want = ce.min_count > 0 ? static_cast<std::size_t>(ce.min_count) : 2;
        if (values.size() < want) {
            add({false, "number of values", "at least " + std::to_string(want),
                 std::to_string(values.size()) + " collected"});
            continue;
        }
        if (ce.distinct) add(check_distinct(values));
        if (ce.same) add(check_same(values));
        if (ce.time_ordered) add(check_time_ordered(values));
        if (ce.random) {
            auto prefix = interpolate(*ce.random, scope);
            if (prefix) add(check_random(values, *prefix));
            else add({false, "randomness", "a prefix", prefix.error()});
        }
    }
    const CheckResult* broken = first_failure(rec.checks);  // these checks are never warnings
    const bool failed = broken != nullptr;
    if (failed) {
        r.outcome = Outcome::failed;
        r.message = failure_message(*broken);
    }
    r.steps.push_back(std::move(rec));
    return failed;
}

CaseResult field_versions_case(const SuiteRun& run) {
    CaseResult r;
    r.suite = run.suite->name;
    r.name = "one UUID version per field across the run";
    r.rules = {"DATA-ID-003"};
    r.classname = run.suite->name + ".DATA-ID-003";
    r.pos = run.suite->pos;
    StepRecord rec;
    rec.name = "fields seen by the shape scan";
    for (const auto& [key, versions] : run.field_versions) {
        CheckResult c;
        c.rule = "DATA-ID-003";
        c.what = "versions of " + key;
        c.expected = "one version";
        std::string vs;
        for (int v : versions) vs += (vs.empty() ? "v" : ", v") + std::to_string(v);
        c.actual = vs;
        c.ok = versions.size() <= 1;
        if (!c.ok && r.message.empty()) {
            r.outcome = Outcome::failed;
            r.message = failure_message(c);
        }
        rec.checks.push_back(std::move(c));
    }
    if (run.field_versions.empty()) {
        // No value to compare: the check did not happen, so it is not a pass.
        skip(r, SkipCause::precondition,
             "not checked: the shape scan saw no UUID minted by the target in this suite's answers "
             "(values the harness sent and the target echoed back do not count)");
    }
    r.steps.push_back(std::move(rec));
    return r;
}

}  // namespace idconform::runner
