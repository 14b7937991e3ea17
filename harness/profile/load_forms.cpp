// The resource forms of load_forms.hpp: shared reference data, resources the
// API cannot delete, singletons read without an id.
#include "profile/load_forms.hpp"

#include "suite/target_reader.hpp"

namespace idconform::profile::forms {

namespace detail = suite::detail;
using detail::Mapping;
using detail::Reader;

const std::vector<std::string>& resource_keys() {
    static const std::vector<std::string> keys = {"shared", "cannot_delete", "singleton", "refused"};
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

}  // namespace

void read(Reader& r, const Mapping& m, Resource& res) {
    if (const auto* x = m.find("refused")) res.refused = detail::read_refused(r, x->val());
    shared(r, m, res);
    cannot_delete(r, m, res);
    singleton(r, m, res);
}

}  // namespace idconform::profile::forms
