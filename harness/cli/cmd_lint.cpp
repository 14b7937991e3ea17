// `idconform lint SPEC...`: the identifier rules checked on machine schemas
// (OpenAPI 3.0/3.1, Swagger 2.0 in YAML or JSON; .proto files and folders).
// Findings go to stdout, one line each (`file:line:col: RULE: pointer: what
// (expected ...)`), problems reading a document to stderr; --json, --sarif
// and --junit write reports. Exit codes as for `scan`.
#include "cli/commands.hpp"

#include "reporters/atomic_file.hpp"
#include "cli/install_paths.hpp"
#include "cli/report_flags.hpp"
#include "schema/lint.hpp"
#include "schema/lint_output.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

namespace idconform::cli {

namespace {

const std::vector<std::string> lint_rules = {"DATA-ID-002", "DATA-ID-003", "DATA-ID-007"};

// One JUnit testsuite per document, a `read` testcase and one testcase per
// rule (as `scan` does for files): CI links a failed rule to its first line.
SuiteResult junit_suite(reporters::Reporter& rep, const schema::LintedSpec& s, double seconds) {
    SuiteResult suite;
    suite.name = s.path;
    suite.file = s.path;
    suite.seconds = seconds;
    rep.suite_started(s.path, s.path);
    CaseResult read;
    read.suite = s.path;
    read.name = "read " + s.path;
    read.classname = s.path + ".read";
    read.pos = SourcePos{s.path, 0, 0};
    if (!s.result.errors.empty()) {
        set_error(read, ErrorCause::input, s.result.errors.front().pos.str() + ": " + s.result.errors.front().title);
        for (const auto& d : s.result.errors) read.detail += render(d) + "\n";
    } else {
        read.message = s.result.format + ", " + std::to_string(s.result.files) + " file" + (s.result.files == 1 ? "" : "s") +
                       ", " + std::to_string(s.result.id_fields) + " id fields";
    }
    rep.case_finished(read);
    suite.count_streamed(read);
    for (const auto& rule : lint_rules) {
        CaseResult c;
        c.suite = s.path;
        c.name = rule;
        c.classname = s.path + "." + rule;
        c.rules = {rule};
        c.pos = SourcePos{s.path, 0, 0};
        StepRecord rec;
        rec.name = "lint " + s.path;
        rec.exchange.request.transport = "file";
        rec.exchange.request.method = "LINT";
        rec.exchange.request.url = s.path;
        std::size_t n = 0;
        for (const auto& f : s.result.findings) {
            if (f.rule != rule) continue;
            if (n++ == 0) {
                c.pos = f.pos;
                c.message = f.pos.str() + ": " + f.pointer + ": " + f.what;
            }
            CheckResult check;
            check.rule = rule;
            check.what = f.pointer;
            check.expected = f.expected;
            check.actual = f.what;
            check.pos = f.pos;
            rec.checks.push_back(std::move(check));
        }
        if (n > 0) {
            c.outcome = Outcome::failed;
            c.message = std::to_string(n) + " finding" + (n == 1 ? "" : "s") + " of " + rule + "; first at " + c.message;
            c.steps.push_back(std::move(rec));
        } else if (!s.result.errors.empty()) {
            skip(c, SkipCause::precondition, "not linted: the document could not be read");
        } else {
            c.message = "no finding in " + std::to_string(s.result.id_fields) + " id fields";
        }
        rep.case_finished(c);
        suite.count_streamed(c);
    }
    rep.suite_finished(suite);
    return suite;
}

}  // namespace

Runner add_lint(CLI::App& app) {
    struct Opts {
        std::vector<std::string> specs;
        std::string json_out, sarif, docs_url;
        bool quiet = false;
    };
    auto o = std::make_shared<Opts>();
    auto* cmd = app.add_subcommand("lint", "Check the id fields of machine schemas (OpenAPI 3.0/3.1, Swagger 2.0, .proto)");
    cmd->add_option("SPEC", o->specs,
                    "OpenAPI/Swagger documents (YAML or JSON; relative $refs are followed), .proto files or folders of them")
        ->required();
    auto reports = std::make_shared<ReportFlags>();
    reports->add_flags(cmd, {"junit", "html"}, {{"junit", "(one testsuite per document, one testcase per rule)"}});
    // not the run report of --json elsewhere: lint's own findings document (lint_output.hpp)
    cmd->add_option("--json", o->json_out, "Write the findings as JSON to FILE");
    cmd->add_option("--sarif", o->sarif, "Write a SARIF 2.1.0 report to FILE (GitHub code scanning, GitLab)");
    cmd->add_option("--docs-url", o->docs_url,
                    "Base URL of the published docs/ folder the SARIF rules link to (helpUri: URL/lint.md#KIND); "
                    "default: the installed docs")
        ->type_name("URL");
    cmd->add_flag("-q,--quiet", o->quiet, "Print no finding lines (only the summary and errors)");
    cmd->footer(
        "Rules: DATA-ID-002 (form, version and variant fixed by the schema), DATA-ID-003 (v4 fields),\n"
        "       DATA-ID-007 (absence is null or an omitted field; required references required).\n" +
        exit_codes_footer({{exit_ok, "no finding"},
                           {exit_broken, "findings"},
                           {exit_usage, "usage error, or a document unreadable or malformed (and no finding)"},
                           {exit_internal, "internal error"}}));

    return [o, reports]() -> int {
        std::vector<schema::LintedSpec> done;
        std::vector<SuiteResult> suites;
        const auto t_run = std::chrono::steady_clock::now();
        // JUnit and HTML are fed the same events
        std::unique_ptr<reporters::MultiReporter> junit;
        if (reports->any()) {
            junit = std::make_unique<reporters::MultiReporter>();
            reports->add_to(*junit);
            reporters::RunInfo info;
            info.tool_version = IDCONFORM_VERSION;
            info.suite_files = o->specs;
            junit->run_started(info);
        }
        std::size_t findings = 0, bad = 0, fields = 0;
        std::map<std::string, std::size_t> per_rule;
        for (const auto& path : o->specs) {
            const auto t0 = std::chrono::steady_clock::now();
            schema::LintedSpec s{path, schema::lint_path(path)};
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            std::string out;
            if (!o->quiet)
                for (const auto& f : s.result.findings) out += schema::format_finding(f) + "\n";
            std::fwrite(out.data(), 1, out.size(), stdout);
            std::fflush(stdout);
            for (const auto& d : s.result.warnings) std::cerr << d.pos.str() << ": warning: " << d.title << '\n';
            for (const auto& d : s.result.errors) std::cerr << render(d);
            if (!s.result.errors.empty()) ++bad;
            findings += s.result.findings.size();
            fields += s.result.id_fields;
            for (const auto& f : s.result.findings) ++per_rule[f.rule];
            if (junit) suites.push_back(junit_suite(*junit, s, secs));
            done.push_back(std::move(s));
        }
        std::string error;
        auto write = [&](const std::string& file, const std::string& text, const char* what) {
            if (file.empty()) return true;
            if (reporters::write_file_atomic(file, text, what, error)) return true;
            std::cerr << "idconform lint: " << error << '\n';
            return false;
        };
        bool wrote = write(o->json_out, schema::lint_json(done, IDCONFORM_VERSION), "JSON report");
        if (!o->sarif.empty()) {
            schema::SarifLinks links;
            links.lint_doc = doc_uri("lint.md", o->docs_url);
            links.tool = links.lint_doc;
            wrote = write(o->sarif, schema::lint_sarif(done, IDCONFORM_VERSION, links), "SARIF report") && wrote;
        }
        if (junit) {
            RunSummary summary;
            summary.suites = std::move(suites);
            summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count();
            if (!junit->run_finished(summary, error)) {
                std::cerr << "idconform lint: could not write a report: " << error << '\n';
                wrote = false;
            }
        }
        std::string rules_text;
        for (const auto& [r, n] : per_rule) rules_text += (rules_text.empty() ? "" : ", ") + r + " " + std::to_string(n);
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_run).count();
        char sbuf[32];
        std::snprintf(sbuf, sizeof sbuf, "%.2f", secs);
        std::cerr << (findings ? "FAILED" : bad ? "ERROR" : "OK") << " linted " << o->specs.size() << " document"
                  << (o->specs.size() == 1 ? "" : "s") << " (" << fields << " id fields) in " << sbuf << " s: " << findings
                  << " finding" << (findings == 1 ? "" : "s") << (rules_text.empty() ? "" : " (" + rules_text + ")");
        if (bad) std::cerr << "; " << bad << " document" << (bad == 1 ? "" : "s") << " unreadable or malformed";
        std::cerr << '\n';
        if (!wrote) return exit_usage;
        if (findings > 0) return exit_broken;
        if (bad > 0) return exit_usage;
        return exit_ok;
    };
}

}  // namespace idconform::cli
