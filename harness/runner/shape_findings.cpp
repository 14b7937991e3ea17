// The shape scan's findings of a run, folded by rule x endpoint x field
// (shape_findings.hpp).
#include "runner/shape_findings.hpp"

#include "runner/answer_scan.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <tuple>

namespace idconform::runner {

namespace {

std::string case_name(const std::string& rule, const std::string& field, const std::string& endpoint) {
    return rule + " " + field + " in " + endpoint;
}

std::string plural(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::size_t property_number(const CaseResult& c, std::string_view name) {
    for (const auto& p : c.properties)
        if (p.name == name) {
            std::size_t n = 0;
            std::from_chars(p.value.data(), p.value.data() + p.value.size(), n);
            return n;
        }
    return 0;
}

void set_property(CaseResult& c, std::string_view name, std::string value) {
    for (auto& p : c.properties)
        if (p.name == name) {
            p.value = std::move(value);
            return;
        }
    c.properties.push_back({std::string(name), std::move(value)});
}

const std::string& property(const CaseResult& c, std::string_view name) {
    static const std::string none;
    for (const auto& p : c.properties)
        if (p.name == name) return p.value;
    return none;
}

// "shape scan /parent_id: expected no Nil UUID, got ... (seen in 31 answers
// of GET /v1/products/{id}, 40 values)": the first value found, then the sums.
void say(CaseResult& c) {
    const std::size_t answers = property_number(c, "answers"), values = property_number(c, "values");
    std::string first;
    for (const auto& st : c.steps) {
        for (const auto& chk : st.checks)
            if (!chk.ok && !chk.warning) {
                first = chk.what + ": expected " + chk.expected + ", got " + chk.actual;
                break;
            }
        if (!first.empty()) break;
    }
    if (first.empty()) first = "shape scan " + property(c, "field") + ": a finding";
    c.message = first + " (seen in " + plural(answers, "answer") + " of " + property(c, "endpoint");
    if (values != answers) c.message += ", " + plural(values, "value");
    c.message += ")";
}

}  // namespace

void ShapeFindings::add(const std::string& endpoint, const std::string& transport, AnswerScan&& scan,
                        const std::function<StepRecord()>& example) {
    // This answer's findings per key, in the order found.
    auto key_of = [&](const std::string& rule, std::string field) {
        Key key{rule.empty() ? std::string(no_rule) : rule, endpoint, std::move(field)};
        if (!entries_.count(key) && entries_.size() >= max_shape_keys) std::get<2>(key) = "(other fields)";
        return key;
    };
    std::map<Key, std::vector<CheckResult>> mine;
    std::map<Key, std::size_t> more;  // values found past the answer's listed ones
    for (std::size_t i = 0; i < scan.findings.size(); ++i) {
        CheckResult& f = scan.findings[i];
        // The check counting the unlisted ones: they are counted by field below.
        if (i >= scan.fields.size() || scan.fields[i].empty()) continue;
        mine[key_of(f.rule, scan.fields[i])].push_back(std::move(f));
    }
    for (const auto& [rule_field, n] : scan.unlisted) {
        const Key key = key_of(rule_field.first, rule_field.second);
        more[key] += n;
        mine.try_emplace(key);  // a field seen only past the listed ones is still seen
    }
    std::optional<StepRecord> evidence;  // made once, for the keys that want an example
    for (auto& [key, found] : mine) {
        auto [it, fresh] = entries_.try_emplace(key);
        Entry& e = it->second;
        if (fresh) {
            std::tie(e.rule, e.endpoint, e.field) = key;
            e.transport = transport;
        }
        ++e.answers;
        const auto extra = more.find(key);
        const std::size_t unlisted = extra == more.end() ? 0 : extra->second;
        e.values += found.size() + unlisted;
        // Counted; an answer whose values here were all past the listed ones has none to show.
        if (e.examples.size() >= shape_examples_per_finding || found.empty()) continue;
        if (!evidence) evidence = example();
        StepRecord rec = *evidence;
        if (found.size() + unlisted > shape_values_per_example) {
            const std::size_t rest = found.size() + unlisted - std::min(found.size(), shape_values_per_example);
            found.resize(std::min(found.size(), shape_values_per_example));
            CheckResult count = found.back();
            count.what = "shape scan " + e.field;
            count.actual = plural(rest, "more value") + " at this field in this answer";
            found.push_back(std::move(count));
        }
        rec.checks = std::move(found);
        e.examples.push_back(std::move(rec));
    }
}

std::vector<CaseResult> ShapeFindings::take_results() {
    std::vector<CaseResult> out;
    out.reserve(entries_.size());
    for (auto& [key, e] : entries_) {
        CaseResult c;
        c.suite = std::string(shape_scan_suite);
        c.name = case_name(e.rule, e.field, e.endpoint);
        c.classname = c.suite + "." + e.rule;
        c.rules = {e.rule};
        c.outcome = Outcome::failed;
        c.properties = {{"transport", e.transport},
                        {"endpoint", e.endpoint},
                        {"field", e.field},
                        {"answers", std::to_string(e.answers)},
                        {"values", std::to_string(e.values)}};
        if (!e.examples.empty() && !e.examples.front().checks.empty()) c.pos = e.examples.front().checks.front().pos;
        c.steps = std::move(e.examples);
        say(c);
        out.push_back(std::move(c));
    }
    entries_.clear();
    std::sort(out.begin(), out.end(), [](const CaseResult& a, const CaseResult& b) { return a.name < b.name; });
    return out;
}

void merge_shape_result(CaseResult& into, CaseResult&& more) {
    set_property(into, "answers", std::to_string(property_number(into, "answers") + property_number(more, "answers")));
    set_property(into, "values", std::to_string(property_number(into, "values") + property_number(more, "values")));
    for (auto& st : more.steps) {
        if (into.steps.size() >= shape_examples_per_finding) break;
        into.steps.push_back(std::move(st));
    }
    into.seconds += more.seconds;
    // A finding waived in one shard stays what the waiver made it; one that
    // failed anywhere fails.
    if (more.outcome == Outcome::failed) into.outcome = Outcome::failed;
    if (into.outcome == Outcome::failed) say(into);
}

}  // namespace idconform::runner
