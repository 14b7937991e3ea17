// The fast reader for simple vector-set files (see simple_vectors.hpp). It
// walks the text line by line. The accepted subset, anything else -> nullopt:
//   - blank lines and `#` comment lines anywhere; no tabs, CR, BOM or `---`;
//   - top-level keys `set`, `description` (scalar on the same line) and
//     `vectors:` followed by a block sequence whose items are either
//     `- {key: scalar, key: scalar, ...}` on one line, or a block mapping
//     `- key: scalar` with further `key: scalar` lines at the first key's column;
//   - keys are names ([A-Za-z_][A-Za-z0-9_-]*); scalars are plain (printable
//     ASCII, no indicator first, no `: ` or ` #` inside, and in a flow mapping
//     none of `:,[]{}?`), '-quoted without '' or "-quoted without \, on one line.
// Plain scalars get the same core-schema typing as the yaml-cpp path
// (plain_scalar_json), so both paths build equal sets.
#include "suite/simple_vectors.hpp"

#include "suite/yaml_reader.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <vector>

namespace idconform::suite::detail {

namespace {

namespace json = boost::json;

// A scalar's text is a view of the file's text: the subset has no escapes.
struct Scalar {
    std::string_view text;
    bool plain = false;
    [[nodiscard]] json::value to_json() const {
        if (!plain) return json::value(text);
        if (is_null_scalar(text)) return json::value(nullptr);
        return plain_scalar_json(text);
    }
};

bool printable(char c) { return c >= 0x20 && c <= 0x7e; }
bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-'; }

// Where a value may end: end of line, a comment, or (flow) ',' / '}'.
bool at_end(std::string_view line, std::size_t i, bool flow) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size()) return true;
    if (line[i] == '#') return i > 0 && line[i - 1] == ' ';
    return flow && (line[i] == ',' || line[i] == '}');
}

// A scalar starting at line[i]; i ends just after it (before spaces).
std::optional<Scalar> scalar(std::string_view line, std::size_t& i, bool flow) {
    if (i >= line.size()) return std::nullopt;
    const char q = line[i];
    if (q == '"' || q == '\'') {
        const std::size_t close = line.find(q, i + 1);
        if (close == std::string_view::npos) return std::nullopt;
        const std::string_view body = line.substr(i + 1, close - i - 1);
        if (q == '"' && body.find('\\') != std::string_view::npos) return std::nullopt;
        if (q == '\'' && close + 1 < line.size() && line[close + 1] == '\'') return std::nullopt;  // '' escape
        if (!std::all_of(body.begin(), body.end(), printable)) return std::nullopt;
        i = close + 1;
        if (!at_end(line, i, flow)) return std::nullopt;
        return Scalar{body, false};
    }
    // Plain: the first character must not be an indicator ('-' only before
    // a non-space, as in -1).
    static constexpr std::string_view indicators = "?:,[]{}#&*!|>'\"%@`";
    if (!printable(q) || q == ' ' || indicators.find(q) != std::string_view::npos) return std::nullopt;
    if (q == '-' && (i + 1 >= line.size() || line[i + 1] == ' ')) return std::nullopt;
    // Printable characters that end or spoil a plain scalar nowhere: the
    // loop below looks no further at them.
    static constexpr auto ordinary = [] {
        std::array<bool, 256> t{};
        for (int c = 0x20; c <= 0x7e; ++c) t[static_cast<std::size_t>(c)] = true;
        for (const char c : std::string_view(":#,}[]{?")) t[static_cast<unsigned char>(c)] = false;
        return t;
    }();
    std::size_t j = i;
    for (; j < line.size(); ++j) {
        const char c = line[j];
        if (ordinary[static_cast<unsigned char>(c)]) continue;
        if (!printable(c)) return std::nullopt;
        if (c == ':' && (flow || j + 1 == line.size() || line[j + 1] == ' ')) return std::nullopt;
        if (c == '#' && line[j - 1] == ' ') break;  // a comment
        if (flow && (c == ',' || c == '}')) break;
        if (flow && (c == '[' || c == ']' || c == '{')) return std::nullopt;
        // yaml-cpp 0.7 rejects a '?' inside a plain scalar in a flow mapping
        // ("unknown token"; found by fuzz_suite): leave such lines to it.
        if (flow && c == '?') return std::nullopt;
    }
    std::size_t end = j;
    while (end > i && line[end - 1] == ' ') --end;
    if (end == i) return std::nullopt;
    Scalar s{line.substr(i, end - i), true};
    i = end;
    return s;
}

// `name:` followed by a space (or the end of the line when `bare_ok`);
// i ends after the colon.
std::optional<std::string_view> key(std::string_view line, std::size_t& i, bool bare_ok) {
    const std::size_t start = i;
    if (i >= line.size() || !name_start(line[i])) return std::nullopt;
    while (i < line.size() && name_char(line[i])) ++i;
    if (i >= line.size() || line[i] != ':') return std::nullopt;
    const std::string_view k = line.substr(start, i - start);
    ++i;
    if (i == line.size()) return bare_ok ? std::optional(k) : std::nullopt;
    if (line[i] != ' ') return std::nullopt;
    while (i < line.size() && line[i] == ' ') ++i;
    return k;
}

struct Item {
    int line = 0, column = 0;  // 0-based, of the mapping
    std::size_t key_column = 0;  // block mappings: where their keys start
    bool block = false;
    std::vector<std::pair<std::string_view, Scalar>> entries;  // views of the file's text
};

class FlatReader {
public:
    FlatReader(std::string_view text, const std::string& path) : text_(text), path_(path) {}

    std::optional<VectorSet> read() {
        VectorSet set;
        bool have_set = false, have_description = false, have_vectors = false, in_vectors = false;
        std::size_t dash_column = std::string_view::npos;
        std::unordered_set<std::string_view> names;  // views of the file's text
        // One entry per line at most: no re-allocation while reading.
        const auto lines = static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1;
        set.vectors.reserve(lines);
        names.reserve(lines);
        auto finish = [&]() -> bool {
            if (!open_) return true;
            open_ = false;
            Item& it = item_;
            Vector v;
            v.pos = SourcePos{path_, it.line + 1, it.column + 1};
            bool has_name = false, has_value = false;
            for (auto& [k, s] : it.entries) {
                if (k == "name") {
                    if (s.plain && is_null_scalar(s.text)) return false;
                    if (!names.insert(s.text).second) return false;
                    v.name = s.text;
                    has_name = true;
                } else if (k == "value") {
                    v.value = s.to_json();
                    has_value = true;
                } else {
                    v.fields.insert_or_assign(k, s.to_json());
                }
            }
            if (!has_name || !has_value) return false;
            set.vectors.push_back(std::move(v));
            return true;
        };

        // No tab or CR anywhere (blank and comment lines included).
        if (text_.find('\t') != std::string_view::npos || text_.find('\r') != std::string_view::npos)
            return std::nullopt;
        int number = -1;
        for (std::size_t at = 0; at <= text_.size();) {
            std::size_t nl = text_.find('\n', at);
            if (nl == std::string_view::npos) nl = text_.size();
            const std::string_view line = text_.substr(at, nl - at);
            at = nl + 1;
            ++number;
            const std::size_t indent = line.find_first_not_of(' ');
            if (indent == std::string_view::npos || line[indent] == '#') continue;  // blank or comment
            if (number == 0 && static_cast<unsigned char>(line[0]) >= 0x80) return std::nullopt;  // BOM
            if (line.substr(0, 3) == "---" || line.substr(0, 3) == "...") return std::nullopt;

            const bool dash = line[indent] == '-' && indent + 1 < line.size() && line[indent + 1] == ' ';
            if (indent == 0 && !dash) {  // a top-level key
                if (!finish()) return std::nullopt;
                in_vectors = false;
                std::size_t i = 0;
                auto k = key(line, i, true);
                if (!k) return std::nullopt;
                if (*k == "vectors") {
                    if (have_vectors || !at_end(line, i, false)) return std::nullopt;
                    have_vectors = in_vectors = true;
                    continue;
                }
                if (i == line.size()) return std::nullopt;  // a key with nothing after it
                const std::size_t col = i;
                auto s = scalar(line, i, false);
                if (!s) return std::nullopt;
                if (*k == "set") {
                    if (have_set || !valid_name(s->text)) return std::nullopt;
                    have_set = true;
                    set.name = std::string(s->text);
                    set.pos = SourcePos{path_, number + 1, static_cast<int>(col) + 1};
                } else if (*k == "description") {
                    if (have_description || (s->plain && is_null_scalar(s->text))) return std::nullopt;
                    have_description = true;
                    set.description = std::string(s->text);
                } else {
                    return std::nullopt;
                }
                continue;
            }
            if (!in_vectors) return std::nullopt;
            if (dash) {  // a new item
                if (dash_column == std::string_view::npos) dash_column = indent;
                if (indent != dash_column || !finish()) return std::nullopt;
                std::size_t i = indent + 2;
                while (i < line.size() && line[i] == ' ') ++i;
                open_ = true;
                item_.entries.clear();  // keeps its capacity from one item to the next
                item_.block = false;
                item_.line = number;
                item_.column = static_cast<int>(i);
                if (i < line.size() && line[i] == '{') {
                    if (!flow_mapping(line, i + 1)) return std::nullopt;
                    if (!finish()) return std::nullopt;
                } else {
                    item_.block = true;
                    item_.key_column = i;
                    if (!block_entry(line, i)) return std::nullopt;
                }
                continue;
            }
            // A further key of the current block mapping.
            if (!open_ || !item_.block || indent != item_.key_column || !block_entry(line, indent))
                return std::nullopt;
        }
        if (!finish() || !have_set || !have_vectors || set.vectors.empty()) return std::nullopt;
        return set;
    }

private:
    bool add(std::string_view k, Scalar s) {
        for (const auto& e : item_.entries)
            if (e.first == k) return false;  // a duplicate key: the yaml-cpp path reports it
        item_.entries.emplace_back(k, s);
        return true;
    }

    bool block_entry(std::string_view line, std::size_t i) {
        auto k = key(line, i, false);
        if (!k) return false;
        auto s = scalar(line, i, false);
        return s && at_end(line, i, false) && add(*k, std::move(*s));
    }

    // `key: scalar, key: scalar}` from just after the `{`; nothing but a
    // comment may follow the `}`.
    bool flow_mapping(std::string_view line, std::size_t i) {
        for (;;) {
            while (i < line.size() && line[i] == ' ') ++i;
            auto k = key(line, i, false);
            if (!k) return false;
            auto s = scalar(line, i, true);
            if (!s || !add(*k, std::move(*s))) return false;
            while (i < line.size() && line[i] == ' ') ++i;
            if (i >= line.size()) return false;
            if (line[i] == '}') return at_end(line, i + 1, false);
            if (line[i] != ',') return false;
            ++i;
        }
    }

    std::string_view text_;
    const std::string& path_;
    Item item_;          // the vector being read, when open_
    bool open_ = false;
};

}  // namespace

std::optional<VectorSet> read_simple_vector_set(std::string_view text, const std::string& path) {
    return FlatReader(text, path).read();
}

}  // namespace idconform::suite::detail
