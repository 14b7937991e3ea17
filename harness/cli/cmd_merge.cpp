// `idconform merge -o OUT.json [--junit OUT.xml] IN.json...`: combines the
// JSON reports of the shards of one run (`run --shard K/N --json`) into the
// report one unsharded run would have written: suites in the unsharded
// order, counts, the console's per-rule table, JUnit testsuites. Refuses
// reports of different idconform versions or of different runs (profile and
// plan digest), a shard given twice and a missing shard.
#include "cli/commands.hpp"
#include "cli/option_values.hpp"
#include "cli/report_flags.hpp"

#include "reporters/atomic_file.hpp"
#include "reporters/console_reporter.hpp"
#include "reporters/json_report_reader.hpp"
#include "reporters/registry.hpp"
#include "runner/shape_findings.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

namespace idconform::cli {

namespace {

std::string shard_name(const reporters::ReadReport& r) {
    return std::to_string(r.info.shard_index) + "/" + std::to_string(r.info.shard_count);
}

// Empty when the reports belong together, else why not.
std::string check_together(const std::vector<reporters::ReadReport>& in) {
    const auto& first = in.front();
    for (const auto& r : in) {
        if (!r.has_run || r.info.plan.empty())
            return r.path + " has no \"run\" object: it was not written by `idconform run --json` of this version";
        if (r.info.shard_count == 0)
            return r.path + " is not a shard report: run each shard with --shard K/N --json FILE";
        if (r.info.tool_version != first.info.tool_version)
            return "the reports come from different idconform versions: " + first.path + " from " +
                   first.info.tool_version + ", " + r.path + " from " + r.info.tool_version +
                   "; run every shard with the same build";
        if (r.info.profile != first.info.profile || r.info.plan != first.info.plan)
            return "the reports come from different runs: " + first.path + " ran profile '" + first.info.profile +
                   "' (plan " + first.info.plan + "), " + r.path + " ran profile '" + r.info.profile + "' (plan " +
                   r.info.plan + "); merge only the shards of one run (same profile, suites and version)";
        if (r.info.shard_count != first.info.shard_count || r.info.total_units != first.info.total_units)
            return "the reports split the run differently: " + first.path + " is shard " + shard_name(first) + ", " +
                   r.path + " is shard " + shard_name(r);
    }
    std::map<std::size_t, std::string> seen;
    for (const auto& r : in) {
        auto [it, fresh] = seen.emplace(r.info.shard_index, r.path);
        if (!fresh) return "shard " + shard_name(r) + " is given twice: " + it->second + " and " + r.path;
    }
    std::string missing;
    for (std::size_t k = 1; k <= first.info.shard_count; ++k)
        if (!seen.count(k)) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
    if (!missing.empty())
        return "shard" + std::string(missing.find(',') == std::string::npos ? " " : "s ") + missing + " of " +
               std::to_string(first.info.shard_count) + " missing: give every shard's report";
    return {};
}

// The exit code of errors, as `run` decides it for one run, from each case's
// error_cause: 3 when a case is in error by the target (transport,
// authentication, a harness limit), else 2 when one is by its suite or an
// input, else 0 (a cleanup error alone, as in `run`). A report written
// before causes were recorded has none: then a preflight suite's error is
// the target's, and a step that sent a request and got an error is too.
int error_exit(const RunSummary& merged, const std::vector<std::size_t>& preflight_units) {
    bool suite_errors = false;
    for (std::size_t u = 0; u < merged.suites.size(); ++u) {
        const bool preflight = std::find(preflight_units.begin(), preflight_units.end(), u) != preflight_units.end();
        for (const auto& c : merged.suites[u].cases) {
            if (c.outcome != Outcome::error) continue;
            ErrorCause cause = c.error_cause;
            if (cause == ErrorCause::none) {
                const bool sent = std::any_of(c.steps.begin(), c.steps.end(), [](const StepRecord& st) {
                    const auto& x = st.exchange;
                    return x.error && (x.error->kind != TransportErrorKind::other || !x.request.url.empty());
                });
                cause = preflight || sent ? ErrorCause::transport : ErrorCause::suite;
            }
            if (target_error(cause)) return exit_transport;
            if (cause != ErrorCause::cleanup) suite_errors = true;
        }
    }
    return suite_errors ? exit_usage : exit_ok;
}

}  // namespace

Runner add_merge(CLI::App& app) {
    struct Opts {
        std::vector<std::string> inputs;
        std::string out, junit;
        std::string color = "auto";
        std::string junit_flavor = "full";
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = app.add_subcommand("merge", "Merge the JSON reports of `run --shard K/N` into one report");
    cmd->add_option("IN.json", o->inputs, "The shards' JSON reports (every shard of one run)")->required();
    cmd->add_option("-o,--output", o->out, "Write the merged JSON report to FILE")->required();
    cmd->add_option("--junit", o->junit, "Also write the merged JUnit XML report to FILE");
    add_junit_flavor_option(cmd, o->junit_flavor);
    add_color_option(cmd, o->color);
    cmd->footer(
        "The merged report equals the report of one unsharded run, case for case (times aside); the console\n"
        "prints the failures and the per-rule table as `run` does.\n"
        "Exit codes: 0 all passed; 1 a contract was broken; 2 usage error, reports that do not belong\n"
        "            together (versions, profiles, shards), or suite errors (cases in error by their suite,\n"
        "            as `run` exits 2) and nothing broken; 3 transport errors and nothing broken.");
    return [o]() -> int {
        if (const std::string why = reporters::output_overwrites_input({o->out, o->junit}, o->inputs); !why.empty()) {
            std::cerr << "idconform merge: " << why << '\n';
            return exit_usage;
        }
        std::vector<reporters::ReadReport> in(o->inputs.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            std::string error;
            if (!reporters::read_json_report(o->inputs[i], in[i], error)) {
                std::cerr << "idconform merge: " << error << '\n';
                return exit_usage;
            }
        }
        if (const std::string why = check_together(in); !why.empty()) {
            std::cerr << "idconform merge: " << why << '\n';
            return exit_usage;
        }
        // Every unit once, in the unsharded order.
        const std::size_t total_units = in.front().info.total_units;
        // Sized by what the reports hold, not by what they claim: every unit
        // of the run is a suite of some shard, so a total above the suites
        // the shards name is a damaged report (checked before allocating).
        std::size_t named = 0;
        for (const auto& r : in) named += r.info.units.size();
        if (total_units > named) {
            std::cerr << "idconform merge: " << in.front().path << " says the run had " << total_units
                      << " suites but the shard reports name only " << named
                      << "; the reports are damaged: give the reports the shards wrote\n";
            return exit_usage;
        }
        std::vector<SuiteResult*> by_unit(total_units, nullptr);
        // Each shard's shape-scan suite (after its units): folded into one,
        // a finding seen by several shards once with the sums.
        std::map<std::string, CaseResult> shape;
        for (auto& r : in) {
            if (r.summary.suites.size() == r.info.units.size() + 1 &&
                r.summary.suites.back().name == runner::shape_scan_suite) {
                for (auto& c : r.summary.suites.back().cases) {
                    auto [it, fresh] = shape.try_emplace(c.name);
                    if (fresh) it->second = std::move(c);
                    else runner::merge_shape_result(it->second, std::move(c));
                }
                r.summary.suites.pop_back();
            }
        }
        for (auto& r : in) {
            if (r.info.units.size() != r.summary.suites.size()) {
                std::cerr << "idconform merge: " << r.path << " names " << r.info.units.size() << " suites but holds "
                          << r.summary.suites.size() << "; the report is damaged\n";
                return exit_usage;
            }
            for (std::size_t i = 0; i < r.info.units.size(); ++i) {
                const std::size_t u = r.info.units[i];
                // A unit every shard runs (the preflight) is kept once: the
                // first shard's result, or the first that did not pass.
                const bool every = std::find(r.info.every_shard.begin(), r.info.every_shard.end(), u) !=
                                   r.info.every_shard.end();
                if (every && u < total_units && by_unit[u]) {
                    const auto clean = [](const SuiteResult& s) {
                        return s.count(Outcome::failed) + s.count(Outcome::error) == 0;
                    };
                    if (clean(*by_unit[u]) && !clean(r.summary.suites[i])) by_unit[u] = &r.summary.suites[i];
                    continue;
                }
                if (u >= total_units || by_unit[u]) {
                    std::cerr << "idconform merge: " << r.path << ": suite number " << u
                              << " is out of range or in two shards; the reports are damaged\n";
                    return exit_usage;
                }
                by_unit[u] = &r.summary.suites[i];
            }
        }
        RunSummary merged;
        for (std::size_t u = 0; u < total_units; ++u) {
            if (!by_unit[u]) {
                std::cerr << "idconform merge: suite number " << u << " of the run is in no shard report\n";
                return exit_usage;
            }
            merged.suites.push_back(std::move(*by_unit[u]));
        }
        if (!shape.empty()) {
            SuiteResult s;
            s.name = std::string(runner::shape_scan_suite);
            for (auto& [name, c] : shape) {
                s.seconds += c.seconds;
                s.cases.push_back(std::move(c));
            }
            merged.suites.push_back(std::move(s));
        }
        // The shards ran side by side: the run took as long as the slowest.
        for (const auto& r : in) merged.seconds = std::max(merged.seconds, r.summary.seconds);
        // One interrupted shard makes the merged run interrupted.
        for (const auto& r : in)
            if (merged.interrupted.empty()) merged.interrupted = r.summary.interrupted;
        // Cases the selection left out, in every shard.
        for (const auto& r : in) merged.filtered_out += r.summary.filtered_out;
        // Each shard's notes (what it left on the target), in shard order.
        for (const auto& r : in)
            for (const auto& n : r.summary.notes) merged.notes.push_back(n);

        reporters::MultiReporter multi;
        const bool tty = ::isatty(STDERR_FILENO) == 1;
        multi.add(std::make_unique<reporters::ConsoleReporter>(std::cerr, false, reporters::color_wanted(tty, color_mode(o->color))));
        // The file reporters through the one registry, as run, scan and lint.
        reporters::ReportOptions file_opts;
        file_opts.junit_flavor = junit_flavor(o->junit_flavor);
        multi.add(reporters::make_file_reporter("json", o->out, file_opts));
        if (!o->junit.empty()) multi.add(reporters::make_file_reporter("junit", o->junit, file_opts));
        reporters::RunInfo info;
        info.tool_version = in.front().info.tool_version;
        info.profile = in.front().info.profile;
        info.plan = in.front().info.plan;
        // The run's metadata (target, profile, commit, options) from the
        // first shard, without its own shard line; then what the merge knows.
        std::string started, finished, paths;
        for (const auto& r : in) {
            if (!r.started.empty() && (started.empty() || r.started < started)) started = r.started;
            if (r.finished > finished) finished = r.finished;
            paths += (paths.empty() ? "" : ", ") + r.path;
        }
        for (const auto& p : in.front().metadata)
            if (p.name != "shard") info.metadata.push_back(p);
        info.metadata.push_back({"merged from", std::to_string(in.size()) + " shards: " + paths});
        if (!started.empty()) info.metadata.push_back({"shards started", started});
        if (!finished.empty()) info.metadata.push_back({"shards finished", finished});
        for (const auto& s : merged.suites) {
            info.suite_files.push_back(s.file);
            info.total_cases += s.cases.size();
        }
        multi.run_started(info);
        for (const auto& s : merged.suites) {
            multi.suite_started(s.name, s.file);
            for (const auto& c : s.cases) multi.case_finished(c);
            multi.suite_finished(s);
        }
        std::string error;
        if (!multi.run_finished(merged, error)) {
            std::cerr << "idconform merge: could not write a report: " << error << '\n';
            return exit_usage;
        }
        if (!merged.interrupted.empty()) return merged.interrupted == "SIGTERM" ? exit_sigterm : exit_sigint;
        if (merged.count(Outcome::failed) > 0) return exit_broken;
        return error_exit(merged, in.front().info.every_shard);
    };
}

}  // namespace idconform::cli
