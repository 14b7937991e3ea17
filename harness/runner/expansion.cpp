// Case expansion (see expansion.hpp).
#include "runner/expansion.hpp"

#include "core/glob.hpp"
#include "ids/ids.hpp"
#include "ids/of_kind.hpp"
#include "runner/send_check.hpp"

#include <algorithm>

namespace idconform::runner {

namespace json = boost::json;

namespace {

bool selected(const RunOptions& opts, const suite::Suite& s, const suite::Case& c) {
    if (s.preflight) return true;  // checks the target can be tested at all, whatever is selected
    auto has_tag = [&](const std::string& t) {
        return std::find(c.tags.begin(), c.tags.end(), t) != c.tags.end() ||
               std::find(s.tags.begin(), s.tags.end(), t) != s.tags.end();
    };
    if (!opts.tags.empty() && std::none_of(opts.tags.begin(), opts.tags.end(), has_tag)) return false;
    if (std::any_of(opts.exclude_tags.begin(), opts.exclude_tags.end(), has_tag)) return false;
    return true;
}

// The elements of `c` (expand() without the send check); those the options
// do not select are counted in `filtered`.
void expand_case(const RunOptions& opts, const suite::Suite& s, const suite::Case& c, const Scope& scope,
                 std::vector<Expanded>& out, std::size_t& filtered) {
    const bool chosen = selected(opts, s, c);
    auto keep = [&](const std::string& element_name) {
        const auto& f = *c.for_each;
        if (!f.only.empty() && std::find(f.only.begin(), f.only.end(), element_name) == f.only.end()) return false;
        return std::find(f.except.begin(), f.except.end(), element_name) == f.except.end();
    };
    // (A profile's pack cases say what they lack in the profile's words
    // already, as their `skip`: see profile/expand.cpp.)
    std::string unmet;
    SkipCause unmet_cause = SkipCause::none;
    for (const auto& need : c.needs) {
        auto v = scope.resolve(need);
        if (!v || v->is_null()) {
            if (need.rfind("env:", 0) == 0) {
                unmet = "not run: needs the environment variable " + need.substr(4) + ", which is not set";
                unmet_cause = SkipCause::precondition;
            } else {
                unmet = "not described: the case needs the variable '" + need +
                        "', which nothing defines (define it under vars:, or give --var " + need + "=VALUE)";
                unmet_cause = SkipCause::not_described;
            }
            break;
        }
    }
    auto push = [&](Expanded e) {
        if (!chosen) {
            ++filtered;
            return;
        }
        if (!opts.filter.empty() && !s.preflight) {
            Expanded scratch;
            if (!glob_match(opts.filter, element(e, scratch).name)) {
                ++filtered;
                return;
            }
        }
        if (!c.skip.empty()) {
            e.pre_skip = c.skip;
            e.pre_skip_cause = c.skip_cause;
        } else if (!unmet.empty()) {
            e.pre_skip = unmet;
            e.pre_skip_cause = unmet_cause;
        }
        out.push_back(std::move(e));
    };
    if (!c.for_each) {
        Expanded e;
        e.c = &c;
        e.name = c.name;
        push(std::move(e));
        return;
    }
    const auto& f = *c.for_each;
    if (f.source == suite::ForEach::Source::count) {
        for (int i = 1; i <= f.count; ++i) {
            Expanded e;
            e.c = &c;
            e.name = c.name + " [" + std::to_string(i) + "]";
            e.bindings.emplace_back(f.as, json::value(i));
            push(std::move(e));
        }
        return;
    }
    if (f.source == suite::ForEach::Source::vectors) {
        const auto it = s.vector_sets.find(f.set);
        if (it == s.vector_sets.end()) {
            Expanded e{&c, c.name, {}, {}, f.pos.str() + ": unknown vector set '" + f.set + "'", {}};
            push(std::move(e));
            return;
        }
        for (const auto& v : it->second.vectors) {
            if (!keep(v.name)) continue;
            Expanded e;
            e.c = &c;
            e.vector = &v;
            push(std::move(e));
        }
        return;
    }
    // mutations of a live id, by the declared kind (never by the id's text:
    // the same profile gives the same cases on every run)
    auto idtext = interpolate(f.set, scope);
    if (!idtext) {
        push(Expanded{&c, c.name, {}, {}, f.pos.str() + ": " + idtext.error(), {}});
        return;
    }
    ids::IdKind kind = ids::kind_of_text(*idtext);
    if (!f.kind.empty()) {
        auto k = interpolate(f.kind, scope);
        const auto parsed = k ? ids::parse_kind(*k) : std::nullopt;
        if (!parsed) {
            push(Expanded{&c,
                          c.name,
                          {},
                          {},
                          f.pos.str() + ": for_each kind " +
                              (k ? "'" + *k + "' is not an id kind (" + ids::kind_list() + ")" : k.error()),
                          {}});
            return;
        }
        kind = *parsed;
    } else if (idtext->empty()) {
        push(Expanded{&c, c.name, {}, {}, f.pos.str() + ": for_each mutations of an empty id", {}});
        return;
    }
    const ids::ViewableFormat viewable{f.viewable_prefix, f.viewable_length};
    for (const auto& m : ids::mutations_of_kind(kind, *idtext, viewable)) {
        if (!keep(m.name)) continue;
        Expanded e;
        e.c = &c;
        e.name = c.name + " [" + m.name + "]";
        e.properties.push_back({"mutation", m.name});
        if (!m.not_applicable.empty()) {
            e.pre_skip = m.not_applicable;
            e.pre_skip_cause = SkipCause::not_applicable;
            push(std::move(e));
            continue;
        }
        e.bindings.emplace_back(f.as, json::value(m.text));
        e.bindings.emplace_back(f.as + ".value", json::value(m.text));
        e.bindings.emplace_back(f.as + ".name", json::value(m.name));
        e.bindings.emplace_back(f.as + ".breaks", json::value(m.breaks));
        e.bindings.emplace_back(f.as + ".source", json::value(*idtext));
        e.properties.push_back({"mutation_breaks", m.breaks});
        push(std::move(e));
    }
}

// Elements whose value a typed field of their request cannot hold (Nil into
// an int64 gRPC id): not applicable, saying why (send_check.hpp).
void skip_unsendable(const SendCheck& check, const suite::Case& c, const Scope& scope, std::vector<Expanded>& out,
                     std::size_t first) {
    for (std::size_t i = first; i < out.size(); ++i) {
        Expanded& e = out[i];
        if (!e.pre_skip.empty() || !e.pre_error.empty()) continue;
        Expanded scratch;
        const Expanded& el = element(e, scratch);
        if (el.bindings.empty()) continue;
        const json::value& value = el.bindings.front().second;  // `as`: the mutated id or the vector's value
        Scope scoped = scope;
        for (const auto& [k, v] : el.bindings) scoped.set(k, v);
        for (const auto& st : c.steps) {
            if (std::string why = check.unsendable(st, scoped, value); !why.empty()) {
                e.pre_skip = std::move(why);
                e.pre_skip_cause = SkipCause::not_applicable;
                break;
            }
        }
    }
}

}  // namespace

void expand(const RunOptions& opts, const suite::Suite& s, const suite::Case& c, const Scope& scope,
            std::vector<Expanded>& out, std::size_t* filtered_out, const SendCheck* check) {
    const std::size_t first = out.size();
    std::size_t filtered = 0;
    expand_case(opts, s, c, scope, out, filtered);
    if (filtered_out) *filtered_out += filtered;
    if (check && c.for_each && c.for_each->source != suite::ForEach::Source::count && has_typed_steps(c))
        skip_unsendable(*check, c, scope, out, first);
}

std::string rebind_mutation(const suite::ForEach& f, const std::string& name, Scope& scope, bool* not_applicable) {
    *not_applicable = false;
    if (f.source != suite::ForEach::Source::mutations) return "";
    auto idtext = interpolate(f.set, scope);
    if (!idtext) return f.pos.str() + ": " + idtext.error();
    ids::IdKind kind = ids::kind_of_text(*idtext);
    if (!f.kind.empty()) {
        auto k = interpolate(f.kind, scope);
        const auto parsed = k ? ids::parse_kind(*k) : std::nullopt;
        if (!parsed) return f.pos.str() + ": for_each kind " + (k ? "'" + *k + "' is not an id kind" : k.error());
        kind = *parsed;
    }
    const ids::ViewableFormat viewable{f.viewable_prefix, f.viewable_length};
    for (const auto& m : ids::mutations_of_kind(kind, *idtext, viewable)) {
        if (m.name != name) continue;
        if (!m.not_applicable.empty()) {
            *not_applicable = true;
            return m.not_applicable;
        }
        scope.set(f.as, json::value(m.text));
        scope.set(f.as + ".value", json::value(m.text));
        scope.set(f.as + ".breaks", json::value(m.breaks));
        scope.set(f.as + ".source", json::value(*idtext));
        return "";
    }
    return f.pos.str() + ": the fresh id '" + *idtext + "' has no mutation '" + name + "'";
}

// The case `e` stands for, with its name, bindings and properties: `e`
// itself, or (a vector element kept as a pointer) `scratch` filled in.
const Expanded& element(const Expanded& e, Expanded& scratch) {
    if (!e.vector) return e;
    const suite::Case& c = *e.c;
    const auto& f = *c.for_each;
    const suite::Vector& v = *e.vector;
    scratch = Expanded{};
    scratch.c = &c;
    scratch.name = c.name + " [" + v.name + "]";
    scratch.bindings.emplace_back(f.as, v.value);
    scratch.bindings.emplace_back(f.as + ".value", v.value);
    scratch.bindings.emplace_back(f.as + ".name", json::value(v.name));
    for (const auto& kv : v.fields) scratch.bindings.emplace_back(f.as + "." + std::string(kv.key()), kv.value());
    scratch.properties.push_back({"vector", f.set + "/" + v.name});
    scratch.pre_error = e.pre_error;
    scratch.pre_skip = e.pre_skip;
    scratch.pre_skip_cause = e.pre_skip_cause;
    return scratch;
}

bool selects(const RunOptions& opts) noexcept {
    return !opts.filter.empty() || !opts.tags.empty() || !opts.exclude_tags.empty();
}

namespace {

bool kept(const suite::ForEach& f, const std::string& name) {
    const bool in = f.only.empty() || std::find(f.only.begin(), f.only.end(), name) != f.only.end();
    return in && std::find(f.except.begin(), f.except.end(), name) == f.except.end();
}

}  // namespace

bool may_select(const RunOptions& opts, const suite::Suite& s, const suite::Case& c) {
    if (s.preflight) return true;  // exempt from the selection, as in selected()
    if (!selected(opts, s, c)) return false;
    if (opts.filter.empty()) return true;
    if (!c.for_each) return glob_match(opts.filter, c.name);
    const auto& f = *c.for_each;
    switch (f.source) {
        case suite::ForEach::Source::count:
            for (int i = 1; i <= f.count; ++i)
                if (glob_match(opts.filter, c.name + " [" + std::to_string(i) + "]")) return true;
            return false;
        case suite::ForEach::Source::vectors: {
            const auto it = s.vector_sets.find(f.set);
            if (it == s.vector_sets.end()) return glob_match(opts.filter, c.name);  // the error is its case
            for (const auto& v : it->second.vectors)
                if (kept(f, v.name) && glob_match(opts.filter, c.name + " [" + v.name + "]")) return true;
            return false;
        }
        case suite::ForEach::Source::mutations:
            return glob_match(opts.filter, c.name) || glob_match_prefix(opts.filter, c.name + " [");
    }
    return true;
}

bool may_select_any(const RunOptions& opts, const suite::Suite& s) {
    return std::any_of(s.cases.begin(), s.cases.end(), [&](const suite::Case& c) { return may_select(opts, s, c); });
}

std::vector<bool> suites_selected(const std::vector<suite::Suite>& suites, const RunOptions& opts) {
    std::vector<bool> runs(suites.size(), true);
    if (!selects(opts)) return runs;
    bool any_contract = false;
    for (std::size_t i = 0; i < suites.size(); ++i)
        if (!suites[i].preflight) {
            runs[i] = may_select_any(opts, suites[i]);
            any_contract = any_contract || runs[i];
        }
    for (std::size_t i = 0; i < suites.size(); ++i)
        if (suites[i].preflight) runs[i] = any_contract;
    return runs;
}

std::size_t unselected_count(const suite::Suite& s) {
    static const std::size_t mutation_count = ids::mutations(ids::nil_uuid).size();  // as shard/ estimates
    std::size_t n = 0;
    for (const auto& c : s.cases) {
        if (!c.for_each) {
            ++n;
            continue;
        }
        const auto& f = *c.for_each;
        if (f.source == suite::ForEach::Source::count) {
            n += static_cast<std::size_t>(std::max(f.count, 0));
        } else if (f.source == suite::ForEach::Source::vectors) {
            const auto it = s.vector_sets.find(f.set);
            if (it == s.vector_sets.end()) {
                ++n;
                continue;
            }
            for (const auto& v : it->second.vectors) n += kept(f, v.name);
        } else if (!f.only.empty()) {
            n += f.only.size();
        } else {
            n += mutation_count > f.except.size() ? mutation_count - f.except.size() : 1;
        }
    }
    return n;
}

std::size_t known_case_count(const std::vector<suite::Suite>& suites, const RunOptions& options) {
    std::size_t total = 0;
    bool known = options.filter.empty() && options.tags.empty() && options.exclude_tags.empty();
    for (const auto& s : suites) {
        for (const auto& c : s.cases) {
            if (!c.for_each) { ++total; continue; }
            const auto& f = *c.for_each;
            if (f.source == suite::ForEach::Source::count) {
                total += static_cast<std::size_t>(f.count);
            } else if (f.source == suite::ForEach::Source::vectors && s.vector_sets.count(f.set)) {
                for (const auto& v : s.vector_sets.at(f.set).vectors) {
                    const bool in = f.only.empty() || std::find(f.only.begin(), f.only.end(), v.name) != f.only.end();
                    const bool out = std::find(f.except.begin(), f.except.end(), v.name) != f.except.end();
                    total += in && !out;
                }
            } else {
                known = false;
            }
        }
    }
    return known ? total : 0;
}

}  // namespace idconform::runner
