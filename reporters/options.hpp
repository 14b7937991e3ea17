// Options every file/console reporter shares.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace idconform::reporters {

struct ReportOptions {
    // Header names masked in addition to Authorization, Proxy-Authorization,
    // Cookie and Set-Cookie (case-insensitive), e.g. "X-Api-Key".
    std::vector<std::string> redact_headers;
    // Bytes of a request/response body quoted in human-readable evidence
    // (JUnit failure text, console verbose output). The JSON report carries
    // the whole stored body instead.
    std::size_t body_excerpt_bytes = 1024;
};

}  // namespace idconform::reporters
