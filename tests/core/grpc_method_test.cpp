// The one gRPC method-name parser: what the suite loader, the profile loader
// and the gRPC transport all accept (they used to disagree: the profile
// loader wanted a package and refused a leading '/', the suite loader and
// the transport took "a-b/c d" shapes the server can never have).
#include "core/grpc_method.hpp"

#include <doctest/doctest.h>

using idconform::grpc_method::parse;

TEST_CASE("grpc_method::parse: service and method of a full name") {
    auto p = parse("products.v1.Products/GetProduct");
    REQUIRE(p);
    CHECK(p->service == "products.v1.Products");
    CHECK(p->method == "GetProduct");
    p = parse("/a.B/C");  // as on the wire
    REQUIRE(p);
    CHECK(p->service == "a.B");
    CHECK(p->method == "C");
    p = parse("Products/Get_2");  // a service without a package is valid protobuf
    REQUIRE(p);
    CHECK(p->service == "Products");
}

TEST_CASE("grpc_method::parse: everything else") {
    for (const char* bad : {"", "/", "a.B.C", "a.B/", "/C", "a.B/C/D", "//a.B/C", "a..B/C", ".a.B/C", "a.B./C",
                            "a.B/C D", "a B/C", "a-b.S/M", "a.S/M-x", "1a.S/M", "a.S/1M", "a.S/M\n", "a.S/M.x"})
        CHECK_MESSAGE(!parse(bad), bad);
}
