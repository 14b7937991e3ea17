// JSON report reader (json_read.hpp). Times come back as durations (an
// exchange's sent/received are set so that their difference is its time).
#include "reporters/json_read.hpp"

#include <boost/json.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace idconform::reporters {

namespace json = boost::json;

namespace {

// Missing members read as empty: a report from an older idconform may lack one.
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
std::int64_t i_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (!v) return 0;
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
    return 0;
}
bool b_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_bool() && v->get_bool();
}
const json::array& a_of(const json::object& o, std::string_view key) {
    static const json::array empty;
    const auto* v = o.if_contains(key);
    return v && v->is_array() ? v->get_array() : empty;
}

SourcePos pos_of(const json::object& o, std::string_view key) {
    SourcePos p;
    const auto* v = o.if_contains(key);
    if (!v || !v->is_object()) return p;
    p.file = s_of(v->get_object(), "file");
    p.line = static_cast<int>(i_of(v->get_object(), "line"));
    p.column = static_cast<int>(i_of(v->get_object(), "column"));
    return p;
}

std::vector<Header> headers_of(const json::object& o) {
    std::vector<Header> out;
    for (const auto& h : a_of(o, "headers"))
        if (h.is_object()) out.push_back({s_of(h.get_object(), "name"), s_of(h.get_object(), "value")});
    return out;
}

Outcome outcome_of(const std::string& s) {
    for (Outcome o : {Outcome::passed, Outcome::failed, Outcome::error, Outcome::skipped, Outcome::waived})
        if (s == to_string(o)) return o;
    throw std::runtime_error("unknown outcome '" + s + "'");
}

TransportErrorKind error_kind_of(const std::string& s) {
    for (auto k : {TransportErrorKind::resolve, TransportErrorKind::connect, TransportErrorKind::tls,
                   TransportErrorKind::timeout, TransportErrorKind::protocol, TransportErrorKind::body_too_large})
        if (s == to_string(k)) return k;
    return TransportErrorKind::other;
}

StepRecord step_of(const json::object& o) {
    StepRecord st;
    st.name = s_of(o, "name");
    Exchange& x = st.exchange;
    if (const auto* r = o.if_contains("request"); r && r->is_object()) {
        const auto& q = r->get_object();
        x.request.transport = s_of(q, "transport");
        x.request.method = s_of(q, "method");
        x.request.url = s_of(q, "url");
        x.request.headers = headers_of(q);
        x.request.body = s_of(q, "body");
    }
    if (const auto* r = o.if_contains("response"); r && r->is_object()) {
        const auto& q = r->get_object();
        Response resp;
        resp.status = static_cast<int>(i_of(q, "status"));
        resp.reason = s_of(q, "reason");
        resp.headers = headers_of(q);
        resp.body = s_of(q, "body");
        resp.body_bytes = static_cast<std::uint64_t>(i_of(q, "body_bytes"));
        resp.body_truncated = b_of(q, "truncated");
        x.response = std::move(resp);
    }
    if (const auto* e = o.if_contains("error"); e && e->is_object()) {
        TransportError err;
        err.kind = error_kind_of(s_of(e->get_object(), "kind"));
        err.message = s_of(e->get_object(), "message");
        x.error = std::move(err);
    }
    x.attempts = static_cast<int>(i_of(o, "attempts"));
    const double secs = d_of(o, "time");
    if (secs > 0) {
        x.sent = Clock::time_point(std::chrono::seconds(1));
        x.received = x.sent + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(secs));
    }
    for (const auto& c : a_of(o, "checks")) {
        if (!c.is_object()) continue;
        const auto& q = c.get_object();
        CheckResult r;
        r.rule = s_of(q, "rule");
        r.what = s_of(q, "what");
        r.expected = s_of(q, "expected");
        r.actual = s_of(q, "actual");
        r.ok = b_of(q, "ok");
        r.warning = b_of(q, "warning");
        r.pos = pos_of(q, "position");
        st.checks.push_back(std::move(r));
    }
    st.reproduce = s_of(o, "reproduce");
    return st;
}

CaseResult case_of(const json::object& o, const std::string& suite) {
    CaseResult c;
    c.suite = suite;
    c.name = s_of(o, "name");
    c.classname = s_of(o, "classname");
    for (const auto& r : a_of(o, "rules"))
        if (r.is_string()) c.rules.emplace_back(r.get_string());
    c.outcome = outcome_of(s_of(o, "outcome"));
    c.message = s_of(o, "message");
    c.detail = s_of(o, "detail");
    for (const auto& p : a_of(o, "properties"))
        if (p.is_object()) c.properties.push_back({s_of(p.get_object(), "name"), s_of(p.get_object(), "value")});
    c.seconds = d_of(o, "time");
    c.pos = pos_of(o, "position");
    for (const auto& st : a_of(o, "steps"))
        if (st.is_object()) c.steps.push_back(step_of(st.get_object()));
    return c;
}

}  // namespace

bool read_json_report(const std::string& path, ReadReport& out, std::string& error) {
    out = ReadReport{};
    out.path = path;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot read the file";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    boost::system::error_code ec;
    const json::value root = json::parse(text.str(), ec);
    if (ec) {
        error = path + ": not JSON (" + ec.message() + ")";
        return false;
    }
    if (!root.is_object() || s_of(root.get_object(), "tool") != "idconform" || !root.get_object().contains("suites")) {
        error = path + ": not an idconform JSON report (written by `idconform run --json`)";
        return false;
    }
    const auto& o = root.get_object();
    out.info.tool_version = s_of(o, "version");
    if (const auto* r = o.if_contains("run"); r && r->is_object()) {
        const auto& run = r->get_object();
        out.has_run = true;
        out.info.profile = s_of(run, "profile");
        out.info.plan = s_of(run, "plan");
        if (const auto* sh = run.if_contains("shard"); sh && sh->is_object()) {
            const auto& q = sh->get_object();
            out.info.shard_index = static_cast<std::size_t>(i_of(q, "index"));
            out.info.shard_count = static_cast<std::size_t>(i_of(q, "count"));
            out.info.total_units = static_cast<std::size_t>(i_of(q, "total_units"));
            for (const auto& u : a_of(q, "units"))
                if (u.is_int64() || u.is_uint64()) out.info.units.push_back(static_cast<std::size_t>(u.to_number<std::uint64_t>()));
        }
    }
    if (const auto* summary = o.if_contains("summary"); summary && summary->is_object())
        out.summary.seconds = d_of(summary->get_object(), "time");
    try {
        for (const auto& sv : a_of(o, "suites")) {
            if (!sv.is_object()) continue;
            const auto& so = sv.get_object();
            SuiteResult s;
            s.name = s_of(so, "name");
            s.file = s_of(so, "file");
            s.seconds = d_of(so, "time");
            s.timestamp = s_of(so, "timestamp");
            for (const auto& cv : a_of(so, "cases"))
                if (cv.is_object()) s.cases.push_back(case_of(cv.get_object(), s.name));
            out.summary.suites.push_back(std::move(s));
        }
    } catch (const std::exception& e) {
        error = path + ": " + e.what();
        return false;
    }
    return true;
}

}  // namespace idconform::reporters
