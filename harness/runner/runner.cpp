// The runner: suite setup, case expansion, concurrent execution with retries
// and a shared rate limit, ordered reporting, teardown.
#include "runner/runner.hpp"

#include "ids/ids.hpp"
#include "runner/checks.hpp"
#include "runner/kafka_step.hpp"
#include "runner/scope.hpp"
#include "runner/sequence_checks.hpp"
#include "scan/scan.hpp"
#include "transport/kafka/kafka_request.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace idconform::runner {

namespace asio = boost::asio;
namespace json = boost::json;
using asio::awaitable;
using asio::use_awaitable;

bool glob_match(std::string_view p, std::string_view t) {
    std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
    while (ti < t.size()) {
        if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) { ++pi; ++ti; }
        else if (pi < p.size() && p[pi] == '*') { star = pi++; mark = ti; }
        else if (star != std::string_view::npos) { pi = star + 1; ti = ++mark; }
        else return false;
    }
    while (pi < p.size() && p[pi] == '*') ++pi;
    return pi == p.size();
}

namespace {

std::string shell_quote(std::string_view s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

constexpr std::string_view redacted = "<redacted>";

bool sensitive_header(std::string_view name) {
    return iequals(name, "authorization") || iequals(name, "proxy-authorization") || iequals(name, "cookie") ||
           iequals(name, "set-cookie") || iequals(name, "x-api-key");
}

void replace_all(std::string& s, const std::string& what, std::string_view with) {
    if (what.empty()) return;
    for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + with.size())) s.replace(p, what.size(), with);
}

// The recorded request: sensitive headers and every secret value masked, in place.
void redact(Request& r, const std::set<std::string>& secrets) {
    for (auto& h : r.headers)
        if (sensitive_header(h.name)) h.value = std::string(redacted);
    for (const auto& s : secrets) {
        replace_all(r.url, s, redacted);
        replace_all(r.body, s, redacted);
        for (auto& h : r.headers) replace_all(h.value, s, redacted);
    }
}

void redact_response(Response& resp, const std::set<std::string>& secrets) {
    for (auto& h : resp.headers)
        if (sensitive_header(h.name)) h.value = std::string(redacted);
    for (const auto& s : secrets) replace_all(resp.body, s, redacted);
}

// "timeout: no answer after 300 ms (GET http://..., 2 attempts)"
std::string describe_transport_error(const Exchange& x) {
    const auto& err = *x.error;
    return std::string(to_string(err.kind)) + ": " + err.message + " (" + x.request.method + " " + x.request.url + ", " +
           std::to_string(x.attempts) + " attempt" + (x.attempts == 1 ? "" : "s") + ")";
}

// One rate limit across every case of the run: requests are spaced evenly.
class RateLimiter {
public:
    explicit RateLimiter(double per_second)
        : interval_(per_second > 0 ? std::chrono::nanoseconds(static_cast<long long>(1e9 / per_second))
                                   : std::chrono::nanoseconds(0)) {}
    awaitable<void> acquire() {
        if (interval_.count() == 0) co_return;
        const auto now = std::chrono::steady_clock::now();
        const auto slot = std::max(now, next_);
        next_ = slot + interval_;
        if (slot > now) {
            asio::steady_timer t(co_await asio::this_coro::executor, slot);
            co_await t.async_wait(use_awaitable);
        }
    }
private:
    std::chrono::nanoseconds interval_;
    std::chrono::steady_clock::time_point next_{};
};

// A case after expansion: the case and, for for_each, one element's bindings.
// An element of a vector set is kept as a pointer to its vector until the case
// runs (see element()): 100,000 cases then hold no copies of names and values.
struct Expanded {
    const suite::Case* c = nullptr;
    std::string name;
    std::vector<std::pair<std::string, json::value>> bindings;
    std::vector<Property> properties;
    std::string pre_error;   // expansion failed: reported as an error
    std::string pre_skip;    // reported as skipped
    const suite::Vector* vector = nullptr;  // set: name, bindings and properties not filled yet
};

struct StepOutcome {
    StepRecord record;
    bool transport_error = false;
    std::string suite_error;   // template problem: undefined variable, ...
    bool failed = false;
    bool evidence_pending = false;  // run_step(defer_evidence): not redacted, no reproduce yet
};

struct SuiteRun {
    const suite::Suite* suite = nullptr;
    // One transport per registry name ("http", "grpc", ...), made on first use
    // with the suite's options.
    transport::Options transport_options;
    std::map<std::string, std::unique_ptr<transport::Transport>> transports;
    bool started = false;  // setup ran: teardown and cleanup are due
    Scope scope;
    std::string base_url;
    std::string grpc_url;  // "grpc://host:port" or "grpcs://host:port" from the target's grpc section
    std::vector<std::pair<std::string, std::string>> target_headers;  // interpolated
    std::set<std::string> seen_ids;                          // for `unique` id checks
    std::map<std::string, std::set<int>> field_versions;     // scan: UUID versions per field
    struct Created {
        Request request;                 // what deletes it (the creating principal's credentials)
        std::string origin;              // the step that created it, for the report
        std::string problem;             // why it cannot be deleted (no delete endpoint)
    };
    std::vector<Created> created;        // entities this suite created, in order
    std::set<std::string> deleted;       // delete_key()s of requests answered 2xx
    std::vector<StepRecord> scan_findings;  // setup/teardown steps whose only failures are shape-scan findings
    transport::KafkaOptions kafka;       // target.kafka, interpolated at suite start
    std::string kafka_problem;           // why it could not be (reported by the first kafka step)
};



class Engine {
public:
    Engine(const RunOptions& o, reporters::Reporter& r) : opts_(o), reporter_(r), limiter_(o.rate_limit) {}

    awaitable<void> run_all(const std::vector<suite::Suite>& suites) {
        const auto t0 = std::chrono::steady_clock::now();
        for (const auto& s : suites) report_.summary.suites.push_back(co_await run_suite(s));
        report_.summary.seconds = seconds_since(t0);
    }

    RunReport take() { return std::move(report_); }

    // The suite's transport for `name`, made on first use; nullptr for a
    // name the registry does not know.
    static awaitable<transport::Transport*> transport_for(SuiteRun& run, const std::string& name) {
        auto& t = run.transports[name];
        if (!t) t = transport::make(name, co_await asio::this_coro::executor, run.transport_options);
        co_return t.get();
    }

    // Sends one request on the suite's transport for it.
    static awaitable<Exchange> send(SuiteRun& run, const Request& req) {
        transport::Transport* t = co_await transport_for(run, req.transport);
        if (!t) {
            Exchange x;
            x.request = req;
            x.error = TransportError{TransportErrorKind::other, "no transport named '" + req.transport + "'"};
            co_return x;
        }
        co_return co_await t->exchange(req);
    }

    // What identifies a deleted entity: a successful DELETE (or a transport's
    // delete call) of the same request target.
    // The command line that sends `r` again by hand, in the tool of its transport.
    static std::string reproduce(const SuiteRun& run, const Request& r) {
        if (r.transport == "kafka") return transport::kafka::kcat_command(r, run.kafka.brokers);
        if (r.transport == "grpc" || r.transport == "grpcs") return grpcurl_command(r, run.transport_options.grpc);
        return curl_command(r);
    }

    // (An HTTP DELETE names its entity in the URL; a gRPC delete in its message.)
    static std::string delete_key(const Request& r) {
        if (r.transport == "http" || r.transport == "https") return r.transport + " " + r.url;
        return r.transport + " " + r.url + " " + r.method + " " + r.body;
    }

private:
    static double seconds_since(std::chrono::steady_clock::time_point t0) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    bool selected(const suite::Suite& s, const suite::Case& c) const {
        auto has_tag = [&](const std::string& t) {
            return std::find(c.tags.begin(), c.tags.end(), t) != c.tags.end() ||
                   std::find(s.tags.begin(), s.tags.end(), t) != s.tags.end();
        };
        if (!opts_.tags.empty() && std::none_of(opts_.tags.begin(), opts_.tags.end(), has_tag)) return false;
        if (std::any_of(opts_.exclude_tags.begin(), opts_.exclude_tags.end(), has_tag)) return false;
        return true;
    }

    std::string setup_suite(const suite::Suite& s, SuiteRun& run) {
        run.suite = &s;
        for (const auto& v : s.vars) {
            if (v.deferred) {
                run.scope.set_deferred(v.name, v.value);
                continue;
            }
            auto val = interpolate_json(v.value, run.scope);
            if (!val) return v.pos.str() + ": variable '" + v.name + "': " + val.error();
            run.scope.set(v.name, std::move(*val), v.secret);
        }
        for (const auto& [k, v] : opts_.vars) run.scope.set(k, json::value(v));
        auto base = opts_.base_url ? Result<std::string>(boost::system::in_place_value, *opts_.base_url) : interpolate(s.target.base_url, run.scope);
        if (!base) return s.target.pos.str() + ": base_url: " + base.error();
        run.base_url = *base;
        while (!run.base_url.empty() && run.base_url.back() == '/') run.base_url.pop_back();
        if (s.target.grpc) {
            auto addr = interpolate(s.target.grpc->address, run.scope);
            if (!addr) return s.target.grpc->pos.str() + ": address: " + addr.error();
            const bool has_scheme = addr->rfind("grpc://", 0) == 0 || addr->rfind("grpcs://", 0) == 0;
            run.grpc_url = has_scheme ? *addr : (s.target.grpc->tls ? "grpcs://" : "grpc://") + *addr;
        }
        for (const auto& [k, v] : s.target.headers) {
            auto hv = interpolate(v, run.scope);
            if (!hv) return s.target.pos.str() + ": header " + k + ": " + hv.error();
            run.target_headers.emplace_back(k, *hv);
        }
        setup_kafka_target(s.target.kafka, run);
        return {};
    }

    // target.kafka: a problem (an unset ${env:...}) is kept for the first
    // kafka step, so suites whose kafka cases are skipped run without it.
    // Secret property values join the suite's secrets before cases copy the scope.
    static void setup_kafka_target(const suite::KafkaTarget& t, SuiteRun& run) {
        if (t.brokers.empty()) return;
        auto b = interpolate(t.brokers, run.scope);
        if (!b) {
            run.kafka_problem = t.pos.str() + ": kafka brokers: " + b.error();
            return;
        }
        run.kafka.brokers = *b;
        for (const auto& [k, v] : t.properties) {
            auto pv = interpolate(v, run.scope);
            if (!pv) {
                run.kafka_problem = t.pos.str() + ": kafka property " + k + ": " + pv.error();
                return;
            }
            if (transport::kafka::secret_property(k) && !pv->empty()) run.scope.add_secret(*pv);
            run.kafka.properties.emplace_back(k, *pv);
        }
    }

    void expand(const suite::Suite& s, const suite::Case& c, const Scope& scope, std::vector<Expanded>& out) {
        if (!selected(s, c)) return;
        auto keep = [&](const std::string& element_name) {
            const auto& f = *c.for_each;
            if (!f.only.empty() && std::find(f.only.begin(), f.only.end(), element_name) == f.only.end()) return false;
            return std::find(f.except.begin(), f.except.end(), element_name) == f.except.end();
        };
        std::string unmet;
        for (const auto& need : c.needs) {
            auto v = scope.resolve(need);
            if (!v || v->is_null()) {
                unmet = need.rfind("env:", 0) == 0
                            ? "not run: needs the environment variable " + need.substr(4) + ", which is not set"
                            : "not run: needs ${" + need + "}, which the target profile does not describe";
                break;
            }
        }
        auto push = [&](Expanded e) {
            if (!opts_.filter.empty()) {
                Expanded scratch;
                if (!glob_match(opts_.filter, element(e, scratch).name)) return;
            }
            if (!c.skip.empty()) e.pre_skip = c.skip;
            else if (!unmet.empty()) e.pre_skip = unmet;
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
        // mutations of a live id
        auto idtext = interpolate(f.set, scope);
        std::vector<ids::Mutation> muts;
        if (idtext) {
            if (auto u = ids::parse_canonical(*idtext)) {
                muts = ids::mutations(*u);
            } else if (auto ul = ids::parse_ulid(*idtext, ids::CasePolicy::lower_only); ul.value) {
                muts = ids::ulid_mutations(*ul.value);
            } else if (auto vf = ids::infer_viewable_format(*idtext)) {
                muts = ids::viewable_mutations(*idtext, *vf);
            } else {
                Expanded e{&c, c.name, {}, {},
                           f.pos.str() + ": for_each mutations needs a canonical UUID or lower-case ULID, got '" + *idtext + "'", {}};
                push(std::move(e));
                return;
            }
        } else {
            push(Expanded{&c, c.name, {}, {}, f.pos.str() + ": " + idtext.error(), {}});
            return;
        }
        for (const auto& m : muts) {
            if (!keep(m.name)) continue;
            Expanded e;
            e.c = &c;
            e.name = c.name + " [" + m.name + "]";
            e.bindings.emplace_back(f.as, json::value(m.text));
            e.bindings.emplace_back(f.as + ".value", json::value(m.text));
            e.bindings.emplace_back(f.as + ".name", json::value(m.name));
            e.bindings.emplace_back(f.as + ".breaks", json::value(m.breaks));
            e.bindings.emplace_back(f.as + ".source", json::value(*idtext));
            e.properties.push_back({"mutation", m.name});
            e.properties.push_back({"mutation_breaks", m.breaks});
            push(std::move(e));
        }
    }

    // The case `e` stands for, with its name, bindings and properties: `e`
    // itself, or (a vector element kept as a pointer) `scratch` filled in.
    static const Expanded& element(const Expanded& e, Expanded& scratch) {
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
        return scratch;
    }

    // A path template: `${...}` first (a path template may come from a
    // variable), then `{name}` from path_params or variables, percent-encoded.
    static Result<std::string> build_path(const std::string& tmpl, const std::vector<std::pair<std::string, std::string>>& params,
                                          const Scope& scope) {
        if (params.empty()) return interpolate(tmpl, scope, Encoding::path_segment);
        auto raw = interpolate(tmpl, scope, Encoding::raw);
        if (!raw) return raw;
        Scope inner = scope;
        for (const auto& [k, v] : params) {
            auto pv = interpolate(v, scope);
            if (!pv) return pv;
            inner.set(k, json::value(*pv));
        }
        return interpolate(*raw, inner, Encoding::path_segment);
    }

    Result<Request> build_request(const SuiteRun& run, const suite::Step& st, const Scope& scope) {
        using R = Result<Request>;
        if (st.kind == suite::Step::Kind::call)
            return R(boost::system::in_place_error,
                     st.call.pos.str() + ": call " + st.call.op +
                         ": no request is bound to this operation (a 'call' step runs from a target profile whose "
                         "resource declares '" + st.call.op + "'; guard the case with requires: [res." + st.call.op + "])");
        if (st.kind == suite::Step::Kind::grpc) return build_grpc_request(run, st, scope);
        if (st.kind == suite::Step::Kind::kafka)
            return build_kafka_request(st.kafka, scope,
                                       KafkaContext{run.kafka.brokers, run.kafka_problem,
                                                    run.transport_options.read_timeout, opts_.clock_skew});
        const auto& h = st.http;
        Request r;
        r.transport = "http";
        auto method = interpolate(h.method, scope);
        if (!method) return R(boost::system::in_place_error, h.pos.str() + ": method: " + method.error());
        r.method = *method;
        auto path = build_path(h.path, h.path_params, scope);
        if (!path) return R(boost::system::in_place_error, h.pos.str() + ": path: " + path.error());
        const bool absolute = path->rfind("http://", 0) == 0 || path->rfind("https://", 0) == 0;
        r.url = absolute ? *path : run.base_url + (path->empty() || path->front() == '/' ? "" : "/") + *path;
        char sep = r.url.find('?') == std::string::npos ? '?' : '&';
        for (const auto& [k, v] : h.query) {
            auto qv = interpolate(v, scope, Encoding::query);
            if (!qv) return R(boost::system::in_place_error, h.pos.str() + ": query " + k + ": " + qv.error());
            auto qk = interpolate(k, scope);
            if (!qk) return R(boost::system::in_place_error, h.pos.str() + ": query key " + k + ": " + qk.error());
            r.url += sep + percent_encode(*qk, false) + "=" + *qv;
            sep = '&';
        }
        auto add_header = [&r](const std::string& name, std::string value) {
            for (auto& e : r.headers)
                if (iequals(e.name, name)) { e.value = std::move(value); return; }
            r.headers.push_back({name, std::move(value)});
        };
        for (const auto& [k, v] : run.target_headers) add_header(k, v);
        if (!h.principal.empty()) {
            const auto p = run.suite->principals.find(h.principal);
            if (p == run.suite->principals.end())
                return R(boost::system::in_place_error, h.pos.str() + ": unknown principal '" + h.principal + "'");
            for (const auto& [k, v] : p->second.headers) {
                auto hv = interpolate(v, scope);
                if (!hv) return R(boost::system::in_place_error, p->second.pos.str() + ": " + hv.error());
                add_header(k, *hv);
            }
        }
        for (const auto& [k, v] : h.headers) {
            auto hv = interpolate(v, scope);
            if (!hv) return R(boost::system::in_place_error, h.pos.str() + ": header " + k + ": " + hv.error());
            add_header(k, *hv);
        }
        if (h.json) {
            auto body = interpolate_json(*h.json, scope);
            if (!body) return R(boost::system::in_place_error, h.pos.str() + ": json: " + body.error());
            for (const auto& [ptr, val] : h.set) {
                auto p = interpolate(ptr, scope);
                auto v = interpolate_json(val, scope);
                if (!p || !v) return R(boost::system::in_place_error, h.pos.str() + ": set " + ptr + ": " + (p ? v.error() : p.error()));
                if (!set_at_pointer(*body, *p, std::move(*v)))
                    return R(boost::system::in_place_error, h.pos.str() + ": set: cannot set " + *p + " in the body");
            }
            for (const auto& ptr : h.unset) {
                auto p = interpolate(ptr, scope);
                if (!p) return R(boost::system::in_place_error, h.pos.str() + ": unset: " + p.error());
                (void)erase_at_pointer(*body, *p);  // absent already: nothing to remove
            }
            r.body = json::serialize(*body);
            bool has_ct = false;
            for (const auto& e : r.headers) has_ct = has_ct || iequals(e.name, "content-type");
            if (!has_ct) r.headers.push_back({"Content-Type", "application/json"});
        } else if (h.raw) {
            auto body = interpolate(*h.raw, scope);
            if (!body) return R(boost::system::in_place_error, h.pos.str() + ": raw: " + body.error());
            r.body = *body;
        }
        return r;
    }

    // A file step: scans the file (synchronously, on the file thread) and
    // turns each violation into a failed check positioned in the file. An
    // unreadable file is an error; a malformed one a failed check.
    static StepOutcome run_file_step(const suite::Step& st, const Scope& scope, const std::string& rule) {
        StepOutcome out;
        out.record.name = st.name;
        const suite::FileScan& f = st.file;
        Exchange& x = out.record.exchange;
        x.request.transport = "file";
        x.request.method = "SCAN";
        auto path = interpolate(f.path, scope);
        if (!path) {
            out.suite_error = f.pos.str() + ": path: " + path.error();
            x.error = TransportError{TransportErrorKind::other, out.suite_error};
            return out;
        }
        x.request.url = *path;
        scan::Options o;
        const auto fmt = f.format.empty() ? scan::format_from_path(*path) : scan::format_from_name(f.format);
        if (!fmt) {
            out.suite_error = f.pos.str() + ": cannot tell the format of '" + *path + "' from its extension; add format:";
            x.error = TransportError{TransportErrorKind::other, out.suite_error};
            return out;
        }
        o.format = *fmt;
        o.shape = f.shape;
        for (const auto& [name, kind] : f.fields) {
            scan::FieldSpec spec;
            std::string err;
            spec.name = name;
            (void)scan::parse_kind_spec(kind, spec, err);  // checked by the loader
            o.fields.push_back(std::move(spec));
        }
        x.sent = Clock::now();
        auto& checks = out.record.checks;
        const scan::Stats stats = scan::scan_path(*path, o, [&](const scan::Violation& v) {
            checks.push_back(scan::to_check(*path, v));
            return checks.size() < f.max_violations;
        });
        x.received = Clock::now();
        if (stats.error && stats.error->line == 0) {
            x.error = TransportError{TransportErrorKind::other, scan::format_error(*path, *stats.error)};
            out.transport_error = true;
            return out;
        }
        Response resp;
        resp.reason = std::to_string(stats.records) + " records, " + std::to_string(stats.bytes) + " bytes scanned";
        x.response = std::move(resp);
        CheckResult summary;
        summary.rule = rule;
        summary.what = "ids in " + *path;
        summary.expected = "no violation";
        summary.actual = std::to_string(stats.violations) + " violation" + (stats.violations == 1 ? "" : "s") +
                         (stats.stopped ? " (scan stopped at max_violations " + std::to_string(f.max_violations) + ")" : "");
        summary.ok = stats.violations == 0;
        summary.pos = f.pos;
        if (stats.error) {
            CheckResult c;
            c.rule = rule;
            c.what = "file " + *path;
            c.expected = std::string("a well-formed ") + std::string(scan::to_string(*fmt)) + " file";
            c.actual = stats.error->message + " (nothing after this point was checked)";
            c.pos = SourcePos{*path, static_cast<int>(stats.error->line), static_cast<int>(stats.error->column)};
            checks.insert(checks.begin(), std::move(c));
        }
        checks.push_back(std::move(summary));
        out.failed = std::any_of(checks.begin(), checks.end(), [](const CheckResult& c) { return !c.ok && !c.warning; });
        return out;
    }

    // A grpc step's request: the message as JSON (after set/unset), target
    // and principal headers plus the step's metadata, all with lower-case names.
    Result<Request> build_grpc_request(const SuiteRun& run, const suite::Step& st, const Scope& scope) {
        using R = Result<Request>;
        const auto& g = st.grpc;
        Request r;
        if (run.grpc_url.empty())
            return R(boost::system::in_place_error, g.pos.str() + ": a grpc step needs the target's grpc section");
        r.url = run.grpc_url;
        r.transport = r.url.rfind("grpcs://", 0) == 0 ? "grpcs" : "grpc";
        auto method = interpolate(g.method, scope);
        if (!method) return R(boost::system::in_place_error, g.pos.str() + ": method: " + method.error());
        r.method = *method;
        auto add = [&r](const std::string& name, std::string value) {
            std::string key;
            for (char c : name) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            for (auto& e : r.headers)
                if (e.name == key) { e.value = std::move(value); return; }
            r.headers.push_back({key, std::move(value)});
        };
        for (const auto& [k, v] : run.target_headers) add(k, v);
        if (!g.principal.empty()) {
            const auto p = run.suite->principals.find(g.principal);
            if (p == run.suite->principals.end())
                return R(boost::system::in_place_error, g.pos.str() + ": unknown principal '" + g.principal + "'");
            for (const auto& [k, v] : p->second.headers) {
                auto hv = interpolate(v, scope);
                if (!hv) return R(boost::system::in_place_error, p->second.pos.str() + ": " + hv.error());
                add(k, *hv);
            }
        }
        for (const auto& [k, v] : g.metadata) {
            auto hv = interpolate(v, scope);
            if (!hv) return R(boost::system::in_place_error, g.pos.str() + ": metadata " + k + ": " + hv.error());
            add(k, *hv);
        }
        auto body = interpolate_json(g.message, scope);
        if (!body) return R(boost::system::in_place_error, g.pos.str() + ": message: " + body.error());
        for (const auto& [ptr, val] : g.set) {
            auto p = interpolate(ptr, scope);
            auto v = interpolate_json(val, scope);
            if (!p || !v) return R(boost::system::in_place_error, g.pos.str() + ": set " + ptr + ": " + (p ? v.error() : p.error()));
            if (!set_at_pointer(*body, *p, std::move(*v)))
                return R(boost::system::in_place_error, g.pos.str() + ": set: cannot set " + *p + " in the message");
        }
        for (const auto& ptr : g.unset) {
            auto p = interpolate(ptr, scope);
            if (!p) return R(boost::system::in_place_error, g.pos.str() + ": unset: " + p.error());
            (void)erase_at_pointer(*body, *p);
        }
        r.body = json::serialize(*body);
        return r;
    }

    // With defer_evidence the redaction and the reproduce line are left to the
    // caller (out.evidence_pending): run_case builds them only for cases that
    // do not pass, whose reports show them.
    awaitable<StepOutcome> run_step(SuiteRun& run, const suite::Step& st, Scope& scope, const std::string& rule,
                                    std::map<std::string, std::vector<std::string>>* collected = nullptr,
                                    bool defer_evidence = false) {
        if (st.kind == suite::Step::Kind::file) {
            // A scan reads a whole file (gigabytes, perhaps): on the file
            // thread, so the runner's other cases keep going meanwhile. The
            // step, scope and rule live in this frame until it is done.
            if (!files_) files_.emplace(1);  // a thread only for runs that scan files
            co_return co_await asio::co_spawn(
                files_->get_executor(), [&]() -> awaitable<StepOutcome> { co_return run_file_step(st, scope, rule); },
                use_awaitable);
        }
        StepOutcome out;
        out.record.name = !st.name.empty()                     ? st.name
                          : st.kind == suite::Step::Kind::call ? "call " + st.call.op
                                                               : st.http.method + " " + st.http.path;
        auto req = build_request(run, st, scope);
        if (!req) {
            out.suite_error = req.error();
            out.record.exchange.error = TransportError{TransportErrorKind::other, req.error()};
            co_return out;
        }
        Exchange x;
        int attempt = 0;
        for (;;) {
            ++attempt;
            co_await limiter_.acquire();
            x = co_await send(run, *req);
            if (!x.error || attempt > opts_.retries || !x.error->retryable) break;
            asio::steady_timer t(co_await asio::this_coro::executor, opts_.retry_backoff * (1 << std::min(attempt - 1, 10)));
            co_await t.async_wait(use_awaitable);
        }
        x.attempts = attempt;
        CheckContext ctx{&scope, rule, opts_.clock_skew, &run.seen_ids, collected};
        if (!x.error) {
            BodyJson body(*x.response);  // parsed once for checks, scan, captures and cleanup
            out.record.checks = evaluate(st.expect, x, ctx, body);
            if (st.kind == suite::Step::Kind::kafka && st.kafka.op == suite::KafkaRequest::Op::consume) {
                CheckResult got = kafka_message_check(st.kafka, x, st.expect.rule.empty() ? rule : st.expect.rule);
                // Without the message (or when none was wanted) the step's
                // other expectations have nothing to look at.
                if (st.kafka.absent || x.response->status != 200) out.record.checks.clear();
                out.record.checks.insert(out.record.checks.begin(), std::move(got));
            }
            // What the transport found in the contract itself (an id field
            // typed bytes or int64 in a gRPC schema) fails the step under its rule.
            for (const auto& f : x.findings) {
                CheckResult c;
                c.rule = f.rule;
                c.what = f.what;
                c.expected = f.expected;
                c.actual = f.actual;
                c.pos = st.pos;
                out.record.checks.push_back(std::move(c));
            }
            const int status = x.response->status;
            if (run.suite->scan && status / 100 == 2) {
                if (const json::value* parsed = body.get()) {
                    std::map<std::string, std::set<int>> seen;
                    for (auto& c : scan_ids(*parsed, &seen)) {
                        c.pos = st.pos;
                        out.record.checks.push_back(std::move(c));
                    }
                    std::string where = req->method;
                    if (st.kind == suite::Step::Kind::kafka) where += " " + st.kafka.topic;
                    else if (st.kind == suite::Step::Kind::http) where += " " + st.http.path;
                    for (auto& [field, versions] : seen)
                        run.field_versions[where + " " + field].insert(versions.begin(), versions.end());
                }
            }
            if (opts_.warnings_fail)
                for (auto& c : out.record.checks) c.warning = false;
            out.failed = std::any_of(out.record.checks.begin(), out.record.checks.end(),
                                     [](const CheckResult& c) { return !c.ok && !c.warning; });
            // Only a successful DELETE proves it is gone: a 404 may be another principal being refused.
            if (st.kind == suite::Step::Kind::http && req->method == "DELETE" && status / 100 == 2) run.deleted.insert(delete_key(*req));
            if (st.cleanup && status / 100 == 2) register_created(run, *st.cleanup, *req, x, body, scope, out.record.name);
            if (!st.captures.empty()) {
                // Captured even when a check failed: teardown needs the ids
                // of what was created to clean it up.
                auto cap = apply_captures(st.captures, x, scope, body);
                if (!cap && !out.failed) {
                    CheckResult c;
                    c.rule = rule;
                    c.what = "capture";
                    c.expected = "a value to capture";
                    c.actual = cap.error();
                    c.pos = st.pos;
                    out.record.checks.push_back(std::move(c));
                    out.failed = true;
                }
            }
        } else {
            out.transport_error = true;
        }
        if (x.request.url.empty()) x.request = std::move(*req);
        out.record.exchange = std::move(x);
        if (defer_evidence) out.evidence_pending = true;
        else add_evidence(run, out.record, scope.secrets());
        co_return out;
    }

    // The evidence of a step that sent something: its request and response
    // redacted in place and the command line that sends the request again.
    static void add_evidence(const SuiteRun& run, StepRecord& rec, const std::set<std::string>& secrets) {
        Exchange& x = rec.exchange;
        redact(x.request, secrets);
        if (x.response) redact_response(*x.response, secrets);
        rec.reproduce = reproduce(run, x.request);
    }

    // DATA-ID-003: all values of one field seen in the run share one version.
    CaseResult field_versions_case(const SuiteRun& run) const {
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
                r.message = c.what + ": expected one version, got " + vs;
            }
            rec.checks.push_back(std::move(c));
        }
        r.steps.push_back(std::move(rec));
        return r;
    }

    // Records an entity a step created so that the end of the suite deletes
    // it (unless a DELETE already did). Only what this run created is ever deleted.
    void register_created(SuiteRun& run, const suite::Cleanup& cl, const Request& req, const Exchange& x,
                          BodyJson& body, const Scope& scope, const std::string& step_name) {
        std::string id;
        boost::system::error_code ec;
        if (const json::value* parsed = body.get())
            if (const auto* v = parsed->find_pointer(resolve_pointer(cl.id_at, scope), ec); v && v->is_string())
                id = std::string(v->as_string());
        if (id.empty())
            if (const auto* loc = x.response->header("Location")) id = last_path_segment(*loc);
        if (id.empty()) return;
        if (!cl.impossible.empty()) {
            SuiteRun::Created c;
            c.problem = "no way to delete " + id + ": " + cl.impossible;
            c.origin = step_name;
            run.created.push_back(std::move(c));
            return;
        }
        if (!cl.grpc_method.empty()) {
            SuiteRun::Created c;
            c.request.transport = req.transport;
            c.request.url = req.url;
            c.request.method = cl.grpc_method;
            json::value msg = json::object();
            (void)set_at_pointer(msg, cl.grpc_id_field, json::value(id));
            c.request.body = json::serialize(msg);
            c.request.headers = req.headers;
            c.origin = step_name;
            run.created.push_back(std::move(c));
            return;
        }
        auto path = build_path(cl.path, {{"id", id}}, scope);
        SuiteRun::Created c;
        c.request.transport = req.transport;
        c.request.method = "DELETE";
        if (path) c.request.url = path->rfind("http", 0) == 0 ? *path : run.base_url + *path;
        else c.problem = "no way to delete " + id + ": " + path.error();
        for (const auto& h : req.headers)
            if (!iequals(h.name, "content-type")) c.request.headers.push_back(h);
        c.origin = step_name;
        run.created.push_back(std::move(c));
    }

    // Deletes every entity the suite created and nobody deleted yet; returns
    // an error case naming those it could not delete.
    awaitable<std::optional<CaseResult>> cleanup_created(SuiteRun& run) {
        CaseResult r;
        r.suite = run.suite->name;
        r.name = "cleanup";
        r.classname = run.suite->name + ".cleanup";
        r.pos = run.suite->pos;
        std::size_t failed = 0, done = 0;
        for (const auto& c : run.created) {
            if (!c.problem.empty()) {
                ++failed;
                ++done;
                StepRecord rec;
                rec.name = "delete what '" + c.origin + "' created";
                rec.exchange.error = TransportError{TransportErrorKind::other, c.problem};
                r.steps.push_back(std::move(rec));
                continue;
            }
            const Request& req = c.request;
            if (run.deleted.count(delete_key(req))) continue;
            co_await limiter_.acquire();
            Exchange x = co_await send(run, req);
            const bool ok = !x.error && (x.response->status / 100 == 2 || x.response->status == 404);
            run.deleted.insert(delete_key(req));
            ++done;
            if (!ok) {
                ++failed;
                StepRecord rec;
                rec.name = "delete what '" + c.origin + "' created";
                if (x.request.url.empty()) x.request = req;
                redact(x.request, run.scope.secrets());
                rec.reproduce = reproduce(run, x.request);
                rec.exchange = std::move(x);
                r.steps.push_back(std::move(rec));
            }
        }
        if (failed == 0) co_return std::nullopt;
        r.outcome = Outcome::error;
        r.message = "could not delete " + std::to_string(failed) + " of " + std::to_string(done) +
                    " entities this run created; they remain on the target (see the steps)";
        ++report_.transport_errors;
        co_return r;
    }

    static std::string join(const std::vector<std::string>& v, std::string_view sep) {
        std::string s;
        for (const auto& e : v) s += (s.empty() ? "" : std::string(sep)) + e;
        return s;
    }

    // The identity of an expanded case's result: suite, name, rules,
    // classname "<suite>.<first rule>", position and element properties.
    static CaseResult case_skeleton(const suite::Suite& s, const Expanded& e) {
        CaseResult r;
        r.suite = s.name;
        r.name = e.name;
        r.rules = e.c->rules;
        r.classname = s.name + (r.rules.empty() ? "" : "." + r.rules.front());
        r.pos = e.c->pos;
        r.properties = e.properties;
        return r;
    }

    awaitable<CaseResult> run_case(SuiteRun& run, const Expanded& e) {
        const auto t0 = std::chrono::steady_clock::now();
        const suite::Case& c = *e.c;
        CaseResult r = case_skeleton(*run.suite, e);
        const suite::Step* first = c.steps.empty() ? nullptr : &c.steps.front();
        const auto kind = first ? first->kind : suite::Step::Kind::http;
        r.properties.push_back({"transport", kind == suite::Step::Kind::kafka  ? "kafka"
                                             : kind == suite::Step::Kind::file ? "file"
                                             : kind == suite::Step::Kind::grpc ? "grpc"
                                                                               : "http"});
        if (kind == suite::Step::Kind::kafka)
            r.properties.push_back({"endpoint", std::string(first->kafka.op == suite::KafkaRequest::Op::produce ? "produce " : "consume ") +
                                                    first->kafka.topic});
        else if (kind == suite::Step::Kind::file)
            r.properties.push_back({"endpoint", "SCAN " + first->file.path});
        else if (kind == suite::Step::Kind::grpc)
            r.properties.push_back({"endpoint", first->grpc.method});
        else if (first)
            r.properties.push_back({"endpoint", first->http.method + " " + first->http.path});
        if (!e.pre_skip.empty()) {
            r.outcome = Outcome::skipped;
            r.message = e.pre_skip;
            co_return r;
        }
        if (!e.pre_error.empty()) {
            r.outcome = Outcome::error;
            r.message = e.pre_error;
            ++report_.suite_errors;
            co_return r;
        }
        Scope scope = run.scope;
        for (const auto& [k, v] : e.bindings) scope.set(k, v);
        scope.set(case_started_var, json::value(ids::system_unix_ms()));
        const std::string rule = join(c.rules, ",");
        std::map<std::string, std::vector<std::string>> collected;  // `collect:` lists of this case
        // Steps whose evidence (redaction, reproduce line) is not built yet:
        // built once the case is known not to pass, since a passed case's
        // report shows neither (see compact_passed).
        std::vector<std::size_t> pending;
        auto add_pending_evidence = [&] {
            for (std::size_t i : pending) add_evidence(run, r.steps[i], scope.secrets());
            pending.clear();
        };
        bool stopped = false;
        for (const auto& st : c.steps) {
            for (int rep = 0; rep < st.repeat && !stopped; ++rep) {
                StepOutcome so = co_await run_step(run, st, scope, rule, &collected, true);
                if (st.repeat > 1) so.record.name += " [" + std::to_string(rep + 1) + "/" + std::to_string(st.repeat) + "]";
                r.steps.push_back(std::move(so.record));
                if (so.evidence_pending) pending.push_back(r.steps.size() - 1);
                if (!so.suite_error.empty() || so.transport_error || so.failed) add_pending_evidence();
                const StepRecord& rec = r.steps.back();
                if (!so.suite_error.empty()) {
                    r.outcome = Outcome::error;
                    r.message = so.suite_error;
                    ++report_.suite_errors;
                    stopped = true;
                    break;
                }
                if (so.transport_error) {
                    r.outcome = Outcome::error;
                    r.message = describe_transport_error(rec.exchange);
                    ++report_.transport_errors;
                    stopped = true;
                    break;
                }
                if (so.failed) {
                    r.outcome = Outcome::failed;
                    for (const auto& ch : rec.checks) {
                        if (ch.ok || ch.warning) continue;
                        r.message = ch.what + ": expected " + ch.expected + ", got " + ch.actual;
                        break;
                    }
                    file_under_broken_rule(r);
                    stopped = true;
                }
                if (r.outcome != Outcome::passed) stopped = true;
            }
            if (stopped) break;
        }
        if (!stopped && !c.collected.empty()) {
            if (evaluate_collected(c, scope, rule, collected, r)) {
                add_pending_evidence();
                r.steps.back().reproduce = replay_steps(r.steps, r.steps.size() - 1);
                file_under_broken_rule(r);
            }
        }
        if (r.outcome == Outcome::passed) {
            // What compact_passed keeps of the request is its method and URL.
            for (std::size_t i : pending)
                for (const auto& secret : scope.secrets()) replace_all(r.steps[i].exchange.request.url, secret, redacted);
            compact_passed(r);
        } else {
            add_pending_evidence();
        }
        r.seconds = seconds_since(t0);
        co_return r;
    }

    // The reproduce line of the collected checks: the case's first n requests
    // sent again, in order (a run of identical requests, e.g. from `repeat`,
    // as one shell loop).
    static std::string replay_steps(const std::vector<StepRecord>& steps, std::size_t n) {
        std::string out;
        for (std::size_t i = 0; i < n;) {
            std::size_t j = i;
            while (j < n && steps[j].reproduce == steps[i].reproduce) ++j;
            if (!steps[i].reproduce.empty()) {
                if (!out.empty()) out += "\n";
                out += j - i == 1 ? steps[i].reproduce
                                  : "for i in $(seq " + std::to_string(j - i) + "); do " + steps[i].reproduce + "; echo; done";
            }
            i = j;
        }
        return out;
    }

    // The case's `collected:` checks, as one more step record (its reproduce
    // line is left to the caller, see replay_steps); true when one failed.
    static bool evaluate_collected(const suite::Case& c, const Scope& scope, const std::string& rule,
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
        const bool failed = std::any_of(rec.checks.begin(), rec.checks.end(), [](const CheckResult& ch) { return !ch.ok; });
        if (failed) {
            r.outcome = Outcome::failed;
            for (const auto& ch : rec.checks)
                if (!ch.ok) {
                    r.message = ch.what + ": expected " + ch.expected + ", got " + ch.actual;
                    break;
                }
        }
        r.steps.push_back(std::move(rec));
        return failed;
    }

    // Runs setup or teardown steps in order on the suite scope. On the first
    // problem returns a CaseResult named after the phase (failed for a broken
    // expectation, error otherwise); nullopt when every step passed.
    // A passed case keeps what its report shows (request line, status,
    // checks) and drops headers, bodies and the reproduce command, so that
    // runs of 100,000 cases stay small. Failed and errored cases keep all.
    static void compact_passed(CaseResult& r) {
        for (auto& st : r.steps) {
            auto& x = st.exchange;
            std::vector<Header>().swap(x.request.headers);
            std::string().swap(x.request.body);
            if (x.response) {
                std::vector<Header>().swap(x.response->headers);
                std::string().swap(x.response->body);
            }
            std::string().swap(st.reproduce);
            for (auto& c : st.checks) {
                if (c.actual.size() > 160) { c.actual.resize(160); c.actual += "..."; c.actual.shrink_to_fit(); }
                if (c.expected.size() > 160) { c.expected.resize(160); c.expected += "..."; c.expected.shrink_to_fit(); }
            }
        }
    }

    static bool only_scan_failures(const StepRecord& rec) {
        return std::all_of(rec.checks.begin(), rec.checks.end(), [](const CheckResult& c) {
            return c.ok || c.warning || c.what.rfind("shape scan", 0) == 0;
        });
    }

    static const CheckResult* first_failure(const std::vector<StepRecord>& steps) {
        for (const auto& st : steps)
            for (const auto& c : st.checks)
                if (!c.ok && !c.warning) return &c;
        return nullptr;
    }

    // The rule a failed case is filed under: the rule of the check that broke
    // (a shape-scan finding in a DATA-ID-001 case is a DATA-ID-002 failure).
    static void file_under_broken_rule(CaseResult& r) {
        const CheckResult* c = first_failure(r.steps);
        if (!c || c->rule.empty() || c->rule.find(',') != std::string::npos) return;
        r.classname = r.suite + "." + c->rule;
        if (std::find(r.rules.begin(), r.rules.end(), c->rule) == r.rules.end()) r.rules.insert(r.rules.begin(), c->rule);
    }

    awaitable<std::optional<CaseResult>> run_phase(SuiteRun& run, const std::vector<suite::Step>& steps, const char* phase) {
        CaseResult r;
        r.suite = run.suite->name;
        r.name = phase;
        r.classname = run.suite->name + "." + phase;
        r.pos = run.suite->pos;
        const auto t0 = std::chrono::steady_clock::now();
        const bool teardown = std::string_view(phase) == "teardown";
        bool problem = false;
        run.scope.set(case_started_var, json::value(ids::system_unix_ms()));
        for (const auto& st : steps) {
            StepOutcome so = co_await run_step(run, st, run.scope, "");
            // Cleanup of something never created (its id was never captured)
            // is not a problem: there is nothing to delete.
            if (teardown && so.suite_error.find("undefined variable") != std::string::npos) continue;
            r.steps.push_back(so.record);
            if (problem) continue;  // teardown goes on after a problem; the first one is reported
            if (so.failed && only_scan_failures(so.record)) {
                // The step did what setup needs; what the scan found in its
                // answer is reported in a testcase of its own.
                run.scan_findings.push_back(r.steps.back());
                continue;
            }
            const std::string step = "step '" + so.record.name + "'";
            if (!so.suite_error.empty()) {
                r.outcome = Outcome::error;
                r.message = step + ": " + so.suite_error;
                ++report_.suite_errors;
            } else if (so.transport_error) {
                r.outcome = Outcome::error;
                r.message = step + ": " + describe_transport_error(so.record.exchange);
                ++report_.transport_errors;
            } else if (so.failed) {
                r.outcome = Outcome::failed;
                for (const auto& ch : so.record.checks)
                    if (!ch.ok && !ch.warning) {
                        r.message = step + " failed: " + ch.what + ": expected " + ch.expected + ", got " + ch.actual;
                        break;
                    }
                file_under_broken_rule(r);
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

    awaitable<SuiteResult> run_suite(const suite::Suite& s) {
        const auto t0 = std::chrono::steady_clock::now();
        SuiteResult result;
        result.name = s.name;
        result.file = s.file;
        result.timestamp = ids::iso8601_ms(ids::system_unix_ms());
        reporter_.suite_started(s.name, s.file);

        SuiteRun run;
        std::optional<CaseResult> setup_result;
        if (std::string problem = setup_suite(s, run); !problem.empty()) {
            setup_result.emplace();
            setup_result->suite = s.name;
            setup_result->name = "setup";
            setup_result->classname = s.name + ".setup";
            setup_result->pos = s.pos;
            setup_result->outcome = Outcome::error;
            setup_result->message = problem;
            ++report_.suite_errors;
        } else {
            transport::Options to;
            to.connect_timeout = opts_.connect_timeout.value_or(std::chrono::milliseconds(s.target.connect_timeout_ms.value_or(5000)));
            to.read_timeout = opts_.timeout.value_or(std::chrono::milliseconds(s.target.read_timeout_ms.value_or(10000)));
            to.body_cap = opts_.body_cap;
            to.tls.ca_file = opts_.tls.ca_file.empty() ? s.target.ca_file : opts_.tls.ca_file;
            to.tls.cert_file = opts_.tls.cert_file.empty() ? s.target.cert_file : opts_.tls.cert_file;
            to.tls.key_file = opts_.tls.key_file.empty() ? s.target.key_file : opts_.tls.key_file;
            to.tls.insecure = opts_.tls.insecure || s.target.insecure;
            to.follow_redirects = opts_.follow_redirects;
            to.kafka = run.kafka;
            to.single_threaded = true;  // run() drives the io_context from one thread
            if (s.target.grpc) {
                const auto& g = *s.target.grpc;
                to.grpc.protos = g.protos;
                to.grpc.import_paths = g.import_paths;
                to.grpc.reflection = g.reflection;
                if (!g.ca_file.empty() || !g.cert_file.empty()) {
                    transport::TlsOptions t = to.tls;
                    if (!g.ca_file.empty()) t.ca_file = g.ca_file;
                    if (!g.cert_file.empty()) { t.cert_file = g.cert_file; t.key_file = g.key_file; }
                    to.grpc.tls = std::move(t);
                }
            }
            run.transport_options = std::move(to);
            run.started = true;
            setup_result = co_await run_phase(run, s.setup, "setup");
        }

        std::vector<Expanded> cases;
        for (const auto& c : s.cases) expand(s, c, run.scope, cases);
        // Results are handed to the reporters in suite order and then
        // dropped: only cases that finished ahead of an earlier one wait here
        // (at most about one per worker), and the suite keeps just counts.
        std::map<std::size_t, CaseResult> results;
        std::size_t next_report = 0;
        bool flush_posted = false;
        // The result goes to the reporters, moved: nothing reads it after.
        auto report = [&](CaseResult& r) {
            result.count_streamed(r.outcome);
            reporter_.take_case(std::move(r));
        };
        auto flush = [&] {
            for (auto it = results.begin(); it != results.end() && it->first == next_report; it = results.erase(it)) {
                report(it->second);
                ++next_report;
            }
        };

        if (setup_result) {
            // The setup's own testcase carries the evidence; the cases it
            // was the precondition of are skipped.
            report(*setup_result);
            for (std::size_t i = 0; i < cases.size(); ++i) {
                Expanded scratch;
                CaseResult r = case_skeleton(s, element(cases[i], scratch));
                r.outcome = Outcome::skipped;
                r.message = "not run: the suite's setup did not succeed (" + setup_result->message + ")";
                report(r);
            }
        } else {
            std::size_t next = 0;
            const int workers = std::max(1, std::min<int>(opts_.concurrency, static_cast<int>(cases.size())));
            int running = workers;
            auto ex = co_await asio::this_coro::executor;
            // Finished cases are reported from a posted handler, not by the
            // worker that finished them: the worker goes straight on to its
            // next case, and the report is written while that case's request
            // is out (at concurrency 1, in the time spent waiting anyway).
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
                            if (opts_.max_failures > 0 && failures_ >= opts_.max_failures) {
                                CaseResult r = case_skeleton(s, e);
                                r.outcome = Outcome::skipped;
                                r.message = "not run: --max-failures " + std::to_string(opts_.max_failures) + " reached";
                                results.emplace(i, std::move(r));
                            } else {
                                CaseResult r = co_await run_case(run, e);
                                if (r.outcome == Outcome::failed) ++failures_;
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

        std::optional<CaseResult> teardown_result, cleanup_result;
        if (run.started) {
            teardown_result = co_await run_phase(run, s.teardown, "teardown");
            cleanup_result = co_await cleanup_created(run);
            for (auto& [name, t] : run.transports)
                if (t) t->shutdown();
        }
        if (!run.scan_findings.empty()) {
            CaseResult f;
            f.suite = s.name;
            f.name = "shape scan of setup and teardown answers";
            f.pos = s.pos;
            f.steps = std::move(run.scan_findings);
            f.outcome = Outcome::failed;
            const CheckResult* c = first_failure(f.steps);
            f.message = c->what + ": expected " + c->expected + ", got " + c->actual;
            f.classname = s.name;
            file_under_broken_rule(f);
            report(f);
        }
        if (s.scan && !setup_result) {
            CaseResult v = field_versions_case(run);
            report(v);
        }
        if (teardown_result) {
            teardown_result->message += " (cleanup incomplete: entities this suite created may remain)";
            report(*teardown_result);
        }
        if (cleanup_result) {
            report(*cleanup_result);
        }
        result.seconds = seconds_since(t0);
        reporter_.suite_finished(result);
        co_return result;
    }

    const RunOptions& opts_;
    reporters::Reporter& reporter_;
    RateLimiter limiter_;
    std::optional<asio::thread_pool> files_;  // file steps scan here, off the runner's thread
    RunReport report_;
    int failures_ = 0;
};

}  // namespace

std::string curl_command(const Request& r) {
    std::string c = "curl -sS -i";
    if (r.method != "GET") c += " -X " + r.method;
    c += " " + shell_quote(r.url);
    for (const auto& h : r.headers) c += " -H " + shell_quote(h.name + ": " + h.value);
    if (!r.body.empty()) c += " --data-raw " + shell_quote(r.body);
    return c;
}

std::string grpcurl_command(const Request& r, const transport::GrpcOptions& g) {
    const bool tls = r.url.rfind("grpcs://", 0) == 0;
    std::string address = r.url.substr(r.url.find("://") == std::string::npos ? 0 : r.url.find("://") + 3);
    std::string c = "grpcurl";
    if (!tls) c += " -plaintext";
    else if (g.tls && !g.tls->ca_file.empty()) c += " -cacert " + shell_quote(g.tls->ca_file);
    if (g.tls && !g.tls->cert_file.empty()) c += " -cert " + shell_quote(g.tls->cert_file) + " -key " + shell_quote(g.tls->key_file);
    for (const auto& p : g.import_paths) c += " -import-path " + shell_quote(p);
    for (const auto& p : g.protos) c += " -proto " + shell_quote(p);
    for (const auto& h : r.headers) c += " -H " + shell_quote(h.name + ": " + h.value);
    if (!r.body.empty()) c += " -d " + shell_quote(r.body);
    return c + " " + shell_quote(address) + " " + shell_quote(r.method);
}

RunReport run(const std::vector<suite::Suite>& suites, const RunOptions& options, reporters::Reporter& reporter) {
    asio::io_context io(1);
    Engine engine(options, reporter);
    reporters::RunInfo info;
    info.tool_version = options.tool_version;
    // The number of testcases, when it is known before the run: for_each over
    // the mutations of a captured id, filters and tags make it unknown (0).
    bool known = options.filter.empty() && options.tags.empty() && options.exclude_tags.empty();
    for (const auto& s : suites) {
        info.suite_files.push_back(s.file);
        for (const auto& c : s.cases) {
            if (!c.for_each) { ++info.total_cases; continue; }
            const auto& f = *c.for_each;
            if (f.source == suite::ForEach::Source::count) {
                info.total_cases += static_cast<std::size_t>(f.count);
            } else if (f.source == suite::ForEach::Source::vectors && s.vector_sets.count(f.set)) {
                for (const auto& v : s.vector_sets.at(f.set).vectors) {
                    const bool in = f.only.empty() || std::find(f.only.begin(), f.only.end(), v.name) != f.only.end();
                    const bool out = std::find(f.except.begin(), f.except.end(), v.name) != f.except.end();
                    info.total_cases += in && !out;
                }
            } else {
                known = false;
            }
        }
    }
    if (!known) info.total_cases = 0;
    reporter.run_started(info);
    std::exception_ptr failure;
    asio::co_spawn(io, engine.run_all(suites), [&failure](std::exception_ptr e) { failure = e; });
    io.run();
    if (failure) std::rethrow_exception(failure);
    return engine.take();
}

}  // namespace idconform::runner
