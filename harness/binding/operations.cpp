// A pack's call step bound to the request its resource declares.
#include "binding/operations.hpp"

namespace idconform::binding {

namespace json = boost::json;

namespace {

suite::HttpRequest http_request(const Operation& o, const suite::OpCall& c) {
    suite::HttpRequest h;
    h.pos = c.pos;
    h.method = o.method;
    h.path = o.path;
    h.principal = c.principal;
    h.headers = o.headers;
    if (!c.id.empty() && !o.param.empty()) h.query.emplace_back(o.param, c.id);  // a lookup: ?id=...
    else if (!c.id.empty()) h.path_params = {{"id", c.id}};
    // A read, update or delete that addresses the entity by its id in a
    // JSON body (POST /v1/orders:get {"id": ...}), or a put with a
    // client-chosen id sent to the collection: the id goes in the body
    // (before the pack's own edits, which may move it).
    const bool id_in_body = !o.id_at.empty() && !c.id.empty() && suite::traits(c.op).needs_id;
    if (id_in_body) h.set.emplace_back(o.id_at, json::value(c.id));
    for (const auto& [field, value] : c.filter) h.query.push_back(spell_filter(o.filter, field, value));
    if (suite::traits(c.op).has_body) {
        h.json = c.json ? *c.json : o.body.value_or(json::object());
        for (const auto& kv : c.set) h.set.push_back(kv);
        h.unset = c.unset;
    } else if (id_in_body) {
        h.json = o.body.value_or(json::object());
    }
    return h;
}

suite::GrpcCall grpc_call(const Operation& o, const suite::OpCall& c) {
    suite::GrpcCall g;
    g.pos = c.pos;
    g.method = o.method;
    g.principal = c.principal;
    const bool has_body = suite::traits(c.op).has_body;
    g.message = has_body ? (c.json ? *c.json : o.body.value_or(json::object())) : json::value(json::object());
    if (!c.id.empty()) g.set.emplace_back(o.id_at, json::value(c.id));
    for (const auto& [k, v] : c.filter) g.set.emplace_back("/" + k, json::value(v));
    if (has_body) {
        for (const auto& kv : c.set) g.set.push_back(kv);
        g.unset = c.unset;
    }
    return g;
}

}  // namespace

const Operation* bind(const Resource& r, suite::Step& st, StepBinding& b) {
    if (!st.is<suite::OpCall>()) return nullptr;
    const suite::OpCall& c = st.as<suite::OpCall>();
    const Operation* o = r.find(c.op);
    if (!o) return nullptr;
    if (o->not_found && st.expect.status && suite::is_refusal(*st.expect.status))
        st.expect.status->not_found = o->not_found;
    if (o->makes && !st.cleanup) {
        st.cleanup = written_form(*o->makes);
        b.deletion = o->makes;
    }
    const suite::Operation op = c.op;
    if (r.wire == Wire::grpc) {
        suite::GrpcCall g = grpc_call(*o, c);
        if (st.name.empty()) st.name = "grpc " + g.method;
        st.request = std::move(g);  // `c` dies here
    } else {
        suite::HttpRequest h = http_request(*o, c);
        b.access = o->access;
        if (st.name.empty()) st.name = h.method + " " + h.path;
        st.request = std::move(h);  // `c` dies here
        adapt_expectations(r.id, op, st);
    }
    return o;
}

BoundSteps bind_calls(suite::Suite& s) {
    BoundSteps out;
    if (!s.binding) return out;
    const SuiteBinding& b = *s.binding;
    auto bind_all = [&](std::vector<suite::Step>& steps) {
        for (auto& st : steps) {
            if (!st.is<suite::OpCall>()) continue;
            StepBinding sb;
            bind(st.as<suite::OpCall>().via_other ? b.other : b.own, st, sb);
            out.add(st, std::move(sb));
        }
    };
    bind_all(s.setup);
    for (auto& c : s.cases) bind_all(c.steps);
    bind_all(s.teardown);
    for (const auto& [i, deletion] : b.setup_creates)
        if (i < s.setup.size() && s.setup[i].cleanup) out.add(s.setup[i], {nullptr, deletion});
    return out;
}

Bound with_calls_bound(const suite::Suite& s, std::optional<BoundSuite>& storage) {
    static const BoundSteps none;
    if (!s.binding) return {s, none};
    storage.emplace(s);
    return {storage->suite, storage->steps};
}

std::pair<std::string, std::string> spell_filter(const std::string& form, const std::string& field,
                                                 const std::string& value) {
    auto fill = [&](std::string t) {
        for (auto at = t.find("{field}"); at != std::string::npos; at = t.find("{field}", at + field.size()))
            t.replace(at, 7, field);
        for (auto at = t.find("{value}"); at != std::string::npos; at = t.find("{value}", at + value.size()))
            t.replace(at, 7, value);
        return t;
    };
    if (form.empty()) return {field, value};
    const auto eq = form.find('=');
    return {fill(form.substr(0, eq)), fill(form.substr(eq + 1))};
}

}  // namespace idconform::binding
