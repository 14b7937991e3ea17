// `idconform run --dry-run` (see dry_run.hpp).
#include "cli/dry_run.hpp"

#include "binding/deletion.hpp"
#include "core/glob.hpp"
#include "core/overloaded.hpp"
#include "core/redact.hpp"
#include "ids/ids.hpp"
#include "runner/expansion.hpp"
#include "runner/scope.hpp"
#include "runner/steps/step.hpp"
#include "binding/operations.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace idconform::cli {

namespace {

namespace json = boost::json;

// What a request does to the target, as far as the suite says.
enum class Effect { creates, changes, deletes, reads, publishes, other };

std::string_view effect_word(Effect e) {
    switch (e) {
        case Effect::creates: return "create";
        case Effect::changes: return "change";
        case Effect::deletes: return "delete";
        case Effect::reads: return "read";
        case Effect::publishes: return "publish";
        case Effect::other: return "other";
    }
    return "other";
}

// The scope a suite's templates see before anything is sent: its variables
// that need no run-time value, then --var. Endpoints show the profile's
// `${res.*}` filled in and run-time values as `{name}` (steps::site_template,
// as the run's evidence names them).
runner::Scope static_scope(const runner::RunOptions& o, const suite::Suite& s) {
    runner::Scope scope;
    for (const auto& v : s.vars) {
        if (v.deferred) continue;
        if (auto val = runner::interpolate_json(v.value, scope)) scope.set(v.name, std::move(*val), v.secret);
    }
    for (const auto& [k, v] : o.vars) scope.set(k, json::value(v));
    return scope;
}

// The endpoint a step reaches ("POST /v1/products", "grpc shop.v1.Products/Create",
// "kafka produce orders", "scan exports/x.ndjson") and what it does there. A
// gRPC method's effect is known when the step books a cleanup (it creates)
// or when it is the method the suite's cleanup deletes with; otherwise it is
// told as "other", not guessed from its name.
std::pair<std::string, Effect> endpoint(const suite::Step& st, const std::set<std::string>& grpc_deletes,
                                        const runner::Scope& scope) {
    auto fill = [&](const std::string& t) { return runner::steps::site_template(t, scope); };
    return std::visit(
        overloaded{
            [&](const suite::HttpRequest& h) -> std::pair<std::string, Effect> {
                const std::string method = fill(h.method);
                Effect e = Effect::reads;  // GET, HEAD, OPTIONS
                if (method == "DELETE") e = Effect::deletes;
                else if (st.cleanup) e = Effect::creates;  // a 2xx makes an entity the cleanup deletes
                else if (method == "PUT" || method == "PATCH") e = Effect::changes;
                else if (method != "GET" && method != "HEAD" && method != "OPTIONS") e = Effect::other;
                return {method + " " + fill(h.path), e};
            },
            [&](const suite::GrpcCall& g) -> std::pair<std::string, Effect> {
                const std::string method = fill(g.method);
                const Effect e = st.cleanup                    ? Effect::creates
                                 : grpc_deletes.count(method) ? Effect::deletes
                                                               : Effect::other;
                return {"grpc " + method, e};
            },
            [&](const suite::KafkaRequest& k) -> std::pair<std::string, Effect> {
                const bool produce = k.op == suite::KafkaRequest::Op::produce;
                return {std::string("kafka ") + (produce ? "produce " : "consume ") + fill(k.topic),
                        produce ? Effect::publishes : Effect::reads};
            },
            [&](const suite::FileScan& f) -> std::pair<std::string, Effect> { return {"scan " + fill(f.path), Effect::reads}; },
            [](const suite::OpCall&) -> std::pair<std::string, Effect> { return {"operation", Effect::other}; },
        },
        st.request);
}

// What the cleanup deletes an entity `st` created with: the deletion its
// binding gave it (`bound`), or its cleanup as written.
std::string deleted_by(const suite::Step& st, const binding::StepBinding* bound, const runner::Scope& scope) {
    const binding::Deletion cl =
        bound && bound->deletion ? *bound->deletion : binding::Deletion::written(*st.cleanup);
    if (cl.by_design || !cl.impossible.empty()) return "not deleted: " + cl.impossible;
    if (!cl.grpc_method.empty()) return "deleted at the end by grpc " + runner::steps::site_template(cl.grpc_method, scope);
    if (cl.at_location) return "deleted at the end by DELETE at its Location";
    return "deleted at the end by " + cl.method + " " + runner::steps::site_template(cl.path, scope) +
           (cl.body_id_at.empty() ? "" : " with its id at " + cl.body_id_at + " of the body");
}

// How many cases `c` stands for that the options select, and whether that
// is an estimate (a for_each over the mutations of an id captured at run
// time: as many as a UUID has, less its `except:`).
std::pair<std::size_t, bool> selected_elements(const runner::RunOptions& o, const suite::Suite& s,
                                               const suite::Case& c) {
    if (runner::selects(o) && !runner::may_select(o, s, c)) return {0, false};
    const bool by_name = !o.filter.empty() && !s.preflight;
    auto keep = [&](const std::string& element_name) {
        const auto& f = *c.for_each;
        if (!f.only.empty() && std::find(f.only.begin(), f.only.end(), element_name) == f.only.end()) return false;
        if (std::find(f.except.begin(), f.except.end(), element_name) != f.except.end()) return false;
        return !by_name || glob_match(o.filter, c.name + " [" + element_name + "]");
    };
    if (!c.for_each) return {1, false};
    const auto& f = *c.for_each;
    std::size_t n = 0;
    switch (f.source) {
        case suite::ForEach::Source::count:
            for (int i = 1; i <= f.count; ++i) n += keep(std::to_string(i)) ? 1 : 0;
            return {n, false};
        case suite::ForEach::Source::vectors: {
            const auto it = s.vector_sets.find(f.set);
            if (it == s.vector_sets.end()) return {1, false};  // its error is one case
            for (const auto& v : it->second.vectors) n += keep(v.name) ? 1 : 0;
            return {n, false};
        }
        case suite::ForEach::Source::mutations: {
            for (const auto& m : ids::mutations(ids::nil_uuid)) {
                const bool in = f.only.empty() || std::find(f.only.begin(), f.only.end(), m.name) != f.only.end();
                n += in && std::find(f.except.begin(), f.except.end(), m.name) == f.except.end() ? 1 : 0;
            }
            return {n, true};
        }
    }
    return {1, false};
}

// The base URL (and gRPC address) the suite would reach: its target's
// templates filled in from its variables, --var and the environment, with
// credentials masked; the template itself when a value is known only at run
// time (a variable a setup captures).
std::string where(const runner::RunOptions& o, const suite::Suite& s, const runner::Scope& scope) {
    auto fill = [&](const std::string& tmpl) {
        auto r = runner::interpolate(tmpl, scope);
        if (!r) return tmpl + " (" + r.error() + ")";
        std::string text = redact::redact_url(*r);
        redact::Secrets(scope.secrets()).mask(text);
        return text;
    };
    std::string out;
    if (o.base_url) out = redact::redact_url(*o.base_url) + " (--base-url)";
    else if (!s.target.base_url.empty()) out = fill(s.target.base_url);
    if (s.target.grpc) out += std::string(out.empty() ? "" : ", ") + "grpc " + fill(s.target.grpc->address);
    if (!s.target.kafka.brokers.empty()) out += std::string(out.empty() ? "" : ", ") + "kafka " + fill(s.target.kafka.brokers);
    return out.empty() ? "(no target)" : out;
}

struct Tally {
    std::size_t times = 0;
    std::string cleanup;  // what deletes what it creates
};

std::string with_commas(std::size_t n) {
    std::string s = std::to_string(n);
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

}  // namespace

DryRunTotals print_dry_run(std::ostream& out, const std::vector<suite::Suite>& suites, const runner::RunOptions& o) {
    DryRunTotals t;
    const std::vector<bool> selected = runner::suites_selected(suites, o);
    std::map<Effect, std::size_t> all;
    for (std::size_t i = 0; i < suites.size(); ++i) {
        if (!selected[i]) {
            if (!suites[i].preflight) t.filtered_out += runner::unselected_count(suites[i]);
            continue;
        }
        std::optional<binding::BoundSuite> storage;  // the requests the profile binds the calls to, as the run sends them
        const binding::Bound bound = binding::with_calls_bound(suites[i], storage);
        const suite::Suite& s = bound.suite;
        ++t.suites;
        out << "suite '" << s.name << "' (" << s.file << ")" << (s.preflight ? ", the preflight" : "") << '\n';
        const runner::Scope scope = static_scope(o, s);
        out << "  target   " << where(o, s, scope) << '\n';
        std::set<std::string> grpc_deletes;  // the methods the profile deletes with
        auto note_delete = [&](const suite::Step& st) {
            const binding::StepBinding* b = bound.steps.of(st);
            if (st.cleanup && b && b->deletion && !b->deletion->grpc_method.empty())
                grpc_deletes.insert(runner::steps::site_template(b->deletion->grpc_method, scope));
        };
        for (const auto& st : s.setup) note_delete(st);
        for (const auto& c : s.cases)
            for (const auto& st : c.steps) note_delete(st);
        std::map<std::pair<Effect, std::string>, Tally> sends;
        auto count = [&](const suite::Step& st, std::size_t times) {
            auto [ep, effect] = endpoint(st, grpc_deletes, scope);
            auto& tally = sends[{effect, ep}];
            tally.times += times * static_cast<std::size_t>(std::max(st.repeat, 1));
            if (st.cleanup) tally.cleanup = deleted_by(st, bound.steps.of(st), scope);
        };
        for (const auto& st : s.setup) {
            const auto [ep, effect] = endpoint(st, grpc_deletes, scope);
            out << "  setup    " << ep << " (" << effect_word(effect)
                << (st.cleanup ? "; " + deleted_by(st, bound.steps.of(st), scope) : std::string()) << ")\n";
            count(st, 1);
        }
        std::size_t cases = 0, skipped = 0;
        bool estimate = false;
        for (const auto& c : s.cases) {
            const auto [n, about] = selected_elements(o, s, c);
            if (!s.preflight && runner::selects(o))  // what the selection leaves out of this case
                t.filtered_out += selected_elements(runner::RunOptions{}, s, c).first - n;
            if (n == 0) continue;
            cases += n;
            estimate = estimate || about;
            if (!c.skip.empty()) {  // known not to run: sends nothing
                skipped += n;
                continue;
            }
            for (const auto& st : c.steps) count(st, n);
        }
        for (const auto& st : s.teardown) count(st, 1);
        t.cases += cases;
        out << "  cases    " << (estimate ? "about " : "") << with_commas(cases);
        if (skipped > 0) out << " (" << with_commas(skipped) << " skipped before sending anything: `run` says why)";
        out << '\n';
        for (const auto& [key, tally] : sends) {
            const std::string_view word = effect_word(key.first);
            out << "  " << word << std::string(word.size() < 9 ? 9 - word.size() : 1, ' ') << key.second << " x" << with_commas(tally.times);
            if (!tally.cleanup.empty()) out << " (" << tally.cleanup << ")";
            out << '\n';
            all[key.first] += tally.times;
        }
    }
    out << "in all: " << with_commas(t.suites) << " suite" << (t.suites == 1 ? "" : "s") << ", "
        << with_commas(t.cases) << " case" << (t.cases == 1 ? "" : "s");
    if (t.filtered_out > 0) out << " (" << with_commas(t.filtered_out) << " filtered out)";
    out << "; requests, at most:";
    bool first = true;
    for (const auto& [e, n] : all) {
        out << (first ? " " : ", ") << with_commas(n) << " " << (e == Effect::other ? "other" : effect_word(e));
        first = false;
    }
    if (first) out << " none";
    out << ". What the run creates is deleted at its suite's end unless a line above says otherwise. "
           "Nothing was sent (--dry-run).\n";
    return t;
}

}  // namespace idconform::cli
