// The resource forms of load_forms.hpp: shared reference data, resources the
// API cannot delete, singletons read without an id, the table that stores a
// resource (for `idconform db --target`).
#include "profile/load_forms.hpp"

#include "core/strings.hpp"
#include "suite/target_reader.hpp"

#include <algorithm>

namespace idconform::profile::forms {

namespace detail = suite::detail;
using detail::Mapping;
using detail::Reader;

const std::vector<std::string>& resource_keys() {
    static const std::vector<std::string> keys = {"shared", "cannot_delete", "singleton", "refused", "stored_in"};
    return keys;
}

bool is_singleton(const Mapping& m) {
    const auto* x = m.find("singleton");
    return x && x->value.IsScalar() && x->value.Scalar() == "true";
}

namespace {

void shared(Reader& r, const Mapping& m, Resource& res) {
    const auto* x = m.find("shared");
    if (!x) return;
    if (auto b = r.boolean(x->val(), "shared"); b && *b) res.shared = r.pos(x->key_val());
}

void cannot_delete(Reader& r, const Mapping& m, Resource& res) {
    const auto* x = m.find("cannot_delete");
    if (!x) return;
    const char* const example = "cannot_delete: \"jobs are kept for 30 days\"";
    auto s = r.string(x->val(), "cannot_delete", example);
    if (!s) return;
    if (s->find_first_not_of(" \t") == std::string::npos) {
        r.error(x->val(), "empty cannot_delete",
                "say why the API cannot delete them (the report repeats it), e.g. " + std::string(example));
        return;
    }
    if (m.find("delete")) {
        r.error(x->key_val(), "resource '" + res.name + "' has both 'delete' and 'cannot_delete'",
                "keep delete: when the API deletes them; cannot_delete: REASON when it never does");
        return;
    }
    res.cannot_delete = *s;
    res.cannot_delete_pos = r.pos(x->key_val());
}

void singleton(Reader& r, const Mapping& m, Resource& res) {
    const auto* x = m.find("singleton");
    if (!x) return;
    auto b = r.boolean(x->val(), "singleton");
    if (!b || !*b) return;
    res.singleton = r.pos(x->key_val());
    if (!m.find("read"))
        r.error(x->key_val(), "singleton '" + res.name + "' has no 'read'",
                "a singleton is read without an id, e.g. read: {path: /v1/me}");
    // Only the read applies: the harness neither makes nor removes a
    // principal's singleton, and there is no id to put in a path.
    for (const char* k : {"create", "update", "delete", "list", "put", "lookup", "action", "job", "legacy", "viewable",
                          "grpc", "references"})
        if (const auto* y = m.find(k))
            r.error(y->key_val(), "'" + std::string(k) + "' does not apply to singleton '" + res.name + "'",
                    "a singleton (singleton: true) is one entity per principal, read without an id; describe its "
                    "read only, e.g. read: {path: /v1/me}, and its id: {at: /id, kind: ...}");
}

constexpr std::string_view stored_example = "stored_in: {table: shop.products, columns: {/owner/id: owner_id}}";

// "t" or "s.t", both parts non-empty.
bool table_name(Reader& r, const detail::Val& v, const std::string& text, Resource::StoredIn& out) {
    const std::size_t dot = text.find('.');
    if (text.empty() || text.find('.', dot == std::string::npos ? dot : dot + 1) != std::string::npos ||
        (dot != std::string::npos && (dot == 0 || dot + 1 == text.size()))) {
        r.error(v, "'" + text + "' is not a table name", "write table or schema.table, e.g. " + std::string(stored_example));
        return false;
    }
    if (dot == std::string::npos) out.table = text;
    else {
        out.schema = text.substr(0, dot);
        out.table = text.substr(dot + 1);
    }
    return true;
}

void stored_columns(Reader& r, const detail::Val& v, const Resource& res, Resource::StoredIn& out) {
    auto cm = r.mapping(v, "columns", {}, "columns: {/owner/id: owner_id}");
    if (!cm) return;
    const std::vector<std::string> pointers = res.stored_pointers();
    for (const auto& e : cm->entries) {
        if (std::find(pointers.begin(), pointers.end(), e.key) == pointers.end()) {
            std::string list;
            for (const auto& p : pointers) list += (list.empty() ? "" : ", ") + p;
            r.error(e.key_val(), "no id of '" + res.name + "' is at '" + e.key + "'",
                    "columns maps the JSON pointers of its id, fields, references and viewable id to columns: " + list);
            continue;
        }
        auto col = r.string(e.val(), "column", "/owner/id: owner_id");
        if (!col) continue;
        if (col->empty()) {
            r.error(e.val(), "empty column name for '" + e.key + "'", "e.g. " + std::string(stored_example));
            continue;
        }
        out.columns.emplace_back(e.key, *col);
    }
}

// stored_in: TABLE or {table: TABLE, columns: {POINTER: COLUMN}}; every
// stored pointer must name its column (deeper pointers are never guessed).
void stored_in(Reader& r, const Mapping& m, Resource& res) {
    const auto* x = m.find("stored_in");
    if (!x) return;
    Resource::StoredIn st;
    st.pos = r.pos(x->key_val());
    detail::Val table = x->val();
    std::optional<Mapping> sm;
    if (x->val().node.IsMap()) {
        sm = r.mapping(x->val(), "stored_in", {"table", "columns"}, stored_example);
        if (!sm) return;
        const auto* t = sm->find("table");
        if (!t) {
            r.error(x->key_val(), "stored_in needs 'table'", "e.g. " + std::string(stored_example));
            return;
        }
        table = t->val();
    }
    auto name = r.string(table, "table", stored_example);
    if (!name || !table_name(r, table, *name, st)) return;
    if (sm)
        if (const auto* c = sm->find("columns")) stored_columns(r, c->val(), res, st);
    for (const auto& p : res.stored_pointers())
        if (st.column_of(p).empty())
            r.error(x->key_val(), "'" + res.name + "' has an id at '" + p + "', deeper than one member: name its column",
                    "map it: stored_in: {table: " + st.table + ", columns: {" + p + ": COLUMN}}");
    res.stored_in = std::move(st);
}

}  // namespace

void read(Reader& r, const Mapping& m, Resource& res) {
    if (const auto* x = m.find("refused")) res.refused = detail::read_refused(r, x->val());
    shared(r, m, res);
    cannot_delete(r, m, res);
    singleton(r, m, res);
    stored_in(r, m, res);
}

}  // namespace idconform::profile::forms

namespace idconform::profile {

std::string Resource::StoredIn::column_of(const std::string& pointer) const {
    for (const auto& [p, c] : columns)
        if (p == pointer) return c;
    if (pointer.size() < 2 || pointer[0] != '/' || pointer.find('/', 1) != std::string::npos) return "";
    return unescape_pointer_token(std::string_view(pointer).substr(1));
}

std::vector<std::string> Resource::stored_pointers() const {
    std::vector<std::string> out;
    auto add = [&](const std::string& p) {
        if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    };
    add(id.pointer);
    for (const auto& f : fields) add(f.pointer);
    for (const auto& ref : references) add(ref.answer_at());
    if (viewable) add(viewable->pointer);
    return out;
}

}  // namespace idconform::profile
