// The OpenAPI/Swagger half of `idconform lint`: walks every schema the
// document holds (paths, operations, components/definitions, webhooks),
// visiting each schema object once at the place it is written, finds the id
// fields and checks their constraints. A constraint finding is reported at
// the schema that carries the constraints (a shared `Uuid` schema once, not
// once per use); a finding about a field's place in its object (required,
// nullable) at the property. See lint.hpp.
#include "schema/openapi_lint_impl.hpp"

namespace idconform::schema::openapi {

void Linter::run() {
    const Loc root = set_.root();
    gather_segments(root.child("paths"));
    for (const char* where : {"components", "definitions"}) {
        const Loc holder = where[0] == 'c' ? set_.deref(root.child("components")).child("schemas") : root.child("definitions");
        for (const Loc& s : members(holder)) {
            std::string name;
            for (const std::string& w : name_words(unescape(s.pointer.substr(s.pointer.rfind('/') + 1)))) name += w;
            if (!name.empty()) schemas_.insert(name);
        }
    }
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

// The fixed segments of the paths, and each one's tails at word
// boundaries, lower-cased with their separators dropped (`/v1/api-tokens/{id}`:
// v1, apitokens, tokens; `/retentionPolicies`: retentionpolicies, policies;
// `/product.option.add.json`: product, option, add, json).
void Linter::gather_segments(const Loc& paths) {
    for (const Loc& item : members(paths)) {
        const std::string path = unescape(item.pointer.substr(item.pointer.rfind('/') + 1));
        if (path.rfind("x-", 0) == 0) continue;  // an extension of the Paths object
        std::string segment;
        auto flush = [&] {
            const auto words = name_words(segment);
            std::string tail;
            for (std::size_t k = words.size(); k-- > 0;) segments_.insert(tail = words[k] + tail);
            segment.clear();
        };
        bool in_var = false;
        for (char c : path) {
            if (c == '{') in_var = true;
            if (c == '/' || c == '.' || c == '{' || c == '}') flush();
            else if (!in_var) segment += c;
            if (c == '}') in_var = false;
        }
        flush();
    }
}

// Whether an id-named field's stem names a collection of the document's
// paths (`group_id` and /groups, `category_id` and /categories,
// `policy_id` and /retention_policies, `main_location_id` and /locations)
// or one of its schemas (`job_id` and Job).
bool Linter::names_resource(const std::vector<std::string>& words) const {
    if (words.empty()) return false;
    std::string stem;
    for (const std::string& w : words) stem += w;
    // the stem and, for a stem of several words, its last word, each as written and in plural
    std::string key;
    auto named = [&](const std::string& s) {
        for (const char* plural : {"", "s", "es"}) {
            key.assign(s);
            key += plural;
            if (segments_.count(key)) return true;
        }
        if (s.back() != 'y') return false;
        key.assign(s, 0, s.size() - 1);
        key += "ies";
        return segments_.count(key) != 0;
    };
    if (named(stem) || (words.size() > 1 && named(words.back()))) return true;
    // a schema of that entity (`job_id` and Job, `EndpointID` and EndpointSettings)
    key = stem;
    for (const char* suffix : {"", "response", "object", "model", "entity", "resource", "summary", "details", "detail",
                               "info", "item", "record", "dto", "settings"}) {
        key.resize(stem.size());
        key += suffix;
        if (schemas_.count(key)) return true;
    }
    return false;
}

// The members of a mapping (itself maybe a $ref), keys' positions kept.
std::vector<Loc> Linter::members(const Loc& m) {
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

std::vector<Loc> Linter::elements(const Loc& s) {
    std::vector<Loc> out;
    if (!s.valid() || !s.node.IsSequence()) return out;
    for (std::size_t i = 0; i < s.node.size(); ++i) out.push_back(s.at(i));
    return out;
}

// The group of a property of a schema written inline: in an operation (a
// request body's `id`, repeated in every operation of an RPC-style API), or
// as an object inside another schema (the `sender` object a bundler copied
// into every webhook payload): the same name and the same schema, word for
// word. A name that says only "id" is the id of the resource the path is
// about (`id` in /documents.info and /documents.delete is one field, in
// /users.info another), inside a schema the id of the object it is in
// (`sender`, not `repository`); a named id (`documentId`) is the same field
// wherever it is. "" where `at` is not such a property.
std::string Linter::inline_group(const Loc& at) const {
    const std::string& p = at.pointer;
    const auto own = p.rfind("/properties/");
    if (own == std::string::npos) return "";
    const bool in_operation = p.rfind("/paths/", 0) == 0 || p.rfind("/webhooks/", 0) == 0;
    const std::string parent = p.substr(0, own);
    const bool nested = parent.find("/properties/") != std::string::npos || parent.ends_with("/items") ||
                        parent.find("/items/") != std::string::npos;
    if (!in_operation && !nested) return "";  // a named schema's own property: its own finding
    std::string name = site_name(p);
    if (name.size() > 2 && name.compare(name.size() - 2, 2, "[]") == 0) name.resize(name.size() - 2);
    std::string g = "inline " + name;
    if (ids::id_name_stem(name).empty() && !in_operation) {
        g += " in " + site_name(parent);
    } else if (ids::id_name_stem(name).empty()) {
        std::string last = path_.substr(0, path_.find_last_not_of('/') + 1);
        for (std::size_t slash; !last.empty();) {
            slash = last.rfind('/');
            const std::string seg = last.substr(slash == std::string::npos ? 0 : slash + 1);
            if (!seg.empty() && seg.front() != '{') {
                g += " of " + seg.substr(0, seg.find_first_of(".:"));
                break;
            }
            if (slash == std::string::npos) break;
            last.resize(slash);
        }
    }
    YAML::Emitter e;
    e << at.node;
    return g + '\n' + (e.good() ? std::string(e.c_str()) : at.pointer);
}

// `group` (a parameter's place and name) folds the same finding for the
// same parameter, repeated inline in every operation, into one; so does
// inline_group for a property of inline schemas.
void Linter::add(std::string rule, std::string kind, const Loc& at, std::string what, std::string expected) {
    Finding f{std::move(rule), std::move(kind), at.pos(), at.pointer, std::move(what), std::move(expected), {}};
    const std::string k = f.rule + '\n' + f.kind + '\n' + f.pos.str();
    if (!reported_.insert(k).second) return;
    const std::string base = group_.empty() ? inline_group(at) : group_;
    if (!base.empty()) {
        const std::string g = base + '\n' + f.rule + '\n' + f.kind + '\n' + f.what + '\n' + f.expected;
        if (const auto it = groups_.find(g); it != groups_.end()) {
            out_.findings[it->second].also.push_back(f.pos);
            return;
        }
        groups_[g] = out_.findings.size();
    }
    out_.findings.push_back(std::move(f));
}

}  // namespace idconform::schema::openapi

namespace idconform::schema {

using openapi::Linter;

namespace {

LintResult lint_set(std::unique_ptr<SpecSet> set, std::vector<Diagnostic>& diags) {
    LintResult out;
    if (!set) {
        out.errors = std::move(diags);
        out.files = 0;
        return out;
    }
    out.format = std::string(to_string(set->kind()));
    Linter(*set, out).run();
    out.warnings = set->diagnostics();
    out.errors.insert(out.errors.end(), set->shape_errors().begin(), set->shape_errors().end());
    out.files = set->file_count();
    std::stable_sort(out.findings.begin(), out.findings.end(), [](const Finding& a, const Finding& b) {
        if (a.pos.file != b.pos.file) return a.pos.file < b.pos.file;
        if (a.pos.line != b.pos.line) return a.pos.line < b.pos.line;
        return a.pos.column < b.pos.column;
    });
    return out;
}

}  // namespace

LintResult lint_openapi(const std::string& path) {
    std::vector<Diagnostic> diags;
    auto set = SpecSet::load(path, diags);
    return lint_set(std::move(set), diags);
}

LintResult lint_openapi_text(const std::string& name, const std::string& text) {
    std::vector<Diagnostic> diags;
    auto set = SpecSet::load_text(name, text, diags);
    return lint_set(std::move(set), diags);
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
        out += " [the same " + also_noun(f) + " at " + std::to_string(f.also.size()) + " more place" + (f.also.size() == 1 ? "" : "s") +
               ", first " + f.also.front().str() + "]";
    return out;
}

std::string also_noun(const Finding& f) { return f.pointer.find("/properties/") != std::string::npos ? "property" : "parameter"; }

const std::vector<FindingKind>& finding_kinds() {
    static const std::vector<FindingKind> k = {
        {"integer-id", "DATA-ID-002", "An id typed integer or number: ids cross the contract as canonical UUID strings.", "Type the id `string` with the canonical pattern of its version; an integer key stays inside the service."},
        {"unconstrained", "DATA-ID-002", "A string id with no constraint on its form.", "Add `format: uuid` and the canonical lower-case pattern of the field's version."},
        {"format-only", "DATA-ID-002", "format: uuid alone admits every version, upper case and other spellings.", "Add the pattern of the field's version beside `format: uuid`, e.g. `^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$` for v7."},
        {"format-nonstandard", "DATA-ID-002", "A non-standard uuid format (validators ignore it) and no pattern.", "Write `format: uuid` (validators ignore other names) and the canonical pattern of the field's version."},
        {"pattern", "DATA-ID-002", "A pattern that admits other versions, variants, upper case, other forms, or is not anchored.", "Anchor the pattern and make it admit only lower-case hex, the field's version digit and the RFC variant (`[89ab]`)."},
        {"pattern-unjudgeable", "DATA-ID-002", "A pattern RE2 cannot compile: what it accepts cannot be checked.", "Write the pattern in the common subset of regular expressions (no look-around, no back-references)."},
        {"not-uuid", "DATA-ID-002", "An id whose pattern admits no canonical UUID (a prefixed or opaque id).", "If the id is an entity id the service assigns, make it a canonical UUID; if it is another system's id, name or describe it as external."},
        {"non-canonical-example", "DATA-ID-002", "An example id that is not in canonical lower-case form.", "Write the example in lower case, `8-4-4-4-12`, without braces or a `urn:uuid:` prefix."},
        {"non-canonical-default", "DATA-ID-002", "A default id that is not in canonical lower-case form.", "Write the default in lower case, `8-4-4-4-12`, or drop it: new ids come from the service."},
        {"example-breaks-pattern", "DATA-ID-002", "An example of a version the field's pattern rejects.", "Use an example of the version the pattern admits (the pattern is what clients are held to)."},
        {"empty-admitted", "DATA-ID-007", "An id pattern that admits the empty string, a dummy id.", "Drop the alternative that matches `\"\"`; absence is `null` or an omitted member."},
        {"proto-bytes-id", "DATA-ID-002", "A .proto id field typed bytes.", "Declare the field `string` with a protovalidate pattern of the id's version."},
        {"proto-integer-id", "DATA-ID-002", "A .proto id field typed as an integer.", "Declare the field `string` with a protovalidate pattern of the id's version."},
        {"proto-unconstrained", "DATA-ID-002", "A .proto string id without a protovalidate constraint.", "Add `(buf.validate.field).string.pattern` with the canonical pattern of the id's version."},
        {"proto-uuid-only", "DATA-ID-002", "A .proto string id constrained only by string.uuid (any version, upper case).", "Replace or complete `string.uuid` with the canonical lower-case pattern of the id's version."},
        {"proto-pattern", "DATA-ID-002", "A .proto id pattern that is not the version's canonical pattern by behaviour.", "Use the anchored canonical pattern of the id's version: lower-case hex, its version digit, the RFC variant."},
        {"v4-not-fixed", "DATA-ID-003", "A field documented as UUIDv4 whose schema does not fix version 4.", "Give the field the v4 pattern `^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`."},
        {"v4-beside-other", "DATA-ID-003", "A v4 field beside fields of another version.", "Check that the v4 field is meant not to reveal its creation time, and that the others are meant to be of their version."},
        {"version-contradiction", "DATA-ID-003", "A field documented as one version and patterned as another.", "Make the description and the pattern name the same version."},
        {"absence-default", "DATA-ID-007", "An id whose default is \"\", 0 or the Nil UUID: a dummy for absence.", "Drop the default, or make it `null` with `nullable: true` (3.0) or `type: [string, \"null\"]` (3.1)."},
        {"special-example", "DATA-ID-007", "Nil or Max given as the example of a real id.", "Use an example of a real id of the field's version; Nil and Max are never ids."},
        {"optional-not-nullable", "DATA-ID-007", "An optional reference that is required and not nullable.", "Make the reference nullable, or leave it out of `required`, so that absence can be said with `null` or an omitted member."},
        {"required-not-listed", "DATA-ID-007", "A reference described as required but missing from required.", "List the reference in the schema's `required`."},
        {"path-param-not-required", "DATA-ID-007", "A path id parameter not marked required.", "Mark the path parameter `required: true` (OpenAPI requires it for path parameters)."},
    };
    return k;
}

}  // namespace idconform::schema
