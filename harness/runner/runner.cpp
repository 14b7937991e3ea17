// The runner's entry point: the engine over the transport registry (or a
// given factory) on one io_context thread. The parts: engine.* (suites,
// phases, cases, the step loop), steps/ (one module per step kind),
// expansion.*, evidence.*, cleanup.*, collected.*, suite_setup.*, checks.*.
#include "runner/runner.hpp"

#include "runner/engine.hpp"
#include "runner/expansion.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <exception>

namespace idconform::runner {

namespace asio = boost::asio;

TransportFactory registry_factory() {
    return [](const std::string& name, asio::any_io_executor ex, const transport::Options& o) {
        return transport::make(name, std::move(ex), o);
    };
}

RunReport run(const std::vector<suite::Suite>& suites, const RunOptions& options, reporters::Reporter& reporter) {
    return run(suites, options, reporter, registry_factory());
}

RunReport run(const std::vector<suite::Suite>& suites, const RunOptions& options, reporters::Reporter& reporter,
              const TransportFactory& factory) {
    asio::io_context io(1);
    Engine engine(options, reporter, factory);
    reporters::RunInfo info;
    info.tool_version = options.tool_version;
    for (const auto& s : suites) info.suite_files.push_back(s.file);
    info.total_cases = known_case_count(suites, options);
    reporter.run_started(info);
    std::exception_ptr failure;
    asio::co_spawn(io, engine.run_all(suites), [&failure](std::exception_ptr e) { failure = e; });
    io.run();
    if (failure) std::rethrow_exception(failure);
    return engine.take();
}

}  // namespace idconform::runner
