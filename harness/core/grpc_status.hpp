// gRPC status codes by number and name, and the HTTP status each one stands
// for in reports and `status:` expectations (the grpc-gateway mapping). No
// gRPC dependency: the suite loader, the checks and the gRPC transport all
// share this one table.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::grpc_status {

inline constexpr int unauthenticated = 16;  // UNAUTHENTICATED
inline constexpr int max_code = unauthenticated;

// "NOT_FOUND" for 5; "" for a number outside 0..16.
[[nodiscard]] std::string_view name(int code) noexcept;
// 5 for "NOT_FOUND" (exact, upper-case); nullopt for anything else.
[[nodiscard]] std::optional<int> from_name(std::string_view name) noexcept;
// The HTTP equivalent: OK 200, INVALID_ARGUMENT 400, NOT_FOUND 404, ...
[[nodiscard]] int http_status(int code) noexcept;
// Every name, in code order (for "did you mean" hints).
[[nodiscard]] std::vector<std::string> names();

}  // namespace idconform::grpc_status
