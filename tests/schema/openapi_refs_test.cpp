// `$ref` resolution under hostile documents (issue 24, item 2): an empty
// reference, cycles (also through a JSON pointer that passes a `$ref`), a
// 10,000-link chain and pointers nested through references beyond the cap
// each give one warning at the reference's line:col, in linear time and
// without unbounded recursion.
#include "schema/lint.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

using namespace idconform::schema;

namespace {

LintResult lint_text(const std::string& name, const std::string& text) {
    const auto p = std::filesystem::temp_directory_path() / ("idconform-refs-" + name);
    std::ofstream(p, std::ios::binary) << text;
    LintResult r = lint_openapi(p.string());
    std::filesystem::remove(p);
    return r;
}

const std::string head = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n";

std::string warnings(const LintResult& r) {
    std::string out;
    for (const auto& w : r.warnings) out += w.pos.str() + ": " + w.title + "\n";
    return out;
}

bool has(const std::string& hay, const std::string& needle) { return hay.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("an empty $ref is a warning at its position, not the whole document") {
    const auto r = lint_text("empty.yaml", head + "    A: {$ref: ''}\n    B:\n      type: object\n      properties:\n        x_id: {$ref: ''}\n");
    const std::string w = warnings(r);
    CAPTURE(w);
    CHECK(r.errors.empty());
    CHECK(has(w, ":6:9: unresolved $ref '': it is empty"));
    CHECK(has(w, ":10:16: unresolved $ref '': it is empty"));
}

TEST_CASE("'#' alone in the OpenAPI document names no schema") {
    const auto r = lint_text("hash.yaml", head + "    A: {$ref: '#'}\n");
    CHECK(has(warnings(r), ":6:9: unresolved $ref '#': it names the whole OpenAPI document"));
}

TEST_CASE("a $ref cycle, direct or through a pointer into a $ref, is one warning naming the links") {
    const auto self = lint_text("self.yaml", head + "    A: {$ref: '#/components/schemas/A'}\n");
    CHECK(has(warnings(self), ":6:5: a $ref cycle with no schema in it: "));
    const auto r = lint_text("cycle.yaml", head +
                                               "    A: {$ref: '#/components/schemas/B/properties/x'}\n"
                                               "    B:\n      $ref: '#/components/schemas/A'\n"
                                               "    C:\n      type: object\n      properties:\n"
                                               "        user_id: {$ref: '#/components/schemas/A/properties/y'}\n");
    const std::string w = warnings(r);
    CAPTURE(w);
    CHECK(r.errors.empty());
    CHECK(has(w, "a $ref cycle with no schema in it: "));
    CHECK(has(w, "#/components/schemas/A -> "));
    CHECK(has(w, "#/components/schemas/B -> "));
}

TEST_CASE("a 10,000-link $ref chain resolves (no recursion per link)") {
    std::string doc = "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": {},\n"
                      "\"components\": {\"schemas\": {\n";
    const int n = 10000;
    for (int i = 0; i < n; ++i)
        doc += "\"S" + std::to_string(i) + "\": {\"$ref\": \"#/components/schemas/S" + std::to_string(i + 1) + "\"},\n";
    doc += "\"S" + std::to_string(n) + "\": {\"type\": \"object\", \"properties\": {\"user_id\": {\"type\": \"string\", \"format\": \"uuid\"}}}\n}}}\n";
    const auto r = lint_text("chain.json", doc);  // timed in bench/run_init.sh, not here
    CHECK(r.errors.empty());
    CHECK(r.warnings.empty());
    REQUIRE(r.findings.size() == 1);
    CHECK(r.findings[0].pointer == "/components/schemas/S10000/properties/user_id");
}

TEST_CASE("pointers nested through references deeper than the cap stop with a warning") {
    std::string doc = head;
    const int n = 5000;
    for (int i = 0; i < n; ++i)
        doc += "    S" + std::to_string(i) + ": {$ref: '#/components/schemas/S" + std::to_string(i + 1) + "/properties/x'}\n";
    doc += "    S" + std::to_string(n) + ": {type: object, properties: {x: {type: string}}}\n";
    const auto r = lint_text("nested.yaml", doc);
    CHECK(r.errors.empty());
    CHECK(has(warnings(r), "$ref resolution nested more than 64 deep"));
}

TEST_CASE("wrong types where OpenAPI has mappings are errors at their position, not a clean lint") {
    const auto r = lint_text("types.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: [1, 2, 3]\n");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].pos.line == 3);
    CHECK(r.errors[0].pos.column == 1);
    CHECK(has(r.errors[0].title, "'paths' is a list, not a mapping"));
    const auto r2 = lint_text("types2.yaml", "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a: 3\n  /b:\n    get: x\n"
                                             "components:\n  schemas: [1]\n");
    std::string e;
    for (const auto& d : r2.errors) e += d.pos.str() + ": " + d.title + "\n";
    CAPTURE(e);
    CHECK(has(e, ":4:3: the path item '/a' is a scalar"));
    CHECK(has(e, ":6:5: the operation get /b is a scalar"));
    CHECK(has(e, ":8:3: 'components.schemas' is a list"));
}

TEST_CASE("duplicate keys, YAML or JSON, are warnings naming both positions") {
    const auto y = lint_text("dup.yaml", head + "    A: {type: string}\n    A: {type: integer}\n");
    CHECK(has(warnings(y), ":7:5: duplicate key 'A' (first at 6:5)"));
    const auto j = lint_text("dup.json", "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"t\", \"version\": \"1\"},\n"
                                         " \"paths\": {},\n \"paths\": {\"/x\": {}}}\n");
    CHECK(has(warnings(j), ":3:2: duplicate key 'paths' (first at 2:2)"));
}

TEST_CASE("a $ref with no value is not followed (it recursed until the stack overflowed)") {
    // found by fuzz_openapi (fuzz/corpus/fuzz_openapi/regress-ref-without-value.yaml)
    const auto r = lint_text("noval.yaml", head + "    A: {$ref: , other: 1}\n    B: {$ref: '#/components/schemas/A'}\n");
    CHECK(r.errors.empty());
}

TEST_CASE("a schema document over the size limit is refused with a hint for schema documents, not for suites") {
    std::string doc = "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": {}, \"x-pad\": \"";
    doc.append((std::size_t{32} << 20) + 16, 'a');
    doc += "\"}";
    const LintResult r = lint_openapi_text("huge.json", doc);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].title.find("the schema document file is too large to load: 32.0 MiB (schema documents are limited to "
                                 "32 MiB)") == 0);
    CHECK(r.errors[0].hint.find("relative $refs") != std::string::npos);
    CHECK(r.errors[0].hint.find("vector") == std::string::npos);
}

TEST_CASE("an x- member of the Paths object is an extension, not a path item") {
    const std::string doc = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  x-codegen-contextRoot: /apis/registry/v2\n"
                            "  /things/{thing_id}:\n    get:\n      parameters: [{name: thing_id, in: path, required: true, "
                            "schema: {type: string}}]\n      responses: {'200': {description: ok}}\n";
    const LintResult r = lint_openapi_text("ext.yaml", doc);
    CHECK(r.errors.empty());
    REQUIRE(r.findings.size() == 1);  // the path parameter, judged
    CHECK(r.findings[0].kind == "unconstrained");
}
