// The expander's half of the resource bindings (binding/operations.hpp,
// binding/deletion.hpp): a resource's operations and its deletion over one
// transport, built once from the profile's endpoints, which the suite holds
// and binds its calls through when it runs.
#include "profile/expand_impl.hpp"

#include "binding/operations.hpp"
#include "profile/expand_answer_forms.hpp"

namespace idconform::profile::expansion {

namespace json = boost::json;

std::shared_ptr<const binding::Deletion> Instance::deletion_of(const Resource& r) const {
    auto [it, fresh] = deletions_.try_emplace({r.name, false});
    if (fresh) {
        binding::Deletion d = plain_cleanup(r);
        add_made(r, d);
        it->second = std::make_shared<const binding::Deletion>(std::move(d));
    }
    return it->second;
}

void Instance::add_made(const Resource& r, binding::Deletion& d) const {
    for (const auto& m : p_.resources) {
        if (!m.made_by || m.made_by->resource != r.name) continue;
        binding::Deletion made = plain_cleanup(m);
        made.id_at = m.made_by->at;  // in the creator's answer
        made.id_header.clear();
        made.at_location = false;
        made.resource.clear();  // the creator's Location is not its
        made.create_only_headers = d.create_only_headers;  // made by the creator's request
        d.made.push_back(std::move(made));
    }
}

binding::Deletion Instance::plain_cleanup(const Resource& r) {
    binding::Deletion cl;
    cl.id_at = r.id.pointer;
    // A failed delete is confirmed by the resource's read, whose 2xx
    // "nothing there" (not_found: 200 []) says gone as a 404 does.
    if (r.read) {
        cl.read_path = r.read->path;
        cl.read_method = r.read->method;
        cl.read_body_id_at = r.read->id_at;  // a read by its id in a JSON body
        cl.read_body = r.read->body;
        if (r.read->not_found) cl.read_not_found = *r.read->not_found;
        cl.read_headers = r.read->headers;
    }
    // What only the creating operations send (a Prefer, an Idempotency-Key)
    // is not sent with the delete and its read; the delete's own headers are.
    for (const auto* maker : {&r.create, &r.put})
        if (*maker)
            for (const auto& h : (*maker)->headers) cl.create_only_headers.push_back(h.first);
    if (r.del) {
        cl.pos = r.del->pos;
        cl.path = r.del->path;
        cl.method = r.del->method;
        cl.body_id_at = r.del->id_at;  // a delete by its id in a JSON body
        cl.body = r.del->body;
        cl.headers = r.del->headers;
    } else if (r.grpc && r.grpc->del) {
        // No HTTP delete, but a gRPC one: it deletes what HTTP made too (a
        // gRPC delete is taken at its word, no read confirms it).
        cl.pos = r.grpc->del->pos;
        cl.grpc_method = r.grpc->del->method;
        cl.grpc_id_field = r.grpc->del->id_field;
        cl.read_path.clear();
        cl.read_not_found.reset();
        cl.across = "made over HTTP with the gRPC method " + cl.grpc_method + ", as the profile declares no HTTP " +
                    "delete for '" + r.name + "' (" + r.grpc->del->pos.str() + ")";
    } else if (!r.cannot_delete.empty()) {
        cl.pos = r.cannot_delete_pos;
        cl.by_design = true;
        cl.impossible = "the profile says '" + r.name + "' cannot be deleted (" + r.cannot_delete + ", " +
                        r.cannot_delete_pos.str() + ")";
    } else {
        cl.pos = r.pos;
        cl.impossible = "the profile declares no delete operation for '" + r.name + "'";
    }
    answer_forms::adapt_cleanup(r, cl);
    return cl;
}

const std::optional<Endpoint>* Instance::endpoint(suite::Operation op) const {
    switch (op) {
        case suite::Operation::create: return &r_.create;
        case suite::Operation::read: return &r_.read;
        case suite::Operation::update: return &r_.update;
        case suite::Operation::del: return &r_.del;
        case suite::Operation::list: return &r_.list;
        case suite::Operation::put: return &r_.put;
        case suite::Operation::lookup: return &r_.lookup;
        case suite::Operation::action: return &r_.action;
        case suite::Operation::legacy_lookup: return &legacy_lookup_;
    }
    return nullptr;
}

const std::optional<GrpcEndpoint>* Instance::grpc_endpoint(suite::Operation op) const {
    if (!r_.grpc) return nullptr;
    const GrpcOps& g = *r_.grpc;
    switch (op) {
        case suite::Operation::create: return &g.create;
        case suite::Operation::read: return &g.read;
        case suite::Operation::update: return &g.update;
        case suite::Operation::del: return &g.del;
        case suite::Operation::list: return &g.list;
        case suite::Operation::put: return &g.put;
        case suite::Operation::lookup:
        case suite::Operation::action:
        case suite::Operation::legacy_lookup: return nullptr;  // HTTP only
    }
    return nullptr;
}

std::shared_ptr<const binding::Deletion> Instance::grpc_deletion_of(const Resource& r) const {
    auto [it, fresh] = deletions_.try_emplace({r.name, true});
    if (fresh) it->second = std::make_shared<const binding::Deletion>(grpc_deletion(r));
    return it->second;
}

binding::Deletion Instance::grpc_deletion(const Resource& r) const {
    binding::Deletion cl;
    cl.id_at = r.id.pointer;
    if (r.grpc && r.grpc->del) {
        cl.pos = r.grpc->del->pos;
        cl.grpc_method = r.grpc->del->method;
        cl.grpc_id_field = r.grpc->del->id_field;
    } else if (r.del) {
        // No gRPC delete, but an HTTP one: it deletes what gRPC made too,
        // the id read from the gRPC answer (no header, no Location there).
        cl = plain_cleanup(r);
        cl.id_at = r.id.pointer;
        cl.id_header.clear();
        cl.at_location = false;
        cl.across = "made over gRPC with the HTTP request " + cl.method + " " + cl.path +
                    ", as the profile declares no gRPC delete for '" + r.name + "' (" + r.del->pos.str() + ")";
    } else if (!r.cannot_delete.empty()) {
        cl = plain_cleanup(r);  // left behind by design, over either transport
        cl.read_path.clear();
        cl.read_not_found.reset();
    } else {
        cl.pos = r.pos;
        cl.impossible = "the profile declares no delete operation for '" + r.name + "', over gRPC or HTTP";
    }
    add_made(r, cl);
    return cl;
}

namespace {

// The binding's form of an HTTP endpoint: the body it sends, the Location
// and array reads of the answer forms.
binding::Operation http_operation(const Resource& r, suite::Operation op, const Endpoint& ep) {
    binding::Operation o;
    o.method = ep.method;
    o.path = ep.path;
    o.id_at = ep.id_at;
    o.filter = ep.filter;
    o.param = ep.param;
    o.headers = ep.headers;
    // (fresh client-chosen ids for what may create: create and put)
    const auto& t = suite::traits(op);
    o.body = t.has_body ? std::optional<json::value>(body_with_refs(r, ep.body, t.creates)) : ep.body;
    if (ep.not_found) o.not_found = *ep.not_found;
    o.access = answer_forms::access_of(r, op, ep);
    return o;
}

binding::Operation grpc_operation(const Resource& r, suite::Operation op, const GrpcEndpoint& ep) {
    binding::Operation o;
    o.method = ep.method;
    o.id_at = ep.id_field;
    if (suite::traits(op).has_body) o.body = body_with_refs(r, ep.body, suite::traits(op).creates);
    return o;
}

// What the form of R5.2 (`action`) makes has no delete in any profile: a
// 2xx of it is left behind by design, and the run's notes say so, never
// silently.
std::shared_ptr<const binding::Deletion> action_left_behind(const Resource& r, const Endpoint& action) {
    binding::Deletion d;
    d.pos = action.pos;
    d.id_at.clear();  // an action answers no id of its own; its Location, if any, names it
    d.by_design = true;
    d.impossible = "the profile gives no delete for what the action of '" + r.name + "' makes (" + action.path + ", " +
                   action.pos.str() + ")";
    return std::make_shared<const binding::Deletion>(std::move(d));
}

}  // namespace

const binding::Resource& Instance::binding_of(bool over_grpc) const {
    std::optional<binding::Resource>& b = bindings_[over_grpc ? 1 : 0];
    if (b) return *b;
    b.emplace();
    b->wire = over_grpc ? binding::Wire::grpc : binding::Wire::http;
    // What a create or a PUT that may create made is deleted as the
    // resource's Deletion says, shared by every such step.
    const std::shared_ptr<const binding::Deletion> created = over_grpc ? grpc_deletion_of(r_) : deletion_of(r_);
    if (!over_grpc) b->id = answer_forms::id_answer(r_);
    for (const auto& t : suite::operation_table) {
        if (over_grpc) {
            if (const auto* e = grpc_endpoint(t.op); e && *e) b->at(t.op) = grpc_operation(r_, t.op, **e);
        } else if (const auto* e = endpoint(t.op); e && *e) {
            b->at(t.op) = http_operation(r_, t.op, **e);
        }
        if (auto& o = b->at(t.op); o && t.creates) o->makes = created;
    }
    if (auto& action = b->at(suite::Operation::action)) action->makes = action_left_behind(r_, *r_.action);
    return *b;
}

}  // namespace idconform::profile::expansion
