// The state of one suite while it runs: its interpolated target (the step
// modules' Env), its transports (made on first use by the engine's factory),
// the suite scope, and what spans cases: ids seen (`unique`), UUID versions
// per field (DATA-ID-003), entities created, each marked once deleted (cleanup.hpp).
#pragma once

#include "binding/deletion.hpp"
#include "binding/locations.hpp"
#include "binding/operations.hpp"
#include "core/result.hpp"
#include "runner/runner.hpp"
#include "runner/scope.hpp"
#include "runner/steps/env.hpp"
#include "suite/model.hpp"
#include "transport/transport.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <map>
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace idconform::runner {

class SendCheck;  // runner/send_check.hpp

struct SuiteRun {
    SuiteRun(const suite::Suite& s, const TransportFactory& f, boost::asio::any_io_executor ex)
        : suite(&s), factory(&f), executor(std::move(ex)) {}

    const suite::Suite* suite;
    // What the suite's binding gave its steps besides their requests (a
    // pack instance's; null or empty: every step as written).
    const binding::BoundSteps* bound = nullptr;
    const TransportFactory* factory;
    boost::asio::any_io_executor executor;
    transport::Options transport_options;
    // One transport per registry name ("http", "grpc", ...), made on first use.
    std::map<std::string, std::unique_ptr<transport::Transport>, std::less<>> transports;
    bool started = false;  // setup ran: teardown and cleanup are due
    // After an interrupt: the cleanup sends no delete past this point.
    std::optional<std::chrono::steady_clock::time_point> cleanup_deadline;
    Scope scope;
    // What the suite's transports can tell before anything is sent (a value
    // that cannot be encoded in its typed field): set at suite start, asked
    // by the case expansion.
    std::shared_ptr<const SendCheck> send_check;
    steps::Env env;
    transport::KafkaOptions kafka;  // target.kafka, interpolated at suite start
    std::set<std::string> seen_ids;                       // for `unique` id checks
    std::map<std::string, std::set<int>> field_versions;  // scan: UUID versions per field
    // One creation the cleanup must undo (binding/deletion.hpp).
    using Created = binding::Created;
    // An entity the profile says the API cannot delete, left behind by the
    // cleanup: why (the profile's reason and line) and its id.
    struct LeftBehind {
        std::string why;
        std::string id;
    };
    std::vector<LeftBehind> left_behind;  // filled by the cleanup, gathered into the run's notes
    // Entities the cleanup deleted over another transport than the one that
    // made them, per way (Created::across): gathered into the run's notes.
    std::map<std::string, std::size_t> deleted_across;
    // Entities this suite created, one record per creation (not per id), in
    // order: the cleanup deletes them last first.
    std::vector<Created> created;
    binding::LocationBook locations;         // the Location URL each create answered (profile path "{location}")

    // The transport for `name`, made on first use; nullptr for a name the
    // factory does not know.
    [[nodiscard]] transport::Transport* transport_for(const std::string& name);
    // What the binding gave `st` besides its request; null: as written.
    [[nodiscard]] const binding::StepBinding* bound_of(const suite::Step& st) const {
        return bound ? bound->of(st) : nullptr;
    }
    // Sends one request on its transport (no retries: the engine's loop).
    [[nodiscard]] boost::asio::awaitable<Exchange> send(const Request& req);
    // Closes every transport's pooled connections.
    void shutdown();
};

}  // namespace idconform::runner
