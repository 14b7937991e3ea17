// gRPC method-name parsing (see grpc_method.hpp).
#include "core/grpc_method.hpp"

namespace idconform::grpc_method {

namespace {

bool ident_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A protobuf identifier: not empty, no leading digit.
bool identifier(std::string_view s) noexcept {
    if (s.empty() || (s.front() >= '0' && s.front() <= '9')) return false;
    for (char c : s)
        if (!ident_char(c)) return false;
    return true;
}

// "a.b.Service": identifiers joined by single dots.
bool dotted(std::string_view s) noexcept {
    for (;;) {
        const auto dot = s.find('.');
        if (!identifier(s.substr(0, dot))) return false;
        if (dot == std::string_view::npos) return true;
        s.remove_prefix(dot + 1);
    }
}

}  // namespace

std::optional<Parts> parse(std::string_view full) noexcept {
    if (!full.empty() && full.front() == '/') full.remove_prefix(1);
    const auto slash = full.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    Parts p{full.substr(0, slash), full.substr(slash + 1)};
    if (!dotted(p.service) || !identifier(p.method)) return std::nullopt;
    return p;
}

}  // namespace idconform::grpc_method
