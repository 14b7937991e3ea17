// `idconform run`: loads suites (all or nothing), runs them against the
// target and writes the reports. Flags follow Hurl/grpcurl habits.
#include "cli/commands.hpp"
#include "cli/install_paths.hpp"
#include "cli/load_suites.hpp"
#include "cli/option_values.hpp"
#include "cli/dry_run.hpp"
#include "cli/run_plan.hpp"
#include "runner/env_check.hpp"

#include "audit/metadata.hpp"
#include "cli/audit_cli.hpp"
#include "cli/report_flags.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/console_reporter.hpp"
#include "reporters/threaded_reporter.hpp"
#include "profile/profile.hpp"
#include "runner/expansion.hpp"
#include "runner/runner.hpp"
#include "suite/loader.hpp"
#include "transport/transport.hpp"

#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>

namespace idconform::cli {

namespace {

using std::chrono::milliseconds;

struct Opts {
    std::vector<std::string> paths;
    std::string target, packs_dir;
    int concurrency = 1;
    std::string rate_limit, timeout, connect_timeout, clock_skew = "5s";
    int retries = 0;
    std::vector<std::string> tags, exclude_tags, vars;
    std::string filter, base_url;
    int max_failures = 0;
    std::string cacert, cert, key;
    bool insecure = false, verbose = false, no_progress = false, fail_on_warnings = false, location = false;
    bool dry_run = false;
    std::string color = "auto";
    std::size_t body_cap = 1 << 20;
    std::string shard;
    std::string interrupt_cleanup = "30s";
};

// The suites asked for (cli/load_suites.hpp), and what the audit metadata
// says of the profile.
int load_suites(const Opts& o, AuditCli& audit, std::vector<suite::Suite>& suites, LoadedTarget& loaded) {
    const int code = load_suites({o.paths, o.target, o.packs_dir, "run"}, suites, loaded);
    if (code != exit_ok) return code;
    for (const auto& [k, v] : loaded.metadata) audit.add_metadata(k, v);
    return exit_ok;
}

// The runner's options from the command line (--clock-skew given on it wins
// over the profile's); false, with the reason on stderr, on a bad --var.
bool run_options(const Opts& o, std::size_t cmd_clock_skew_given, std::optional<long> profile_skew,
                 runner::RunOptions& ro) {
    ro.concurrency = o.concurrency;
    if (!o.rate_limit.empty()) ro.rate_limit = *parse_rate(o.rate_limit);
    if (!o.timeout.empty()) ro.timeout = parse_duration(o.timeout);
    if (!o.connect_timeout.empty()) ro.connect_timeout = parse_duration(o.connect_timeout);
    ro.clock_skew = *parse_duration(o.clock_skew);
    if (profile_skew && cmd_clock_skew_given == 0) ro.clock_skew = std::chrono::milliseconds(*profile_skew);
    ro.retries = o.retries;
    ro.tags = o.tags;
    ro.exclude_tags = o.exclude_tags;
    ro.filter = o.filter;
    ro.max_failures = o.max_failures;
    ro.handle_signals = true;
    ro.interrupt_cleanup = *parse_duration(o.interrupt_cleanup);
    ro.body_cap = o.body_cap;
    ro.warnings_fail = o.fail_on_warnings;
    ro.follow_redirects = o.location;
    ro.tool_version = IDCONFORM_VERSION;
    if (!o.base_url.empty()) ro.base_url = o.base_url;
    for (const auto& v : o.vars) {
        const auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::cerr << "idconform: --var expects NAME=VALUE, got '" << v << "'\n";
            return false;
        }
        ro.vars.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    }
    ro.tls = {o.cacert, o.cert, o.key, o.insecure};
    if (o.insecure)
        std::cerr << "WARNING: --insecure: TLS certificates are NOT verified; a man in the middle can answer for the target.\n";
    return true;
}

// The other options that change what a run judges or runs, for the reports'
// metadata (an auditor reading the HTML must see them): only when set.
// --var gives names only: a value may be a secret.
void add_verdict_options(const Opts& o, AuditCli& audit) {
    if (!o.shard.empty()) audit.add_metadata("shard", o.shard);
    if (o.max_failures > 0) audit.add_metadata("max failures", std::to_string(o.max_failures) + " (cases after them not run)");
    if (o.location) audit.add_metadata("follow redirects", "yes (--location)");
    if (o.body_cap != (1u << 20)) audit.add_metadata("body cap", std::to_string(o.body_cap) + " bytes");
    if (o.insecure) audit.add_metadata("TLS verification", "off (--insecure)");
    if (!o.vars.empty()) {
        std::string names;
        for (const auto& v : o.vars) names += (names.empty() ? "" : ", ") + v.substr(0, v.find('='));
        audit.add_metadata("variables set", names);
    }
}

// The selection options given, as the user wrote them: "--filter 'X'",
// "--tags a,b", "--exclude-tags c", joined with "and".
std::string selection_text(const Opts& o) {
    std::string out;
    auto add = [&](const std::string& part) { out += (out.empty() ? "" : " and ") + part; };
    if (!o.filter.empty()) add("--filter '" + o.filter + "'");
    if (!o.tags.empty()) add("--tags " + CLI::detail::join(o.tags, ","));
    if (!o.exclude_tags.empty()) add("--exclude-tags " + CLI::detail::join(o.exclude_tags, ","));
    return out;
}

}  // namespace

Runner add_run(CLI::App& app) {
    auto o = std::make_shared<Opts>();
    auto audit = std::make_shared<AuditCli>();
    auto* cmd = app.add_subcommand("run", "Run YAML suites against a target and write reports");
    cmd->add_option("SUITE_OR_DIR", o->paths, "Suite files, or directories of *.yaml suites");
    cmd->add_option("--target", o->target,
                    "Target profile (YAML; - reads it from standard input): run every built-in pack that applies to the API it describes");
    cmd->add_option("--packs-dir", o->packs_dir, "Where the built-in packs are (default: $IDCONFORM_PACKS_DIR, else share/idconform/suites/packs beside the "
                    "executable, else under the install prefix)");
    auto reports = std::make_shared<ReportFlags>();
    reports->add_flags(cmd, {"junit", "json", "html"});
    cmd->add_option("-j,--concurrency", o->concurrency, "Cases run at once (steps of one case stay in order)")
        ->check(CLI::Range(1, 4096));
    cmd->add_option("--rate-limit", o->rate_limit, "At most N requests per second across the run (N/s, N/m)")
        ->check(rate_validator());
    cmd->add_option("--timeout", o->timeout, "Per-request read timeout (e.g. 2s, 500ms; 1ms to 24h)")->check(duration_validator(milliseconds(1)));
    cmd->add_option("--connect-timeout", o->connect_timeout, "Connect (and TLS handshake) timeout (1ms to 24h)")->check(duration_validator(milliseconds(1)));
    cmd->add_option("--retries", o->retries, "Extra attempts after a transport error (never after a broken expectation)")
        ->check(CLI::Range(0, 10));
    cmd->add_option("--tags", o->tags, "Run only cases with one of these tags")->delimiter(',');
    cmd->add_option("--exclude-tags", o->exclude_tags, "Skip cases with one of these tags")->delimiter(',');
    cmd->add_option("--filter", o->filter, "Run only cases whose name matches this glob (* and ?)");
    cmd->add_option("--max-failures", o->max_failures, "Stop starting new cases after N failures that fail the run (waived ones, and with --fail-on new those in the baseline, do not count)")->check(CLI::Range(0, 1 << 30));
    cmd->add_option("--var", o->vars, "Set a suite variable, NAME=VALUE (repeatable)");
    cmd->add_option("--base-url", o->base_url, "Override every suite's target base URL");
    cmd->add_option("--cacert", o->cacert, "CA certificate file for HTTPS (default: system store)");
    cmd->add_option("--cert", o->cert, "Client certificate file (mTLS)");
    cmd->add_option("--key", o->key, "Client private key file (mTLS)");
    cmd->add_flag("-k,--insecure", o->insecure, "Do not verify TLS certificates (prints a warning)");
    cmd->add_option("--clock-skew", o->clock_skew, "Allowed clock difference for minted-id time checks (0 to 24h)")->check(duration_validator(milliseconds(0)));
    cmd->add_option("--interrupt-cleanup", o->interrupt_cleanup, "On SIGINT/SIGTERM, how long the cleanup of what the run created may take before the reports are written (default 30s)")->check(duration_validator(milliseconds(0)));
    cmd->add_option("--body-cap", o->body_cap, "Response bytes kept per exchange; the rest is counted (1 to 1073741824)")
        ->check(count_validator(1, std::uint64_t{1} << 30));
    cmd->add_flag("-L,--location", o->location, "Follow redirects (by default a 3xx is the answer that is checked)");
    cmd->add_flag("--fail-on-warnings", o->fail_on_warnings,
                  "Advisory findings (DATA-ID-005 warnings) fail their case instead of only being reported");
    cmd->add_flag("-v,--verbose", o->verbose, "Print every case and the evidence of failures");
    cmd->add_flag("--no-progress", o->no_progress, "No progress: neither the live line on a terminal nor the line every 10 s in a log");
    add_color_option(cmd, o->color);
    cmd->add_flag("--dry-run,--plan", o->dry_run,
                  "Send nothing: print what the run would do (per suite: target, setup, cases, the endpoints it "
                  "would create at, change and delete at, and how the cleanup deletes)");
    cmd->add_option("--shard", o->shard,
                    "Run shard K of N (K/N): a deterministic 1/N of the suites (a suite file, or a pack x resource, "
                    "with its setup, teardown and cleanup), balanced by cases; combine the --json reports with "
                    "`idconform merge` (docs/ci.md)");
    audit->add_flags(cmd);
    cmd->footer(exit_codes_footer());

    auto* skew_opt = cmd->get_option("--clock-skew");
    auto* shard_opt = cmd->get_option("--shard");
    return [o, audit, reports, skew_opt, shard_opt]() -> int {
        const std::size_t cmd_clock_skew_given = skew_opt->count();
        // `--shard ""` (an unset CI variable) is a mistake, not "no sharding":
        // it would run every suite on every shard.
        if (shard_opt->count() > 0 && o->shard.empty()) {
            std::cerr << "idconform run: --shard is empty; give K/N (shard K of N, e.g. --shard 1/4), or leave "
                         "--shard out to run every suite\n";
            return exit_usage;
        }
        if (o->paths.empty() && o->target.empty()) {
            std::cerr << "idconform run: give suite files/directories, or --target PROFILE.yaml (or both)\n";
            return exit_usage;
        }
        std::vector<suite::Suite> suites;
        LoadedTarget loaded;
        if (const int code = load_suites(*o, *audit, suites, loaded); code != exit_ok) return code;
        const std::optional<long> profile_skew = loaded.clock_skew_ms;
        reporters::RunInfo plan;
        std::string plan_error;
        if (!plan_run(suites, o->shard, loaded.profile_name, loaded.profile_text, plan, plan_error)) {
            std::cerr << "idconform run: --shard " << plan_error << '\n';
            return exit_usage;
        }
        runner::RunOptions ro;
        if (!run_options(*o, cmd_clock_skew_given, profile_skew, ro)) return exit_usage;
        if (!o->paths.empty()) {
            std::string paths;
            for (const auto& p : o->paths) paths += (paths.empty() ? "" : " ") + p;
            audit->add_metadata("suites", paths);
        }
        audit->add_metadata("clock skew", std::to_string(ro.clock_skew.count()) + " ms");
        if (!o->base_url.empty()) audit->add_metadata("base URL override", o->base_url);
        if (!o->filter.empty()) audit->add_metadata("filter", o->filter);
        if (!o->tags.empty()) audit->add_metadata("tags", CLI::detail::join(o->tags, ","));
        if (!o->exclude_tags.empty()) audit->add_metadata("exclude tags", CLI::detail::join(o->exclude_tags, ","));
        if (o->fail_on_warnings) audit->add_metadata("fail on warnings", "yes");
        add_verdict_options(*o, *audit);
        if (const std::string why = reporters::output_overwrites_input(reports->paths(), audit->inputs());
            !why.empty()) {
            std::cerr << "idconform run: " << why << '\n';
            return exit_usage;
        }
        if (!audit->load(std::cerr)) return exit_usage;
        // An unset variable that every request of some suite needs: said once
        // each, before anything is sent.
        const std::vector<Diagnostic> unset = runner::missing_environment(suites, ro);
        if (o->dry_run) {
            const DryRunTotals t = print_dry_run(std::cout, suites, ro);
            for (const auto& d : unset) std::cerr << render(d);
            if (runner::selects(ro) && t.cases == 0) {
                std::cerr << "idconform run: " << selection_text(*o) << " selects none of the " << t.filtered_out
                          << " cases\n";
                return exit_usage;
            }
            return unset.empty() ? exit_ok : exit_usage;
        }
        if (!unset.empty()) {
            for (const auto& d : unset) std::cerr << render(d);
            return exit_usage;
        }

        auto multi = std::make_unique<reporters::MultiReporter>();
        const bool tty = ::isatty(STDERR_FILENO) == 1;
        reporters::ConsoleOptions co;
        co.verbose = o->verbose;
        if (!tty && !o->no_progress) co.progress_every = std::chrono::seconds(10);  // CI logs
        multi->add(std::make_unique<reporters::ConsoleReporter>(std::cerr, tty && !o->no_progress, reporters::color_wanted(tty, color_mode(o->color)), co));
        reports->add_to(*multi);
        // Reports are rendered on a thread of their own, off the runner's.
        reporters::ThreadedReporter threaded(audit->wrap(std::move(multi)));
        ro.failure_counts = audit->failure_counts();  // waived failures do not stop the run either
        PlanReporter reporting(threaded, std::move(plan));

        const runner::RunReport report = runner::run(suites, ro, reporting, transport::registry_factory());
        std::string error;
        if (!reporting.run_finished(report.summary, error)) {
            std::cerr << "idconform: could not write a report: " << error << '\n';
            return exit_usage;
        }
        if (!report.summary.interrupted.empty())  // whatever it found: the verdict is incomplete
            return report.summary.interrupted == "SIGTERM" ? exit_sigterm : exit_sigint;
        if (runner::selects(ro) && report.summary.total() == 0) {
            // Most likely a typo in the pattern: a green run of nothing must not pass for a verdict.
            std::cerr << "idconform run: " << selection_text(*o) << " selects none of the "
                      << report.summary.filtered_out << " cases; "
                      << (report.summary.suites.empty() ? "nothing was run and nothing was created on the target"
                                                        : "no case was run")
                      << '\n';
            return exit_usage;
        }
        if (audit->failing() > 0) return exit_broken;  // waived failures do not count
        if (report.transport_errors > 0) return exit_transport;
        if (report.suite_errors > 0) return exit_usage;
        return exit_ok;
    };
}

}  // namespace idconform::cli
