// The gRPC transport against the example products gRPC front, in-process on
// loopback: schema from reflection (v1alpha fallback) and from the .proto
// file, answers mapped to statuses, request errors naming what exists, an
// unreachable server, and reflection carrying the call's metadata.
#include "grpc_front.hpp"
#include "transport/transport.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/json/parse.hpp>
#include <doctest/doctest.h>

#include <string>

using namespace idconform;
namespace asio = boost::asio;

namespace {

struct Loopback {
    products::ProductsService service;
    std::unique_ptr<products::GrpcFront> front;
    Loopback() {
        std::string error;
        front = products::start_grpc_front(service, {}, error);
        REQUIRE_MESSAGE(front, error);
    }
    std::string url() const { return "grpc://127.0.0.1:" + std::to_string(front->port()); }
};

Exchange call(transport::Transport& t, asio::io_context& io, Request r) {
    auto f = asio::co_spawn(io, t.exchange(std::move(r)), asio::use_future);
    io.restart();
    io.run();
    return f.get();
}

Request request(const std::string& url, std::string method, std::string body, bool auth = true) {
    Request r;
    r.transport = "grpc";
    r.url = url;
    r.method = std::move(method);
    r.body = std::move(body);
    if (auth) r.headers.push_back({"Authorization", "Bearer alice"});
    return r;
}

std::string field(const std::string& body, const char* name) {
    auto v = boost::json::parse(body);
    const auto* f = v.as_object().if_contains(name);
    return f && f->is_string() ? std::string(f->as_string()) : std::string();
}

void round_trip(const transport::Options& opts) {
    Loopback lb;
    asio::io_context io;
    auto t = transport::make("grpc", io.get_executor(), opts);
    REQUIRE(t);

    Exchange c = call(*t, io, request(lb.url(), "products.v1.Products/CreateCategory", R"({"name":"c"})"));
    REQUIRE_MESSAGE(c.response, (c.error ? c.error->message : ""));
    CHECK(c.response->status == 200);
    CHECK(c.response->reason == "OK");
    const std::string category = field(c.response->body, "id");
    CHECK(category.size() == 36);
    CHECK(c.findings.empty());

    Exchange p = call(*t, io, request(lb.url(), "products.v1.Products/CreateProduct",
                                      R"({"name":"p","category_id":")" + category + R"("})"));
    REQUIRE(p.response);
    CHECK(p.response->status == 200);
    CHECK(p.response->body.find("parent_id") == std::string::npos);  // absent stays absent
    const std::string id = field(p.response->body, "id");

    Exchange g = call(*t, io, request(lb.url(), "/products.v1.Products/GetProduct", R"({"id":")" + id + R"("})"));
    REQUIRE(g.response);
    CHECK(field(g.response->body, "id") == id);

    Exchange upper = call(*t, io, request(lb.url(), "products.v1.Products/GetProduct", R"({"id":"ABC"})"));
    REQUIRE(upper.response);
    CHECK(upper.response->status == 404);
    CHECK(upper.response->reason == "NOT_FOUND");
    CHECK(*upper.response->header("grpc-status") == "5");

    Exchange anon = call(*t, io, request(lb.url(), "products.v1.Products/GetProduct", R"({"id":")" + id + R"("})", false));
    REQUIRE(anon.response);
    CHECK(anon.response->reason == "UNAUTHENTICATED");
    CHECK(anon.response->status == 401);

    Exchange bad = call(*t, io, request(lb.url(), "products.v1.Products/GetProdct", "{}"));
    REQUIRE(bad.error);
    CHECK_FALSE(bad.error->retryable);
    CHECK(bad.error->message.find("did you mean 'GetProduct'") != std::string::npos);

    Exchange field_err = call(*t, io, request(lb.url(), "products.v1.Products/GetProduct", R"({"idd":"x"})"));
    REQUIRE(field_err.error);
    CHECK(field_err.error->message.find("unknown field 'idd' in products.v1.GetProductRequest") == 0);
    t->shutdown();
}

}  // namespace

TEST_CASE("gRPC transport with server reflection") {
    transport::Options opts;
    opts.grpc.reflection = true;
    round_trip(opts);
}

TEST_CASE("gRPC transport with the .proto file") {
    transport::Options opts;
    opts.grpc.reflection = false;
    opts.grpc.protos = {std::string(IDCONFORM_SOURCE_DIR) + "/examples/proto/products/v1/products.proto"};
    opts.grpc.import_paths = {std::string(IDCONFORM_SOURCE_DIR) + "/examples/proto"};
    round_trip(opts);
}

TEST_CASE("unknown service with reflection lists the server's services") {
    Loopback lb;
    asio::io_context io;
    auto t = transport::make("grpc", io.get_executor(), {});
    Exchange x = call(*t, io, request(lb.url(), "products.v1.Prod/GetProduct", "{}"));
    REQUIRE(x.error);
    CHECK(x.error->message == "no service 'products.v1.Prod' in the server (reflection); it has products.v1.Products");
    CHECK_FALSE(x.error->retryable);
}

TEST_CASE("nobody listening is a connect error, retryable") {
    asio::io_context io;
    transport::Options opts;
    opts.connect_timeout = std::chrono::milliseconds(500);
    opts.read_timeout = std::chrono::milliseconds(1000);
    auto t = transport::make("grpc", io.get_executor(), opts);
    Exchange x = call(*t, io, request("grpc://127.0.0.1:1", "products.v1.Products/GetProduct", "{}"));
    REQUIRE(x.error);
    CHECK(x.error->kind == TransportErrorKind::connect);
    CHECK(x.error->retryable);
}

TEST_CASE("bad addresses and metadata are request errors") {
    asio::io_context io;
    auto t = transport::make("grpc", io.get_executor(), {});
    Exchange a = call(*t, io, request("grpc://127.0.0.1:1/path", "a.B/C", "{}"));
    REQUIRE(a.error);
    CHECK(a.error->message.find("bad gRPC address") == 0);
    Exchange m = call(*t, io, request("grpc://127.0.0.1:1", "a.B.C", "{}"));
    REQUIRE(m.error);
    CHECK(m.error->message.find("bad gRPC method 'a.B.C'") == 0);
    Request r = request("grpc://127.0.0.1:1", "a.B/C", "{}");
    r.headers.push_back({"x bad", "v"});
    Exchange h = call(*t, io, r);
    REQUIRE(h.error);
    CHECK(h.error->message.find("metadata key 'x bad' is not valid") == 0);
    Request g = request("grpc://127.0.0.1:1", "a.B/C", "{}");
    g.headers.push_back({"grpc-timeout", "1S"});
    Exchange gr = call(*t, io, g);
    REQUIRE(gr.error);
    CHECK(gr.error->message.find("reserved") != std::string::npos);
}
