// The JSON reader of schema documents (schema/json_tree.hpp) against
// yaml-cpp, the reference: for JSON it accepts, the same tree node by node
// (type, tag, style, scalar text, mark: offset, line, column, members in
// order); for text it is not sure of, nothing (then yaml-cpp reads it). And
// the lint of the real JSON documents, once through the JSON reader and once
// through yaml-cpp (the same text with a YAML comment after it, which the
// JSON reader hands back), gives the same findings byte for byte; a document
// given as JSON and as YAML (yaml-cpp's block form of the same tree) the
// same findings but for their positions.
#include "schema/json_tree.hpp"
#include "schema/yaml_tree.hpp"
#include "schema/lint.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace idconform::schema;

namespace {

const std::string shared = std::string(IDCONFORM_SOURCE_DIR) + "/tests/schema/documents/";

std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The first difference between two trees ("" when none), with the path to it.
std::string diff(const YAML::Node& a, const YAML::Node& b, const std::string& at) {
    auto where = [&](const std::string& what) { return at + ": " + what; };
    if (a.Type() != b.Type()) return where("type " + std::to_string(a.Type()) + " vs " + std::to_string(b.Type()));
    if (a.Tag() != b.Tag()) return where("tag '" + a.Tag() + "' vs '" + b.Tag() + "'");
    if (a.Style() != b.Style()) return where("style");
    const YAML::Mark ma = a.Mark(), mb = b.Mark();
    if (ma.pos != mb.pos || ma.line != mb.line || ma.column != mb.column)
        return where("mark " + std::to_string(ma.line) + ":" + std::to_string(ma.column) + " vs " +
                     std::to_string(mb.line) + ":" + std::to_string(mb.column));
    if (a.IsScalar() && a.Scalar() != b.Scalar()) return where("scalar '" + a.Scalar() + "' vs '" + b.Scalar() + "'");
    if (a.size() != b.size()) return where("size " + std::to_string(a.size()) + " vs " + std::to_string(b.size()));
    if (a.IsSequence())
        for (std::size_t i = 0; i < a.size(); ++i)
            if (auto d = diff(a[i], b[i], at + "/" + std::to_string(i)); !d.empty()) return d;
    if (a.IsMap()) {
        auto i = a.begin();
        auto j = b.begin();
        for (; i != a.end() && j != b.end(); ++i, ++j) {
            const std::string k = i->first.IsScalar() ? i->first.Scalar() : "?";
            if (auto d = diff(i->first, j->first, at + "/" + k + "(key)"); !d.empty()) return d;
            if (auto d = diff(i->second, j->second, at + "/" + k); !d.empty()) return d;
        }
    }
    return "";
}

void same_as_yaml_cpp(const std::string& text) {
    const auto mine = detail::read_json_tree(text);
    REQUIRE_MESSAGE(mine.has_value(), "handed back: " << text.substr(0, 200));
    const YAML::Node ref = YAML::Load(text);
    CHECK_MESSAGE(diff(*mine, ref, "") == "", text.substr(0, 200));
}

// A deep copy in yaml-cpp's default (block) style, to be dumped as YAML.
YAML::Node block_copy(const YAML::Node& n) {
    if (n.IsMap()) {
        YAML::Node out(YAML::NodeType::Map);
        for (auto it = n.begin(); it != n.end(); ++it) out.force_insert(it->first.Scalar(), block_copy(it->second));
        return out;
    }
    if (n.IsSequence()) {
        YAML::Node out(YAML::NodeType::Sequence);
        for (const auto& e : n) out.push_back(block_copy(e));
        return out;
    }
    if (n.IsNull()) return YAML::Node(YAML::NodeType::Null);
    YAML::Node out(n.Scalar());
    if (n.Tag() == "!") out.SetTag("!");  // a quoted scalar stays a string ("true", "1")
    return out;
}

std::vector<std::string> lines_of(const LintResult& r, bool with_positions) {
    std::vector<std::string> out;
    for (const auto& f : r.findings) {
        std::string l = f.rule + " " + f.kind + " " + f.pointer + " " + f.what + " (" + f.expected + ")";
        if (with_positions) {
            l = f.pos.str() + " " + l;
            for (const auto& p : f.also) l += " also " + p.str();
        } else {
            l += " also " + std::to_string(f.also.size());
        }
        out.push_back(l);
    }
    if (with_positions) {
        for (const auto& d : r.warnings) out.push_back("warning " + d.pos.str() + " " + d.title);
        for (const auto& d : r.errors) out.push_back("error " + d.pos.str() + " " + d.title);
    } else {
        std::sort(out.begin(), out.end());
    }
    out.push_back("id fields " + std::to_string(r.id_fields) + ", " + r.format);
    return out;
}

const char* const real_json[] = {"ory-kratos/api.json", "qdrant/openapi.json", "svix/openapi.json"};
const char* const real_yaml[] = {"outline/spec3.yml", "harbor/swagger.yaml", "supabase-auth/openapi.yaml",
                                 "hatchet/api-contracts/openapi/openapi.yaml",
                                 "hatchet/api-contracts/openapi/components/schemas/_index.yaml"};

}  // namespace

TEST_CASE("json tree: the same nodes and marks as yaml-cpp for plain JSON") {
    same_as_yaml_cpp(R"({"a":1, "b" : [true, null, false, "x\/y", -1.5e3, 0, -0.25E+2], "c":{}, "d":[]})");
    same_as_yaml_cpp("{\n\t\"a\":\t\"t\",\r\n  \"b\":\n    [1,\n 2]\n}\n");
    same_as_yaml_cpp(R"({"e":"", "":"x", "q":"a \"quoted\" \\ back\\slash \b\f\n\r\t end"})");
    same_as_yaml_cpp(R"({"u":"\u00e9\u20ac\u0041\uFFFD", "raw":"é€ 😀", "k é":{"n":[[[{}]]]}})");
    same_as_yaml_cpp(R"({"dup":1,"dup":2, "null":"null", "true":"true", "t": true, "n": null})");
    same_as_yaml_cpp("   {\"lead\": \"and trailing space\"}  \n\n");
    // U+2028, U+0085 and U+FEFF inside strings are bytes like any other (no line break, no mark)
    same_as_yaml_cpp("{\"a\": \"x\xe2\x80\xa8y\xc2\x85z\", \"b\": \"\xef\xbb\xbf\", \"c\": 1}");
    std::string deep = "{\"a\":";
    for (int i = 0; i < 90; ++i) deep += "[";
    for (int i = 0; i < 90; ++i) deep += "]";
    same_as_yaml_cpp(deep + "}");
}

TEST_CASE("json tree: the real JSON documents read as yaml-cpp reads them") {
    for (const char* doc : real_json) {
        CAPTURE(doc);
        same_as_yaml_cpp(slurp(shared + doc));
    }
}

TEST_CASE("json tree: text it is not sure of is handed back to yaml-cpp") {
    for (const char* text : {
             "",                             // empty
             "[1, 2]",                       // not an object at the top
             "openapi: 3.0.0",               // YAML
             "{a: 1}",                       // an unquoted key
             "{'a': 1}",                     // single quotes
             "{\"a\": 1,}",                  // a trailing comma
             "{\"a\": 1} # comment",         // a comment
             "{\"a\": 1}\n---\n{}",          // two documents
             "{\"a\": 01x}",                 // not a number
             "{\"a\": 1 2}",                 // two values
             "{\"a\": tru}",                 // a bare word
             "{\"a\": .5}",                  // not JSON's number
             "{\"a\": \"\\ud83d\\ude00\"}",  // a surrogate pair (yaml-cpp refuses it)
             "{\"a\": \"\\u0000\"}",         // NUL
             "{\"a\": \"\\x41\"}",           // a YAML-only escape
             "{\"a\": \"tab\there\"}",       // a raw control character
             "{\"a\": \"line\nbreak\"}",     // a raw line break (YAML folds it)
             "{\"a\":\r1}",                  // a lone CR
             "\xEF\xBB\xBF{\"a\": 1}",       // a byte-order mark
             "{\"a\"\n: 1}",                 // the ':' on the next line
             "{\"a\": &x 1, \"b\": *x}",     // anchors and aliases
             "{\"a\": !!str 1}",             // a tag
             "{\"a\": 1",                    // unterminated
             "{\"a\": \"open",               // unterminated string
         }) {
        CAPTURE(text);
        CHECK_FALSE(detail::read_json_tree(text).has_value());
    }
    const std::string long_key = "{\"" + std::string(1100, 'k') + "\": 1}";
    CHECK_FALSE(detail::read_json_tree(long_key).has_value());
    std::string deep = "{\"a\":";
    for (int i = 0; i < 101; ++i) deep += "[";
    for (int i = 0; i < 101; ++i) deep += "]";
    CHECK_FALSE(detail::read_json_tree(deep + "}").has_value());
}

TEST_CASE("json tree: lint through the JSON reader and through yaml-cpp gives the same findings byte for byte") {
    for (const char* doc : real_json) {
        CAPTURE(doc);
        const std::string text = slurp(shared + doc);
        REQUIRE(detail::read_json_tree(text).has_value());
        const std::string via_yaml = text + "\n# after the document: the JSON reader hands this text back\n";
        REQUIRE_FALSE(detail::read_json_tree(via_yaml).has_value());
        const auto a = lines_of(lint_openapi_text(doc, text), true);
        const auto b = lines_of(lint_openapi_text(doc, via_yaml), true);
        CHECK(a.size() > 5);
        CHECK(a == b);
    }
}

TEST_CASE("json tree: a document given as JSON and as YAML gives the same findings") {
    for (const char* doc : real_json) {
        CAPTURE(doc);
        const std::string text = slurp(shared + doc);
        const std::string yaml = YAML::Dump(block_copy(YAML::Load(text))) + "\n";
        REQUIRE(yaml.find("\nopenapi: ") != std::string::npos);  // block YAML, not JSON
        const auto a = lines_of(lint_openapi_text("doc", text), false);
        const auto b = lines_of(lint_openapi_text("doc", yaml), false);
        CHECK(a.size() > 5);
        CHECK(a == b);
    }
}

TEST_CASE("yaml tree: one parser pass builds the tree YAML::Load builds") {
    for (const char* doc : real_yaml) {
        CAPTURE(doc);
        const std::string text = slurp(shared + doc);
        const auto mine = detail::read_yaml_tree(text);
        REQUIRE(mine.has_value());
        CHECK(diff(*mine, YAML::Load(text), "") == "");
    }
    for (const char* doc : real_json) {  // JSON is YAML too: what the JSON reader hands back comes here
        CAPTURE(doc);
        const std::string text = slurp(shared + doc);
        const auto mine = detail::read_yaml_tree(text);
        REQUIRE(mine.has_value());
        CHECK(diff(*mine, YAML::Load(text), "") == "");
    }
    for (const char* text :
         {"a: 1\nb: [x, 'y', \"z\", {c: ~}]\n? [complex, key]\n: v\nempty:\nlit: |\n  two\n  lines\n",
          "!!map {tagged: !custom value, n: !!int 3}", "- top\n- level: list\n", "just a scalar"}) {
        CAPTURE(text);
        const auto mine = detail::read_yaml_tree(text);
        REQUIRE(mine.has_value());
        CHECK(diff(*mine, YAML::Load(text), "") == "");
    }
}

TEST_CASE("yaml tree: what the input boundary guards against is handed back") {
    for (const char* text : {
             "",                    // empty
             "# only a comment\n",  // empty
             "~",                   // a null document
             "a: &x 1\nb: *x\n",    // an anchor and an alias
             "a: &x [1]\n",         // an anchor alone
             "a: 1\n---\nb: 2\n",   // two documents
             "a: 1\n---\n[\n",      // a broken second document
             ", a",                 // the stray ',' yaml-cpp 0.7's LoadAll loops on
             "a: [1, 2\n",          // a syntax error
             "a:\n\tb: 1\n",        // a tab
         }) {
        CAPTURE(text);
        CHECK_FALSE(detail::read_yaml_tree(text).has_value());
    }
    std::string deep = "a: ";
    for (int i = 0; i < 101; ++i) deep += "[";
    for (int i = 0; i < 101; ++i) deep += "]";
    CHECK_FALSE(detail::read_yaml_tree(deep).has_value());
    CHECK(detail::read_yaml_tree(deep.substr(0, 3 + 99) + std::string(99, ']')).has_value());
}

TEST_CASE(
    "yaml tree: lint through the one-pass reader and through the two-pass one gives the same findings byte for byte") {
    for (const char* doc : {"outline/spec3.yml", "harbor/swagger.yaml", "supabase-auth/openapi.yaml"}) {
        CAPTURE(doc);
        const std::string text = slurp(shared + doc);
        REQUIRE(detail::read_yaml_tree(text).has_value());
        // an anchor (on an extension member no check reads) sends the text the two-pass way
        const std::string two_pass = text + (text.back() == '\n' ? "" : "\n") + "x-idconform-two-pass: &two_pass 1\n";
        REQUIRE_FALSE(detail::read_yaml_tree(two_pass).has_value());
        const auto a = lines_of(lint_openapi_text(doc, text), true);
        const auto b = lines_of(lint_openapi_text(doc, two_pass), true);
        CHECK(a.size() > 5);
        CHECK(a == b);
    }
}

TEST_CASE("json and yaml trees: a key given twice in a small or a large mapping is still a warning") {
    for (const int n : {3, 40}) {
        CAPTURE(n);
        std::string json = "{\"openapi\": \"3.0.3\", \"paths\": {}, \"components\": {\"schemas\": {";
        std::string yaml = "openapi: 3.0.3\npaths: {}\ncomponents:\n  schemas:\n";
        for (int i = 0; i < n; ++i) {
            const std::string name = "S" + std::to_string(i == n - 1 ? 1 : i);  // the last one repeats S1
            json += (i ? ", \"" : "\"") + name + "\": {\"type\": \"string\"}";
            yaml += "    " + name + ":\n      type: string\n";
        }
        json += "}}}";
        bool dup = false;
        REQUIRE(detail::read_json_tree(json, detail::json_tree_max_depth, &dup).has_value());
        CHECK(dup);
        REQUIRE(detail::read_yaml_tree(yaml, detail::yaml_tree_max_depth, &dup).has_value());
        CHECK(dup);
        for (const auto& text : {json, yaml}) {
            const LintResult r = lint_openapi_text("dup", text);
            bool warned = false;
            for (const auto& d : r.warnings) warned = warned || d.title.rfind("duplicate key 'S1'", 0) == 0;
            CHECK(warned);
        }
    }
    bool dup = true;
    REQUIRE(
        detail::read_json_tree(slurp(shared + "qdrant/openapi.json"), detail::json_tree_max_depth, &dup).has_value());
    CHECK_FALSE(dup);
}
