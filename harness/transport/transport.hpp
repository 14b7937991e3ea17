// The one transport interface. A transport turns a fully interpolated
// Request into an Exchange; it never throws and never retries (retries, rate
// limits and overall deadlines live in the runner). Deadlines are enforced on
// the I/O objects themselves, so a timeout really stops the work.
#pragma once

#include "core/exchange.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idconform::transport {

struct TlsOptions {
    std::string ca_file;      // --cacert; empty = system store
    std::string cert_file;    // client certificate (mTLS)
    std::string key_file;     // client key (mTLS)
    bool insecure = false;    // skip verification (loud warning printed by the CLI)
};

// Kafka (transport "kafka"): where the cluster is and any librdkafka
// configuration property (SASL, SSL, ...), passed through as given. Values of
// secret-looking properties (secret_property() in kafka/kafka_request.hpp)
// never appear in messages.
struct KafkaOptions {
    std::string brokers;  // bootstrap.servers: "host:port[,host:port...]"
    std::vector<std::pair<std::string, std::string>> properties;
};

// What the gRPC transport needs beyond the common options (see
// transport/grpc/README.md). Paths are as the suite resolved them.
struct GrpcOptions {
    std::vector<std::string> protos;        // .proto files to load the schema from
    std::vector<std::string> import_paths;  // where imports are looked up (/usr/include is always added)
    bool reflection = true;                 // ask the server (v1, then v1alpha) for services not in `protos`
    std::optional<TlsOptions> tls;          // for grpcs; unset: Options::tls
};

struct Options {
    std::chrono::milliseconds connect_timeout{5000};
    std::chrono::milliseconds read_timeout{10000};  // whole response, per attempt
    std::size_t body_cap = 1 << 20;                  // bytes kept; the rest is counted
    bool follow_redirects = false;
    int max_redirects = 5;
    TlsOptions tls;
    KafkaOptions kafka;
    // The io_context runs on one thread only: a transport may then skip the
    // strands (and the coroutine hop onto them) that guard its I/O objects.
    bool single_threaded = false;
    GrpcOptions grpc;
};

class Transport {
public:
    virtual ~Transport() = default;
    // Sends one request and waits for its answer. Never throws: failures are
    // reported in Exchange::error.
    virtual boost::asio::awaitable<Exchange> exchange(Request request) = 0;
    // Closes pooled connections.
    virtual void shutdown() {}
};

// An optional ability of a transport that knows the types of what it sends
// (gRPC, from the method's schema): which value of a request cannot be
// encoded at all, asked before anything is sent. The runner then reports
// the case that would send it as not applicable (Nil into an int64 id field
// is no request a client could make), not as an error.
struct Unsendable {
    std::string pointer;  // JSON pointer of the member in Request::body ("/id")
    std::string reason;   // in words: "field id of pkg.GetRequest is int64: ..."
};
class RequestCheck {
public:
    virtual ~RequestCheck() = default;
    // The member of `request`'s body that its field's type cannot hold;
    // nullopt when every member fits, or when only sending can tell (an
    // unknown method, a schema that cannot be had, a body that is no JSON).
    [[nodiscard]] virtual std::optional<Unsendable> unsendable(const Request& request) = 0;
};

using Factory = std::function<std::unique_ptr<Transport>(boost::asio::any_io_executor, const Options&)>;

// A factory that is told the registry name: what the runner makes its
// transports with (the registry's make(), or a fake in tests).
using NamedFactory = std::function<std::unique_ptr<Transport>(const std::string& name, boost::asio::any_io_executor ex,
                                                              const Options& opts)>;

// The one explicit registry: transport name -> factory. Each transport adds
// its line in registry.cpp.
[[nodiscard]] const std::map<std::string, Factory>& registry();
[[nodiscard]] std::unique_ptr<Transport> make(const std::string& name, boost::asio::any_io_executor ex,
                                              const Options& opts);
// make() as a NamedFactory: what the CLI (the composition root) gives the runner.
[[nodiscard]] NamedFactory registry_factory();

}  // namespace idconform::transport
