// Expansion of a profile into pack suites: every pack suite is instantiated
// for every resource that can be created, with the resource's endpoints and
// id fields as `res.*` variables (the vocabulary is in docs/packs.md), and
// setup steps that create what its references point to.
#include "profile/profile.hpp"

#include "ids/of_kind.hpp"
#include "profile/expand_answer_forms.hpp"
#include "suite/loader.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace idconform::profile {

namespace json = boost::json;

namespace {

suite::StatusExpect::NotFound as_status_not_found(const NotFound& nf) {
    return suite::StatusExpect::NotFound{nf.status, nf.body, nf.at, nf.equals};
}

const Resource* find_resource(const Profile& p, const std::string& name) {
    for (const auto& r : p.resources)
        if (r.name == name) return &r;
    return nullptr;
}

// The create body of `r` with every required reference filled from the
// entity that setup creates for it.
json::value body_with_refs(const Resource& r, const std::optional<json::value>& body) {
    json::value b = body ? *body : json::value(json::object());
    if (!b.is_object()) b = json::object();
    for (const auto& ref : r.references)
        if (ref.required) b.as_object()[ref.field] = "${entity." + ref.resource + "}";
    return b;
}

class Instance {
public:
    // Why a variable is undefined for this resource, and the cause of the
    // skip of the cases that need it.
    struct Unset {
        std::string why;
        SkipCause cause = SkipCause::not_applicable;
    };

    // over_grpc: the instance runs the resource's gRPC operations (its
    // `grpc:` section) instead of its HTTP endpoints.
    Instance(const Profile& p, const Resource& r, const suite::Suite& pack, bool over_grpc = false)
        : p_(p), r_(r), s_(pack), over_grpc_(over_grpc) {}

    suite::Suite build() {
        s_.name = s_.name + " " + r_.name + (over_grpc_ ? " over grpc" : "");
        // One target model: the profile's target parts are the suite's types.
        if (p_.grpc) s_.target.grpc = *p_.grpc;
        s_.target.pos = p_.pos;
        s_.target.base_url = p_.base_url;
        s_.target.headers = p_.headers;
        static_cast<suite::TargetTls&>(s_.target) = p_;
        static_cast<suite::TargetTimeouts&>(s_.target) = p_;
        s_.principals.clear();
        const char* roles[] = {"owner", "other"};
        // Keyed by role; each keeps the name the profile gives it, which the
        // errors about its credential use ("principal 'alice' (the owner)").
        for (std::size_t i = 0; i < p_.principals.size() && i < 2; ++i) s_.principals[roles[i]] = p_.principals[i];
        s_.refused = r_.refused.value_or(p_.refused);
        std::vector<suite::Variable> vars;
        resource_vars(vars);
        if (over_grpc_) grpc_vars(vars);
        if (p_.grpc && r_.grpc && r_.grpc->read && r_.read)
            var(vars, "res.other_read", json::value(over_grpc_ ? r_.read->path : r_.grpc->read->method), r_.grpc->pos);
        for (auto& v : s_.vars) vars.push_back(std::move(v));
        s_.vars = std::move(vars);
        legacy_ids();
        shared_reads();
        own_cleanups();
        fewest_creates();
        // Cases that need a variable this target cannot have are skipped
        // with the reason and what to do about it, in the profile's words:
        // what the API declares that rules the case out, or the key to add.
        std::set<std::string> defined;
        for (const auto& v : s_.vars) defined.insert(v.name);
        for (auto& c : s_.cases) {
            if (!c.skip.empty()) continue;
            for (const auto& need : c.needs) {
                if (auto it = unset_reasons_.find(need); it != unset_reasons_.end()) {
                    c.skip = it->second.why;
                    c.skip_cause = it->second.cause;
                    break;
                }
                if (defined.count(need) != 0 || need.rfind("env:", 0) == 0) continue;
                const Unset u = undescribed(need);
                c.skip = u.why;
                c.skip_cause = u.cause;
                break;
            }
        }
        std::vector<suite::Step> setup;
        for (const auto& ref : r_.references) ensure_created(ref.resource, setup);
        for (auto& st : s_.setup) setup.push_back(std::move(st));
        s_.setup = std::move(setup);
        if (r_.viewable)
            for (auto& c : s_.cases)
                if (c.for_each && c.for_each->source == suite::ForEach::Source::mutations) {
                    c.for_each->viewable_prefix = r_.viewable->prefix;
                    c.for_each->viewable_length = r_.viewable->length;
                }
        if (over_grpc_) drop_unsendable_vectors();
        else {
            answer_forms::add_read_backs(r_, s_.vars, s_);
            answer_forms::add_location_probe(r_, s_);
        }
        own_setup();
        declare_id_members();
        for (auto& st : s_.setup) bind(st);
        for (auto& c : s_.cases)
            for (auto& st : c.steps) bind(st);
        for (auto& st : s_.teardown) bind(st);
        if (!over_grpc_) answer_forms::skip_inapplicable(r_, s_);
        return std::move(s_);
    }

    // How the end of the suite deletes an entity of `r` that a step created;
    // without a delete operation the cleanup reports it as left behind.
    static suite::Cleanup cleanup_of(const Resource& r) {
        suite::Cleanup cl;
        cl.id_at = r.id.pointer;
        // A failed delete is confirmed by the resource's read, whose 2xx
        // "nothing there" (not_found: 200 []) says gone as a 404 does.
        if (r.read) {
            cl.read_path = r.read->path;
            cl.read_method = r.read->method;
            cl.read_body_id_at = r.read->id_at;  // a read by its id in a JSON body
            cl.read_body = r.read->body;
            if (r.read->not_found)
                cl.read_not_found = as_status_not_found(*r.read->not_found);
        }
        if (r.del) {
            cl.pos = r.del->pos;
            cl.path = r.del->path;
            cl.method = r.del->method;
            cl.body_id_at = r.del->id_at;  // a delete by its id in a JSON body
            cl.body = r.del->body;
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

    const std::optional<Endpoint>* endpoint(suite::Operation op) const {
        switch (op) {
            case suite::Operation::create: return &r_.create;
            case suite::Operation::read: return &r_.read;
            case suite::Operation::update: return &r_.update;
            case suite::Operation::del: return &r_.del;
            case suite::Operation::list: return &r_.list;
            case suite::Operation::put: return &r_.put;
        }
        return nullptr;
    }

    const std::optional<GrpcEndpoint>* grpc_endpoint(suite::Operation op) const {
        if (!r_.grpc) return nullptr;
        const GrpcOps& g = *r_.grpc;
        switch (op) {
            case suite::Operation::create: return &g.create;
            case suite::Operation::read: return &g.read;
            case suite::Operation::update: return &g.update;
            case suite::Operation::del: return &g.del;
            case suite::Operation::list: return &g.list;
            case suite::Operation::put: return &g.put;
        }
        return nullptr;
    }

    // A gRPC message carries ids in string fields: a vector element that is
    // neither a string nor null (the number 0) cannot be sent at all, so the
    // gRPC instance leaves it out of its for_each (the schema already rules
    // out that spelling).
    void drop_unsendable_vectors() {
        for (auto& c : s_.cases) {
            if (!c.for_each || c.for_each->source != suite::ForEach::Source::vectors) continue;
            const auto set = s_.vector_sets.find(c.for_each->set);
            if (set == s_.vector_sets.end()) continue;
            for (const auto& v : set->second.vectors)
                if (!v.value.is_string() && !v.value.is_null()) c.for_each->except.push_back(v.name);
        }
    }

    // In an instance over gRPC the operation variables name the resource's
    // gRPC methods (so `requires: [res.update]` follows what gRPC offers),
    // and HTTP-only ones (Location) are gone.
    void grpc_vars(std::vector<suite::Variable>& vars) const {
        auto drop = [&](const std::string& name) {
            vars.erase(std::remove_if(vars.begin(), vars.end(), [&](const suite::Variable& v) { return v.name == name; }),
                       vars.end());
        };
        for (const auto& t : suite::operation_table) {
            const std::string op = t.name;
            for (const char* suffix : {"", "_method", "_body"}) drop("res." + op + suffix);
            if (const auto* e = grpc_endpoint(t.op); e && *e) {
                suite::Variable v;
                v.pos = (*e)->pos;
                v.name = "res." + op;
                v.value = json::value((*e)->method);
                vars.push_back(std::move(v));
            }
        }
        drop("res.list_items");
        if (r_.grpc->list) {
            suite::Variable v;
            v.pos = r_.grpc->list->pos;
            v.name = "res.list_items";
            v.value = json::value(r_.grpc->list->items);
            vars.push_back(std::move(v));
        }
        drop("res.location");
    }

    // The gRPC delete of an entity of `r`, or why there is none.
    static suite::Cleanup grpc_cleanup_of(const Resource& r) {
        suite::Cleanup cl;
        cl.id_at = r.id.pointer;
        if (r.grpc && r.grpc->del) {
            cl.pos = r.grpc->del->pos;
            cl.grpc_method = r.grpc->del->method;
            cl.grpc_id_field = r.grpc->del->id_field;
        } else if (!r.cannot_delete.empty()) {
            cl = cleanup_of(r);  // left behind by design, over either transport
            cl.read_path.clear();
            cl.read_not_found.reset();
        } else {
            cl.pos = r.pos;
            cl.impossible = "the profile declares no gRPC delete operation for '" + r.name + "'";
        }
        return cl;
    }

    // A call bound to a gRPC method: the message is the operation's body
    // (create/update/put) with the id written at its id field and list
    // filters as top-level fields.
    bool bind_grpc(suite::Step& st) const {
        const suite::OpCall& c = st.as<suite::OpCall>();
        const std::optional<GrpcEndpoint>* e = grpc_endpoint(c.op);
        if (!e || !*e) return false;
        const GrpcEndpoint& ep = **e;
        suite::GrpcCall g;
        g.pos = c.pos;
        g.method = ep.method;
        g.principal = c.principal;
        const bool has_body = suite::traits(c.op).has_body;
        g.message = has_body ? (c.json ? *c.json : body_with_refs(r_, ep.body)) : json::value(json::object());
        if (!c.id.empty()) g.set.emplace_back(ep.id_field, json::value(c.id));
        for (const auto& [k, v] : c.filter) g.set.emplace_back("/" + k, json::value(v));
        if (has_body) {
            for (const auto& kv : c.set) g.set.push_back(kv);
            g.unset = c.unset;
        }
        if (suite::traits(c.op).creates && !st.cleanup) st.cleanup = grpc_cleanup_of(r_);
        if (st.name.empty()) st.name = "grpc " + g.method;
        st.request = std::move(g);  // `c` dies here
        return true;
    }

    // Turns a pack's `call` step into the request the profile declares for
    // that operation of this resource: over the instance's transport, or the
    // other one for `via: other`. An operation the resource does not declare
    // stays a call: cases using it are guarded by `requires: [res.<op>]`, and
    // the runner reports one that is not.
    void bind(suite::Step& st) const {
        if (!st.is<suite::OpCall>()) return;
        const suite::OpCall& c = st.as<suite::OpCall>();
        if (over_grpc_ != c.via_other) {
            (void)bind_grpc(st);
            return;
        }
        const std::optional<Endpoint>* e = endpoint(c.op);
        if (!e || !*e) return;
        const Endpoint& ep = **e;
        suite::HttpRequest h;
        h.pos = c.pos;
        h.method = ep.method;
        h.path = ep.path;
        h.principal = c.principal;
        if (!c.id.empty()) h.path_params = {{"id", c.id}};
        // A create with a client-chosen id sent to the collection: the id
        // goes in the body (before the pack's own edits, which may move it).
        // A read, update or delete that addresses the entity by its id in a
        // JSON body (POST /v1/orders:get {"id": ...}) puts it there the same way.
        const bool id_in_body = !ep.id_at.empty() && !c.id.empty() &&
                                (c.op == suite::Operation::put || c.op == suite::Operation::read ||
                                 c.op == suite::Operation::update || c.op == suite::Operation::del);
        if (id_in_body) h.set.emplace_back(ep.id_at, json::value(c.id));
        for (const auto& [field, value] : c.filter) h.query.push_back(spell_filter(ep.filter, field, value));
        h.headers = ep.headers;
        if (ep.not_found && st.expect.status && suite::is_refusal(*st.expect.status))
            st.expect.status->not_found = as_status_not_found(*ep.not_found);
        const bool has_body = suite::traits(c.op).has_body;
        if (has_body) {
            h.json = c.json ? *c.json : body_with_refs(r_, ep.body);
            for (const auto& kv : c.set) h.set.push_back(kv);
            h.unset = c.unset;
        } else if (id_in_body) {
            h.json = ep.body ? *ep.body : json::value(json::object());
        }
        // Whatever a create (or a PUT that may create) made is deleted at the
        // end of the suite, whether or not the case expected it to succeed.
        if (suite::traits(c.op).creates && !st.cleanup) st.cleanup = cleanup_of(r_);
        answer_forms::adapt_call(r_, c.op, ep, st, h);
        if (st.name.empty()) st.name = h.method + " " + h.path;
        st.request = std::move(h);  // `c` dies here
    }

private:
    // A pack's filter (field, value) as the query the profile spells:
    // "{field}=eq.{value}" gives ("category_id", "eq.<value>").
    static std::pair<std::string, std::string> spell_filter(const std::string& form, const std::string& field,
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

    // A setup step that fails is a failure of the suite's rule (not "no
    // rule"), positioned at the profile line that declared the endpoint the
    // step used: that is what the user can change, not a line of a pack file.
    void own_setup() {
        std::string rule;
        for (const auto& c : s_.cases)
            if (!c.rules.empty()) {
                rule = c.rules.front();
                break;
            }
        for (auto& st : s_.setup) {
            if (st.expect.rule.empty()) st.expect.rule = rule;
            if (!st.is<suite::OpCall>() || over_grpc_ != st.as<suite::OpCall>().via_other) continue;
            suite::OpCall& c = st.as<suite::OpCall>();
            const std::optional<Endpoint>* e = endpoint(c.op);
            if (!e || !*e) continue;
            const SourcePos at = (*e)->pos;
            st.pos = at;
            c.pos = at;  // the bound request's position
            st.expect.pos = at;
            if (st.expect.status) st.expect.status->pos = at;
            for (auto& id : st.expect.ids) id.pos = at;
            for (auto& cap : st.captures) cap.pos = at;
        }
    }

    // The id fields the profile declares for this resource, for the checks
    // that hold every id-named member to one kind (R1): a declared field is
    // judged by its declared kind (a viewable id beside ULID keys is not R1's).
    void declare_id_members() {
        auto name = [](ids::IdKind k) { return std::string(ids::kind_name(k)); };
        std::vector<std::pair<std::string, std::string>> declared{{r_.id.pointer, name(r_.id.kind)}};
        if (!r_.id.create_pointer.empty()) declared.emplace_back(r_.id.create_pointer, name(r_.id.kind));
        for (const auto& f : r_.fields) declared.emplace_back(f.pointer, name(f.kind));
        for (const auto& ref : r_.references) declared.emplace_back(ref.answer_at(), name(ref.kind));
        if (r_.viewable) declared.emplace_back(r_.viewable->pointer, name(ids::IdKind::viewable));
        auto fill = [&](std::vector<suite::Step>& steps) {
            for (auto& st : steps)
                if (!st.expect.id_members.empty() && st.expect.id_members_declared.empty())
                    st.expect.id_members_declared = declared;
        };
        fill(s_.setup);
        for (auto& c : s_.cases) fill(c.steps);
        fill(s_.teardown);
    }

    // Why a pack variable `need` is not defined for this resource, in the
    // profile's words: the key to add ("add `update:` to resource
    // `orders`"), or what the profile declares that rules the case out. The
    // names are those of resource_vars, kind_vars, pack_vars and grpc_vars.
    Unset undescribed(const std::string& need) const {
        const std::string res = "resource `" + r_.name + "`";
        const std::string grpc_res = "the `grpc:` section of " + res;
        auto add = [](const std::string& what, const std::string& where) {
            return Unset{"not described in the profile: add " + what + " to " + where, SkipCause::not_described};
        };
        auto not_applicable = [](const std::string& why) { return Unset{"not applicable: " + why}; };
        if (need == "other_principal")
            return {
                "not described in the profile: add a second principal to `principals:` (the checks between two "
                "users need one)",
                SkipCause::not_described};
        const std::string v = need.rfind("res.", 0) == 0 ? need.substr(4) : need;
        auto is = [&](const std::string& base, std::initializer_list<const char*> suffixes = {}) {
            if (v == base) return true;
            for (const char* x : suffixes)
                if (v == base + x) return true;
            return false;
        };
        for (const auto& t : suite::operation_table) {
            const std::string op = t.name;
            if (is(op, {"_method", "_body", "_items", "_filter"}))
                return add("`" + op + ":`", over_grpc_ ? grpc_res : res);
        }
        if (is("location")) {
            if (over_grpc_) return not_applicable("a gRPC create answers no Location header");
            return not_applicable("the profile says the create answer of '" + r_.name +
                                  "' names no Location (`location: false`)");
        }
        if (is("singleton"))
            return not_applicable("'" + r_.name + "' is a collection, not a singleton (`singleton: true`)");
        if (is("other_read")) {
            if (!p_.grpc)
                return not_applicable("the profile declares no gRPC target (`grpc:`), so there is no second transport");
            if (!r_.grpc) return add("a `grpc:` section with `read:`", res);
            if (!r_.grpc->read) return add("`read:`", grpc_res);
            return add("`read:`", res);
        }
        if (is("required_ref", {"_kind", "_value", "_v7", "_at"}))
            return add("a reference with `required: true`", "`references:` of " + res);
        if (is("optional_ref", {"_kind", "_value", "_v7", "_at"}))
            return add("an optional reference (without `required: true`)", "`references:` of " + res);
        if (is("v4_field")) return add("an id field of kind uuidv4", "`fields:` of " + res);
        if (is("time_field")) return add("`time_field:`", res);
        if (is("id_pattern")) return add("`pattern:`", "`id:` of " + res);
        if (is("lookup", {"_param"})) return add("`lookup:`", res);
        if (is("action", {"_method", "_body", "_id_at"})) return add("`action:`", res);
        if (is("job_at")) return add("`job:`", res);
        if (is("job_read")) return r_.job ? add("`read:`", "`job:` of " + res) : add("`job:` with `read:`", res);
        if (is("request_id")) return add("`request_id:`", "the profile's top level");
        if (v.rfind("legacy_", 0) == 0) return add("`legacy:`", res);
        if (is("viewable_read"))
            return r_.viewable ? add("`read:`", "`viewable:` of " + res) : add("`viewable:` with `read:`", res);
        if (v.rfind("viewable_", 0) == 0) return add("`viewable:`", res);
        return {"not described in the profile: nothing it says gives this pack's `" + need + "` for " + res,
                SkipCause::not_described};
    }

    void var(std::vector<suite::Variable>& out, const std::string& name, json::value v, SourcePos pos,
             bool deferred = false) {
        suite::Variable x;
        x.pos = std::move(pos);
        x.name = name;
        x.value = std::move(v);
        x.deferred = deferred;
        out.push_back(std::move(x));
    }

    void endpoint_vars(std::vector<suite::Variable>& out, const char* op, const std::optional<Endpoint>& e,
                       bool with_body) {
        if (!e) return;
        const std::string base = std::string("res.") + op;
        var(out, base, json::value(e->path), e->pos);
        var(out, base + "_method", json::value(e->method), e->pos);
        if (with_body) var(out, base + "_body", body_with_refs(r_, e->body), e->pos, true);
    }

    void resource_vars(std::vector<suite::Variable>& out) {
        var(out, "res.name", json::value(r_.name), r_.pos);
        for (const auto& t : suite::operation_table)
            if (!t.has_items) endpoint_vars(out, t.name, *endpoint(t.op), t.has_body);  // list: below
        if (r_.list) {
            var(out, "res.list", json::value(r_.list->path), r_.list->pos);
            var(out, "res.list_items", json::value(r_.list->items), r_.list->pos);
            if (!r_.list->filter.empty()) var(out, "res.list_filter", json::value(r_.list->filter), r_.list->pos);
            else
                unset_reasons_["res.list_filter"].why = "not applicable: the profile says the list of '" + r_.name +
                                                        "' (" + r_.list->pos.str() +
                                                        ") takes no filter (filter: false)";
        }
        var(out, "res.id_at", json::value(r_.id.pointer), r_.id.pos);
        var(out, "res.id_kind", json::value(ids::kind_name(r_.id.kind)), r_.id.pos);
        kind_vars(out);
        if (r_.location) var(out, "res.location", json::value("Location"), r_.pos);
        if (r_.singleton) var(out, "res.singleton", json::value(true), *r_.singleton);
        if (!r_.cannot_delete.empty())
            unset_reasons_["res.delete"].why = "not applicable: the profile says '" + r_.name +
                                               "' cannot be deleted (" + r_.cannot_delete + ", " +
                                               r_.cannot_delete_pos.str() + ")";
        for (const auto& f : r_.fields) {
            if (f.kind == ids::IdKind::uuidv4 && !has_(out, "res.v4_field")) var(out, "res.v4_field", json::value(f.pointer), f.pos);
        }
        for (const auto& ref : r_.references) {
            const std::string which = ref.required ? "res.required_ref" : "res.optional_ref";
            if (has_(out, which)) continue;
            var(out, which, json::value(ref.field), ref.pos);
            var(out, which + "_at", json::value(ref.answer_at()), ref.pos);  // where answers hold it
            var(out, which + "_kind", json::value(ids::kind_name(ref.kind)), ref.pos);
            var(out, which + "_value", json::value("${entity." + ref.resource + "}"), ref.pos, true);
        }
        if (!r_.time_field.empty()) var(out, "res.time_field", json::value(r_.time_field), r_.pos);
        pack_vars(out);
        if (p_.principals.size() >= 2) var(out, "other_principal", json::value("other"), p_.principals[1].pos);
        // A 401 to the other principal can say "refused" or "not let in"
        // only when the profile says which: the preflight's check that the
        // other principal is let in reads an entity of the owner's only when
        // the API never refuses with 401.
        const std::vector<int>& refused = r_.refused.value_or(p_.refused);
        if (std::find(refused.begin(), refused.end(), 401) == refused.end())
            var(out, "res.refusals_exclude_401", json::value(true), r_.pos);
        else
            unset_reasons_["res.refusals_exclude_401"] = {
                "not applicable: the profile says the API refuses another principal's access to '" + r_.name +
                    "' with 401, so a 401 to a read of the owner's entity cannot tell a refusal from a credential it "
                    "does not accept (the list check tells them apart)",
                SkipCause::not_applicable};
    }

    // Which rule judges the id's form: DATA-ID-001 a field declared (or
    // defaulted) uuidv7, DATA-ID-003 one declared uuidv4; a field declared
    // `existing` keeps its format (DATA-ID-001's exception), and the cases of
    // those rules are reported as not applicable, saying why.
    void kind_vars(std::vector<suite::Variable>& out) {
        const ids::IdKind k = r_.id.kind;
        const std::string k_name(ids::kind_name(k));
        const std::string declared = "the profile declares the id of '" + r_.name + "' (" + r_.id.pos.str() + ") ";
        if (k == ids::IdKind::uuidv7) var(out, "res.id_v7", json::value(true), r_.id.pos);
        else if (k == ids::IdKind::uuidv4)
            unset_reasons_["res.id_v7"].why = "not applicable: " + declared +
                                              "kind uuidv4, a field whose ids must not reveal their creation time: "
                                              "DATA-ID-003 judges it (v4), not DATA-ID-001";
        else if (k == ids::IdKind::existing)
            unset_reasons_["res.id_v7"].why =
                "not applicable: " + declared +
                "kind existing, a field that kept its format from before the rule (DATA-ID-001's exception: it MAY "
                "keep its current format" +
                (r_.id.pattern.empty() ? std::string() : ", " + r_.id.pattern) + "); every other rule is checked";
        else unset_reasons_["res.id_v7"].why = "not applicable: " + declared + "kind " + k_name + ", not uuidv7";
        if (k == ids::IdKind::uuidv4) var(out, "res.id_v4", json::value(true), r_.id.pos);
        else
            unset_reasons_["res.id_v4"].why =
                "not applicable: " + declared + "kind " + k_name + ", not uuidv4 (DATA-ID-003 applies to v4 fields)";
        if (!r_.id.pattern.empty()) var(out, "res.id_pattern", json::value(r_.id.pattern), r_.id.pos);
        fresh_id_var(out);
        for (const auto& ref : r_.references) {
            if (!ref.required) continue;
            if (ref.kind == ids::IdKind::uuidv7) var(out, "res.required_ref_v7", json::value(true), ref.pos);
            else
                unset_reasons_["res.required_ref_v7"].why = "not applicable: the reference '" + ref.field + "' (" +
                                                            ref.pos.str() + ") holds ids of kind " +
                                                            std::string(ids::kind_name(ref.kind)) + ", not uuidv7";
            break;  // the first required reference is res.required_ref
        }
        for (const auto& ref : r_.references) {
            if (ref.required) continue;
            if (ref.kind == ids::IdKind::uuidv7) var(out, "res.optional_ref_v7", json::value(true), ref.pos);
            else
                unset_reasons_["res.optional_ref_v7"].why = "not applicable: the reference '" + ref.field + "' (" +
                                                            ref.pos.str() + ") holds ids of kind " +
                                                            std::string(ids::kind_name(ref.kind)) + ", not uuidv7";
            break;  // the first optional reference is res.optional_ref
        }
    }

    // res.fresh_id: a fresh id of the declared kind on every use (the
    // client-chosen id of the client-id checks), a template resolved when it
    // is used. Where no value of that kind can be made it is null, and the
    // cases that need it are not applicable, saying why.
    void fresh_id_var(std::vector<suite::Variable>& out) {
        const ids::IdKind k = r_.id.kind;
        std::string why = ids::no_fresh_id(k, {r_.id.pattern});
        if (why.empty() && k == ids::IdKind::existing) {
            // The generator reads a part of RE2's syntax: RE2 has the last word.
            const RE2 re(r_.id.pattern, RE2::Quiet);
            const auto sample = ids::fresh_id(k, {r_.id.pattern});
            if (!sample || !RE2::FullMatch(*sample, re))
                why = "idconform cannot make a text matching its pattern '" + r_.id.pattern + "'";
        }
        if (why.empty()) {
            const std::string tmpl = k == ids::IdKind::existing ? "${gen:match:res.id_pattern}"
                                                                : "${gen:" + std::string(ids::kind_name(k)) + "}";
            var(out, "res.fresh_id", json::value(tmpl), r_.id.pos, true);
            return;
        }
        var(out, "res.fresh_id", json::value(nullptr), r_.id.pos);
        unset_reasons_["res.fresh_id"].why =
            "not applicable: no fresh client-chosen id can be made: the profile declares "
            "the id of '" +
            r_.name + "' (" + r_.id.pos.str() + ") kind " + std::string(ids::kind_name(k)) + ": " + why;
    }

    // The variables of the db-identifiers, uuidv8-legacy and viewable-id packs.
    void pack_vars(std::vector<suite::Variable>& out) {
        if (r_.lookup) {
            var(out, "res.lookup", json::value(r_.lookup->path), r_.lookup->pos);
            var(out, "res.lookup_param", json::value(r_.lookup->param), r_.lookup->pos);
        }
        if (r_.action) {
            endpoint_vars(out, "action", r_.action, true);
            var(out, "res.action_id_at", json::value(r_.action->id_at), r_.action->pos);
        }
        if (r_.job) {
            var(out, "res.job_at", json::value(r_.job->pointer), r_.job->pos);
            if (!r_.job->read.empty()) var(out, "res.job_read", json::value(r_.job->read), r_.job->pos);
        }
        if (!p_.request_id.empty()) var(out, "res.request_id", json::value(p_.request_id), p_.pos);
        if (r_.legacy) {
            const Legacy& l = *r_.legacy;
            var(out, "res.legacy_lookup", json::value(l.lookup.path), l.lookup.pos);
            var(out, "res.legacy_type", json::value(std::to_string(l.entity_type)), l.pos);
            var(out, "res.legacy_layout", json::value(ids::format_layout(l.layout)), l.pos);
            // The salt never appears in a file: the variable names the
            // environment variable, is read at run time and redacted.
            if (const char* salt = std::getenv(l.salt_env.c_str()); salt && *salt) {
                var(out, "res.legacy_salt", json::value("${env:" + l.salt_env + "}"), l.pos);
                out.back().secret = true;
            } else {
                unset_reasons_["res.legacy_salt"].why =
                    "not run: the hash bits can only be verified with the salt; set the environment variable " +
                    l.salt_env + " (profile legacy.salt_env) to the target's salt";
                unset_reasons_["res.legacy_salt"].cause = SkipCause::precondition;  // the profile said it all
            }
        }
        if (r_.viewable) {
            const Viewable& w = *r_.viewable;
            var(out, "res.viewable_at", json::value(w.pointer), w.pos);
            if (!w.read.empty()) var(out, "res.viewable_read", json::value(w.read), w.pos);
            var(out, "res.viewable_prefix", json::value(w.prefix), w.pos);
            var(out, "res.viewable_format", json::value(w.format), w.pos);
        }
    }

    // Shared reference data (`shared: true`): every principal may read it, so
    // DATA-ID-004's read and list checks (the cases in which another
    // principal only reads or lists) do not apply; its writes still do.
    void shared_reads() {
        if (!r_.shared) return;
        for (auto& c : s_.cases) {
            if (!c.skip.empty() || std::find(c.rules.begin(), c.rules.end(), "DATA-ID-004") == c.rules.end()) continue;
            bool other_calls = false, other_writes = false;
            for (const auto& st : c.steps) {
                if (!st.is<suite::OpCall>() || st.as<suite::OpCall>().principal != "other") continue;
                other_calls = true;
                const auto op = st.as<suite::OpCall>().op;
                if (op != suite::Operation::read && op != suite::Operation::list) other_writes = true;
            }
            if (other_calls && !other_writes)
                c.skip = "not applicable: the profile declares '" + r_.name + "' shared reference data (" +
                         r_.shared->str() + "): every principal may read it; another principal's writes are "
                         "still checked";
        }
    }

    // A pack's own plain-http steps book their cleanup in the pack's words
    // (`cleanup: {path: "${res.delete}"}`): they get the profile's, as bound
    // calls do, so `cannot_delete` (left behind by design, a note) and the
    // answer forms hold for every pack. What the form of R5.2 (`action`)
    // makes has no delete in any profile: a 2xx of it is left behind by
    // design too, and the note says so, never silently.
    void own_cleanups() {
        auto own = [&](suite::Step& st) {
            if (!st.is<suite::HttpRequest>()) return;
            const std::string& path = st.as<suite::HttpRequest>().path;
            if (st.cleanup && st.cleanup->path == "${res.delete}") *st.cleanup = cleanup_of(r_);
            if (!st.cleanup && path == "${res.action}" && r_.action) {
                suite::Cleanup cl;
                cl.pos = r_.action->pos;
                cl.id_at.clear();  // an action answers no id of its own; its Location, if any, names it
                cl.by_design = true;
                cl.impossible = "the profile gives no delete for what the action of '" + r_.name + "' makes (" +
                                r_.action->path + ", " + r_.action->pos.str() + ")";
                st.cleanup = std::move(cl);
            }
        };
        for (auto& st : s_.setup) own(st);
        for (auto& c : s_.cases)
            for (auto& st : c.steps) own(st);
        for (auto& st : s_.teardown) own(st);
    }

    // A resource the API cannot delete: every entity a case creates stays on
    // the target, so a case repeating creates makes two (enough for
    // "distinct", "time ordered") instead of its count, by `for_each` or by a
    // step's `repeat`; the run's notes list what was left.
    void fewest_creates() {
        if (r_.cannot_delete.empty()) return;
        constexpr int fewest = 2;
        auto creates = [](const suite::Step& st) {
            if (st.is<suite::OpCall>()) return suite::traits(st.as<suite::OpCall>().op).creates;
            return st.is<suite::HttpRequest>() && st.as<suite::HttpRequest>().path == "${res.create}";
        };
        auto say = [&](suite::Case& c, int count) {
            c.description += std::string(c.description.empty() ? "" : " ") + "(" + std::to_string(fewest) +
                             " creates instead of " + std::to_string(count) + ": the profile says '" + r_.name +
                             "' cannot be deleted, " + r_.cannot_delete_pos.str() + ")";
        };
        for (auto& c : s_.cases) {
            for (auto& st : c.steps) {
                if (st.repeat <= fewest || !creates(st)) continue;
                say(c, st.repeat);
                st.repeat = fewest;
                for (auto& ce : c.collected)
                    if (ce.min_count > fewest) ce.min_count = fewest;
            }
            // A fresh entity per element (`fresh:` naming setup steps) would
            // stay behind once per element: the elements share the suite's.
            const auto before = c.fresh.size();
            std::erase_if(c.fresh, [&](const std::string& n) {
                return std::any_of(s_.setup.begin(), s_.setup.end(),
                                   [&](const suite::Step& st) { return st.name == n; });
            });
            if (c.fresh.size() != before || c.fresh_all_setup) {
                c.fresh_all_setup = false;
                c.description += std::string(c.description.empty() ? "" : " ") +
                                 "(one entity for every element instead of a fresh one each: the profile says '" +
                                 r_.name + "' cannot be deleted, " + r_.cannot_delete_pos.str() + ")";
            }
            if (!c.for_each || c.for_each->source != suite::ForEach::Source::count || c.for_each->count <= fewest)
                continue;
            if (std::none_of(c.steps.begin(), c.steps.end(), creates)) continue;
            say(c, c.for_each->count);
            c.for_each->count = fewest;
        }
    }

    // The legacy ids of the profile replace the pack's `legacy_ids` vector set.
    void legacy_ids() {
        if (!r_.legacy) return;
        suite::VectorSet set;
        set.pos = r_.legacy->pos;
        set.name = "legacy_ids";
        set.description = "legacy ids of '" + r_.name + "' from the target profile";
        for (std::uint64_t id : r_.legacy->ids) {
            suite::Vector v;
            v.pos = r_.legacy->pos;
            v.name = std::to_string(id);
            v.value = json::value(std::to_string(id));
            set.vectors.push_back(std::move(v));
        }
        s_.vector_sets["legacy_ids"] = std::move(set);
    }

    static bool has_(const std::vector<suite::Variable>& vars, const std::string& name) {
        for (const auto& v : vars)
            if (v.name == name) return true;
        return false;
    }

    // Emits setup steps that create one `target` entity (after what its own
    // required references need) and capture its id as entity.<target>.
    void ensure_created(const std::string& target, std::vector<suite::Step>& steps) {
        if (!created_.insert(target).second) return;
        const Resource* t = find_resource(p_, target);
        if (!t || !t->create) return;  // the loader rejects unknown resources; no create: nothing to do
        for (const auto& ref : t->references)
            if (ref.required) ensure_created(ref.resource, steps);
        suite::Step st;
        st.pos = t->create->pos;
        st.name = "create a '" + t->name + "' entity for the references of '" + r_.name + "'";
        suite::HttpRequest& h = st.as<suite::HttpRequest>();
        h.pos = t->create->pos;
        h.method = t->create->method;
        h.path = t->create->path;
        h.json = body_with_refs(*t, t->create->body);
        h.headers = t->create->headers;
        h.principal = "owner";
        st.expect.pos = t->create->pos;
        suite::StatusExpect status;
        status.pos = t->create->pos;
        status.classes = {2};
        st.expect.status = status;
        suite::Capture cap;
        cap.pos = t->id.pos;
        cap.var = "entity." + t->name;
        cap.from = suite::Capture::From::json;
        cap.path = t->id.pointer;
        st.captures.push_back(cap);
        st.cleanup = cleanup_of(*t);
        answer_forms::adapt_create_answer(*t, st);
        steps.push_back(std::move(st));
    }

    const Profile& p_;
    const Resource& r_;
    suite::Suite s_;
    bool over_grpc_ = false;
    std::set<std::string> created_;
    std::map<std::string, Unset> unset_reasons_;  // variable -> why it is undefined here
};

// The preflight suite (packs_dir/preflight.yaml, runner/preflight.hpp) for
// the first resource the run can create, preferring one it can also delete
// (the preflight's entity is then gone at once): over HTTP, else over gRPC.
// None for a profile that can create nothing (the 401 rule still holds on
// every step, runner/auth.hpp).
void add_preflight(const Profile& profile, const std::string& packs_dir, Expansion& out) {
    const auto file = std::filesystem::path(packs_dir) / "preflight.yaml";
    if (!std::filesystem::is_regular_file(file)) return;
    const Resource* chosen = nullptr;
    bool over_grpc = false;
    for (int pass = 0; pass < 3 && !chosen; ++pass)
        for (const auto& r : profile.resources) {
            if (r.singleton) continue;
            const bool http = r.create && (pass > 0 || r.del);
            const bool grpc = pass == 2 && profile.grpc && r.grpc && r.grpc->create;
            if (http || grpc) {
                chosen = &r;
                over_grpc = !http;
                break;
            }
        }
    if (!chosen) return;
    auto loaded = suite::load_file(file.string());
    for (auto& d : loaded.diagnostics) out.diagnostics.push_back(std::move(d));
    if (loaded.suite) out.suites.push_back(Instance(profile, *chosen, *loaded.suite, over_grpc).build());
}

}  // namespace

Expansion expand(const Profile& profile, const std::string& packs_dir) {
    Expansion out;
    add_preflight(profile, packs_dir, out);
    std::vector<std::string> packs = profile.packs;
    if (packs.empty())
        for (const auto& k : known_packs())
            if (std::filesystem::is_directory(std::filesystem::path(packs_dir) / k)) packs.push_back(k);
    const bool chosen = !profile.packs.empty();
    for (const auto& pack : packs) {
        const auto dir = std::filesystem::path(packs_dir) / pack;
        if (chosen && std::none_of(profile.resources.begin(), profile.resources.end(),
                                   [&](const Resource& r) { return pack_applies(pack, r); })) {
            Diagnostic d;
            d.pos = profile.pos;
            d.title = "pack '" + pack + "' applies to no resource of the profile";
            d.hint = pack == "db-identifiers"   ? "it checks resources with id: {kind: ulid} and a create endpoint"
                     : pack == "uuidv8-legacy" ? "it checks resources with a legacy: section"
                     : pack == "viewable-id"   ? "it checks resources with a viewable: section and a create endpoint"
                                               : "it checks resources with UUID ids and a create endpoint";
            d.hint += "; describe one, or remove '" + pack + "' from packs";
            out.diagnostics.push_back(std::move(d));
            continue;
        }
        if (!std::filesystem::is_directory(dir)) {
            Diagnostic d;
            d.pos = profile.pos;
            d.title = "pack '" + pack + "' has no suites in " + dir.string();
            d.hint = "this version of idconform ships the packs in " + packs_dir + "; remove '" + pack + "' from packs";
            out.diagnostics.push_back(std::move(d));
            continue;
        }
        std::vector<Diagnostic> diags;
        const auto files = suite::expand_suite_paths({dir.string()}, diags);
        for (auto& d : diags) out.diagnostics.push_back(std::move(d));
        for (const auto& f : files) {
            auto loaded = suite::load_file(f);
            for (auto& d : loaded.diagnostics) out.diagnostics.push_back(std::move(d));
            if (!loaded.suite) continue;
            // A suite of singleton checks runs on singletons only, and only
            // it does (a singleton has nothing to create).
            const bool for_singletons =
                !loaded.suite->cases.empty() && std::all_of(loaded.suite->cases.begin(), loaded.suite->cases.end(),
                                                            [](const suite::Case& c) {
                                                                return std::find(c.needs.begin(), c.needs.end(),
                                                                                 "res.singleton") != c.needs.end();
                                                            });
            for (const auto& r : profile.resources) {
                if (!pack_applies(pack, r) || for_singletons != r.singleton.has_value()) continue;
                out.suites.push_back(Instance(profile, r, *loaded.suite).build());
                // The operation packs run again over gRPC for a resource with
                // gRPC methods (a create among them).
                if ((pack == "data-id" || pack == "nil-max") && profile.grpc && r.grpc && r.grpc->create)
                    out.suites.push_back(Instance(profile, r, *loaded.suite, true).build());
            }
        }
    }
    return out;
}

}  // namespace idconform::profile
