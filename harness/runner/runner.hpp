// The runner: expands loaded suites into cases (for_each elements become
// cases of their own), runs them concurrently on one Boost.Asio event loop
// (steps of a case in order), with retries for transport errors only, one
// rate limit across all cases, and reports every case in suite order
// whatever the concurrency.
#pragma once

#include "core/result.hpp"
#include "reporters/reporter.hpp"
#include "suite/model.hpp"
#include "transport/transport.hpp"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace idconform::runner {

struct RunOptions {
    int concurrency = 1;
    double rate_limit = 0.0;                         // requests per second across the run; 0 = none
    std::optional<std::chrono::milliseconds> timeout;           // per-request read timeout (overrides suites)
    std::optional<std::chrono::milliseconds> connect_timeout;   // overrides suites
    int retries = 0;                                 // extra attempts after a transport error
    std::chrono::milliseconds retry_backoff{100};    // doubled on each retry
    std::vector<std::string> tags;                   // run only cases having one of these
    std::vector<std::string> exclude_tags;           // skip cases having one of these
    std::string filter;                              // glob on the case name (for_each: "name [element]")
    int max_failures = 0;                            // stop starting cases after N failures; 0 = never
    // Whether a failed case counts toward max_failures: a failure the audit
    // stage will waive (or, with --fail-on new, one already in the baseline)
    // does not fail the run, so it must not stop it either. Called on the
    // runner's thread with the finished case; empty: every failure counts.
    std::function<bool(const CaseResult&)> failure_counts;
    std::chrono::milliseconds clock_skew{5000};
    std::vector<std::pair<std::string, std::string>> vars;  // --var NAME=VALUE, override suite vars
    std::optional<std::string> base_url;             // --base-url, overrides the suites' targets
    transport::TlsOptions tls;                       // CLI TLS options, merged over the suites'
    std::size_t body_cap = 1 << 20;
    bool warnings_fail = false;                      // advisory findings (DATA-ID-005) fail their case
    bool follow_redirects = false;                   // --location: follow 3xx (off: a 3xx is the answer)
    std::string tool_version = "0";
    // SIGINT and SIGTERM (a CI cancel or timeout): on the first, no new case
    // starts, cases in flight stop at their next step, the cleanup deletes
    // what the run created (within interrupt_cleanup), and run() returns a
    // summary marked interrupted; a second signal exits at once (128 + the
    // signal), saying what was left on the target.
    bool handle_signals = false;
    std::chrono::milliseconds interrupt_cleanup{30000};
};

struct RunReport {
    RunSummary summary;
    std::size_t transport_errors = 0;   // cases in error because of the target
    std::size_t suite_errors = 0;       // cases in error because of the suite (undefined variable, ...)
};

// Makes the transport of a registry name for one suite ("http", "grpc",
// "kafka", ...); nullptr for a name it does not know. Called once per suite
// and name, never per request.
using TransportFactory = transport::NamedFactory;

// Runs with the transports `factory` makes: the registry's
// (transport::registry_factory(), given by the CLI, the one part that links
// every transport), or in tests the scripted fake's (transport/fake/).
[[nodiscard]] RunReport run(const std::vector<suite::Suite>& suites, const RunOptions& options,
                            reporters::Reporter& reporter, const TransportFactory& factory);

}  // namespace idconform::runner
