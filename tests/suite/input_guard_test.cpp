// The input boundary (suite/input_guard.hpp): inputs that hung yaml-cpp 0.7,
// alias bombs, deep nesting, NUL bytes, invalid UTF-8, devices and huge files
// all end as one diagnostic at file:line:col, quickly and in bounded memory.
#include "test_support.hpp"

#include "suite/input_guard.hpp"

#include "profile/profile.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

const char* const comma_title = "YAML syntax error: ',' outside a [list] or {mapping}";

// 9^9 = 387,420,489 strings from about 700 bytes, under an allowed key.
std::string billion_laughs(const std::string& key_line, const std::string& indent) {
    std::string s = key_line;
    s += indent + "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
    const char* names = "abcdefghi";
    for (int i = 1; i < 9; ++i) {
        const char prev = names[i - 1];
        s += indent + names[i] + ": &" + names[i] + " [";
        for (int k = 0; k < 9; ++k) s += std::string(k ? "," : "") + "*" + prev;
        s += "]\n";
    }
    return s;
}

struct TempFile {
    std::string path;
    explicit TempFile(const std::string& name) {
        path = (std::filesystem::temp_directory_path() / ("idconform-guard-" + std::to_string(::getpid()) + "-" + name))
                   .string();
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
    void write(const std::string& text) const { std::ofstream(path, std::ios::binary) << text; }
};

}  // namespace

TEST_CASE("a ',' outside brackets is a syntax error, never a hang (yaml-cpp 0.7 LoadAll loop)") {
    // Each of these made YAML::LoadAll loop for ever, allocating a null
    // document per turn: the document level meets a ',' token it neither
    // takes nor consumes. Found by hand and by fuzzing (tests/fuzz/corpus).
    struct Case {
        const char* text;
        int line;
        int col;
    };
    const Case cases[] = {
        {",\n", 1, 1},          {",", 1, 1},         {"- a\n,", 2, 1},      {"- a\n- b\n,\n", 3, 1},
        {"&a ,", 1, 4},         {"!t ,", 1, 4},      {"--- ,", 1, 5},       {"[a],", 1, 4},
        {"{a: 1},", 1, 7},      {"\"a\",", 1, 4},    {"'x' ,", 1, 5},       {"a: 1\n...\n,", 3, 1},
        {"|\n x\n,", 3, 1},     {"#c\n,", 2, 1},     {"[a]\n,", 2, 1},      {" ,", 1, 2},
        {",a", 1, 1},           {"name: t\ncases: []\n...\n,\n", 4, 1},
    };
    for (const auto& c : cases) {
        const std::string text = c.text;
        CAPTURE(text);
        const Diagnostic d = only_error(c.text);
        CHECK(d.title == comma_title);
        CHECK(d.pos.line == c.line);
        CHECK(d.pos.column == c.col);
        CHECK(d.hint.find("inside [a, b]") != std::string::npos);
    }
}

TEST_CASE("a profile with a stray ',' is a syntax error too") {
    const profile::LoadResult r = profile::load_profile_text("- a\n,\n", "p.yaml");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].pos.str() == "p.yaml:2:1");
    CHECK(r.diagnostics[0].title == comma_title);
}

TEST_CASE("commas that are fine stay fine") {
    const LoadResult r = load_text("name: 'a, b'\ndescription: x, y\ncases:\n  - {name: c, steps: [{http: {path: /x}}]}\n",
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    CHECK(r.ok());
}

TEST_CASE("an alias bomb is stopped at the alias that crosses the limit") {
    SUBCASE("under vars") {
        const Diagnostic d = only_error("name: t\n" + billion_laughs("vars:\n", "  ") + "cases: []\n");
        CHECK(d.title.find("aliases repeat more than 100000 nodes") == 0);
        CHECK(d.hint.find("alias bomb") != std::string::npos);
        // a..e repeat 74,718 nodes; the first '*e' (66,430 more) crosses 100,000.
        CHECK(d.pos.str() == "inline.yaml:8:10");
        CHECK(d.source_line.rfind("  f: &f [*e", 0) == 0);
    }
    SUBCASE("in a json body") {
        const std::string text = "name: t\n" + billion_laughs("x:\n", "  ") +
                                 "cases:\n  - name: c\n    steps:\n      - http: {path: /x, json: *i}\n";
        const LoadResult r = load_text(text, "inline.yaml");
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].title.find("aliases repeat more than") == 0);
        CHECK(r.diagnostics[0].pos.line == 8);
    }
    SUBCASE("in a profile body") {
        const std::string text = "name: t\nbase_url: http://h\nprincipals: {a: {}}\n" + billion_laughs("x:\n", "  ") +
                                 "resources:\n  r:\n    create: {path: /r, body: *i}\n";
        const profile::LoadResult r = profile::load_profile_text(text, "p.yaml");
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].title.find("aliases repeat more than") == 0);
        CHECK(r.diagnostics[0].pos.str() == "p.yaml:10:10");
    }
    SUBCASE("ordinary reuse is fine") {
        const LoadResult r = load_text("name: t\nvars:\n  h: &h {a: 1, b: [1, 2]}\n  g: *h\n  k: *h\ncases: []\n",
                                       "inline.yaml");
        INFO(dump(r.diagnostics));
        CHECK(r.ok());
    }
}

TEST_CASE("an alias inside the node it names is refused (a cycle)") {
    const Diagnostic d = only_error("name: t\nvars:\n  loop: &a [1, *a]\ncases: []\n");
    CHECK(d.pos.str() == "inline.yaml:3:16");
    CHECK(d.title == "alias '*a' refers to a node that contains it");
}

TEST_CASE("deep nesting is reported where it crosses the limit") {
    std::string deep = "name: t\nvars:\n  v: ";
    for (int i = 0; i < 1000; ++i) deep += '[';
    for (int i = 0; i < 1000; ++i) deep += ']';
    deep += "\ncases: []\n";
    const Diagnostic d = only_error(deep);
    CHECK(d.title == "lists and mappings nested deeper than 128 levels");
    // The top mapping and vars are levels 1 and 2: the 127th '[' is level 129.
    CHECK(d.pos.str() == "inline.yaml:3:" + std::to_string(6 + 126));

    std::string ok = "name: t\nvars:\n  v: ";
    for (int i = 0; i < 100; ++i) ok += '[';
    for (int i = 0; i < 100; ++i) ok += ']';
    ok += "\ncases: []\n";
    const LoadResult r = load_text(ok, "inline.yaml");
    INFO(dump(r.diagnostics));
    CHECK(r.ok());
}

TEST_CASE("a NUL byte is reported where it is") {
    const Diagnostic d = only_error(std::string("name: t\0x\ncases: []\n", 20));
    CHECK(d.pos.str() == "inline.yaml:1:8");
    CHECK(d.title == "NUL byte in the file: it is not text");
    CHECK(d.source_line.empty());  // the bytes of a file that is not text are never shown
    CHECK(d.hint.find("UTF-16") != std::string::npos);
}

TEST_CASE("invalid UTF-8 is a load error at its position") {
    SUBCASE("a Latin-1 byte") {
        const Diagnostic d = only_error("name: t\ncases:\n  - name: caf\xE9\n    steps: []\n");
        CHECK(d.pos.str() == "inline.yaml:3:14");
        CHECK(d.title == "invalid UTF-8 (byte 0xE9): the file is not UTF-8 text");
        CHECK(d.source_line.empty());
    }
    SUBCASE("overlong, surrogate, truncated") {
        for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xE2\x82", "\xF5\x80\x80\x80", "\x80"}) {
            CAPTURE(bad);
            const Diagnostic d = only_error(std::string("name: t") + bad + "\ncases: []\n");
            CHECK(d.pos.str() == "inline.yaml:1:8");
            CHECK(d.title.rfind("invalid UTF-8", 0) == 0);
        }
    }
    SUBCASE("valid multi-byte text and a BOM are fine") {
        const LoadResult r = load_text("\xEF\xBB\xBFname: caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\ncases: []\n",
                                       "inline.yaml");
        INFO(dump(r.diagnostics));
        CHECK(r.ok());
    }
    SUBCASE("in a vector-set file read by the fast reader") {
        TempFile f("bad.vectors.yaml");
        f.write("set: s\nvectors:\n  - {name: a, value: \"x\xFF\"}\n");
        const VectorLoadResult r = load_vector_file(f.path);
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].pos.line == 3);
        CHECK(r.diagnostics[0].pos.column == 24);
    }
}

TEST_CASE("devices are refused, not read until memory runs out") {
    const LoadResult r = load_file("/dev/zero");
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].title == "cannot read suite file: '/dev/zero' is a character device");
    const profile::LoadResult p = profile::load_profile("/dev/zero");
    REQUIRE(p.diagnostics.size() == 1);
    CHECK(p.diagnostics[0].title == "cannot read profile: '/dev/zero' is a character device");
}

TEST_CASE("a pipe is read (up to the limit)") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const std::string text = "name: t\ncases: []\n";
    REQUIRE(::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    ::close(fds[1]);
    const LoadResult r = load_file("/dev/fd/" + std::to_string(fds[0]));
    ::close(fds[0]);
    INFO(dump(r.diagnostics));
    CHECK(r.ok());
}

TEST_CASE("size limits: input files and YAML trees") {
    SUBCASE("a file over the read limit is refused before reading") {
        TempFile f("huge.yaml");
        f.write("");
        std::filesystem::resize_file(f.path, detail::InputLimits::max_file_bytes + 1);
        const LoadResult r = load_file(f.path);
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].title == "cannot read suite file: it is 64.0 MiB, over the limit of 64 MiB for input files");
    }
    SUBCASE("text over the tree limit is refused with the way out") {
        std::string text = "name: t\ncases:\n";
        while (text.size() <= detail::InputLimits::max_tree_bytes)
            text += "  - {name: c" + std::to_string(text.size()) + ", steps: [{http: {path: /x}}]}\n";
        const Diagnostic d = only_error(text);
        CHECK(d.pos.line == 0);
        CHECK(d.title.find("the suite file is too large to load: 8.0 MiB (YAML files are limited to 8 MiB)") == 0);
        CHECK(d.hint.find("vector-set file") != std::string::npos);
    }
}

TEST_CASE("a directory holding a file with a stray ',' still expands (and the load reports it)") {
    const auto dir = std::filesystem::temp_directory_path() / ("idconform-guard-dir-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "bad.yaml") << "- a\n,\n";
    std::vector<Diagnostic> diags;
    const auto paths = expand_suite_paths({dir.string()}, diags);
    CHECK(diags.empty());
    REQUIRE(paths.size() == 1);
    const LoadResult r = load_file(paths[0]);
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].title == comma_title);
    std::filesystem::remove_all(dir);
}
