// `idconform scan FILE...`: checks the identifiers in exported files (NDJSON,
// JSON arrays, CSV): declared id fields/columns and every id-looking value.
// Violations go to stdout as `file:line:col: RULE: ...` (one per line, in
// file order), problems reading a file to stderr; JUnit/JSON reports get one
// testsuite per file and one testcase per (file, rule).
#include "cli/commands.hpp"
#include "cli/option_values.hpp"

#include "cli/audit_cli.hpp"

#include "cli/report_flags.hpp"
#include "reporters/atomic_file.hpp"
#include "scan/results.hpp"
#include "scan/scan.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

namespace idconform::cli {

namespace {

struct Opts {
    std::vector<std::string> files, fields, columns;
    std::string format;
    std::size_t max_violations = 0;
    std::size_t max_line_bytes = 8u << 20;
    unsigned threads = 0;
    bool no_shape = false, quiet = false;
};

// --field (JSON pointers) and --column (CSV names) as field specs; false,
// with the reason on stderr, on a bad one.
bool declared_fields(const Opts& o, std::vector<scan::FieldSpec>& json_fields,
                     std::vector<scan::FieldSpec>& csv_fields) {
    std::string err;
    for (const auto& f : o.fields) {
        scan::FieldSpec s;
        if (!scan::parse_field_spec(f, s, err)) {
            std::cerr << "idconform scan: --field " << err << '\n';
            return false;
        }
        if (s.name.empty() || s.name[0] != '/') {
            std::cerr << "idconform scan: --field " << f << ": the field is a JSON pointer starting with '/' "
                      << "(e.g. /id=uuidv7); CSV columns are declared with --column\n";
            return false;
        }
        json_fields.push_back(std::move(s));
    }
    for (const auto& c : o.columns) {
        scan::FieldSpec s;
        if (!scan::parse_field_spec(c, s, err)) {
            std::cerr << "idconform scan: --column " << err << '\n';
            return false;
        }
        csv_fields.push_back(std::move(s));
    }
    if (json_fields.size() > 64 || csv_fields.size() > 64) {
        std::cerr << "idconform scan: at most 64 declared fields/columns\n";
        return false;
    }
    return true;
}

// Scans every file into the reporters, prints the violations and the
// summary line; the exit code.
int run_scan(const Opts& o, AuditCli& audit, const ReportFlags& reports) {
    std::vector<scan::FieldSpec> json_fields, csv_fields;
    if (!declared_fields(o, json_fields, csv_fields)) return exit_usage;
    std::optional<scan::Format> forced;
    if (!o.format.empty()) forced = scan::format_from_name(o.format);

    std::vector<std::string> inputs = audit.inputs();
    inputs.insert(inputs.end(), o.files.begin(), o.files.end());  // the scanned files too
    if (const std::string why = reporters::output_overwrites_input(reports.paths(), inputs); !why.empty()) {
        std::cerr << "idconform scan: " << why << '\n';
        return exit_usage;
    }
    if (!audit.load(std::cerr)) return exit_usage;
    auto reporters_out = std::make_unique<reporters::MultiReporter>();
    reports.add_to(*reporters_out);
    // the audit stage (waivers, baseline) in front of them all
    const auto chain = audit.wrap(std::move(reporters_out));
    reporters::Reporter& multi = *chain;
    reporters::RunInfo info;
    info.tool_version = IDCONFORM_VERSION;
    info.suite_files = o.files;
    multi.run_started(info);

    RunSummary summary;
    const auto t_run = std::chrono::steady_clock::now();
    scan::RunTotals totals;
    totals.files = o.files.size();
    const std::string stop_reason = "scan stopped: --max-violations " + std::to_string(o.max_violations) + " reached";
    std::string out_buf;  // violation lines, written in blocks

    for (const auto& file : o.files) {
        const auto t0 = std::chrono::steady_clock::now();
        SuiteResult suite;
        suite.name = file;
        suite.file = file;
        multi.suite_started(file, file);
        auto report = [&](const CaseResult& c) {
            multi.case_finished(c);
            suite.count_streamed(c);
        };
        auto finish_suite = [&]() {
            suite.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            multi.suite_finished(suite);
            summary.suites.push_back(suite);
        };
        if (totals.stopped) {
            report(
                scan::unscanned_case(file, Outcome::skipped,
                                     "not scanned: --max-violations " + std::to_string(o.max_violations) + " reached"));
            finish_suite();
            continue;
        }
        std::optional<scan::Format> fmt = forced ? forced : scan::format_from_path(file);
        if (!fmt) {
            const CaseResult read =
                scan::unscanned_case(file, Outcome::error,
                                     file == "-" ? "stdin has no extension: give --format ndjson|json|csv"
                                                 : "unknown extension: give --format ndjson|json|csv");
            std::cerr << file << ": error: " << read.message << '\n';
            ++totals.bad_files;
            report(read);
            finish_suite();
            continue;
        }
        scan::Options so;
        so.format = *fmt;
        so.fields = *fmt == scan::Format::csv ? csv_fields : json_fields;
        so.shape = !o.no_shape;
        so.max_line_bytes = o.max_line_bytes;
        so.threads = o.threads;

        scan::FileTally tally(file);
        const scan::Stats st = scan::scan_path(file, so, [&](const scan::Violation& v) {
            if (!o.quiet) {
                out_buf += scan::format_violation(file, v);
                out_buf += '\n';
                if (out_buf.size() > (1u << 16)) {
                    std::fwrite(out_buf.data(), 1, out_buf.size(), stdout);
                    out_buf.clear();
                }
            }
            tally.add(v);
            return o.max_violations == 0 || totals.violations + tally.violations() < o.max_violations;
        });
        std::fwrite(out_buf.data(), 1, out_buf.size(), stdout);
        std::fflush(stdout);
        out_buf.clear();
        totals.add(st, tally);

        const scan::FileCases cases = scan::file_cases(file, *fmt, st, std::move(tally), stop_reason);
        if (st.error) std::cerr << cases.read.message << '\n';
        report(cases.read);
        for (const auto& c : cases.rules) report(c);
        finish_suite();
    }
    summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count();
    std::string error;
    if (!multi.run_finished(summary, error)) {
        std::cerr << "idconform: could not write a report: " << error << '\n';
        return exit_usage;
    }
    std::cerr << totals.summary_line(summary.seconds, o.max_violations) << '\n';
    if (audit.failing() > 0) return exit_broken;  // waived (file, rule) cases do not count
    if (totals.bad_files > 0) return exit_usage;
    return exit_ok;
}

}  // namespace

Runner add_scan(CLI::App& app) {
    auto o = std::make_shared<Opts>();
    auto audit = std::make_shared<AuditCli>();
    auto* cmd = app.add_subcommand("scan", "Check the identifiers in exported files (NDJSON, JSON arrays, CSV)");
    cmd->add_option("FILE", o->files, "Files to scan; '-' reads stdin (needs --format)")->required();
    cmd->add_option("--format", o->format, "ndjson, json or csv (default: from each file's extension)")
        ->check(CLI::IsMember({"ndjson", "jsonl", "json", "csv"}));
    cmd->add_option("--field", o->fields,
                    "Declared id field of NDJSON/JSON records: POINTER=KIND[,nullable], e.g. /id=uuidv7, "
                    "/items/*/owner_id=uuidv7,nullable (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--column", o->columns,
                    "Declared id column of CSV files: NAME=KIND[,nullable], e.g. owner_id=uuidv7 (repeatable)")
        ->allow_extra_args(false);
    cmd->add_flag("--no-shape-scan", o->no_shape, "Check only the declared fields/columns, not every id-looking value");
    cmd->add_option("--max-violations", o->max_violations, "Stop after N violations in all (0: no limit)")
        ->check(count_validator(0, std::uint64_t{1} << 40));
    cmd->add_option("--max-line-bytes", o->max_line_bytes, "NDJSON/CSV: a longer line is an error (default 8 MiB)")
        ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 40));
    cmd->add_option("--threads", o->threads,
                    "Regular NDJSON/CSV files of 32 MiB or more are scanned as two halves on two threads "
                    "(same results); 1: one pass, 0: as many as there are cores (default)")
        ->check(CLI::Range(0u, 2u));
    auto reports = std::make_shared<ReportFlags>();
    reports->add_flags(cmd, {"junit", "json", "html"}, {{"junit", "(one testsuite per scanned file)"}});
    cmd->add_flag("-q,--quiet", o->quiet, "Print no violation lines (only the summary and errors)");
    audit->add_flags(cmd);
    cmd->footer("Kinds: " + ids::kind_list() + ".\n" +
                exit_codes_footer({{exit_ok, "no violation"},
                                   {exit_broken, "violations found"},
                                   {exit_usage, "usage error, or a file unreadable or malformed (and no violation)"},
                                   {exit_internal, "internal error"}}));

    return [o, audit, reports]() -> int { return run_scan(*o, *audit, *reports); };
}

}  // namespace idconform::cli
