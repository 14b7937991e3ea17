// The profile loader, a resource's `grpc:` section: its operations as unary
// gRPC methods (the method name parsed by core/grpc_method.hpp).
#include "profile/load_impl.hpp"

#include "core/grpc_method.hpp"

namespace idconform::profile::loading {

namespace {

// The entity operations (lookup and action are HTTP-only).
const std::vector<std::string> grpc_op_keys = {"create", "read", "update", "delete", "list", "put"};

}  // namespace

// `grpc:` under a resource: its operations as unary methods.
std::optional<GrpcOps> Loader::grpc_ops(const Entry& e, const std::string& resource) {
    const char* const example =
        "{create: {method: shop.v1.Products/CreateProduct, body: {name: probe}}, "
        "read: {method: shop.v1.Products/GetProduct}}";
    auto m = r_.mapping(e.val(), "grpc", grpc_op_keys, example);
    if (!m) return std::nullopt;
    grpc_sites_.emplace_back(resource, e.key_val());
    GrpcOps ops;
    ops.pos = r_.pos(e.val());
    std::optional<GrpcEndpoint>* slots[] = {&ops.create, &ops.read, &ops.update, &ops.del, &ops.list, &ops.put};
    // The first entries of `operations` are the pack operations, in slot
    // order; lookup and action (HTTP only) follow and have no gRPC slot.
    for (std::size_t i = 0; i < std::size(slots); ++i)
        if (const auto* x = m->find(operations[i].key)) *slots[i] = grpc_endpoint(x->val(), operations[i]);
    return ops;
}

std::optional<GrpcEndpoint> Loader::grpc_endpoint(const Val& v, const Operation& op) {
    std::vector<std::string> keys = {"method"};
    if (op.has_body) keys.emplace_back("body");
    if (op.needs_id) keys.emplace_back("id_field");
    if (op.has_items) keys.emplace_back("items");
    const std::string example = std::string("{method: shop.v1.Products/") +
                                (op.key[0] == 'd'   ? "Delete"
                                 : op.key[0] == 'c' ? "Create"
                                 : op.key[0] == 'r' ? "Get"
                                 : op.key[0] == 'u' ? "Update"
                                 : op.key[0] == 'l' ? "List"
                                                    : "Put") +
                                "Product}";
    auto m = r_.mapping(v, op.key, keys, example);
    if (!m) return std::nullopt;
    GrpcEndpoint ep;
    ep.pos = r_.pos(v);
    if (const auto* x = m->find("method")) {
        if (auto s = r_.string(x->val(), "method", "method: shop.v1.Products/GetProduct")) {
            if (!grpc_method::parse(*s))
                r_.error(x->val(), "'" + *s + "' is not a gRPC method name",
                         "write package.Service/Method, e.g. method: shop.v1.Products/GetProduct");
            else ep.method = *s;
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
        else if (auto j = r_.json(bv, true)) ep.body = std::move(*j);
    }
    if (const auto* x = m->find("id_field")) {
        if (auto s = r_.string(x->val(), "id_field", "id_field: /id");
            s && member_pointer(x->val(), *s, "id_field", "/id"))
            ep.id_field = *s;
    }
    if (const auto* x = m->find("items")) {
        if (auto s = r_.string(x->val(), "items", "items: /products"); s && r_.check_pointer_at(x->val(), *s))
            ep.items = *s;
    }
    return ep;
}

}  // namespace idconform::profile::loading
