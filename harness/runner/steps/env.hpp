// What a step module needs from the suite it runs in, made once per suite
// (runner/suite_setup.cpp) and read-only while cases run: the interpolated
// target (base URL, gRPC address, headers, Kafka cluster), the principals,
// and what reproduce commands name (proto files, TLS files, brokers).
#pragma once

#include "binding/deletion.hpp"
#include "runner/steps/kafka.hpp"
#include "suite/model.hpp"
#include "transport/transport.hpp"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace idconform::runner::steps {

struct Env {
    const std::map<std::string, suite::Principal>* principals = nullptr;
    std::string base_url;  // no trailing '/'
    std::string grpc_url;  // "grpc://host:port" or "grpcs://host:port"; "" = the target has no grpc section
    std::vector<std::pair<std::string, std::string>> target_headers;  // interpolated
    KafkaContext kafka;
    transport::GrpcOptions grpc;  // what grpcurl needs to send a request again
    // Where the create answers said the entities are (SuiteRun::locations),
    // for http steps with `location_of`; nullptr: none (hand-made Envs).
    const binding::LocationBook* locations = nullptr;
    // Set when the run follows redirects (-L): how many, for the curl line.
    std::optional<int> max_redirects;
};

// Which tool sends a recorded request again (binding/deletion.hpp).
using binding::Wire;
using binding::to_string;

}  // namespace idconform::runner::steps
