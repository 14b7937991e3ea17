// JSON report -> reporter events (see json_replay.hpp), over the one
// streaming reader.
#include "reporters/json_replay.hpp"

#include "reporters/json_report_reader.hpp"

namespace idconform::reporters {

namespace {

class Replay final : public ReportVisitor {
public:
    Replay(Reporter& to, const std::string& path) : to_(to), path_(path) {}

    void head(const ReportHead& h) override {
        RunInfo info = h.info;
        info.total_cases = h.tests;
        if (h.has_run) {
            info.metadata.push_back({"started", h.started});
            for (const auto& p : h.metadata) info.metadata.push_back(p);
            info.metadata.push_back({"finished", h.finished});
        }
        info.metadata.push_back({"rendered from", path_});
        summary.seconds = h.seconds;
        summary.interrupted = h.interrupted;
        summary.filtered_out = h.filtered_out;
        to_.run_started(info);
    }
    void suite_started(const SuiteResult& s) override { to_.suite_started(s.name, s.file); }
    void take_case(CaseResult&& c) override { to_.take_case(std::move(c)); }
    void suite_finished(const SuiteResult& s) override {
        to_.suite_finished(s);
        summary.suites.push_back(s);  // counts only: the cases went to the reporter
    }
    void audit(const AuditSummary& a) override { to_.audit_finished(a); }
    void notes(const std::vector<std::string>& n) override { summary.notes = n; }

    RunSummary summary;

private:
    Reporter& to_;
    const std::string& path_;
};

}  // namespace

bool replay_json_report(const std::string& path, Reporter& to, std::string& error) {
    Replay replay(to, path);
    if (!read_json_report(path, replay, error)) return false;
    return to.run_finished(replay.summary, error);
}

bool replay_json_report_text(std::string_view text, const std::string& path, Reporter& to, std::string& error) {
    Replay replay(to, path);
    if (!read_json_report_text(text, path, replay, error)) return false;
    return to.run_finished(replay.summary, error);
}

}  // namespace idconform::reporters
