// The profile loader, answer forms of real APIs: where the create answer
// names the new id (`id: {header: ...}`: a registry's Docker-Upload-UUID, or
// Location of a 202 with an empty body), entities addressed at the create
// answer's Location URL (`path: "{location}"`), reads answering an array
// (`read: {items: ""}`, checked in load_endpoints.cpp) and fields the create
// answer lacks (`in_create: false`). What the expander makes of them:
// expand_answer_forms.cpp.
#include "profile/load_impl.hpp"

namespace idconform::profile::loading {

namespace {

bool header_name_ok(const std::string& s) {
    if (s.empty()) return false;
    for (unsigned char c : s)
        if (c <= 32 || c >= 127 ||
            std::string_view(":()<>@,;\\\"/[]?={}").find(static_cast<char>(c)) != std::string_view::npos)
            return false;
    return true;
}

}  // namespace

bool Loader::location_path_ok(const Val& v, const std::string& path, const Operation& op) {
    const std::string_view key = op.key;
    if (key != "read" && key != "update" && key != "delete") {
        r_.error(v, "the " + std::string(op.key) + " path cannot be '{location}'",
                 key == "create" || key == "list"
                     ? "'{location}' is the URL a create answer names for its new entity; a " + std::string(op.key) +
                           " goes to the collection, e.g. path: /v1/products"
                     : "only read, update and delete may go to the create answer's Location URL");
        return false;
    }
    if (path != "{location}") {
        r_.error(r_.mark_at(v, path, path.find("{location}")),
                 "'{location}' must be the whole " + std::string(op.key) + " path",
                 "it stands for the whole URL the create answer's Location named (relative or absolute, "
                 "same origin only): write path: \"{location}\"");
        return false;
    }
    return true;
}

bool Loader::id_header(const Entry& x, std::string_view what, IdRole role, bool at_written, IdField& f) {
    if (role != IdRole::own) {
        r_.error(x.key_val(), "'header' is for the entity's own id, not for field '" + std::string(what) + "'",
                 "say under the resource's id: where the create answer names the new id, e.g. id: {header: "
                 "Location}; an id field of the entity is found at its JSON pointer (at:)");
        return false;
    }
    auto s = r_.string(x.val(), "header", "header: Location");
    if (!s) return false;
    if (!header_name_ok(*s)) {
        r_.error(x.val(), "'" + *s + "' is not a header name",
                 "name the answer header that carries the new id, e.g. header: Docker-Upload-UUID or header: "
                 "Location");
        return false;
    }
    f.header = *s;
    // Without `at` no answer holds the id in a body (a registry's uploads
    // answer 202/204 with headers only); with it, read answers do.
    if (!at_written) f.pointer.clear();
    return true;
}

bool Loader::create_at(const Entry& x, std::string_view what, IdRole role, bool header_written, IdField& f) {
    if (role != IdRole::own) {
        r_.error(x.key_val(), "'create_at' is for the entity's own id, not for field '" + std::string(what) + "'",
                 "a field the create answer lacks is written in_create: false; create_at says where the create "
                 "answer names the new id, e.g. id: {at: /id, create_at: /orderID}");
        return false;
    }
    if (header_written) {
        r_.error(x.key_val(), "'create_at' and 'header' both say where the create answer names the new id",
                 "keep one: header: NAME when it is in an answer header, create_at: POINTER when it is in the "
                 "create answer's body at another member than reads have it");
        return false;
    }
    auto s = r_.string(x.val(), "create_at", "create_at: /orderID");
    if (!s || !member_pointer(x.val(), *s, "create_at", "/orderID")) return false;
    if (*s == f.pointer) {
        r_.error(x.val(), "create_at " + *s + " is where every answer has the id already (at: " + f.pointer + ")",
                 "drop create_at: it is for a create answer that names the new id at another member than reads, "
                 "e.g. id: {at: /id, create_at: /orderID}");
        return false;
    }
    f.create_pointer = *s;
    f.create_pos = r_.pos(x.val());
    return true;
}

bool Loader::in_create(const Entry& x, std::string_view what, IdRole role, bool& out) {
    if (role == IdRole::own) {
        r_.error(x.key_val(), "'in_create' is for the entity's other fields and references, not its own id",
                 "a create answer without the new id in its body names it in a header: id: {at: /id, header: "
                 "Location}");
        return false;
    }
    if (role == IdRole::client) {
        r_.error(x.key_val(), "'in_create' does not apply to the client-chosen id '" + std::string(what) + "'",
                 "a client-chosen id is in the create body by definition; remove in_create:");
        return false;
    }
    auto b = r_.boolean(x.val(), "in_create");
    if (!b) return false;
    out = *b;
    return true;
}

void Loader::answer_forms(const Mapping& m, Resource& res) {
    const char* keys[] = {"read", "update", "delete"};
    const std::optional<Endpoint>* eps[] = {&res.read, &res.update, &res.del};
    for (std::size_t i = 0; i < std::size(keys); ++i) {
        if (!*eps[i] || !(*eps[i])->at_location) continue;
        const Entry* e = m.find(keys[i]);
        if (!res.create) {
            r_.error(e->val(),
                     "the " + std::string(keys[i]) + " of '" + res.name +
                         "' goes to the create answer's Location, but '" + res.name + "' has no create",
                     "'{location}' is the URL a create answer names; give '" + res.name +
                         "' a create: {...}, or write the path with {id}");
        } else if (!res.location) {
            r_.error(e->val(),
                     "the " + std::string(keys[i]) + " of '" + res.name +
                         "' goes to the create answer's Location, but the profile says it has none "
                         "(location: false)",
                     "remove location: false (the create answers with a Location header), or write the path with {id}");
        }
    }
    if (res.read && res.read->answers_array && res.read->at_location) {
        r_.error(m.find("read")->val(), "a read at the create answer's Location cannot answer an array",
                 "items: says the read filters a collection by the id, e.g. read: {path: \"/products?id=eq.{id}\", "
                 "items: \"\"}; a Location names the entity itself");
    }
    if (res.read && res.read->answers_array && res.read->items.empty() && !res.read->not_found)
        res.read->not_found = NotFound{{res.read->pos}, 200, boost::json::array(), {}, {}};
    auto require_read = [&](const char* section, const std::string& what) {
        if (res.read) return;
        const Entry* e = m.find(section);
        r_.error(e ? e->key_val() : m.self,
                 "'" + res.name + "' has " + what + " only in read answers, but no read endpoint",
                 "the harness reads the entity back to judge what the create answer lacks (in_create: false); add "
                 "read: {path: \"/v1/products/{id}\"}");
    };
    for (const auto& f : res.fields)
        if (!f.in_create) require_read("fields", "the field " + f.pointer);
    for (const auto& ref : res.references)
        if (!ref.in_create) require_read("references", "the reference '" + ref.field + "'");
    if (!res.time_in_create && !res.time_field.empty()) require_read("time_field", "the time field " + res.time_field);
}

}  // namespace idconform::profile::loading
