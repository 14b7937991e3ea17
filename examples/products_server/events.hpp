// The example server's message side (librdkafka): an event on
// `products.events` for every product change (key = product id, JSON payload),
// and a consumer of `products.commands` that applies delete/rename commands
// with a valid id and dead-letters everything else to
// `products.commands.dlq` with its reason, changing nothing. With `mock` the
// Kafka cluster is librdkafka's built-in mock broker, inside this process.
// The event and command rules (and their defects) are pure functions, tested
// without a broker.
#pragma once

#include "defects.hpp"
#include "service.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace products {

inline constexpr std::string_view events_topic = "products.events";
inline constexpr std::string_view commands_topic = "products.commands";
inline constexpr std::string_view dlq_topic = "products.commands.dlq";

// One published event: its key and JSON payload
// {"type":"product.created","id":...,"name":...,"category_id":...,"parent_id":...,"updated_at":...}.
struct Event {
    std::string key;
    std::string payload;
};
[[nodiscard]] Event render_event(std::string_view change, const Product& p, const DefectSet& defects);

// What to do with one command message.
struct CommandDecision {
    enum class Action { reject, delete_product, rename_product } action = Action::reject;
    idconform::ids::Uuid id{};
    std::string name;    // rename_product
    std::string reason;  // reject: why (goes to the dead-letter topic)
};
[[nodiscard]] CommandDecision decide_command(std::string_view payload, const DefectSet& defects);

class Events {
public:
    // Starts the producer and the command consumer (and the mock cluster
    // when `mock`; then `brokers` is ignored). nullptr and `error` set on failure.
    static std::unique_ptr<Events> start(ProductsService& service, const DefectSet& defects, bool mock,
                                         const std::string& brokers, std::string& error);
    virtual ~Events() = default;
    // bootstrap.servers of the cluster in use ("127.0.0.1:PORT" for the mock).
    [[nodiscard]] virtual const std::string& bootstrap() const = 0;
};

}  // namespace products
