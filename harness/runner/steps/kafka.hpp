// The kafka step kind: the request builder (suite model -> Request, see
// transport/kafka/kafka_request.hpp for the encoding), the check every
// consume carries (a matching message arrived in time, or with `absent:
// true` none did), its description and case properties; its reproduce
// command is kcat_command (kafka_request.hpp). Pure functions, unit-tested
// without a broker.
#pragma once

#include "core/result.hpp"
#include "runner/scope.hpp"
#include "suite/model.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace idconform::runner {

// The variable holding the start of the running case (or setup/teardown
// phase) in ms since the epoch: where a consume with `from: case` starts.
inline constexpr const char* case_started_var = "case.started_ms";

struct KafkaContext {
    std::string brokers;                        // target.kafka.brokers, interpolated ("" = none)
    std::string problem;                        // why target.kafka could not be interpolated
    std::chrono::milliseconds read_timeout{10000};  // a consume's wait when the step names none
    std::chrono::milliseconds clock_skew{5000};     // `from: case` starts this much earlier
};

[[nodiscard]] Result<Request> build_kafka_request(const suite::KafkaRequest& k, const Scope& scope,
                                                  const KafkaContext& ctx);

// The "kafka message on TOPIC" check of a consume's answer (status 200 =
// matched, 404 = none in time); a miss is a failure under `rule`.
[[nodiscard]] CheckResult kafka_message_check(const suite::KafkaRequest& k, const Exchange& x, const std::string& rule);

// The step's checks after its answer arrived: the message check first;
// without the message (or when none was wanted) the step's other
// expectations had nothing to look at and are dropped.
void add_message_check(const suite::KafkaRequest& k, const Exchange& x, const std::string& rule,
                       std::vector<CheckResult>& checks);

namespace steps {
[[nodiscard]] std::string describe(const suite::KafkaRequest& k);
void add_properties(const suite::KafkaRequest& k, std::vector<Property>& out);
}  // namespace steps

}  // namespace idconform::runner
