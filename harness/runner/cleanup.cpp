// Cleanup of what a suite created (see cleanup.hpp).
#include "runner/cleanup.hpp"

#include "binding/entity_request.hpp"
#include "runner/checks.hpp"
#include "runner/evidence.hpp"
#include "runner/scope.hpp"
#include "runner/steps/http.hpp"
#include "runner/steps/request_parts.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <set>

namespace idconform::runner {

namespace json = boost::json;
using binding::EntityRequest;
using binding::put_id_in_body;
using boost::asio::awaitable;

std::string delete_key(steps::Wire wire, const Request& r) {
    // An HTTP DELETE names the entity in its URL; a gRPC delete or an
    // RPC-style one (POST /v1/orders:delete {"id": ...}) in its message.
    if (wire == steps::Wire::http && r.method == "DELETE") return r.transport + " " + r.url;
    return r.transport + " " + r.url + " " + r.method + " " + r.body;
}

void note_deleted(SuiteRun& run, const std::string& key) {
    for (auto& c : run.created)
        if (c.key == key) c.deleted = true;
}

namespace {

// The id at `pointer` in a parsed answer: a string, or an integer id
// (json-server, SQL keys) in its decimal form; empty when there is none.
std::string id_in(BodyJson& body, const std::string& pointer) {
    boost::system::error_code ec;
    const json::value* parsed = body.view();  // a body it cannot read leaves the Location header
    if (!parsed) return {};
    const json::value* v = parsed->find_pointer(pointer, ec);
    if (!v) return {};
    if (v->is_string()) return std::string(v->as_string());
    if (v->is_int64()) return std::to_string(v->as_int64());
    if (v->is_uint64()) return std::to_string(v->as_uint64());
    return {};
}

// A stand-in id that no encoding changes, to find where the id lands in the
// delete URL (so that a re-keyed entity's URL can be rebuilt without the
// scope of the case that created it).
constexpr std::string_view id_marker = "idconform0cleanup0id0marker";

std::string encoded_segment(const std::string& id) {
    auto seg = steps::build_path("{id}", {{"id", id}}, Scope{});
    return seg ? *seg : id;
}

// HTTP request headers as gRPC metadata: lower-case names, without the
// headers of HTTP's own framing and content negotiation.
std::vector<Header> as_metadata(const std::vector<Header>& headers) {
    std::vector<Header> out;
    for (const auto& h : headers) {
        std::string name = h.name;
        for (char& ch : name) ch = ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
        if (name == "content-type" || name == "content-length" || name == "host" || name == "accept" ||
            name == "connection" || name == "te" || name == "transfer-encoding" || name == "user-agent")
            continue;
        out.push_back({std::move(name), h.value});
    }
    return out;
}

std::string entity_label(const SuiteRun::Created& c) {
    std::string out = "'" + c.origin + "'";
    if (!c.id.empty()) out += " (id " + c.id + (c.rekeyed_from.empty() ? "" : ", re-keyed from " + c.rekeyed_from) + ")";
    return out;
}

// Whether a read answered the profile's "nothing there" 2xx (200 with [],
// 200 with {"found": false}): the entity is gone.
bool read_says_gone(const Exchange& x, const std::optional<suite::StatusExpect::NotFound>& nf) {
    if (!nf || x.error || x.response->status != nf->status) return false;
    BodyJson body(*x.response);
    return says_not_found(*nf, x.response->status, body.get(), x.response->body_bytes == 0);
}

std::string answered(const Exchange& x) {
    if (x.error) return "failed (" + x.error->message + ")";
    return "answered " + std::to_string(x.response->status);
}

}  // namespace

void register_created(SuiteRun& run, const suite::Cleanup& cl, const Request& req, const Exchange& x,
                      BodyJson& body, const Scope& scope, const std::string& step_name) {
    // What the create made besides its entity (made_by: the folder of an
    // upload) is booked first, so that it is deleted after the entity in it;
    // an answer without its id made none.
    for (const auto& made : cl.made) {
        const std::string at = resolve_pointer(made.id_at, scope);
        if (at.empty() || id_in(body, at).empty()) continue;
        register_created(run, made, req, x, body, scope, step_name + " (what it made, at " + at + ")");
    }
    // A resource whose new id is only in an answer header (a registry's
    // Docker-Upload-UUID, or Location) has no id in the body to follow.
    const std::string id_at = cl.id_header.empty() ? resolve_pointer(cl.id_at, scope) : std::string();
    std::string id = id_at.empty() ? std::string() : id_in(body, id_at);
    if (id.empty() && !cl.id_header.empty())
        if (const auto* h = x.response->header(cl.id_header)) id = last_path_segment(*h);
    if (id.empty())
        if (const auto* loc = x.response->header("Location")) id = last_path_segment(*loc);
    const std::string* location = x.response->header("Location");
    if (!id.empty() && location && !cl.resource.empty())
        run.locations.record(cl.resource, id, *location, req.url, run.env.base_url);
    if (id.empty() && cl.by_design) {
        // Left behind by design anyway; the note says its id is not known.
        SuiteRun::Created c;
        c.by_design = true;
        c.problem = cl.impossible;
        c.origin = step_name;
        run.created.push_back(std::move(c));
        return;
    }
    if (id.empty()) {
        // Something was created (a 2xx) but nothing says what: it cannot be
        // deleted, and the report must say so rather than leak it silently.
        SuiteRun::Created c;
        c.problem = "its id could not be read from the create answer (" + std::to_string(x.response->status) +
                    ", nothing at " + (cl.id_header.empty() ? id_at : "header " + cl.id_header) +
                    " and no Location header): it cannot be deleted and may remain";
        c.origin = step_name;
        run.created.push_back(std::move(c));
        return;
    }
    if (!cl.impossible.empty()) {
        SuiteRun::Created c;
        c.id = id;
        c.by_design = cl.by_design;
        c.problem = cl.by_design ? cl.impossible : "no way to delete " + id + ": " + cl.impossible;
        c.origin = step_name;
        run.created.push_back(std::move(c));
        return;
    }
    if (!cl.grpc_method.empty()) {
        SuiteRun::Created c;
        c.wire = steps::Wire::grpc;
        c.id = id;
        c.id_at = id_at;
        c.across = cl.across;
        c.del.request.method = cl.grpc_method;
        c.del.request.secret_headers = req.secret_headers;
        if (req.transport == "grpc" || req.transport == "grpcs") {
            c.del.request.transport = req.transport;
            c.del.request.url = req.url;
            c.del.request.headers = req.headers;
        } else {
            // Made over HTTP: the delete goes to the target's gRPC address,
            // with the creating request's headers as metadata.
            c.del.request.url = run.env.grpc_url;
            c.del.request.transport = run.env.grpc_url.rfind("grpcs://", 0) == 0 ? "grpcs" : "grpc";
            c.del.request.headers = as_metadata(req.headers);
            if (run.env.grpc_url.empty()) c.problem = "no way to delete " + id + ": the target has no grpc: section";
        }
        c.del.body_id_at = cl.grpc_id_field;
        if (c.problem.empty() && !put_id_in_body(c.del, id))
            c.problem = "no way to delete " + id + ": cannot write its id at " + cl.grpc_id_field;
        c.key = delete_key(c.wire, c.del.request);
        c.origin = step_name;
        run.created.push_back(std::move(c));
        return;
    }
    // The HTTP delete of the entity and its confirming read, each with the
    // creating request's headers but its content type; the URL (and an
    // RPC-style body) filled in below.
    auto booked = [&](const std::string& method) {
        EntityRequest e;
        e.request.transport = "http";  // also for an entity made over gRPC (Cleanup::across)
        e.request.method = method;
        for (const auto& h : req.headers)
            if (!steps::iequals(h.name, "content-type")) e.request.headers.push_back(h);
        e.request.secret_headers = req.secret_headers;
        return e;
    };
    SuiteRun::Created c;
    c.id = id;
    c.id_at = id_at;
    c.origin = step_name;
    c.across = cl.across;
    c.del = booked(cl.method);
    c.read_not_found = cl.read_not_found;
    auto book = [&] {
        c.key = delete_key(c.wire, c.del.request);
        run.created.push_back(std::move(c));
    };
    if (cl.at_location) {
        // Deleted where its create answer said it is; a re-key (an update
        // answering another id) is followed where the id sits in that URL.
        auto url = run.locations.url_for(cl.resource, id);
        if (url && location) {
            c.del.request.url = *url;
            const std::string seg = encoded_segment(id);
            const auto at = url->find(seg, url->find("//") == std::string::npos ? 0 : url->find('/', url->find("//") + 2));
            if (at != std::string::npos && url->find(seg, at + seg.size()) == std::string::npos) {
                c.del.url_prefix = url->substr(0, at);
                c.del.url_suffix = url->substr(at + seg.size());
            }
            c.confirm = c.del;
            c.confirm->request.method = "GET";
        } else c.problem = "no way to delete " + id + ": " + (location ? url.error() : "the create answer has no Location header");
        book();
        return;
    }
    auto absolute = [&](const std::string& p) { return p.rfind("http", 0) == 0 ? p : run.env.base_url + p; };
    // `tmpl` and a body for `id` into `e`, with the URL around the id
    // (prefix + id + suffix), so that a re-keyed entity's request can be
    // rebuilt without the creating case's scope.
    auto address = [&](EntityRequest& e, const std::string& tmpl, const std::string& body_id_at,
                       const std::optional<json::value>& body_tmpl) -> std::string {
        auto path = steps::build_path(tmpl, {{"id", id}}, scope);
        if (!path) return path.error();
        e.request.url = absolute(*path);
        if (auto marked = steps::build_path(tmpl, {{"id", std::string(id_marker)}}, scope)) {
            const std::string url = absolute(*marked);
            const auto at = url.find(id_marker);
            if (at != std::string::npos && url.find(id_marker, at + 1) == std::string::npos) {
                e.url_prefix = url.substr(0, at);
                e.url_suffix = url.substr(at + id_marker.size());
            }
        }
        if (body_id_at.empty()) return {};
        e.body_id_at = body_id_at;
        if (body_tmpl) {
            auto b = interpolate_json(*body_tmpl, scope);
            if (!b) return b.error();
            e.body = std::move(*b);
        }
        if (!put_id_in_body(e, id)) return "cannot write its id at " + body_id_at + " of the body";
        return {};
    };
    if (const std::string why = address(c.del, cl.path, cl.body_id_at, cl.body); !why.empty())
        c.problem = "no way to delete " + id + ": " + why;
    EntityRequest read = booked(cl.read_method);
    if (!cl.read_path.empty() && address(read, cl.read_path, cl.read_body_id_at, cl.read_body).empty()) {
        c.confirm = std::move(read);
    } else if (cl.body_id_at.empty()) {
        c.confirm = c.del;  // a GET of the delete URL
        c.confirm->request.method = "GET";
    }
    book();
}

namespace {

// Whether a request message holds `id` as a string anywhere (a gRPC update
// names its entity at its own id field, which need not be the delete's).
bool holds_string(const json::value& v, std::string_view id) {
    if (v.is_string()) return v.as_string() == id;
    if (v.is_object()) {
        for (const auto& kv : v.as_object())
            if (holds_string(kv.value(), id)) return true;
    } else if (v.is_array()) {
        for (const auto& e : v.as_array())
            if (holds_string(e, id)) return true;
    }
    return false;
}

}  // namespace

void follow_rekey(SuiteRun& run, steps::Wire wire, const Request& req, BodyJson& body) {
    if (wire != steps::Wire::http && wire != steps::Wire::grpc) return;
    // Over HTTP a PUT or PATCH at the entity's URL, or a write whose body
    // names it (an RPC-style update: POST /v1/orders:update {"id": ...}).
    if (wire == steps::Wire::http && req.method != "PUT" && req.method != "PATCH" && req.method != "POST") return;
    std::optional<json::value> message;  // the request body, parsed once
    auto names = [&](const std::string& id) {
        if (!message) {
            boost::system::error_code ec;
            message = json::parse(req.body, ec);
            if (ec) message = json::value();
        }
        return holds_string(*message, id);
    };
    // Whether the request body holds `id` at `pointer` (where a body names
    // its entity), not merely somewhere (a reference to it).
    auto names_at = [&](const std::string& id, const std::string& pointer) {
        (void)names(id);  // parses the body once
        boost::system::error_code ec;
        const json::value* v = message->find_pointer(pointer, ec);
        return v && v->is_string() && v->as_string() == id;
    };
    for (auto& c : run.created) {
        if (c.wire != wire || !c.problem.empty() || c.id_at.empty() || c.deleted || !c.del.rebuilds()) continue;
        if (wire == steps::Wire::http) {
            const bool by_url = !c.del.url_prefix.empty() && req.method != "POST" && c.del.request.url == req.url;
            const bool by_body = !c.del.body_id_at.empty() &&
                                 (names_at(c.id, c.del.body_id_at) || names_at(c.id, c.id_at));
            if (!by_url && !by_body) continue;
        } else {
            const Request& d = c.del.request;
            if (d.transport != req.transport || d.url != req.url || d.method == req.method) continue;
            if (!names(c.id)) continue;
        }
        const std::string now = id_in(body, c.id_at);
        if (now.empty() || now == c.id) continue;
        if (c.rekeyed_from.empty()) c.rekeyed_from = c.id;
        c.id = now;
        c.del.request = c.del.for_id(now);
        if (c.confirm) {
            if (c.confirm->rebuilds()) c.confirm->request = c.confirm->for_id(now);
            else c.confirm.reset();  // it would read the old id
        }
        c.key = delete_key(c.wire, c.del.request);
    }
}

namespace {

// What one delete of the cleanup met: the delete's exchange and, for a
// failed HTTP delete, the read that asks whether the entity is still there.
struct DeleteOutcome {
    Exchange x;
    Request read;
    std::optional<Exchange> back;
};

awaitable<DeleteOutcome> delete_one(SuiteRun& run, RateLimiter& limiter, const SuiteRun::Created& c) {
    DeleteOutcome o;
    if (limiter.active()) co_await limiter.acquire();
    o.x = co_await run.send(c.del.request);
    if (c.wire != steps::Wire::http || !c.confirm || (!o.x.error && o.x.response->status / 100 == 2)) co_return o;
    // A 404 may be another principal's refusal, a 401 an expired token, a
    // 5xx a delete that happened anyway: only a read says whether it is
    // still there. (A gRPC delete has no read to ask; without a read the
    // entity may remain.)
    o.read = c.confirm->request;
    if (limiter.active()) co_await limiter.acquire();
    o.back = co_await run.send(o.read);
    co_return o;
}

// Whether the entity is gone after that outcome: the delete answered 2xx (a
// gRPC NOT_FOUND is taken at its word), or the read 404/410 or the profile's
// 2xx "nothing there".
bool gone_after(const DeleteOutcome& o, const SuiteRun::Created& c) {
    if (!o.x.error && o.x.response->status / 100 == 2) return true;
    if (c.wire != steps::Wire::http) return !o.x.error && o.x.response->status == 404;
    if (!o.back) return false;  // no read can confirm it
    const int st = o.back->error ? 0 : o.back->response->status;
    return st == 404 || st == 410 || read_says_gone(*o.back, c.read_not_found);
}

// Deletes that may run side by side: entities made by the same create (one
// collection, one delete method), which reference each other rarely; a
// dependent of another resource is always in a group of its own, before it.
std::string delete_group(const SuiteRun::Created& c) {
    const Request& d = c.del.request;
    const std::string where = c.wire == steps::Wire::http ? d.url.substr(0, d.url.rfind('/')) : d.url;
    return std::to_string(static_cast<int>(c.wire)) + " " + d.transport + " " + d.method + " " + where;
}

// Runs the deletes of a batch side by side (one coroutine each) and waits for all.
awaitable<void> delete_batch(SuiteRun& run, RateLimiter& limiter, const std::vector<const SuiteRun::Created*>& batch,
                             std::vector<DeleteOutcome>& out) {
    out.assign(batch.size(), DeleteOutcome{});
    if (batch.size() == 1) {
        out[0] = co_await delete_one(run, limiter, *batch[0]);
        co_return;
    }
    std::size_t running = batch.size();
    boost::asio::steady_timer done(run.executor, std::chrono::steady_clock::time_point::max());
    for (std::size_t i = 0; i < batch.size(); ++i)
        boost::asio::co_spawn(
            run.executor,
            [&, i]() -> awaitable<void> {
                out[i] = co_await delete_one(run, limiter, *batch[i]);
                if (--running == 0) done.cancel();
            },
            boost::asio::detached);
    // Deletes that did not wait for anything (a transport that answers at
    // once) are done already: only wait for the ones still out.
    if (running > 0) {
        boost::system::error_code ec;
        co_await done.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
}

}  // namespace

awaitable<std::optional<CaseResult>> cleanup_created(SuiteRun& run, RateLimiter& limiter, bool* unreachable,
                                                     int concurrency) {
    CaseResult r;
    r.suite = run.suite->name;
    r.name = "cleanup";
    r.classname = run.suite->name + ".cleanup";
    r.pos = run.suite->pos;
    std::size_t done = 0, remain = 0, unknown = 0, undeletable = 0;
    bool answered_any = false, sent_any = false;
    auto record = [&](std::string name, Exchange x, const SuiteRun::Created& c, const Request& req) {
        StepRecord rec;
        rec.name = std::move(name);
        if (x.request.url.empty()) x.request = req;
        rec.exchange = std::move(x);
        add_evidence(rec, c.wire, run.env, run.scope.secrets());
        r.steps.push_back(std::move(rec));
    };
    // What one delete met, in the report (in the order of the records, whatever
    // order the deletes of a batch finished in).
    auto settle = [&](const SuiteRun::Created& c, DeleteOutcome o) {
        sent_any = true;
        ++done;
        if (!o.x.error || (o.back && !o.back->error)) answered_any = true;
        if (gone_after(o, c)) {
            if (!c.across.empty()) ++run.deleted_across[c.across];
            return;
        }
        const std::string what = "what " + entity_label(c) + " created";
        const std::string del = c.del.request.method + " " + answered(o.x);
        if (c.wire != steps::Wire::http) {
            ++unknown;
            r.detail += "may remain: " + what + ": the delete " + del + "\n";
            record("delete " + what, std::move(o.x), c, c.del.request);
            return;
        }
        if (!o.back) {
            ++unknown;
            r.detail += "may remain: " + what + ": the delete " + del +
                        ", and no read can confirm it (the profile's delete names the entity in its body and the "
                        "resource has no read)\n";
            record("delete " + what, std::move(o.x), c, c.del.request);
            return;
        }
        const Request& read = o.read;
        const int st = o.back->error ? 0 : o.back->response->status;
        if (st / 100 == 2) {
            ++remain;
            r.detail += "remains on the target: " + what + ": " + del + ", and " + read.method + " " + read.url +
                        " answered " + std::to_string(st) + "\n";
        } else {
            ++unknown;
            r.detail += "may remain: " + what + ": " + del + ", and the read to confirm (" + read.method + " " +
                        read.url + ") " + answered(*o.back) + "\n";
        }
        record("delete " + what, std::move(o.x), c, c.del.request);
        record("read " + what + " back", std::move(*o.back), c, o.read);
    };
    // Last created first: a dependent goes before what it references, so a
    // target that restricts (or cascades) deletes of referenced entities
    // does not turn every later delete into a failure. With concurrency N,
    // up to N consecutive deletes of one group (delete_group) go out side by
    // side; one refused (answered, its entity not gone) is sent again alone
    // once the batch is done (an entity of the batch may have referenced it).
    std::vector<const SuiteRun::Created*> batch;
    std::vector<DeleteOutcome> outcomes;
    std::set<std::string> batch_keys;
    std::string batch_group;
    auto flush = [&]() -> awaitable<void> {
        if (batch.empty()) co_return;
        co_await delete_batch(run, limiter, batch, outcomes);
        for (std::size_t i = 0; i < batch.size(); ++i) note_deleted(run, batch[i]->key);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            // Only a refusal is sent again (what an entity of the batch still
            // referencing this one makes), not a delete the target did not answer.
            if (batch.size() > 1 && !outcomes[i].x.error && !gone_after(outcomes[i], *batch[i])) {
                outcomes[i] = co_await delete_one(run, limiter, *batch[i]);
                note_deleted(run, batch[i]->key);
            }
            settle(*batch[i], std::move(outcomes[i]));
        }
        batch.clear();
        batch_keys.clear();
    };
    const std::size_t width = static_cast<std::size_t>(std::max(1, concurrency));
    for (auto it = run.created.rbegin(); it != run.created.rend(); ++it) {
        const SuiteRun::Created& c = *it;
        if (c.by_design) {
            // The profile says the API cannot delete it: the run's notes say
            // once what was left behind; not a problem of this cleanup.
            co_await flush();
            run.left_behind.push_back(SuiteRun::LeftBehind{c.problem, c.id});
            continue;
        }
        if (!c.problem.empty()) {
            co_await flush();
            ++undeletable;
            ++done;
            StepRecord rec;
            rec.name = "delete what " + entity_label(c) + " created";
            rec.exchange.error = TransportError{TransportErrorKind::other, c.problem};
            r.steps.push_back(std::move(rec));
            r.detail += "not deleted: what " + entity_label(c) + " created: " + c.problem + "\n";
            continue;
        }
        // Settled by an earlier delete of its key (every earlier creation
        // under the same URL, which one delete of it settles too), or by one
        // in the batch going out.
        if (c.deleted || batch_keys.count(c.key) != 0) continue;
        if (run.cleanup_deadline && std::chrono::steady_clock::now() >= *run.cleanup_deadline) {
            // An interrupted run's cleanup is bounded: say what it did not get to.
            co_await flush();
            ++unknown;
            ++done;
            r.detail += "may remain: what " + entity_label(c) + " created: not deleted, the interrupted run's cleanup "
                        "deadline passed (" + c.del.request.method + " " + c.del.request.url + ")\n";
            continue;
        }
        std::string group = delete_group(c);
        if (!batch.empty() && (group != batch_group || batch.size() >= width)) co_await flush();
        batch_group = std::move(group);
        batch.push_back(&c);
        batch_keys.insert(c.key);
    }
    co_await flush();
    const bool quiet = sent_any && !answered_any;  // the target no longer answers
    if (unreachable) *unreachable = quiet;
    const std::size_t failed = remain + unknown + undeletable;
    if (failed == 0) co_return std::nullopt;
    // the message is said below, with the counts
    set_error(r, quiet ? ErrorCause::transport : ErrorCause::cleanup, {});
    std::string parts;
    auto part = [&](std::size_t n, const std::string& what) {
        if (n == 0) return;
        if (!parts.empty()) parts += ", ";
        parts += std::to_string(n) + " " + what;
    };
    part(remain, "confirmed to remain on the target");
    part(unknown, "may remain (not confirmed either way)");
    part(undeletable, "could not be deleted at all");
    r.message = "could not delete " + std::to_string(failed) + " of " + std::to_string(done) +
                " entities this run created: " + parts + " (see the steps)";
    co_return r;
}

}  // namespace idconform::runner
