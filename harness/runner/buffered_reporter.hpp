// What one suite reports, kept until the suites before it are reported:
// with suites side by side (-j N) the reporters still get one suite at a
// time, in the order of the run (engine_suites.cpp). The suite whose turn it
// is reports straight through (go_live), so a run holds in memory only the
// cases of the suites that finished early, never those of the one the
// reports are at: one suite of 100,000 cases at -j 16 is not kept whole.
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
        started_ = true;
        if (live_) live_->suite_started(suite, file);
    }
    void case_finished(const CaseResult& c) override {
        if (live_) live_->case_finished(c);
        else cases_.push_back(c);
    }
    void take_case(CaseResult&& c) override {
        if (live_) live_->take_case(std::move(c));
        else cases_.push_back(std::move(c));
    }
    void suite_finished(const SuiteResult& s) override {
        if (live_) live_->suite_finished(s);
        else result_ = s;
        finished_ = true;
    }

    // From now on every event goes to `out` as it comes; what was kept
    // until now is replayed into it first.
    void go_live(reporters::Reporter& out) {
        if (live_) return;
        if (started_) out.suite_started(name_, file_);
        for (auto& c : cases_) out.take_case(std::move(c));
        cases_.clear();
        cases_.shrink_to_fit();
        if (finished_) out.suite_finished(result_);
        live_ = &out;
    }

private:
    reporters::Reporter* live_ = nullptr;
    std::string name_, file_;
    std::vector<CaseResult> cases_;
    SuiteResult result_;
    bool started_ = false, finished_ = false;
};

}  // namespace idconform::runner
