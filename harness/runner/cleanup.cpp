// Cleanup of what a suite created (see cleanup.hpp).
#include "runner/cleanup.hpp"

#include "runner/checks.hpp"
#include "runner/evidence.hpp"
#include "runner/json_edit.hpp"
#include "runner/steps/http.hpp"
#include "runner/steps/request_parts.hpp"

#include <boost/json/serialize.hpp>

namespace idconform::runner {

namespace json = boost::json;
using boost::asio::awaitable;

std::string delete_key(steps::Wire wire, const Request& r) {
    if (wire == steps::Wire::http) return r.transport + " " + r.url;
    return r.transport + " " + r.url + " " + r.method + " " + r.body;
}

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
        c.wire = steps::Wire::grpc;
        c.request.transport = req.transport;
        c.request.url = req.url;
        c.request.method = cl.grpc_method;
        json::value msg = json::object();
        (void)set_at_pointer(msg, cl.grpc_id_field, json::value(id));
        c.request.body = json::serialize(msg);
        c.request.headers = req.headers;
        c.key = delete_key(c.wire, c.request);
        c.origin = step_name;
        run.created.push_back(std::move(c));
        return;
    }
    auto path = steps::build_path(cl.path, {{"id", id}}, scope);
    SuiteRun::Created c;
    c.request.transport = req.transport;
    c.request.method = "DELETE";
    if (path) c.request.url = path->rfind("http", 0) == 0 ? *path : run.env.base_url + *path;
    else c.problem = "no way to delete " + id + ": " + path.error();
    for (const auto& h : req.headers)
        if (!steps::iequals(h.name, "content-type")) c.request.headers.push_back(h);
    c.key = delete_key(c.wire, c.request);
    c.origin = step_name;
    run.created.push_back(std::move(c));
}

awaitable<std::optional<CaseResult>> cleanup_created(SuiteRun& run, RateLimiter& limiter) {
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
        if (run.deleted.count(c.key)) continue;
        if (limiter.active()) co_await limiter.acquire();
        Exchange x = co_await run.send(req);
        const bool ok = !x.error && (x.response->status / 100 == 2 || x.response->status == 404);
        run.deleted.insert(c.key);
        ++done;
        if (!ok) {
            ++failed;
            StepRecord rec;
            rec.name = "delete what '" + c.origin + "' created";
            if (x.request.url.empty()) x.request = req;
            rec.exchange = std::move(x);
            add_evidence(rec, c.wire, run.env, run.scope.secrets());
            r.steps.push_back(std::move(rec));
        }
    }
    if (failed == 0) co_return std::nullopt;
    r.outcome = Outcome::error;
    r.message = "could not delete " + std::to_string(failed) + " of " + std::to_string(done) +
                " entities this run created; they remain on the target (see the steps)";
    co_return r;
}

}  // namespace idconform::runner
