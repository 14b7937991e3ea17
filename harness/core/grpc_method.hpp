// gRPC full method names ("package.Service/Method", a leading '/' allowed as
// on the wire): the one parser that the suite loader, the profile loader and
// the gRPC transport share, so a name one accepts the others accept too.
// No gRPC dependency.
#pragma once

#include <optional>
#include <string_view>

namespace idconform::grpc_method {

struct Parts {
    std::string_view service;  // "products.v1.Products" (the package is optional, as in .proto files)
    std::string_view method;   // "GetProduct"
};

// The parts of a well-formed name: one '/' between a service and a method,
// protobuf identifiers only (letters, digits, '_'; dots between the
// service's package parts). Views into `full`; nullopt otherwise.
[[nodiscard]] std::optional<Parts> parse(std::string_view full) noexcept;

// What a diagnostic says a name must look like.
inline constexpr std::string_view expected_form = "package.Service/Method, e.g. products.v1.Products/GetProduct";

}  // namespace idconform::grpc_method
