// Small helpers of the exchange and result model.
#include "core/exchange.hpp"
#include "core/result.hpp"

#include <algorithm>
#include <cctype>

namespace idconform {

namespace {
bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}
}  // namespace

const std::string* Response::header(std::string_view name) const {
    for (const auto& h : headers)
        if (iequals(h.name, name)) return &h.value;
    return nullptr;
}

const char* to_string(TransportErrorKind k) noexcept {
    switch (k) {
        case TransportErrorKind::resolve: return "resolve";
        case TransportErrorKind::connect: return "connect";
        case TransportErrorKind::tls: return "tls";
        case TransportErrorKind::timeout: return "timeout";
        case TransportErrorKind::protocol: return "protocol";
        case TransportErrorKind::body_too_large: return "body_too_large";
        case TransportErrorKind::other: return "other";
    }
    return "other";
}

}  // namespace idconform
