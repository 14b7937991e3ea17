// The Kafka transport (librdkafka C API): produce with a confirmed delivery,
// consume by direct partition assignment until the first matching message or
// the deadline. librdkafka calls block, so they run on the transport's own
// threads and every exchange completes on the caller's executor; the
// runner's io_context thread never waits on Kafka. See README.md beside this
// file, and kafka_request.hpp for how operations travel in a Request.
#pragma once

#include "transport/transport.hpp"

#include <memory>

namespace idconform::transport::kafka {

// Creates the transport. Nothing connects until the first exchange; a bad
// property or an unreachable cluster is reported by each exchange (never
// thrown). shutdown() waits for running exchanges, then closes the clients.
[[nodiscard]] std::unique_ptr<Transport> make_kafka_transport(boost::asio::any_io_executor ex, const Options& opts);

}  // namespace idconform::transport::kafka
