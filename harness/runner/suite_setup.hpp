// The start of a suite: its variables and target interpolated into the
// SuiteRun (the step modules' Env), and the transport options it runs with:
// the suite's target merged with the command line's options (CLI first).
#pragma once

#include "runner/runner.hpp"
#include "runner/suite_run.hpp"
#include "suite/model.hpp"
#include "transport/transport.hpp"

#include <string>

namespace idconform::runner {

// Sets the suite's variables (then --var) and interpolates the target: base
// URL (or --base-url), gRPC address, headers, Kafka cluster. Returns the
// problem that stops the suite ("" when none); a Kafka problem is kept for
// the first kafka step instead (env.kafka.problem).
[[nodiscard]] std::string interpolate_target(const RunOptions& opts, const suite::Suite& s, SuiteRun& run);

// The transport options of a suite: timeouts, TLS and gRPC schema sources of
// its target, each overridden by the command line's when given there.
[[nodiscard]] transport::Options merge_transport_options(const RunOptions& opts, const suite::Target& t,
                                                         const transport::KafkaOptions& kafka);

// The Env fields that depend on the transport options (Kafka wait and skew,
// what grpcurl needs), once they are merged.
void finish_env(const RunOptions& opts, SuiteRun& run);

}  // namespace idconform::runner
