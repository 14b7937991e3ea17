// grpc steps, the target's grpc section and gRPC status names in the loader:
// the good forms load with positions; every bad form is a diagnostic at its
// node with a hint.
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

// A suite with a grpc target around one step's lines (step at line 6, col 9).
std::string grpc_suite(const std::string& step_lines, const std::string& target = "  grpc: {address: \"127.0.0.1:1\"}\n") {
    return "name: t\n"
           "target:\n" +
           target +
           "cases:\n"
           "  - name: c\n"
           "    steps:\n" +
           step_lines;
}

}  // namespace

TEST_CASE("a grpc step loads with its parts and positions") {
    const LoadResult r = load_text(grpc_suite(
        "      - grpc:\n"
        "          method: products.v1.Products/GetProduct\n"
        "          message: {id: \"${id}\", n: 1}\n"
        "          metadata: {X-Trace: abc}\n"
        "          set: {/id: x}\n"
        "          unset: [/n]\n"
        "        expect: {status: [NOT_FOUND, INVALID_ARGUMENT, 3, 404, 4xx]}\n"),
        "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const Step& st = r.suite->cases.at(0).steps.at(0);
    CHECK(st.is<GrpcCall>());
    CHECK(st.name == "grpc products.v1.Products/GetProduct");
    CHECK(st.as<GrpcCall>().method == "products.v1.Products/GetProduct");
    CHECK(st.as<GrpcCall>().pos.line == 8);
    CHECK(st.as<GrpcCall>().message.as_object().size() == 2);
    CHECK(st.as<GrpcCall>().metadata.at(0).first == "X-Trace");
    CHECK(st.as<GrpcCall>().set.size() == 1);
    CHECK(st.as<GrpcCall>().unset == std::vector<std::string>{"/n"});
    const StatusExpect& s = *st.expect.status;
    CHECK(s.grpc_codes == std::vector<int>{5, 3, 3});
    CHECK(s.exact == std::vector<int>{404});
    CHECK(s.classes == std::vector<int>{4});
    REQUIRE(r.suite->target.grpc);
    CHECK(r.suite->target.grpc->address == "127.0.0.1:1");
    CHECK(r.suite->target.grpc->reflection);
}

TEST_CASE("target grpc: protos and import paths relative to the suite file, reflection off with protos") {
    const std::string dir = std::string(IDCONFORM_SOURCE_DIR) + "/tests/grpc/fixtures/protos";
    const LoadResult r = load_text(grpc_suite("      - grpc: {method: testpkg.Things/GetThing}\n",
                                              "  grpc: {address: a, protos: [testpkg/things.proto], import_paths: [.], tls: {cacert: testpkg/things.proto}}\n"),
                                   dir + "/suite.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    const auto& g = *r.suite->target.grpc;
    CHECK(g.protos == std::vector<std::string>{dir + "/testpkg/things.proto"});
    CHECK(g.import_paths == std::vector<std::string>{dir + "/."});
    CHECK_FALSE(g.reflection);
    CHECK(g.tls);
    CHECK(g.ca_file == dir + "/testpkg/things.proto");
}

TEST_CASE("grpc errors") {
    SUBCASE("misspelt key in a grpc step") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C, mesage: {}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:31");
        CHECK(d.title == "unknown key 'mesage' in grpc");
        CHECK(d.hint == "did you mean 'message'?");
    }
    SUBCASE("method not package.Service/Method") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: products.v1.Products.GetProduct}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:24");
        CHECK(d.title == "'products.v1.Products.GetProduct' is not a gRPC method name");
        CHECK(d.hint.find("package.Service/Method") != std::string::npos);
    }
    SUBCASE("method missing") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {message: {}}\n"));
        CHECK(d.title == "missing required key 'method' in grpc");
    }
    SUBCASE("message not a mapping") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C, message: [1]}\n"));
        CHECK(d.title == "the message must be a mapping (the request message's fields)");
    }
    SUBCASE("http and grpc in one step") {
        const Diagnostic d = only_error(grpc_suite("      - {http: {path: /x}, grpc: {method: a.B/C}}\n"));
        CHECK(d.title == "a step has one request: 'http' and 'grpc' cannot both be set");
    }
    SUBCASE("misspelt gRPC status") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n"
                                                   "        expect: {status: NOT_FUOND}\n"));
        CHECK(d.pos.str() == "inline.yaml:8:26");
        CHECK(d.title == "unknown gRPC status 'NOT_FUOND'");
        CHECK(d.hint == "did you mean 'NOT_FOUND'?");
    }
    SUBCASE("gRPC code number out of range") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n"
                                                   "        expect: {status: 17}\n"));
        CHECK(d.title == "bad status '17'");
    }
    SUBCASE("cleanup on a grpc step") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n"
                                                   "        cleanup: {path: /x}\n"));
        CHECK(d.title == "'cleanup' is for http steps");
    }
    SUBCASE("bad metadata key") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C, metadata: {\"a b\": x}}\n"));
        CHECK(d.title == "bad metadata key 'a b'");
    }
    SUBCASE("grpc step without a grpc target") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n", "  base_url: http://x\n"));
        CHECK(d.pos.str() == "inline.yaml:7:9");
        CHECK(d.title == "a grpc step needs the target's grpc section");
        CHECK(d.hint.find("IDCONFORM_GRPC_ADDRESS") != std::string::npos);
    }
    SUBCASE("missing proto file") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n",
                                                   "  grpc: {address: a, protos: [nope.proto]}\n"));
        CHECK(d.pos.str() == "inline.yaml:3:31");
        CHECK(d.title == "no such file 'nope.proto'");
        CHECK(d.hint.find("relative to the suite file") != std::string::npos);
    }
    SUBCASE("grpc target without address") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n", "  grpc: {reflection: true}\n"));
        CHECK(d.title == "missing required key 'address' in grpc");
    }
    SUBCASE("misspelt key in the grpc target") {
        const Diagnostic d = only_error(grpc_suite("      - grpc: {method: a.B/C}\n", "  grpc: {address: a, proto: [x]}\n"));
        CHECK(d.title == "unknown key 'proto' in grpc");
        CHECK(d.hint == "did you mean 'protos'?");
    }
}
