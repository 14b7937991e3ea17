// The profile expander's variables: the `res.*` vocabulary a pack suite is
// instantiated with for one resource (docs/packs.md), and why a variable a
// case needs is not defined there (see expand_impl.hpp).
#include "profile/expand_impl.hpp"

#include "ids/of_kind.hpp"

#include <re2/re2.h>

#include <algorithm>

namespace idconform::profile::expansion {

void Instance::grpc_vars(std::vector<suite::Variable>& vars) const {
    auto drop = [&](const std::string& name) {
        vars.erase(std::remove_if(vars.begin(), vars.end(), [&](const suite::Variable& v) { return v.name == name; }),
                   vars.end());
    };
    for (const auto& t : suite::operation_table) {
        const std::string op = t.name;
        for (const char* suffix : {"", "_method", "_body", "_replaces", "_rejects_existing"})
            drop("res." + op + suffix);
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
    if (r_.grpc->put) {  // a gRPC create with the client's id: a live id must be refused
        suite::Variable v;
        v.pos = r_.grpc->put->pos;
        v.name = "res.put_rejects_existing";
        v.value = json::value(true);
        vars.push_back(std::move(v));
    }
}

Instance::Unset Instance::undescribed(const std::string& need) const {
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
    if (r_.made_by && !over_grpc_ && is("create", {"_method", "_body"}))
        return not_applicable("the API has no create of '" + r_.name + "': a create of '" + r_.made_by->resource +
                              "' makes one (made_by, " + r_.made_by->pos.str() + ")");
    for (const auto& t : suite::operation_table) {
        const std::string op = t.name;
        if (t.op == suite::Operation::legacy_lookup) continue;  // the legacy section's (below)
        if (is(op, {"_method", "_body", "_items", "_filter", "_replaces", "_rejects_existing"}))
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
    if (is("client_id", {"_at", "_kind", "_fresh"}))
        return add(
            "`client_ids:` (an id the client chooses inside the create body, e.g. {line_id: {at: "
            "/lines/0/id, kind: uuidv7}})",
            res);
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

void Instance::var(std::vector<suite::Variable>& out, const std::string& name, json::value v, SourcePos pos,
                   bool deferred) {
    suite::Variable x;
    x.pos = std::move(pos);
    x.name = name;
    x.value = std::move(v);
    x.deferred = deferred;
    out.push_back(std::move(x));
}

void Instance::endpoint_vars(std::vector<suite::Variable>& out, const char* op, const std::optional<Endpoint>& e,
                             bool with_body) {
    if (!e) return;
    const std::string base = std::string("res.") + op;
    var(out, base, json::value(e->path), e->pos);
    var(out, base + "_method", json::value(e->method), e->pos);
    const bool makes = std::string_view(op) == "create" || std::string_view(op) == "put";
    if (with_body) var(out, base + "_body", body_with_refs(r_, e->body, makes), e->pos, true);
}

void Instance::resource_vars(std::vector<suite::Variable>& out) {
    var(out, "res.name", json::value(r_.name), r_.pos);
    for (const auto& t : suite::operation_table)
        if (!t.has_items) endpoint_vars(out, t.name, *endpoint(t.op), t.has_body);  // list: below
    if (r_.list) {
        var(out, "res.list", json::value(r_.list->path), r_.list->pos);
        var(out, "res.list_items", json::value(r_.list->items), r_.list->pos);
        if (!r_.list->filter.empty()) var(out, "res.list_filter", json::value(r_.list->filter), r_.list->pos);
        else
            unset_reasons_["res.list_filter"].why = "not applicable: the profile says the list of '" + r_.name + "' (" +
                                                    r_.list->pos.str() + ") takes no filter (filter: false)";
    }
    var(out, "res.id_at", json::value(r_.id.pointer), r_.id.pos);
    var(out, "res.id_kind", json::value(ids::kind_name(r_.id.kind)), r_.id.pos);
    kind_vars(out);
    if (r_.location) var(out, "res.location", json::value("Location"), r_.pos);
    if (r_.singleton) var(out, "res.singleton", json::value(true), *r_.singleton);
    if (!r_.cannot_delete.empty())
        unset_reasons_["res.delete"].why = "not applicable: the profile says '" + r_.name + "' cannot be deleted (" +
                                           r_.cannot_delete + ", " + r_.cannot_delete_pos.str() + ")";
    for (const auto& f : r_.fields) {
        if (f.kind == ids::IdKind::uuidv4 && !has_(out, "res.v4_field"))
            var(out, "res.v4_field", json::value(f.pointer), f.pos);
    }
    for (const auto& ref : r_.references) {
        const std::string which = ref.required ? "res.required_ref" : "res.optional_ref";
        if (has_(out, which)) continue;
        var(out, which, json::value(ref.field), ref.pos);
        var(out, which + "_at", json::value(ref.answer_at()), ref.pos);  // where answers hold it
        var(out, which + "_kind", json::value(ids::kind_name(ref.kind)), ref.pos);
        var(out, which + "_value", json::value("${entity." + ref.resource + "}"), ref.pos, true);
    }
    if (!r_.client_ids.empty()) {  // the first: the packs' cases on a client-chosen sub-object id
        const IdField& f = r_.client_ids.front();
        var(out, "res.client_id_at", json::value(f.pointer), f.pos);
        var(out, "res.client_id_kind", json::value(ids::kind_name(f.kind)), f.pos);
        var(out, "res.client_id_fresh", json::value(fresh_template(f)), f.pos, true);
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

void Instance::kind_vars(std::vector<suite::Variable>& out) {
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

void Instance::fresh_id_var(std::vector<suite::Variable>& out) {
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

void Instance::pack_vars(std::vector<suite::Variable>& out) {
    // A put either refuses a live id (a create with the client's id) or
    // replaces that entity (create-or-replace): DATA-ID-006 judges whichever
    // the profile says, never both.
    if (r_.put) {
        const std::string put = "the profile's put of '" + r_.name + "' (" + r_.put->pos.str() + ")";
        if (r_.put->replaces) {
            var(out, "res.put_replaces", json::value(true), r_.put->pos);
            unset_reasons_["res.put_rejects_existing"].why =
                "not applicable: " + put + " creates or replaces (replaces: true): a PUT to a live id replaces it";
        } else {
            var(out, "res.put_rejects_existing", json::value(true), r_.put->pos);
            unset_reasons_["res.put_replaces"].why =
                "not applicable: " + put +
                " only creates, so a PUT to a live id must fail (write replaces: true "
                "if it creates or replaces)";
        }
    }
    // (res.lookup, res.action and res.legacy_lookup, with their methods and
    // the action's body, are endpoint variables, above.)
    if (r_.lookup) var(out, "res.lookup_param", json::value(r_.lookup->param), r_.lookup->pos);
    if (r_.action) var(out, "res.action_id_at", json::value(r_.action->id_at), r_.action->pos);
    if (r_.job) {
        var(out, "res.job_at", json::value(r_.job->pointer), r_.job->pos);
        if (!r_.job->read.empty()) var(out, "res.job_read", json::value(r_.job->read), r_.job->pos);
    }
    if (!p_.request_id.empty()) var(out, "res.request_id", json::value(p_.request_id), p_.pos);
    if (r_.legacy) {
        const Legacy& l = *r_.legacy;
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

}  // namespace idconform::profile::expansion
