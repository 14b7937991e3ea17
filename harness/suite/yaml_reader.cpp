// Typed reading of yaml-cpp nodes for the suite loader; see yaml_reader.hpp.
#include "suite/yaml_reader.hpp"

#include "ids/of_kind.hpp"
#include "suite/input_guard.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <cstdlib>
#include <filesystem>
#include <map>

namespace idconform::suite::detail {

SourceText SourceText::from(std::string path, const std::string& text) {
    SourceText s;
    s.path = std::move(path);
    // Text too large for a tree only ever gets the file-level "too large"
    // error (parse_document): no copy of its lines.
    if (text.size() > InputLimits::max_tree_bytes) return s;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        s.lines.push_back(std::move(line));
        start = end + 1;
    }
    return s;
}

Val Entry::val() const {
    // yaml-cpp marks an empty value at the next token, often on a later line.
    if (value.IsNull() && value.Mark().line != key_node.Mark().line) return {value, key_node.Mark()};
    return {value, value.Mark()};
}

const Entry* Mapping::find(std::string_view key) const {
    for (const auto& e : entries)
        if (e.key == key) return &e;
    return nullptr;
}

std::string kind_name(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map: return "a mapping";
        case YAML::NodeType::Sequence: return "a list";
        case YAML::NodeType::Scalar: return "'" + n.Scalar() + "'";
        case YAML::NodeType::Null: return "nothing";
        case YAML::NodeType::Undefined: break;
    }
    return "nothing";
}

bool is_plain(const YAML::Node& n) { return n.Tag() == "?"; }

std::optional<std::string> key_text(const YAML::Node& n) {
    if (n.IsScalar()) return n.Scalar();
    // yaml-cpp turns a plain `null` (or `~`) key into a null node; `null` is
    // also an operator name ({null: true}), so read it back as that word.
    if (n.IsNull()) return std::string("null");
    return std::nullopt;
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) {
        if (!out.empty()) out += ", ";
        out += n;
    }
    return out;
}

std::string suggest(std::string_view word, const std::vector<std::string>& candidates,
                    std::string_view allowed_label) {
    const std::string best = did_you_mean(word, candidates);
    if (!best.empty()) return "did you mean '" + best + "'?";
    if (candidates.empty()) return std::string("there are no ") + std::string(allowed_label) + " here";
    return std::string(allowed_label) + ": " + join(candidates);
}

const std::vector<std::string>& id_kinds() { return ids::kind_names(); }

bool valid_name(std::string_view s) {
    if (s.empty()) return false;
    if (!(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; });
}

Diagnostic file_error(const std::string& path, const std::string& title) {
    namespace fs = std::filesystem;
    Diagnostic d;
    d.pos.file = path;
    d.title = title;
    std::error_code ec;
    d.hint = fs::exists(path, ec) ? "check the file's permissions"
                                  : "check the path; relative paths are relative to the current directory (" +
                                        fs::current_path(ec).string() + ")";
    return d;
}

std::string syntax_hint(const std::string& msg) {
    if (msg.find("end of sequence flow") != std::string::npos) return "a '[' list is missing its closing ']'";
    if (msg.find("end of map flow") != std::string::npos) return "a '{' mapping is missing its closing '}'";
    if (msg.find("illegal map value") != std::string::npos)
        return "a value cannot hold another 'key: value' on the same line; quote the value or move it to a "
               "new, more indented line";
    if (msg.find("end of map not found") != std::string::npos || msg.find("bad indentation") != std::string::npos)
        return "check the indentation: keys of one mapping must start in the same column";
    if (msg.find("tab") != std::string::npos) return "YAML indentation uses spaces, not tabs";
    return "check indentation, quotes and brackets at this position";
}

std::optional<YAML::Node> parse_document(Reader& r, const std::string& text, std::string_view kind,
                                         std::string_view empty_hint, std::size_t max_bytes,
                                         std::string_view too_large_hint) {
    // yaml-cpp only ever sees text that passed the input boundary
    // (input_guard.hpp): bounded size, valid UTF-8, one document, no stuck
    // ',', bounded aliases and depth.
    if (text.size() > max_bytes) {
        Diagnostic d;
        d.pos.file = r.source().path;
        d.title = "the " + std::string(kind) + " file is too large to load: " + size_text(text.size()) + " (" +
                  (too_large_hint.empty() ? std::string("YAML files") : std::string(kind) + "s") +
                  " are limited to " + size_text(max_bytes) + ")";
        d.hint = !too_large_hint.empty()
                     ? std::string(too_large_hint)
                     : "split it into several files; long lists of vectors go in a vector-set file with flat "
                       "entries ({name: ..., value: ...} on one line each), which is read without a YAML tree up "
                       "to " + size_text(InputLimits::max_file_bytes);
        r.report(std::move(d));
        return std::nullopt;
    }
    if (auto d = check_text(text, r.source().path)) {
        r.report(std::move(*d));
        return std::nullopt;
    }
    const auto pre = pre_parse(r, text);
    if (!pre) return std::nullopt;
    if (pre->documents == 0 || (pre->documents == 1 && pre->first_is_null)) {
        YAML::Mark m;
        m.line = 0;
        m.column = 0;
        r.error(m, "the " + std::string(kind) + " file is empty", std::string(empty_hint));
        return std::nullopt;
    }
    if (pre->documents > 1) {
        YAML::Mark m;
        m.line = pre->second_line;
        m.column = pre->second_column;
        r.error(m, "more than one YAML document in one file",
                "remove the '---' separator: one file holds one " + std::string(kind));
        return std::nullopt;
    }
    try {
        return YAML::Load(text);  // one document only: YAML::LoadAll is what loops on a stray ','
    } catch (const YAML::ParserException& e) {
        r.error(e.mark, "YAML syntax error: " + e.msg, syntax_hint(e.msg));
    } catch (const YAML::Exception& e) {
        r.error(e.mark, std::string("YAML error: ") + e.what(), "check the YAML syntax near here");
    }
    return std::nullopt;
}

// ------------------------------------------------------------ templates

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// `name` or `name.field.sub`.
bool valid_var_name(std::string_view s) {
    if (s.empty() || !name_start(s[0])) return false;
    bool after_dot = false;
    for (char c : s.substr(1)) {
        if (c == '.') {
            if (after_dot) return false;
            after_dot = true;
        } else if (name_char(c)) {
            after_dot = false;
        } else {
            return false;
        }
    }
    return !after_dot;
}

bool valid_env_name(std::string_view s) {
    if (s.empty() || !name_start(s[0])) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

const char* const placeholder_forms =
    "placeholders are ${name}, ${name.field}, ${env:NAME}, ${env:NAME:-default} or ${gen:uuidv7}";

}  // namespace

std::optional<TemplateError> check_template(std::string_view text) {
    std::size_t at = 0;
    while ((at = text.find("${", at)) != std::string_view::npos) {
        const std::size_t close = text.find('}', at + 2);
        if (close == std::string_view::npos)
            return TemplateError{at, "unclosed '${' in '" + std::string(text) + "'",
                                 std::string("close the placeholder with '}'; ") + placeholder_forms};
        const std::string_view inner = text.substr(at + 2, close - at - 2);
        const std::string shown = "${" + std::string(inner) + "}";
        if (inner.find("${") != std::string_view::npos)
            return TemplateError{at, "nested placeholder in '" + std::string(text) + "'",
                                 std::string("placeholders cannot be nested; ") + placeholder_forms};
        if (inner.empty())
            return TemplateError{at, "empty placeholder '${}'", placeholder_forms};
        if (inner.substr(0, 4) == "env:") {
            const std::string_view rest = inner.substr(4);
            const std::size_t dflt = rest.find(":-");
            const std::string_view name = rest.substr(0, dflt);
            if (!valid_env_name(name))
                return TemplateError{at, "bad environment variable name '" + std::string(name) + "' in '" + shown + "'",
                                     "environment variable names use letters, digits and '_' and do not start "
                                     "with a digit; a default goes after ':-', e.g. ${env:TOKEN_A:-alice}"};
        } else if (inner.substr(0, 4) == "gen:") {
            const std::string_view kind = inner.substr(4);
            const char* const hint =
                "generators make a fresh id on every use: ${gen:uuidv7}, ${gen:uuidv4}, ${gen:ulid} or another id "
                "kind with a generator (uuid, uuidv1, uuidv3, uuidv5, uuidv6, uuidv8), or ${gen:match:VAR} for a "
                "text matching the RE2 pattern variable VAR holds";
            if (kind.substr(0, 6) == "match:") {
                if (!valid_var_name(kind.substr(6)))
                    return TemplateError{
                        at, "bad variable name '" + std::string(kind.substr(6)) + "' in '" + shown + "'", hint};
            } else if (const auto k = ids::parse_kind(kind); !k || !ids::no_fresh_id(*k).empty()) {
                return TemplateError{at, "unknown generator '" + std::string(kind) + "' in '" + shown + "'", hint};
            }
        } else if (!valid_var_name(inner)) {
            return TemplateError{at, "bad variable name '" + std::string(inner) + "' in '" + shown + "'",
                                 "variable names use letters, digits, '_' and '-' and start with a letter or "
                                 "'_'; fields follow a dot, e.g. ${v.value}; an environment variable is "
                                 "${env:NAME}"};
        }
        at = close + 1;
    }
    return std::nullopt;
}

std::optional<TemplateError> check_path_template(std::string_view text) {
    if (auto e = check_template(text)) return e;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
            i = text.find('}', i);  // already checked above
            continue;
        }
        if (text[i] == '}')
            return TemplateError{i, "unmatched '}' in path '" + std::string(text) + "'",
                                 "a path variable is written {name}; a literal brace must come from a "
                                 "variable, e.g. ${raw_segment}"};
        if (text[i] != '{') continue;
        const std::size_t close = text.find('}', i);
        if (close == std::string_view::npos)
            return TemplateError{i, "unclosed '{' in path '" + std::string(text) + "'",
                                 "close the path variable with '}', e.g. /v1/products/{product_id}"};
        const std::string_view name = text.substr(i + 1, close - i - 1);
        if (!valid_var_name(name))
            return TemplateError{i, "bad variable name '" + std::string(name) + "' in path '" + std::string(text) + "'",
                                 "a path variable is written {name} (inserted percent-encoded); names use "
                                 "letters, digits, '_', '-' and dots for fields, e.g. {v.value}"};
        i = close;
    }
    return std::nullopt;
}

std::string check_json_pointer(std::string_view pointer) {
    if (pointer.empty()) return {};
    if (pointer[0] != '/') return "a JSON pointer starts with '/'";
    for (std::size_t i = 0; i < pointer.size(); ++i) {
        if (pointer[i] != '~') continue;
        if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1'))
            return "'~' must be followed by 0 (for '~') or 1 (for '/')";
    }
    return {};
}

// --------------------------------------------------------------- reader

SourcePos Reader::pos(const YAML::Mark& m) const {
    if (m.line < 0) return SourcePos{source_->path, 0, 0};
    return SourcePos{source_->path, m.line + 1, m.column + 1};
}

void Reader::error(const YAML::Mark& m, std::string title, std::string hint) {
    Diagnostic d;
    d.pos = pos(m);
    d.title = std::move(title);
    d.hint = std::move(hint);
    if (d.pos.line > 0 && static_cast<std::size_t>(d.pos.line) <= source_->lines.size())
        d.source_line = source_->lines[static_cast<std::size_t>(d.pos.line - 1)];
    out_->push_back(std::move(d));
}

std::optional<Mapping> Reader::mapping(const Val& v, std::string_view what, const std::vector<std::string>& allowed,
                                       std::string_view example) {
    if (!v.node.IsMap()) {
        error(v, "expected a mapping here, found " + kind_name(v.node),
              "'" + std::string(what) + "' takes key: value pairs, e.g. " + std::string(example));
        return std::nullopt;
    }
    Mapping m;
    m.self = v;
    std::map<std::string, YAML::Mark> seen;
    for (auto it = v.node.begin(); it != v.node.end(); ++it) {
        const YAML::Node key = it->first;
        const auto text = key_text(key);
        if (!text) {
            error({key, key.Mark()}, "expected a plain key here, found " + kind_name(key),
                  "keys of '" + std::string(what) + "' are names, e.g. " + std::string(example));
            continue;
        }
        const std::string name = *text;
        if (auto prior = seen.find(name); prior != seen.end()) {
            error({key, key.Mark()}, "duplicate key '" + name + "' in " + std::string(what),
                  "'" + name + "' is already set at line " + std::to_string(prior->second.line + 1) +
                      "; remove one of them");
            continue;
        }
        seen.emplace(name, key.Mark());
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
            error({key, key.Mark()}, "unknown key '" + name + "' in " + std::string(what),
                  suggest(name, allowed, "allowed keys"));
            continue;
        }
        m.entries.push_back(Entry{name, key, it->second});
    }
    return m;
}

std::optional<std::vector<Val>> Reader::sequence(const Val& v, std::string_view what, std::string_view example) {
    if (!v.node.IsSequence()) {
        error(v, "expected a list here, found " + kind_name(v.node),
              "'" + std::string(what) + "' takes a list, e.g. " + std::string(example));
        return std::nullopt;
    }
    std::vector<Val> items;
    for (const auto& item : v.node) items.push_back(Val{item, item.Mark()});
    return items;
}

YAML::Mark Reader::mark_at(const Val& v, const std::string& text, std::size_t offset) const {
    YAML::Mark m = v.mark;
    // Point at the character itself when the scalar is written on one line
    // exactly as its value reads (plain, or quoted without escapes).
    if (v.node.IsScalar() && m.line >= 0 && static_cast<std::size_t>(m.line) < source_->lines.size() &&
        text.find('\n') == std::string::npos) {
        const std::string& line = source_->lines[static_cast<std::size_t>(m.line)];
        const auto col = static_cast<std::size_t>(m.column);
        const std::size_t skip = is_plain(v.node) ? 0 : 1;
        if (line.compare(col + skip, text.size(), text) == 0) m.column += static_cast<int>(skip + offset);
    }
    return m;
}

bool Reader::check_template_at(const Val& v, const std::string& text, bool path) {
    const auto e = path ? check_path_template(text) : check_template(text);
    if (!e) return true;
    error(mark_at(v, text, e->offset), e->title, e->hint);
    return false;
}

bool Reader::check_pointer_at(const Val& v, const std::string& pointer) {
    const std::string why = check_json_pointer(pointer);
    if (why.empty()) return true;
    error(v, "bad JSON pointer '" + pointer + "'", why + ", e.g. /id or /items/0/id; '' is the whole body (RFC 6901)");
    return false;
}

std::vector<std::pair<std::string, std::string>> Reader::pairs(const Val& v, std::string_view what,
                                                               std::string_view example) {
    std::vector<std::pair<std::string, std::string>> out;
    auto m = mapping(v, what, {}, example);
    if (!m) return out;
    for (const auto& e : m->entries)
        if (auto s = string(e.val(), e.key, example, true)) out.emplace_back(e.key, *s);
    return out;
}

std::optional<long> Reader::duration(const Val& v, std::string_view what) {
    if (v.node.IsScalar()) {
        const std::string& s = v.node.Scalar();
        std::size_t digits = 0;
        while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
        const std::string unit = s.substr(digits);
        if (digits > 0 && digits <= 9 && (unit == "ms" || unit == "s" || unit == "m")) {
            const long n = std::stol(s.substr(0, digits));
            return unit == "ms" ? n : unit == "s" ? n * 1000 : n * 60000;
        }
    }
    error(v, "bad duration " + kind_name(v.node) + " for '" + std::string(what) + "'",
          "write a whole number with a unit ms, s or m, e.g. 500ms, 2s, 1m");
    return std::nullopt;
}

std::optional<std::string> Reader::string(const Val& v, std::string_view what, std::string_view example,
                                          bool templated) {
    if (!v.node.IsScalar()) {
        error(v, "expected a string here, found " + kind_name(v.node),
              "'" + std::string(what) + "' takes a string, e.g. " + std::string(example));
        return std::nullopt;
    }
    std::string text = v.node.Scalar();
    if (templated && !check_template_at(v, text, false)) return std::nullopt;
    return text;
}

std::optional<std::vector<std::string>> Reader::strings(const Val& v, std::string_view what,
                                                        std::string_view example, bool templated) {
    std::vector<std::string> out;
    if (v.node.IsScalar()) {
        auto s = string(v, what, example, templated);
        if (!s) return std::nullopt;
        out.push_back(*s);
        return out;
    }
    if (!v.node.IsSequence()) {
        error(v, "expected a string or a list of strings here, found " + kind_name(v.node),
              "'" + std::string(what) + "' takes a string or a list, e.g. " + std::string(example));
        return std::nullopt;
    }
    bool ok = true;
    for (const auto& item : v.node) {
        auto s = string(Val{item, item.Mark()}, what, example, templated);
        if (s)
            out.push_back(*s);
        else
            ok = false;
    }
    if (!ok) return std::nullopt;
    return out;
}

std::optional<bool> Reader::boolean(const Val& v, std::string_view what) {
    if (v.node.IsScalar() && is_plain(v.node)) {
        const std::string& s = v.node.Scalar();
        if (s == "true" || s == "True" || s == "TRUE") return true;
        if (s == "false" || s == "False" || s == "FALSE") return false;
    }
    error(v, "expected a boolean here, found " + kind_name(v.node),
          "'" + std::string(what) + "' takes true or false (unquoted), e.g. " + std::string(what) + ": true");
    return std::nullopt;
}

namespace {

// YAML 1.2 core schema integer forms.
std::optional<long long> parse_int(std::string_view s) {
    if (s.empty()) return std::nullopt;
    std::size_t i = 0;
    bool negative = false;
    if (s[0] == '-' || s[0] == '+') {
        negative = s[0] == '-';
        i = 1;
    }
    int base = 10;
    if (s.compare(i, 2, "0x") == 0) {
        base = 16;
        i += 2;
    } else if (s.compare(i, 2, "0o") == 0) {
        base = 8;
        i += 2;
    }
    if (i >= s.size()) return std::nullopt;
    unsigned long long value = 0;
    const char* begin = s.data() + i;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(begin, end, value, base);
    if (ec != std::errc() || p != end) return std::nullopt;
    if (value > static_cast<unsigned long long>(std::numeric_limits<long long>::max())) return std::nullopt;
    const auto v = static_cast<long long>(value);
    return negative ? -v : v;
}

bool is_float(std::string_view s) {
    // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
    }
    if (digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
        std::size_t exp = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exp;
        if (exp == 0) return false;
    }
    return i == s.size();
}

}  // namespace

boost::json::value plain_scalar_json(std::string_view s) {
    if (s == "true" || s == "True" || s == "TRUE") return boost::json::value(true);
    if (s == "false" || s == "False" || s == "FALSE") return boost::json::value(false);
    if (auto i = parse_int(s)) return boost::json::value(*i);
    if (is_float(s)) return boost::json::value(std::strtod(std::string(s).c_str(), nullptr));
    return boost::json::value(s);
}

bool is_null_scalar(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

std::optional<boost::json::value> Reader::json(const Val& v, bool templated) {
    const YAML::Node& n = v.node;
    switch (n.Type()) {
        case YAML::NodeType::Null:
        case YAML::NodeType::Undefined: return boost::json::value(nullptr);
        case YAML::NodeType::Scalar: {
            const std::string& s = n.Scalar();
            if (is_plain(n)) {
                auto j = plain_scalar_json(s);
                if (!j.is_string()) return j;
            }
            if (templated && !check_template_at(v, s, false)) return std::nullopt;
            return boost::json::value(s);
        }
        case YAML::NodeType::Sequence: {
            boost::json::array arr;
            bool ok = true;
            for (const auto& item : n) {
                auto j = json(Val{item, item.Mark()}, templated);
                if (j)
                    arr.push_back(std::move(*j));
                else
                    ok = false;
            }
            if (!ok) return std::nullopt;
            return boost::json::value(std::move(arr));
        }
        case YAML::NodeType::Map: {
            auto m = mapping(v, "this object", {}, "{name: p1}");
            if (!m) return std::nullopt;
            bool ok = m->entries.size() == n.size();  // a dropped duplicate or bad key
            boost::json::object obj;
            for (const auto& e : m->entries) {
                auto j = json(e.val(), templated);
                if (j)
                    obj[e.key] = std::move(*j);
                else
                    ok = false;
            }
            if (!ok) return std::nullopt;
            return boost::json::value(std::move(obj));
        }
    }
    return boost::json::value(nullptr);
}

}  // namespace idconform::suite::detail
