// Unreachable-target causes of error cases (unreachable.hpp).
#include "reporters/unreachable.hpp"

namespace idconform::reporters {

std::optional<std::string> unreachable_cause(const CaseResult& c) {
    if (c.outcome != Outcome::error) return std::nullopt;
    for (const auto& st : c.steps) {
        const auto& err = st.exchange.error;
        if (!err) continue;
        if (err->kind == TransportErrorKind::resolve || err->kind == TransportErrorKind::connect ||
            err->kind == TransportErrorKind::tls)
            return std::string(to_string(err->kind)) + ": " + err->message;
        return std::nullopt;  // the first transport error is the case's cause
    }
    return std::nullopt;
}

}  // namespace idconform::reporters
