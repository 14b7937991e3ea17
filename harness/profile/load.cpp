// The target-profile loader: YAML text -> validated Profile. It reads with the
// suite loader's YAML reader, so positions, messages and "did you mean" hints
// look the same; every problem is collected and the profile is returned only
// when there were none.
#include "profile/profile.hpp"

#include "core/grpc_method.hpp"
#include "suite/input_guard.hpp"
#include "suite/operation.hpp"
#include "suite/target_reader.hpp"
#include "suite/yaml_reader.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <map>

namespace idconform::profile {

namespace detail = suite::detail;
using detail::Entry;
using detail::Mapping;
using detail::Reader;
using detail::SourceText;
using detail::Val;

namespace {

// ------------------------------------------------------------ constants

const std::vector<std::string> profile_keys = {"name",       "base_url",   "headers", "tls",       "timeout",
                                               "clock_skew", "principals", "packs",   "resources", "request_id",
                                               "grpc"};
const std::vector<std::string> grpc_op_keys = suite::operation_names();
const std::vector<std::string> resource_keys = {"create", "read",     "update", "delete",     "list",       "put",
                                                "id",     "location", "fields", "references", "time_field", "lookup",
                                                "action", "job",      "legacy", "viewable",   "grpc"};
const std::vector<std::string> job_keys = {"at", "read"};
const std::vector<std::string> legacy_keys = {"lookup", "ids", "entity_type", "salt_env", "layout"};
const std::vector<std::string> layout_keys = {"flag", "id", "type", "hash1", "hash2"};
const std::vector<std::string> bit_field_keys = {"offset", "bits"};
const std::vector<std::string> viewable_keys = {"at", "read", "prefix", "length", "format"};
const std::vector<std::string> id_keys = {"at", "kind", "pattern"};
const std::vector<std::string> reference_keys = {"resource", "required", "kind"};
const std::vector<std::string> methods = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"};

const char* const profile_example =
    "\n  name: my-api\n  base_url: http://127.0.0.1:8080\n  principals:\n    alice: {headers: {Authorization: "
    "\"Bearer alice\"}}\n  resources:\n    products:\n      create: {path: /v1/products, body: {name: probe}}";

// One endpoint of a resource, with what its YAML may say.
struct Operation {
    const char* key;       // YAML key under the resource
    const char* method;    // default method
    bool needs_id;         // the path must hold {id}
    bool has_body;         // takes `body:`
    bool has_items;        // takes `items:` (list)
    const char* example;
    bool has_param = false;  // takes `param:` (lookup), required
    bool has_id_at = false;  // takes `id_at:` (action), required
};

// A pack operation's row: what it is comes from suite/operation.hpp.
constexpr Operation pack_operation(suite::Operation op, const char* example) {
    const auto& t = suite::traits(op);
    return {t.name, t.http_method, t.needs_id, t.has_body, t.has_items, example};
}

const Operation operations[] = {
    pack_operation(suite::Operation::create, "{path: /v1/products, body: {name: idconform-probe}}"),
    pack_operation(suite::Operation::read, "{path: \"/v1/products/{id}\"}"),
    pack_operation(suite::Operation::update, "{path: \"/v1/products/{id}\", body: {name: idconform-renamed}}"),
    pack_operation(suite::Operation::del, "{path: \"/v1/products/{id}\"}"),
    pack_operation(suite::Operation::list, "{path: /v1/products, items: /items}"),
    pack_operation(suite::Operation::put, "{path: \"/v1/products/{id}\", body: {name: idconform-put}}"),
    {"lookup", "GET", false, false, false, "{path: /v1/orders, param: id}", true, false},
    {"action", "POST", false, true, false, "{path: /v1/order-confirmations, id_at: /order_id}", false, true},
};
// The legacy lookup: {id} is the legacy integer id.
const Operation legacy_lookup_op = {"lookup", "GET", true, false, false, "{path: \"/v1/staff/{id}\"}"};
// A path read by a related or viewable id, written as a plain path.
const Operation read_path_op = {"read", "GET", true, false, false, "\"/v1/jobs/{id}\""};

std::vector<std::string> endpoint_keys(const Operation& op) {
    std::vector<std::string> keys = {"method", "path", "headers"};
    if (op.has_body) keys.emplace_back("body");
    if (op.has_items) keys.emplace_back("items");
    if (op.has_items || std::string_view(op.key) == "read") keys.emplace_back("not_found");
    if (op.has_items) keys.emplace_back("filter");
    if (op.has_param) keys.emplace_back("param");
    if (op.has_id_at) keys.emplace_back("id_at");
    return keys;
}

std::vector<std::string> accepted_packs() { return known_packs(); }

// An environment variable name as a shell accepts it.
bool env_name_ok(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// RFC 6901 escaping of one member name.
std::string pointer_to(const std::string& name) {
    std::string out = "/";
    for (char c : name) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

// A reference as written, for the checks that need every resource loaded.
struct ReferenceSite {
    std::string from;        // the referring resource
    std::string field;
    std::string resource;
    bool required = false;
    YAML::Mark at;           // the `resource:` value
};

// ----------------------------------------------------------------- loader

class Loader {
public:
    explicit Loader(const SourceText& src, std::vector<Diagnostic>& diags) : r_(src, diags), diags_(&diags) {}

    std::optional<Profile> load(const std::string& text) {
        auto root = detail::parse_document(r_, text, "profile",
                                           std::string("a target profile needs at least:") + profile_example);
        if (!root) return std::nullopt;
        const Val rv{*root, root->Mark()};
        if (!root->IsMap()) {
            r_.error(rv, "expected a mapping at the top of the profile, found " + detail::kind_name(*root),
                     std::string("a target profile is a mapping of keys such as:") + profile_example);
            return std::nullopt;
        }
        auto m = r_.mapping(rv, "profile", profile_keys, profile_example);
        if (!m) return std::nullopt;

        Profile p;
        p.file = r_.source().path;
        p.pos = r_.pos(rv);

        if (const auto* e = m->find("name")) {
            if (auto n = r_.string(e->val(), "name", "name: products-api")) {
                if (n->empty())
                    r_.error(e->val(), "the profile name is empty",
                             "write a name (it names the report), e.g. name: products-api");
                p.name = *n;
            }
        } else {
            r_.error(rv, "missing required key 'name' in profile",
                     "name the target (it names the report), e.g. name: products-api");
        }
        if (const auto* e = m->find("base_url")) {
            if (auto s = r_.string(e->val(), "base_url", "base_url: ${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}",
                                   true)) {
                if (s->empty())
                    r_.error(e->val(), "the base_url is empty",
                             "write the target's address, e.g. base_url: http://127.0.0.1:8080");
                p.base_url = *s;
            }
        } else {
            r_.error(rv, "missing required key 'base_url' in profile",
                     "say where the target listens, e.g. base_url: ${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}");
        }
        if (const auto* e = m->find("headers")) p.headers = r_.pairs(e->val(), "headers", "{Accept: application/json}");
        if (const auto* e = m->find("tls")) detail::read_tls(r_, e->val(), p);
        if (const auto* e = m->find("timeout")) detail::read_timeouts(r_, e->val(), p);
        if (const auto* e = m->find("clock_skew")) p.clock_skew_ms = r_.duration(e->val(), "clock_skew");
        if (const auto* e = m->find("principals"))
            principals(*e, p);
        else
            r_.error(rv, "missing required key 'principals' in profile",
                     "name at least one principal; the first owns the test data, e.g.\n  principals:\n    alice: "
                     "{headers: {Authorization: \"Bearer ${env:IDCONFORM_TOKEN_A:-alice}\"}}");
        if (const auto* e = m->find("packs")) packs(e->val(), p);
        if (const auto* e = m->find("grpc"))
            if (auto g = detail::read_grpc_target(
                    r_, e->val(), {std::filesystem::path(r_.source().path).parent_path().string(), "profile's folder", false}))
                p.grpc = std::move(*g);
        if (const auto* e = m->find("request_id")) {
            if (auto s = r_.string(e->val(), "request_id", "request_id: X-Request-Id")) {
                if (s->empty() || s->find_first_of(" \t:()<>@,;\\\"/[]?={}") != std::string::npos)
                    r_.error(e->val(), "'" + *s + "' is not a header name",
                             "name the answer header that carries the request id, e.g. request_id: X-Request-Id");
                else
                    p.request_id = *s;
            }
        }
        if (const auto* e = m->find("resources"))
            resources(*e, p);
        else
            r_.error(rv, "missing required key 'resources' in profile",
                     "describe at least one resource with a create endpoint, e.g.\n  resources:\n    products:\n"
                     "      create: {path: /v1/products, body: {name: idconform-probe}}");

        check_references(p);
        // A reference holds ids of the resource it points to: without its own
        // `kind:` it has that resource's id kind.
        for (auto& res : p.resources)
            for (auto& ref : res.references)
                if (!ref.kind_written)
                    for (const auto& t : p.resources)
                        if (t.name == ref.resource) ref.kind = t.id.kind;
        if (!p.grpc)
            for (const auto& [res, at] : grpc_sites_)
                r_.error(at, "resource '" + res + "' binds gRPC methods, but the profile does not say where gRPC listens",
                         "add at the top level: grpc: {address: \"${env:IDCONFORM_GRPC_ADDRESS:-127.0.0.1:50051}\", "
                         "reflection: true}");
        if (!diags_->empty()) return std::nullopt;
        return p;
    }

private:
    Reader r_;
    std::vector<Diagnostic>* diags_;
    std::vector<ReferenceSite> sites_;
    std::vector<std::string> written_names_;  // every resource name, also of resources that failed to load
    std::vector<std::pair<std::string, Val>> grpc_sites_;  // resources with a grpc: section

    // `grpc:` under a resource: its operations as unary methods.
    std::optional<GrpcOps> grpc_ops(const Entry& e, const std::string& resource) {
        const char* const example = "{create: {method: shop.v1.Products/CreateProduct, body: {name: probe}}, "
                                    "read: {method: shop.v1.Products/GetProduct}}";
        auto m = r_.mapping(e.val(), "grpc", grpc_op_keys, example);
        if (!m) return std::nullopt;
        grpc_sites_.emplace_back(resource, e.key_val());
        GrpcOps ops;
        ops.pos = r_.pos(e.val());
        std::optional<GrpcEndpoint>* slots[] = {&ops.create, &ops.read, &ops.update, &ops.del, &ops.list, &ops.put};
        for (std::size_t i = 0; i < std::size(operations); ++i)
            if (const auto* x = m->find(operations[i].key)) *slots[i] = grpc_endpoint(x->val(), operations[i]);
        return ops;
    }

    std::optional<GrpcEndpoint> grpc_endpoint(const Val& v, const Operation& op) {
        std::vector<std::string> keys = {"method"};
        if (op.has_body) keys.emplace_back("body");
        if (op.needs_id) keys.emplace_back("id_field");
        if (op.has_items) keys.emplace_back("items");
        const std::string example = std::string("{method: shop.v1.Products/") +
                                    (op.key[0] == 'd' ? "Delete" : op.key[0] == 'c' ? "Create" : op.key[0] == 'r' ? "Get"
                                     : op.key[0] == 'u' ? "Update" : op.key[0] == 'l' ? "List" : "Put") + "Product}";
        auto m = r_.mapping(v, op.key, keys, example);
        if (!m) return std::nullopt;
        GrpcEndpoint ep;
        ep.pos = r_.pos(v);
        if (const auto* x = m->find("method")) {
            if (auto s = r_.string(x->val(), "method", "method: shop.v1.Products/GetProduct")) {
                if (!grpc_method::parse(*s))
                    r_.error(x->val(), "'" + *s + "' is not a gRPC method name",
                             "write package.Service/Method, e.g. method: shop.v1.Products/GetProduct");
                else
                    ep.method = *s;
            }
        } else {
            r_.error(v, std::string("missing required key 'method' in grpc ") + op.key,
                     "name the unary method, e.g. " + example);
        }
        if (const auto* x = m->find("body")) {
            const Val bv = x->val();
            if (!bv.node.IsMap())
                r_.error(bv, "expected a mapping here, found " + detail::kind_name(bv.node),
                         "the request message is written as YAML, e.g. body: {name: idconform-probe}");
            else if (auto j = r_.json(bv, true))
                ep.body = std::move(*j);
        }
        if (const auto* x = m->find("id_field")) {
            if (auto s = r_.string(x->val(), "id_field", "id_field: /id"); s && member_pointer(x->val(), *s, "id_field", "/id"))
                ep.id_field = *s;
        }
        if (const auto* x = m->find("items")) {
            if (auto s = r_.string(x->val(), "items", "items: /products"); s && r_.check_pointer_at(x->val(), *s))
                ep.items = *s;
        }
        return ep;
    }

    // --------------------------------------------------------- target part

    void principals(const Entry& e, Profile& p) {
        const char* const example = "\n  principals:\n    alice: {headers: {Authorization: \"Bearer ...\"}}";
        auto m = r_.mapping(e.val(), "principals", {}, example);
        if (!m) return;
        if (e.value.size() == 0) {
            r_.error(e.val(), "no principals",
                     "name at least one principal; the first owns the test data, a second one is needed for the "
                     "DATA-ID-004 access checks, e.g.\n  principals:\n    alice: {headers: {Authorization: "
                     "\"Bearer alice\"}}\n    bob: {headers: {Authorization: \"Bearer bob\"}}");
            return;
        }
        for (const auto& entry : m->entries)
            if (auto pr = detail::read_principal(r_, entry)) p.principals.push_back(std::move(*pr));
    }

    void packs(const Val& v, Profile& p) {
        std::vector<Val> items;
        if (v.node.IsScalar()) {
            items.push_back(v);
        } else if (auto seq = r_.sequence(v, "packs", "packs: [data-id, nil-max]")) {
            items = std::move(*seq);
        } else {
            return;
        }
        const std::vector<std::string> accepted = accepted_packs();
        std::map<std::string, int> seen;  // name -> line
        for (const auto& item : items) {
            auto s = r_.string(item, "packs", "packs: [data-id, nil-max]");
            if (!s) continue;
            if (std::find(accepted.begin(), accepted.end(), *s) == accepted.end()) {
                r_.error(item, "unknown pack '" + *s + "'", detail::suggest(*s, accepted, "known packs"));
                continue;
            }
            if (auto [it, fresh] = seen.emplace(*s, item.mark.line + 1); !fresh) {
                r_.error(item, "pack '" + *s + "' is listed twice",
                         "it is already listed at line " + std::to_string(it->second) + "; remove one of them");
                continue;
            }
            p.packs.push_back(*s);
        }
    }

    // ----------------------------------------------------------- resources

    void resources(const Entry& e, Profile& p) {
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

    std::optional<Resource> resource(const Entry& entry) {
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
            if (const auto* x = m->find(operations[i].key)) *slots[i] = endpoint(x->val(), operations[i]);
        if (const auto* x = m->find("id")) {
            if (auto id = id_field(x->val(), "id", "/id")) res.id = std::move(*id);
        } else if (m->find("legacy")) {
            res.id.kind = "uuidv8-legacy";  // a legacy lookup answers UUIDv8 legacy ids
        }
        if (const auto* x = m->find("job")) res.job = job(x->val());
        if (const auto* x = m->find("legacy")) {
            res.legacy = legacy(x->val());
            if (res.legacy && res.id.kind != "uuidv8-legacy")
                r_.error(x->key_val(), "a resource with 'legacy' has ids of kind uuidv8-legacy, not " + res.id.kind,
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
        if (const auto* x = m->find("references")) references(x->val(), res);
        if (const auto* x = m->find("grpc")) res.grpc = grpc_ops(*x, res.name);
        if (const auto* x = m->find("time_field")) {
            if (auto s = r_.string(x->val(), "time_field", "time_field: /created_at");
                s && member_pointer(x->val(), *s, "time_field", "/created_at"))
                res.time_field = *s;
        }
        if (diags_->size() != before) return std::nullopt;
        return res;
    }

    std::optional<Endpoint> endpoint(const Val& v, const Operation& op) {
        auto m = r_.mapping(v, op.key, endpoint_keys(op), op.example);
        if (!m) return std::nullopt;
        const std::size_t before = diags_->size();
        Endpoint ep;
        ep.pos = r_.pos(v);
        ep.method = op.method;
        if (const auto* x = m->find("method")) {
            if (auto s = r_.string(x->val(), "method", std::string("method: ") + op.method)) {
                if (std::find(methods.begin(), methods.end(), *s) == methods.end())
                    r_.error(x->val(), "unknown HTTP method '" + *s + "'",
                             detail::suggest(*s, methods, "allowed methods"));
                else
                    ep.method = *s;
            }
        }
        if (const auto* x = m->find("path")) {
            if (auto s = r_.string(x->val(), "path", std::string("path: ") + (op.needs_id ? "\"/v1/products/{id}\""
                                                                                          : "/v1/products"));
                s && path_ok(x->val(), *s, op))
                ep.path = *s;
        } else {
            r_.error(v, std::string("missing required key 'path' in ") + op.key,
                     std::string("say where to send it, e.g. ") + op.key + ": " + op.example);
        }
        if (const auto* x = m->find("body")) {
            const Val bv = x->val();
            if (!bv.node.IsMap()) {
                r_.error(bv, "expected a mapping here, found " + detail::kind_name(bv.node),
                         std::string("the ") + op.key + " body is a JSON object written as YAML, e.g. body: {name: "
                         "idconform-probe}");
            } else if (auto j = r_.json(bv, true)) {
                ep.body = std::move(*j);
            }
        }
        if (const auto* x = m->find("items")) {
            if (auto s = r_.string(x->val(), "items", "items: /items"); s && r_.check_pointer_at(x->val(), *s))
                ep.items = *s;
        }
        if (const auto* x = m->find("headers")) endpoint_headers(x->val(), ep);
        if (const auto* x = m->find("not_found")) not_found(x->val(), ep);
        if (const auto* x = m->find("filter")) list_filter(x->val(), ep);
        if (op.has_param) {
            if (const auto* x = m->find("param")) {
                if (auto s = r_.string(x->val(), "param", "param: id")) {
                    if (s->empty())
                        r_.error(x->val(), "empty query parameter name", "name the parameter that carries the id, e.g. param: id");
                    ep.param = *s;
                }
            } else {
                r_.error(v, std::string("missing required key 'param' in ") + op.key,
                         std::string("name the query parameter that carries the id, e.g. ") + op.key + ": " + op.example);
            }
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
        if (diags_->size() != before) return std::nullopt;
        return ep;
    }

    // `headers:` of one endpoint (`Prefer: return=representation`), sent
    // after the profile's and the principal's.
    void endpoint_headers(const Val& v, Endpoint& ep) {
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
    void list_filter(const Val& v, Endpoint& ep) {
        const char* const hint = "write the query the target understands, with {field} (the reference's name) and "
                                 "{value} (the id), e.g. filter: \"{field}=eq.{value}\" or filter: \"{field}_eq={value}\"; "
                                 "filter: false when the list takes no filter";
        if (v.node.IsScalar() && (v.node.Scalar() == "false" || v.node.Scalar() == "true")) {
            if (v.node.Scalar() == "true")
                r_.error(v, "filter: true says nothing about how to filter", hint);
            else
                ep.filter.clear();
            return;
        }
        auto s = r_.string(v, "filter", "filter: \"{field}={value}\"");
        if (!s) return;
        const auto eq = s->find('=');
        if (eq == std::string::npos || eq == 0 || s->find("{value}", eq) == std::string::npos ||
            s->find("{value}") < eq) {
            r_.error(v, "filter '" + *s + "' is not NAME=VALUE with {value} after the '='", hint);
            return;
        }
        for (std::size_t at = s->find('{'); at != std::string::npos; at = s->find('{', at + 1)) {
            if (s->compare(at, 7, "{field}") != 0 && s->compare(at, 7, "{value}") != 0) {
                r_.error(v, "filter '" + *s + "' holds '" + s->substr(at, s->find('}', at) - at + 1) +
                                "'; only {field} and {value} are filled in",
                         hint);
                return;
            }
        }
        ep.filter = *s;
    }

    // `not_found: {status: 200, body: []}`: how the endpoint answers a
    // request naming nothing, when that is not a 4xx (a filter answering an
    // empty array). The negative checks then accept that answer too.
    void not_found(const Val& v, Endpoint& ep) {
        const char* const example = "{status: 200, body: []}";
        auto m = r_.mapping(v, "not_found", {"status", "body"}, example);
        if (!m) return;
        NotFound nf;
        nf.pos = r_.pos(v);
        if (const auto* x = m->find("status")) {
            if (auto s = r_.string(x->val(), "status", "status: 200")) {
                int code = 0;
                const bool digits = s->size() == 3 && s->find_first_not_of("0123456789") == std::string::npos;
                if (digits) code = std::stoi(*s);
                if (!digits || code < 200 || code > 299)
                    r_.error(x->val(), "not_found status '" + *s + "' is not a 2xx status",
                             "a 4xx is already taken as not found; not_found describes a 2xx answer, e.g. " +
                                 std::string(example));
                else
                    nf.status = code;
            }
        } else {
            r_.error(v, "missing required key 'status' in not_found", std::string("e.g. not_found: ") + example);
        }
        if (const auto* x = m->find("body")) {
            if (auto j = r_.json(x->val(), false)) nf.body = std::move(*j);
        } else {
            r_.error(v, "missing required key 'body' in not_found",
                     std::string("the exact JSON answer that means nothing was found, e.g. not_found: ") + example);
        }
        ep.not_found = std::move(nf);
    }

    // Placeholders are checked first; then the only path variable a profile
    // knows is {id}, required where an entity is addressed, wrong where the
    // server has not assigned one yet.
    bool path_ok(const Val& v, const std::string& path, const Operation& op) {
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
            } else if (!op.needs_id) {
                r_.error(r_.mark_at(v, path, i), "the " + std::string(op.key) + " path cannot hold '{id}'",
                         std::string("it addresses the collection, e.g. /v1/products; ") +
                             (std::string_view(op.key) == "create"
                                  ? "the server assigns the id (a client-supplied id is 'put')"
                                  : "entities are addressed by read, update and delete"));
                ok = false;
            } else {
                has_id = true;
            }
            i = close;
        }
        if (ok && op.needs_id && !has_id) {
            r_.error(v, "the " + std::string(op.key) + " path '" + path + "' has no '{id}'",
                     "write where the entity's id goes, e.g. path: \"/v1/products/{id}\"");
            ok = false;
        }
        return ok;
    }

    // A JSON pointer to a member of the entity: valid and not the whole body.
    bool member_pointer(const Val& v, const std::string& pointer, std::string_view what, std::string_view example) {
        if (!r_.check_pointer_at(v, pointer)) return false;
        if (!pointer.empty()) return true;
        r_.error(v, "empty JSON pointer for '" + std::string(what) + "'",
                 "'' is the whole entity; point at its member, e.g. " + std::string(what) + ": " +
                     std::string(example));
        return false;
    }

    // A plain path with {id}, e.g. read: "/v1/jobs/{id}".
    std::optional<std::string> id_path(const Val& v, std::string_view what) {
        auto s = r_.string(v, what, "\"/v1/jobs/{id}\"");
        if (!s || !path_ok(v, *s, read_path_op)) return std::nullopt;
        return s;
    }

    std::optional<RelatedId> job(const Val& v) {
        const char* const example = "{at: /job_id, read: \"/v1/jobs/{id}\"}";
        auto m = r_.mapping(v, "job", job_keys, example);
        if (!m) return std::nullopt;
        const std::size_t before = diags_->size();
        RelatedId j;
        j.pos = r_.pos(v);
        if (const auto* x = m->find("at")) {
            if (auto s = r_.string(x->val(), "at", "at: /job_id"); s && member_pointer(x->val(), *s, "at", "/job_id"))
                j.pointer = *s;
        } else {
            r_.error(v, "missing required key 'at' in job",
                     std::string("say where the create answer carries the job id, e.g. job: ") + example);
        }
        if (const auto* x = m->find("read")) {
            if (auto s = id_path(x->val(), "read")) j.read = *s;
        }
        if (diags_->size() != before) return std::nullopt;
        return j;
    }

    // A non-negative integer that fits `max`.
    std::optional<std::uint64_t> integer(const Val& v, std::string_view what, std::uint64_t max, std::string_view example,
                                         std::uint64_t min = 0) {
        const std::string& t = v.node.IsScalar() ? v.node.Scalar() : std::string();
        bool digits = v.node.IsScalar() && !t.empty() && t.size() <= 19 && detail::is_plain(v.node);
        for (char c : t) digits = digits && c >= '0' && c <= '9';
        if (!digits || std::stoull(t) > max || std::stoull(t) < min) {
            r_.error(v, "'" + std::string(what) + "' must be an integer from " + std::to_string(min) + " to " +
                            std::to_string(max),
                     "e.g. " + std::string(example));
            return std::nullopt;
        }
        return std::stoull(t);
    }

    std::optional<Legacy> legacy(const Val& v) {
        const char* const example =
            "{lookup: {path: \"/v1/staff/{id}\"}, ids: [17, 4242], entity_type: 500, salt_env: MY_LEGACY_SALT}";
        auto m = r_.mapping(v, "legacy", legacy_keys, example);
        if (!m) return std::nullopt;
        const std::size_t before = diags_->size();
        Legacy l;
        l.pos = r_.pos(v);
        if (const auto* x = m->find("layout")) layout(x->val(), l.layout);
        if (const auto* x = m->find("lookup")) {
            if (auto e = endpoint(x->val(), legacy_lookup_op)) l.lookup = std::move(*e);
        } else {
            r_.error(v, "missing required key 'lookup' in legacy",
                     "say where an entity is found by its legacy integer id ({id}), e.g. lookup: {path: "
                     "\"/v1/staff/{id}\"}");
        }
        const std::uint64_t id_max =
            l.layout.id_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << l.layout.id_bits) - 1;
        const std::uint64_t type_max =
            l.layout.type_bits >= 32 ? 0xffffffffu : (std::uint64_t{1} << l.layout.type_bits) - 1;
        if (const auto* x = m->find("ids")) {
            if (auto items = r_.sequence(x->val(), "ids", "ids: [17, 4242]")) {
                if (items->empty())
                    r_.error(x->val(), "no legacy ids", "list at least one legacy id the target knows, e.g. ids: [17]");
                for (const auto& item : *items)
                    if (auto n = integer(item, "ids", id_max, "ids: [17, 4242]")) l.ids.push_back(*n);
            }
        } else {
            r_.error(v, "missing required key 'ids' in legacy",
                     "list legacy integer ids the target has migrated, e.g. ids: [17, 4242]");
        }
        if (const auto* x = m->find("entity_type")) {
            if (auto n = integer(x->val(), "entity_type", type_max, "entity_type: 500"))
                l.entity_type = static_cast<std::uint32_t>(*n);
        } else {
            r_.error(v, "missing required key 'entity_type' in legacy",
                     "give the entity type the target's ids carry, e.g. entity_type: 500 (staff)");
        }
        if (const auto* x = m->find("salt_env")) {
            if (auto s = r_.string(x->val(), "salt_env", "salt_env: MY_LEGACY_SALT")) {
                if (!env_name_ok(*s))
                    r_.error(x->val(), "'" + *s + "' is not an environment variable name",
                             "name the variable that holds the salt (never the salt itself), e.g. salt_env: MY_LEGACY_SALT");
                else
                    l.salt_env = *s;
            }
        }
        if (diags_->size() != before) return std::nullopt;
        return l;
    }

    // {flag: 0, id: {offset: 1, bits: 32}, ...}; fields left out keep the seed's layout.
    void layout(const Val& v, ids::LegacyLayout& l) {
        const char* const example = "{flag: 0, id: {offset: 1, bits: 32}, type: {offset: 33, bits: 15}}";
        auto m = r_.mapping(v, "layout", layout_keys, example);
        if (!m) return;
        const std::size_t before = diags_->size();
        if (const auto* x = m->find("flag"))
            if (auto n = integer(x->val(), "flag", 127, "flag: 0")) l.flag_bit = static_cast<int>(*n);
        struct Slot { const char* key; int* offset; int* bits; };
        const Slot slots[] = {{"id", &l.id_offset, &l.id_bits},
                              {"type", &l.type_offset, &l.type_bits},
                              {"hash1", &l.hash1_offset, &l.hash1_bits},
                              {"hash2", &l.hash2_offset, &l.hash2_bits}};
        for (const auto& slot : slots) {
            const auto* x = m->find(slot.key);
            if (!x) continue;
            auto fm = r_.mapping(x->val(), slot.key, bit_field_keys, "{offset: 1, bits: 32}");
            if (!fm) continue;
            if (const auto* y = fm->find("offset"))
                if (auto n = integer(y->val(), "offset", 127, "offset: 1")) *slot.offset = static_cast<int>(*n);
            if (const auto* y = fm->find("bits"))
                if (auto n = integer(y->val(), "bits", 64, "bits: 32")) *slot.bits = static_cast<int>(*n);
        }
        if (diags_->size() != before) return;
        if (std::string why = l.validate(); !why.empty())
            r_.error(v, "bad legacy layout: " + why,
                     "bits count from 0 (the top bit of the first byte); the version (48-51) and variant (64-65) "
                     "bits are fixed, and no two fields may overlap");
    }

    std::optional<Viewable> viewable(const Val& v) {
        const char* const example = "{at: /viewable_id, read: \"/v1/products/by-viewable/{id}\"}";
        auto m = r_.mapping(v, "viewable", viewable_keys, example);
        if (!m) return std::nullopt;
        const std::size_t before = diags_->size();
        Viewable w;
        w.pos = r_.pos(v);
        if (const auto* x = m->find("at")) {
            if (auto s = r_.string(x->val(), "at", "at: /viewable_id"); s && member_pointer(x->val(), *s, "at", "/viewable_id"))
                w.pointer = *s;
        }
        if (const auto* x = m->find("read")) {
            if (auto s = id_path(x->val(), "read")) w.read = *s;
        }
        if (const auto* x = m->find("prefix")) {
            if (auto s = r_.string(x->val(), "prefix", "prefix: \"TR-\"")) {
                if (s->empty() || s->back() != '-' || s->find_first_of(" /?#%{}") != std::string::npos)
                    r_.error(x->val(), "the viewable prefix '" + *s + "' does not end with '-'",
                             "a prefix is ASCII text ending in '-', e.g. prefix: \"TR-\"");
                else
                    w.prefix = *s;
            }
        }
        if (const auto* x = m->find("length")) {
            if (auto n = integer(x->val(), "length", 12, "length: 7", 1)) w.length = static_cast<std::size_t>(*n);
        }
        w.format = ids::viewable_pattern(ids::ViewableFormat{w.prefix, w.length});
        if (const auto* x = m->find("format")) {
            if (auto s = r_.string(x->val(), "format", "format: \"^TR-[0-9A-HJKMNP-TV-Z]{7}$\"")) {
                RE2 re(*s, RE2::Quiet);
                if (!re.ok())
                    r_.error(x->val(), "bad regular expression '" + *s + "': " + re.error(),
                             "the format is an RE2 pattern matching a whole viewable id, e.g. ^TR-[0-9A-HJKMNP-TV-Z]{7}$");
                else
                    w.format = *s;
            }
        }
        if (diags_->size() != before) return std::nullopt;
        return w;
    }

    bool kind_ok(const Val& v, const std::string& kind) {
        const auto& kinds = detail::id_kinds();
        if (kind == "existing" || std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) return true;
        std::vector<std::string> all = kinds;
        all.push_back("existing");
        r_.error(v, "unknown id kind '" + kind + "'",
                 detail::suggest(kind, all, "kinds") +
                     "; an id that kept a format from before the UUID rules (integers, nanoid) is kind: existing");
        return false;
    }

    // `/id` (shorthand) or {at: /id, kind: uuidv7}; `at` defaults to `default_at`.
    std::optional<IdField> id_field(const Val& v, std::string_view what, const std::string& default_at) {
        IdField f;
        f.pos = r_.pos(v);
        f.pointer = default_at;
        const std::string example = std::string(what) == "id" ? "{at: /id, kind: uuidv7}" : "{kind: uuidv4}";
        if (v.node.IsScalar()) {
            auto s = r_.string(v, what, example);
            if (!s || !member_pointer(v, *s, "at", "/id")) return std::nullopt;
            f.pointer = *s;
            return f;
        }
        if (v.node.IsNull()) return f;  // `tracking_id:` alone: every default
        if (!v.node.IsMap()) {
            r_.error(v, "expected a JSON pointer or a mapping here, found " + detail::kind_name(v.node),
                     "'" + std::string(what) + "' takes the id's place and kind, e.g. " + example);
            return std::nullopt;
        }
        auto m = r_.mapping(v, what, id_keys, example);
        if (!m) return std::nullopt;
        bool ok = true;
        if (const auto* x = m->find("at")) {
            if (auto s = r_.string(x->val(), "at", "at: /id"); s && member_pointer(x->val(), *s, "at", "/id"))
                f.pointer = *s;
            else
                ok = false;
        }
        if (const auto* x = m->find("kind")) {
            if (auto s = r_.string(x->val(), "kind", "kind: uuidv7"); s && kind_ok(x->val(), *s))
                f.kind = *s;
            else
                ok = false;
        }
        if (const auto* x = m->find("pattern")) {
            if (auto s = r_.string(x->val(), "pattern", "pattern: \"^[0-9]+$\"")) {
                const RE2 re(*s, RE2::Quiet);
                if (f.kind != "existing") {
                    r_.error(x->key_val(), "'pattern' is for ids of kind existing, not " + f.kind,
                             "a UUID or ULID kind has its own form; write kind: existing for an id that kept a "
                             "format from before the UUID rules");
                    ok = false;
                } else if (!re.ok()) {
                    r_.error(x->val(), "bad regular expression '" + *s + "': " + re.error(),
                             "the pattern is an RE2 expression matching a whole id, e.g. ^[0-9]+$");
                    ok = false;
                } else {
                    f.pattern = *s;
                }
            } else {
                ok = false;
            }
        }
        if (!ok) return std::nullopt;
        return f;
    }

    void fields(const Val& v, Resource& res) {
        auto m = r_.mapping(v, "fields", {}, "{tracking_id: {at: /tracking_id, kind: uuidv4}}");
        if (!m) return;
        for (const auto& entry : m->entries) {
            auto f = id_field(entry.val(), entry.key, pointer_to(entry.key));
            if (!f) continue;
            f->pos = r_.pos(entry.key_val());
            if (f->pointer == res.id.pointer) {
                r_.error(entry.key_val(), "field '" + entry.key + "' is the entity's own id (" + f->pointer + ")",
                         "the own id is described by 'id:'; 'fields' lists the entity's other id fields");
                continue;
            }
            res.fields.push_back(std::move(*f));
        }
    }

    void references(const Val& v, Resource& res) {
        const char* const example = "{category_id: {resource: categories, required: true}}";
        auto m = r_.mapping(v, "references", {}, example);
        if (!m) return;
        for (const auto& entry : m->entries) {
            auto rm = r_.mapping(entry.val(), "reference", reference_keys, "{resource: categories, required: true}");
            if (!rm) continue;
            Reference ref;
            ref.field = entry.key;
            ref.pos = r_.pos(entry.key_val());
            bool ok = true;
            YAML::Mark at = entry.val().mark;
            if (const auto* x = rm->find("resource")) {
                if (auto s = r_.string(x->val(), "resource", "resource: categories")) {
                    ref.resource = *s;
                    at = x->val().mark;
                } else {
                    ok = false;
                }
            } else {
                r_.error(entry.val(), "missing required key 'resource' in reference",
                         "name the resource the field points to, e.g. " + entry.key + ": " + example + "");
                ok = false;
            }
            if (const auto* x = rm->find("required")) {
                if (auto b = r_.boolean(x->val(), "required"))
                    ref.required = *b;
                else
                    ok = false;
            }
            if (const auto* x = rm->find("kind")) {
                if (auto s = r_.string(x->val(), "kind", "kind: uuidv7"); s && kind_ok(x->val(), *s)) {
                    ref.kind = *s;
                    ref.kind_written = true;
                } else {
                    ok = false;
                }
            }
            if (!ok) continue;
            sites_.push_back(ReferenceSite{res.name, ref.field, ref.resource, ref.required, at});
            res.references.push_back(std::move(ref));
        }
    }

    // ---------------------------------------------------- cross references

    // Every reference names a resource of the profile; a required one must
    // be creatable first, so it needs a create and cannot close a loop.
    void check_references(const Profile& p) {
        const auto index_of = [&](const std::string& name) -> std::optional<std::size_t> {
            for (std::size_t i = 0; i < p.resources.size(); ++i)
                if (p.resources[i].name == name) return i;
            return std::nullopt;
        };
        // Required edges between distinct resources that loaded, in file order.
        // References of a resource that failed to load are still checked for
        // what needs no loaded resource: the name and self-reference.
        std::vector<std::vector<const ReferenceSite*>> edges(p.resources.size());
        for (const auto& site : sites_) {
            const bool written = std::find(written_names_.begin(), written_names_.end(), site.resource) !=
                                 written_names_.end();
            if (!written) {
                r_.error(site.at, "unknown resource '" + site.resource + "' in reference '" + site.field + "'",
                         detail::suggest(site.resource, written_names_, "resources of the profile"));
                continue;
            }
            if (!site.required) continue;
            if (site.resource == site.from) {
                r_.error(site.at, "resource '" + site.from + "' requires itself through '" + site.field + "'",
                         "no first '" + site.from + "' could ever be created; make the reference required: false");
                continue;
            }
            const auto from = index_of(site.from);
            const auto to = index_of(site.resource);
            if (!from || !to) continue;  // a resource that failed to load was reported already
            if (!p.resources[*to].create) {
                r_.error(site.at, "required reference '" + site.field + "' points to '" + site.resource +
                                      "', which has no 'create'",
                         "the harness creates the referenced entity first; add create: to '" + site.resource +
                             "' or make the reference required: false");
                continue;
            }
            edges[*from].push_back(&site);
        }
        // Depth-first search; a reference back into the current chain closes
        // a cycle and is reported once, at that reference.
        enum class Mark { unseen, active, done };
        std::vector<Mark> marks(p.resources.size(), Mark::unseen);
        std::vector<std::size_t> chain;
        const auto visit = [&](const auto& self, std::size_t node) -> void {
            marks[node] = Mark::active;
            chain.push_back(node);
            for (const ReferenceSite* site : edges[node]) {
                const std::size_t to = *index_of(site->resource);
                if (marks[to] == Mark::active) {
                    std::string loop;
                    const auto start = std::find(chain.begin(), chain.end(), to);
                    for (auto it = start; it != chain.end(); ++it) loop += p.resources[*it].name + " -> ";
                    loop += p.resources[to].name;
                    r_.error(site->at, "required references form a cycle: " + loop,
                             "none of these resources can be created first; make one of the references (e.g. '" +
                                 site->field + "' here) required: false");
                } else if (marks[to] == Mark::unseen) {
                    self(self, to);
                }
            }
            chain.pop_back();
            marks[node] = Mark::done;
        };
        for (std::size_t i = 0; i < p.resources.size(); ++i)
            if (marks[i] == Mark::unseen) visit(visit, i);
    }
};

}  // namespace

const std::vector<std::string>& known_packs() {
    static const std::vector<std::string> packs = {"data-id", "nil-max", "db-identifiers", "uuidv8-legacy",
                                                   "viewable-id"};
    return packs;
}

bool pack_applies(const std::string& pack, const Resource& r) {
    // `existing` ids keep their format (DATA-ID-001's exception): every other
    // rule of data-id and nil-max still applies to them.
    const bool uuid_keyed =
        (r.id.kind.rfind("uuid", 0) == 0 && r.id.kind != "uuidv8-legacy") || r.id.kind == "existing";
    if (pack == "data-id" || pack == "nil-max") return r.create && uuid_keyed;
    if (pack == "db-identifiers") return r.create && r.id.kind == "ulid";
    if (pack == "uuidv8-legacy") return r.legacy.has_value();
    if (pack == "viewable-id") return r.create && r.viewable.has_value();
    return r.create.has_value();
}

LoadResult load_profile_text(const std::string& text, const std::string& path) {
    LoadResult out;
    const SourceText src = SourceText::from(path, text);
    try {
        Loader loader(src, out.diagnostics);
        auto profile = loader.load(text);
        if (out.diagnostics.empty() && profile) out.profile = std::move(*profile);
    } catch (const std::exception& e) {
        // yaml-cpp or the allocator; never let it cross the component boundary.
        out.profile.reset();
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0},
                                             std::string("internal error while loading: ") + e.what(),
                                             "please report this with the profile", {}});
    }
    return out;
}

LoadResult load_profile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        LoadResult out;
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0}, "'" + path + "' is a directory, not a profile",
                                             "pass the profile's .yaml file, e.g. examples/products.target.yaml", {}});
        return out;
    }
    auto text = detail::read_input_file(path, "profile");
    if (!text.text) {
        LoadResult out;
        out.diagnostics.push_back(std::move(text.error));
        return out;
    }
    return load_profile_text(*text.text, path);
}

}  // namespace idconform::profile
