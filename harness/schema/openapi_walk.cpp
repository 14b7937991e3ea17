// The OpenAPI linter's traversal (openapi_lint_impl.hpp): every schema
// object visited once where it is written - paths and operations, request
// bodies and responses, headers and parameters (inline ones grouped per
// operation), schemas and their properties - with the id fields found on the
// way handed to the checks; and the check that a reference optional on create
// is not required in the answer.
#include "schema/openapi_lint_impl.hpp"

#include <iterator>
#include <string_view>

namespace idconform::schema::openapi {

void Linter::walk_paths(const Loc& paths) {
    for (const Loc& item_ref : members(paths)) {
        const Loc item = set_.deref(item_ref);
        if (!item.valid() || !item.node.IsMap()) continue;
        path_ = unescape(item_ref.pointer.substr(item_ref.pointer.rfind('/') + 1));
        auto names_of = [&](const Loc& list, std::set<std::string>& into) {
            for (const Loc& p : elements(list))
                if (const auto n = scalar(set_.deref(p).node, "name")) into.insert(*n);
        };
        params_.clear();
        names_of(item.child("parameters"), params_);
        for (const char* m : http_methods) names_of(item.child(m).child("parameters"), params_);
        // (a path item's parameters are walked once, with the names of all its operations' beside them)
        for (const Loc& p : elements(item.child("parameters"))) walk_param(p);
        for (const char* m : http_methods) {
            const Loc op = item.child(m);
            if (!op.valid() || !op.node.IsMap()) continue;
            params_.clear();
            names_of(item.child("parameters"), params_);
            names_of(op.child("parameters"), params_);
            for (const Loc& p : elements(op.child("parameters"))) walk_param(p);
            walk_content(set_.deref(op.child("requestBody")));
            for (const Loc& r : members(op.child("responses"))) walk_response(r);
            if (std::string(m) == "post") optional_in_answer(op);
        }
    }
    path_.clear();
    params_.clear();
}

void Linter::shape_of(const Loc& s_in, ObjectShape& o, int depth) {
    const Loc s = set_.deref(s_in);
    if (!s.valid() || !s.node.IsMap() || depth > 16) return;
    for (const Loc& p : members(s.child("properties"))) o.props.emplace(unescape(p.pointer.substr(p.pointer.rfind('/') + 1)), p);
    for (const Loc& r : elements(s.child("required")))
        if (r.node.IsScalar()) o.required.insert(r.node.Scalar());
    for (const Loc& part : elements(s.child("allOf"))) shape_of(part, o, depth + 1);
}

Loc Linter::json_schema_of(const Loc& holder) {
    for (const Loc& mt : members(holder.child("content")))
        if (mt.pointer.find("json") != std::string::npos) return set_.deref(mt).child("schema");
    return holder.child("schema");  // Swagger 2.0 response
}

// A reference the create request (POST answered 201) may leave out (not required) that the
// answer lists as required and not nullable: when the client leaves it
// out, the server has no way to say "none" but a dummy (DATA-ID-007).
void Linter::optional_in_answer(const Loc& op) {
    Loc req_schema = json_schema_of(set_.deref(op.child("requestBody")));
    for (const Loc& p : elements(op.child("parameters"))) {
        const Loc d = set_.deref(p);
        if (scalar(d.node, "in").value_or("") == "body") req_schema = d.child("schema");
    }
    if (!req_schema.valid()) return;
    ObjectShape in;
    shape_of(req_schema, in);
    for (const Loc& r_ref : members(op.child("responses"))) {
        const std::string code = r_ref.pointer.substr(r_ref.pointer.rfind('/') + 1);
        if (code != "201") continue;  // a create's answer (an update may leave fields out to keep them)
        ObjectShape out;
        shape_of(json_schema_of(set_.deref(r_ref)), out);
        for (const auto& [name, where] : out.props) {
            if (name == "id" || !ids::id_named_field(name) || out_of_scope_name(name)) continue;
            if (!in.props.count(name) || in.required.count(name) || !out.required.count(name)) continue;
            const Effective e = effective(where);
            if (e.nullable || e.typed("array") || e.typed("object")) continue;
            add("DATA-ID-007", "optional-not-nullable", where,
                "reference '" + name + "' may be left out of the request (" + in.props.at(name).pointer +
                    " is not required) but the answer requires it and it is not nullable: absence has no spelling but a dummy",
                "nullable (3.0: nullable: true; 3.1: type: [string, 'null']), or leave it out of the answer's required");
        }
    }
}

void Linter::walk_content(const Loc& holder) {
    if (!holder.valid()) return;
    for (const Loc& mt : members(holder.child("content"))) {
        const Loc d = set_.deref(mt);
        walk_schema(d.child("schema"));
    }
}

void Linter::walk_response(const Loc& r_ref) {
    const Loc r = set_.deref(r_ref);
    if (!r.valid() || !r.node.IsMap()) return;
    walk_content(r);
    walk_schema(r.child("schema"));  // Swagger 2.0
    for (const Loc& h : members(r.child("headers"))) walk_header(h);
}

void Linter::walk_header(const Loc& h_ref) {
    const Loc h = set_.deref(h_ref);
    if (!h.valid() || !h.node.IsMap()) return;
    const std::string name = h_ref.pointer.substr(h_ref.pointer.rfind('/') + 1);
    const Loc schema = h.child("schema").valid() ? h.child("schema") : h;
    if (!out_of_scope_name(name) && (ids::id_named_field(name) || uuid_format(effective(schema).format_text()))) {
        Field f;
        f.name = name;
        f.where = h_ref;
        f.schema = schema;
        check_field(f);
    }
    if (h.child("schema").valid()) walk_schema(h.child("schema"));
}

void Linter::walk_param(const Loc& p_ref) {
    const Loc p = set_.deref(p_ref);
    if (!p.valid() || !p.node.IsMap()) return;
    if (!walked_.insert("param " + p.key()).second) return;
    const std::string name = scalar(p.node, "name").value_or("");
    const std::string in = scalar(p.node, "in").value_or("");
    const Loc schema = p.child("schema");
    if (in == "body") {
        walk_schema(schema);
        return;
    }
    for (const Loc& mt : members(p.child("content"))) walk_schema(set_.deref(mt).child("schema"));
    if (in != "path" && in != "query" && in != "header" && in != "cookie") return;
    const bool element = in == "path" && names_element(collection_before(path_, name), name);
    if (ids::out_of_scope_id_name(name) || (!element && credential_name(name))) return;
    const Loc s = schema.valid() ? schema : p;  // Swagger 2.0: the parameter is its own schema
    Effective e = effective(s);
    add_param_examples(p, e);
    // /parties/{Type}/{ID}: the caller names the id's kind (a phone number,
    // an e-mail, a passport), so it is a member of outside identifier
    // schemes, not an id the service assigns; so are the variables after it
    if (in == "path" && after_type_variable(path_, name)) {
        if (schema.valid()) walk_schema(schema);
        return;
    }
    const bool named = ids::id_named_field(name);
    const bool list = plural_id_named(name) && e.typed("array");
    if (named || uuid_format(e.format_text()) || list) {
        // the same parameter: one place and name (app_id is the app's id
        // wherever it is); a name that says only "id" ({id}, {uuid}) is the id
        // of the collection it follows (/users/{id} and /users/{id}/posts are
        // one parameter, /orders/{id} another)
        group_ = "param " + in + " " + name;
        if (in == "path" && ids::id_named_field(name) && ids::id_name_stem(name).empty()) group_ += " of " + collection_before(path_, name);
        const Loc where = p.child("name").valid() ? p.child("name") : p;
        if (list) {
            Field f;
            f.name = name + "[]";
            f.where = where;
            f.schema = e.items;
            f.items = true;
            const Effective ie = items_effective(e);
            check_field(f, &ie);
        } else {
            Field f;
            f.name = name;
            f.where = where;
            f.schema = s;
            f.siblings = &params_;
            const std::string collection = collection_before(path_, name);
            f.element = in == "path" && (names_element(collection, name) ||
                                         names_element(collection, std::string(ids::id_name_stem(name))));
            check_field(f, &e);
        }
        if (in == "path" && !is_true(p.node, "required"))
            add("DATA-ID-007", "path-param-not-required", where,
                "path parameter '" + name + "' is not marked required",
                "required: true (a path id is never absent)");
        group_.clear();
        // judged (or found out of scope) under the parameter's name: its own
        // inline schema is not judged again as a nameless uuid site
        if (schema.valid() && !get(schema.node, "$ref").IsDefined()) walked_.insert(schema.key());
    }
    if (schema.valid()) walk_schema(schema);
}

// The literal segment before `{var}` in a path template: "users" for
// /v1/users/{id}/posts and var id ("" when there is none).
std::string Linter::collection_before(const std::string& path, const std::string& var) {
    const auto at = path.find("{" + var + "}");
    if (at == std::string::npos || at < 2) return "";
    const std::string head = path.substr(0, at - 1);
    return head.substr(head.rfind('/') + 1);
}

// True when a variable named like "type" (`{Type}`, `{idType}`,
// `{id_type}`) comes before `{var}` in the path template.
bool Linter::after_type_variable(const std::string& path, const std::string& var) {
    const auto at = path.find("{" + var + "}");
    if (at == std::string::npos) return false;
    for (std::size_t open = path.find('{'); open != std::string::npos && open < at; open = path.find('{', open + 1)) {
        const auto close = path.find('}', open);
        if (close == std::string::npos || close > at) break;
        const std::string v = lower(path.substr(open + 1, close - open - 1));
        if (v.size() >= 4 && v.compare(v.size() - 4, 4, "type") == 0) return true;
    }
    return false;
}

void Linter::add_param_examples(const Loc& p, Effective& e) {
    // OpenAPI 3 writes the description on the parameter, beside its schema
    if (const auto d = scalar(p.node, "description"); d && e.description.empty()) e.description = *d;
    for (const char* k : {"example", "x-example"})
        if (p.child(k).valid()) e.examples.push_back(p.child(k));
    const Loc ex = p.child("examples");
    if (ex.valid() && ex.node.IsMap()) {
        for (auto it = ex.node.begin(); it != ex.node.end(); ++it) {
            if (!it->first.IsScalar()) continue;
            const Loc one = ex.child(it->first.Scalar());
            if (one.child("value").valid()) e.examples.push_back(one.child("value"));
        }
    }
}

// The effective schema of a list's elements, with what the list says of
// them: the elements of its examples (`example: [sha256:..., ...]`) and its
// description when they have none.
Effective Linter::items_effective(const Effective& list) {
    Effective ie = effective(list.items);
    for (const Loc& x : list.examples)
        if (x.node.IsSequence())
            for (const Loc& one : elements(x)) ie.examples.push_back(one);
    if (ie.description.empty()) ie.description = list.description;
    return ie;
}

void Linter::walk_schema(const Loc& s) {
    if (!s.valid() || !s.node.IsMap() || visits_ > max_visits) return;
    ++visits_;
    if (get(s.node, "$ref").IsDefined()) {
        // a $ref that is not a string (`$ref:` with no value) leaves s itself: not walked twice
        const Loc t = set_.deref(s);
        if (t.valid() && !t.node.is(s.node)) walk_schema(t);
    }
    if (!walked_.insert(s.key()).second) return;
    // a uuid-formatted schema anywhere is an id site, named or not, unless
    // the name it is known by is out of scope (a requestId, the items of an
    // externalIds list): what the name says, the format does not undo
    if (const auto f = scalar(s.node, "format"); f && uuid_format(*f) && !out_of_scope_name(site_name(s.pointer))) {
        Field fld;
        fld.name = site_name(s.pointer);
        fld.where = s;
        fld.schema = s;
        check_field(fld);
    }
    // the keywords that hold schemas, found in one pass over the schema and walked in this order
    static constexpr std::string_view keys[] = {"required",
                                                "properties",
                                                "items",
                                                "additionalProperties",
                                                "not",
                                                "contains",
                                                "unevaluatedProperties",
                                                "allOf",
                                                "oneOf",
                                                "anyOf",
                                                "prefixItems",
                                                "patternProperties",
                                                "$defs",
                                                "definitions",
                                                "dependentSchemas"};
    Loc sub[std::size(keys)];
    s.children(keys, std::size(keys), sub);
    std::set<std::string> required;
    for (const Loc& r : elements(sub[0]))
        if (r.node.IsScalar()) required.insert(r.node.Scalar());
    const std::vector<Loc> props = members(sub[1]);
    for (const Loc& p : props) {
        const std::string raw = unescape(p.pointer.substr(p.pointer.rfind('/') + 1));
        consider_property(raw, p, required.count(raw) != 0, props);
        walk_schema(p);
    }
    for (std::size_t i = 2; i <= 6; ++i) walk_schema(sub[i]);  // items ... unevaluatedProperties
    for (std::size_t i = 7; i <= 10; ++i)                      // allOf ... prefixItems
        for (const Loc& e : elements(sub[i])) walk_schema(e);
    for (std::size_t i = 11; i <= 14; ++i)  // patternProperties ... dependentSchemas
        for (const Loc& e : members(sub[i])) walk_schema(e);
}

// The name a schema is known by: the last pointer token that is not a
// keyword or an index ("/components/schemas/X/anyOf/1" -> "X").
std::string Linter::site_name(const std::string& pointer) {
    static const std::set<std::string> skip = {"anyOf", "oneOf", "allOf", "items", "schema", "additionalProperties", "not",
                                               "prefixItems", "content", "application~1json"};
    std::size_t end = pointer.size();
    bool element = false;  // the schema is (inside) the items of the named list: "externalIds[]"
    while (end > 0) {
        const std::size_t slash = pointer.rfind('/', end - 1);
        if (slash == std::string::npos) break;
        const std::string tok = pointer.substr(slash + 1, end - slash - 1);
        const bool index = !tok.empty() && std::all_of(tok.begin(), tok.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (!index && !skip.count(tok)) return unescape(tok) + (element ? "[]" : "");
        element = element || tok == "items" || tok == "prefixItems";
        end = slash;
    }
    return pointer;
}

std::string Linter::unescape(const std::string& token) {
    std::string out;
    for (std::size_t i = 0; i < token.size(); ++i) {
        if (token[i] == '~' && i + 1 < token.size()) {
            out += token[i + 1] == '1' ? '/' : '~';
            ++i;
        } else {
            out += token[i];
        }
    }
    return out;
}

void Linter::consider_property(const std::string& name, const Loc& p, bool required, const std::vector<Loc>& siblings) {
    if (out_of_scope_name(name)) return;
    const bool named = ids::id_named_field(name);
    const bool plural = plural_id_named(name);
    if (!named && !plural) {
        // a property of any name whose schema is a uuid is an id as well;
        // a direct format is picked up as a site by walk_schema
        if (!get(p.node, "$ref").IsDefined() && !get(p.node, "allOf").IsDefined()) return;
        if (!uuid_format(effective(p).format_text())) return;
    }
    Effective e = effective(p);
    if (plural && e.typed("array")) {
        Field f;
        f.name = name + "[]";
        f.where = p;
        f.schema = e.items;
        f.items = true;
        const Effective ie = items_effective(e);
        check_field(f, &ie);
        return;
    }
    if (!named && !uuid_format(e.format_text())) return;
    Field f;
    f.name = name;
    f.where = p;
    f.schema = p;
    f.property = true;
    f.required = required;
    f.sibling_props = &siblings;
    check_field(f, &e);
}

}  // namespace idconform::schema::openapi
