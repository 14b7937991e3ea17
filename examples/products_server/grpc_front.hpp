// The gRPC front of the example products service (products.v1.Products, see
// examples/proto/products/v1/products.proto). It shares the HTTP side's store
// and defects by translating each call into the matching HTTP request for
// ProductsService::handle() and the answer back (status -> gRPC code, body
// JSON -> response message). Server reflection is on.
#pragma once

#include "service.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace products {

struct GrpcFrontOptions {
    std::string host = "127.0.0.1";
    std::uint16_t port = 0;     // 0: a free port
    std::string cert_file;      // PEM chain and key: TLS; empty: plaintext
    std::string key_file;
    unsigned delay_ms = 0;      // every call waits this long first (deadline tests)
    bool legacy = false;        // also serve products.v1.LegacyProducts (ids as bytes/int64: a DATA-ID-002 violation)
    bool tickets = false;       // also serve products.v1.Tickets (integer ids; --tickets)
};

class GrpcFront {
public:
    virtual ~GrpcFront() = default;
    [[nodiscard]] virtual int port() const = 0;
    virtual void shutdown() = 0;
};

// Starts serving on its own threads; nullptr with `error` set on failure.
[[nodiscard]] std::unique_ptr<GrpcFront> start_grpc_front(ProductsService& service, const GrpcFrontOptions& options,
                                                          std::string& error);

// gRPC code for an HTTP status of the service (400/422 INVALID_ARGUMENT, 404
// NOT_FOUND, 409 ALREADY_EXISTS, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED,
// 405 UNIMPLEMENTED, 5xx INTERNAL).
[[nodiscard]] int grpc_code_for_http(unsigned status) noexcept;

}  // namespace products
