// HTML reporter (cumulative): one self-contained file an auditor can read:
// the verdict and counts, the run's metadata, waivers and baseline, a matrix
// of suite (resource, endpoint or file) x rule with per-outcome counts that
// link to their cases, and every case, with the evidence of each non-passing
// one (rule statement, what was sent, what came back, failed expectations,
// reproduce command), redacted exactly as JUnit is. No network, no external
// file; everything but filtering works without JavaScript. Cases are
// rendered as they finish into a Spool (memory stays flat on 100,000 cases)
// and copied into the file at run_finished, written atomically.
#pragma once

#include "reporters/cumulative_reporter.hpp"
#include "reporters/options.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace idconform::reporters {

class HtmlReporter final : public CumulativeReporter {
public:
    explicit HtmlReporter(std::string path, ReportOptions opts = {});
    ~HtmlReporter() override;

private:
    using Counts = std::array<std::size_t, outcome_count>;
    struct Cell {
        Counts counts{};
        std::string anchor;  // id of the cell's first case
    };
    void render_case(std::string& out, const CaseResult& c, std::size_t suite_index) override;
    void write_report(AtomicFileWriter& out, const RunSummary& run) override;

    std::map<std::string, std::size_t> rule_index_;              // rule -> column
    std::map<std::pair<std::size_t, std::size_t>, Cell> cells_;  // (suite, rule column) -> counts
};

}  // namespace idconform::reporters
