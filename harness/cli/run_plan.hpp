// The plan of `idconform run`: `--shard K/N` (which loaded suites this
// process runs) and the "run" metadata its JSON report carries for
// `idconform merge` (profile, plan digest, shard, units).
#pragma once

#include "reporters/reporter.hpp"
#include "suite/model.hpp"

#include <memory>
#include <string>
#include <vector>

namespace idconform::cli {

// Fills `extras` (profile, plan; with a shard: index, count, units,
// total_units) and, when `shard_text` is not empty, keeps in `suites` only
// that shard's suites, in load order. False with `error` for a bad K/N.
// The plan digest covers the profile's text as load_suites read it.
[[nodiscard]] bool plan_run(std::vector<suite::Suite>& suites, const std::string& shard_text,
                            const std::string& profile_name, const std::string& profile_text,
                            reporters::RunInfo& extras, std::string& error);

// Forwards every event to `inner`, adding the plan's fields to run_started.
class PlanReporter final : public reporters::Reporter {
public:
    PlanReporter(reporters::Reporter& inner, reporters::RunInfo extras) : inner_(inner), extras_(std::move(extras)) {}
    void run_started(const reporters::RunInfo& info) override;
    void suite_started(const std::string& s, const std::string& f) override { inner_.suite_started(s, f); }
    void case_finished(const CaseResult& c) override { inner_.case_finished(c); }
    void take_case(CaseResult&& c) override { inner_.take_case(std::move(c)); }
    void suite_finished(const SuiteResult& s) override { inner_.suite_finished(s); }
    bool run_finished(const RunSummary& s, std::string& error) override { return inner_.run_finished(s, error); }

private:
    reporters::Reporter& inner_;
    reporters::RunInfo extras_;
};

}  // namespace idconform::cli
