// The base of the reporters that write their document at the end (see
// cumulative_reporter.hpp).
#include "reporters/cumulative_reporter.hpp"

#include "reporters/text.hpp"

#include <exception>

namespace idconform::reporters {

CumulativeReporter::CumulativeReporter(std::string path, ReportOptions opts, std::string kind)
    : path_(std::move(path)), opts_(std::move(opts)), kind_(std::move(kind)) {}

CumulativeReporter::~CumulativeReporter() = default;

void CumulativeReporter::run_started(const RunInfo& info) {
    info_ = info;
    started_ = iso8601_utc(Clock::now());
    started(info_);
}

void CumulativeReporter::suite_started(const std::string& suite, const std::string& file) {
    SuiteEntry e;
    e.suite.name = suite;
    e.suite.file = file;
    e.begin = e.end = spool_.size();
    suites_.push_back(std::move(e));
}

void CumulativeReporter::case_finished(const CaseResult& c) {
    if (suites_.empty()) suite_started(c.suite, "");  // a case outside any suite still counts
    try {
        scratch_.clear();
        render_case(scratch_, c, suites_.size() - 1);
        spool_.append(scratch_);
    } catch (const std::exception& ex) {  // allocation failure: reported at run_finished
        if (error_.empty()) error_ = "cannot build " + kind_ + " report: " + ex.what();
    }
    SuiteEntry& e = suites_.back();
    e.end = spool_.size();
    e.suite.count_streamed(c);
}

void CumulativeReporter::suite_finished(const SuiteResult& s) {
    if (suites_.empty()) return;
    SuiteEntry& e = suites_.back();
    e.suite.seconds = s.seconds;
    e.suite.timestamp = s.timestamp;
}

void CumulativeReporter::audit_finished(const AuditSummary& a) { audit_ = a; }

std::array<std::size_t, outcome_count> CumulativeReporter::totals() const noexcept {
    std::array<std::size_t, outcome_count> n{};
    for (const auto& e : suites_)
        for (std::size_t o = 0; o < outcome_count; ++o) n[o] += e.suite.streamed[o];
    return n;
}

void CumulativeReporter::copy_cases(std::size_t i, AtomicFileWriter& out) {
    if (!spool_.copy_to(suites_[i].begin, suites_[i].end, out))
        throw ReportError("cannot write " + kind_ + " report '" + path_ + "': " + spool_.error());
}

bool CumulativeReporter::run_finished(const RunSummary& run, std::string& error) {
    if (!error_.empty()) {
        error = error_;
        return false;
    }
    if (!spool_.error().empty()) {
        error = "cannot write " + kind_ + " report '" + path_ + "': " + spool_.error();
        return false;
    }
    AtomicFileWriter out(path_, kind_ + " report");
    try {
        write_report(out, run);
    } catch (const ReportError& e) {
        error = e.what();
        return false;
    } catch (const std::exception& e) {  // allocation failure: report, do not cross the boundary
        error = "cannot build " + kind_ + " report: " + e.what();
        return false;
    }
    return out.commit(error);
}

}  // namespace idconform::reporters
