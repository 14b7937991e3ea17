// How a Kafka produce or consume travels in the shared Request model, and the
// pure parts of the Kafka transport: encoding a Spec into a Request (the
// runner's request builder) and back (the transport), message matching,
// descriptions and the kcat reproduction command. No network here, so all of
// it is unit-tested.
//
//   produce: method "produce", url "kafka://TOPIC[?partition=N]",
//            headers = message headers, plus "kafka-key" for the key,
//            body = payload (empty body = null payload, a tombstone)
//   consume: method "consume", url "kafka://TOPIC?from=...&partitions=0,1
//            &timeout_ms=N&match.key=V&match.header.NAME=V&match.json.PTR=V"
//            from = end | beginning | timestamp:UNIX_MS | offset:N
// Query values are percent-encoded; every match must hold.
#pragma once

#include "core/exchange.hpp"

#include <boost/system/result.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::transport::kafka {

// Names of the pseudo-headers the transport adds to a produce request
// (kafka-key) and to an answer (all of them). User headers must not use the
// "kafka-" prefix.
inline constexpr std::string_view key_header = "kafka-key";
inline constexpr std::string_view topic_header = "kafka-topic";
inline constexpr std::string_view partition_header = "kafka-partition";
inline constexpr std::string_view offset_header = "kafka-offset";
inline constexpr std::string_view timestamp_header = "kafka-timestamp";  // ms since the epoch
inline constexpr std::string_view pseudo_prefix = "kafka-";

struct Match {
    enum class Kind { key, header, json } kind = Kind::key;
    std::string name;   // header name or JSON pointer
    std::string value;  // wanted text; a JSON string compares as its text, anything else as its JSON
};

struct Start {
    enum class Kind { end, beginning, timestamp, offset } kind = Kind::end;
    std::int64_t value = 0;  // ms since the epoch, or the offset
};

struct Spec {
    enum class Op { produce, consume } op = Op::produce;
    std::string topic;
    // produce
    std::optional<int> partition;
    std::optional<std::string> key;
    std::vector<Header> headers;
    std::string payload;
    // consume
    std::vector<int> partitions;  // empty: every partition of the topic
    Start start;
    std::vector<Match> match;
    std::optional<std::chrono::milliseconds> timeout;  // else the transport's read timeout
};

// A topic name Kafka accepts: 1-249 of [a-zA-Z0-9._-].
[[nodiscard]] bool valid_topic(std::string_view topic) noexcept;

[[nodiscard]] Request to_request(const Spec& spec);
[[nodiscard]] boost::system::result<Spec, std::string> parse_request(const Request& request);

// A received message as the matcher sees it.
struct Message {
    std::optional<std::string> key;  // nullopt: null key
    std::vector<Header> headers;
    std::string payload;
};
[[nodiscard]] bool matches(const std::vector<Match>& match, const Message& m);

// "key = 'x' and header trace = 'y' and /id = 'z'" ("any message" when empty)
[[nodiscard]] std::string describe(const std::vector<Match>& match);

// A kcat command that does the same (secrets already redacted in `r`).
[[nodiscard]] std::string kcat_command(const Request& r, std::string_view brokers);

// True for librdkafka property names whose values are secrets
// (sasl.password, ssl.key.password, sasl.oauthbearer.client.secret, ...).
[[nodiscard]] bool secret_property(std::string_view name) noexcept;

}  // namespace idconform::transport::kafka
