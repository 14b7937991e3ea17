// The cleanup half of a resource binding (see deletion.hpp).
#include "binding/deletion.hpp"

#include "binding/answers.hpp"
#include "binding/body_json.hpp"
#include "binding/locations.hpp"
#include "core/redact.hpp"
#include "core/strings.hpp"
#include "suite/json_edit.hpp"


#include <algorithm>
#include <string_view>

namespace idconform::binding {

namespace json = boost::json;

Deletion Deletion::written(const suite::Cleanup& cl) {
    Deletion d;
    d.pos = cl.pos;
    d.path = cl.path;
    d.id_at = cl.id_at;
    return d;
}

suite::Cleanup written_form(const Deletion& d) {
    suite::Cleanup cl;
    cl.pos = d.pos;
    cl.path = d.path;
    cl.id_at = d.id_at;
    return cl;
}

std::string delete_key(Wire wire, const Request& r) {
    // An HTTP DELETE names the entity in its URL; a gRPC delete or an
    // RPC-style one (POST /v1/orders:delete {"id": ...}) in its message.
    if (wire == Wire::http && r.method == "DELETE") return r.transport + " " + r.url;
    return r.transport + " " + r.url + " " + r.method + " " + r.body;
}

void note_deleted(std::vector<Created>& created, const std::string& key) {
    for (auto& c : created)
        if (c.key == key) c.deleted = true;
}

namespace {

// The id at `pointer` in a parsed answer: a string, or an integer id
// (json-server, SQL keys) in its decimal form; empty when there is none.
std::string id_in(const json::value* parsed, const std::string& pointer) {
    if (!parsed) return {};  // a body it cannot read leaves the Location header
    boost::system::error_code ec;
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
    auto seg = suite::build_path("{id}", {{"id", id}}, suite::Scope{});
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

// Whether a read answered the profile's "nothing there" 2xx (200 with [],
// 200 with {"found": false}): the entity is gone.
bool read_says_gone(const Exchange& x, const std::optional<suite::StatusExpect::NotFound>& nf) {
    if (!nf || x.error || x.response->status != nf->status) return false;
    BodyJson body(*x.response);
    return says_not_found(*nf, x.response->status, body.get(), x.response->body_bytes == 0);
}

// A creation with no delete to send: its problem, said by the cleanup.
Created undeletable(std::string id, std::string problem, bool by_design, const std::string& step_name) {
    Created c;
    c.id = std::move(id);
    c.by_design = by_design;
    c.problem = std::move(problem);
    c.origin = step_name;
    return c;
}

// The gRPC delete of `id`: on the creating call's target, or for an entity
// made over HTTP at the target's gRPC address with the creating request's
// headers as metadata.
Created grpc_deletion(const Ledger& ledger, const Deletion& d, const Request& req, const std::string& id,
                      const std::string& id_at) {
    Created c;
    c.wire = Wire::grpc;
    c.id = id;
    c.id_at = id_at;
    c.across = d.across;
    c.del.request.method = d.grpc_method;
    c.del.request.secret_headers = req.secret_headers;
    if (req.transport == "grpc" || req.transport == "grpcs") {
        c.del.request.transport = req.transport;
        c.del.request.url = req.url;
        c.del.request.headers = req.headers;
    } else {
        c.del.request.url = ledger.grpc_url;
        c.del.request.transport = ledger.grpc_url.rfind("grpcs://", 0) == 0 ? "grpcs" : "grpc";
        c.del.request.headers = as_metadata(req.headers);
        if (ledger.grpc_url.empty()) c.problem = "no way to delete " + id + ": the target has no grpc: section";
    }
    c.del.body_id_at = d.grpc_id_field;
    if (c.problem.empty() && !put_id_in_body(c.del, id))
        c.problem = "no way to delete " + id + ": cannot write its id at " + d.grpc_id_field;
    return c;
}

// An HTTP request about the entity with the creating request's headers
// (the target's and the principal's) but its content type and the headers
// only the create sends, then this request's own (`own`, templates); the
// URL (and an RPC-style body) filled in by the caller. "" or why a header
// cannot be made.
std::string http_request(EntityRequest& e, const Request& req, const std::string& method, const Deletion& d,
                         const std::vector<std::pair<std::string, std::string>>& own, const suite::Scope& scope,
                         const std::vector<Header>* defaults) {
    e.request.transport = "http";  // also for an entity made over gRPC (Deletion::across)
    e.request.method = method;
    auto create_only = [&](const std::string& name) {
        return std::any_of(d.create_only_headers.begin(), d.create_only_headers.end(),
                           [&](const std::string& n) { return iequals(n, name); });
    };
    bool restored = false;
    for (const auto& h : req.headers) {
        if (iequals(h.name, "content-type")) continue;
        if (!create_only(h.name)) {
            e.request.headers.push_back(h);
            continue;
        }
        // The create's own value replaced the target's or the principal's:
        // the delete sends theirs, as any other request does.
        if (!defaults) continue;
        const auto base = std::find_if(defaults->begin(), defaults->end(),
                                       [&h](const Header& b) { return iequals(b.name, h.name); });
        if (base != defaults->end()) {
            e.request.headers.push_back(*base);
            restored = true;
        }
    }
    e.request.secret_headers = req.secret_headers;
    for (const auto& header : own) {
        const std::string& name = header.first;  // (a lambda may not capture a structured binding in clang 14)
        auto value = suite::interpolate(header.second, scope);
        if (!value) return "its header " + name + ": " + value.error();
        std::erase_if(e.request.headers, [&name](const Header& h) { return iequals(h.name, name); });
        e.request.headers.push_back({name, std::move(*value)});
    }
    if (!own.empty() || restored) redact::mark_secret_headers(e.request, scope.secrets());
    return {};
}

// The delete at the Location the create answered; a re-key (an update
// answering another id) is followed where the id sits in that URL.
void at_location(Created& c, const Ledger& ledger, const Deletion& d, const std::string* location) {
    auto url = ledger.locations.url_for(d.resource, c.id);
    if (!url || !location) {
        c.problem = "no way to delete " + c.id + ": " + (location ? url.error() : "the create answer has no Location header");
        return;
    }
    c.del.request.url = *url;
    const std::string seg = encoded_segment(c.id);
    const auto host_end = url->find("//") == std::string::npos ? 0 : url->find('/', url->find("//") + 2);
    const auto at = url->find(seg, host_end);
    if (at != std::string::npos && url->find(seg, at + seg.size()) == std::string::npos) {
        c.del.url_prefix = url->substr(0, at);
        c.del.url_suffix = url->substr(at + seg.size());
    }
    c.confirm = c.del;
    c.confirm->request.method = "GET";
}

// `tmpl` and a body for `id` into `e`, with the URL around the id (prefix +
// id + suffix), so that a re-keyed entity's request can be rebuilt without
// the creating case's scope. "" or why it cannot be made.
std::string address(EntityRequest& e, const std::string& base_url, const std::string& id, const std::string& tmpl,
                    const std::string& body_id_at, const std::optional<json::value>& body_tmpl,
                    const suite::Scope& scope) {
    auto absolute = [&](const std::string& p) { return p.rfind("http", 0) == 0 ? p : base_url + p; };
    auto path = suite::build_path(tmpl, {{"id", id}}, scope);
    if (!path) return path.error();
    e.request.url = absolute(*path);
    if (auto marked = suite::build_path(tmpl, {{"id", std::string(id_marker)}}, scope)) {
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
        auto b = suite::interpolate_json(*body_tmpl, scope);
        if (!b) return b.error();
        e.body = std::move(*b);
    }
    if (!put_id_in_body(e, id)) return "cannot write its id at " + body_id_at + " of the body";
    return {};
}

}  // namespace

void book_created(const Ledger& ledger, const Deletion& d, const Request& req, const Response& resp,
                  const json::value* body, const suite::Scope& scope, const std::string& step_name) {
    // What the create made besides its entity (made_by: the folder of an
    // upload) is booked first, so that it is deleted after the entity in it;
    // an answer without its id made none.
    for (const auto& made : d.made) {
        const std::string at = suite::resolve_pointer(made.id_at, scope);
        if (at.empty() || id_in(body, at).empty()) continue;
        book_created(ledger, made, req, resp, body, scope, step_name + " (what it made, at " + at + ")");
    }
    // A resource whose new id is only in an answer header (a registry's
    // Docker-Upload-UUID, or Location) has no id in the body to follow.
    const std::string id_at = d.id_header.empty() ? suite::resolve_pointer(d.id_at, scope) : std::string();
    std::string id = id_at.empty() ? std::string() : id_in(body, id_at);
    if (id.empty() && !d.id_header.empty())
        if (const auto* h = resp.header(d.id_header)) id = last_path_segment(*h);
    if (id.empty())
        if (const auto* loc = resp.header("Location")) id = last_path_segment(*loc);
    const std::string* location = resp.header("Location");
    if (!id.empty() && location && !d.resource.empty())
        ledger.locations.record(d.resource, id, *location, req.url, ledger.base_url);
    if (id.empty() && d.by_design) {
        // Left behind by design anyway; the note says its id is not known.
        ledger.created.push_back(undeletable({}, d.impossible, true, step_name));
        return;
    }
    if (id.empty()) {
        // Something was created (a 2xx) but nothing says what: it cannot be
        // deleted, and the report must say so rather than leak it silently.
        ledger.created.push_back(undeletable(
            {},
            "its id could not be read from the create answer (" + std::to_string(resp.status) + ", nothing at " +
                (d.id_header.empty() ? id_at : "header " + d.id_header) +
                " and no Location header): it cannot be deleted and may remain",
            false, step_name));
        return;
    }
    if (!d.impossible.empty()) {
        ledger.created.push_back(undeletable(
            id, d.by_design ? d.impossible : "no way to delete " + id + ": " + d.impossible, d.by_design, step_name));
        return;
    }
    Created c;
    if (!d.grpc_method.empty()) {
        c = grpc_deletion(ledger, d, req, id, id_at);
    } else {
        c.id = id;
        c.id_at = id_at;
        c.across = d.across;
        std::string why = http_request(c.del, req, d.method, d, d.headers, scope, ledger.defaults);
        EntityRequest read;
        const std::string read_why = http_request(read, req, d.read_method, d, d.read_headers, scope, ledger.defaults);
        c.read_not_found = d.read_not_found;
        if (!why.empty()) {
            c.problem = "no way to delete " + id + ": " + why;
        } else if (d.at_location) {
            at_location(c, ledger, d, location);
            if (c.confirm && read_why.empty()) c.confirm->request.headers = read.request.headers;
        } else {
            if (why = address(c.del, ledger.base_url, id, d.path, d.body_id_at, d.body, scope); !why.empty())
                c.problem = "no way to delete " + id + ": " + why;
            if (!d.read_path.empty() && read_why.empty() &&
                address(read, ledger.base_url, id, d.read_path, d.read_body_id_at, d.read_body, scope).empty()) {
                c.confirm = std::move(read);
            } else if (d.body_id_at.empty()) {
                c.confirm = c.del;  // a GET of the delete URL
                c.confirm->request.method = "GET";
                if (read_why.empty()) c.confirm->request.headers = read.request.headers;
            }
        }
    }
    c.origin = step_name;
    c.key = delete_key(c.wire, c.del.request);
    ledger.created.push_back(std::move(c));
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

void follow_rekey(std::vector<Created>& created, Wire wire, const Request& req, const json::value* body) {
    if (wire != Wire::http && wire != Wire::grpc) return;
    // Over HTTP a PUT or PATCH at the entity's URL, or a write whose body
    // names it (an RPC-style update: POST /v1/orders:update {"id": ...}).
    if (wire == Wire::http && req.method != "PUT" && req.method != "PATCH" && req.method != "POST") return;
    std::optional<json::value> message;  // the request body, parsed once
    auto names = [&](const std::string& id) {
        if (!message) {
            boost::system::error_code ec;
            message = parse_body_json(req.body, ec);
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
    for (auto& c : created) {
        if (c.wire != wire || !c.problem.empty() || c.id_at.empty() || c.deleted || !c.del.rebuilds()) continue;
        if (wire == Wire::http) {
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

bool needs_confirming(const Created& c, const Exchange& x) {
    // A 404 may be another principal's refusal, a 401 an expired token, a
    // 5xx a delete that happened anyway: only a read says whether it is
    // still there. (A gRPC delete has no read to ask; without a read the
    // entity may remain.)
    return c.wire == Wire::http && c.confirm && (x.error || x.response->status / 100 != 2);
}

bool gone_after(const DeleteOutcome& o, const Created& c) {
    if (!o.x.error && o.x.response->status / 100 == 2) return true;
    if (c.wire != Wire::http) return !o.x.error && o.x.response->status == 404;
    if (!o.back) return false;  // no read can confirm it
    const int st = o.back->error ? 0 : o.back->response->status;
    return st == 404 || st == 410 || read_says_gone(*o.back, c.read_not_found);
}

std::string delete_group(const Created& c) {
    const Request& d = c.del.request;
    const std::string where = c.wire == Wire::http ? d.url.substr(0, d.url.rfind('/')) : d.url;
    return std::to_string(static_cast<int>(c.wire)) + " " + d.transport + " " + d.method + " " + where;
}

std::string entity_label(const Created& c) {
    std::string out = "'" + c.origin + "'";
    if (!c.id.empty()) out += " (id " + c.id + (c.rekeyed_from.empty() ? "" : ", re-keyed from " + c.rekeyed_from) + ")";
    return out;
}

}  // namespace idconform::binding
