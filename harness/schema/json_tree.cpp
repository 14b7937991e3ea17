// Plain JSON into a yaml-cpp node tree with yaml-cpp's own marks. See json_tree.hpp.
#include "schema/json_tree.hpp"

#include "schema/yaml_access.hpp"

#include <cstring>
#include <memory>
#include <string>

namespace idconform::schema::detail {

namespace {

using YamlNode = YAML::detail::node;

// Thrown (inside this file only) when the text is not JSON this reader is
// sure of; read_json_tree turns it into nullopt.
struct HandBack {};

class JsonTree {
public:
    JsonTree(std::string_view text, int max_depth) : t_(text), max_depth_(max_depth) {}

    [[nodiscard]] bool duplicate_keys() const { return dups_.found(); }

    YAML::Node read() {
        skip_space();
        if (at_end() || t_[i_] != '{') throw HandBack{};
        YamlNode& root = value(0);
        skip_space();
        if (!at_end()) throw HandBack{};
        return yaml_access::wrap(root, arena_.memory());
    }

private:
    std::string_view t_;
    std::size_t i_ = 0;
    int line_ = 0;
    std::size_t line_start_ = 0;
    int max_depth_;
    NodeArena arena_;
    DuplicateKeys dups_;
    std::string buf_;

    [[nodiscard]] bool at_end() const { return i_ >= t_.size(); }

    [[nodiscard]] YAML::Mark mark() const {
        YAML::Mark m;
        m.pos = static_cast<int>(i_);
        m.line = line_;
        m.column = static_cast<int>(i_ - line_start_);
        return m;
    }

    void skip_space() {
        while (i_ < t_.size()) {
            const char c = t_[i_];
            if (c == ' ' || c == '\t') {
                ++i_;
            } else if (c == '\n') {
                ++i_;
                ++line_;
                line_start_ = i_;
            } else if (c == '\r') {
                if (i_ + 1 >= t_.size() || t_[i_ + 1] != '\n') throw HandBack{};  // a lone CR
                ++i_;
            } else {
                return;
            }
        }
    }

    YamlNode& make(const YAML::Mark& m) {
        YamlNode& n = arena_.create();
        n.set_mark(m);
        return n;
    }

    YamlNode& value(int depth) {
        if (at_end()) throw HandBack{};
        switch (t_[i_]) {
            case '{': return object(depth + 1);
            case '[': return array(depth + 1);
            case '"': return string_node();
            default: return plain();
        }
    }

    YamlNode& object(int depth) {
        if (depth > max_depth_) throw HandBack{};
        YamlNode& map = make(mark());
        map.set_type(YAML::NodeType::Map);
        map.set_tag("?");
        map.set_style(YAML::EmitterStyle::Flow);
        ++i_;
        skip_space();
        if (!at_end() && t_[i_] == '}') {
            ++i_;
            return map;
        }
        const std::size_t keys = dups_.open();
        for (;;) {
            if (at_end() || t_[i_] != '"') throw HandBack{};
            const std::size_t key_start = i_;
            const int key_line = line_;
            YamlNode& key = string_node();
            dups_.add(key.scalar());
            skip_space();
            // yaml-cpp's simple keys: the ':' on the key's line, within 1,024 characters
            if (at_end() || t_[i_] != ':' || line_ != key_line || i_ - key_start > 1000) throw HandBack{};
            ++i_;
            skip_space();
            YamlNode& val = value(depth);
            map.insert(key, val, arena_.memory());
            skip_space();
            if (at_end()) throw HandBack{};
            if (t_[i_] == '}') {
                ++i_;
                dups_.close(keys);
                return map;
            }
            if (t_[i_] != ',') throw HandBack{};
            ++i_;
            skip_space();
        }
    }

    YamlNode& array(int depth) {
        if (depth > max_depth_) throw HandBack{};
        YamlNode& seq = make(mark());
        seq.set_type(YAML::NodeType::Sequence);
        seq.set_tag("?");
        seq.set_style(YAML::EmitterStyle::Flow);
        ++i_;
        skip_space();
        if (!at_end() && t_[i_] == ']') {
            ++i_;
            return seq;
        }
        for (;;) {
            YamlNode& e = value(depth);
            seq.push_back(e, arena_.memory());
            skip_space();
            if (at_end()) throw HandBack{};
            if (t_[i_] == ']') {
                ++i_;
                return seq;
            }
            if (t_[i_] != ',') throw HandBack{};
            ++i_;
            skip_space();
        }
    }

    static int hex(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    void escape() {  // at the character after '\'
        if (at_end()) throw HandBack{};
        const char c = t_[i_++];
        switch (c) {
            case '"': buf_ += '"'; return;
            case '\\': buf_ += '\\'; return;
            case '/': buf_ += '/'; return;
            case 'b': buf_ += '\b'; return;
            case 'f': buf_ += '\f'; return;
            case 'n': buf_ += '\n'; return;
            case 'r': buf_ += '\r'; return;
            case 't': buf_ += '\t'; return;
            case 'u': break;
            default: throw HandBack{};
        }
        if (t_.size() - i_ < 4) throw HandBack{};
        unsigned cp = 0;
        for (int k = 0; k < 4; ++k) {
            const int h = hex(t_[i_ + static_cast<std::size_t>(k)]);
            if (h < 0) throw HandBack{};
            cp = cp * 16 + static_cast<unsigned>(h);
        }
        i_ += 4;
        // yaml-cpp refuses a surrogate ("invalid unicode"); NUL is left to it too
        if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF)) throw HandBack{};
        if (cp < 0x80) {
            buf_ += static_cast<char>(cp);
        } else if (cp < 0x800) {
            buf_ += static_cast<char>(0xC0 | (cp >> 6));
            buf_ += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            buf_ += static_cast<char>(0xE0 | (cp >> 12));
            buf_ += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            buf_ += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    YamlNode& string_node() {
        YamlNode& n = make(mark());
        ++i_;  // the opening quote
        buf_.clear();
        for (;;) {
            // the run of ordinary bytes up to a quote, a backslash or a control character
            std::size_t j = i_;
            while (j < t_.size()) {
                const auto c = static_cast<unsigned char>(t_[j]);
                if (c == '"' || c == '\\' || c < 0x20 || c == 0x7F) break;
                ++j;
            }
            buf_.append(t_.data() + i_, j - i_);
            i_ = j;
            if (at_end()) throw HandBack{};
            const char c = t_[i_];
            if (c == '"') {
                ++i_;
                break;
            }
            if (c != '\\') throw HandBack{};  // a raw control character: yaml-cpp folds or refuses it
            ++i_;
            escape();
        }
        n.set_scalar(buf_);
        n.set_tag("!");
        return n;
    }

    // A number, true, false or null: a plain scalar to yaml-cpp (null a Null node).
    YamlNode& plain() {
        const YAML::Mark m = mark();
        const std::size_t start = i_;
        auto word = [&](const char* w) {
            const std::size_t n = std::strlen(w);
            if (t_.substr(i_, n) != w) return false;
            i_ += n;
            return true;
        };
        bool null = false;
        if (word("true") || word("false")) {
        } else if (word("null")) {
            null = true;
        } else {
            number();
        }
        // a plain scalar ends at a separator; anything else would extend it in YAML
        if (!at_end()) {
            const char c = t_[i_];
            if (c != ',' && c != '}' && c != ']' && c != ' ' && c != '\t' && c != '\n' && c != '\r') throw HandBack{};
        }
        YamlNode& n = make(m);
        if (null) {
            n.set_null();
        } else {
            n.set_scalar(std::string(t_.substr(start, i_ - start)));
            n.set_tag("?");
        }
        return n;
    }

    void digits() {
        const std::size_t from = i_;
        while (!at_end() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
        if (i_ == from) throw HandBack{};
    }

    void number() {
        if (!at_end() && t_[i_] == '-') ++i_;
        if (at_end()) throw HandBack{};
        if (t_[i_] == '0') ++i_;
        else digits();
        if (!at_end() && t_[i_] == '.') {
            ++i_;
            digits();
        }
        if (!at_end() && (t_[i_] == 'e' || t_[i_] == 'E')) {
            ++i_;
            if (!at_end() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
            digits();
        }
    }
};

}  // namespace

std::optional<YAML::Node> read_json_tree(std::string_view text, int max_depth, bool* duplicate_keys) {
    try {
        JsonTree reader(text, max_depth);
        YAML::Node root = reader.read();
        if (duplicate_keys) *duplicate_keys = reader.duplicate_keys();
        return root;
    } catch (const HandBack&) { return std::nullopt; }
}

}  // namespace idconform::schema::detail
