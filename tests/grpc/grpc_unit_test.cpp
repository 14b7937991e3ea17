// Unit tests of the gRPC transport's network-free parts: method names,
// schema loading and its errors, JSON <-> dynamic messages (absent optional
// fields stay absent), the status mapping, the DATA-ID-002 findings and the
// values a typed field cannot hold (transport::RequestCheck).
#include "core/grpc_status.hpp"
#include "transport/grpc/codec.hpp"
#include "transport/grpc/grpc_transport.hpp"
#include "transport/grpc/schema.hpp"

#include <boost/asio/io_context.hpp>
#include <doctest/doctest.h>
#include <google/protobuf/dynamic_message.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

using namespace idconform;
using namespace idconform::transport::grpcdyn;
namespace pb = google::protobuf;

namespace {

const std::string fixtures = std::string(IDCONFORM_SOURCE_DIR) + "/tests/grpc/fixtures";

std::unique_ptr<FileSchema> things() {
    std::string error;
    auto s = FileSchema::load({fixtures + "/protos/testpkg/things.proto"}, {fixtures + "/protos"}, error);
    REQUIRE_MESSAGE(s, error);
    return s;
}

struct Msg {
    pb::DynamicMessageFactory factory;
    std::unique_ptr<pb::Message> m;
    Msg(const pb::DescriptorPool* pool, const std::string& type) : factory(pool) {
        const pb::Descriptor* d = pool->FindMessageTypeByName(type);
        REQUIRE(d);
        m.reset(factory.GetPrototype(d)->New());
    }
};

}  // namespace

TEST_CASE("split_method") {
    std::string s, m;
    CHECK(split_method("products.v1.Products/GetProduct", s, m));
    CHECK(s == "products.v1.Products");
    CHECK(m == "GetProduct");
    CHECK(split_method("/a.B/C", s, m));
    CHECK(s == "a.B");
    CHECK_FALSE(split_method("a.B.C", s, m));
    CHECK_FALSE(split_method("a.B/", s, m));
    CHECK_FALSE(split_method("/C", s, m));
    CHECK_FALSE(split_method("a/B/C", s, m));
}

TEST_CASE("schema from files: services listed, imports through import paths and /usr/include") {
    auto s = things();
    CHECK(s->services() == std::vector<std::string>{"testpkg.Things", "testpkg.Legacy"});
    CHECK(s->pool()->FindMessageTypeByName("google.protobuf.Timestamp"));
}

TEST_CASE("schema from a file outside the import paths uses its own directory") {
    std::string error;
    auto s = FileSchema::load({fixtures + "/protos/testpkg/things.proto"}, {}, error);
    REQUIRE_MESSAGE(s, error);
    CHECK(s->pool()->FindServiceByName("testpkg.Things"));
}

TEST_CASE("schema loading errors name the file, line and column") {
    std::string error;
    CHECK_FALSE(FileSchema::load({fixtures + "/broken/bad.proto"}, {}, error));
    CHECK(error.find("bad.proto:4:3") != std::string::npos);
    CHECK(error.find("strin") != std::string::npos);

    error.clear();
    CHECK_FALSE(FileSchema::load({fixtures + "/broken/bad_import.proto"}, {}, error));
    CHECK(error.find("does/not/exist.proto") != std::string::npos);

    error.clear();
    CHECK_FALSE(FileSchema::load({fixtures + "/nope.proto"}, {}, error));
    CHECK(error.find("cannot read .proto file") != std::string::npos);

    error.clear();
    CHECK_FALSE(FileSchema::load({fixtures + "/protos/testpkg/things.proto"}, {fixtures + "/missing-dir"}, error));
    CHECK(error.find("is not a directory") != std::string::npos);
}

TEST_CASE("schema loading: a .proto or an import that is a device, a FIFO or /proc/self/environ is refused, not read") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("idconform-grpc-guard-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::create_symlink("/dev/zero", dir / "zero.proto");
    fs::create_symlink("/proc/self/environ", dir / "environ.proto");
    REQUIRE(::mkfifo((dir / "fifo.proto").c_str(), 0600) == 0);
    std::string error;
    CHECK_FALSE(FileSchema::load({(dir / "zero.proto").string()}, {}, error));
    CHECK(error.find("is a character device") != std::string::npos);
    error.clear();
    CHECK_FALSE(FileSchema::load({(dir / "fifo.proto").string()}, {}, error));
    CHECK(error.find("is a pipe (FIFO)") != std::string::npos);
    for (const char* imported : {"zero.proto", "environ.proto", "fifo.proto"}) {
        CAPTURE(imported);
        std::ofstream(dir / "main.proto") << "syntax = \"proto3\";\nimport \"" << imported << "\";\nmessage M {}\n";
        error.clear();
        CHECK_FALSE(FileSchema::load({(dir / "main.proto").string()}, {}, error));
        CHECK(error.find(imported) != std::string::npos);
        CHECK(error.find("PATH=") == std::string::npos);
    }
    error.clear();
    CHECK_FALSE(FileSchema::load({(dir / "environ.proto").string()}, {}, error));
    CHECK(error.find("under /proc") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("find_method names what exists") {
    auto s = things();
    std::string error;
    CHECK(find_method(*s->pool(), "testpkg.Things", "GetThing", s->services(), error));
    CHECK_FALSE(find_method(*s->pool(), "testpkg.Things", "GetThng", s->services(), error));
    CHECK(error == "no method 'GetThng' in testpkg.Things; it has GetThing, ListThings, Watch (did you mean 'GetThing'?)");
    CHECK_FALSE(find_method(*s->pool(), "testpkg.Thngs", "GetThing", s->services(), error));
    CHECK(error == "no service 'testpkg.Thngs' in the schema; it has testpkg.Things, testpkg.Legacy (did you mean "
                   "'testpkg.Things'?)");
    CHECK_FALSE(find_method(*s->pool(), "testpkg.Things", "Watch", s->services(), error));
    CHECK(error.find("streaming") != std::string::npos);
}

TEST_CASE("JSON to message and back: proto names, absent optional stays absent") {
    auto s = things();
    Msg t(s->pool(), "testpkg.Thing");
    std::string error, out;
    REQUIRE_MESSAGE(json_to_message(R"({"id":"a","name":"n","parts":[{"name":"p"}],"created_at":"2024-01-02T03:04:05Z","owner_id":"o"})",
                                    *t.m, error),
                    error);
    REQUIRE(message_to_json(*t.m, out, error));
    CHECK(out == R"({"id":"a","name":"n","parts":[{"name":"p"}],"created_at":"2024-01-02T03:04:05Z","owner_id":"o"})");

    SUBCASE("present but empty optional prints as \"\" (a real dummy value), absent does not print") {
        Msg u(s->pool(), "testpkg.Thing");
        REQUIRE(json_to_message(R"({"parent_id":""})", *u.m, error));
        REQUIRE(message_to_json(*u.m, out, error));
        CHECK(out == R"({"parent_id":""})");
    }
    SUBCASE("null for an optional field is absent") {
        Msg u(s->pool(), "testpkg.Thing");
        REQUIRE(json_to_message(R"({"parent_id":null})", *u.m, error));
        REQUIRE(message_to_json(*u.m, out, error));
        CHECK(out == "{}");
    }
    SUBCASE("camelCase JSON names are accepted too") {
        Msg u(s->pool(), "testpkg.Thing");
        REQUIRE(json_to_message(R"({"parentId":"x"})", *u.m, error));
        REQUIRE(message_to_json(*u.m, out, error));
        CHECK(out == R"({"parent_id":"x"})");
    }
    SUBCASE("int64 prints as a string (proto3 JSON mapping)") {
        Msg u(s->pool(), "testpkg.Thing");
        REQUIRE(json_to_message(R"({"count":7})", *u.m, error));
        REQUIRE(message_to_json(*u.m, out, error));
        CHECK(out == R"({"count":"7"})");
    }
    SUBCASE("empty text is the empty message") {
        Msg u(s->pool(), "testpkg.Thing");
        CHECK(json_to_message("", *u.m, error));
    }
}

TEST_CASE("bad request JSON gives an error naming the fields") {
    auto s = things();
    std::string error;
    SUBCASE("unknown field") {
        Msg t(s->pool(), "testpkg.Thing");
        CHECK_FALSE(json_to_message(R"({"nmae":"x"})", *t.m, error));
        CHECK(error == "unknown field 'nmae' in testpkg.Thing (did you mean 'name'?); it has id, name, parent_id, count, "
                       "parts, created_at, owner_id, active");
    }
    SUBCASE("unknown field in a nested repeated message") {
        Msg t(s->pool(), "testpkg.Thing");
        CHECK_FALSE(json_to_message(R"({"parts":[{"name":"a"},{"nme":"b"}]})", *t.m, error));
        CHECK(error.find("unknown field 'nme' in testpkg.Part (at /parts/1)") == 0);
    }
    SUBCASE("wrong type") {
        Msg t(s->pool(), "testpkg.Thing");
        CHECK_FALSE(json_to_message(R"({"count":"many"})", *t.m, error));
        CHECK(error.find("the message does not fit testpkg.Thing") == 0);
    }
    SUBCASE("not JSON") {
        Msg t(s->pool(), "testpkg.Thing");
        CHECK_FALSE(json_to_message("{id:", *t.m, error));
        CHECK(error.find("not JSON") != std::string::npos);
    }
    SUBCASE("not an object") {
        Msg t(s->pool(), "testpkg.Thing");
        CHECK_FALSE(json_to_message("[1]", *t.m, error));
        CHECK(error == "the message for testpkg.Thing must be a JSON object");
    }
}

TEST_CASE("status table and classification") {
    CHECK(grpc_status::name(5) == "NOT_FOUND");
    CHECK(grpc_status::from_name("INVALID_ARGUMENT") == 3);
    CHECK_FALSE(grpc_status::from_name("not_found"));
    CHECK(grpc_status::name(17).empty());
    CHECK(grpc_status::http_status(0) == 200);
    CHECK(grpc_status::http_status(3) == 400);
    CHECK(grpc_status::http_status(5) == 404);
    CHECK(grpc_status::http_status(6) == 409);
    CHECK(grpc_status::http_status(7) == 403);
    CHECK(grpc_status::http_status(9) == 400);
    CHECK(grpc_status::http_status(12) == 501);
    CHECK(grpc_status::http_status(13) == 500);
    CHECK(grpc_status::http_status(16) == 401);

    auto nf = classify(5, "no such \"thing\"", false);
    REQUIRE(nf.response);
    CHECK(nf.response->status == 404);
    CHECK(nf.response->reason == "NOT_FOUND");
    CHECK(*nf.response->header("grpc-status") == "5");
    CHECK(*nf.response->header("grpc-message") == "no such \"thing\"");
    CHECK(nf.response->body == R"({"code":5,"status":"NOT_FOUND","message":"no such \"thing\""})");

    auto unavailable = classify(14, "failed to connect", false);
    REQUIRE(unavailable.error);
    CHECK(unavailable.error->kind == TransportErrorKind::connect);
    CHECK(unavailable.error->retryable);
    auto handshake = classify(14, "Ssl handshake failed", true);
    CHECK(handshake.error->kind == TransportErrorKind::tls);
    auto deadline = classify(4, "Deadline Exceeded", false);
    REQUIRE(deadline.error);
    CHECK(deadline.error->kind == TransportErrorKind::timeout);
    auto ok = classify(0, "", false);
    REQUIRE(ok.response);
    CHECK(ok.response->body.empty());
}

TEST_CASE("DATA-ID-002 findings: ids as bytes or numbers, nested, strings are fine") {
    auto s = things();
    const auto* get = s->pool()->FindMethodByName("testpkg.Things.GetThing");
    REQUIRE(get);
    CHECK(id_type_findings(*get).empty());  // string ids, StringValue owner_id, optional part_id

    const auto* old = s->pool()->FindMethodByName("testpkg.Legacy.GetOld");
    REQUIRE(old);
    const auto f = id_type_findings(*old, s.get());
    REQUIRE(f.size() == 4);
    CHECK(f[0].rule == "DATA-ID-002");
    CHECK(f[0].what == "id field type in the request schema: testpkg.OldRequest.uuid");
    CHECK(f[0].actual == "bytes (an id as raw bytes)");
    CHECK(f[1].what == "id field type in the response schema: testpkg.OldThing.id");
    CHECK(f[2].what == "id field type in the response schema: testpkg.OldThing.category_id");
    CHECK(f[2].actual == "int64");
    // each names its field and file; a .proto file gives the field's position, read from disk
    CHECK(f[2].field == "testpkg.OldThing.category_id");
    CHECK(f[2].schema == "testpkg/things.proto");
    CHECK(f[2].pos.line == 51);
    CHECK(f[2].pos.column == 3);
    CHECK(f[2].pos.file == std::filesystem::weakly_canonical(fixtures + "/protos/testpkg/things.proto").string());
    const auto bare = id_type_findings(*old);  // without the FileSchema: the schema's own name
    CHECK(bare[2].pos.file == "testpkg/things.proto");
    CHECK(f[3].what == "id field type in the response schema: testpkg.OldThing.Nested.ownerId");
    CHECK(f[3].actual == "uint32");
}

TEST_CASE("id_named") {
    CHECK(id_named("id"));
    CHECK(id_named("category_id"));
    CHECK(id_named("ownerId"));
    CHECK(id_named("uuid"));
    CHECK(id_named("legacy_uuid"));
    CHECK_FALSE(id_named("idea"));
    CHECK_FALSE(id_named("paid"));
    CHECK(id_named("Id"));  // one naming rule for every shape check (ids::id_named_field)
}

TEST_CASE("reflection schema keeps every file once and finds missing dependencies") {
    ReflectionSchema rs;
    google::protobuf::FileDescriptorProto fd;
    fd.set_name("a.proto");
    fd.set_package("a");
    fd.add_dependency("b.proto");
    fd.add_dependency("google/protobuf/empty.proto");
    auto* svc = fd.add_service();
    svc->set_name("S");
    CHECK(rs.add_file(fd.SerializeAsString()));
    CHECK(rs.add_file(fd.SerializeAsString()));  // sent again: fine
    CHECK(rs.missing_dependencies() == std::vector<std::string>{"b.proto"});
    CHECK_FALSE(rs.add_file("\xff\xff garbage"));
    google::protobuf::FileDescriptorProto b;
    b.set_name("b.proto");
    CHECK(rs.add_file(b.SerializeAsString()));
    CHECK(rs.missing_dependencies().empty());
    CHECK(rs.pool()->FindServiceByName("a.S"));
}

TEST_CASE("misfit: the member whose value its field's type cannot hold, nested ones too") {
    std::string error;
    auto s = FileSchema::load({fixtures + "/protos/testpkg/numbered.proto"}, {fixtures + "/protos"}, error);
    REQUIRE_MESSAGE(s, error);
    const Codec codec(s->pool());
    const pb::Descriptor* req = s->pool()->FindMessageTypeByName("testpkg.NumberedRequest");
    REQUIRE(req);
    // fits: numbers and decimal strings in an int64, anything in a string
    CHECK_FALSE(codec.misfit(*req, R"({"id":"12","note":"00000000-0000-0000-0000-000000000000"})"));
    CHECK_FALSE(codec.misfit(*req, R"({"id":12})"));
    CHECK_FALSE(codec.misfit(*req, ""));
    const auto nil = codec.misfit(*req, R"({"note":"n","id":"00000000-0000-0000-0000-000000000000"})");
    REQUIRE(nil);
    CHECK(nil->pointer == "/id");
    CHECK(nil->reason.rfind("field id of testpkg.NumberedRequest is int64 (", 0) == 0);
    const auto nested =
        codec.misfit(*req, R"({"id":"1","filter":{"owner_id":"ffffffff-ffff-ffff-ffff-ffffffffffff"}})");
    REQUIRE(nested);
    CHECK(nested->pointer == "/filter/owner_id");
    CHECK(nested->reason.find("is int32") != std::string::npos);
    // not a type problem: the call reports it as it always did
    CHECK_FALSE(codec.misfit(*req, R"({"nmae":"x"})"));
    CHECK_FALSE(codec.misfit(*req, "not json"));
}

TEST_CASE("misfit: an integer member that would arrive as another value's text is not sent as written") {
    std::string error;
    auto s = FileSchema::load({fixtures + "/protos/testpkg/numbered.proto"}, {fixtures + "/protos"}, error);
    REQUIRE_MESSAGE(s, error);
    const Codec codec(s->pool());
    const pb::Descriptor* req = s->pool()->FindMessageTypeByName("testpkg.NumberedRequest");
    REQUIRE(req);
    // protobuf takes "017" for 17: a mutated id would reach the server as the live one
    const auto zero = codec.misfit(*req, R"({"id":"017","note":"017"})");
    REQUIRE(zero);
    CHECK(zero->pointer == "/id");
    CHECK(zero->reason == "field id of testpkg.NumberedRequest is int64: '017' would arrive as 17, so the request "
                          "would not carry what it means");
    // the same in a nested int32, a repeated int64 (at its element) and a uint64
    const auto nested = codec.misfit(*req, R"({"id":"5","filter":{"owner_id":"07"}})");
    REQUIRE(nested);
    CHECK(nested->pointer == "/filter/owner_id");
    CHECK(nested->reason.find("is int32: '07' would arrive as 7") != std::string::npos);
    const auto tagged = codec.misfit(*req, R"({"tag_ids":["3","04"]})");
    REQUIRE(tagged);
    CHECK(tagged->pointer == "/tag_ids/1");
    const auto parent = codec.misfit(*req, R"({"parent_id":"007"})");
    REQUIRE(parent);
    CHECK(parent->reason.find("is uint64: '007' would arrive as 7") != std::string::npos);
    // what arrives as written: canonical decimal text, numbers, zero, the extremes
    CHECK_FALSE(codec.misfit(*req, R"({"id":"17","note":"x","filter":{"owner_id":-3},"tag_ids":["1",2]})"));
    CHECK_FALSE(codec.misfit(*req, R"({"id":"0"})"));
    CHECK_FALSE(codec.misfit(*req, R"({"id":0,"parent_id":"18446744073709551615"})"));
    CHECK_FALSE(codec.misfit(*req, R"({"id":"-9223372036854775808"})"));
}

TEST_CASE("the gRPC transport says which request cannot be sent, from the .proto files, without a network") {
    boost::asio::io_context io;
    transport::Options opts;
    opts.grpc.protos = {fixtures + "/protos/testpkg/numbered.proto"};
    opts.grpc.import_paths = {fixtures + "/protos"};
    opts.grpc.reflection = false;
    auto t = make_grpc_transport(io.get_executor(), opts);
    auto* check = dynamic_cast<transport::RequestCheck*>(t.get());
    REQUIRE(check);
    Request r;
    r.transport = "grpc";
    r.url = "grpc://127.0.0.1:1";  // nobody listens: nothing is sent
    r.method = "testpkg.Numbered/GetNumbered";
    r.body = R"({"id":"ffffffff-ffff-ffff-ffff-ffffffffffff"})";
    const auto max = check->unsendable(r);
    REQUIRE(max);
    CHECK(max->pointer == "/id");
    r.body = R"({"id":"42"})";
    CHECK_FALSE(check->unsendable(r));
    r.method = "testpkg.Numbered/NoSuchMethod";  // the call names what exists
    r.body = R"({"id":"ffffffff-ffff-ffff-ffff-ffffffffffff"})";
    CHECK_FALSE(check->unsendable(r));
}
