// `idconform scan FILE...`: checks the identifiers in exported files (NDJSON,
// JSON arrays, CSV): declared id fields/columns and every id-looking value.
// Violations go to stdout as `file:line:col: RULE: ...` (one per line, in
// file order), problems reading a file to stderr; JUnit/JSON reports get one
// testsuite per file and one testcase per (file, rule).
#include "cli/commands.hpp"
#include "cli/option_values.hpp"

#include "cli/audit_cli.hpp"

#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"
#include "scan/scan.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

namespace idconform::cli {

namespace {

// Violations kept per (file, rule) as report evidence; the rest are counted.
constexpr std::size_t kept_per_rule = 100;
// The rules a file is always reported under (a passed testcase when clean).
const std::vector<std::string> base_rules = {"DATA-ID-002", "DATA-ID-003", "DATA-ID-007", "nil-max"};

struct RuleTally {
    std::size_t count = 0;
    std::vector<CheckResult> kept;
};

std::string human_bytes(std::uint64_t b) {
    char buf[32];
    if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1ull << 30));
    else if (b >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
    else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(b));
    return buf;
}

StepRecord scan_step(const std::string& file, const scan::Stats& st) {
    StepRecord rec;
    rec.name = "scan " + file;
    rec.exchange.request.transport = "file";
    rec.exchange.request.method = "SCAN";
    rec.exchange.request.url = file;
    if (st.error) {
        rec.exchange.error = TransportError{TransportErrorKind::protocol, scan::format_error(file, *st.error)};
    } else {
        Response r;
        r.reason = std::to_string(st.records) + " records, " + std::to_string(st.bytes) + " bytes";
        rec.exchange.response = std::move(r);
    }
    return rec;
}

}  // namespace

Runner add_scan(CLI::App& app) {
    struct Opts {
        std::vector<std::string> files, fields, columns;
        std::string format, junit, json_out;
        std::size_t max_violations = 0;
        std::size_t max_line_bytes = 8u << 20;
        unsigned threads = 0;
        bool no_shape = false, quiet = false;
    };
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
    cmd->add_option("--junit", o->junit, "Write a JUnit XML report to FILE (one testsuite per scanned file)");
    cmd->add_option("--json", o->json_out, "Write a JSON report to FILE");
    cmd->add_flag("-q,--quiet", o->quiet, "Print no violation lines (only the summary and errors)");
    audit->add_flags(cmd);
    cmd->footer(
        "Kinds: " + ids::kind_list() + ".\n"
        "Exit codes: 0 no violation; 1 violations found; 2 usage error, or a file unreadable or malformed\n"
        "            (and no violation); 4 internal error.");

    return [o, audit]() -> int {
        std::vector<scan::FieldSpec> json_fields, csv_fields;
        std::string err;
        for (const auto& f : o->fields) {
            scan::FieldSpec s;
            if (!scan::parse_field_spec(f, s, err)) {
                std::cerr << "idconform scan: --field " << err << '\n';
                return exit_usage;
            }
            if (s.name.empty() || s.name[0] != '/') {
                std::cerr << "idconform scan: --field " << f << ": the field is a JSON pointer starting with '/' "
                          << "(e.g. /id=uuidv7); CSV columns are declared with --column\n";
                return exit_usage;
            }
            json_fields.push_back(std::move(s));
        }
        for (const auto& c : o->columns) {
            scan::FieldSpec s;
            if (!scan::parse_field_spec(c, s, err)) {
                std::cerr << "idconform scan: --column " << err << '\n';
                return exit_usage;
            }
            csv_fields.push_back(std::move(s));
        }
        if (json_fields.size() > 64 || csv_fields.size() > 64) {
            std::cerr << "idconform scan: at most 64 declared fields/columns\n";
            return exit_usage;
        }
        std::optional<scan::Format> forced;
        if (!o->format.empty()) forced = scan::format_from_name(o->format);

        if (!audit->load(std::cerr)) return exit_usage;
        auto reporters_out = std::make_unique<reporters::MultiReporter>();
        if (!o->junit.empty()) reporters_out->add(std::make_unique<reporters::JunitReporter>(o->junit));
        if (!o->json_out.empty()) reporters_out->add(std::make_unique<reporters::JsonReporter>(o->json_out));
        // --html and the audit stage (waivers, baseline) in front of them all
        const auto chain = audit->wrap(std::move(reporters_out));
        reporters::Reporter& multi = *chain;
        reporters::RunInfo info;
        info.tool_version = IDCONFORM_VERSION;
        info.suite_files = o->files;
        multi.run_started(info);

        RunSummary summary;
        const auto t_run = std::chrono::steady_clock::now();
        std::size_t total_violations = 0, bad_files = 0;
        std::uint64_t total_bytes = 0, total_records = 0;
        std::map<std::string, std::size_t> per_rule;
        bool stopped = false;
        std::string out_buf;  // violation lines, written in blocks

        for (const auto& file : o->files) {
            const auto t0 = std::chrono::steady_clock::now();
            SuiteResult suite;
            suite.name = file;
            suite.file = file;
            multi.suite_started(file, file);
            auto finish_suite = [&]() {
                suite.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                multi.suite_finished(suite);
                summary.suites.push_back(suite);
            };
            CaseResult read;
            read.suite = file;
            read.name = "read " + file;
            read.classname = file + ".read";
            read.pos = SourcePos{file, 0, 0};
            if (stopped) {
                read.outcome = Outcome::skipped;
                read.message = "not scanned: --max-violations " + std::to_string(o->max_violations) + " reached";
                multi.case_finished(read);
                suite.count_streamed(read.outcome);
                finish_suite();
                continue;
            }
            std::optional<scan::Format> fmt = forced ? forced : scan::format_from_path(file);
            if (!fmt) {
                read.outcome = Outcome::error;
                read.message = file == "-" ? "stdin has no extension: give --format ndjson|json|csv"
                                           : "unknown extension: give --format ndjson|json|csv";
                std::cerr << file << ": error: " << read.message << '\n';
                ++bad_files;
                multi.case_finished(read);
                suite.count_streamed(read.outcome);
                finish_suite();
                continue;
            }
            scan::Options so;
            so.format = *fmt;
            so.fields = *fmt == scan::Format::csv ? csv_fields : json_fields;
            so.shape = !o->no_shape;
            so.max_line_bytes = o->max_line_bytes;
            so.threads = o->threads;

            std::map<std::string, RuleTally> tallies;
            const scan::Stats st = scan::scan_path(file, so, [&](const scan::Violation& v) {
                if (!o->quiet) {
                    out_buf += scan::format_violation(file, v);
                    out_buf += '\n';
                    if (out_buf.size() > (1u << 16)) {
                        std::fwrite(out_buf.data(), 1, out_buf.size(), stdout);
                        out_buf.clear();
                    }
                }
                RuleTally& t = tallies[v.rule];
                if (t.kept.size() < kept_per_rule) t.kept.push_back(scan::to_check(file, v));
                ++t.count;
                ++per_rule[v.rule];
                ++total_violations;
                return o->max_violations == 0 || total_violations < o->max_violations;
            });
            std::fwrite(out_buf.data(), 1, out_buf.size(), stdout);
            std::fflush(stdout);
            out_buf.clear();
            total_bytes += st.bytes;
            total_records += st.records;
            if (st.stopped) stopped = true;

            // the read case: malformed or unreadable files are errors
            read.steps.push_back(scan_step(file, st));
            read.properties.push_back({"format", std::string(scan::to_string(*fmt))});
            if (st.error) {
                read.outcome = Outcome::error;
                read.message = scan::format_error(file, *st.error);
                std::cerr << read.message << '\n';
                ++bad_files;
            } else {
                read.message = std::to_string(st.records) + " records, " + std::to_string(st.bytes) + " bytes";
            }
            multi.case_finished(read);
            suite.count_streamed(read.outcome);

            std::vector<std::string> rules = base_rules;
            for (const auto& [r, t] : tallies)
                if (std::find(rules.begin(), rules.end(), r) == rules.end()) rules.push_back(r);
            for (const auto& rule : rules) {
                CaseResult c;
                c.suite = file;
                c.name = rule;
                c.classname = file + "." + rule;
                c.rules = {rule};
                c.pos = SourcePos{file, 0, 0};
                const auto it = tallies.find(rule);
                if (it != tallies.end()) {
                    RuleTally& t = it->second;
                    const CheckResult& first = t.kept.front();
                    c.outcome = Outcome::failed;
                    c.pos = first.pos;  // CI links the testcase to the first violation's line
                    c.message = std::to_string(t.count) + " violation" + (t.count == 1 ? "" : "s") + " of " + rule +
                                "; first at " + first.pos.str() + ": " + first.what + ": " + first.actual;
                    if (t.count > t.kept.size())
                        c.detail = "the first " + std::to_string(t.kept.size()) + " are listed below; " +
                                   std::to_string(t.count - t.kept.size()) +
                                   " more are in the console output (idconform scan prints every violation)";
                    StepRecord rec = scan_step(file, st);
                    rec.checks = std::move(t.kept);
                    c.steps.push_back(std::move(rec));
                } else if (st.error || st.stopped) {
                    c.outcome = Outcome::skipped;
                    c.message = st.error ? "not checked past " + std::to_string(st.error->line) + ":" +
                                               std::to_string(st.error->column) + ": the file could not be read on"
                                         : "scan stopped: --max-violations " + std::to_string(o->max_violations) + " reached";
                } else {
                    c.message = "no violation in " + std::to_string(st.records) + " records";
                }
                multi.case_finished(c);
                suite.count_streamed(c.outcome);
            }
            finish_suite();
        }
        summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count();
        std::string error;
        if (!multi.run_finished(summary, error)) {
            std::cerr << "idconform: could not write a report: " << error << '\n';
            return exit_usage;
        }
        std::string rules_text;
        for (const auto& [r, n] : per_rule) rules_text += (rules_text.empty() ? "" : ", ") + r + " " + std::to_string(n);
        char secs[32];
        std::snprintf(secs, sizeof secs, "%.2f", summary.seconds);
        std::cerr << (total_violations ? "FAILED" : bad_files ? "ERROR" : "OK") << " scanned " << o->files.size()
                  << " file" << (o->files.size() == 1 ? "" : "s") << " (" << human_bytes(total_bytes) << ", "
                  << total_records << " records) in " << secs << " s: " << total_violations << " violation"
                  << (total_violations == 1 ? "" : "s") << (rules_text.empty() ? "" : " (" + rules_text + ")");
        if (bad_files) std::cerr << "; " << bad_files << " file" << (bad_files == 1 ? "" : "s") << " unreadable or malformed";
        if (stopped) std::cerr << "; stopped at --max-violations " << o->max_violations;
        std::cerr << '\n';
        if (audit->failing() > 0) return exit_broken;  // waived (file, rule) cases do not count
        if (bad_files > 0) return exit_usage;
        return exit_ok;
    };
}

}  // namespace idconform::cli
