// The client side of gRPC server reflection (libgrpc++ ships only the server
// side): one bidirectional stream per lookup, v1 first and v1alpha when the
// server does not implement v1 (a gRPC 1.51 server answers only v1alpha).
// The calls carry the same metadata as the calls they prepare, so reflection
// behind authentication works. Blocking, bounded by `deadline`.
#pragma once

#include "core/exchange.hpp"
#include "transport/grpc/schema.hpp"

#include <grpcpp/channel.h>

#include <chrono>
#include <string>
#include <vector>

namespace idconform::transport::grpcdyn {

struct ReflectResult {
    bool ok = true;
    int code = 0;            // gRPC status code of a failed stream (UNAVAILABLE, ...); -1 for a bad answer
    bool not_found = false;  // the server answered that it has no such symbol
    std::string message;
};

// Adds the file declaring `service` and every file it depends on to `schema`.
[[nodiscard]] ReflectResult reflect_service(grpc::Channel& channel, const std::vector<Header>& metadata,
                                            std::chrono::system_clock::time_point deadline, const std::string& service,
                                            ReflectionSchema& schema);

// Fills schema.listed_services with the server's services.
[[nodiscard]] ReflectResult reflect_list(grpc::Channel& channel, const std::vector<Header>& metadata,
                                         std::chrono::system_clock::time_point deadline, ReflectionSchema& schema);

}  // namespace idconform::transport::grpcdyn
