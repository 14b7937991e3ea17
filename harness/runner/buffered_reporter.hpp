// What one suite reports, kept until the suites before it are reported:
// with suites side by side (-j N) the reporters still get one suite at a
// time, in the order of the run (engine_suites.cpp).
#pragma once

#include "reporters/reporter.hpp"

#include <string>
#include <utility>
#include <vector>

namespace idconform::runner {

class BufferedReporter final : public reporters::Reporter {
public:
    void suite_started(const std::string& suite, const std::string& file) override {
        name_ = suite;
        file_ = file;
    }
    void case_finished(const CaseResult& c) override { cases_.push_back(c); }
    void take_case(CaseResult&& c) override { cases_.push_back(std::move(c)); }
    void suite_finished(const SuiteResult& s) override { result_ = s; }

    // Replays the suite into `out` and drops it.
    void replay(reporters::Reporter& out) {
        out.suite_started(name_, file_);
        for (auto& c : cases_) out.take_case(std::move(c));
        cases_.clear();
        out.suite_finished(result_);
    }

private:
    std::string name_, file_;
    std::vector<CaseResult> cases_;
    SuiteResult result_;
};

}  // namespace idconform::runner
