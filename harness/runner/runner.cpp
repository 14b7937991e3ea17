// The runner's entry point: the engine over the transports of a given
// factory on one io_context thread. The parts: engine.* (suites,
// phases, cases, the step loop), steps/ (one module per step kind),
// expansion.*, evidence.*, cleanup.*, collected.*, suite_setup.*, checks.*.
#include "runner/runner.hpp"

#include "runner/engine.hpp"
#include "runner/expansion.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>

namespace idconform::runner {

namespace asio = boost::asio;

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
    // SIGINT/SIGTERM are handled on the runner's thread (asio::signal_set):
    // the first stops the run in good order, a second exits at once.
    std::optional<asio::signal_set> signals;
    std::function<void(const boost::system::error_code&, int)> on_signal;
    on_signal = [&](const boost::system::error_code& ec, int signo) {
        if (ec) return;  // cancelled: the run is over
        if (!engine.interrupted()) {
            std::fprintf(stderr,
                         "idconform: %s: stopping: no new case starts; deleting what this run created "
                         "(at most %lld s; a second signal exits at once)\n",
                         signo == SIGTERM ? "SIGTERM" : "SIGINT",
                         static_cast<long long>(options.interrupt_cleanup.count() / 1000));
            engine.interrupt(signo);
            signals->async_wait(on_signal);
            return;
        }
        const auto left = engine.left_on_target();
        std::fprintf(stderr,
                     "idconform: second signal: exiting now, without reports; %zu entit%s this run created "
                     "may remain on the target%s\n",
                     left.size(), left.size() == 1 ? "y" : "ies", left.empty() ? "" : ":");
        for (const auto& l : left) std::fprintf(stderr, "  %s\n", l.c_str());
        std::fflush(stderr);
        std::_Exit(128 + signo);
    };
    if (options.handle_signals) {
        signals.emplace(io, SIGINT, SIGTERM);
        signals->async_wait(on_signal);
    }
    asio::co_spawn(io, engine.run_all(suites), [&failure, &signals](std::exception_ptr e) {
        failure = e;
        if (signals) signals->cancel();
    });
    io.run();
    if (failure) std::rethrow_exception(failure);
    return engine.take();
}

}  // namespace idconform::runner
