// Every kind of suite error is reported with file, line, column, title and
// hint, all errors of a file are collected, and nothing half-loads.
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

// A valid suite around one step's body, so each test changes one thing.
// The step mapping starts at line 5, column 9.
std::string with_step(const std::string& step_lines) {
    return "name: t\n"
           "cases:\n"
           "  - name: c\n"
           "    steps:\n" +
           step_lines;
}

}  // namespace

TEST_CASE("unknown key with did-you-mean, rendered with the source line") {
    const Diagnostic d = only_error(with_step("      - http: {path: /x}\n"
                                              "        expect:\n"
                                              "          stauts: 200\n"));
    CHECK(d.pos.str() == "inline.yaml:7:11");
    CHECK(d.title == "unknown key 'stauts' in expect");
    CHECK(d.hint == "did you mean 'status'?");
    CHECK(d.source_line == "          stauts: 200");
    CHECK(render(d) ==
          "inline.yaml:7:11: error: unknown key 'stauts' in expect\n"
          "    7 |           stauts: 200\n"
          "      |           ^\n"
          "hint: did you mean 'status'?\n");
}

TEST_CASE("unknown key without a close match lists the allowed keys") {
    const Diagnostic d = only_error("name: t\ncases: []\nzzz: 1\n");
    CHECK(d.pos.str() == "inline.yaml:3:1");
    CHECK(d.title == "unknown key 'zzz' in suite");
    CHECK(d.hint.rfind("allowed keys: name, description, tags,", 0) == 0);
}

TEST_CASE("wrong types name the expected form with an example") {
    SUBCASE("mapping") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x}\n"
                                                  "        expect: [200]\n"));
        CHECK(d.pos.str() == "inline.yaml:6:17");
        CHECK(d.title == "expected a mapping here, found a list");
        CHECK(d.hint == "'expect' takes key: value pairs, e.g. {status: 200}");
    }
    SUBCASE("list") {
        const Diagnostic d = only_error("name: t\ncases: {a: 1}\n");
        CHECK(d.pos.str() == "inline.yaml:2:8");
        CHECK(d.title == "expected a list here, found a mapping");
        CHECK(d.hint.find("'cases' takes a list, e.g.") == 0);
    }
    SUBCASE("string") {
        const Diagnostic d = only_error("name: [a, b]\ncases: []\n");
        CHECK(d.pos.str() == "inline.yaml:1:7");
        CHECK(d.title == "expected a string here, found a list");
        CHECK(d.hint == "'name' takes a string, e.g. name: data-id-basics");
    }
    SUBCASE("empty value is blamed on its key") {
        const Diagnostic d = only_error(with_step("      - http:\n"
                                                  "        expect: {status: 200}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:9");
        CHECK(d.title == "expected a mapping here, found nothing");
    }
    SUBCASE("boolean") {
        const Diagnostic d = only_error("name: t\ntarget: {tls: {insecure: \"yes\"}}\ncases: []\n");
        CHECK(d.pos.str() == "inline.yaml:2:26");
        CHECK(d.title == "expected a boolean here, found 'yes'");
        CHECK(d.hint.find("true or false") != std::string::npos);
    }
    SUBCASE("duration") {
        const Diagnostic d = only_error("name: t\ntarget: {timeout: {read: 5}}\ncases: []\n");
        CHECK(d.pos.str() == "inline.yaml:2:26");
        CHECK(d.title == "bad duration '5' for 'read'");
        CHECK(d.hint == "write a whole number with a unit ms, s or m, e.g. 500ms, 2s, 1m");
    }
}

TEST_CASE("duplicate case names") {
    const Diagnostic d = only_error("name: t\n"
                                    "cases:\n"
                                    "  - name: same\n"
                                    "    steps: [{http: {path: /a}}]\n"
                                    "  - name: same\n"
                                    "    steps: [{http: {path: /b}}]\n");
    CHECK(d.pos.str() == "inline.yaml:5:5");
    CHECK(d.title == "duplicate case name 'same'");
    CHECK(d.hint.find("the first is at line 3") != std::string::npos);
}

TEST_CASE("duplicate keys") {
    const Diagnostic d = only_error(with_step("      - http: {path: /a, path: /b}\n"));
    CHECK(d.pos.str() == "inline.yaml:5:26");
    CHECK(d.title == "duplicate key 'path' in http");
    CHECK(d.hint == "'path' is already set at line 5; remove one of them");
}

TEST_CASE("duplicate keys inside a JSON body") {
    const Diagnostic d = only_error(with_step("      - http: {path: /a, json: {a: 1, a: 2}}\n"));
    CHECK(d.pos.str() == "inline.yaml:5:39");
    CHECK(d.title == "duplicate key 'a' in this object");
}

TEST_CASE("unknown principal") {
    SUBCASE("close to a defined one") {
        const Diagnostic d = only_error("name: t\n"
                                        "principals: {alice: {headers: {A: b}}}\n"
                                        "cases:\n"
                                        "  - name: c\n"
                                        "    steps:\n"
                                        "      - http: {path: /x, principal: alcie}\n");
        CHECK(d.pos.str() == "inline.yaml:6:37");
        CHECK(d.title == "unknown principal 'alcie'");
        CHECK(d.hint == "did you mean 'alice'?");
        CHECK(d.source_line == "      - http: {path: /x, principal: alcie}");
    }
    SUBCASE("none defined") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x, principal: mallory}\n"));
        CHECK(d.title == "unknown principal 'mallory'");
        CHECK(d.hint.find("define it under 'principals:'") == 0);
    }
    SUBCASE("in setup") {
        const Diagnostic d = only_error("name: t\nsetup:\n  - http: {path: /x, principal: bob}\ncases: []\n");
        CHECK(d.pos.str() == "inline.yaml:3:33");
    }
}

TEST_CASE("unknown vector set and unknown vector names in for_each") {
    const std::string text = "name: t\n"
                             "vectors:\n"
                             "  rfc9562: [{name: a6-v7, value: x}]\n"
                             "cases:\n"
                             "  - name: c\n"
                             "    for_each: {vectors: rfc9652, as: v}\n"
                             "    steps: [{http: {path: /x}}]\n"
                             "  - name: d\n"
                             "    for_each: {vectors: rfc9562, only: [a6-v8], except: [zzz]}\n"
                             "    steps: [{http: {path: /x}}]\n";
    const LoadResult r = load_text(text, "inline.yaml");
    CHECK_FALSE(r.ok());
    REQUIRE(r.diagnostics.size() == 3);
    check(r.diagnostics, "inline.yaml", 6, 25, "unknown vector set 'rfc9652'", "did you mean 'rfc9562'?");
    check(r.diagnostics, "inline.yaml", 9, 41, "unknown vector 'a6-v8' in set 'rfc9562'", "did you mean 'a6-v7'?");
    check(r.diagnostics, "inline.yaml", 9, 58, "unknown vector 'zzz' in set 'rfc9562'",
          "vectors of the set: a6-v7");
}

TEST_CASE("unknown vector set with no close name says how to define one") {
    const Diagnostic d = only_error("name: t\n"
                                    "cases:\n"
                                    "  - name: c\n"
                                    "    for_each: {vectors: mine}\n"
                                    "    steps: [{http: {path: /x}}]\n");
    CHECK(d.pos.str() == "inline.yaml:4:25");
    CHECK(d.hint.find("include a vector-set file") == 0);
}

TEST_CASE("undefined fragment") {
    const Diagnostic d = only_error("name: t\n"
                                    "fragments:\n"
                                    "  create_product: {http: {method: POST, path: /p}}\n"
                                    "cases:\n"
                                    "  - name: c\n"
                                    "    steps:\n"
                                    "      - use: create_prodcut\n");
    CHECK(d.pos.str() == "inline.yaml:7:14");
    CHECK(d.title == "unknown fragment 'create_prodcut'");
    CHECK(d.hint == "did you mean 'create_product'?");
}

TEST_CASE("a use step takes no other keys") {
    const Diagnostic d = only_error("name: t\n"
                                    "fragments: {f: {http: {path: /p}}}\n"
                                    "cases:\n"
                                    "  - name: c\n"
                                    "    steps:\n"
                                    "      - use: f\n"
                                    "        expect: {status: 200}\n");
    CHECK(d.pos.str() == "inline.yaml:7:9");
    CHECK(d.title == "a 'use' step takes no other keys (found 'expect')");
}

TEST_CASE("inline fragments are usable and take the fragment's name") {
    const LoadResult r = load_text("name: t\n"
                                   "fragments: {f: {http: {path: /p, principal: a}}}\n"
                                   "principals: {a: {headers: {X: y}}}\n"
                                   "cases:\n"
                                   "  - name: c\n"
                                   "    steps: [{use: f}, {use: f}]\n",
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    REQUIRE(r.suite->cases[0].steps.size() == 2);
    CHECK(r.suite->cases[0].steps[1].name == "f");
    CHECK(r.suite->cases[0].steps[1].pos.str() == "inline.yaml:2:16");
}

TEST_CASE("a fragment's unknown principal is reported once, at the fragment") {
    const LoadResult r = load_text("name: t\n"
                                   "fragments: {f: {http: {path: /p, principal: nobody}}}\n"
                                   "cases:\n"
                                   "  - name: c\n"
                                   "    steps: [{use: f}, {use: f}]\n",
                                   "inline.yaml");
    REQUIRE(r.diagnostics.size() == 1);
    check(r.diagnostics, "inline.yaml", 2, 45, "unknown principal 'nobody'", "principals:");
}

TEST_CASE("bad regular expressions are compiled and reported at load time") {
    const LoadResult r = load_text(with_step("      - http: {path: /x}\n"
                                             "        expect:\n"
                                             "          headers: {Location: {regex: \"([a-z\"}}\n"
                                             "          json: {/id: {regex: \"a(?=b)\"}}\n"),
                                   "inline.yaml");
    CHECK_FALSE(r.ok());
    REQUIRE(r.diagnostics.size() == 2);
    check(r.diagnostics, "inline.yaml", 7, 39, "bad regular expression '([a-z': missing ]: [a-z", "RE2 syntax");
    check(r.diagnostics, "inline.yaml", 8, 31, "bad regular expression 'a(?=b)': invalid perl operator: (?=",
          "no lookaround");
}

TEST_CASE("bad JSON pointers") {
    const LoadResult r = load_text(with_step("      - http: {path: /x}\n"
                                             "        expect:\n"
                                             "          json: {id: 1, \"/a~2\": 2, \"\": {type: object}}\n"
                                             "          id: {at: name}\n"
                                             "        capture: {x: id, y: {json: items}}\n"),
                                   "inline.yaml");
    CHECK_FALSE(r.ok());
    REQUIRE(r.diagnostics.size() == 5);
    check(r.diagnostics, "inline.yaml", 7, 18, "bad JSON pointer 'id'",
          "a JSON pointer starts with '/', e.g. /id or /items/0/id; '' is the whole body");
    check(r.diagnostics, "inline.yaml", 7, 25, "bad JSON pointer '/a~2'", "'~' must be followed by 0");
    check(r.diagnostics, "inline.yaml", 8, 20, "bad JSON pointer 'name'", "starts with '/'");
    check(r.diagnostics, "inline.yaml", 9, 22, "bad JSON pointer 'id'", "starts with '/'");
    check(r.diagnostics, "inline.yaml", 9, 36, "bad JSON pointer 'items'", "starts with '/'");
}

TEST_CASE("bad status codes") {
    const LoadResult r = load_text(with_step("      - http: {path: /x}\n"
                                             "        expect: {status: [4xy, 99, 600, 201, 2XX]}\n"
                                             "      - http: {path: /y}\n"
                                             "        expect: {status_not: {a: 1}}\n"),
                                   "inline.yaml");
    CHECK_FALSE(r.ok());
    REQUIRE(r.diagnostics.size() == 4);
    const std::string hint = "write a code from 100 to 599 (e.g. 201), a class such as 4xx or `refused`";
    check(r.diagnostics, "inline.yaml", 6, 27, "bad status '4xy'", hint);
    check(r.diagnostics, "inline.yaml", 6, 32, "bad status '99'", hint);
    check(r.diagnostics, "inline.yaml", 6, 36, "bad status '600'", hint);
    check(r.diagnostics, "inline.yaml", 8, 30, "expected a status code or class here, found a mapping", hint);
}

TEST_CASE("status and status_not together, json and raw together") {
    const LoadResult r = load_text(with_step("      - http: {path: /x, json: {}, raw: text}\n"
                                             "        expect: {status: 200, status_not: 500}\n"),
                                   "inline.yaml");
    REQUIRE(r.diagnostics.size() == 2);
    check(r.diagnostics, "inline.yaml", 5, 36, "'json' and 'raw' cannot both be set", "not both");
    check(r.diagnostics, "inline.yaml", 6, 31, "'status' and 'status_not' cannot both be set", "status_not:");
}

TEST_CASE("bad HTTP method") {
    SUBCASE("typo") {
        const Diagnostic d = only_error(with_step("      - http: {method: PSOT, path: /x}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:24");
        CHECK(d.title == "unknown HTTP method 'PSOT'");
        CHECK(d.hint == "did you mean 'POST'?");
    }
    SUBCASE("lower case") {
        const Diagnostic d = only_error(with_step("      - http: {method: delete, path: /x}\n"));
        CHECK(d.hint == "did you mean 'DELETE'?");
    }
    SUBCASE("unrelated") {
        const Diagnostic d = only_error(with_step("      - http: {method: FROB, path: /x}\n"));
        CHECK(d.hint == "allowed methods: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
    }
}

TEST_CASE("id checks: kinds and places") {
    const LoadResult r = load_text(with_step("      - http: {path: /x}\n"
                                             "        expect:\n"
                                             "          id:\n"
                                             "            - {at: /id, kind: uuidv77}\n"
                                             "            - {kind: ulid}\n"
                                             "            - {at: /id, header: Location}\n"
                                             "            - {at: /id, kind: uuid7}\n"),
                                   "inline.yaml");
    REQUIRE(r.diagnostics.size() == 4);
    check(r.diagnostics, "inline.yaml", 8, 31, "unknown id kind 'uuidv77'", "did you mean 'uuidv7'?");
    check(r.diagnostics, "inline.yaml", 9, 15, "an id check needs 'at' or 'header'", "{at: /id, kind: uuidv7}");
    check(r.diagnostics, "inline.yaml", 10, 25, "an id check takes 'at' or 'header', not both", "one check per place");
    check(r.diagnostics, "inline.yaml", 11, 31, "unknown id kind 'uuid7'", "did you mean 'uuid'?");
}

TEST_CASE("json checks: operator typos and bad types") {
    const LoadResult r = load_text(with_step("      - http: {path: /x}\n"
                                             "        expect:\n"
                                             "          json:\n"
                                             "            /a: {regx: \"x\"}\n"
                                             "            /b: {type: strng}\n"
                                             "            /c: {absent: false}\n"
                                             "            /d: {one_of: x}\n"
                                             "            /e: {totally: different}\n"),
                                   "inline.yaml");
    REQUIRE(r.diagnostics.size() == 4);
    check(r.diagnostics, "inline.yaml", 8, 18, "unknown operator 'regx' in json check",
          "did you mean 'regex'? To compare with an object, write {equals: {regx: ...}}");
    check(r.diagnostics, "inline.yaml", 9, 24, "unknown JSON type 'strng'", "did you mean 'string'?");
    check(r.diagnostics, "inline.yaml", 10, 26, "'absent: false' is not a check", "{present: true}");
    check(r.diagnostics, "inline.yaml", 11, 26, "expected a non-empty list here, found 'x'", "{one_of: [a, b]}");
}

TEST_CASE("placeholder syntax") {
    SUBCASE("unclosed ${ points at the placeholder") {
        const Diagnostic d = only_error("name: t\n"
                                        "vars:\n"
                                        "  token: Bearer ${env:TOKEN\n"
                                        "cases: []\n");
        CHECK(d.pos.str() == "inline.yaml:3:17");
        CHECK(d.title == "unclosed '${' in 'Bearer ${env:TOKEN'");
        CHECK(d.hint.find("close the placeholder with '}'") == 0);
    }
    SUBCASE("inside a quoted string") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x, headers: {A: \"x ${env:1BAD}\"}}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:42");
        CHECK(d.title == "bad environment variable name '1BAD' in '${env:1BAD}'");
        CHECK(d.hint.find("${env:TOKEN_A:-alice}") != std::string::npos);
    }
    SUBCASE("bad variable name in a JSON body leaf") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x, json: {a: [\"${a b}\"]}}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:38");
        CHECK(d.title == "bad variable name 'a b' in '${a b}'");
    }
    SUBCASE("empty placeholder") {
        const Diagnostic d = only_error("name: t\ntarget: {base_url: \"${}\"}\ncases: []\n");
        CHECK(d.title == "empty placeholder '${}'");
        CHECK(d.pos.str() == "inline.yaml:2:21");
    }
    SUBCASE("unclosed path variable") {
        const Diagnostic d = only_error(with_step("      - http: {path: \"/v1/products/{id}/x/{oops\"}\n"));
        CHECK(d.title == "unclosed '{' in path '/v1/products/{id}/x/{oops'");
    }
    SUBCASE("env default may hold any text") {
        const LoadResult r = load_text("name: t\n"
                                       "vars: {a: \"${env:A:-http://h:1/p?q=1}\", b: \"${v.value} and ${x-y}\"}\n"
                                       "cases: []\n",
                                       "inline.yaml");
        INFO(dump(r.diagnostics));
        CHECK(r.ok());
    }
    SUBCASE("vector values are not templates") {
        const LoadResult r = load_text("name: t\nvectors: {s: [{name: a, value: \"${not-closed\"}]}\ncases: []\n",
                                       "inline.yaml");
        CHECK(r.ok());
    }
}

TEST_CASE("required keys") {
    const LoadResult r = load_text("description: x\n"
                                   "setup:\n"
                                   "  - expect: {status: 200}\n"
                                   "  - http: {method: GET}\n",
                                   "inline.yaml");
    REQUIRE(r.diagnostics.size() == 4);
    check(r.diagnostics, "inline.yaml", 3, 5, "missing required key 'http' in step", "http: {method: GET");
    check(r.diagnostics, "inline.yaml", 4, 11, "missing required key 'path' in http", "path: /v1/products");
    check(r.diagnostics, "inline.yaml", 1, 1, "missing required key 'name' in suite", "name: data-id-basics");
    check(r.diagnostics, "inline.yaml", 1, 1, "missing required key 'cases' in suite", "cases:");
}

TEST_CASE("empty file, list file, several documents, syntax error") {
    SUBCASE("empty") {
        const Diagnostic d = only_error("");
        CHECK(d.pos.str() == "inline.yaml:1:1");
        CHECK(d.title == "the suite file is empty");
        CHECK(d.hint.find("name: my-suite") != std::string::npos);
    }
    SUBCASE("comments only") {
        const Diagnostic d = only_error("# nothing here\n");
        CHECK(d.title == "the suite file is empty");
        CHECK(d.source_line == "# nothing here");
    }
    SUBCASE("a list") {
        const Diagnostic d = only_error("- name: t\n- cases: []\n");
        CHECK(d.pos.str() == "inline.yaml:1:1");
        CHECK(d.title == "expected a mapping at the top of the suite file, found a list");
        CHECK(d.hint.find("cases:") != std::string::npos);
    }
    SUBCASE("two documents") {
        const Diagnostic d = only_error("name: a\ncases: []\n---\nname: b\n");
        CHECK(d.pos.str() == "inline.yaml:4:1");
        CHECK(d.title == "more than one YAML document in one file");
    }
    SUBCASE("syntax error keeps its position") {
        const Diagnostic d = only_error("name: t\ncases: [\n  {a: 1}\n");
        CHECK(d.title.rfind("YAML syntax error: ", 0) == 0);
        CHECK(d.pos.file == "inline.yaml");
        CHECK(d.pos.line >= 2);
        CHECK(d.pos.column >= 1);
        CHECK_FALSE(d.hint.empty());
    }
    SUBCASE("syntax error: value with a colon") {
        const Diagnostic d = only_error("name: t\ncases:\n  - name: a: b\n");
        CHECK(d.pos.str() == "inline.yaml:3:12");
        CHECK(d.title == "YAML syntax error: illegal map value");
        CHECK(d.hint.find("quote the value") != std::string::npos);
    }
}

TEST_CASE("several errors in one file are all reported and nothing loads") {
    const LoadResult r = load_text("name: t\n"
                                   "tagz: [a]\n"
                                   "cases:\n"
                                   "  - name: one\n"
                                   "    steps:\n"
                                   "      - http: {method: GTE, path: /x}\n"
                                   "        expect: {stauts: 200}\n"
                                   "  - name: two\n"
                                   "    stpes: []\n",
                                   "inline.yaml");
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.suite);
    REQUIRE(r.diagnostics.size() == 5);
    check(r.diagnostics, "inline.yaml", 2, 1, "unknown key 'tagz' in suite", "did you mean 'tags'?");
    check(r.diagnostics, "inline.yaml", 6, 24, "unknown HTTP method 'GTE'", "did you mean 'GET'?");
    check(r.diagnostics, "inline.yaml", 7, 18, "unknown key 'stauts' in expect", "did you mean 'status'?");
    check(r.diagnostics, "inline.yaml", 9, 5, "unknown key 'stpes' in case", "did you mean 'steps'?");
    check(r.diagnostics, "inline.yaml", 8, 5, "missing required key 'steps' in case", "steps:");
}

TEST_CASE("include: missing file, relative to the including file") {
    const Diagnostic d = only_error("name: t\ninclude: [nope.yaml]\ncases: []\n", fixture("good/inline.yaml"));
    CHECK(d.pos.str() == fixture("good/inline.yaml") + ":2:11");
    CHECK(d.title == "included file 'nope.yaml' not found");
    CHECK(d.hint.find("looked for " + fixture("good/nope.yaml")) == 0);
}

TEST_CASE("include: cycle") {
    const LoadResult r = load_file(fixture("cycle/suite.yaml"));
    CHECK_FALSE(r.ok());
    const std::string b = fixture("cycle/lib_b.yaml");
    const Diagnostic* cycle = find(r.diagnostics, "include cycle");
    REQUIRE(cycle);
    CHECK(cycle->pos.str() == b + ":1:11");
    CHECK(cycle->title == "include cycle: " + fixture("cycle/lib_a.yaml") + " -> " + b + " -> " +
                              fixture("cycle/lib_a.yaml"));
    CHECK(cycle->hint.find("remove this include") == 0);
    CHECK(cycle->source_line == "include: [lib_a.yaml]");
    // The chain up to the suite says where the broken file was included.
    check(r.diagnostics, fixture("cycle/lib_a.yaml"), 1, 11, "included file '" + b + "' has errors", "fix the errors");
    check(r.diagnostics, fixture("cycle/suite.yaml"), 2, 11,
          "included file '" + fixture("cycle/lib_a.yaml") + "' has errors", "fix the errors");
    CHECK(r.diagnostics.size() == 3);
}

TEST_CASE("include: a suite including itself") {
    const std::string path = fixture("good/self.yaml");
    const Diagnostic d = only_error("name: t\ninclude: [self.yaml]\ncases: []\n", path);
    CHECK(d.title == "include cycle: " + path + " -> " + path);
}

TEST_CASE("include: broken included file keeps its own positions") {
    const LoadResult r = load_file(fixture("broken/suite.yaml"));
    CHECK_FALSE(r.ok());
    const std::string vec = fixture("broken/bad_vectors.yaml");
    const std::string suite = fixture("broken/suite.yaml");
    REQUIRE(r.diagnostics.size() == 4);
    check(r.diagnostics, vec, 5, 11, "duplicate vector name 'v1' in set 'broken'", "unique within a set");
    check(r.diagnostics, vec, 5, 5, "missing required key 'value' in vector", "value:");
    check(r.diagnostics, suite, 3, 5, "included file '" + vec + "' has errors", "fix the errors reported for");
    check(r.diagnostics, suite, 4, 5, "included file 'missing.yaml' not found", "relative to the including file");
    CHECK(find(r.diagnostics, "duplicate vector name")->source_line == "  - name: v1");
}

TEST_CASE("include: a suite file cannot be included") {
    const LoadResult r = load_text("name: t\ninclude: [basic.yaml]\ncases: []\n", fixture("good/inline.yaml"));
    REQUIRE(r.diagnostics.size() == 2);
    check(r.diagnostics, fixture("good/basic.yaml"), 2, 1, "cannot include a suite file", "only vector-set files");
}

TEST_CASE("duplicate vector sets across files") {
    const LoadResult r = load_text("name: t\n"
                                   "include: [../vectors/rfc9562.yaml]\n"
                                   "vectors: {rfc9562: []}\n"
                                   "cases: []\n",
                                   fixture("good/inline.yaml"));
    REQUIRE(r.diagnostics.size() == 1);
    check(r.diagnostics, fixture("good/inline.yaml"), 3, 11, "duplicate vector set 'rfc9562'",
          "already defined at " + fixture("vectors/rfc9562.yaml") + ":2:6");
}

TEST_CASE("load_file: missing file and syntax error file") {
    const LoadResult missing = load_file(fixture("does-not-exist.yaml"));
    REQUIRE(missing.diagnostics.size() == 1);
    CHECK(missing.diagnostics[0].title == "cannot read suite file: no such file or directory");
    CHECK(missing.diagnostics[0].pos.line == 0);

    const LoadResult bad = load_file(fixture("broken/syntax.yaml"));
    REQUIRE(bad.diagnostics.size() == 1);
    CHECK(bad.diagnostics[0].pos.file == fixture("broken/syntax.yaml"));
    CHECK(bad.diagnostics[0].pos.line == 5);
    CHECK(bad.diagnostics[0].title == "YAML syntax error: end of sequence flow not found");
    CHECK(bad.diagnostics[0].hint == "a '[' list is missing its closing ']'");
    // yaml-cpp notices the missing ']' at the end of the file (an empty last line).
    CHECK(render(bad.diagnostics[0]) == fixture("broken/syntax.yaml") +
                                            ":5:1: error: YAML syntax error: end of sequence flow not found\n"
                                            "hint: a '[' list is missing its closing ']'\n");
}

TEST_CASE("variables: the secret wrapper's keys are checked") {
    const Diagnostic d = only_error("name: t\nvars:\n  k: {value: x, secrte: true}\ncases: []\n");
    CHECK(d.pos.str() == "inline.yaml:3:17");
    CHECK(d.title == "unknown key 'secrte' in variable");
    CHECK(d.hint == "did you mean 'secret'?");
}

TEST_CASE("a fragment cannot use another fragment") {
    const Diagnostic d = only_error("name: t\nfragments:\n  a: {use: b}\ncases: []\n");
    CHECK(d.pos.str() == "inline.yaml:3:7");
    CHECK(d.title == "a fragment cannot use another fragment");
    CHECK(d.hint == "write the fragment's step out in full");
}

TEST_CASE("an included file that is neither vectors nor fragments") {
    const LoadResult r = load_text("name: t\ninclude: [../expand/readme.txt]\ncases: []\n", fixture("good/x.yaml"));
    REQUIRE(r.diagnostics.size() == 2);
    check(r.diagnostics, fixture("expand/readme.txt"), 1, 1,
          "expected a mapping at the top of the included file, found 'not yaml'", "set: rfc9562");
    check(r.diagnostics, fixture("good/x.yaml"), 2, 11, "included file '" + fixture("expand/readme.txt") + "' has errors",
          "fix the errors");
}

TEST_CASE("call steps (pack operations): every misuse names its place and the fix") {
    SUBCASE("unknown operation, with did-you-mean") {
        const Diagnostic d = only_error(with_step("      - call: {op: raed, id: x}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:20");
        CHECK(d.title == "unknown operation 'raed'");
        CHECK(d.hint == "did you mean 'read'?");
    }
    SUBCASE("missing op") {
        const Diagnostic d = only_error(with_step("      - call: {id: x}\n"));
        CHECK(d.title == "missing required key 'op' in call");
    }
    SUBCASE("an operation on one entity needs its id") {
        const Diagnostic d = only_error(with_step("      - call: {op: delete}\n"));
        CHECK(d.title == "missing required key 'id' in call delete");
        CHECK(d.hint.find("id: \"${live_id}\"") != std::string::npos);
    }
    SUBCASE("create takes no id") {
        const Diagnostic d = only_error(with_step("      - call: {op: create, id: x}\n"));
        CHECK(d.pos.str() == "inline.yaml:5:28");
        CHECK(d.title == "'create' takes no id");
    }
    SUBCASE("only list filters") {
        const Diagnostic d = only_error(with_step("      - call: {op: read, id: x, filter: {a: b}}\n"));
        CHECK(d.title == "only 'list' takes a filter");
    }
    SUBCASE("read sends no body") {
        const Diagnostic d = only_error(with_step("      - call: {op: read, id: x, set: {/a: 1}}\n"));
        CHECK(d.title == "'read' sends no body, so 'set' does not apply");
    }
    SUBCASE("a set key must be a pointer") {
        const Diagnostic d = only_error(with_step("      - call: {op: create, set: {a: 1}}\n"));
        CHECK(d.title == "'a' is not a JSON pointer");
    }
    SUBCASE("http and call in one step") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x}\n"
                                                  "        call: {op: list}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:9");
        CHECK(d.title == "a step has one request: 'http' and 'call' cannot both be set");
    }
    SUBCASE("an unknown principal in a call") {
        const Diagnostic d = only_error(with_step("      - call: {op: list, principal: owner}\n"));
        CHECK(d.title == "unknown principal 'owner'");
    }
}

TEST_CASE("a call step loads into the model, unnamed until a profile binds it") {
    const LoadResult r = load_text(with_step("      - call: {op: update, id: \"${m}\", json: {a: 1}, set: {/b: \"${x}\"}, unset: [/c]}\n"),
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.suite);
    const Step& st = r.suite->cases.at(0).steps.at(0);
    CHECK(st.is<OpCall>());
    CHECK(st.name.empty());
    CHECK(st.as<OpCall>().op == Operation::update);
    CHECK(st.as<OpCall>().id == "${m}");
    REQUIRE(st.as<OpCall>().json);
    CHECK(st.as<OpCall>().set.size() == 1);
    CHECK(st.as<OpCall>().unset == std::vector<std::string>{"/c"});
}

TEST_CASE("call via: other or same, nothing else") {
    const Diagnostic d = only_error(with_step("      - call: {op: read, id: x, via: grpc}\n"));
    CHECK(d.title == "unknown transport choice 'grpc'");
    CHECK(d.hint.find("via: other") == 0);
    const LoadResult r = load_text(with_step("      - call: {op: read, id: x, via: other}\n"), "inline.yaml");
    REQUIRE(r.suite);
    CHECK(r.suite->cases.at(0).steps.at(0).as<OpCall>().via_other);
}

TEST_CASE("precondition: a reason, not empty, never with advisory") {
    SUBCASE("empty") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x}\n"
                                                  "        expect: {status: 200, precondition: \"\"}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:45");
        CHECK(d.title == "'precondition' is empty");
    }
    SUBCASE("with advisory") {
        const Diagnostic d = only_error(with_step("      - http: {path: /x}\n"
                                                  "        expect: {advisory: true, precondition: it holds}\n"));
        CHECK(d.title == "'precondition' and 'advisory' cannot both be set");
    }
}

TEST_CASE("for_each kind: an id kind or a variable, on mutations only") {
    auto with = [](const std::string& for_each) {
        return "name: t\nvars: {id: x}\ncases:\n  - name: c\n    for_each: " + for_each +
               "\n    steps: [{http: {path: /x}}]\n";
    };
    const LoadResult ok = load_text(with("{mutations: \"${id}\", kind: \"${res.id_kind}\", as: m}"), "inline.yaml");
    REQUIRE(ok.ok());
    CHECK(ok.suite->cases[0].for_each->kind == "${res.id_kind}");
    const LoadResult lit = load_text(with("{mutations: \"${id}\", kind: existing}"), "inline.yaml");
    REQUIRE(lit.ok());
    CHECK(lit.suite->cases[0].for_each->kind == "existing");
    CHECK(load_text(with("{mutations: \"${id}\"}"), "inline.yaml").suite->cases[0].for_each->kind.empty());

    Diagnostic d = only_error(with("{mutations: \"${id}\", kind: uuidv77}"));
    CHECK(d.pos.str() == "inline.yaml:5:42");
    CHECK(d.title == "unknown id kind 'uuidv77'");
    CHECK(d.hint.find("did you mean 'uuidv7'?") != std::string::npos);
    d = only_error(
        "name: t\nvectors:\n  s: [{name: a, value: x}]\ncases:\n  - name: c\n"
        "    for_each: {vectors: s, kind: uuidv7}\n    steps: [{http: {path: /x}}]\n");
    CHECK(d.pos.str() == "inline.yaml:6:28");
    CHECK(d.title == "'kind' belongs to for_each over mutations");
}

TEST_CASE("generators: every id kind with one, and gen:match:VAR, others are errors") {
    for (const char* g : {"uuid", "uuidv1", "uuidv3", "uuidv4", "uuidv5", "uuidv6", "uuidv7", "uuidv8", "ulid",
                          "match:res.id_pattern"}) {
        CAPTURE(g);
        CHECK(load_text("name: t\nvars: {a: \"${gen:" + std::string(g) + "}\"}\ncases: []\n", "inline.yaml").ok());
    }
    for (const char* g : {"uuidv8-legacy", "existing", "viewable", "any", "uuidv9"}) {
        CAPTURE(g);
        const Diagnostic d = only_error("name: t\nvars: {a: \"${gen:" + std::string(g) + "}\"}\ncases: []\n");
        CHECK(d.title == "unknown generator '" + std::string(g) + "' in '${gen:" + g + "}'");
        CHECK(d.hint.find("${gen:match:VAR}") != std::string::npos);
    }
    const Diagnostic d = only_error("name: t\nvars: {a: \"${gen:match:1x}\"}\ncases: []\n");
    CHECK(d.title == "bad variable name '1x' in '${gen:match:1x}'");
}

TEST_CASE("allow_echo: the sent values an answer may quote, beside not_contains") {
    SUBCASE("loads a string or a list of templates") {
        const LoadResult r =
            load_text(with_step("      - http: {path: \"/x/{m}\"}\n"
                                "        expect:\n"
                                "          body: {not_contains: [\"${live}\"], allow_echo: \"${m}\"}\n"
                                "      - http: {path: /y}\n"
                                "        expect:\n"
                                "          body: {allow_echo: [\"${a}\", \"b-${c}\"], not_contains: live}\n"),
                      "inline.yaml");
        INFO(dump(r.diagnostics));
        REQUIRE(r.suite);
        const auto& steps = r.suite->cases.at(0).steps;
        REQUIRE(steps.at(0).expect.body);
        CHECK(steps.at(0).expect.body->allow_echo == std::vector<std::string>{"${m}"});
        CHECK(steps.at(1).expect.body->allow_echo == std::vector<std::string>{"${a}", "b-${c}"});
        CHECK(steps.at(1).expect.body->not_contains == std::vector<std::string>{"live"});
    }
    SUBCASE("without not_contains it would change nothing") {
        const Diagnostic d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect: {body: {contains: [a], allow_echo: \"${m}\"}}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:40");
        CHECK(d.title == "'allow_echo' without 'not_contains'");
        CHECK(d.hint.find("only changes what not_contains looks at") != std::string::npos);
    }
    SUBCASE("the text not_contains looks for cannot be its own echo") {
        const Diagnostic d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect:\n"
                                 "          body:\n"
                                 "            not_contains: [\"${live}\"]\n"
                                 "            allow_echo: [\"${m}\", \"${live}\"]\n"));
        CHECK(d.pos.str() == "inline.yaml:9:34");
        CHECK(d.title == "'allow_echo' is '${live}', the text not_contains looks for");
        CHECK(d.hint.find("would hide every occurrence") != std::string::npos);
    }
    SUBCASE("empty value, empty list, wrong type, bad placeholder") {
        Diagnostic d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect: {body: {not_contains: [a], allow_echo: \"\"}}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:56");
        CHECK(d.title == "'allow_echo' is empty");
        CHECK(d.hint.find("allow_echo: \"${m}\"") != std::string::npos);
        d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect: {body: {not_contains: [a], allow_echo: []}}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:56");
        CHECK(d.title == "empty 'allow_echo' list");
        d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect: {body: {not_contains: [a], allow_echo: {m: 1}}}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:56");
        CHECK(d.title == "expected a string or a list of strings here, found a mapping");
        CHECK(d.hint.find("'allow_echo' takes a string or a list") == 0);
        d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect: {body: {not_contains: [a], allow_echo: \"${m\"}}\n"));
        CHECK(d.pos.str() == "inline.yaml:6:57");
        CHECK(d.title == "unclosed '${' in '${m'");
    }
    SUBCASE("a misspelt key gets did-you-mean") {
        const Diagnostic d =
            only_error(with_step("      - http: {path: /x}\n"
                                 "        expect: {body: {not_contains: [a], allow_echos: \"${m}\"}}\n"));
        CHECK(d.title == "unknown key 'allow_echos' in body");
        CHECK(d.hint == "did you mean 'allow_echo'?");
    }
}

TEST_CASE("not_found: only beside a refusal, and its own mistakes at their lines") {
    // beside a success or a negated status it would say nothing
    for (const char* status : {"status: 200", "status_not: [200]", "status: [404, 200]"}) {
        INFO(status);
        const Diagnostic d = only_error(with_step(std::string("      - http: {path: /x}\n"
                                                              "        expect:\n"
                                                              "          ") +
                                                  status +
                                                  "\n"
                                                  "          not_found: {status: 200, body: []}\n"));
        CHECK(d.pos.str() == "inline.yaml:8:11");
        CHECK(d.title == "'not_found' is for a check that wants a refusal");
        CHECK(d.hint.find("beside status: 404") != std::string::npos);
    }
    const Diagnostic none = only_error(with_step("      - http: {path: /x}\n"
                                                 "        expect: {not_found: {status: 200, body: []}}\n"));
    CHECK(none.title == "'not_found' is for a check that wants a refusal");
    // the reader's own errors, as a profile's endpoint gets them
    auto one = [](const std::string& nf) {
        return only_error(with_step("      - http: {path: /x}\n"
                                    "        expect:\n"
                                    "          status: 404\n"
                                    "          not_found: " +
                                    nf + "\n"));
    };
    Diagnostic d = one("{status: 404, body: []}");
    CHECK(d.title == "not_found status '404' is not a 2xx status");
    CHECK(d.pos.str() == "inline.yaml:8:31");
    CHECK(one("{status: 200}").title == "missing required key 'body' in not_found");
    CHECK(one("{body: []}").title == "missing required key 'status' in not_found");
    CHECK(one("{status: 200, at: /found}").title == "not_found has 'at' without 'equals'");
    CHECK(one("{status: 200, body: [], at: /found, equals: false}").title == "not_found has 'body' and 'at'");
    CHECK(one("{status: 204, empty: true, body: []}").title == "not_found has 'empty' and 'body'");
    CHECK(one("{status: 204, empty: false}").title == "not_found: empty: false says nothing");
    CHECK(one("{status: 200, at: \"\", equals: false}").title == "empty JSON pointer for 'at'");
    const LoadResult typo = load_text(with_step("      - http: {path: /x}\n"
                                                "        expect: {status: 404, not_found: {status: 200, bdy: []}}\n"),
                                      "inline.yaml");
    REQUIRE_FALSE(typo.diagnostics.empty());
    CHECK(typo.diagnostics.front().title == "unknown key 'bdy' in not_found");
    CHECK(typo.diagnostics.front().hint == "did you mean 'body'?");
    const Diagnostic list = one("[200]");
    CHECK(list.title == "expected a mapping here, found a list");
    CHECK(list.hint.find("{status: 200, body: []}") != std::string::npos);
}

TEST_CASE("capture header_id: read as the id a header names, and its mistakes at their columns") {
    const LoadResult good = load_text(with_step("      - http: {method: POST, path: /x}\n"
                                                "        capture: {item: {header_id: Location}}\n"),
                                      "inline.yaml");
    INFO(dump(good.diagnostics));
    REQUIRE(good.ok());
    const auto& c = good.suite->cases.at(0).steps.at(0).captures.at(0);
    CHECK(c.from == Capture::From::header_id);
    CHECK(c.path == "Location");
    const Diagnostic two = only_error(with_step("      - http: {path: /x}\n"
                                                "        capture: {item: {header_id: Location, json: /id}}\n"));
    CHECK(two.title == "a capture takes exactly one of: json, header, header_id, status");
    CHECK(two.pos.str() == "inline.yaml:6:25");
    const Diagnostic list = only_error(with_step("      - http: {path: /x}\n"
                                                 "        capture: {item: {header_id: [Location]}}\n"));
    CHECK(list.pos.str() == "inline.yaml:6:37");
    CHECK(list.hint.find("header_id: Location") != std::string::npos);
    const Diagnostic typo = only_error(with_step("      - http: {path: /x}\n"
                                                 "        capture: {item: {header_ids: Location}}\n"));
    CHECK(typo.hint == "did you mean 'header_id'?");
}

TEST_CASE("for_each prefix and length: the format of viewable mutations, only there") {
    const LoadResult good = load_text("name: t\n"
                                      "cases:\n"
                                      "  - name: c\n"
                                      "    for_each: {mutations: \"${v}\", kind: viewable, prefix: \"AB-\", length: 9}\n"
                                      "    steps:\n"
                                      "      - http: {path: /x}\n",
                                      "inline.yaml");
    INFO(dump(good.diagnostics));
    REQUIRE(good.ok());
    const auto& fe = *good.suite->cases.at(0).for_each;
    CHECK(fe.viewable_prefix == "AB-");
    CHECK(fe.viewable_length == 9);
    auto one = [](const std::string& for_each) {
        return only_error("name: t\n"
                          "cases:\n"
                          "  - name: c\n"
                          "    for_each: " +
                          for_each +
                          "\n"
                          "    steps:\n"
                          "      - http: {path: /x}\n");
    };
    Diagnostic d = one("{mutations: \"${v}\", kind: uuidv7, prefix: \"AB-\"}");
    CHECK(d.title == "'prefix' belongs to for_each over the mutations of viewable ids");
    CHECK(d.pos.str() == "inline.yaml:4:49");
    CHECK(one("{count: 3, length: 9}").title ==
          "'length' belongs to for_each over the mutations of viewable ids");
    d = one("{mutations: \"${v}\", kind: viewable, prefix: AB}");
    CHECK(d.title == "the viewable prefix 'AB' does not end with '-'");
    CHECK(d.pos.str() == "inline.yaml:4:59");
    CHECK(one("{mutations: \"${v}\", kind: viewable, length: 13}").title == "length must be an integer from 1 to 12");
    CHECK(one("{mutations: \"${v}\", kind: viewable, length: seven}").title == "length must be an integer from 1 to 12");
}
