// JUnit XML reporter (cumulative): the Jenkins/Ant JUnit structure that
// Jenkins, GitLab and GitHub test-report actions read. JUnit needs totals in
// the opening tags, so the file is built from the RunSummary and written
// atomically at run_finished. The structure is pinned by
// reporters/schema/junit.xsd.
#pragma once

#include "reporters/options.hpp"
#include "reporters/reporter.hpp"

#include <string>

namespace idconform::reporters {

// The whole JUnit document for a run. timestamp is the run's start
// (ISO-8601); empty leaves the attribute out.
[[nodiscard]] std::string render_junit(const RunSummary& run, const std::string& timestamp,
                                       const ReportOptions& opts = {});

class JunitReporter final : public Reporter {
public:
    explicit JunitReporter(std::string path, ReportOptions opts = {});
    void run_started(const RunInfo& info) override;
    bool run_finished(const RunSummary& run, std::string& error) override;

private:
    std::string path_;
    ReportOptions opts_;
    std::string started_;  // ISO-8601 time of run_started
};

}  // namespace idconform::reporters
