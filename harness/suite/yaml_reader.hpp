// Internal to the suite loader: typed reading of yaml-cpp nodes that turns
// every problem into a Diagnostic at the node's position (1-based) with the
// source line attached, and keeps going so all problems of a file are found.
#pragma once

#include "core/diagnostic.hpp"

#include <boost/json/value.hpp>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::suite::detail {

// One file's text, split into lines for diagnostics.
struct SourceText {
    std::string path;  // as printed in positions
    std::vector<std::string> lines;
    static SourceText from(std::string path, const std::string& text);
};

// A node plus the position to blame for it. An empty value (`key:` with
// nothing after it) carries yaml-cpp's mark of the *next* token, so values
// of map entries are blamed on their key when they are null.
struct Val {
    YAML::Node node;
    YAML::Mark mark;
};

struct Entry {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
    [[nodiscard]] Val val() const;
    [[nodiscard]] Val key_val() const { return {key_node, key_node.Mark()}; }
};

struct Mapping {
    Val self;
    std::vector<Entry> entries;  // duplicates removed (first one kept)
    [[nodiscard]] const Entry* find(std::string_view key) const;
};

// What a placeholder check found wrong, at `offset` in the string.
struct TemplateError {
    std::size_t offset = 0;
    std::string title;
    std::string hint;
};
// Checks `${name}`, `${name.field}`, `${env:NAME}` and `${env:NAME:-default}`.
[[nodiscard]] std::optional<TemplateError> check_template(std::string_view text);
// Checks `{name}` path segments (percent-encoded variables) besides `${...}`.
[[nodiscard]] std::optional<TemplateError> check_path_template(std::string_view text);
// "" when `pointer` is a valid RFC 6901 pointer, else what is wrong.
[[nodiscard]] std::string check_json_pointer(std::string_view pointer);

// The id kinds an id check (and a target profile) may name.
[[nodiscard]] const std::vector<std::string>& id_kinds();
// A name of a variable, principal, set or resource: a letter or '_', then
// letters, digits, '_' or '-'.
[[nodiscard]] bool valid_name(std::string_view s);
// A diagnostic for a file that cannot be read (no position), with a hint
// that tells a missing file from a permission problem.
[[nodiscard]] Diagnostic file_error(const std::string& path, const std::string& title);
// A plain-words hint for a yaml-cpp parser message.
[[nodiscard]] std::string syntax_hint(const std::string& msg);

class Reader {
public:
    Reader(const SourceText& source, std::vector<Diagnostic>& out) : source_(&source), out_(&out) {}

    [[nodiscard]] SourcePos pos(const YAML::Mark& m) const;
    [[nodiscard]] SourcePos pos(const Val& v) const { return pos(v.mark); }
    [[nodiscard]] const SourceText& source() const { return *source_; }

    void error(const YAML::Mark& m, std::string title, std::string hint);
    void error(const Val& v, std::string title, std::string hint) { error(v.mark, std::move(title), std::move(hint)); }
    // Adds a diagnostic made elsewhere (it brings its own source line).
    void report(Diagnostic d) { out_->push_back(std::move(d)); }

    // A mapping whose keys are checked against `allowed` (empty = any key);
    // `what` names it in messages ("expect"), `example` shows the right form.
    [[nodiscard]] std::optional<Mapping> mapping(const Val& v, std::string_view what,
                                                 const std::vector<std::string>& allowed,
                                                 std::string_view example);
    [[nodiscard]] std::optional<std::vector<Val>> sequence(const Val& v, std::string_view what,
                                                           std::string_view example);
    // A scalar as text. `templated` checks placeholder syntax.
    [[nodiscard]] std::optional<std::string> string(const Val& v, std::string_view what,
                                                    std::string_view example, bool templated = false);
    // One string or a list of strings.
    [[nodiscard]] std::optional<std::vector<std::string>> strings(const Val& v, std::string_view what,
                                                                  std::string_view example,
                                                                  bool templated = false);
    [[nodiscard]] std::optional<bool> boolean(const Val& v, std::string_view what);
    // A duration written 500ms, 2s or 1m, in milliseconds.
    [[nodiscard]] std::optional<long> duration(const Val& v, std::string_view what);
    // A mapping of names to template strings (headers, query), in file order.
    [[nodiscard]] std::vector<std::pair<std::string, std::string>> pairs(const Val& v, std::string_view what,
                                                                         std::string_view example);
    // Reports `pointer` (the text of `v`) when it is not an RFC 6901 pointer.
    bool check_pointer_at(const Val& v, const std::string& pointer);
    // Any YAML as JSON (YAML 1.2 core scalars); string leaves are checked as
    // templates when `templated`.
    [[nodiscard]] std::optional<boost::json::value> json(const Val& v, bool templated);
    // Reports a bad template at the right column when the scalar is plain.
    bool check_template_at(const Val& v, const std::string& text, bool path);
    // The mark of character `offset` of `text`, the value of scalar `v`, when
    // the scalar is written on one line exactly as it reads (plain, or quoted
    // without escapes); else the scalar's own mark.
    [[nodiscard]] YAML::Mark mark_at(const Val& v, const std::string& text, std::size_t offset) const;

private:
    const SourceText* source_;
    std::vector<Diagnostic>* out_;
};

// Parses `text` as exactly one YAML document. Syntax errors, an empty file
// (`empty_hint` says what it should hold) and several documents become
// diagnostics; `kind` names the file in messages ("suite", "profile").
// `max_bytes` bounds the text (the tree costs ~80 bytes a byte); callers
// that must read larger documents (OpenAPI) pass their own bound and what to
// do with a file above it (`too_large_hint`; the default speaks of suites).
[[nodiscard]] std::optional<YAML::Node> parse_document(Reader& r, const std::string& text, std::string_view kind,
                                                       std::string_view empty_hint,
                                                       std::size_t max_bytes = std::size_t{8} << 20,
                                                       std::string_view too_large_hint = {});

// The JSON value of a plain (unquoted, untagged), non-null scalar under the
// YAML 1.2 core schema: true/false, an integer, a float, else the text.
[[nodiscard]] boost::json::value plain_scalar_json(std::string_view s);
// The spellings yaml-cpp reads as null when plain: "", "~", "null", "Null", "NULL".
[[nodiscard]] bool is_null_scalar(std::string_view s);

// Name of a node's kind for "found ..." messages.
[[nodiscard]] std::string kind_name(const YAML::Node& n);
// Plain (unquoted, untagged) scalar: subject to YAML 1.2 core resolution.
[[nodiscard]] bool is_plain(const YAML::Node& n);
// The text of a mapping key; a null key reads as "null"; nullopt for a
// list or mapping used as a key.
[[nodiscard]] std::optional<std::string> key_text(const YAML::Node& n);
// Joins names as "a, b, c".
[[nodiscard]] std::string join(const std::vector<std::string>& names);
// "did you mean 'x'?" or "allowed: ..." for an unknown name.
[[nodiscard]] std::string suggest(std::string_view word, const std::vector<std::string>& candidates,
                                  std::string_view allowed_label);

}  // namespace idconform::suite::detail
