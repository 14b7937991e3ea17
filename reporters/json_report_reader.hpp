// The one reader of JSON reports (JsonReporter's format, reporters/README.md):
// streaming, so memory does not grow with the number of cases. The file is
// read in 64 KiB chunks by Boost.JSON's SAX parser; only one case at a time
// is built (as a JSON value, then a CaseResult) and handed to a visitor.
// Used by `idconform report` (json_replay.hpp: the events of a reporter),
// `--baseline` (harness/audit/baseline.cpp: the failing cases' keys) and
// `idconform merge` (read_json_report into a ReadReport: it needs every
// shard whole to put the suites in the unsharded order).
#pragma once

#include "reporters/reporter.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace idconform::reporters {

// What a report says before its first suite: "tool", "version", "run",
// "summary" (JsonReporter writes them in that order, before "suites").
struct ReportHead {
    RunInfo info;          // tool_version; from "run": profile, plan, shard fields
    bool has_run = false;  // the report had a "run" object
    std::string started, finished;   // "run" "started"/"finished" ("" when absent)
    std::vector<Property> metadata;  // "run" "metadata", in order
    double seconds = 0;    // "summary" "time"
    std::size_t tests = 0; // "summary" "tests"
    std::string interrupted;  // "summary" "interrupted" ("" for a run that ran to its end)
    std::size_t filtered_out = 0;  // "summary" "filtered_out" (cases the selection left out)
};

// Receives a report in document order. A reader that fails part-way (a
// damaged or cut file) has already called some of these: act on a report
// only once read_json_report returned true.
class ReportVisitor {
public:
    virtual ~ReportVisitor() = default;
    virtual void head(const ReportHead&) {}
    // name, file, time and timestamp (no cases), when its first case or its
    // end is reached
    virtual void suite_started(const SuiteResult&) {}
    virtual void take_case(CaseResult&&) {}
    // the suite again, with its per-outcome counts in `streamed`
    virtual void suite_finished(const SuiteResult&) {}
    // the "audit" member (after the suites), once the document has ended
    virtual void audit(const AuditSummary&) {}
    // the "notes" member (after the suites: what the run left on the target
    // and why), once the document has ended; not called without notes
    virtual void notes(const std::vector<std::string>&) {}
};

struct ReadOptions {
    // Build only a case's name, classname, rules, outcome, message and
    // properties (no steps, detail or checks): what a baseline needs.
    bool case_outline_only = false;
    // Bytes handed to the parser at a time (a file is read this much at a
    // time; a text is cut into pieces this long). Tests use tiny ones so
    // that keys, strings and numbers are split across pieces.
    std::size_t chunk = 64 * 1024;
};

// False with `error` when the file cannot be read, is not JSON, is not an
// idconform report, or its parts are out of order or of the wrong type:
// "PATH:LINE:COL: why; hint" (1-based, where the reader stopped).
[[nodiscard]] bool read_json_report(const std::string& path, ReportVisitor& to, std::string& error,
                                    ReadOptions opts = {});
[[nodiscard]] bool read_json_report_text(std::string_view text, const std::string& path, ReportVisitor& to,
                                         std::string& error, ReadOptions opts = {});

// A whole report in memory (what `idconform merge` needs of each shard).
struct ReadReport {
    std::string path;
    RunInfo info;          // tool_version, profile, plan, shard fields
    bool has_run = false;  // the report had a "run" object
    RunSummary summary;    // suites with their cases kept; seconds from "summary"
    std::optional<AuditSummary> audit;
    std::string started, finished;   // "run" "started"/"finished"
    std::vector<Property> metadata;  // "run" "metadata"
};
[[nodiscard]] bool read_json_report(const std::string& path, ReadReport& out, std::string& error);

}  // namespace idconform::reporters
