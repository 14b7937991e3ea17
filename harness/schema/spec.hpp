// A machine schema document read with positions: the entry file and every
// file its `$ref`s reach (relative paths, a spec split over folders), each
// parsed once by yaml-cpp (JSON is read as YAML 1.2 flow), with the `$ref`
// resolution and JSON pointers the lint and the profile draft both need.
#pragma once

#include "core/diagnostic.hpp"
#include "schema/yaml_access.hpp"

#include <yaml-cpp/yaml.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace idconform::schema {

// One parsed file.
struct SpecFile {
    std::string path;  // as printed in positions (relative to the cwd when given so)
    YAML::Node root;
};

// A node of some file and the JSON pointer (RFC 6901, without '#') to it.
struct Loc {
    // yaml-cpp's Node::operator= writes through to the node it is bound to
    // (it would rewrite the document); a Loc is rebound with Node::reset.
    Loc() = default;
    Loc(const Loc&) = default;
    Loc& operator=(const Loc& o) {
        file = o.file;
        node.reset(o.node);
        pointer = o.pointer;
        mark = o.mark;
        return *this;
    }
    // Moves keep the pointer's text (a copy of it was the largest cost of
    // building member lists); YAML::Node has no move and is shared instead.
    // noexcept so that vectors of Locs move them: a valid node's copy
    // allocates nothing.
    Loc(Loc&& o) noexcept : file(o.file), node(o.node), pointer(std::move(o.pointer)), mark(o.mark) {}
    Loc& operator=(Loc&& o) noexcept {
        file = o.file;
        node.reset(o.node);
        pointer = std::move(o.pointer);
        mark = o.mark;
        return *this;
    }
    ~Loc() = default;
    const SpecFile* file = nullptr;
    YAML::Node node;
    std::string pointer;
    YAML::Mark mark;  // where to point at: the member's key when reached by key, else the node
    [[nodiscard]] bool valid() const { return file != nullptr && node.IsDefined(); }
    [[nodiscard]] Loc child(const std::string& key) const;  // mapping member (undefined Loc if absent)
    // child(keys[i]) into out[i] for each of n keys, in one pass over the mapping.
    void children(const std::string_view* keys, std::size_t n, Loc* out) const;
    [[nodiscard]] Loc at(std::size_t index) const;           // sequence element
    [[nodiscard]] SourcePos pos() const;                     // 1-based, of the node
    [[nodiscard]] std::string key() const { return file ? file->path + "#" + pointer : std::string(); }
};

// Appends one token to a JSON pointer, escaping '~' and '/'.
void append_pointer_token(std::string& pointer, std::string_view token);

enum class SpecKind { openapi30, openapi31, swagger20, unknown };
[[nodiscard]] std::string_view to_string(SpecKind k) noexcept;

class SpecSet {
public:
    // Loads `path` as the entry document; nullptr (diagnostics in `out`)
    // when it cannot be read or parsed.
    [[nodiscard]] static std::unique_ptr<SpecSet> load(const std::string& path, std::vector<Diagnostic>& out);
    // The same for a document held in memory (named `name` in positions);
    // its references to other files are not followed (fuzzing, tests).
    [[nodiscard]] static std::unique_ptr<SpecSet> load_text(const std::string& name, const std::string& text,
                                                            std::vector<Diagnostic>& out);

    [[nodiscard]] Loc root() const;
    [[nodiscard]] SpecKind kind() const { return kind_; }
    [[nodiscard]] const SpecFile& entry() const { return *files_.at(entry_key_); }
    [[nodiscard]] std::size_t file_count() const { return files_.size(); }

    // Follows `$ref` chains from `l` (to other files too) until a node that
    // is not a reference; an undefined Loc when a reference is empty, broken
    // or cyclic (reported once, at the reference, in diagnostics()). Each
    // reference is resolved once (memoised) and chains are followed in a
    // loop: a chain of n links costs O(n) however long it is. Recursion
    // happens only for a JSON pointer that passes through a `$ref` on its
    // way, and is capped at max_ref_nesting with a diagnostic.
    [[nodiscard]] Loc deref(const Loc& l);
    // The target of one `$ref` string written at `at`.
    [[nodiscard]] Loc resolve(const std::string& ref, const Loc& at);
    // A member of a mapping; large mappings (components/schemas) are indexed
    // once so that resolving a pointer into them does not scan them.
    [[nodiscard]] Loc member(const Loc& map, const std::string& key);
    static constexpr int max_ref_nesting = 64;
    // The largest document (each file) made into a tree: above the suites'
    // 8 MiB, as public OpenAPI documents run to 5-10 MB (a tree costs 30-60
    // bytes of memory a byte of document).
    static constexpr std::size_t max_document_bytes = std::size_t{32} << 20;
    // Problems met on the way (unresolvable references): warnings.
    [[nodiscard]] const std::vector<Diagnostic>& diagnostics() const { return diags_; }
    // A document whose structure is not OpenAPI's (`paths: [1, 2, 3]`, an
    // operation that is a string): errors, found when the entry is loaded.
    [[nodiscard]] const std::vector<Diagnostic>& shape_errors() const { return shape_errors_; }

private:
    const SpecFile* file(const std::string& path, const Loc* from);
    const SpecFile* adopt(const std::string& key, const std::string& text, const Loc* from, bool checked);
    static std::unique_ptr<SpecSet> finish_load(std::unique_ptr<SpecSet> set, const SpecFile* f, std::vector<Diagnostic>& out);
    bool in_memory_ = false;
    std::map<std::string, std::unique_ptr<SpecFile>> files_;  // by normalised path
    std::map<std::string, bool> failed_;                       // files that could not be loaded
    std::map<std::string, bool> reported_;                     // references reported broken
    std::unordered_map<std::string, Loc> resolved_;            // Loc::key() of a $ref -> where its chain ends
    std::unordered_map<std::string, Loc> by_text_;             // file path '\n' $ref text -> its target (one link)
    std::vector<std::string> following_;                       // the $refs being followed (cycle detection)
    std::unordered_set<std::string> following_set_;
    std::unordered_map<std::string, std::unordered_map<std::string, Loc>> index_;  // large mappings' members
    int nesting_ = 0;
    void report(const Loc& at, std::string title, std::string hint);
    void check_duplicate_keys(const SpecFile& f);
    void check_shape();
    std::vector<Diagnostic> shape_errors_;
    std::vector<Diagnostic> diags_;
    std::string entry_key_;
    SpecKind kind_ = SpecKind::unknown;
};

// A mapping member read without inserting it (yaml-cpp's non-const
// operator[] adds missing keys); undefined when absent or not a mapping.
// The member yaml-cpp's const operator[] finds (the first of equal keys),
// without its cost (a copy of every key compared, schema/yaml_access.hpp);
// an absent one is one shared undefined node (a fresh one costs a memory
// holder), so it is returned const: nothing is ever assigned through it.
[[nodiscard]] inline const YAML::Node get(const YAML::Node& map, std::string_view key) {
    using detail::yaml_access;
    const YAML::detail::node* n = yaml_access::node_of(map);
    if (n && n->is_defined() && n->type() == YAML::NodeType::Map)
        if (const YAML::detail::node* v = detail::find_member(*n, key); v && v->is_defined())
            return yaml_access::wrap(const_cast<YAML::detail::node&>(*v), yaml_access::memory_of(map));
    static const YAML::Node undefined(YAML::NodeType::Undefined);  // valid but undefined: its Is*() do not throw
    return undefined;
}

// Scalar text of a mapping member, nullopt if absent or not a scalar.
[[nodiscard]] std::optional<std::string> scalar(const YAML::Node& map, const char* key);
[[nodiscard]] bool is_true(const YAML::Node& map, const char* key);

}  // namespace idconform::schema
