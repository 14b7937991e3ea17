// JUnit XML reporter (cumulative): the Jenkins/Ant JUnit structure that
// Jenkins, GitLab and GitHub test-report actions read, in one of two flavors
// (JunitFlavor, reporters/options.hpp). JUnit needs totals in
// the opening tags, so each testcase is rendered when it finishes, kept in a
// scratch file, and the document is assembled and written atomically at
// run_finished: memory stays flat however many cases a run has. The full
// flavor's structure is pinned by reporters/schema/junit.xsd; the strict one
// by the published schemas in tests/published_schemas/junit/.
#pragma once

#include "reporters/cumulative_reporter.hpp"
#include "reporters/options.hpp"

#include <array>
#include <map>
#include <string>
#include <vector>

namespace idconform::reporters {

// A testsuite's cases by their "baseline" property (new, fixed,
// still-failing), in all and per rule ("(no rule)" for a case without one).
struct BaselineCounts {
    std::array<std::size_t, 3> all{};  // new, fixed, still failing
    std::map<std::string, std::array<std::size_t, 3>> rules;
    void add(const CaseResult& c);
};

// What a report writes around its cases, fixed when the run starts.
//
// `file` (full flavor): a path inside the working directory (`root`) is
// written relative to it, as CI annotation actions map it to the checkout;
// a file outside it (the installed packs, /usr/share/idconform/...) is
// replaced by the run's target profile when that is inside it, since the
// profile is the repository's file that asked for the pack's cases (then
// without `line`: the pack's line numbers are not the profile's); else the
// path stays as given.
struct JunitLayout {
    struct File {
        std::string file;  // "" for none
        bool line = true;  // whether the case's line belongs to `file`
    };
    JunitFlavor flavor = JunitFlavor::full;
    std::string root;                  // the working directory (ReportOptions::junit_root)
    std::string profile;               // RunInfo::profile: the --target path, "" without
    std::string target;                // RunInfo::metadata "target": name and base URL, credentials masked
    std::string hostname, timestamp;   // strict testsuites' hostname, and the run's start
    mutable std::map<std::string, File> files{};  // each file's answer, worked out once
};

// Writes what the events reported: suites from suite_started/suite_finished,
// testcases from case_finished (the cases in the RunSummary given to
// run_finished are not read; its `seconds` and notes are).
//
// Every testsuite's properties start with `target` when the run had one
// (the metadata the JSON and HTML reports show, RunInfo::metadata). With
// waivers or a baseline (audit_finished) every testsuite gets
// properties, the testsuite-level <properties> of the Ant structure that
// Jenkins keeps and GitLab and the GitHub actions skip. Waivers: waivers =
// the file, waived = the suite's waived cases (JUnit counts them in
// `skipped`; this is their own count). Baseline: baseline = the file, baseline.new,
// baseline.fixed, baseline.still_failing (this suite's counts, zeros
// included), then per rule with a non-zero count baseline.RULE.new /
// .fixed / .still_failing. The run's totals are their sums.
class JunitReporter final : public CumulativeReporter {
public:
    explicit JunitReporter(std::string path, ReportOptions opts = {});
    ~JunitReporter() override;

private:
    void started(const RunInfo& info) override;
    void render_case(std::string& out, const CaseResult& c, std::size_t suite_index) override;
    void write_report(AtomicFileWriter& out, const RunSummary& run) override;

    JunitLayout layout_;
    std::vector<BaselineCounts> baseline_;  // per suite: its cases by their "baseline" property
};

}  // namespace idconform::reporters
