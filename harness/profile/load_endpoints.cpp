// The profile loader, resources and their HTTP endpoints: the endpoint table
// (what each operation's YAML may say), one reader per endpoint with its
// path, body, headers, list filter and not_found answer.
#include "profile/load_impl.hpp"
#include "suite/not_found_reader.hpp"

#include "profile/load_forms.hpp"

#include <algorithm>

namespace idconform::profile::loading {

namespace {

const std::vector<std::string> resource_keys = [] {
    std::vector<std::string> keys = {"create", "read",     "update", "delete",     "list",       "put",
                                     "id",     "location", "fields", "references", "time_field", "lookup",
                                     "action", "job",      "legacy", "viewable",   "grpc", "client_ids",
                                     "made_by"};
    for (const auto& k : forms::resource_keys()) keys.push_back(k);  // load_forms.cpp
    return keys;
}();
// The read of a singleton (`singleton: true`): no {id}.
const Operation singleton_read_op = {"read", "GET", false, false, false, "{path: /v1/me}"};
const std::vector<std::string> methods = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"};

// A pack operation's row: what it is comes from suite/operation.hpp.
constexpr Operation pack_operation(suite::Operation op, const char* example) {
    const auto& t = suite::traits(op);
    return {t.name, t.http_method, t.needs_id, t.has_body, t.has_items, example};
}

bool addressed_by_body(const Operation& op) {
    const std::string_view k = op.key;
    return op.needs_id && (k == "read" || k == "update" || k == "delete");
}

std::vector<std::string> endpoint_keys(const Operation& op) {
    std::vector<std::string> keys = {"method", "path", "headers"};
    // read, update and delete may address the entity by its id in a JSON body
    // (RPC-style gateways: POST /v1/orders:get {"id": ...}): `id_at`.
    const bool by_body = addressed_by_body(op);
    if (op.has_body || by_body) keys.emplace_back("body");
    if (op.has_items || std::string_view(op.key) == "read") keys.emplace_back("items");  // read: an array answer
    // (an update or delete of nothing may answer 2xx too: {"found": false})
    if (op.has_items || std::string_view(op.key) == "read" || std::string_view(op.key) == "update" ||
        std::string_view(op.key) == "delete")
        keys.emplace_back("not_found");
    if (op.has_items) keys.emplace_back("filter");
    if (op.has_param) keys.emplace_back("param");
    if (op.has_id_at || std::string_view(op.key) == "put" || by_body) keys.emplace_back("id_at");
    if (std::string_view(op.key) == "put") keys.emplace_back("replaces");  // create-or-replace
    return keys;
}

}  // namespace

const Operation operations[operation_count] = {
    pack_operation(suite::Operation::create, "{path: /v1/products, body: {name: idconform-probe}}"),
    pack_operation(suite::Operation::read, "{path: \"/v1/products/{id}\"}"),
    pack_operation(suite::Operation::update, "{path: \"/v1/products/{id}\", body: {name: idconform-renamed}}"),
    pack_operation(suite::Operation::del, "{path: \"/v1/products/{id}\"}"),
    pack_operation(suite::Operation::list, "{path: /v1/products, items: /items}"),
    pack_operation(suite::Operation::put, "{path: \"/v1/products/{id}\", body: {name: idconform-put}}"),
    {"lookup", "GET", false, false, false, "{path: /v1/orders, param: id}", true, false},
    {"action", "POST", false, true, false, "{path: /v1/order-confirmations, id_at: /order_id}", false, true},
};

void Loader::resources(const Entry& e, Profile& p) {
    const char* const example =
        "\n  resources:\n    products:\n      create: {path: /v1/products, body: {name: idconform-probe}}";
    auto m = r_.mapping(e.val(), "resources", {}, example);
    if (!m) return;
    if (e.value.size() == 0) {
        r_.error(e.val(), "no resources", std::string("describe at least one resource, e.g.") + example);
        return;
    }
    // Counted as written, so a create that failed to load does not also
    // count as missing.
    bool any_create = false;
    for (const auto& entry : m->entries) {
        written_names_.push_back(entry.key);
        const YAML::Node& value = entry.value;  // const: operator[] must not insert keys
        if (value.IsMap() && (value["create"] || (value["grpc"] && value["grpc"].IsMap() && value["grpc"]["create"])))
            any_create = true;
        if (!detail::valid_name(entry.key)) {
            r_.error(entry.key_val(), "bad resource name '" + entry.key + "'",
                     "names use letters, digits, '_' and '-' and start with a letter, e.g. products");
            continue;
        }
        if (auto res = resource(entry)) p.resources.push_back(std::move(*res));
    }
    if (!any_create)
        r_.error(e.val(), "no resource has a 'create' endpoint",
                 "the harness makes its own test data; give at least one resource create: {path: "
                 "/v1/products, body: {name: idconform-probe}}");
}

// `made_by: {resource: files, at: /folder_id}` (the names are checked once
// every resource is read, check_references).
void Loader::made_by(const Entry& x, Resource& res) {
    const char* const example = "made_by: {resource: files, at: /folder_id}";
    auto m = r_.mapping(x.val(), "made_by", {"resource", "at", "fresh"}, example);
    if (!m) return;
    const auto* resource = m->find("resource");
    const auto* at = m->find("at");
    if (!resource || !at) {
        r_.error(x.key_val(), std::string("made_by needs ") + (resource ? "'at'" : "'resource'"),
                 std::string("name the resource whose create makes one and where its create answer names the id, "
                             "e.g. ") + example);
        return;
    }
    Resource::MadeBy mb;
    mb.pos = r_.pos(x.key_val());
    auto name = r_.string(resource->val(), "resource", example);
    auto pointer = r_.string(at->val(), "at", example);
    if (!name || !pointer || !member_pointer(at->val(), *pointer, "at", "/folder_id")) return;
    mb.resource = *name;
    mb.at = *pointer;
    if (const auto* f = m->find("fresh"))
        if (auto b = r_.boolean(f->val(), "fresh")) mb.fresh = *b;
    made_by_sites_.push_back(ReferenceSite{res.name, "made_by", *name, true, resource->val().mark});
    res.made_by = std::move(mb);
}

std::optional<Resource> Loader::resource(const Entry& entry) {
    auto m = r_.mapping(entry.val(), "resource", resource_keys,
                        "{create: {path: /v1/products}, read: {path: \"/v1/products/{id}\"}}");
    if (!m) return std::nullopt;
    const std::size_t before = diags_->size();
    Resource res;
    res.name = entry.key;
    res.pos = r_.pos(entry.key_val());
    res.id.pos = res.pos;
    res.id.pointer = "/id";
    std::optional<Endpoint>* slots[] = {&res.create, &res.read, &res.update, &res.del,
                                        &res.list,   &res.put,  &res.lookup, &res.action};
    for (std::size_t i = 0; i < std::size(operations); ++i)
        if (const auto* x = m->find(operations[i].key))
            *slots[i] = endpoint(x->val(), i == 1 && forms::is_singleton(*m) ? singleton_read_op : operations[i]);
    if (const auto* x = m->find("id")) {
        if (auto id = id_field(x->val(), "id", "/id", IdRole::own)) res.id = std::move(*id);
    } else if (m->find("legacy")) {
        res.id.kind = ids::IdKind::uuidv8_legacy;  // a legacy lookup answers UUIDv8 legacy ids
    }
    if (const auto* x = m->find("job")) res.job = job(x->val());
    if (const auto* x = m->find("legacy")) {
        res.legacy = legacy(x->val());
        if (res.legacy && res.id.kind != ids::IdKind::uuidv8_legacy)
            r_.error(x->key_val(),
                     "a resource with 'legacy' has ids of kind uuidv8-legacy, not " + std::string(ids::kind_name(res.id.kind)),
                     "write id: {at: /id, kind: uuidv8-legacy} (or leave 'id' out)");
    }
    if (const auto* x = m->find("viewable")) {
        res.viewable = viewable(x->val());
        if (res.viewable && !m->find("create"))
            r_.error(x->key_val(), "'viewable' needs a create endpoint on '" + res.name + "'",
                     "the viewable-id pack creates entities to see their viewable ids; add create: {...}");
    }
    if (const auto* x = m->find("location"))
        if (auto b = r_.boolean(x->val(), "location")) res.location = *b;
    if (const auto* x = m->find("fields")) fields(x->val(), res);
    if (const auto* x = m->find("client_ids")) client_ids(x->val(), res);
    if (const auto* x = m->find("references")) references(x->val(), res);
    if (const auto* x = m->find("made_by")) made_by(*x, res);
    if (const auto* x = m->find("grpc")) res.grpc = grpc_ops(*x, res.name);
    if (const auto* x = m->find("time_field")) {
        // time_field: /created_at, or {at: /created_at, in_create: false}
        // when only read answers carry it
        Val at = x->val();
        std::optional<Mapping> tm;
        if (x->val().node.IsMap()) {
            tm = r_.mapping(x->val(), "time_field", {"at", "in_create"}, "{at: /created_at, in_create: false}");
            if (tm && !tm->find("at"))
                r_.error(x->key_val(), "time_field needs 'at', the time field's JSON pointer",
                         "time_field: {at: /created_at, in_create: false}");
            if (tm && tm->find("at")) at = tm->find("at")->val();
        }
        if (!x->val().node.IsMap() || (tm && tm->find("at")))
            if (auto s = r_.string(at, "time_field", "time_field: /created_at");
                s && member_pointer(at, *s, "time_field", "/created_at"))
                res.time_field = *s;
        if (tm)
            if (const auto* ic = tm->find("in_create"))
                if (auto b = r_.boolean(ic->val(), "in_create")) res.time_in_create = *b;
    }
    answer_forms(*m, res);
    forms::read(r_, *m, res);
    // A create with a client-chosen id sent to the collection (POST
    // /v1/products) carries the id in its body, by default where the entity
    // has it.
    if (res.put && res.put->path.find("{id}") == std::string::npos && !is_location_path(res.put->path) &&
        res.put->id_at.empty())
        res.put->id_at = res.id.pointer;
    if (diags_->size() != before) return std::nullopt;
    return res;
}

std::optional<Endpoint> Loader::endpoint(const Val& v, const Operation& op) {
    auto m = r_.mapping(v, op.key, endpoint_keys(op), op.example);
    if (!m) return std::nullopt;
    const std::size_t before = diags_->size();
    Endpoint ep;
    ep.pos = r_.pos(v);
    ep.method = op.method;
    if (const auto* x = m->find("method")) {
        if (auto s = r_.string(x->val(), "method", std::string("method: ") + op.method)) {
            if (std::find(methods.begin(), methods.end(), *s) == methods.end())
                r_.error(x->val(), "unknown HTTP method '" + *s + "'", detail::suggest(*s, methods, "allowed methods"));
            else ep.method = *s;
        }
    }
    if (const auto* x = m->find("path")) {
        if (auto s = r_.string(x->val(), "path",
                               std::string("path: ") + (op.needs_id ? "\"/v1/products/{id}\"" : "/v1/products"));
            s && (is_location_path(*s) ? location_path_ok(x->val(), *s, op)
                                       : path_ok(x->val(), *s, op, ep.method, m->find("id_at") != nullptr))) {
            ep.path = *s;
            ep.at_location = is_location_path(*s);
        }
    } else {
        r_.error(v, std::string("missing required key 'path' in ") + op.key,
                 std::string("say where to send it, e.g. ") + op.key + ": " + op.example);
    }
    if (const auto* x = m->find("body")) {
        const Val bv = x->val();
        if (!bv.node.IsMap()) {
            r_.error(bv, "expected a mapping here, found " + detail::kind_name(bv.node),
                     std::string("the ") + op.key +
                         " body is a JSON object written as YAML, e.g. body: {name: "
                         "idconform-probe}");
        } else if (auto j = r_.json(bv, true)) {
            ep.body = std::move(*j);
        }
    }
    if (const auto* x = m->find("items")) {
        if (auto s = r_.string(x->val(), "items", "items: /items"); s && r_.check_pointer_at(x->val(), *s))
            ep.items = *s;
        ep.answers_array = std::string_view(op.key) == "read";
    }
    if (const auto* x = m->find("replaces"))
        if (auto b = r_.boolean(x->val(), "replaces")) ep.replaces = *b;
    if (const auto* x = m->find("headers")) endpoint_headers(x->val(), ep);
    if (const auto* x = m->find("not_found")) not_found(x->val(), ep);
    if (const auto* x = m->find("filter")) list_filter(x->val(), ep);
    if (op.has_param) {
        if (const auto* x = m->find("param")) {
            if (auto s = r_.string(x->val(), "param", "param: id")) {
                if (s->empty())
                    r_.error(x->val(), "empty query parameter name",
                             "name the parameter that carries the id, e.g. param: id");
                ep.param = *s;
            }
        } else {
            r_.error(v, std::string("missing required key 'param' in ") + op.key,
                     std::string("name the query parameter that carries the id, e.g. ") + op.key + ": " + op.example);
        }
    }
    if (const auto* x = m->find("id_at"); x && !op.has_id_at) {
        if (auto s = r_.string(x->val(), "id_at", "id_at: /id"); s && member_pointer(x->val(), *s, "id_at", "/id"))
            ep.id_at = *s;  // put: where the client's id goes in the body
    }
    if (op.has_id_at) {
        if (const auto* x = m->find("id_at")) {
            if (auto s = r_.string(x->val(), "id_at", "id_at: /order_id");
                s && member_pointer(x->val(), *s, "id_at", "/order_id"))
                ep.id_at = *s;
        } else {
            r_.error(v, std::string("missing required key 'id_at' in ") + op.key,
                     std::string("say where the entity's id goes in the body, e.g. ") + op.key + ": " + op.example);
        }
    }
    // A read or delete sends a body only around the id it names there.
    if (const auto* x = m->find("body"); x && !op.has_body && ep.id_at.empty())
        r_.error(x->key_val(), std::string("a ") + op.key + " body is sent only with id_at",
                 std::string("say where the id goes in it, e.g. ") + op.key +
                     ": {method: POST, path: /v1/orders:get, id_at: /id, body: {...}}; or drop the body");
    if (diags_->size() != before) return std::nullopt;
    return ep;
}

// `headers:` of one endpoint (`Prefer: return=representation`), sent
// after the profile's and the principal's.
void Loader::endpoint_headers(const Val& v, Endpoint& ep) {
    auto m = r_.mapping(v, "headers", {}, "{Prefer: return=representation}");
    if (!m) return;
    for (const auto& entry : m->entries)
        if (auto s = r_.string(entry.val(), "header value", entry.key + ": text");
            s && r_.check_template_at(entry.val(), *s, false))
            ep.headers.emplace_back(entry.key, *s);
}

// `filter: "{field}=eq.{value}"`: how the list is filtered by a
// reference, spelled the target's way (PostgREST, json-server operators);
// `filter: false`: the list takes no filter, and the checks that need one
// are reported as not applicable. Default "{field}={value}".
void Loader::list_filter(const Val& v, Endpoint& ep) {
    const char* const hint =
        "write the query the target understands, with {field} (the reference's name) and "
        "{value} (the id), e.g. filter: \"{field}=eq.{value}\" or filter: \"{field}_eq={value}\"; "
        "filter: false when the list takes no filter";
    if (v.node.IsScalar() && (v.node.Scalar() == "false" || v.node.Scalar() == "true")) {
        if (v.node.Scalar() == "true") r_.error(v, "filter: true says nothing about how to filter", hint);
        else ep.filter.clear();
        return;
    }
    auto s = r_.string(v, "filter", "filter: \"{field}={value}\"");
    if (!s) return;
    const auto eq = s->find('=');
    if (eq == std::string::npos || eq == 0 || s->find("{value}", eq) == std::string::npos || s->find("{value}") < eq) {
        r_.error(v, "filter '" + *s + "' is not NAME=VALUE with {value} after the '='", hint);
        return;
    }
    for (std::size_t at = s->find('{'); at != std::string::npos; at = s->find('{', at + 1)) {
        if (s->compare(at, 7, "{field}") != 0 && s->compare(at, 7, "{value}") != 0) {
            r_.error(v,
                     "filter '" + *s + "' holds '" + s->substr(at, s->find('}', at) - at + 1) +
                         "'; only {field} and {value} are filled in",
                     hint);
            return;
        }
    }
    ep.filter = *s;
}

// `not_found: {status: 200, body: []}`: how the endpoint answers a
// request naming nothing, when that is not a 4xx (a filter answering an
// empty array); the negative checks then accept that answer too. The same
// reader as a suite's `expect: {not_found: ...}`.
void Loader::not_found(const Val& v, Endpoint& ep) {
    if (auto nf = suite::detail::read_not_found(r_, v)) ep.not_found = std::move(*nf);
}

// Placeholders are checked first; then the only path variable a profile
// knows is {id}, required where an entity is addressed, wrong where the
// server has not assigned one yet.
bool Loader::path_ok(const Val& v, const std::string& path, const Operation& op, const std::string& method,
                     bool id_in_body_written) {
    if (!r_.check_template_at(v, path, true)) return false;
    if (path.empty() || (path[0] != '/' && path.rfind("${", 0) != 0)) {
        r_.error(v, "the " + std::string(op.key) + " path '" + path + "' does not start with '/'",
                 "paths are appended to base_url, e.g. path: " +
                     std::string(op.needs_id ? "\"/v1/products/{id}\"" : "/v1/products"));
        return false;
    }
    bool has_id = false;
    bool ok = true;
    for (std::size_t i = 0; i < path.size(); ++i) {
        if (path[i] == '$' && i + 1 < path.size() && path[i + 1] == '{') {
            i = path.find('}', i);  // a ${...} placeholder, already checked
            continue;
        }
        if (path[i] != '{') continue;
        const std::size_t close = path.find('}', i);
        const std::string name = path.substr(i + 1, close - i - 1);
        if (name != "id") {
            r_.error(r_.mark_at(v, path, i), "unknown path variable '{" + name + "}' in " + op.key + " path",
                     "a profile path knows one variable, {id}: the entity's id, inserted percent-encoded");
            ok = false;
        } else if (!op.needs_id && std::string_view(op.key) == "read") {
            r_.error(r_.mark_at(v, path, i), "the read path of a singleton cannot hold '{id}'",
                     "a singleton (singleton: true) is read without an id, e.g. read: {path: /v1/me}; "
                     "remove singleton: for an entity read by its id");
            ok = false;
        } else if (!op.needs_id) {
            r_.error(
                r_.mark_at(v, path, i), "the " + std::string(op.key) + " path cannot hold '{id}'",
                std::string("it addresses the collection, e.g. /v1/products; ") +
                    (std::string_view(op.key) == "create" ? "the server assigns the id (a client-supplied id is 'put')"
                                                          : "entities are addressed by read, update and delete"));
            ok = false;
        } else {
            has_id = true;
        }
        i = close;
    }
    // `put` may send the client's id in the body instead: a POST (or PATCH)
    // to the collection; a PUT without {id} is taken for a slip.
    // read, update and delete with `id_at` carry the id in their body.
    const bool id_in_body = (std::string_view(op.key) == "put" && method != "PUT") || id_in_body_written;
    if (ok && op.needs_id && !has_id && !id_in_body) {
        r_.error(v, "the " + std::string(op.key) + " path '" + path + "' has no '{id}'",
                 std::string("write where the entity's id goes, e.g. path: \"/v1/products/{id}\"") +
                     (std::string_view(op.key) == "put"
                          ? "; a create with the client's id in the body of a POST to the collection is put: "
                            "{method: POST, path: /v1/products}"
                      : std::string_view(op.key) == "read"
                          ? "; one entity per principal read without an id (GET /v1/me) is a singleton: write "
                            "singleton: true; a read with the id in a JSON body is {method: POST, path: "
                            "/v1/orders:get, id_at: /id}"
                          : "; with the id in a JSON body instead, write id_at: /id (and method: POST)"));
        ok = false;
    }
    return ok;
}

}  // namespace idconform::profile::loading
