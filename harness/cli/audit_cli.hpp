// The audit flags shared by `run` and `scan` (--waivers, --strict-waivers,
// --baseline, --fail-on) and what they do to the reporter chain: the audit
// stage (harness/audit/) is put in front of every reporter (--html is a
// report flag, cli/report_flags.hpp). Kept out of cmd_run.cpp and
// cmd_scan.cpp so those stay small.
#pragma once

#include "audit/audit_stage.hpp"
#include "reporters/reporter.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace idconform::cli {

class AuditCli {
public:
    void add_flags(CLI::App* cmd);
    // A metadata line for the reports (target, profile, options...).
    void add_metadata(std::string name, std::string value);
    // Loads the waivers and the baseline; prints diagnostics to err and
    // returns false on a bad file (exit 2).
    [[nodiscard]] bool load(std::ostream& err);
    // The chain the runner feeds: the audit stage in front of multi.
    [[nodiscard]] std::unique_ptr<reporters::Reporter> wrap(std::unique_ptr<reporters::MultiReporter> multi);
    // After wrap(): what the runner counts toward --max-failures (failures
    // that will fail the run: not waived, new with --fail-on new). Empty
    // without waivers or baseline. The stage must outlive the run.
    [[nodiscard]] std::function<bool(const CaseResult&)> failure_counts() const;
    // After run_finished: the failed cases that fail the run (waived ones do
    // not; with --fail-on new only new ones and the waivers' own failures).
    [[nodiscard]] std::size_t failing() const { return stage_ ? stage_->failing() : 0; }
    // After wrap(): whether an active waiver covers this failed case.
    [[nodiscard]] bool waives(const CaseResult& c) const { return stage_ != nullptr && stage_->waives(c); }
    // After run_finished: the failed cases the waivers covered.
    [[nodiscard]] std::size_t waived() const;
    // The files the flags read (--waivers, --baseline; empty ones left out):
    // no report may be written over them.
    [[nodiscard]] std::vector<std::string> inputs() const;

private:
    std::string waivers_, baseline_, fail_on_ = "any";
    bool strict_ = false;
    audit::AuditConfig config_;
    audit::AuditStage* stage_ = nullptr;  // owned by the chain wrap() returned
};

}  // namespace idconform::cli
