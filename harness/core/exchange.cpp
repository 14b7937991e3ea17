// Small helpers of the exchange and result model.
#include "core/exchange.hpp"

#include "core/strings.hpp"
#include "core/result.hpp"

#include <algorithm>
#include <cctype>

namespace idconform {

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
        case TransportErrorKind::unauthenticated: return "unauthenticated";
        case TransportErrorKind::other: return "other";
    }
    return "other";
}

}  // namespace idconform
