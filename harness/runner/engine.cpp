// The engine (see engine.hpp): suites, phases, cases and the step loop.
#include "runner/engine.hpp"

#include "ids/ids.hpp"
#include "core/redact.hpp"
#include "runner/answer_scan.hpp"
#include "runner/auth.hpp"
#include "runner/preflight.hpp"
#include "runner/captures.hpp"
#include "runner/checks.hpp"
#include "runner/cleanup.hpp"
#include "runner/engine_detail.hpp"
#include "runner/left_behind.hpp"
#include "runner/collected.hpp"
#include "binding/access.hpp"
#include "binding/entity_view.hpp"
#include "binding/operations.hpp"
#include "runner/evidence.hpp"
#include "runner/steps/file.hpp"
#include "runner/steps/kafka.hpp"
#include "runner/steps/step.hpp"
#include "runner/suite_setup.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>

namespace idconform::runner {

using binding::entity_view;
using binding::EntityView;

namespace asio = boost::asio;
namespace json = boost::json;
using asio::awaitable;
using asio::use_awaitable;
using detail::seconds_since;
using detail::signal_name;

namespace {

std::string join(const std::vector<std::string>& v, std::string_view sep) {
    std::string s;
    for (const auto& e : v) s += (s.empty() ? "" : std::string(sep)) + e;
    return s;
}

// The identity of an expanded case's result: suite, name, rules,
// classname "<suite>.<first rule>", position and element properties. None of
// it depends on the outcome (CI keys test history on name and classname):
// the rules a failure broke are read from its checks (core/result.hpp).
CaseResult case_skeleton(const suite::Suite& s, const Expanded& e) {
    CaseResult r;
    r.suite = s.name;
    r.name = e.name;
    r.rules = e.c->rules;
    r.classname = s.name + (r.rules.empty() ? "" : "." + r.rules.front());
    r.pos = e.c->pos;
    r.properties = e.properties;
    return r;
}

CaseResult phase_result(const suite::Suite& s, const std::string& phase) {
    CaseResult r;
    r.suite = s.name;
    r.name = phase;
    r.classname = s.name + "." + phase;
    r.pos = s.pos;
    return r;
}

bool any_failure(const std::vector<CheckResult>& checks) { return first_failure(checks) != nullptr; }

// A step marked `precondition:` failed in its own expectations: the case is
// skipped. (What the shape scan finds in its answer is a result of its own,
// shape_findings.hpp.)
bool unmet_precondition(const suite::Expect& e) { return !e.precondition.empty(); }

// "step 2, the live entity is still there": where in its case a step ran
// (1-based, as its report lists the steps) and what it was for (its name).
std::string step_label(std::size_t index, const std::string& name) {
    return "step " + std::to_string(index + 1) + (name.empty() ? "" : ", " + name);
}

// What a later case finds gone is keyed by the suite, the URL up to its
// last segment (the collection) and that segment folded: lower-case letters
// and digits only, so that the canonical id of an entity a non-canonical
// spelling (case, braces, hyphens, a urn: prefix) deleted is found in it.
struct GoneKey {
    std::string collection;
    std::string folded;
};
GoneKey gone_key(const SuiteRun& run, const Request& req) {
    const std::string url = req.url.substr(0, req.url.find('?'));
    const auto slash = url.rfind('/');
    GoneKey k;
    k.collection = std::to_string(reinterpret_cast<std::uintptr_t>(run.suite)) + "\n" + url.substr(0, slash);
    for (std::size_t i = slash == std::string::npos ? 0 : slash + 1; i < url.size(); ++i) {
        // the segment as sent: percent-encoded bytes count as what they encode
        if (url[i] == '%' && i + 2 < url.size()) {
            i += 2;
            continue;
        }
        const unsigned char ch = static_cast<unsigned char>(url[i]);
        if (std::isalnum(ch)) k.folded += static_cast<char>(std::tolower(ch));
    }
    return k;
}

bool answered(const StepRecord& st, int lo, int hi) {
    const auto& x = st.exchange;
    return !x.error && x.response && x.response->status >= lo && x.response->status <= hi;
}

bool changes_entity(const StepRecord& st) {
    const std::string& m = st.exchange.request.method;
    return (m == "DELETE" || m == "PUT" || m == "PATCH") && answered(st, 200, 299);
}

}  // namespace

void Engine::note_gone(const SuiteRun& run, const CaseResult& r) {
    std::string finding;
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
        const StepRecord& st = r.steps[i];
        const Request& req = st.exchange.request;
        const bool change = changes_entity(st);
        if (change && finding.empty())
            finding = "case '" + r.name + "', " + step_label(i, st.name) + ": " + req.method + " " + req.url +
                      " was answered " + std::to_string(st.exchange.response->status);
        if (finding.empty()) continue;
        if (change || answered(st, 404, 404) || answered(st, 410, 410)) {
            GoneKey k = gone_key(run, req);
            gone_.push_back({std::move(k.collection), std::move(k.folded), finding});
        }
    }
}

std::string Engine::gone_by(const SuiteRun& run, const StepRecord& st) const {
    if (!answered(st, 404, 404) && !answered(st, 410, 410)) return "";
    const GoneKey k = gone_key(run, st.exchange.request);
    constexpr std::size_t shortest = 8;  // a folded id shorter than this matches too much by chance
    if (k.folded.size() < shortest) return "";
    for (const auto& g : gone_)
        if (g.collection == k.collection && g.folded.find(k.folded) != std::string::npos) return g.finding;
    return "";
}

awaitable<bool> Engine::make_fresh(SuiteRun& run, const Expanded& e, Scope& scope, const std::string& rule,
                                   CaseResult& r) {
    const suite::Case& c = *e.c;
    const suite::Suite& s = *run.suite;
    auto named = [&](const std::string& n) { return std::find(c.fresh.begin(), c.fresh.end(), n) != c.fresh.end(); };
    for (const auto& v : s.vars) {
        if (!named(v.name)) continue;
        if (v.deferred) {
            scope.set_deferred(v.name, v.value);
            continue;
        }
        auto val = interpolate_json(v.value, scope);
        if (!val) {
            set_error(r, ErrorCause::suite, "fresh: " + v.pos.str() + ": variable '" + v.name + "': " + val.error());
            count_error(ErrorCause::suite);
            co_return false;
        }
        scope.set(v.name, std::move(*val), v.secret);
    }
    for (const auto& st : s.setup) {
        if (!c.fresh_all_setup && (st.name.empty() || !named(st.name))) continue;
        StepOutcome so = co_await run_step(run, st, scope, rule);
        so.record.name = "fresh: " + so.record.name;
        r.steps.push_back(std::move(so.record));
        const StepRecord& rec = r.steps.back();
        const std::string where = step_label(r.steps.size() - 1, rec.name);
        if (!so.suite_error.empty()) {
            set_error(r, ErrorCause::suite, where + ": " + so.suite_error);
            count_error(ErrorCause::suite);
        } else if (so.transport_error) {
            set_error(r, so.cause, where + ": " + describe_transport_error(rec.exchange));
            count_error(so.cause);
        } else if (so.failed) {
            // The case's precondition: without its own entity it can say nothing.
            skip(r, SkipCause::precondition,
                 "not checked: the fresh state this case needs could not be made (" + where + ": " +
                     failure_message(*first_failure(rec.checks)) + ")");
        } else {
            continue;
        }
        co_return false;
    }
    if (c.for_each && c.for_each->source == suite::ForEach::Source::mutations) {
        std::string name;
        for (const auto& [k, v] : e.bindings)
            if (k == c.for_each->as + ".name" && v.is_string()) name = std::string(v.as_string());
        if (!name.empty()) {
            bool not_applicable = false;
            std::string why = rebind_mutation(*c.for_each, name, scope, &not_applicable);
            if (!why.empty()) {
                if (not_applicable) skip(r, SkipCause::not_applicable, std::move(why));
                else {
                    set_error(r, ErrorCause::suite, std::move(why));
                    count_error(ErrorCause::suite);
                }
                co_return false;
            }
        }
    }
    co_return true;
}

awaitable<Exchange> Engine::send_with_retries(SuiteRun& run, const Request& req) {
    Exchange x;
    int attempt = 0;
    for (;;) {
        ++attempt;
        if (limiter_.active()) co_await limiter_.acquire();
        x = co_await run.send(req);
        if (!x.error || attempt > opts_.retries || !x.error->retryable) break;
        asio::steady_timer t(run.executor, opts_.retry_backoff * (1 << std::min(attempt - 1, 10)));
        co_await t.async_wait(use_awaitable);
    }
    x.attempts = attempt;
    co_return x;
}

void Engine::add_schema_findings(SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x,
                                 const Scope& scope, const std::string& step_name) {
    std::map<std::string, AnswerScan> by_schema;
    for (const auto& f : x.findings) {
        AnswerScan& scan = by_schema[f.schema.empty() ? std::string("the schema") : f.schema];
        scan.findings.push_back(CheckResult{f.rule, f.what, f.expected, f.actual, false, false, f.pos.line > 0 ? f.pos : st.pos});
        scan.fields.push_back(f.field.empty() ? f.what : f.field);
    }
    for (auto& [schema, scan] : by_schema)
        shape_.add(schema, steps::to_string(steps::wire(st)), std::move(scan),
                   [&] { return shape_example(run, st, req, x, scope, step_name); });
}

StepRecord Engine::shape_example(const SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x,
                                 const Scope& scope, const std::string& step_name) {
    StepRecord rec;
    rec.name = run.suite->name + " \xE2\x80\xBA " + step_name;
    rec.exchange = x;
    if (rec.exchange.request.url.empty()) rec.exchange.request = req;
    add_evidence(rec, steps::wire(st), run.env, scope.secrets());
    return rec;
}

void Engine::judge_answer(SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x, Scope& scope,
                          const std::string& rule, Collected* collected, StepOutcome& out) {
    CheckContext ctx{&scope, rule, opts_.clock_skew, &run.seen_ids, collected};
    BodyJson body(*x.response);  // parsed once for checks, scan, captures and cleanup
    auto& checks = out.record.checks;
    ctx.refused = &run.suite->refused;
    if (auto why = unauthenticated(*run.suite, st, req, *x.response, confirmed_)) {
        out.unauthenticated = std::move(*why);  // nothing about the contract: no checks, captures or scan
        return;
    }
    if (run.suite->preflight && !answered_unauthenticated(*x.response))
        confirmed_.emplace(step_principal(st), req.method + " " + redact::redact_url(req.url) + " answered " +
                                                   std::to_string(x.response->status));
    checks = evaluate(st.expect, x, ctx, body);
    steps::add_kind_checks(st, x, st.expect.rule.empty() ? rule : st.expect.rule, checks);
    // What the transport found in the contract itself (an id field typed
    // bytes or int64 in a gRPC schema) is a claim about the schema, not
    // about this step: one result per rule x schema file x field, filed
    // with the shape scan's, so the step (a setup, perhaps) goes on.
    add_schema_findings(run, st, req, x, scope, out.record.name);
    const int status = x.response->status;
    std::optional<CheckResult> scan_note;  // why the answer could not be scanned (advisory)
    if (run.suite->scan && status / 100 == 2) {
        std::map<std::string, std::set<int>> seen;
        const std::set<std::string> sent = sent_strings(req.body);  // echoes are not minted versions
        AnswerScan scan = scan_answer(*x.response, body, &seen, &sent);
        if (scan.note) (scan_note = std::move(scan.note))->pos = st.pos;
        const std::string site = steps::scan_site(st, req, scope);
        for (auto& [field, versions] : seen)
            run.field_versions[site + " " + field].insert(versions.begin(), versions.end());
        if (!scan.findings.empty()) {
            // Filed under the endpoint, not under this step: the case goes on
            // to be judged on its own expectations.
            // What a finding quotes is masked like the rest of the evidence
            // (a UUID-shaped API key echoed upper-case is a finding too).
            redact::Secrets secrets(scope.secrets());
            secrets.add_credentials_of(x);
            for (auto& c : scan.findings) {
                c.pos = st.pos;
                secrets.mask(c.actual);
                secrets.mask(c.expected);
            }
            shape_.add(site, steps::to_string(steps::wire(st)), std::move(scan),
                       [&] { return shape_example(run, st, req, x, scope, out.record.name); });
        }
    }
    if (opts_.warnings_fail)
        for (auto& c : checks) c.warning = false;
    if (scan_note) checks.push_back(std::move(*scan_note));  // a harness limit: never a failure
    out.failed = any_failure(checks);
    // Only a successful DELETE proves it is gone: a 404 may be another
    // principal being refused, and so may the profile's 2xx "nothing there"
    // ({"found": false} to a delete of another principal's entity).
    const auto& nf = st.expect.status ? st.expect.status->not_found : std::nullopt;
    const bool said_not_found =
        nf && says_not_found(*nf, status, nf->empty ? nullptr : body.get(), x.response && x.response->body_bytes == 0);
    // (a POST too: an RPC-style delete names the entity in its body, and only
    // a request equal to a recorded delete matches its key)
    if (steps::wire(st) == steps::Wire::http && req.method != "GET" && req.method != "HEAD" && status / 100 == 2 &&
        !said_not_found && !st.cleanup)
        note_deleted(run, delete_key(steps::Wire::http, req));
    if (st.cleanup && status / 100 == 2) register_created(run, st, req, x, body, scope, out.record.name);
    // A create whose body holds another entity's id (a reference) re-keys
    // nothing; a PUT or PATCH that may create still may.
    const bool plain_create =
        st.cleanup && !(steps::wire(st) == steps::Wire::http && (req.method == "PUT" || req.method == "PATCH"));
    if (status / 100 == 2 && !plain_create) follow_rekey(run, steps::wire(st), req, body);
    if (!st.captures.empty()) {
        // Captured even when a check failed: teardown needs the ids of what
        // was created to clean it up.
        auto cap = apply_captures(st.captures, x, scope, body);
        if (!cap && !out.failed) {
            checks.push_back(CheckResult{rule, "capture", "a value to capture", cap.error(), false, false, st.pos});
            out.failed = true;
        }
    }
    // The body the expectations or captures needed was cut at the cap or
    // nests past the parser's bound: a limit of the harness, not a broken contract.
    if (body.used() && !body.limit().empty()) out.harness_limit = body.limit();
}

awaitable<StepOutcome> Engine::run_step(SuiteRun& run, const suite::Step& st, Scope& scope, const std::string& rule,
                                        Collected* collected, bool defer_evidence) {
    if (steps::runs_locally(st)) {
        // A scan reads a whole file (gigabytes, perhaps): on the file
        // thread, so the runner's other cases keep going meanwhile. The
        // step, scope and rule live in this frame until it is done.
        if (!files_) files_.emplace(1);  // a thread only for runs that scan files
        co_return co_await asio::co_spawn(
            files_->get_executor(),
            [&]() -> awaitable<StepOutcome> { co_return steps::run_local(st, scope, rule); },
            use_awaitable);
    }
    StepOutcome out;
    out.record.name = steps::name(st);
    const std::size_t misses = scope.misses();
    const binding::StepBinding* bound = run.bound_of(st);
    auto req = steps::build(st, bound, run.env, scope);
    if (req) redact::mark_secret_headers(*req, scope.secrets());  // never forwarded to another origin
    if (!req) {
        out.suite_error = req.error();
        out.unbound = scope.misses() > misses;
        out.cause = ErrorCause::suite;
        out.record.exchange.error = TransportError{TransportErrorKind::other, req.error()};
        co_return out;
    }
    Exchange x = co_await send_with_retries(run, *req);
    if (auto view = steps::view_entity(st, bound, x, rule)) {
        // A read answering an array: its one element is the entity judged.
        EntityView& v = *view;
        if (!v.error.empty()) {
            out.suite_error = v.error;
            out.cause = ErrorCause::suite;
        } else {
            judge_answer(run, st, *req, v.view ? *v.view : x, scope, rule, collected, out);
            if (v.not_found) {
                out.record.checks.insert(out.record.checks.begin(), std::move(*v.not_found));
                out.failed = true;
            }
        }
    } else if (!x.error) {
        judge_answer(run, st, *req, x, scope, rule, collected, out);
    } else {
        out.transport_error = true;
        out.cause = ErrorCause::transport;
    }
    if (!out.unauthenticated.empty()) {
        x.error = TransportError{TransportErrorKind::unauthenticated, out.unauthenticated, false};
        out.failed = false;
        out.transport_error = true;
        out.cause = ErrorCause::authentication;
    } else if (!out.harness_limit.empty()) {
        x.error =
            TransportError{x.response->body_truncated ? TransportErrorKind::body_too_large : TransportErrorKind::other,
                           out.harness_limit, false};
        out.failed = false;
        out.transport_error = true;
        out.cause = ErrorCause::harness_limit;
    }
    if (x.request.url.empty()) x.request = std::move(*req);
    out.record.exchange = std::move(x);
    if (defer_evidence) out.evidence_pending = true;
    else add_evidence(out.record, steps::wire(st), run.env, scope.secrets());
    co_return out;
}

awaitable<std::optional<CaseResult>> Engine::run_phase(SuiteRun& run, const std::vector<suite::Step>& steps,
                                                       const char* phase) {
    CaseResult r = phase_result(*run.suite, phase);
    const auto t0 = std::chrono::steady_clock::now();
    const bool teardown = std::string_view(phase) == "teardown";
    bool problem = false;
    run.scope.set(case_started_var, json::value(ids::system_unix_ms()));
    for (const auto& st : steps) {
        StepOutcome so = co_await run_step(run, st, run.scope, "");
        // Cleanup of something never created (its id was never captured)
        // is not a problem: there is nothing to delete.
        if (teardown && so.unbound) continue;
        r.steps.push_back(so.record);
        if (problem) continue;  // teardown goes on after a problem; the first one is reported
        const std::string step = "step '" + so.record.name + "'";
        if (!so.suite_error.empty()) {
            set_error(r, ErrorCause::suite, step + ": " + so.suite_error);
            count_error(ErrorCause::suite);
        } else if (so.transport_error) {
            set_error(r, so.cause, step + ": " + describe_transport_error(so.record.exchange));
            count_error(so.cause);
        } else if (so.failed) {
            r.outcome = Outcome::failed;
            r.message = step + " failed: " + failure_message(*first_failure(so.record.checks));
        } else {
            continue;
        }
        problem = true;
        if (!teardown) break;
    }
    r.seconds = seconds_since(t0);
    if (problem) co_return r;
    co_return std::nullopt;
}

awaitable<CaseResult> Engine::run_case(SuiteRun& run, const Expanded& e) {
    const auto t0 = std::chrono::steady_clock::now();
    const suite::Case& c = *e.c;
    CaseResult r = case_skeleton(*run.suite, e);
    steps::add_properties(c.steps.empty() ? nullptr : &c.steps.front(), run.scope, r.properties);
    if (!e.pre_skip.empty()) {
        skip(r, e.pre_skip_cause, e.pre_skip);
        co_return r;
    }
    if (!e.pre_error.empty()) {
        set_error(r, ErrorCause::suite, e.pre_error);
        count_error(ErrorCause::suite);
        co_return r;
    }
    Scope scope = run.scope;
    for (const auto& [k, v] : e.bindings) scope.set(k, v);
    scope.set(case_started_var, json::value(ids::system_unix_ms()));
    const std::string rule = join(c.rules, ",");
    Collected collected;  // `collect:` lists of this case
    // Steps whose evidence (redaction, reproduce line) is not built yet:
    // built once the case is known not to pass, since a passed case's
    // report shows neither (see compact_passed).
    std::vector<std::pair<std::size_t, steps::Wire>> pending;
    auto add_pending_evidence = [&] {
        for (auto [i, wire] : pending) add_evidence(r.steps[i], wire, run.env, scope.secrets());
        pending.clear();
    };
    bool stopped = false;
    if (!c.fresh.empty() || c.fresh_all_setup) stopped = !co_await make_fresh(run, e, scope, rule, r);
    for (const auto& st : c.steps) {
        if (stopped) break;
        for (int rep = 0; rep < st.repeat && !stopped; ++rep) {
            if (interrupted_) {
                // Half a case is no verdict: it stops here and says so.
                skip(r, SkipCause::stopped,
                     std::string("not finished: the run was interrupted by ") + signal_name(interrupted_) +
                         " before step '" + (st.name.empty() ? suite::default_step_name(st.request) : st.name) + "'");
                ++not_run_;
                stopped = true;
                break;
            }
            StepOutcome so = co_await run_step(run, st, scope, rule, &collected, true);
            if (st.repeat > 1) so.record.name += " [" + std::to_string(rep + 1) + "/" + std::to_string(st.repeat) + "]";
            r.steps.push_back(std::move(so.record));
            if (so.evidence_pending) pending.emplace_back(r.steps.size() - 1, steps::wire(st));
            if (!so.suite_error.empty() || so.transport_error || so.failed) add_pending_evidence();
            const StepRecord& rec = r.steps.back();
            const std::string where = step_label(r.steps.size() - 1, rec.name);
            std::string gone;
            if (so.failed && so.suite_error.empty() && !so.transport_error) gone = gone_by(run, rec);
            if (!so.suite_error.empty()) {
                set_error(r, ErrorCause::suite, so.suite_error);
                count_error(ErrorCause::suite);
            } else if (so.transport_error) {
                set_error(r, so.cause, describe_transport_error(rec.exchange));
                count_error(so.cause);
            } else if (so.failed && unmet_precondition(st.expect)) {
                // What the case needs did not hold: it cannot say anything.
                skip(r, SkipCause::precondition,
                     "not checked: the precondition '" + st.expect.precondition + "' did not hold (" + where + ": " +
                         failure_message(*first_failure(rec.checks)) + ")");
            } else if (so.failed && !gone.empty()) {
                // An earlier finding deleted or re-keyed what this step
                // addresses: that finding is the failure, not this case.
                skip(r, SkipCause::precondition,
                     "not checked: what this case needs is gone after an earlier finding (" + gone + "); " + where +
                         ": " + failure_message(*first_failure(rec.checks)));
            } else if (so.failed) {
                r.outcome = Outcome::failed;
                r.message = where + ": " + failure_message(*first_failure(rec.checks));
            }
            if (r.outcome != Outcome::passed) stopped = true;
        }
        if (stopped) break;
    }
    if (!stopped && !c.collected.empty()) {
        if (evaluate_collected(c, scope, rule, collected, r)) {
            add_pending_evidence();
            r.steps.back().reproduce = replay_steps(r.steps, r.steps.size() - 1);
        }
    }
    if (r.outcome == Outcome::failed) note_gone(run, r);
    if (r.outcome == Outcome::passed) {
        // Before compact_passed cuts long texts (a secret cut in half would
        // no longer be found), and only what it keeps.
        redact::scrub_passed_case(r, scope.secrets());
        compact_passed(r);
    } else {
        add_pending_evidence();
        redact::scrub_case(r, scope.secrets());
    }
    r.seconds = seconds_since(t0);
    co_return r;
}

template <class Report>
awaitable<void> Engine::run_cases(SuiteRun& run, const std::vector<Expanded>& cases, Report& report) {
    // Results are handed to the reporter in suite order and then dropped:
    // only cases that finished ahead of an earlier one wait here (at most
    // about one per worker), and the suite keeps just counts.
    std::map<std::size_t, CaseResult> results;
    std::size_t next_report = 0;
    bool flush_posted = false;
    auto flush = [&] {
        for (auto it = results.begin(); it != results.end() && it->first == next_report; it = results.erase(it)) {
            report(it->second);
            ++next_report;
        }
    };
    std::size_t next = 0;
    const int workers = std::max(1, std::min<int>(opts_.concurrency, static_cast<int>(cases.size())));
    int running = workers;
    auto ex = co_await asio::this_coro::executor;
    // Finished cases are reported from a posted handler, not by the worker
    // that finished them: the worker goes straight on to its next case, and
    // the report is written while that case's request is out (at
    // concurrency 1, in the time spent waiting anyway).
    auto post_flush = [&] {
        if (flush_posted) return;
        flush_posted = true;
        asio::post(ex, [&] {
            flush_posted = false;
            flush();
        });
    };
    asio::steady_timer done(ex, std::chrono::steady_clock::time_point::max());
    for (int w = 0; w < workers; ++w) {
        asio::co_spawn(
            ex,
            [&]() -> awaitable<void> {
                while (next < cases.size()) {
                    const std::size_t i = next++;
                    Expanded scratch;
                    const Expanded& e = element(cases[i], scratch);
                    if (interrupted_) {
                        CaseResult r = case_skeleton(*run.suite, e);
                        skip(r, SkipCause::stopped,
                             std::string("not run: the run was interrupted by ") + signal_name(interrupted_));
                        ++not_run_;
                        results.emplace(i, std::move(r));
                    } else if (opts_.max_failures > 0 && failures_ >= opts_.max_failures) {
                        CaseResult r = case_skeleton(*run.suite, e);
                        skip(r, SkipCause::stopped,
                             "not run: --max-failures " + std::to_string(opts_.max_failures) + " reached");
                        results.emplace(i, std::move(r));
                    } else {
                        const SlotHold hold = co_await hold_slot(slots());
                        CaseResult r = co_await run_case(run, e);
                        if (r.outcome == Outcome::failed && !run.suite->preflight && (!opts_.failure_counts || opts_.failure_counts(r)))
                            ++failures_;
                        results.emplace(i, std::move(r));
                    }
                    post_flush();
                }
                if (--running == 0) done.cancel();
            },
            asio::detached);
    }
    // Workers that had nothing to wait for may already be done (skipped
    // cases complete without I/O); only wait for the ones still running.
    if (running > 0) {
        boost::system::error_code ec;
        co_await done.async_wait(asio::redirect_error(use_awaitable, ec));
    }
    // A flush still queued refers to this frame: let it run first.
    while (flush_posted) co_await asio::post(ex, use_awaitable);
    flush();
}

template <class Report>
awaitable<void> Engine::finish_suite(SuiteRun& run, bool setup_failed, Report& report,
                                     std::vector<SuiteRun::LeftBehind>& left) {
    const suite::Suite& s = *run.suite;
    std::optional<CaseResult> teardown_result, cleanup_result;
    if (run.started) {
        {
            const SlotHold hold = co_await hold_slot(slots());
            teardown_result = co_await run_phase(run, s.teardown, "teardown");
        }
        // Entities left behind by a target that answers are an <error> of the
        // cleanup case, not a transport error: exit 3 only when it did not answer.
        // Its deletes run side by side, each in a slot of its own (cleanup_created).
        bool unreachable = false;
        cleanup_result = co_await cleanup_created(run, limiter_, &unreachable, opts_.concurrency, slots());
        if (cleanup_result && unreachable) count_error(ErrorCause::transport);
        for (auto& l : run.left_behind) left.push_back(std::move(l));
        for (const auto& [how, n] : run.deleted_across) deleted_across_[how] += n;
        run.shutdown();
    }
    if (s.scan && !setup_failed) {
        CaseResult v = field_versions_case(run);
        report(v);
    }
    if (teardown_result) {
        teardown_result->message += " (cleanup incomplete: entities this suite created may remain)";
        report(*teardown_result);
    }
    if (cleanup_result) report(*cleanup_result);
}

SuiteResult Engine::report_shape_findings() {
    SuiteResult result;
    result.name = std::string(shape_scan_suite);
    result.timestamp = ids::iso8601_ms(ids::system_unix_ms());
    reporter_.suite_started(result.name, "");
    for (auto& c : shape_.take_results()) {
        result.count_streamed(c);
        reporter_.take_case(std::move(c));
    }
    reporter_.suite_finished(result);
    return result;
}

awaitable<SuiteResult> Engine::run_suite(const suite::Suite& written, reporters::Reporter& out,
                                        std::vector<SuiteRun::LeftBehind>& left) {
    // A pack instance's calls are bound to the profile's requests as it
    // starts, on its own copy (binding/operations.hpp).
    std::optional<binding::BoundSuite> storage;
    const binding::Bound bound = binding::with_calls_bound(written, storage);
    const suite::Suite& s = bound.suite;
    const auto t0 = std::chrono::steady_clock::now();
    SuiteResult result;
    result.name = s.name;
    result.file = s.file;
    result.timestamp = ids::iso8601_ms(ids::system_unix_ms());
    out.suite_started(s.name, s.file);

    SuiteRun run(s, factory_, co_await asio::this_coro::executor);
    run.bound = &bound.steps;
    in_flight_.push_back(&run);
    struct Landed {  // out of in_flight_ however the suite ends
        std::vector<SuiteRun*>& runs;
        SuiteRun* run;
        ~Landed() { std::erase(runs, run); }
    } landed{in_flight_, &run};
    std::optional<CaseResult> setup_result;
    if (std::string problem = interpolate_target(opts_, s, run); !problem.empty()) {
        setup_result = phase_result(s, "setup");
        set_error(*setup_result, ErrorCause::suite, problem);
        count_error(ErrorCause::suite);
    } else {
        run.transport_options = merge_transport_options(opts_, s.target, run.kafka);
        finish_env(opts_, run);
        run.started = true;
        const SlotHold hold = co_await hold_slot(slots());
        setup_result = co_await run_phase(run, s.setup, "setup");
    }

    std::vector<Expanded> cases;
    for (const auto& c : s.cases) expand(opts_, s, c, run.scope, cases, &report_.summary.filtered_out, run.send_check.get());
    // The result goes to the reporter, moved: nothing reads it after. Every
    // result not passed is scrubbed of secrets on its way (setup, teardown,
    // cleanup, scan findings; run_case scrubbed its own, passed ones included).
    auto report = [&](CaseResult& r) {
        if (s.preflight) {
            const Outcome before = r.outcome;
            if (auto why = judge_preflight(s, r); why && stopped_.empty()) stopped_ = std::move(*why);
            if (before == Outcome::failed && r.outcome == Outcome::error) count_error(r.error_cause);
        }
        if (r.outcome != Outcome::passed) redact::scrub_case(r, run.scope.secrets());
        result.count_streamed(r);
        out.take_case(std::move(r));
    };
    if (setup_result) {
        // The setup's own testcase carries the evidence; the cases it was
        // the precondition of are skipped.
        // (The reporter may take the setup's result apart: the reason is kept first.)
        const std::string why = "not run: the suite's setup did not succeed (" + setup_result->message + ")";
        report(*setup_result);
        for (const auto& e : cases) {
            Expanded scratch;
            CaseResult r = case_skeleton(s, element(e, scratch));
            skip(r, SkipCause::precondition, why);
            report(r);
        }
    } else {
        co_await run_cases(run, cases, report);
    }
    co_await finish_suite(run, setup_result.has_value(), report, left);
    result.seconds = seconds_since(t0);
    out.suite_finished(result);
    co_return result;
}

}  // namespace idconform::runner
