// Differential test of the NDJSON fast path (Options::fast_path) against the
// scalar reader, its reference: thousands of generated inputs (ids of every
// spelling, escapes, UTF-8 good and bad, strings across 64-byte blocks and
// buffer ends, nesting, numbers, literals, malformed lines, CRLF, blank and
// long lines, BOM, declared fields) scanned both ways, from memory and through
// small and odd-sized buffers, one pass and two halves, stopping after each
// number of violations: every violation, count and error must be identical.
#include "scan/scan.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace idconform::scan;

namespace {

struct Result {
    std::vector<std::string> lines;  // every field of every violation, then the stats
};

std::string render(const Violation& v) {
    return std::to_string(v.line) + ":" + std::to_string(v.column) + "|" + v.rule + "|" + v.where + "|" + v.expected +
           "|" + v.actual;
}

Result run(const std::string& text, Options o, bool fast, std::size_t buffer, bool split, std::size_t stop_after) {
    Result r;
    o.fast_path = fast;
    std::size_t n = 0;
    auto sink = [&](const Violation& v) {
        r.lines.push_back(render(v));
        return stop_after == 0 || ++n < stop_after;
    };
    Stats st;
    if (buffer == 0) {
        // an exact-size heap copy: under AddressSanitizer a read past the end
        // of the text (a 16-byte load too many) is caught
        const auto exact = std::make_unique<char[]>(text.size());
        std::memcpy(exact.get(), text.data(), text.size());
        st = scan_text(std::string_view(exact.get(), text.size()), o, sink);
    } else {
        std::FILE* f = std::tmpfile();
        REQUIRE(f);
        REQUIRE(std::fwrite(text.data(), 1, text.size(), f) == text.size());
        std::fflush(f);
        std::rewind(f);
        o.buffer_bytes = buffer;
        o.threads = split ? 2 : 1;
        o.split_min_bytes = 0;
        st = scan_fd(fileno(f), o, sink);
        std::fclose(f);
    }
    r.lines.push_back("records=" + std::to_string(st.records) + " values=" + std::to_string(st.values) +
                      " violations=" + std::to_string(st.violations) + " bytes=" + std::to_string(st.bytes) +
                      " stopped=" + std::to_string(st.stopped));
    if (st.error)
        r.lines.push_back("error " + std::to_string(st.error->line) + ":" + std::to_string(st.error->column) + "@" +
                          std::to_string(st.error->offset) + " " + st.error->message);
    return r;
}

// Random NDJSON, mostly well-formed (the fast path's work), with every kind
// of thing that must send a line to the scalar reader mixed in: `rare` is
// how seldom (1 in rare) a value or line is broken or breaks a rule.
class Gen {
public:
    Gen(std::uint64_t seed, int rare) : rng_(seed), rare_(rare), escapes_(seed % 4 == 0) {}

    std::string file() {
        std::string out;
        if (one_in(8)) out += "\xEF\xBB\xBF";
        const int lines = range(1, 60);
        const bool crlf = one_in(4);
        for (int i = 0; i < lines; ++i) {
            if (one_in(15)) out += one_in(2) ? "" : "  \t";  // blank line
            else if (one_in(25)) out += std::string(static_cast<std::size_t>(range(1, 3)), ' ') + record(0);
            else out += record(0);
            if (one_in(20)) out += " \t";
            if (rare()) out += " x";  // text after the record
            if (rare() && one_in(3)) out = malformed(std::move(out));
            out += crlf || one_in(30) ? "\r\n" : "\n";
        }
        if (one_in(5) && !out.empty()) out.pop_back();  // the last line without '\n'
        return out;
    }

private:
    std::mt19937_64 rng_;
    int rare_;
    bool escapes_;  // a file from an exporter that escapes a lot (PHP's "\/", Python's "\u00e9")

    int range(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool one_in(int n) { return range(1, n) == 1; }
    bool rare() { return one_in(rare_); }
    template <class T>
    const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(range(0, static_cast<int>(v.size()) - 1))]; }

    std::string hex(int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += "0123456789abcdef"[range(0, 15)];
        return s;
    }
    std::string uuid(char version, char variant) {
        return hex(8) + "-" + hex(4) + "-" + version + hex(3) + "-" + variant + hex(3) + "-" + hex(12);
    }

    // mostly v7 (a field keeps one version), else every spelling the rules know
    std::string id_text() {
        if (!rare()) return one_in(30) ? "01arz3ndektsv4rrffq69g5fav" : uuid('7', pick(std::vector<char>{'8', '9', 'a', 'b'}));
        switch (range(0, 13)) {
            case 0: return uuid('4', 'a');
            case 1: return uuid('1', '9');
            case 2: return uuid('7', 'c');  // wrong variant
            case 3: { std::string s = uuid('7', '8'); for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c))); return s; }
            case 4: return "00000000-0000-0000-0000-000000000000";
            case 5: return "ffffffff-ffff-ffff-ffff-ffffffffffff";
            case 6: return "{" + uuid('7', '8') + "}";
            case 7: return "urn:uuid:" + uuid('7', '8');
            case 8: return hex(32);
            case 9: return "01ARZ3NDEKTSV4RRFFQ69G5FAV";
            case 10: return " " + uuid('7', '8') + " ";
            case 11: return "";
            case 12: return "017f22e2\\u002d79b0-7cc3-98c4-dc0c0c07398f";  // an id behind an escape
            default: return "0";
        }
    }

    std::string plain_text() {
        if (escapes_ && one_in(4))  // ids and text behind escapes that decode to something checkable
            return pick(std::vector<std::string>{"https:\\/\\/example.com\\/a", "caf\\u00e9 \\u2603",
                                                  "017f22e2-79b0-7cc3-98c4-dc0c0c07398\\u0066", "\\u0020" + uuid('7', '9'),
                                                  "\\t" + uuid('7', 'a') + "\\n", std::string(250, 'e') + "\\u00e9\\u00e9\\u00e9",
                                                  "\\\"quoted\\\" " + std::string(static_cast<std::size_t>(range(0, 60)), 'q')});
        if (rare()) {
            switch (range(0, 3)) {
                case 0: return pick(std::vector<std::string>{"\xC3", "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xFF",
                                                              "\xE2\x82", "\x80", "a\xF0\x9F\x98"});  // invalid UTF-8
                case 1: return pick(std::vector<std::string>{"\\uZZZZ", "\\q", "\\", "\\u12"});  // bad escapes
                case 2: return pick(std::vector<std::string>{"\t", "a\x01z", std::string("nul\0x", 5)});  // raw control chars
                default: return std::string(static_cast<std::size_t>(range(1, 70)), ' ') + uuid('7', '8');  // padded
            }
        }
        if ((escapes_ && one_in(3)) || rare() || rare()) return pick(std::vector<std::string>{"a\\\"b", "\\\\", "x\\/y", "\\n\\t\\r\\b\\f", "\\u0041",
                                                                  "\\ud83d\\ude00", "\\ud800", "\\ud800\\u0041", "\\udc00x",
                                                                  "\\u00e9", "\\\\\\\"", "q\\\\"});  // escapes
        switch (range(0, 9)) {
            case 0: return "product " + std::to_string(range(0, 99999));
            case 1: return "2024-05-01T12:00:00.000Z";
            case 2: return std::string(static_cast<std::size_t>(range(0, 80)), 'x');  // crosses 16/64-byte blocks
            case 3: return std::string(static_cast<std::size_t>(range(250, 300)), 'a');  // around the 256-byte limit
            case 4: return pick(std::vector<std::string>{"caf\xC3\xA9 M\xC3\xBCller \xE2\x82\xAC \xF0\x9F\x98\x80", "\xC3\xA9",
                                                          "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF", "\xE0\xA0\x80"});  // valid UTF-8
            case 5: return "a/b~c";
            case 6: return std::string(static_cast<std::size_t>(range(0, 60)), 'y') + "\xC3\xA9";  // UTF-8 at block ends
            default: return hex(range(1, 40));
        }
    }

    std::string key() {
        if (rare()) return pick(std::vector<std::string>{"\\u0069d", "k\\\"q", "\xFF", "a\tb", "\\x", "\\u00"});
        if (escapes_ && one_in(4))
            return pick(std::vector<std::string>{"\\u0069d", "k\\\"q", "a\\/b", "caf\\u00e9_id", "owner\\u005fid", "\\\\", "x\\ud83d\\ude00"});
        return pick(std::vector<std::string>{"id", "ID", "owner_id", "category_id", "parentId", "uuid", "name", "tags",
                                             "price", "created_at", "ref", "a/b", "x~y", "caf\xC3\xA9_id", "items",
                                             "sku_id", "", "long_key_" + std::string(40, 'k'), "~/~"});
    }

    std::string number() {
        if (rare()) return pick(std::vector<std::string>{"01", "-", "1.", ".5", "1e", "1e+", "--1", "0x1", "1.2.3", "12a", "-01"});
        return pick(std::vector<std::string>{"0", "-0", "1", "-12", "3.25", "0.5", "1e9", "2E-3", "1.5e+10", "-0.0", "10"});
    }

    std::string literal() {
        if (rare()) return pick(std::vector<std::string>{"tru", "nul", "falsey", "True", "nulll", "t"});
        return pick(std::vector<std::string>{"true", "false", "null"});
    }

    std::string value(int depth) {
        const int k = range(0, 19);
        if (k < 8) return "\"" + id_text() + "\"";
        if (k < 12) return "\"" + plain_text() + "\"";
        if (k < 14) return number();
        if (k == 14) return literal();
        if (depth < 4 && k < 18) return k < 16 ? record(depth + 1) : array(depth + 1);
        if (rare()) return std::string(static_cast<std::size_t>(range(1, 8)), '[') + "1";  // not closed
        return "\"" + id_text() + "\"";
    }

    std::string ws() {
        if (!one_in(6)) return "";
        return pick(std::vector<std::string>{" ", "  ", "\t", " \r ", rare() ? "\x0b" : " "});
    }

    std::string array(int depth) {
        std::string s = "[" + ws();
        const int n = range(0, 4);
        for (int i = 0; i < n; ++i) s += (i ? "," + ws() : "") + value(depth) + ws();
        if (rare()) s += ",";
        return s + "]";
    }

    // Exports repeat one layout: most top-level records follow the file's
    // (keys and kinds of value), so that fields are seen again and again.
    std::vector<std::pair<std::string, int>> layout_;

    std::string typed(int kind, int depth) {
        switch (kind) {
            case 0: return "\"" + id_text() + "\"";
            case 1: return "\"" + plain_text() + "\"";
            case 2: return number();
            case 3: return literal();
            case 4: return "{\"owner_id\":\"" + id_text() + "\",\"n\":" + number() + ",\"x\":" + value(depth + 1) + "}";
            default: return "[\"" + id_text() + "\",\"" + id_text() + "\"," + value(depth + 1) + "]";
        }
    }

    std::string record(int depth) {
        if (depth == 0 && layout_.empty()) {
            const int n = range(1, 8);
            for (int i = 0; i < n; ++i) layout_.emplace_back(key(), range(0, 5));
        }
        if (depth == 0 && !one_in(4)) {
            std::string s = "{" + ws();
            for (std::size_t i = 0; i < layout_.size(); ++i)
                s += (i ? "," + ws() : "") + "\"" + layout_[i].first + "\":" + ws() + typed(layout_[i].second, depth) + ws();
            return s + "}";
        }
        std::string s = "{" + ws();
        const int n = range(0, depth == 0 ? 9 : 3);
        for (int i = 0; i < n; ++i) {
            if (i) s += "," + ws();
            s += "\"" + key() + "\"" + ws() + (rare() ? "" : ":") + ws() + value(depth) + ws();
        }
        if (rare()) s += ",";
        return s + "}";
    }

    // cuts the last line somewhere, or puts a stray byte into it
    std::string malformed(std::string s) {
        const std::size_t start = s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1;
        if (s.size() <= start) return s + "{";
        const std::size_t at = start + static_cast<std::size_t>(range(0, static_cast<int>(s.size() - start) - 1));
        switch (range(0, 3)) {
            case 0: return s.substr(0, at);
            case 1: return s.insert(at, pick(std::vector<std::string>{std::string(1, '\0'), "\x1f\x8b", "#", "}", "\"", "\\"}));
            case 2: return s.insert(at, 1, '\n');  // a record across two lines
            default: return s.erase(at, 1);
        }
    }
};

// Equal, or the first difference shown.
void same(const Result& got, const Result& want) {
    for (std::size_t i = 0; i < got.lines.size() && i < want.lines.size(); ++i) {
        CAPTURE(i);
        REQUIRE(got.lines[i] == want.lines[i]);
    }
    REQUIRE(got.lines.size() == want.lines.size());
}

void compare(const std::string& text, const Options& o, std::uint64_t seed) {
    const Result ref = run(text, o, false, 0, false, 0);
    const std::size_t violations = ref.lines.size() - 1 - (ref.lines.back().rfind("error ", 0) == 0 ? 1 : 0);
    struct Way {
        std::size_t buffer;
        bool split;
    };
    for (const Way w : {Way{0, false}, Way{64, false}, Way{97, false}, Way{4096, false}, Way{64, true}, Way{1024, true}}) {
        CAPTURE(seed);
        CAPTURE(w.buffer);
        CAPTURE(w.split);
        CAPTURE(text);
        // The same way both times: where a line is longer than max_line_bytes
        // the scalar reader's error depends on where the buffer ends.
        same(run(text, o, true, w.buffer, w.split, 0), run(text, o, false, w.buffer, w.split, 0));
    }
    // stopping after every number of violations (fast path, from memory and as two halves)
    for (std::size_t stop = 1; stop <= violations && stop <= 6; ++stop) {
        CAPTURE(seed);
        CAPTURE(stop);
        same(run(text, o, true, 0, false, stop), run(text, o, false, 0, false, stop));
        same(run(text, o, true, 64, true, stop), run(text, o, false, 64, true, stop));
    }
}

}  // namespace

TEST_CASE("ndjson fast path: identical to the scalar reader on generated inputs") {
    std::uint64_t records = 0, fast = 0;
    std::size_t clean = 0, with_error = 0;
    for (std::uint64_t seed = 1; seed <= 1500; ++seed) {
        const int rare = seed % 3 == 0 ? 1000000 : seed % 3 == 1 ? 150 : 25;
        Gen g(seed, rare);
        const std::string text = g.file();
        Options o;
        o.format = Format::ndjson;
        switch (seed % 5) {
            case 1: o.shape = false; o.fields = {{"/id", "uuidv7", seed % 2 == 0}}; break;
            case 2: o.fields = {{"/id", "uuid", true}, {"/owner_id", "uuidv7", true}, {"/items/*/sku_id", "uuidv4", true}}; break;
            case 3: o.max_line_bytes = static_cast<std::size_t>(100 + seed % 200); break;
            default: break;
        }
        compare(text, o, seed);
        o.fast_path = true;
        const Stats st = scan_text(text, o, [](const Violation&) { return true; });
        records += st.records;
        fast += st.fast_records;
        (st.error ? with_error : clean)++;
    }
    // the generator really covers both sides: most records take the fast
    // path, and many files end in an error
    MESSAGE("records ", records, ", by the fast path ", fast, "; files clean ", clean, ", with an error ", with_error);
    CHECK(fast * 5 > records * 2);
    CHECK(fast < records);
    CHECK(clean > 300);
    CHECK(with_error > 300);
}

TEST_CASE("ndjson fast path: regular exports, long lines, many records") {
    // the shape of a real export, where nearly every line takes the fast path
    std::mt19937_64 rng(7);
    auto h = [&rng](int n) {
        std::string s;
        for (int i = 0; i < n; ++i) s += "0123456789abcdef"[rng() % 16];
        return s;
    };
    std::string text;
    for (int i = 0; i < 3000; ++i) {
        const std::string id = h(8) + "-" + h(4) + "-7" + h(3) + "-a" + h(3) + "-" + h(12);
        std::string rec = "{\"id\":\"" + (i % 700 == 5 ? std::string("017F22E2-79B0-7CC3-98C4-DC0C0C07398F") : id) +
                          "\",\"owner_id\":\"" + (i % 900 == 7 ? std::string(36, '0').replace(8, 1, "-").replace(13, 1, "-").replace(18, 1, "-").replace(23, 1, "-") : id) +
                          "\",\"name\":\"product " + std::to_string(i) + "\",\"price\":" + std::to_string(i % 100) +
                          ".5,\"tags\":[\"a\",\"b\"],\"n\":{\"parent_id\":" + (i % 1100 == 9 ? "0" : "null") + "}}";
        if (i % 1000 == 500) rec.insert(rec.size() - 1, ",\"blob\":\"" + std::string(20000, 'z') + "\"");  // a long line
        text += rec + (i % 3 == 0 ? "\r\n" : "\n");
    }
    Options o;
    o.format = Format::ndjson;
    compare(text, o, 0);
    o.fields = {{"/id", "uuidv7", false}, {"/n/parent_id", "uuid", true}};
    compare(text, o, 0);
    o.max_line_bytes = 10000;  // the long line is an error
    compare(text, o, 0);
}

TEST_CASE("ndjson fast path: a member name with a lone surrogate is U+FFFD, as the scalar reader has it") {
    // visible through a declared field (named with U+FFFD): its text or
    // number is a violation, the same under any other name is not
    std::string text;
    for (const char* name : {"\\ud800", "\\udfff", "\\ud800\\u0041", "\\ud800\\n"})
        for (const char* value : {"\"x\"", "5", "\"017f22e2-79b0-7cc3-98c4-dc0c0c07398f\""})
            text += std::string("{\"") + name + "\":" + value + "}\n";
    Options o;
    o.format = Format::ndjson;
    for (const char* field : {"/\xEF\xBF\xBD", "/\xEF\xBF\xBD\xEF\xBF\xBD", "/\xEF\xBF\xBD\n"}) {
        o.fields = {{field, "uuidv4", true}};
        compare(text, o, 0);
    }
}

TEST_CASE("ndjson fast path: names and values around the 256-byte limit, escaped or not") {
    // The scalar reader keeps a 257-byte prefix of a longer string: a member
    // name that long is cut in the shape, so a field declared with the whole
    // name never matches it; a value that long is not checked.
    const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    for (const std::size_t n : {255u, 256u, 257u, 258u, 300u}) {
        CAPTURE(n);
        const std::string name(n, 'k'), esc_name = std::string(n - 1, 'k') + "\\u006b";  // the same name, escaped
        std::string text;
        for (int i = 0; i < 4; ++i)
            text += "{\"" + (i % 2 ? esc_name : name) + "\":\"" + v7 + "\",\"v\":\"" + std::string(n, ' ') + v7 + "\"}\n";
        Options o;
        o.format = Format::ndjson;
        compare(text, o, n);
        o.fields = {{"/" + name, "uuidv7", false}};
        compare(text, o, n);
        o.fields = {{"/" + name.substr(0, 257), "uuidv7", false}};
        compare(text, o, n);
    }
}
