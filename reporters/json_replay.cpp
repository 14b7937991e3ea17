// JSON report -> reporter events (see json_replay.hpp). Field names are the
// stable ones of reporters/README.md; anything missing reads as empty.
#include "reporters/json_replay.hpp"

#include <boost/json.hpp>

#include <cmath>

namespace idconform::reporters {

namespace json = boost::json;

namespace {

std::string s_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

double d_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (!v) return 0;
    if (v->is_double()) return v->get_double();
    if (v->is_int64()) return static_cast<double>(v->get_int64());
    if (v->is_uint64()) return static_cast<double>(v->get_uint64());
    return 0;
}

std::uint64_t u_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (!v) return 0;
    if (v->is_int64()) return v->get_int64() < 0 ? 0 : static_cast<std::uint64_t>(v->get_int64());
    if (v->is_uint64()) return v->get_uint64();
    return 0;
}

bool b_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_bool() && v->get_bool();
}

const json::array* a_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_array() ? &v->get_array() : nullptr;
}

const json::object* o_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_object() ? &v->get_object() : nullptr;
}

SourcePos pos_of(const json::object& o) {
    const auto* p = o_of(o, "position");
    if (!p) return {};
    return SourcePos{s_of(*p, "file"), static_cast<int>(u_of(*p, "line")), static_cast<int>(u_of(*p, "column"))};
}

std::vector<Header> headers_of(const json::object& o) {
    std::vector<Header> out;
    if (const auto* hs = a_of(o, "headers"))
        for (const auto& h : *hs)
            if (h.is_object()) out.push_back({s_of(h.get_object(), "name"), s_of(h.get_object(), "value")});
    return out;
}

Outcome outcome_of(const std::string& s) {
    if (s == "failed") return Outcome::failed;
    if (s == "error") return Outcome::error;
    if (s == "skipped") return Outcome::skipped;
    if (s == "waived") return Outcome::waived;
    return Outcome::passed;
}

TransportErrorKind error_kind_of(const std::string& s) {
    for (const auto k : {TransportErrorKind::resolve, TransportErrorKind::connect, TransportErrorKind::tls,
                         TransportErrorKind::timeout, TransportErrorKind::protocol, TransportErrorKind::body_too_large})
        if (s == to_string(k)) return k;
    return TransportErrorKind::other;
}

StepRecord step_of(const json::object& o) {
    StepRecord s;
    s.name = s_of(o, "name");
    if (const auto* rq = o_of(o, "request")) {
        s.exchange.request.transport = s_of(*rq, "transport");
        s.exchange.request.method = s_of(*rq, "method");
        s.exchange.request.url = s_of(*rq, "url");
        s.exchange.request.headers = headers_of(*rq);
        s.exchange.request.body = s_of(*rq, "body");
    }
    if (const auto* rs = o_of(o, "response")) {
        Response r;
        r.status = static_cast<int>(u_of(*rs, "status"));
        r.reason = s_of(*rs, "reason");
        r.headers = headers_of(*rs);
        r.body = s_of(*rs, "body");
        r.body_bytes = u_of(*rs, "body_bytes");
        r.body_truncated = b_of(*rs, "truncated");
        s.exchange.response = std::move(r);
    }
    if (const auto* e = o_of(o, "error"))
        s.exchange.error = TransportError{error_kind_of(s_of(*e, "kind")), s_of(*e, "message")};
    s.exchange.attempts = static_cast<int>(u_of(o, "attempts"));
    if (const auto* checks = a_of(o, "checks")) {
        for (const auto& cv : *checks) {
            if (!cv.is_object()) continue;
            const auto& c = cv.get_object();
            CheckResult r;
            r.rule = s_of(c, "rule");
            r.what = s_of(c, "what");
            r.expected = s_of(c, "expected");
            r.actual = s_of(c, "actual");
            r.ok = b_of(c, "ok");
            r.warning = b_of(c, "warning");
            r.pos = pos_of(c);
            s.checks.push_back(std::move(r));
        }
    }
    s.reproduce = s_of(o, "reproduce");
    return s;
}

CaseResult case_of(const json::object& o, const std::string& suite) {
    CaseResult c;
    c.suite = suite;
    c.name = s_of(o, "name");
    c.classname = s_of(o, "classname");
    if (const auto* rules = a_of(o, "rules"))
        for (const auto& r : *rules)
            if (r.is_string()) c.rules.emplace_back(r.get_string());
    c.outcome = outcome_of(s_of(o, "outcome"));
    c.message = s_of(o, "message");
    c.detail = s_of(o, "detail");
    if (const auto* props = a_of(o, "properties"))
        for (const auto& p : *props)
            if (p.is_object()) c.properties.push_back({s_of(p.get_object(), "name"), s_of(p.get_object(), "value")});
    c.seconds = d_of(o, "time");
    c.pos = pos_of(o);
    if (const auto* steps = a_of(o, "steps"))
        for (const auto& s : *steps)
            if (s.is_object()) c.steps.push_back(step_of(s.get_object()));
    return c;
}

AuditSummary audit_of(const json::object& o) {
    AuditSummary a;
    a.waivers_file = s_of(o, "waivers_file");
    if (const auto* ws = a_of(o, "waivers")) {
        for (const auto& wv : *ws) {
            if (!wv.is_object()) continue;
            const auto& w = wv.get_object();
            a.waivers.push_back({s_of(w, "rule"), s_of(w, "covers"), s_of(w, "owner"), s_of(w, "reason"), s_of(w, "expires"),
                                 s_of(w, "position"), s_of(w, "state"), u_of(w, "waived"), u_of(w, "matched_expired")});
        }
    }
    if (const auto* b = o_of(o, "baseline")) {
        a.baseline_file = s_of(*b, "file");
        a.added = u_of(*b, "new");
        a.fixed = u_of(*b, "fixed");
        a.still = u_of(*b, "still_failing");
        a.fail_on_new = b_of(*b, "fail_on_new");
        a.gone = u_of(*b, "gone");
        if (const auto* rows = a_of(*b, "rules"))
            for (const auto& rv : *rows)
                if (rv.is_object())
                    a.baseline.push_back({s_of(rv.get_object(), "rule"), u_of(rv.get_object(), "new"),
                                          u_of(rv.get_object(), "fixed"), u_of(rv.get_object(), "still_failing")});
        if (const auto* gone = a_of(*b, "gone_cases"))
            for (const auto& g : *gone)
                if (g.is_string()) a.gone_cases.emplace_back(g.get_string());
    }
    return a;
}

}  // namespace

bool replay_json_report(std::string_view text, const std::string& path, Reporter& to, std::string& error) {
    boost::system::error_code ec;
    const json::value doc = json::parse(text, ec);
    if (ec) {
        error = "'" + path + "' is not JSON (" + ec.message() + "): give a report written by --json";
        return false;
    }
    const auto* root = doc.if_object();
    const auto* suites = root ? a_of(*root, "suites") : nullptr;
    if (!root || s_of(*root, "tool") != "idconform" || !suites) {
        error = "'" + path + "' is not an idconform JSON report (no \"tool\": \"idconform\" and \"suites\" list)";
        return false;
    }
    RunInfo info;
    info.tool_version = s_of(*root, "version");
    if (const auto* run = o_of(*root, "run")) {
        info.metadata.push_back({"started", s_of(*run, "started")});
        if (const auto* meta = a_of(*run, "metadata"))
            for (const auto& p : *meta)
                if (p.is_object()) info.metadata.push_back({s_of(p.get_object(), "name"), s_of(p.get_object(), "value")});
        info.metadata.push_back({"finished", s_of(*run, "finished")});
    }
    info.metadata.push_back({"rendered from", path});
    for (const auto& sv : *suites)
        if (sv.is_object()) info.suite_files.push_back(s_of(sv.get_object(), "file"));
    to.run_started(info);
    RunSummary summary;
    if (const auto* sum = o_of(*root, "summary")) summary.seconds = d_of(*sum, "time");
    for (const auto& sv : *suites) {
        if (!sv.is_object()) continue;
        const auto& so = sv.get_object();
        SuiteResult s;
        s.name = s_of(so, "name");
        s.file = s_of(so, "file");
        s.seconds = d_of(so, "time");
        s.timestamp = s_of(so, "timestamp");
        to.suite_started(s.name, s.file);
        if (const auto* cases = a_of(so, "cases")) {
            for (const auto& cv : *cases) {
                if (!cv.is_object()) continue;
                CaseResult c = case_of(cv.get_object(), s.name);
                s.count_streamed(c.outcome);
                to.take_case(std::move(c));
            }
        }
        to.suite_finished(s);
        summary.suites.push_back(std::move(s));
    }
    if (const auto* audit = o_of(*root, "audit")) to.audit_finished(audit_of(*audit));
    return to.run_finished(summary, error);
}

}  // namespace idconform::reporters
