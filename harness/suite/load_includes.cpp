// The suite loader, includes: vector-set files, fragment libraries, inline
// `vectors:` and `fragments:` (include cycles and duplicates diagnosed).
#include "suite/input_guard.hpp"
#include "suite/loader_impl.hpp"
#include "suite/simple_vectors.hpp"

#include "scan/scan.hpp"
#include "core/grpc_status.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

namespace idconform::suite::detail {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> library_keys = {"description", "include", "vectors", "fragments"};
const std::vector<std::string> vector_file_keys = {"set", "description", "vectors"};

}  // namespace

void Loader::includes(Reader& r, const Entry& e) {
    auto items = r.sequence(e.val(), "include", "include: [../vectors/rfc9562.yaml, fragments/products.yaml]");
    if (!items) return;
    const std::string from = r.source().path;
    for (const auto& item : *items) {
        auto rel = r.string(item, "include", "- ../vectors/rfc9562.yaml");
        if (!rel) continue;
        include_one(r, item, *rel, from);
    }
}

void Loader::include_one(Reader& r, const Val& item, const std::string& rel, const std::string& from) {
    const fs::path joined = fs::path(from).parent_path() / rel;
    const std::string display = joined.lexically_normal().string();
    const std::string canon = canonical(display);
    if (auto it = std::find(include_stack_.begin(), include_stack_.end(), canon); it != include_stack_.end()) {
        std::string chain;
        for (auto i = static_cast<std::size_t>(it - include_stack_.begin()); i < include_display_.size(); ++i)
            chain += include_display_[i] + " -> ";
        r.error(item, "include cycle: " + chain + display,
                "remove this include: a file must not include, directly or indirectly, a file that "
                "includes it");
        return;
    }
    if (included_.count(canon)) return;  // the same file reached twice: loaded once
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(display, ec))) {
        r.error(item, "included file '" + rel + "' not found",
                "looked for " + display + "; include paths are relative to the including file (" + from + ")");
        return;
    }
    // A folder, a device, a pipe or a file under /proc, /sys or /dev is
    // refused by the guard, saying which.
    auto text = detail::read_input_file(display, "included file", input::NamedBy::file);
    if (!text.text) {
        const bool positioned = text.error.pos.line > 0;
        if (positioned) {
            diags.push_back(std::move(text.error));
            r.error(item, "cannot read included file '" + rel + "'", "fix the error reported for " + display + " above");
        } else {
            r.error(item, text.error.title, text.error.hint);
        }
        return;
    }
    const std::size_t before = diags.size();
    push_include_frame(display);
    library_file(*text.text, display);
    pop_include_frame();
    if (diags.size() > before)
        r.error(item, "included file '" + display + "' has errors",
                "fix the errors reported for " + display + " above");
}

// An included file: a vector-set file or a fragment/library file.
void Loader::library_file(const std::string& text, const std::string& path) {
    // Large generated vector sets: no yaml-cpp tree (see simple_vectors.hpp).
    if (auto set = detail::read_simple_vector_set(text, path); set && !vector_sets_.count(set->name)) {
        vector_sets_.emplace(set->name, std::move(*set));
        return;
    }
    const SourceText& src = keep(SourceText::from(path, text));
    auto root = parse(src, text, "included");
    if (!root) return;
    Reader r(src, diags);
    const Val rv{*root, root->Mark()};
    const char* const kinds =
        "an included file holds either a vector set:\n  set: rfc9562\n  vectors: [{name: a6-v7, value: ...}]\n"
        "or fragments (reusable steps):\n  fragments:\n    create_product: {http: {...}, expect: {...}}";
    if (!root->IsMap()) {
        r.error(rv, "expected a mapping at the top of the included file, found " + detail::kind_name(*root),
                kinds);
        return;
    }
    const YAML::Node& top = *root;  // const: operator[] must not insert keys
    if (top["set"]) {
        if (auto set = vector_file(r, rv)) add_vector_set(r, rv, std::move(*set));
        return;
    }
    if (top["name"] || top["cases"]) {
        r.error(rv, "cannot include a suite file",
                "only vector-set files and fragment files can be included; run suites side by side instead");
        return;
    }
    if (!top["fragments"] && !top["vectors"]) {
        r.error(rv, "the included file is neither a vector-set file nor a fragment file", kinds);
        return;
    }
    auto m = r.mapping(rv, "fragment file", library_keys, "fragments: {create_product: {http: {...}}}");
    if (!m) return;
    if (const auto* e = m->find("include")) includes(r, *e);
    if (const auto* e = m->find("description")) (void)r.string(e->val(), "description", "description: text");
    if (const auto* e = m->find("vectors")) inline_vectors(r, *e);
    if (const auto* e = m->find("fragments")) fragments(r, *e);
}

std::optional<VectorSet> Loader::vector_file(Reader& r, const Val& rv) {
    const char* const example = "\n  set: rfc9562\n  vectors:\n    - {name: a6-v7, value: 017f22e2-...}";
    if (!rv.node.IsMap()) {
        r.error(rv, "expected a mapping at the top of the vector-set file, found " + detail::kind_name(rv.node),
                std::string("a vector-set file looks like:") + example);
        return std::nullopt;
    }
    auto m = r.mapping(rv, "vector-set file", vector_file_keys, example);
    if (!m) return std::nullopt;
    VectorSet set;
    set.pos = r.pos(rv);
    bool ok = true;
    if (const auto* e = m->find("set")) {
        if (auto n = r.string(e->val(), "set", "set: rfc9562")) {
            set.name = *n;
            set.pos = r.pos(e->val());
            if (!valid_name(*n)) {
                r.error(e->val(), "bad vector set name '" + *n + "'",
                        "names use letters, digits, '_' and '-' and start with a letter, e.g. set: rfc9562");
                ok = false;
            }
        } else {
            ok = false;
        }
    } else {
        r.error(rv, "missing required key 'set' in vector-set file", "name the set, e.g. set: rfc9562");
        ok = false;
    }
    if (const auto* e = m->find("description"))
        if (auto d = r.string(e->val(), "description", "description: text")) set.description = *d;
    if (const auto* e = m->find("vectors")) {
        if (!vector_entries(r, e->val(), set)) ok = false;
    } else {
        r.error(rv, "missing required key 'vectors' in vector-set file",
                "list the vectors, e.g.\n  vectors:\n    - {name: a6-v7, value: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f}");
        ok = false;
    }
    if (!ok) return std::nullopt;
    return set;
}

bool Loader::vector_entries(Reader& r, const Val& v, VectorSet& set) {
    auto items = r.sequence(v, "vectors", "\n  vectors:\n    - {name: a6-v7, value: 017f22e2-...}");
    if (!items) return false;
    bool ok = true;
    std::map<std::string, int> names;  // name -> line
    for (const auto& item : *items) {
        auto m = r.mapping(item, "vector", {}, "{name: a6-v7, value: 017f22e2-..., version: 7}");
        if (!m) {
            ok = false;
            continue;
        }
        Vector vec;
        vec.pos = r.pos(item);
        const auto* name = m->find("name");
        const auto* value = m->find("value");
        if (!name) {
            r.error(item, "missing required key 'name' in vector", "name each vector, e.g. name: a6-v7");
            ok = false;
        } else if (auto n = r.string(name->val(), "name", "name: a6-v7")) {
            vec.name = *n;
            if (auto [it, fresh] = names.emplace(*n, name->val().mark.line + 1); !fresh) {
                r.error(name->val(), "duplicate vector name '" + *n + "' in set '" + set.name + "'",
                        "vector names must be unique within a set; the first is at line " +
                            std::to_string(it->second));
                ok = false;
            }
        } else {
            ok = false;
        }
        if (!value) {
            r.error(item, "missing required key 'value' in vector",
                    "give the value the vector stands for (null, 0 and \"\" are allowed), e.g. value: "
                    "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
            ok = false;
        } else if (value->value.IsMap() || value->value.IsSequence()) {
            r.error(value->val(), "expected a scalar here, found " + detail::kind_name(value->value),
                    "a vector's value is one scalar (a string, number, true/false or null); put other "
                    "data in extra keys of the entry");
            ok = false;
        } else if (auto j = r.json(value->val(), false)) {
            vec.value = std::move(*j);
        }
        for (const auto& e : m->entries) {
            if (e.key == "name" || e.key == "value") continue;
            if (auto j = r.json(e.val(), false))
                vec.fields[e.key] = std::move(*j);
            else
                ok = false;
        }
        set.vectors.push_back(std::move(vec));
    }
    return ok;
}

void Loader::add_vector_set(Reader& r, const Val& at, VectorSet set) {
    if (auto it = vector_sets_.find(set.name); it != vector_sets_.end()) {
        r.error(at, "duplicate vector set '" + set.name + "'",
                "it is already defined at " + it->second.pos.str() + "; rename one of them");
        return;
    }
    vector_sets_.emplace(set.name, std::move(set));
}

void Loader::inline_vectors(Reader& r, const Entry& e) {
    auto m = r.mapping(e.val(), "vectors", {}, "\n  vectors:\n    my-set:\n      - {name: v1, value: abc}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        VectorSet set;
        set.name = entry.key;
        set.pos = r.pos(entry.key_val());
        if (!valid_name(entry.key)) {
            r.error(entry.key_val(), "bad vector set name '" + entry.key + "'",
                    "names use letters, digits, '_' and '-' and start with a letter, e.g. my-set");
            continue;
        }
        if (vector_entries(r, entry.val(), set)) add_vector_set(r, entry.key_val(), std::move(set));
    }
}

void Loader::fragments(Reader& r, const Entry& e) {
    auto m = r.mapping(e.val(), "fragments", {},
                       "\n  fragments:\n    create_product:\n      http: {method: POST, path: /v1/products}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        if (!valid_name(entry.key)) {
            r.error(entry.key_val(), "bad fragment name '" + entry.key + "'",
                    "names use letters, digits, '_' and '-' and start with a letter, e.g. create_product");
            continue;
        }
        if (auto it = fragments_.find(entry.key); it != fragments_.end()) {
            r.error(entry.key_val(), "duplicate fragment '" + entry.key + "'",
                    "it is already defined at " + it->second.pos.str() + "; rename one of them");
            continue;
        }
        std::optional<Ref> principal;
        auto step = parse_step(r, entry.val(), "fragment", &principal, /*allow_use=*/false);
        if (!step) continue;
        if (step->name.empty() || step->name == default_step_name(step->request)) step->name = entry.key;
        fragments_.emplace(entry.key, Fragment{std::move(*step), std::move(principal), r.pos(entry.key_val())});
    }
}

}  // namespace idconform::suite::detail
