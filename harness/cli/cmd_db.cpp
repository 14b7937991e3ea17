// `idconform db CONNINFO`: audits a database's id columns, keys and stored
// values (harness/db/). Findings go to stdout as `OBJECT: RULE: ...` lines,
// problems (unreachable, refused, a privilege missing) to stderr, each said
// once; JUnit/JSON/HTML reports get one testsuite "db NAME" with a case per
// (object, check, rule), through the audit stage (waivers, baseline). The
// connection string is shown with its password masked, everywhere.
#include "cli/commands.hpp"
#include "cli/option_values.hpp"

#include "cli/audit_cli.hpp"
#include "cli/db_target.hpp"
#include "cli/report_flags.hpp"
#include "db/audit.hpp"
#include "db/config.hpp"
#include "db/conninfo.hpp"
#include "db/pg_reader.hpp"
#include "db/sarif_report.hpp"
#include "ids/ids.hpp"
#include "reporters/atomic_file.hpp"

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

namespace idconform::cli {

namespace {

struct Opts {
    std::string conninfo, config, target;
    std::vector<std::string> schemas;
    std::uint64_t max_rows = 0;
    int connect_timeout = 10, statement_timeout = 300;
    std::string clock_skew = "5s", salt_env, sarif;
    bool quiet = false;
};

std::string plural(std::uint64_t n, const std::string& one) {
    return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

// "FAILED audited db (PostgreSQL 15.18): 4 tables, 9 columns read (1200 values) in 0.05 s: 3 failed checks
// (R1 1, ...), 1 of them waived".
struct Counts {
    std::size_t failed = 0;   // failed checks, waived ones included
    std::size_t failing = 0;  // of them, those that fail the run (not waived, new with --fail-on new)
    std::size_t waived = 0;
    std::size_t errors = 0;
};

// Waived failures are counted among the failed checks and said after them;
// the status word follows the failures that fail the run.
std::string summary_line(const db::AuditOutcome& a, const std::map<std::string, std::size_t>& per_rule,
                         const Counts& n, double seconds) {
    const std::size_t failed = n.failed, errors = n.errors;
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", seconds);
    std::string rules;
    for (const auto& [r, k] : per_rule) rules += (rules.empty() ? "" : ", ") + r + " " + std::to_string(k);
    std::string s = n.failing ? "FAILED" : errors ? "ERROR" : "OK";
    s += " audited " + a.catalog.database + " (" + a.catalog.system + "): " + plural(a.catalog.tables.size(), "table") +
         ", " + plural(a.columns_read, "column") + " read (" + plural(a.values_read, "value") + ") in " + secs +
         " s: " + std::to_string(failed) + " failed check" + (failed == 1 ? "" : "s");
    if (!rules.empty()) s += " (" + rules + ")";
    if (n.waived) s += ", " + std::to_string(n.waived) + " of them waived";
    if (errors) s += "; " + std::to_string(errors) + " not checked (errors above)";
    return s;
}

int run_db(const Opts& o, AuditCli& audit, const ReportFlags& reports) {
    const std::string shown = db::redact_conninfo(o.conninfo);
    if (const std::string why = db::conninfo_error(o.conninfo); !why.empty()) {
        std::cerr << "idconform db: the connection string cannot be read: " << why << '\n';
        return exit_usage;
    }
    db::Config config;
    if (!o.config.empty()) {
        db::ConfigLoad load = db::load_config(o.config);
        if (!load.config) {
            for (const auto& d : load.diagnostics) std::cerr << render(d) << '\n';
            return exit_usage;
        }
        config = std::move(*load.config);
    }
    if (!o.target.empty()) {
        profile::LoadResult load = profile::load_profile(o.target);
        if (!load.profile) {
            for (const auto& d : load.diagnostics) std::cerr << render(d) << '\n';
            return exit_usage;
        }
        const TargetColumns tc = db_columns_of(*load.profile);
        add_declared(config, tc.columns);
        for (const auto& n : tc.notes) std::cerr << "idconform db: " << n << '\n';
    }
    for (const auto& s : o.schemas) config.schemas.push_back(s);

    std::vector<std::string> inputs = audit.inputs();
    if (!o.config.empty()) inputs.push_back(o.config);
    if (!o.target.empty()) inputs.push_back(o.target);
    std::vector<std::string> outputs = reports.paths();
    if (!o.sarif.empty()) outputs.push_back(o.sarif);
    if (const std::string why = reporters::output_overwrites_input(outputs, inputs); !why.empty()) {
        std::cerr << "idconform db: " << why << '\n';
        return exit_usage;
    }
    if (!audit.load(std::cerr)) return exit_usage;
    audit.add_metadata("target", shown);
    auto reporters_out = std::make_unique<reporters::MultiReporter>();
    reports.add_to(*reporters_out);
    if (!o.sarif.empty()) reporters_out->add(std::make_unique<db::SarifReporter>(o.sarif, IDCONFORM_VERSION));
    const auto chain = audit.wrap(std::move(reporters_out));
    reporters::Reporter& multi = *chain;
    reporters::RunInfo info;
    info.tool_version = IDCONFORM_VERSION;
    info.suite_files = {shown};
    multi.run_started(info);
    const auto t0 = std::chrono::steady_clock::now();

    db::ReadError connect_error;
    db::PgOptions po{o.conninfo, o.connect_timeout, o.statement_timeout};
    auto reader = db::PgReader::connect(po, connect_error);
    db::AuditOutcome outcome;
    db::AuditOptions ao;
    ao.max_rows = o.max_rows;
    ao.now_ms = ids::system_unix_ms();
    ao.clock_skew_ms = parse_duration(o.clock_skew)->count();
    if (!o.salt_env.empty()) {
        if (const char* v = std::getenv(o.salt_env.c_str()); v && *v) ao.legacy_salt = std::string(v);
        else
            std::cerr << "idconform db: --legacy-salt-env " << o.salt_env
                      << " is not set: legacy hashes are not checked\n";
    }
    if (reader) outcome = db::audit(*reader, config, ao);
    const std::optional<db::ReadError> fatal = reader ? outcome.fatal : std::optional<db::ReadError>(connect_error);
    const std::string suite_name = outcome.catalog.database.empty() ? "db" : "db " + outcome.catalog.database;

    SuiteResult suite;
    suite.name = suite_name;
    // no file: the connection is the connect case's property and the run's
    // metadata (a JUnit `file` attribute is a path CI links to)
    multi.suite_started(suite_name, "");
    auto report = [&](const CaseResult& c) {
        multi.case_finished(c);
        suite.count_streamed(c);
    };
    // the connection (and catalog) case: an unreachable server is said here, once
    const bool catalog_failed = reader && outcome.fatal && outcome.catalog.tables.empty() && outcome.findings.empty();
    const std::optional<db::ReadError> connect_problem = reader && !catalog_failed ? std::nullopt : fatal;
    report(db::connect_case(suite_name, shown, reader ? reader->server_version() : "", connect_problem));
    if (connect_problem) std::cerr << "idconform db: " << shown << ": " << connect_problem->message << '\n';

    std::map<std::string, std::size_t> per_rule;
    std::size_t failed = 0, errors = 0;
    bool target_problem = connect_problem.has_value(), input_problem = false;
    std::string out_buf;
    for (const auto& f : outcome.findings) {
        const CaseResult c = db::case_of(f, suite_name);
        const bool waived = audit.waives(c);
        report(c);
        if (f.verdict == db::Verdict::failed) {
            ++failed;
            ++per_rule[f.rule];
        }
        if (f.verdict == db::Verdict::error) {
            ++errors;
            if (target_error(db::error_cause_of(f.error_kind))) target_problem = true;
            else input_problem = true;
            std::cerr << db::finding_line(f) << '\n';
            continue;
        }
        if (f.verdict != db::Verdict::passed && !o.quiet)
            out_buf += db::finding_line(f) + (waived ? " [waived]\n" : "\n");
    }
    std::fwrite(out_buf.data(), 1, out_buf.size(), stdout);
    std::fflush(stdout);
    suite.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    multi.suite_finished(suite);
    RunSummary summary;
    summary.suites.push_back(suite);
    summary.seconds = suite.seconds;
    std::string error;
    if (!multi.run_finished(summary, error)) {
        std::cerr << "idconform: could not write a report: " << error << '\n';
        return exit_usage;
    }
    if (connect_problem) return exit_transport;
    std::cerr << summary_line(outcome, per_rule, {failed, audit.failing(), audit.waived(), errors}, summary.seconds)
              << '\n';
    if (audit.failing() > 0) return exit_broken;  // waived cases do not count
    if (target_problem) return exit_transport;
    if (input_problem) return exit_usage;
    return exit_ok;
}

}  // namespace

Runner add_db(CLI::App& app) {
    auto o = std::make_shared<Opts>();
    auto audit = std::make_shared<AuditCli>();
    auto* cmd =
        app.add_subcommand("db", "Audit a database's id columns, keys and stored values (PostgreSQL, read-only)");
    cmd->add_option("CONNINFO", o->conninfo,
                    "libpq connection string or URI (host=/tmp port=5432 dbname=shop user=auditor, or "
                    "postgresql://auditor@host/shop); the password from PGPASSWORD or a password file (PGPASSFILE), "
                    "never printed")
        ->required();
    cmd->add_option("--config", o->config,
                    "YAML file declaring id columns and kinds (columns:), their references, schemas: and "
                    "r1_exceptions: (see README)");
    cmd->add_option("--target", o->target,
                    "A target profile whose resources name their table (stored_in:): their ids, fields, references "
                    "and viewable ids are declared columns of their kinds (--config declarations win)");
    cmd->add_option("--schema", o->schemas,
                    "Audit only this schema (repeatable; default: every schema but the system's)")
        ->allow_extra_args(false);
    cmd->add_option("--max-rows", o->max_rows, "Read at most N rows of each column (0: every row, the default)")
        ->check(count_validator(0, std::uint64_t{1} << 40));
    cmd->add_option("--connect-timeout", o->connect_timeout, "Seconds to wait for the server to answer (default 10)")
        ->check(CLI::Range(1, 3600));
    cmd->add_option("--statement-timeout", o->statement_timeout,
                    "Seconds any one query may take, the catalog's or a column's (default 300)")
        ->check(CLI::Range(1, 86400));
    cmd->add_option("--clock-skew", o->clock_skew,
                    "How far a stored v7 timestamp may lie after this machine's clock (0 to 24h; default 5s)")
        ->check(duration_validator(std::chrono::milliseconds(0)));
    cmd->add_option(
        "--legacy-salt-env", o->salt_env,
        "uuidv8-legacy columns: the environment variable holding the salt their hash bits are verified with");
    auto reports = std::make_shared<ReportFlags>();
    reports->add_flags(cmd, {"junit", "json", "html"}, {{"junit", "(one testsuite per database)"}});
    cmd->add_option("--sarif", o->sarif,
                    "Write a SARIF 2.1.0 report to FILE (GitHub code scanning, GitLab): logical locations "
                    "schema.table.column, waived findings suppressed");
    cmd->add_flag("-q,--quiet", o->quiet, "Print no finding lines (only the summary and errors)");
    audit->add_flags(cmd);
    cmd->footer(exit_codes_footer(
        {{exit_ok, "no failed check"},
         {exit_broken, "a check failed"},
         {exit_usage, "usage error, a config that does not load or that names a column the database lacks"},
         {exit_transport,
          "the server unreachable, the login refused, a privilege missing or a table gone: said once, "
          "and nothing failed"},
         {exit_internal, "internal error"}}));
    return [o, audit, reports]() -> int { return run_db(*o, *audit, *reports); };
}

}  // namespace idconform::cli
