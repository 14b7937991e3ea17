// Fuzz target: the OpenAPI side of `idconform lint` on a document in memory:
// the input boundary and yaml-cpp, the SpecSet ($ref resolution, JSON
// pointers, duplicate keys, shape checks), the walker and every check. It
// must finish in bounded time and memory for any bytes, and every finding,
// error and warning must carry a position in the document.
//
// And the two one-pass readers against yaml-cpp: whatever text the JSON
// reader (schema/json_tree.hpp) or the one-pass YAML reader
// (schema/yaml_tree.hpp) accepts, YAML::Load must read into the same tree
// (types, tags, styles, scalars, marks, members in order) with the same
// duplicate keys; a difference aborts.
#include "schema/json_tree.hpp"
#include "schema/lint.hpp"
#include "schema/yaml_tree.hpp"

#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

using namespace idconform;

namespace {

bool same(const YAML::Node& a, const YAML::Node& b, bool& dup) {
    if (a.Type() != b.Type() || a.Tag() != b.Tag() || a.Style() != b.Style()) return false;
    const YAML::Mark ma = a.Mark(), mb = b.Mark();
    if (ma.pos != mb.pos || ma.line != mb.line || ma.column != mb.column) return false;
    if (a.IsScalar() && a.Scalar() != b.Scalar()) return false;
    if (a.size() != b.size()) return false;
    if (a.IsSequence())
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i], dup)) return false;
    if (a.IsMap()) {
        std::set<std::string> keys;  // the scalar keys before this one (a scan of them all was quadratic)
        for (auto x = a.begin(), y = b.begin(); x != a.end() && y != b.end(); ++x, ++y) {
            if (!same(x->first, y->first, dup) || !same(x->second, y->second, dup)) return false;
            if (x->first.IsScalar() && !keys.insert(x->first.Scalar()).second) dup = true;
        }
    }
    return true;
}

void against_yaml_cpp(const std::optional<YAML::Node>& mine, bool mine_dup, const std::string& text) {
    if (!mine) return;
    YAML::Node ref;
    try {
        ref = YAML::Load(text);
    } catch (const YAML::Exception&) {
        std::abort();  // accepted what yaml-cpp refuses
    }
    bool dup = false;
    if (!same(*mine, ref, dup) || dup != mine_dup) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const schema::LintResult r = schema::lint_openapi_text("fuzz.openapi.yaml", text);
    for (const auto& f : r.findings) {
        if (f.pos.file != "fuzz.openapi.yaml" || f.pos.line < 1 || f.pos.column < 1) std::abort();
        (void)schema::format_finding(f);
    }
    for (const auto& d : r.errors) (void)render(d);
    for (const auto& d : r.warnings)
        if (d.pos.file != "fuzz.openapi.yaml") std::abort();
    bool dup = false;
    const auto json = schema::detail::read_json_tree(text, schema::detail::json_tree_max_depth, &dup);
    against_yaml_cpp(json, dup, text);
    if (size < 4096) {  // the YAML reader is yaml-cpp's parser: its own speed is not what is fuzzed
        const auto yaml = schema::detail::read_yaml_tree(text, schema::detail::yaml_tree_max_depth, &dup);
        against_yaml_cpp(yaml, dup, text);
    }
    return 0;
}
