// The fast vector-set reader (suite/simple_vectors.hpp) against the yaml-cpp
// path: on every file it accepts, both build the same set (names, values with
// their JSON types, fields, positions); every file outside its subset or with
// a mistake is left to yaml-cpp, so diagnostics keep their file:line:col.
#include "suite/simple_vectors.hpp"
#include "test_support.hpp"

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;
namespace fs = std::filesystem;

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A file in a fresh temp dir holding `text`.
std::string write_temp(const std::string& name, const std::string& text) {
    const fs::path dir = fs::temp_directory_path() / ("idconform-simple-vectors-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
}

void same_pos(const SourcePos& a, const SourcePos& b) {
    CHECK(a.file == b.file);
    CHECK(a.line == b.line);
    CHECK(a.column == b.column);
}

// Both readers load `path`; the fast one must accept it; the sets must be equal.
void check_same(const std::string& path) {
    INFO("file: " << path);
    const std::string text = read(path);
    const auto fast = detail::read_simple_vector_set(text, path);
    REQUIRE(fast.has_value());
    const VectorLoadResult slow = load_vector_file(path, false);
    INFO(dump(slow.diagnostics));
    REQUIRE(slow.set.has_value());
    CHECK(fast->name == slow.set->name);
    CHECK(fast->description == slow.set->description);
    same_pos(fast->pos, slow.set->pos);
    REQUIRE(fast->vectors.size() == slow.set->vectors.size());
    for (std::size_t i = 0; i < fast->vectors.size(); ++i) {
        const Vector& f = fast->vectors[i];
        const Vector& s = slow.set->vectors[i];
        INFO("vector " << i << " " << s.name);
        CHECK(f.name == s.name);
        CHECK(f.value.kind() == s.value.kind());  // 1 stays an integer, "1" a string
        CHECK(f.value == s.value);
        CHECK(f.fields == s.fields);
        CHECK(boost::json::serialize(f.fields) == boost::json::serialize(s.fields));  // same key order
        same_pos(f.pos, s.pos);
    }
}

// The fast reader declines; loading (which falls back to yaml-cpp) gives the
// same diagnostics as yaml-cpp alone.
void check_declined(const std::string& name, const std::string& text) {
    INFO("file " << name << ":\n" << text);
    const std::string path = write_temp(name, text);
    CHECK_FALSE(detail::read_simple_vector_set(text, path).has_value());
    const VectorLoadResult a = load_vector_file(path);
    const VectorLoadResult b = load_vector_file(path, false);
    CHECK(a.set.has_value() == b.set.has_value());
    REQUIRE(a.diagnostics.size() == b.diagnostics.size());
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i) CHECK(render(a.diagnostics[i]) == render(b.diagnostics[i]));
}

}  // namespace

TEST_CASE("simple vector reader: the project's vector files read the same as with yaml-cpp") {
    int files = 0;
    for (const auto& e : fs::directory_iterator(std::string(IDCONFORM_SOURCE_DIR) + "/vectors")) {
        if (e.path().extension() != ".yaml") continue;
        // Files outside the subset (negative.yaml has escapes) or not
        // loadable as sets (crockford.yaml has no `value` keys: the ids
        // tests read it directly) must load exactly as with yaml-cpp.
        const std::string text = read(e.path().string());
        if (!detail::read_simple_vector_set(text, e.path().string())) {
            check_declined(e.path().filename().string(), text);
            continue;
        }
        check_same(e.path().string());
        ++files;
    }
    CHECK(files >= 3);  // rfc9562, ulid, uuidv8-legacy, viewable at the time of writing
    check_same(fixture("vectors/rfc9562.yaml"));
}

TEST_CASE("simple vector reader: one-line flow entries with typed scalars, quotes and comments") {
    const std::string text =
        "# generated\n"
        "set: live\n"
        "description: a set of values  # trailing comment\n"
        "\n"
        "vectors:\n"
        "  - {name: g0, value: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f}\n"
        "  - {name: g1, value: 12, note: x}   # comment\n"
        "  # a comment between items\n"
        "  - { name: g2 , value: -1.5e3 }\n"
        "  - {name: g3, value: true, version: 7, hex: 0x1F, oct: 0o17, neg: -4}\n"
        "  - {name: g4, value: null}\n"
        "  - {name: g5, value: ~}\n"
        "  - {name: g6, value: \"\"}\n"
        "  - {name: g7, value: 'a b #c'}\n"
        "  - {name: g8, value: \"with 'single' quotes\", flag: False}\n"
        "  - {name: \"g9\", value: .5}\n"
        "  - {name: g10, value: a#b, other: x-y}\n";
    check_same(write_temp("flow.vectors.yaml", text));
    // Zero-indented sequence and block entries.
    check_same(write_temp("block.vectors.yaml",
                          "vectors:\n"
                          "- name: b0\n"
                          "  value: \"1\"\n"
                          "  source: RFC 9562 Appendix A.1, [x] {y}\n"
                          "- name: b1\n"
                          "  # comment inside an item\n"
                          "  value: 1\n"
                          "set: 'quoted'\n"));
}

TEST_CASE("simple vector reader: anything outside the subset or wrong is left to yaml-cpp") {
    const std::string head = "set: s\nvectors:\n";
    check_declined("dup.yaml", head + "  - {name: a, value: 1}\n  - {name: a, value: 2}\n");
    check_declined("novalue.yaml", head + "  - {name: a}\n");
    check_declined("noname.yaml", head + "  - {value: 1}\n");
    check_declined("dupkey.yaml", head + "  - {name: a, value: 1, value: 2}\n");
    check_declined("tab.yaml", head + "  - {name: a,\tvalue: 1}\n");
    check_declined("crlf.yaml", "set: s\r\nvectors:\r\n  - {name: a, value: 1}\r\n");
    check_declined("nested.yaml", head + "  - {name: a, value: 1, extra: [1, 2]}\n");
    check_declined("nestedblock.yaml", head + "  - name: a\n    value: 1\n    extra:\n      k: v\n");
    check_declined("multiline.yaml", head + "  - name: a\n    value: one\n      two\n");
    check_declined("escape.yaml", head + "  - {name: a, value: \"a\\tb\"}\n");
    check_declined("anchor.yaml", head + "  - {name: a, value: &x 1}\n  - {name: b, value: *x}\n");
    check_declined("tag.yaml", head + "  - {name: a, value: !!str 1}\n");
    check_declined("badname.yaml", "set: 9bad\nvectors:\n  - {name: a, value: 1}\n");
    check_declined("noset.yaml", "vectors:\n  - {name: a, value: 1}\n");
    check_declined("empty.yaml", "set: s\nvectors:\n");
    check_declined("unknown.yaml", head + "  - {name: a, value: 1}\nextra: 1\n");
    check_declined("scalarvalue.yaml", head + "  - {name: a, value: }\n");
    check_declined("unclosed.yaml", head + "  - {name: a, value: 1\n");
    check_declined("indent.yaml", head + "  - {name: a, value: 1}\n    - {name: b, value: 2}\n");
    check_declined("docs.yaml", "---\n" + head + "  - {name: a, value: 1}\n");
    check_declined("utf8.yaml", head + "  - {name: a, value: caf\xc3\xa9}\n");
    check_declined("colon.yaml", head + "  - {name: a, value: a:b}\n");
    check_declined("nullname.yaml", head + "  - {name: null, value: 1}\n");
    check_declined("tabcomment.yaml", head + "  # a\tcomment\n  - {name: a, value: 1}\n");
    check_declined("brace.yaml", head + "  - {name: a, value: a{b}\n");
    check_declined("bracket.yaml", head + "  - {name: a, value: a]b}\n");
    check_declined("dupblock.yaml", head + "  - name: a\n    value: 1\n  - {name: a, value: 2}\n");
    // yaml-cpp 0.7 rejects '?' inside a flow plain scalar (found by fuzz_suite)
    check_declined("question.yaml", head + "  - {name: a, value: 017f22e2-79b0-7cc3-98c4-dc0c0c0?398f}\n");
}

TEST_CASE("simple vector reader: an included large set loads, and a suite using it runs the same cases") {
    std::string text = "set: big\nvectors:\n";
    for (int i = 0; i < 2000; ++i) text += "  - {name: v" + std::to_string(i) + ", value: x" + std::to_string(i) + "}\n";
    const std::string vec = write_temp("big.vectors.yaml", text);
    const std::string suite_path = write_temp("big-suite.yaml",
                                              "name: s\ninclude: [big.vectors.yaml]\ncases:\n"
                                              "  - name: c\n    for_each: {vectors: big, as: v}\n"
                                              "    steps: [{http: {path: \"/x/{v.value}\"}}]\n");
    const LoadResult r = load_file(suite_path);
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const auto& set = r.suite->vector_sets.at("big");
    REQUIRE(set.vectors.size() == 2000);
    CHECK(set.vectors[1999].name == "v1999");
    CHECK(set.vectors[1999].value == boost::json::value("x1999"));
    CHECK(set.vectors[1999].pos.str() == vec + ":2002:5");
    check_same(vec);
}
