// The HTTP/1.1 transport (Boost.Beast, C++20 coroutines): keep-alive pool,
// deadlines on the sockets, TLS with verification, bounded response bodies.
// See README.md beside this file for the behaviour in detail.
#pragma once

#include "transport/transport.hpp"

#include <memory>

namespace idconform::transport::http {

// Creates the transport. Options are taken as they are; TLS files named in
// opts.tls are loaded once, on the first https connection, and a failure to
// load them is reported (kind tls) by every https exchange, never thrown. The returned object may be
// destroyed while exchanges are still running: they keep what they need
// alive (shutdown() only closes idle connections).
[[nodiscard]] std::unique_ptr<Transport> make_http_transport(boost::asio::any_io_executor ex, const Options& opts);

}  // namespace idconform::transport::http
