// The gRPC status table: names and the grpc-gateway HTTP mapping.
#include "core/grpc_status.hpp"

#include <array>

namespace idconform::grpc_status {
namespace {

struct Entry {
    std::string_view name;
    int http;
};

// Index = code. HTTP equivalents as grpc-gateway's HTTPStatusFromCode.
constexpr std::array<Entry, max_code + 1> table{{
    {"OK", 200},
    {"CANCELLED", 499},
    {"UNKNOWN", 500},
    {"INVALID_ARGUMENT", 400},
    {"DEADLINE_EXCEEDED", 504},
    {"NOT_FOUND", 404},
    {"ALREADY_EXISTS", 409},
    {"PERMISSION_DENIED", 403},
    {"RESOURCE_EXHAUSTED", 429},
    {"FAILED_PRECONDITION", 400},
    {"ABORTED", 409},
    {"OUT_OF_RANGE", 400},
    {"UNIMPLEMENTED", 501},
    {"INTERNAL", 500},
    {"UNAVAILABLE", 503},
    {"DATA_LOSS", 500},
    {"UNAUTHENTICATED", 401},
}};

}  // namespace

std::string_view name(int code) noexcept {
    if (code < 0 || code > max_code) return {};
    return table[static_cast<std::size_t>(code)].name;
}

std::optional<int> from_name(std::string_view n) noexcept {
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].name == n) return static_cast<int>(i);
    return std::nullopt;
}

int http_status(int code) noexcept {
    if (code < 0 || code > max_code) return 500;
    return table[static_cast<std::size_t>(code)].http;
}

std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const auto& e : table) out.emplace_back(e.name);
    return out;
}

}  // namespace idconform::grpc_status
