// The OpenAPI/Swagger half of `idconform lint`: walks every schema the
// document holds (paths, operations, components/definitions, webhooks),
// visiting each schema object once at the place it is written, finds the id
// fields and checks their constraints. A constraint finding is reported at
// the schema that carries the constraints (a shared `Uuid` schema once, not
// once per use); a finding about a field's place in its object (required,
// nullable) at the property. See lint.hpp.
#include "schema/lint.hpp"

#include "ids/ids.hpp"
#include "schema/pattern_judge.hpp"
#include "schema/spec.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

namespace idconform::schema {

namespace {

// Visiting more schema objects than this means aliases are multiplying one
// subtree: stop rather than run for ever.
constexpr std::size_t max_visits = 2'000'000;

const char* const http_methods[] = {"get", "put", "post", "delete", "patch", "options", "head", "trace"};

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool contains_word(const std::string& hay, const std::string& needle) {
    std::size_t pos = 0;
    while ((pos = hay.find(needle, pos)) != std::string::npos) {
        const bool left = pos == 0 || !std::isalnum(static_cast<unsigned char>(hay[pos - 1]));
        const std::size_t end = pos + needle.size();
        const bool right = end >= hay.size() || !std::isalnum(static_cast<unsigned char>(hay[end]));
        if (left && right) return true;
        pos = end;
    }
    return false;
}

// Request/trace/correlation ids are out of the data-id scope (RULES.md).
bool out_of_scope_name(const std::string& name) {
    const std::string n = lower(name);
    for (const char* w : {"request", "correlation", "trace", "span", "event"})
        if (n.find(w) != std::string::npos) return true;
    return false;
}

// A list named like ids: "ids", "user_ids", "memberIds", "uuids".
bool plural_id_named(const std::string& n) {
    if (n.size() < 2 || n.back() != 's') return false;
    return ids::id_named_field(n.substr(0, n.size() - 1));
}

bool uuid_format(const std::string& f) { return lower(f).rfind("uuid", 0) == 0; }

// The version a format or a description claims: 4, 7 or 0 (none).
int documented_version(const std::string& format, const std::string& description) {
    const std::string f = lower(format);
    if (f == "uuid4" || f == "uuidv4" || f == "uuid-v4") return 4;
    if (f == "uuid7" || f == "uuidv7" || f == "uuid-v7") return 7;
    const std::string d = lower(description);
    for (const char* w : {"uuidv4", "uuid v4", "uuid4", "v4 uuid", "version 4", "random uuid"})
        if (d.find(w) != std::string::npos) return 4;
    for (const char* w : {"uuidv7", "uuid v7", "uuid7", "v7 uuid", "version 7"})
        if (d.find(w) != std::string::npos) return 7;
    return 0;
}

bool says_optional(const std::string& description) {
    const std::string d = lower(description);
    if (d.find("one of") != std::string::npos || d.find("unless") != std::string::npos) return false;
    for (const char* w : {"optional", "if any", "if not set", "if unset", "may be empty", "can be empty",
                          "empty string", "or empty", "null if", "or null", "blank"})
        if (d.find(w) != std::string::npos) return true;
    return false;
}

// DATA-ID-003's reason for a v4 field, stated in its description.
bool gives_v4_reason(const std::string& description) {
    const std::string d = lower(description);
    return d.find("data-id-003") != std::string::npos || d.find("creation time") != std::string::npos;
}

// A requirement with a condition ("one of a or b is required", "required
// unless ...") cannot be written in `required`: only plain ones count.
bool conditional(const std::string& d) {
    for (const char* w : {"one of", "unless", " or ", " if ", "when", "either", "not required", "only"})
        if (d.find(w) != std::string::npos) return true;
    return false;
}

bool says_required(const std::string& description) {
    const std::string d = lower(description);
    return contains_word(d, "required") && !conditional(d) && !says_optional(d);
}

// What the schema of one id field says, gathered through $ref and allOf.
struct Effective {
    Loc site;                        // where the constraints are written
    std::vector<std::string> types;  // without "null"
    bool nullable = false;
    Loc format, pattern;             // scalars
    std::vector<Loc> examples;       // example, x-example, examples (list or map of {value})
    Loc default_value;
    std::string description;
    bool has_enum = false;
    std::optional<long> min_length, max_length;
    std::vector<Loc> alternatives;   // non-null branches of oneOf/anyOf when there are several
    Loc items;
    bool has_properties = false;
    [[nodiscard]] std::string format_text() const { return format.valid() && format.node.IsScalar() ? format.node.Scalar() : ""; }
    [[nodiscard]] std::string pattern_text() const { return pattern.valid() && pattern.node.IsScalar() ? pattern.node.Scalar() : ""; }
    [[nodiscard]] bool typed(std::string_view t) const { return std::find(types.begin(), types.end(), t) != types.end(); }
};

bool is_null_schema(const YAML::Node& n) {
    if (!n.IsMap()) return false;
    const auto t = scalar(n, "type");
    if (t && *t == "null") return true;
    const YAML::Node e = get(n, "enum");
    return e.IsSequence() && e.size() == 1 && e[0].IsNull();
}

struct Field {
    std::string name;
    Loc where;       // the property key or the parameter's name
    Loc schema;      // its schema as written (maybe a $ref)
    bool property = false;
    bool required = false;   // listed in the parent's `required`
    bool items = false;      // the elements of a list of ids
};

class Linter {
public:
    Linter(SpecSet& set, LintResult& out) : set_(set), out_(out) {}

    void run() {
        const Loc root = set_.root();
        walk_paths(root.child("paths"));
        walk_paths(root.child("webhooks"));
        const Loc comps = set_.deref(root.child("components"));
        for (const Loc& s : members(comps.child("schemas"))) walk_schema(s);
        for (const Loc& p : members(comps.child("parameters"))) walk_param(p);
        for (const Loc& b : members(comps.child("requestBodies"))) walk_content(set_.deref(b));
        for (const Loc& r : members(comps.child("responses"))) walk_response(r);
        for (const Loc& h : members(comps.child("headers"))) walk_header(h);
        for (const Loc& s : members(root.child("definitions"))) walk_schema(s);
        for (const Loc& p : members(root.child("parameters"))) walk_param(p);
        for (const Loc& r : members(root.child("responses"))) walk_response(r);
        version_findings();
        if (visits_ > max_visits)
            out_.errors.push_back(Diagnostic{root.pos(), "the document expands to more than 2,000,000 schema objects (YAML aliases?)",
                                             "lint stopped there; findings up to that point are listed", ""});
    }

private:
    SpecSet& set_;
    LintResult& out_;
    std::set<std::string> walked_;
    std::set<std::string> sites_;     // constraint sites checked
    std::set<std::string> contexts_;  // field places checked
    std::set<std::string> reported_;  // finding keys
    std::size_t visits_ = 0;
    struct Versioned {
        int version;
        Loc where;
        std::string name;
        bool patterned;
        bool reasoned;  // the description gives DATA-ID-003's reason (creation time must not leak)
    };
    std::vector<Versioned> versioned_;

    // The members of a mapping (itself maybe a $ref), keys' positions kept.
    std::vector<Loc> members(const Loc& m) {
        std::vector<Loc> out;
        const Loc d = set_.deref(m);
        if (!d.valid() || !d.node.IsMap()) return out;
        for (auto it = d.node.begin(); it != d.node.end(); ++it) {
            if (!it->first.IsScalar()) continue;
            Loc c;
            c.file = d.file;
            c.node.reset(it->second);
            c.pointer = d.pointer;
            append_pointer_token(c.pointer, it->first.Scalar());
            c.mark = it->first.Mark();
            out.push_back(std::move(c));
        }
        return out;
    }
    std::vector<Loc> elements(const Loc& s) {
        std::vector<Loc> out;
        if (!s.valid() || !s.node.IsSequence()) return out;
        for (std::size_t i = 0; i < s.node.size(); ++i) out.push_back(s.at(i));
        return out;
    }

    // `group` (a parameter's place and name) folds the same finding for the
    // same parameter, repeated inline in every operation, into one.
    void add(std::string rule, std::string kind, const Loc& at, std::string what, std::string expected) {
        Finding f{std::move(rule), std::move(kind), at.pos(), at.pointer, std::move(what), std::move(expected), {}};
        const std::string k = f.rule + '\n' + f.kind + '\n' + f.pos.str();
        if (!reported_.insert(k).second) return;
        if (!group_.empty()) {
            const std::string g = group_ + '\n' + f.rule + '\n' + f.kind + '\n' + f.what;
            if (const auto it = groups_.find(g); it != groups_.end()) {
                out_.findings[it->second].also.push_back(f.pos);
                return;
            }
            groups_[g] = out_.findings.size();
        }
        out_.findings.push_back(std::move(f));
    }
    std::string group_;
    std::map<std::string, std::size_t> groups_;

    // ------------------------------------------------------------ traversal

    void walk_paths(const Loc& paths) {
        for (const Loc& item_ref : members(paths)) {
            const Loc item = set_.deref(item_ref);
            if (!item.valid() || !item.node.IsMap()) continue;
            for (const Loc& p : elements(item.child("parameters"))) walk_param(p);
            for (const char* m : http_methods) {
                const Loc op = item.child(m);
                if (!op.valid() || !op.node.IsMap()) continue;
                for (const Loc& p : elements(op.child("parameters"))) walk_param(p);
                walk_content(set_.deref(op.child("requestBody")));
                for (const Loc& r : members(op.child("responses"))) walk_response(r);
                if (std::string(m) == "post") optional_in_answer(op);
            }
        }
    }

    // ------------------------------------------- a reference optional on create

    struct ObjectShape {
        std::map<std::string, Loc> props;
        std::set<std::string> required;
    };
    void shape_of(const Loc& s_in, ObjectShape& o, int depth = 0) {
        const Loc s = set_.deref(s_in);
        if (!s.valid() || !s.node.IsMap() || depth > 16) return;
        for (const Loc& p : members(s.child("properties"))) o.props.emplace(unescape(p.pointer.substr(p.pointer.rfind('/') + 1)), p);
        for (const Loc& r : elements(s.child("required")))
            if (r.node.IsScalar()) o.required.insert(r.node.Scalar());
        for (const Loc& part : elements(s.child("allOf"))) shape_of(part, o, depth + 1);
    }
    Loc json_schema_of(const Loc& holder) {
        for (const Loc& mt : members(holder.child("content")))
            if (mt.pointer.find("json") != std::string::npos) return set_.deref(mt).child("schema");
        return holder.child("schema");  // Swagger 2.0 response
    }

    // A reference the create request (POST answered 201) may leave out (not required) that the
    // answer lists as required and not nullable: when the client leaves it
    // out, the server has no way to say "none" but a dummy (DATA-ID-007).
    void optional_in_answer(const Loc& op) {
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

    void walk_content(const Loc& holder) {
        if (!holder.valid()) return;
        for (const Loc& mt : members(holder.child("content"))) {
            const Loc d = set_.deref(mt);
            walk_schema(d.child("schema"));
        }
    }

    void walk_response(const Loc& r_ref) {
        const Loc r = set_.deref(r_ref);
        if (!r.valid() || !r.node.IsMap()) return;
        walk_content(r);
        walk_schema(r.child("schema"));  // Swagger 2.0
        for (const Loc& h : members(r.child("headers"))) walk_header(h);
    }

    void walk_header(const Loc& h_ref) {
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

    void walk_param(const Loc& p_ref) {
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
        if (out_of_scope_name(name)) return;
        const Loc s = schema.valid() ? schema : p;  // Swagger 2.0: the parameter is its own schema
        Effective e = effective(s);
        add_param_examples(p, e);
        const bool named = ids::id_named_field(name);
        const bool list = plural_id_named(name) && e.typed("array");
        if (named || uuid_format(e.format_text()) || list) {
            group_ = "param " + in + " " + name;
            const Loc where = p.child("name").valid() ? p.child("name") : p;
            if (list) {
                Field f;
                f.name = name + "[]";
                f.where = where;
                f.schema = e.items;
                f.items = true;
                check_field(f);
            } else {
                Field f;
                f.name = name;
                f.where = where;
                f.schema = s;
                check_field(f, &e);
            }
            if (in == "path" && !is_true(p.node, "required"))
                add("DATA-ID-007", "path-param-not-required", where,
                    "path parameter '" + name + "' is not marked required",
                    "required: true (a path id is never absent)");
            group_.clear();
        }
        if (schema.valid()) walk_schema(schema);
    }

    static void add_param_examples(const Loc& p, Effective& e) {
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

    void walk_schema(const Loc& s) {
        if (!s.valid() || !s.node.IsMap() || visits_ > max_visits) return;
        ++visits_;
        if (get(s.node, "$ref").IsDefined()) {
            const Loc t = set_.deref(s);
            walk_schema(t);
        }
        if (!walked_.insert(s.key()).second) return;
        // a uuid-formatted schema anywhere is an id site, named or not
        if (const auto f = scalar(s.node, "format"); f && uuid_format(*f)) {
            Field fld;
            fld.name = site_name(s.pointer);
            fld.where = s;
            fld.schema = s;
            check_field(fld);
        }
        std::set<std::string> required;
        for (const Loc& r : elements(s.child("required")))
            if (r.node.IsScalar()) required.insert(r.node.Scalar());
        for (const Loc& p : members(s.child("properties"))) {
            const std::string name = p.pointer.substr(p.pointer.rfind('/') + 1);
            const std::string raw = unescape(name);
            consider_property(raw, p, required.count(raw) != 0);
            walk_schema(p);
        }
        for (const char* k : {"items", "additionalProperties", "not", "contains", "unevaluatedProperties"})
            walk_schema(s.child(k));
        for (const char* k : {"allOf", "oneOf", "anyOf", "prefixItems"})
            for (const Loc& e : elements(s.child(k))) walk_schema(e);
        for (const char* k : {"patternProperties", "$defs", "definitions", "dependentSchemas"})
            for (const Loc& e : members(s.child(k))) walk_schema(e);
    }

    // The name a schema is known by: the last pointer token that is not a
    // keyword or an index ("/components/schemas/X/anyOf/1" -> "X").
    static std::string site_name(const std::string& pointer) {
        static const std::set<std::string> skip = {"anyOf", "oneOf", "allOf", "items", "schema", "additionalProperties", "not",
                                                   "prefixItems", "content", "application~1json"};
        std::size_t end = pointer.size();
        while (end > 0) {
            const std::size_t slash = pointer.rfind('/', end - 1);
            if (slash == std::string::npos) break;
            const std::string tok = pointer.substr(slash + 1, end - slash - 1);
            const bool index = !tok.empty() && std::all_of(tok.begin(), tok.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!index && !skip.count(tok)) return unescape(tok);
            end = slash;
        }
        return pointer;
    }

    static std::string unescape(const std::string& token) {
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

    void consider_property(const std::string& name, const Loc& p, bool required) {
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
            check_field(f);
            return;
        }
        if (!named && !uuid_format(e.format_text())) return;
        Field f;
        f.name = name;
        f.where = p;
        f.schema = p;
        f.property = true;
        f.required = required;
        check_field(f, &e);
    }

    // -------------------------------------------------------- effective schema

    Effective effective(const Loc& s) {
        Effective e;
        gather(s, e, 0);
        if (!e.site.valid()) e.site = set_.deref(s);
        return e;
    }

    static bool has_own_constraint(const YAML::Node& n) {
        for (const char* k : {"type", "format", "pattern", "allOf", "oneOf", "anyOf", "enum", "default", "example", "nullable"})
            if (get(n, k).IsDefined()) return true;
        return false;
    }

    void gather(const Loc& s_in, Effective& e, int depth) {
        if (depth > 32 || !s_in.valid() || !s_in.node.IsMap()) return;
        const Loc s = s_in;
        if (!e.site.valid() && has_own_constraint(s.node)) e.site = s;
        // the use's own words first: a description beside a $ref (3.1) wins over the target's
        if (const auto d = scalar(s.node, "description"); d && e.description.empty()) e.description = *d;
        if (get(s.node, "$ref").IsDefined()) {
            const Loc t = set_.deref(s);
            if (t.valid() && !t.node.is(s.node)) gather(t, e, depth + 1);
        }
        const YAML::Node type = get(s.node, "type");
        if (type.IsScalar()) {
            if (type.Scalar() == "null") e.nullable = true;
            else e.types.push_back(type.Scalar());
        } else if (type.IsSequence()) {
            for (const auto& t : type)
                if (t.IsScalar()) {
                    if (t.Scalar() == "null") e.nullable = true;
                    else e.types.push_back(t.Scalar());
                }
        }
        if (is_true(s.node, "nullable") || is_true(s.node, "x-nullable")) e.nullable = true;
        if (s.child("format").valid()) e.format = s.child("format");
        if (s.child("pattern").valid()) e.pattern = s.child("pattern");
        for (const char* k : {"example", "x-example"})
            if (s.child(k).valid()) e.examples.push_back(s.child(k));
        const Loc exs = s.child("examples");
        if (exs.valid() && exs.node.IsSequence())
            for (const Loc& x : elements(exs)) e.examples.push_back(x);
        if (s.child("default").valid()) e.default_value = s.child("default");
        if (const auto d = scalar(s.node, "description"); d && e.description.empty()) e.description = *d;
        if (get(s.node, "enum").IsDefined() || get(s.node, "const").IsDefined()) {
            const YAML::Node en = get(s.node, "enum");
            // `enum: [null]` says only "nullable"
            if (!(en.IsSequence() && en.size() == 1 && en[0].IsNull())) e.has_enum = true;
        }
        for (const char* k : {"minLength", "maxLength"}) {
            if (const auto v = scalar(s.node, k)) {
                try {
                    (k[1] == 'i' ? e.min_length : e.max_length) = std::stol(*v);
                } catch (...) {
                }
            }
        }
        if (s.child("items").valid()) e.items = s.child("items");
        if (get(s.node, "properties").IsDefined()) e.has_properties = true;
        for (const Loc& part : elements(s.child("allOf"))) gather(part, e, depth + 1);
        for (const char* k : {"oneOf", "anyOf"}) {
            std::vector<Loc> others;
            for (const Loc& b : elements(s.child(k))) {
                const Loc d = set_.deref(b);
                if (d.valid() && is_null_schema(d.node)) e.nullable = true;
                else others.push_back(b);
            }
            if (others.size() == 1) gather(others[0], e, depth + 1);
            else if (others.size() > 1) e.alternatives.insert(e.alternatives.end(), others.begin(), others.end());
        }
    }

    // ------------------------------------------------------------- the checks

    void check_field(const Field& f, const Effective* given = nullptr) {
        ++out_.id_fields;
        const Effective e = given ? *given : effective(f.schema);
        bool uuid = true;
        if (!e.alternatives.empty()) {
            for (const Loc& alt : e.alternatives) {
                const Effective a = effective(alt);
                check_constraints(f, a);
            }
        } else {
            uuid = check_constraints(f, e);
        }
        if (f.property) check_place(f, e, uuid);
    }

    // DATA-ID-002 on the constraints, examples and defaults of one schema;
    // false when the field is not a UUID at all (then nothing more is said).
    bool check_constraints(const Field& f, const Effective& e) {
        const Loc site = e.site.valid() ? e.site : f.where;
        const std::string site_key = site.key();
        const bool first = sites_.insert(site_key).second;
        const std::string fmt = e.format_text();
        const std::string pat = e.pattern_text();
        const std::string v7 = canonical_pattern(7);
        const std::string fix = "type: string with pattern: '" + v7 + "' (or the -4- pattern for a v4 field)";
        const int doc_version = documented_version(fmt, e.description);
        auto report = [&](std::string rule, std::string kind, std::string what, std::string expected) {
            if (first) add(std::move(rule), std::move(kind), site, std::move(what), std::move(expected));
        };
        const std::string who = "id '" + f.name + "'";
        const bool integer = e.typed("integer") || e.typed("number");
        if (integer && !e.typed("string")) {
            report("DATA-ID-002", "integer-id", who + " is typed " + (e.typed("integer") ? "integer" : "number") +
                                                     (fmt.empty() ? "" : " (format " + fmt + ")"),
                   fix);
            return false;
        }
        if (!e.types.empty() && !e.typed("string")) return false;  // an object, a list, a boolean: not an id value
        if (e.has_enum) return false;                              // a closed set of names, not ids
        if (e.has_properties && e.types.empty()) return false;
        // examples that are no UUID at all, on a field nothing else calls a
        // UUID: a prefixed or opaque id, said once
        std::string alien;
        bool any_uuid = false;
        for (const Loc& x : e.examples) {
            if (!x.node.IsScalar()) continue;
            if (ids::recognize_uuid(x.node.Scalar()).value) any_uuid = true;
            else if (alien.empty()) alien = x.node.Scalar();
        }
        const PatternVerdict* pv = pat.empty() ? nullptr : &judge_pattern(pat);
        // a ULID (db-identifiers) or viewable id (viewable-id) field fixed to
        // its own canonical form is another pack's business
        if (pv && pv->compiles && !alien.empty() && !other_kind_exact(pat, alien).empty()) return false;
        if (!alien.empty() && !any_uuid && !uuid_format(fmt) && !(pv && pv->compiles && (pv->exact_for(4) || pv->exact_for(7)))) {
            report("DATA-ID-002", "not-uuid", who + " is not a UUID: its example '" + alien + "' is no UUID in any spelling" +
                                                   (pat.empty() ? std::string() : ", and its pattern '" + pat + "' admits such text"),
                   "a UUID string: " + fix);
            return false;
        }
        bool uuid = true;
        if (!pat.empty()) {
            const PatternVerdict& v = *pv;
            if (!v.compiles) {
                report("DATA-ID-002", "pattern-unjudgeable", who + ": pattern '" + pat + "' " + v.faults() +
                                                                  ": what it accepts cannot be checked",
                       "a pattern RE2 compiles: '" + v7 + "'");
            } else if (!v.admits_uuid()) {
                uuid = false;
                report("DATA-ID-002", "not-uuid", who + " is not a UUID: its pattern '" + pat +
                                                       "' admits no canonical UUID (a prefixed or opaque id)",
                       "a UUID string: " + fix);
            } else if (v.exact_for(7) || v.exact_for(4)) {
                versioned_.push_back({v.exact_for(7) ? 7 : 4, site, f.name, true, gives_v4_reason(e.description)});
                if (doc_version != 0 && !v.exact_for(doc_version) && first)
                    add("DATA-ID-003", "version-contradiction", site,
                        who + " is documented as UUIDv" + std::to_string(doc_version) + " but its pattern fixes v" +
                            std::to_string(v.exact_for(7) ? 7 : 4),
                        "one version per field: make the pattern and the description agree");
            } else {
                report("DATA-ID-002", "pattern", who + ": pattern '" + pat + "' " + v.faults(), "pattern: '" + v7 + "'");
            }
        } else if (uuid_format(fmt) && lower(fmt) == "uuid") {
            report("DATA-ID-002", "format-only", who + ": format: uuid alone admits every version, upper case and (in many validators) other spellings",
                   "add pattern: '" + v7 + "' (or the -4- pattern for a v4 field)");
        } else if (uuid_format(fmt)) {
            report("DATA-ID-002", "format-nonstandard", who + ": format '" + fmt +
                                                              "' is not a standard format (validators ignore it) and no pattern fixes the form or the version",
                   "format: uuid with pattern: '" + canonical_pattern(doc_version == 4 ? 4 : 7) + "'");
        } else {
            std::string what = who + " is a string with no constraint" + (fmt.empty() ? "" : " (format '" + fmt + "' says nothing of its form)");
            if (e.min_length && e.max_length && *e.min_length == 36 && *e.max_length == 36)
                what = who + ": minLength/maxLength 36 alone admit any 36 characters";
            report("DATA-ID-002", "unconstrained", what, fix);
        }
        if (doc_version == 4 && pat.empty() && first) {
            add("DATA-ID-003", "v4-not-fixed", site,
                who + " is documented as UUIDv4 (" + (lower(fmt) == "uuid4" ? "format " + fmt : std::string("its description")) +
                    ") but the schema does not fix version 4",
                "pattern: '" + canonical_pattern(4) + "'");
        }
        if (doc_version != 0 && pat.empty()) versioned_.push_back({doc_version, site, f.name, false, gives_v4_reason(e.description)});
        if (!uuid) return false;
        // examples and defaults, where they are written
        for (const Loc& x : e.examples) check_value(f, x, false, pat);
        if (e.default_value.valid()) check_value(f, e.default_value, true, pat);
        return true;
    }

    void check_value(const Field& f, const Loc& x, bool is_default, const std::string& pat) {
        if (!x.node.IsScalar()) return;
        const std::string v = x.node.Scalar();
        const std::string who = "id '" + f.name + "'";
        const std::string what = is_default ? "default" : "example";
        const auto rec = ids::recognize_uuid(v);
        if (is_default && (v.empty() || v == "0" || (rec.value && rec.special == ids::Special::nil))) {
            add("DATA-ID-007", "absence-default", x,
                who + ": default '" + v + "' stands for \"no id\"",
                "no default: absence is an omitted field or null (nullable)");
            return;
        }
        if (rec.value && rec.canonical && rec.special != ids::Special::none) {
            add("DATA-ID-007", "special-example", x,
                who + ": " + what + " is the " + std::string(rec.special == ids::Special::nil ? "Nil" : "Max") +
                    " UUID, not a real id",
                "an example of a real id (a canonical UUIDv7)");
            return;
        }
        if (!ids::is_canonical(v)) {
            add("DATA-ID-002", "non-canonical-" + what, x,
                who + ": " + what + " '" + v + "' is not canonical (" + rec.describe() + ")",
                "a lower-case 8-4-4-4-12 UUID of the field's version");
            return;
        }
        if (!pat.empty()) {
            const PatternVerdict& verdict = judge_pattern(pat);
            if (verdict.compiles && verdict.admits_uuid()) {
                const auto u = ids::parse_canonical(v);
                const int ver = u ? ids::version(*u) : -1;
                if (!verdict.versions.count(ver))
                    add("DATA-ID-002", "example-breaks-pattern", x,
                        who + ": " + what + " '" + v + "' is a version " + std::to_string(ver) + " UUID, which the field's pattern rejects",
                        "an example the pattern accepts");
            }
        }
    }

    // DATA-ID-007 on a property's place in its object.
    void check_place(const Field& f, const Effective& e, bool uuid) {
        if (!contexts_.insert(f.where.key()).second || !uuid) return;
        const bool reference = f.name != "id" && f.name != "ID" && f.name != "uuid";
        if (!reference) return;
        if (f.required && !e.nullable && says_optional(e.description))
            add("DATA-ID-007", "optional-not-nullable", f.where,
                "reference '" + f.name + "' is described as optional but is required and not nullable: absence has no spelling but a dummy",
                "nullable (3.0: nullable: true; 3.1: type: [string, 'null']), or leave it out of required");
        if (!f.required && says_required(e.description))
            add("DATA-ID-007", "required-not-listed", f.where,
                "reference '" + f.name + "' is described as required but is missing from the object's required list",
                "add '" + f.name + "' to required");
    }

    // DATA-ID-003: v4 fields beside fields of another version.
    void version_findings() {
        const Versioned* other = nullptr;
        for (const auto& v : versioned_)
            if (v.version != 4) {
                other = &v;
                break;
            }
        if (!other) return;
        for (const auto& v : versioned_) {
            if (v.version != 4 || v.reasoned) continue;
            add("DATA-ID-003", "v4-beside-other", v.where,
                "id '" + v.name + "' is " + (v.patterned ? "patterned" : "documented") + " as UUIDv4 beside version-" +
                    std::to_string(other->version) + " ids (e.g. '" + other->name + "' at " + other->where.pos().str() + ")",
                "v4 only where creation time must not leak (DATA-ID-003: say so in the field's description); otherwise the v7 pattern");
        }
    }
};

}  // namespace

LintResult lint_openapi(const std::string& path) {
    LintResult out;
    std::vector<Diagnostic> diags;
    auto set = SpecSet::load(path, diags);
    if (!set) {
        out.errors = std::move(diags);
        out.files = 0;
        return out;
    }
    out.format = std::string(to_string(set->kind()));
    Linter(*set, out).run();
    out.warnings = set->diagnostics();
    out.files = set->file_count();
    std::stable_sort(out.findings.begin(), out.findings.end(), [](const Finding& a, const Finding& b) {
        if (a.pos.file != b.pos.file) return a.pos.file < b.pos.file;
        if (a.pos.line != b.pos.line) return a.pos.line < b.pos.line;
        return a.pos.column < b.pos.column;
    });
    return out;
}

LintResult lint_path(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec) || fs::path(path).extension() == ".proto") return lint_proto(path);
    return lint_openapi(path);
}

std::string format_finding(const Finding& f) {
    std::string out = f.pos.str();
    out += ": ";
    out += f.rule;
    out += ": ";
    out += f.pointer.empty() ? "/" : f.pointer;
    out += ": ";
    out += f.what;
    if (!f.expected.empty()) {
        out += " (expected ";
        out += f.expected;
        out += ')';
    }
    if (!f.also.empty())
        out += " [the same parameter at " + std::to_string(f.also.size()) + " more place" + (f.also.size() == 1 ? "" : "s") +
               ", first " + f.also.front().str() + "]";
    return out;
}

const std::vector<FindingKind>& finding_kinds() {
    static const std::vector<FindingKind> k = {
        {"integer-id", "DATA-ID-002", "An id typed integer or number: ids cross the contract as canonical UUID strings."},
        {"unconstrained", "DATA-ID-002", "A string id with no constraint on its form."},
        {"format-only", "DATA-ID-002", "format: uuid alone admits every version, upper case and other spellings."},
        {"format-nonstandard", "DATA-ID-002", "A non-standard uuid format (validators ignore it) and no pattern."},
        {"pattern", "DATA-ID-002", "A pattern that admits other versions, variants, upper case, other forms, or is not anchored."},
        {"pattern-unjudgeable", "DATA-ID-002", "A pattern RE2 cannot compile: what it accepts cannot be checked."},
        {"not-uuid", "DATA-ID-002", "An id whose pattern admits no canonical UUID (a prefixed or opaque id)."},
        {"non-canonical-example", "DATA-ID-002", "An example id that is not in canonical lower-case form."},
        {"non-canonical-default", "DATA-ID-002", "A default id that is not in canonical lower-case form."},
        {"example-breaks-pattern", "DATA-ID-002", "An example of a version the field's pattern rejects."},
        {"proto-bytes-id", "DATA-ID-002", "A .proto id field typed bytes."},
        {"proto-integer-id", "DATA-ID-002", "A .proto id field typed as an integer."},
        {"proto-unconstrained", "DATA-ID-002", "A .proto string id without a protovalidate constraint."},
        {"proto-uuid-only", "DATA-ID-002", "A .proto string id constrained only by string.uuid (any version, upper case)."},
        {"proto-pattern", "DATA-ID-002", "A .proto id pattern that is not the version's canonical pattern by behaviour."},
        {"v4-not-fixed", "DATA-ID-003", "A field documented as UUIDv4 whose schema does not fix version 4."},
        {"v4-beside-other", "DATA-ID-003", "A v4 field beside fields of another version."},
        {"version-contradiction", "DATA-ID-003", "A field documented as one version and patterned as another."},
        {"absence-default", "DATA-ID-007", "An id whose default is \"\", 0 or the Nil UUID: a dummy for absence."},
        {"special-example", "DATA-ID-007", "Nil or Max given as the example of a real id."},
        {"optional-not-nullable", "DATA-ID-007", "An optional reference that is required and not nullable."},
        {"required-not-listed", "DATA-ID-007", "A reference described as required but missing from required."},
        {"path-param-not-required", "DATA-ID-007", "A path id parameter not marked required."},
    };
    return k;
}

}  // namespace idconform::schema
