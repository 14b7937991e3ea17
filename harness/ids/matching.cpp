// A random text matching an RE2 pattern of the kind ids are written in (see
// text_matching() in of_kind.hpp): a small parser of that part of the syntax
// into a tree, and a walk that picks one text of it. Anything outside that
// part is refused with the reason, never guessed at: the caller then says
// that no fresh id can be made.
#include "ids/detail.hpp"
#include "ids/of_kind.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

namespace idconform::ids {

namespace {

constexpr std::size_t max_shortest = 4096;  // a shortest match longer than this is no id
constexpr int max_depth = 64;
constexpr int preferred_repeat = 12;  // of a single-character atom with room: fresh, not the shortest

struct Node {
    enum class Type { chars, concat, alt, repeat } type = Type::concat;
    std::string chars;  // Type::chars: the characters allowed (one is picked)
    std::vector<std::unique_ptr<Node>> kids;
    int min = 1, max = 1;  // Type::repeat; max -1 = unbounded
};

using NodePtr = std::unique_ptr<Node>;

NodePtr chars_node(std::string set) {
    auto n = std::make_unique<Node>();
    n->type = Node::Type::chars;
    n->chars = std::move(set);
    return n;
}

std::string range(char from, char to) {
    std::string s;
    for (int c = from; c <= to; ++c) s += static_cast<char>(c);
    return s;
}

const std::string digits = range('0', '9');
const std::string word = range('0', '9') + range('A', 'Z') + range('a', 'z') + "_";

bool printable(char c) { return c >= 0x20 && c <= 0x7e; }

class Parser {
public:
    explicit Parser(std::string_view p) : p_(p) {}

    NodePtr parse(std::string& why) {
        if (std::any_of(p_.begin(), p_.end(), [](char c) { return !printable(c); })) {
            why = "characters other than printable ASCII";
            return nullptr;
        }
        NodePtr n = alternation(0);
        if (n && i_ != p_.size()) fail("unbalanced ')' at offset " + std::to_string(i_));
        if (!why_.empty()) {
            why = why_;
            return nullptr;
        }
        return n;
    }

private:
    std::string_view p_;
    std::size_t i_ = 0;
    std::string why_;

    bool at_end() const { return i_ >= p_.size(); }
    char peek() const { return p_[i_]; }
    NodePtr fail(std::string why) {
        if (why_.empty()) why_ = std::move(why);
        return nullptr;
    }

    NodePtr alternation(int depth) {
        if (depth > max_depth) return fail("groups nested deeper than " + std::to_string(max_depth));
        auto alt = std::make_unique<Node>();
        alt->type = Node::Type::alt;
        for (;;) {
            NodePtr c = concatenation(depth);
            if (!c) return nullptr;
            alt->kids.push_back(std::move(c));
            if (at_end() || peek() != '|') break;
            ++i_;
        }
        if (alt->kids.size() == 1) return std::move(alt->kids.front());
        return alt;
    }

    // The end of a top-level branch: where `$` and `\z` may stand.
    bool branch_end(std::size_t at) const { return at >= p_.size() || p_[at] == '|'; }

    NodePtr concatenation(int depth) {
        auto cat = std::make_unique<Node>();
        cat->type = Node::Type::concat;
        while (!at_end() && peek() != '|' && peek() != ')') {
            const char c = peek();
            // Anchors: only at the ends of a top-level branch (the pattern
            // matches a whole id anyway).
            if ((c == '^' || (c == '\\' && i_ + 1 < p_.size() && p_[i_ + 1] == 'A'))) {
                if (depth != 0 || !cat->kids.empty()) return fail("an anchor inside the pattern");
                i_ += c == '^' ? 1 : 2;
                continue;
            }
            if (c == '$' || (c == '\\' && i_ + 1 < p_.size() && p_[i_ + 1] == 'z')) {
                const std::size_t after = i_ + (c == '$' ? 1 : 2);
                if (depth != 0 || !branch_end(after)) return fail("an anchor inside the pattern");
                i_ = after;
                continue;
            }
            NodePtr a = atom(depth);
            if (!a) return nullptr;
            a = quantified(std::move(a));
            if (!a) return nullptr;
            cat->kids.push_back(std::move(a));
        }
        return cat;
    }

    NodePtr atom(int depth) {
        const char c = peek();
        if (c == '(') {
            ++i_;
            if (!at_end() && peek() == '?') {
                if (p_.substr(i_, 2) == "?:") {
                    i_ += 2;
                } else if (p_.substr(i_, 3) == "?P<" || p_.substr(i_, 2) == "?<") {
                    const std::size_t close = p_.find('>', i_);
                    if (close == std::string_view::npos) return fail("an unclosed group name");
                    i_ = close + 1;
                } else {
                    return fail("flags or other (?...) groups");
                }
            }
            NodePtr inner = alternation(depth + 1);
            if (!inner) return nullptr;
            if (at_end() || peek() != ')') return fail("an unclosed group");
            ++i_;
            return inner;
        }
        if (c == '[') return char_class();
        if (c == '.') {
            ++i_;
            return chars_node(range('0', '9') + range('a', 'z'));
        }
        if (c == '\\') return escape();
        if (c == '*' || c == '+' || c == '?') return fail("a repetition of nothing");
        if (c == ')') return fail("an unbalanced ')'");
        ++i_;
        return chars_node(std::string(1, c));
    }

    NodePtr escape() {
        ++i_;
        if (at_end()) return fail("a trailing backslash");
        const char e = p_[i_++];
        if (e == 'd') return chars_node(digits);
        if (e == 'w') return chars_node(word);
        if (std::isalnum(static_cast<unsigned char>(e)))
            return fail(std::string("the escape \\") + e + " (only \\d, \\w and escaped punctuation)");
        return chars_node(std::string(1, e));
    }

    NodePtr char_class() {
        ++i_;  // '['
        bool negated = false;
        if (!at_end() && peek() == '^') {
            negated = true;
            ++i_;
        }
        std::string set;
        bool first = true;
        for (;;) {
            if (at_end()) return fail("an unclosed character class");
            char c = peek();
            if (c == ']' && !first) {
                ++i_;
                break;
            }
            first = false;
            if (c == '[' && p_.substr(i_, 2) == "[:") {
                const std::size_t close = p_.find(":]", i_ + 2);
                if (close == std::string_view::npos) return fail("an unclosed [: class");
                const std::string_view name = p_.substr(i_ + 2, close - i_ - 2);
                i_ = close + 2;
                if (name == "digit") set += digits;
                else if (name == "alpha") set += range('A', 'Z') + range('a', 'z');
                else if (name == "alnum") set += digits + range('A', 'Z') + range('a', 'z');
                else if (name == "lower") set += range('a', 'z');
                else if (name == "upper") set += range('A', 'Z');
                else if (name == "xdigit") set += digits + range('A', 'F') + range('a', 'f');
                else if (name == "word") set += word;
                else return fail("the class [:" + std::string(name) + ":]");
                continue;
            }
            char lo = 0;
            if (c == '\\') {
                ++i_;
                if (at_end()) return fail("a trailing backslash");
                const char e = p_[i_++];
                if (e == 'd') {
                    set += digits;
                    continue;
                }
                if (e == 'w') {
                    set += word;
                    continue;
                }
                if (std::isalnum(static_cast<unsigned char>(e)))
                    return fail(std::string("the escape \\") + e + " in a class");
                lo = e;
            } else {
                lo = c;
                ++i_;
            }
            if (i_ + 1 < p_.size() && peek() == '-' && p_[i_ + 1] != ']') {
                ++i_;
                char hi = peek();
                if (hi == '\\') {
                    ++i_;
                    if (at_end()) return fail("a trailing backslash");
                    hi = peek();
                    if (std::isalnum(static_cast<unsigned char>(hi))) return fail("an escape as the end of a range");
                }
                ++i_;
                if (hi < lo) return fail(std::string("the range ") + lo + "-" + hi + " that is out of order");
                set += range(lo, hi);
            } else {
                set += lo;
            }
        }
        if (negated) {
            std::string all = range('!', '~');
            std::string rest;
            for (char x : all)
                if (set.find(x) == std::string::npos) rest += x;
            set = std::move(rest);
        }
        std::sort(set.begin(), set.end());
        set.erase(std::unique(set.begin(), set.end()), set.end());
        if (set.empty()) return fail("a character class that allows no character");
        return chars_node(std::move(set));
    }

    NodePtr quantified(NodePtr a) {
        if (at_end()) return a;
        int min = 0, max = 0;
        const char c = peek();
        if (c == '*') {
            min = 0;
            max = -1;
            ++i_;
        } else if (c == '+') {
            min = 1;
            max = -1;
            ++i_;
        } else if (c == '?') {
            min = 0;
            max = 1;
            ++i_;
        } else if (c == '{') {
            // {n}, {n,}, {n,m}; anything else is a literal '{' (as in RE2)
            std::size_t j = i_ + 1;
            auto number = [&](int& out) {
                const std::size_t start = j;
                long v = 0;
                while (j < p_.size() && std::isdigit(static_cast<unsigned char>(p_[j])) && v <= 100000)
                    v = v * 10 + (p_[j++] - '0');
                out = static_cast<int>(v);
                return j > start;
            };
            if (!number(min)) return a;
            if (j < p_.size() && p_[j] == '}') {
                max = min;
            } else if (j < p_.size() && p_[j] == ',') {
                ++j;
                if (j < p_.size() && p_[j] == '}') max = -1;
                else if (!number(max)) return a;
                if (j >= p_.size() || p_[j] != '}') return a;
            } else {
                return a;
            }
            if (min > 1000 || max > 1000) return fail("a repetition count above 1000");
            if (max != -1 && max < min) return fail("a repetition {n,m} with m below n");
            i_ = j + 1;
        } else {
            return a;
        }
        if (!at_end() && peek() == '?') ++i_;  // lazy: the same texts match
        if (!at_end() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{'))
            return fail("a repetition of a repetition");
        auto r = std::make_unique<Node>();
        r->type = Node::Type::repeat;
        r->min = min;
        r->max = max;
        r->kids.push_back(std::move(a));
        return r;
    }
};

std::size_t shortest(const Node& n) {
    switch (n.type) {
        case Node::Type::chars: return 1;
        case Node::Type::concat: {
            std::size_t s = 0;
            for (const auto& k : n.kids) s = std::min(max_shortest + 1, s + shortest(*k));
            return s;
        }
        case Node::Type::alt: {
            std::size_t s = max_shortest + 1;
            for (const auto& k : n.kids) s = std::min(s, shortest(*k));
            return s;
        }
        case Node::Type::repeat:
            return std::min(max_shortest + 1, static_cast<std::size_t>(n.min) * shortest(*n.kids.front()));
    }
    return 0;
}

std::size_t random_below(std::size_t n) {
    std::uint8_t b[8];
    detail::pooled_random(b, sizeof b);  // one RAND_bytes call per character was most of making a text
    std::uint64_t v = 0;
    for (auto x : b) v = (v << 8) | x;
    return static_cast<std::size_t>(v % n);  // n is small: the bias is negligible
}

void emit(const Node& n, std::string& out) {
    switch (n.type) {
        case Node::Type::chars: {
            std::string_view from = n.chars;
            std::string no_zero;
            if (out.empty() && from.size() > 1 && from.find('0') != std::string_view::npos) {
                for (char c : from)
                    if (c != '0') no_zero += c;
                from = no_zero;
            }
            out += from[random_below(from.size())];
            return;
        }
        case Node::Type::concat:
            for (const auto& k : n.kids) emit(*k, out);
            return;
        case Node::Type::alt: emit(*n.kids[random_below(n.kids.size())], out); return;
        case Node::Type::repeat: {
            const Node& kid = *n.kids.front();
            int count = kid.type == Node::Type::chars ? preferred_repeat : 1;
            count = std::max(count, n.min);
            if (n.max != -1) count = std::min(count, n.max);
            for (int i = 0; i < count; ++i) emit(kid, out);
            return;
        }
    }
}

}  // namespace

std::optional<std::string> text_matching(std::string_view pattern, std::string* why) {
    std::string reason;
    NodePtr tree = Parser(pattern).parse(reason);
    if (tree && shortest(*tree) > max_shortest)
        reason = "no match shorter than " + std::to_string(max_shortest + 1) + " characters";
    if (!reason.empty() || !tree) {
        if (why) *why = reason.empty() ? "it cannot be read" : "it has " + reason;
        return std::nullopt;
    }
    std::string out;
    emit(*tree, out);
    return out;
}

}  // namespace idconform::ids
