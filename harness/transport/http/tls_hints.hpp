// Words for a TLS verify failure (no Beast here): what an "unknown issuer"
// means on this machine, a private CA to give with --cacert or a missing
// system CA store (a minimal container without ca-certificates).
#pragma once

#include "transport/transport.hpp"

#include <string>

namespace idconform::transport::http {

// " (...)" for a verify result (X509_V_ERR_*) that says the issuer is
// unknown, "" for any other.
[[nodiscard]] std::string unknown_issuer_hint(long verify_result, const TlsOptions& o);

}  // namespace idconform::transport::http
