// The profile loader, id fields: a resource's `id:` (place, kind, pattern),
// its other id `fields:` and its `references:` to other resources (checked
// against each other once every resource is loaded, in load.cpp).
#include "profile/load_impl.hpp"

#include "ids/kind.hpp"
#include "ids/of_kind.hpp"

#include <re2/re2.h>

#include <algorithm>

namespace idconform::profile::loading {

namespace {

const std::vector<std::string> id_keys = {"at", "kind", "pattern", "header", "create_at", "in_create"};
const std::vector<std::string> reference_keys = {"resource", "required", "kind", "in_create", "at"};

// RFC 6901 escaping of one member name.
std::string pointer_to(const std::string& name) {
    std::string out = "/";
    for (char c : name) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

}  // namespace

// A JSON pointer to a member of the entity: valid and not the whole body.
bool Loader::member_pointer(const Val& v, const std::string& pointer, std::string_view what, std::string_view example) {
    if (!r_.check_pointer_at(v, pointer)) return false;
    if (!pointer.empty()) return true;
    r_.error(v, "empty JSON pointer for '" + std::string(what) + "'",
             "'' is the whole entity; point at its member, e.g. " + std::string(what) + ": " + std::string(example));
    return false;
}

// A kind of the one vocabulary (ids/kind.hpp), but not `any`: a profile says
// what its ids are, and "anything" says nothing a check could hold them to.
std::optional<ids::IdKind> Loader::kind_ok(const Val& v, const std::string& kind) {
    const std::optional<ids::IdKind> k = ids::parse_kind(kind);
    if (k && *k != ids::IdKind::any) return k;
    if (k) {
        r_.error(v, "id kind 'any' does not describe an id field",
                 "say what the ids are: a UUID or ULID kind, or kind: existing (with an optional pattern) for an id "
                 "that kept a format from before the UUID rules (integers, nanoid)");
        return std::nullopt;
    }
    std::vector<std::string> all;
    for (const auto& n : detail::id_kinds())
        if (n != ids::kind_name(ids::IdKind::any)) all.push_back(n);
    r_.error(v, "unknown id kind '" + kind + "'",
             detail::suggest(kind, all, "kinds") +
                 "; an id that kept a format from before the UUID rules (integers, nanoid) is kind: existing");
    return std::nullopt;
}

// `/id` (shorthand) or {at: /id, kind: uuidv7}; `at` defaults to `default_at`.
std::optional<IdField> Loader::id_field(const Val& v, std::string_view what, const std::string& default_at,
                                        IdRole role) {
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
        else ok = false;
    }
    if (const auto* x = m->find("kind")) {
        const auto s = r_.string(x->val(), "kind", "kind: uuidv7");
        if (const auto k = s ? kind_ok(x->val(), *s) : std::nullopt) f.kind = *k;
        else ok = false;
    }
    if (const auto* x = m->find("pattern")) {
        if (auto s = r_.string(x->val(), "pattern", "pattern: \"^[0-9]+$\"")) {
            const RE2 re(*s, RE2::Quiet);
            if (role == IdRole::field) {
                r_.error(x->key_val(), "'pattern' is for the entity's own id, not for field '" + std::string(what) + "'",
                         "a pattern says how fresh ids of the entity are made (id: {kind: existing, pattern: ...}); "
                         "an id field of kind existing is checked without one: remove pattern:");
                ok = false;
            } else if (f.kind != ids::IdKind::existing) {
                r_.error(x->key_val(), "'pattern' is for ids of kind existing, not " + std::string(ids::kind_name(f.kind)),
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
    if (const auto* x = m->find("header")) ok = id_header(*x, what, role, m->find("at") != nullptr, f) && ok;
    if (const auto* x = m->find("create_at")) ok = create_at(*x, what, role, m->find("header") != nullptr, f) && ok;
    if (const auto* x = m->find("in_create")) ok = in_create(*x, what, role, f.in_create) && ok;
    if (!ok) return std::nullopt;
    return f;
}

void Loader::fields(const Val& v, Resource& res) {
    auto m = r_.mapping(v, "fields", {}, "{tracking_id: {at: /tracking_id, kind: uuidv4}}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        auto f = id_field(entry.val(), entry.key, pointer_to(entry.key), IdRole::field);
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

void Loader::client_ids(const Val& v, Resource& res) {
    auto m = r_.mapping(v, "client_ids", {}, "{line_id: {at: /lines/0/id, kind: uuidv7}}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        auto f = id_field(entry.val(), entry.key, pointer_to(entry.key), IdRole::client);
        if (!f) continue;
        f->pos = r_.pos(entry.key_val());
        std::string why = ids::no_fresh_id(f->kind, {f->pattern});
        if (why.empty() && f->kind == ids::IdKind::existing) why = "an existing format has no generator here";
        if (!why.empty()) {
            r_.error(entry.val(), "idconform cannot make client-chosen ids of kind " +
                                      std::string(ids::kind_name(f->kind)) + " for '" + entry.key + "': " + why,
                     "give a kind it generates: uuidv7, uuidv4, ulid, ...");
            continue;
        }
        res.client_ids.push_back(std::move(*f));
    }
}

void Loader::references(const Val& v, Resource& res) {
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
            if (auto b = r_.boolean(x->val(), "required")) ref.required = *b;
            else ok = false;
        }
        if (const auto* x = rm->find("kind")) {
            const auto s = r_.string(x->val(), "kind", "kind: uuidv7");
            if (const auto k = s ? kind_ok(x->val(), *s) : std::nullopt) {
                ref.kind = *k;
                ref.kind_written = true;
            } else {
                ok = false;
            }
        }
        if (const auto* x = rm->find("in_create")) ok = in_create(*x, entry.key, IdRole::field, ref.in_create) && ok;
        if (const auto* x = rm->find("at")) {  // answers name it otherwise: {resource: series, at: /parent_series}
            if (auto s = r_.string(x->val(), "at", "at: /parent_series");
                s && member_pointer(x->val(), *s, "at", "/parent_series"))
                ref.answer_pointer = *s;
            else ok = false;
        }
        if (!ok) continue;
        sites_.push_back(ReferenceSite{res.name, ref.field, ref.resource, ref.required, at});
        res.references.push_back(std::move(ref));
    }
}

}  // namespace idconform::profile::loading
