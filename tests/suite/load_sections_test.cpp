// The loader's sections after the split (load_steps.cpp, load_expect.cpp,
// load_cases.cpp, load_target.cpp, load_includes.cpp), each through what it
// decides, and the places where copies used to disagree: the step kind is
// read by the table of kinds (not by array position), grpc `set`/`unset` go
// through the same body_edits as http, gRPC method names through the one
// parser (core/grpc_method.hpp), id kinds through ids/kind.hpp, operations
// through suite/operation.hpp, and an unnamed fragment of any kind is named
// after its key.
#include "test_support.hpp"

#include "ids/kind.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

std::string suite_with_steps(const std::string& step_lines) {
    return "name: t\n"
           "target: {base_url: \"http://h\", grpc: {address: \"h:1\"}}\n"
           "cases:\n"
           "  - name: c\n"
           "    steps:\n" +
           step_lines;
}

}  // namespace

TEST_CASE("load_steps: each step key reads its own kind, two kinds in one step name both, in table order") {
    const LoadResult ok = load_text(suite_with_steps("      - http: {path: /a}\n"
                                                     "      - grpc: {method: a.B/C}\n"
                                                     "      - kafka: {produce: {topic: t, json: {}}}\n"
                                                     "      - file: {path: x.ndjson}\n"
                                                     "      - call: {op: list}\n"),
                                    "inline.yaml");
    INFO(dump(ok.diagnostics));
    CHECK(ok.ok());
    const Diagnostic d = only_error(suite_with_steps("      - {grpc: {method: a.B/C}, http: {path: /a}}\n"));
    CHECK(d.title == "a step has one request: 'http' and 'grpc' cannot both be set");
    CHECK(d.pos.str() == "inline.yaml:6:10");  // at the later kind of the table: grpc
}

TEST_CASE("load_steps: the kinds land in the step's variant") {
    const LoadResult r = load_text(suite_with_steps("      - http: {path: /a}\n"
                                                    "      - grpc: {method: a.B/C}\n"
                                                    "      - call: {op: read, id: x}\n"
                                                    "      - file: {path: x.ndjson}\n"),
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const auto& steps = r.suite->cases.at(0).steps;
    CHECK(steps[0].is<HttpRequest>());
    CHECK(steps[1].is<GrpcCall>());
    CHECK(steps[2].is<OpCall>());
    CHECK(steps[2].as<OpCall>().op == Operation::read);
    CHECK(steps[3].is<FileScan>());
    CHECK(steps[0].name == "GET /a");
    CHECK(steps[1].name == "grpc a.B/C");
    CHECK(steps[2].name.empty());  // named when a profile binds it
    CHECK(steps[3].name == "scan x.ndjson");
}

TEST_CASE("load_steps: grpc set/unset are the http body edits (same checks, same messages)") {
    const Diagnostic h = only_error(suite_with_steps("      - http: {method: POST, path: /a, json: {}, set: {x: 1}}\n"));
    const Diagnostic g = only_error(suite_with_steps("      - grpc: {method: a.B/C, set: {x: 1}}\n"));
    CHECK(h.title == "'x' is not a JSON pointer");
    CHECK(g.title == h.title);
    CHECK(g.hint == h.hint);
    const LoadResult r = load_text(suite_with_steps("      - grpc: {method: a.B/C, set: {/a: 1, \"${p}\": 2}, unset: [/b]}\n"),
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const auto& g2 = r.suite->cases.at(0).steps.at(0).as<GrpcCall>();
    REQUIRE(g2.set.size() == 2);
    CHECK(g2.set[1].first == "${p}");
    CHECK(g2.unset == std::vector<std::string>{"/b"});
}

TEST_CASE("load_steps: gRPC method names by the one parser (as the profile loader and the transport)") {
    for (const char* good : {"a.B/C", "/a.B/C", "Products/Get"}) {
        const LoadResult r = load_text(suite_with_steps(std::string("      - grpc: {method: \"") + good + "\"}\n"), "inline.yaml");
        CHECK_MESSAGE(r.ok(), good << ": " << dump(r.diagnostics));
    }
    // The old suite check let these through; the server can never have them.
    for (const char* bad : {"a-b.S/M", "a.S/M.x", "a..S/M"}) {
        const Diagnostic d = only_error(suite_with_steps(std::string("      - grpc: {method: \"") + bad + "\"}\n"));
        CHECK(d.title == "'" + std::string(bad) + "' is not a gRPC method name");
        CHECK(d.hint == "write package.Service/Method, e.g. products.v1.Products/GetProduct");
    }
}

TEST_CASE("load_steps: call operations from the one operation table") {
    const Diagnostic unknown = only_error(suite_with_steps("      - call: {op: craete}\n"));
    CHECK(unknown.title == "unknown operation 'craete'");
    CHECK(unknown.hint == "did you mean 'create'?");
    CHECK(only_error(suite_with_steps("      - call: {op: list, id: x}\n")).title == "'list' takes no id");
    CHECK(only_error(suite_with_steps("      - call: {op: read}\n")).title == "missing required key 'id' in call read");
    CHECK(only_error(suite_with_steps("      - call: {op: read, id: x, filter: {a: b}}\n")).title == "only 'list' takes a filter");
    CHECK(only_error(suite_with_steps("      - call: {op: delete, id: x, json: {}}\n")).title ==
          "'delete' sends no body, so 'json' does not apply");
    for (const auto& t : operation_table) {
        const std::string id = t.needs_id ? ", id: x" : "";
        const LoadResult r = load_text(suite_with_steps(std::string("      - call: {op: ") + t.name + id + "}\n"), "inline.yaml");
        CHECK_MESSAGE(r.ok(), t.name << ": " << dump(r.diagnostics));
        if (r.ok()) CHECK(r.suite->cases.at(0).steps.at(0).as<OpCall>().op == t.op);
    }
}

TEST_CASE("load_expect: id kinds are the kinds of ids/kind.hpp") {
    for (const auto& k : ids::kind_names()) {
        const LoadResult r =
            load_text(suite_with_steps("      - http: {path: /a}\n        expect: {id: {at: /id, kind: " + k + "}}\n"), "inline.yaml");
        CHECK_MESSAGE(r.ok(), k << ": " << dump(r.diagnostics));
    }
    const Diagnostic d = only_error(suite_with_steps("      - http: {path: /a}\n        expect: {id: {at: /id, kind: uuidv77}}\n"));
    CHECK(d.title == "unknown id kind 'uuidv77'");
}

TEST_CASE("load_includes: an unnamed fragment is named after its key, whatever its kind") {
    const LoadResult r = load_text("name: t\n"
                                   "target: {base_url: \"http://h\", grpc: {address: \"h:1\"}}\n"
                                   "fragments:\n"
                                   "  get_thing: {http: {path: /a}}\n"
                                   "  call_thing: {grpc: {method: a.B/C}}\n"
                                   "  named_thing: {name: mine, grpc: {method: a.B/C}}\n"
                                   "cases:\n"
                                   "  - name: c\n"
                                   "    steps: [{use: get_thing}, {use: call_thing}, {use: named_thing}]\n",
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const auto& steps = r.suite->cases.at(0).steps;
    CHECK(steps[0].name == "get_thing");
    CHECK(steps[1].name == "call_thing");  // was "grpc a.B/C": only http fragments were named after their key
    CHECK(steps[2].name == "mine");
}

TEST_CASE("load_cases and load_target: a case and the target through their sections") {
    const LoadResult r = load_text("name: t\n"
                                   "target:\n"
                                   "  base_url: \"http://h\"\n"
                                   "  timeout: {connect: 2s, read: 500ms}\n"
                                   "  tls: {cacert: ca.pem, insecure: true}\n"
                                   "principals:\n"
                                   "  alice: {headers: {Authorization: \"Bearer a\"}}\n"
                                   "cases:\n"
                                   "  - name: c\n"
                                   "    rule: DATA-ID-001\n"
                                   "    for_each: {count: 3, as: i}\n"
                                   "    steps: [{http: {path: /a, principal: alice}}]\n",
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const Suite& s = *r.suite;
    CHECK(s.target.connect_timeout_ms == 2000);
    CHECK(s.target.read_timeout_ms == 500);
    CHECK(s.target.ca_file == "ca.pem");
    CHECK(s.target.insecure);
    CHECK(s.principals.at("alice").headers.at(0).second == "Bearer a");
    REQUIRE(s.cases.at(0).for_each);
    CHECK(s.cases.at(0).for_each->count == 3);
    CHECK(s.cases.at(0).rules == std::vector<std::string>{"DATA-ID-001"});
}
