// The streaming JSON report reader (json_report_reader.hpp). A SAX handler
// over boost::json::basic_parser walks the fixed frame of a report (the root
// object, "suites", each suite object, its "cases"); every other value
// (a root member, a suite member, one case) is built whole with a
// json::value_stack and turned into model types when it ends. So at most one
// case is in memory, however many the report holds. Times come back as
// durations (an exchange's sent/received are set so that their difference
// is its time). Missing members read as empty: a report from an older
// idconform may lack one.
#include "reporters/json_report_reader.hpp"

#include "core/input_file.hpp"
#include "reporters/text.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>

namespace idconform::reporters {

namespace json = boost::json;

namespace {

// ------------------------------------------------------------- JSON -> model

// A text of the file quoted in an error message: escaped for a terminal
// (a report is input: its strings may hold ESC or other controls) and cut.
std::string quoted(std::string_view s) {
    constexpr std::size_t max = 120;
    std::string out = terminal_line(s.substr(0, max));
    if (s.size() > max) out += "...";
    return "'" + out + "'";
}

// Times in a report: a number of seconds, made finite, not negative and at
// most ten years (what a file claims must not overflow a duration).
double seconds_value(double v) {
    constexpr double max = 10.0 * 365 * 24 * 3600;
    if (!std::isfinite(v) || v < 0) return 0;
    return std::min(v, max);
}

// An int a report claims (line, column, status, attempts), kept in range.
int int_value(std::uint64_t v) {
    return static_cast<int>(std::min<std::uint64_t>(v, static_cast<std::uint64_t>(std::numeric_limits<int>::max())));
}

std::string s_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
}
double d_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    if (!v) return 0;
    if (v->is_double()) return seconds_value(v->get_double());
    if (v->is_int64()) return seconds_value(static_cast<double>(v->get_int64()));
    if (v->is_uint64()) return seconds_value(static_cast<double>(v->get_uint64()));
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
const json::array& a_of(const json::object& o, std::string_view key) {
    static const json::array empty;
    const auto* v = o.if_contains(key);
    return v && v->is_array() ? v->get_array() : empty;
}
const json::object* o_of(const json::object& o, std::string_view key) {
    const auto* v = o.if_contains(key);
    return v && v->is_object() ? &v->get_object() : nullptr;
}

SourcePos pos_of(const json::object& o) {
    const auto* p = o_of(o, "position");
    if (!p) return {};
    return SourcePos{s_of(*p, "file"), int_value(u_of(*p, "line")), int_value(u_of(*p, "column"))};
}

std::vector<Property> pairs_of(const json::object& o, std::string_view key) {
    std::vector<Property> out;
    for (const auto& h : a_of(o, key))
        if (h.is_object()) out.push_back({s_of(h.get_object(), "name"), s_of(h.get_object(), "value")});
    return out;
}

std::vector<Header> headers_of(const json::object& o) {
    std::vector<Header> out;
    for (auto& p : pairs_of(o, "headers")) out.push_back({std::move(p.name), std::move(p.value)});
    return out;
}

TransportErrorKind error_kind_of(const std::string& s) {
    for (const auto k : {TransportErrorKind::resolve, TransportErrorKind::connect, TransportErrorKind::tls,
                         TransportErrorKind::timeout, TransportErrorKind::protocol, TransportErrorKind::body_too_large,
                         TransportErrorKind::unauthenticated})
        if (s == to_string(k)) return k;
    return TransportErrorKind::other;
}

StepRecord step_of(const json::object& o) {
    StepRecord st;
    st.name = s_of(o, "name");
    Exchange& x = st.exchange;
    if (const auto* q = o_of(o, "request")) {
        x.request.transport = s_of(*q, "transport");
        x.request.method = s_of(*q, "method");
        x.request.url = s_of(*q, "url");
        x.request.headers = headers_of(*q);
        x.request.body = s_of(*q, "body");
    }
    if (const auto* q = o_of(o, "response")) {
        Response resp;
        resp.status = int_value(u_of(*q, "status"));
        resp.reason = s_of(*q, "reason");
        resp.headers = headers_of(*q);
        resp.body = s_of(*q, "body");
        resp.body_bytes = u_of(*q, "body_bytes");
        resp.body_truncated = b_of(*q, "truncated");
        x.response = std::move(resp);
    }
    if (const auto* e = o_of(o, "error")) x.error = TransportError{error_kind_of(s_of(*e, "kind")), s_of(*e, "message")};
    x.attempts = int_value(u_of(o, "attempts"));
    if (const double secs = d_of(o, "time"); secs > 0) {
        x.sent = Clock::time_point(std::chrono::seconds(1));
        x.received = x.sent + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(secs));
    }
    for (const auto& cv : a_of(o, "checks")) {
        if (!cv.is_object()) continue;
        const auto& q = cv.get_object();
        CheckResult r;
        r.rule = s_of(q, "rule");
        r.what = s_of(q, "what");
        r.expected = s_of(q, "expected");
        r.actual = s_of(q, "actual");
        r.ok = b_of(q, "ok");
        r.warning = b_of(q, "warning");
        r.pos = pos_of(q);
        st.checks.push_back(std::move(r));
    }
    st.reproduce = s_of(o, "reproduce");
    return st;
}

// Empty when the case could be read, else why not.
std::string case_of(const json::object& o, const std::string& suite, bool outline_only, CaseResult& c) {
    c.suite = suite;
    const auto* name = o.if_contains("name");
    const auto* outcome = o.if_contains("outcome");
    if (!name || !name->is_string() || !outcome || !outcome->is_string())
        return "a case without a \"name\" or an \"outcome\" string";
    c.name = std::string(name->get_string());
    bool known = false;
    for (const Outcome k : {Outcome::passed, Outcome::failed, Outcome::error, Outcome::skipped, Outcome::waived})
        if (outcome->get_string() == to_string(k)) {
            c.outcome = k;
            known = true;
        }
    if (!known) return "case " + quoted(c.name) + " has the unknown outcome " + quoted(outcome->get_string());
    if (c.outcome == Outcome::skipped) {
        // A report written before causes were recorded has none: the
        // message says it (counted_skip_cause).
        if (const auto* cause = o.if_contains("skip_cause"); cause && cause->is_string()) {
            const auto k = parse_skip_cause(cause->get_string());
            if (!k)
                return "case " + quoted(c.name) + " has the unknown skip_cause " + quoted(cause->get_string());
            c.skip_cause = *k;
        }
    }
    if (c.outcome == Outcome::error) {
        // none in a report written before causes were recorded
        if (const auto* cause = o.if_contains("error_cause"); cause && cause->is_string()) {
            const auto k = parse_error_cause(cause->get_string());
            if (!k || *k == ErrorCause::none)
                return "case " + quoted(c.name) + " has the unknown error_cause " + quoted(cause->get_string());
            c.error_cause = *k;
        }
    }
    c.classname = s_of(o, "classname");
    for (const auto& r : a_of(o, "rules"))
        if (r.is_string()) c.rules.emplace_back(r.get_string());
    c.message = s_of(o, "message");
    c.properties = pairs_of(o, "properties");
    if (outline_only) return {};
    c.detail = s_of(o, "detail");
    c.seconds = d_of(o, "time");
    c.pos = pos_of(o);
    for (const auto& st : a_of(o, "steps"))
        if (st.is_object()) c.steps.push_back(step_of(st.get_object()));
    return {};
}

AuditSummary audit_of(const json::object& o) {
    AuditSummary a;
    a.waivers_file = s_of(o, "waivers_file");
    for (const auto& wv : a_of(o, "waivers")) {
        if (!wv.is_object()) continue;
        const auto& w = wv.get_object();
        a.waivers.push_back({s_of(w, "rule"), s_of(w, "covers"), s_of(w, "owner"), s_of(w, "reason"), s_of(w, "expires"),
                             s_of(w, "position"), s_of(w, "state"), u_of(w, "waived"), u_of(w, "matched_expired")});
    }
    if (const auto* b = o_of(o, "baseline")) {
        a.baseline_file = s_of(*b, "file");
        a.added = u_of(*b, "new");
        a.fixed = u_of(*b, "fixed");
        a.still = u_of(*b, "still_failing");
        a.fail_on_new = b_of(*b, "fail_on_new");
        a.gone = u_of(*b, "gone");
        for (const auto& rv : a_of(*b, "rules"))
            if (rv.is_object())
                a.baseline.push_back({s_of(rv.get_object(), "rule"), u_of(rv.get_object(), "new"),
                                      u_of(rv.get_object(), "fixed"), u_of(rv.get_object(), "still_failing")});
        for (const auto& g : a_of(*b, "gone_cases"))
            if (g.is_string()) a.gone_cases.emplace_back(g.get_string());
    }
    return a;
}

void read_run(const json::object& run, ReportHead& h) {
    h.has_run = true;
    h.info.profile = s_of(run, "profile");
    h.info.plan = s_of(run, "plan");
    if (const auto* q = o_of(run, "shard")) {
        h.info.shard_index = static_cast<std::size_t>(u_of(*q, "index"));
        h.info.shard_count = static_cast<std::size_t>(u_of(*q, "count"));
        h.info.total_units = static_cast<std::size_t>(u_of(*q, "total_units"));
        for (const auto& u : a_of(*q, "units"))
            if (u.is_int64() || u.is_uint64()) h.info.units.push_back(static_cast<std::size_t>(u.to_number<std::uint64_t>()));
        for (const auto& u : a_of(*q, "every_shard"))
            if (u.is_int64() || u.is_uint64())
                h.info.every_shard.push_back(static_cast<std::size_t>(u.to_number<std::uint64_t>()));
    }
    h.started = s_of(run, "started");
    h.finished = s_of(run, "finished");
    h.metadata = pairs_of(run, "metadata");
}

// ------------------------------------------------------------------ walker

constexpr std::string_view not_a_report =
    "not an idconform JSON report (no \"tool\": \"idconform\" before a \"suites\" list); give a report written by "
    "idconform run --json";

// The fixed frame of a report, and what the walker does in each place.
enum class Frame { root, suites, suite, cases };

class Walker {
public:
    Walker(ReportVisitor& to, ReadOptions opts) : to_(to), opts_(opts) {}

    // Set when the walker stopped the parser (ec = error::extra_data is the
    // parser's signal; the text says why).
    std::string problem;

    // -- the SAX events (basic_parser's handler, below, forwards them)
    bool begin_container(bool object) {
        if (capture_depth_ > 0) return ++capture_depth_, true;
        if (frames_.empty()) {
            if (!object) return fail(std::string(not_a_report));
            frames_.push_back(Frame::root);
            return true;
        }
        switch (frames_.back()) {
        case Frame::root:
            if (key_ == "suites") {
                if (object) return fail("\"suites\" is not a list");
                if (!head_done_ && !finish_head()) return false;
                frames_.push_back(Frame::suites);
                return true;
            }
            break;
        case Frame::suites:
            if (!object) return fail("a suite that is not an object");
            frames_.push_back(Frame::suite);
            suite_ = SuiteResult{};
            suite_announced_ = false;
            has_suite_name_ = false;
            return true;
        case Frame::suite:
            if (key_ == "cases") {
                if (object) return fail("\"cases\" of suite " + quoted(suite_.name) + " is not a list");
                if (!has_suite_name_) return fail("a suite whose \"cases\" come before its \"name\"");
                announce_suite();
                frames_.push_back(Frame::cases);
                return true;
            }
            break;
        case Frame::cases:
            if (!object) return fail("a case of suite " + quoted(suite_.name) + " that is not an object");
            break;
        }
        // a value to build whole
        stack_.reset();
        capture_depth_ = 1;
        return true;
    }

    bool end_container(bool object, std::size_t n) {
        if (capture_depth_ > 0) {
            object ? stack_.push_object(n) : stack_.push_array(n);
            if (--capture_depth_ == 0) return captured(stack_.release());
            return true;
        }
        const Frame f = frames_.back();
        frames_.pop_back();
        switch (f) {
        case Frame::root:
            if (!saw_suites_) return fail(std::string(not_a_report));
            return true;
        case Frame::suites:
            saw_suites_ = true;
            return true;
        case Frame::suite:
            if (!has_suite_name_) return fail("a suite without a \"name\"");
            announce_suite();
            to_.suite_finished(suite_);
            return true;
        case Frame::cases:
            return true;
        }
        return true;
    }

    // A frame object's key may come in parts (a chunk boundary); every value
    // of an object follows its key, so one key_ serves every frame.
    bool key_part(std::string_view s) {
        if (capture_depth_ > 0) return stack_.push_chars(s), true;  // value_stack takes key parts as chars too
        if (!in_key_) key_.clear();
        in_key_ = true;
        key_.append(s.data(), s.size());
        return true;
    }
    bool key(std::string_view s) {
        if (capture_depth_ > 0) return stack_.push_key(s), true;
        if (!in_key_) key_.clear();
        in_key_ = false;
        key_.append(s.data(), s.size());
        return true;
    }

    bool string_part(std::string_view s) {
        if (capture_depth_ == 0 && !in_scalar_) {
            begin_scalar();
            in_scalar_ = true;
        }
        stack_.push_chars(s);
        return true;
    }
    bool string(std::string_view s) {
        if (capture_depth_ > 0) return stack_.push_string(s), true;
        if (!in_scalar_) begin_scalar();
        in_scalar_ = false;
        stack_.push_string(s);
        return scalar_done();
    }
    bool int64(std::int64_t v) { return scalar([&] { stack_.push_int64(v); }); }
    bool uint64(std::uint64_t v) { return scalar([&] { stack_.push_uint64(v); }); }
    bool real(double v) { return scalar([&] { stack_.push_double(v); }); }
    bool boolean(bool v) { return scalar([&] { stack_.push_bool(v); }); }
    bool null() { return scalar([&] { stack_.push_null(); }); }

    bool finish() {
        if (!notes_.empty()) to_.notes(notes_);
        if (audit_) to_.audit(*audit_);
        return true;
    }

private:
    bool fail(std::string why) {
        problem = std::move(why);
        return false;
    }

    template <class Push>
    bool scalar(Push push) {
        if (capture_depth_ > 0) return push(), true;
        begin_scalar();
        push();
        return scalar_done();
    }
    void begin_scalar() { stack_.reset(); }
    bool scalar_done() {
        if (frames_.empty()) return fail(std::string(not_a_report));
        // a scalar where the frame wants a container
        switch (frames_.back()) {
        case Frame::root:
            if (key_ == "suites") return fail("\"suites\" is not a list");
            break;
        case Frame::suites: return fail("a suite that is not an object");
        case Frame::suite:
            if (key_ == "cases") return fail("\"cases\" of suite " + quoted(suite_.name) + " is not a list");
            break;
        case Frame::cases: return fail("a case of suite " + quoted(suite_.name) + " that is not an object");
        }
        return captured(stack_.release());
    }

    bool finish_head() {
        const auto* tool = root_.if_contains("tool");
        if (!tool || !tool->is_string() || tool->get_string() != "idconform") return fail(std::string(not_a_report));
        head_.info.tool_version = s_of(root_, "version");
        if (const auto* run = o_of(root_, "run")) read_run(*run, head_);
        if (const auto* sum = o_of(root_, "summary")) {
            head_.seconds = d_of(*sum, "time");
            head_.interrupted = s_of(*sum, "interrupted");
            head_.filtered_out = static_cast<std::size_t>(u_of(*sum, "filtered_out"));
            head_.tests = static_cast<std::size_t>(u_of(*sum, "tests"));
        }
        root_ = json::object();
        head_done_ = true;
        to_.head(head_);
        return true;
    }

    void announce_suite() {
        if (suite_announced_) return;
        suite_announced_ = true;
        to_.suite_started(suite_);
    }

    // A value built whole, in the place the frame says.
    bool captured(json::value v) {
        switch (frames_.back()) {
        case Frame::root:
            if (key_ == "audit") {
                if (v.is_object()) audit_ = audit_of(v.get_object());
            } else if (key_ == "notes" && head_done_) {
                if (v.is_array())
                    for (const auto& n : v.get_array())
                        if (n.is_string()) notes_.emplace_back(n.get_string());
            } else if (!head_done_) {
                root_[key_] = std::move(v);
            }
            return true;
        case Frame::suites:  // not reached: suites hold objects (frames) or fail
            return true;
        case Frame::suite:
            if (key_ == "name") {
                if (!v.is_string()) return fail("a suite whose \"name\" is not a string");
                suite_.name = std::string(v.get_string());
                has_suite_name_ = true;
            } else if (key_ == "file") {
                suite_.file = v.is_string() ? std::string(v.get_string()) : std::string();
            } else if (key_ == "time") {
                suite_.seconds = v.is_number() ? seconds_value(v.to_number<double>()) : 0;
            } else if (key_ == "timestamp") {
                suite_.timestamp = v.is_string() ? std::string(v.get_string()) : std::string();
            }
            return true;
        case Frame::cases: {
            CaseResult c;
            if (std::string why = case_of(v.get_object(), suite_.name, opts_.case_outline_only, c); !why.empty())
                return fail(why);
            v = nullptr;  // the case's JSON goes before the reporter works on it
            suite_.count_streamed(c);
            to_.take_case(std::move(c));
            return true;
        }
        }
        return true;
    }

    ReportVisitor& to_;
    ReadOptions opts_;
    std::vector<Frame> frames_;
    std::string key_;          // the current key of the innermost frame object
    bool in_key_ = false;      // key_ has parts of a key not yet complete
    json::value_stack stack_;
    std::size_t capture_depth_ = 0;  // > 0: building a value whole, this deep
    bool in_scalar_ = false;   // a frame member's string came in parts so far
    json::object root_;        // root members before "suites"
    ReportHead head_;
    bool head_done_ = false, saw_suites_ = false;
    SuiteResult suite_;
    bool suite_announced_ = false, has_suite_name_ = false;
    std::optional<AuditSummary> audit_;
    std::vector<std::string> notes_;  // the "notes" member
};

// basic_parser's handler: every event goes to the walker; a walker refusal
// stops the parse.
struct Handler {
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    Handler(ReportVisitor& to, ReadOptions opts) : w(to, opts) {}

    Walker w;

    bool stop(bool ok, json::error_code& ec) {
        if (!ok) ec = json::error::extra_data;  // any code stops the parser; Walker::problem says why
        return ok;
    }
    bool on_document_begin(json::error_code&) { return true; }
    bool on_document_end(json::error_code& ec) { return stop(w.finish(), ec); }
    bool on_object_begin(json::error_code& ec) { return stop(w.begin_container(true), ec); }
    bool on_object_end(std::size_t n, json::error_code& ec) { return stop(w.end_container(true, n), ec); }
    bool on_array_begin(json::error_code& ec) { return stop(w.begin_container(false), ec); }
    bool on_array_end(std::size_t n, json::error_code& ec) { return stop(w.end_container(false, n), ec); }
    bool on_key_part(std::string_view s, std::size_t, json::error_code& ec) { return stop(w.key_part(s), ec); }
    bool on_key(std::string_view s, std::size_t, json::error_code& ec) { return stop(w.key(s), ec); }
    bool on_string_part(std::string_view s, std::size_t, json::error_code& ec) { return stop(w.string_part(s), ec); }
    bool on_string(std::string_view s, std::size_t, json::error_code& ec) { return stop(w.string(s), ec); }
    bool on_number_part(std::string_view, json::error_code&) { return true; }
    bool on_int64(std::int64_t v, std::string_view, json::error_code& ec) { return stop(w.int64(v), ec); }
    bool on_uint64(std::uint64_t v, std::string_view, json::error_code& ec) { return stop(w.uint64(v), ec); }
    bool on_double(double v, std::string_view, json::error_code& ec) { return stop(w.real(v), ec); }
    bool on_bool(bool v, json::error_code& ec) { return stop(w.boolean(v), ec); }
    bool on_null(json::error_code& ec) { return stop(w.null(), ec); }
    bool on_comment_part(std::string_view, json::error_code&) { return true; }
    bool on_comment(std::string_view, json::error_code&) { return true; }
};

// Counts lines and columns of what the parser consumed, for error positions.
struct Position {
    std::size_t line = 1, column = 1;
    void advance(std::string_view s) {
        for (const char ch : s) {
            if (ch == '\n') {
                ++line;
                column = 1;
            } else if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) {
                ++column;  // a character, not a UTF-8 continuation byte
            }
        }
    }
};

class Reader {
public:
    Reader(ReportVisitor& to, ReadOptions opts, const std::string& path) : parser_(options(), to, opts), path_(path) {}

    // Feeds the next chunk (more = false: the last one). False with error set.
    bool feed(std::string_view chunk, bool more, std::string& error) {
        json::error_code ec;
        const std::size_t used = parser_.write_some(more, chunk.data(), chunk.size(), ec);
        at_.advance(chunk.substr(0, used));
        if (ec) return fail(ec, error);
        // The parser takes every byte it is given until its document ends
        // (trailing white space included); what it leaves is more text.
        if (used < chunk.size()) {
            error = where() + ": text after the end of the report; give one report written by idconform run --json";
            return false;
        }
        return true;
    }

private:
    static json::parse_options options() {
        json::parse_options o;
        o.max_depth = 64;  // a report nests 10 levels deep; room for what a later version adds
        return o;
    }
    std::string where() const { return path_ + ":" + std::to_string(at_.line) + ":" + std::to_string(at_.column); }
    bool fail(const json::error_code& ec, std::string& error) {
        const std::string& why = parser_.handler().w.problem;
        if (!why.empty()) error = where() + ": " + why;
        else if (ec == json::error::incomplete)
            error = where() + ": the report ends too early (cut off while being written or copied?); give a complete "
                              "report written by idconform run --json";
        else
            error = where() + ": not JSON (" + ec.message() + "); give a report written by idconform run --json";
        return false;
    }

    json::basic_parser<Handler> parser_;
    const std::string& path_;
    Position at_;
};

// ReadReport's visitor: keeps everything.
class Keeper final : public ReportVisitor {
public:
    explicit Keeper(ReadReport& out) : out_(out) {}
    void head(const ReportHead& h) override {
        out_.info = h.info;
        out_.has_run = h.has_run;
        out_.summary.seconds = h.seconds;
        out_.summary.interrupted = h.interrupted;
        out_.summary.filtered_out = h.filtered_out;
        out_.started = h.started;
        out_.finished = h.finished;
        out_.metadata = h.metadata;
    }
    void suite_started(const SuiteResult& s) override { out_.summary.suites.push_back(s); }
    void take_case(CaseResult&& c) override { out_.summary.suites.back().cases.push_back(std::move(c)); }
    void suite_finished(const SuiteResult&) override {}
    void audit(const AuditSummary& a) override { out_.audit = a; }
    void notes(const std::vector<std::string>& n) override { out_.summary.notes = n; }

private:
    ReadReport& out_;
};

}  // namespace

bool read_json_report_text(std::string_view text, const std::string& path, ReportVisitor& to, std::string& error,
                           ReadOptions opts) {
    try {
        Reader r(to, opts, path);
        const std::size_t step = std::max<std::size_t>(opts.chunk, 1);
        while (text.size() > step) {
            if (!r.feed(text.substr(0, step), true, error)) return false;
            text.remove_prefix(step);
        }
        return r.feed(text, false, error);
    } catch (const std::exception& e) {  // allocation failure: data, not an exception across the boundary
        error = path + ": cannot read the report: " + e.what();
        return false;
    }
}

bool read_json_report(const std::string& path, ReportVisitor& to, std::string& error, ReadOptions opts) {
    // Opened through the input guard: a regular file only (no FIFO, device
    // or file under /proc and /sys), then streamed.
    input::Opened in = input::open_input(path, {.what = "the file", .pipes = false, .expected = "a JSON report"});
    if (in.error) {
        error = path + ": " + in.error->title;
        return false;
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(::fdopen(in.fd.get(), "rb"), &std::fclose);
    if (!f) {
        error = path + ": cannot read the file";
        return false;
    }
    (void)in.fd.release();  // the FILE owns it now
    try {
        Reader r(to, opts, path);
        std::vector<char> buf(std::max<std::size_t>(opts.chunk, 1));
        for (;;) {
            const std::size_t n = std::fread(buf.data(), 1, buf.size(), f.get());
            if (n < buf.size() && std::ferror(f.get())) {
                error = path + ": cannot read the file (read error)";
                return false;
            }
            const bool more = n == buf.size() || !std::feof(f.get());
            if (!r.feed(std::string_view(buf.data(), n), more, error)) return false;
            if (!more) return true;
        }
    } catch (const std::exception& e) {
        error = path + ": cannot read the report: " + e.what();
        return false;
    }
}

bool read_json_report(const std::string& path, ReadReport& out, std::string& error) {
    out = ReadReport{};
    out.path = path;
    Keeper keep(out);
    return read_json_report(path, keep, error);
}

}  // namespace idconform::reporters
