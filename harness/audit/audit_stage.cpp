// The audit stage: waivers and baseline applied to case results on their
// way to the reporters.
#include "audit/audit_stage.hpp"

#include "core/glob.hpp"

#include <algorithm>
#include <cstdio>

namespace idconform::audit {

namespace {

constexpr std::size_t gone_listed = 1000;

std::string day_text(long day) {
    // civil_from_days (Howard Hinnant), for the "expired on" texts of dates
    // computed here; the waivers' own dates are printed as written.
    day += 719468;
    const long era = (day >= 0 ? day : day - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(day - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long y = static_cast<long>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04ld-%02u-%02u", y, m, d);
    return buf;
}

// The rules a case is filed under in the baseline's rows: a finding under
// the rules its failing checks broke (core/result.hpp).
std::vector<std::string> rules_or_none(const CaseResult& c) {
    std::vector<std::string> rules = reported_rules(c);
    if (rules.empty()) rules.emplace_back(no_rule);
    return rules;
}

}  // namespace

AuditStage::AuditStage(std::unique_ptr<reporters::Reporter> inner, AuditConfig cfg)
    : inner_(std::move(inner)), cfg_(std::move(cfg)) {
    if (cfg_.waivers) {
        for (const auto& w : cfg_.waivers->waivers) {
            reporters::WaiverStatus st;
            st.rule = w.rule;
            st.covers = scope_text(w);
            st.owner = w.owner;
            st.reason = w.reason;
            st.expires = w.expires;
            st.position = w.pos.str();
            st.state = w.expires_day < cfg_.today ? "expired" : "active";
            waiver_status_.push_back(std::move(st));
        }
        expired_rules_.resize(waiver_status_.size());
    }
}

void AuditStage::run_started(const reporters::RunInfo& info) {
    if (cfg_.metadata.empty()) return inner_->run_started(info);
    reporters::RunInfo with = info;
    for (const auto& p : cfg_.metadata) with.metadata.push_back(p);
    inner_->run_started(with);
}

void AuditStage::suite_started(const std::string& suite, const std::string& file) {
    SuiteResult s;
    s.name = suite;
    s.file = file;
    suites_.push_back(std::move(s));
    inner_->suite_started(suite, file);
}

const Waiver* AuditStage::active_waiver(const CaseResult& c) const {
    if (!cfg_.waivers) return nullptr;
    for (const auto& w : cfg_.waivers->waivers)
        if (w.expires_day >= cfg_.today && covers(w, c)) return &w;
    return nullptr;
}

bool AuditStage::fails_run(const CaseResult& c) const {
    if (c.outcome != Outcome::failed || active_waiver(c) != nullptr) return false;
    if (cfg_.fail_on_new && cfg_.baseline) return cfg_.baseline->failing.count(case_key(c.suite, c.name)) == 0;
    return true;
}

void AuditStage::apply(CaseResult& c) {
    if (cfg_.waivers && c.outcome == Outcome::failed) {
        const Waiver* chosen = nullptr;
        const auto& ws = cfg_.waivers->waivers;
        for (std::size_t i = 0; i < ws.size(); ++i) {
            if (!covers(ws[i], c)) continue;
            if (ws[i].expires_day < cfg_.today) {
                ++waiver_status_[i].matched_expired;
                for (const auto& r : reported_rules(c))
                    if (glob_match(ws[i].rule, r)) expired_rules_[i].insert(r);
            } else if (chosen == nullptr) {
                chosen = &ws[i];
                ++waiver_status_[i].waived;
            }
        }
        if (chosen != nullptr) {
            c.outcome = Outcome::waived;
            c.properties.push_back({"waiver", chosen->pos.str()});
            if (!c.message.empty()) c.properties.push_back({"waived_message", c.message});
            c.message = "waived until " + chosen->expires + " by " + chosen->owner + ": " + chosen->reason;
        }
    }
    if (cfg_.baseline) {
        auto& failing = cfg_.baseline->failing;
        const auto it = failing.find(case_key(c.suite, c.name));
        const bool was = it != failing.end();
        if (was) seen_.insert(&it->second);
        const char* state = nullptr;
        if (is_finding(c.outcome)) {
            state = was ? "still-failing" : "new";
            for (const auto& r : rules_or_none(c)) {
                auto& row = rows_[r];
                row.rule = r;
                ++(was ? row.still : row.added);
            }
            ++(was ? audit_.still : audit_.added);
        } else if (was && c.outcome == Outcome::passed) {
            state = "fixed";
            for (const auto& r : rules_or_none(c)) {
                auto& row = rows_[r];
                row.rule = r;
                ++row.fixed;
            }
            ++audit_.fixed;
        } else if (was) {
            seen_.erase(&it->second);  // errored or skipped: proves nothing, listed as not run
        }
        if (state != nullptr) c.properties.push_back({"baseline", state});
    }
    if (c.outcome == Outcome::failed) {
        const bool counts = !cfg_.fail_on_new || !cfg_.baseline ||
                            std::any_of(c.properties.begin(), c.properties.end(),
                                        [](const Property& p) { return p.name == "baseline" && p.value == "new"; });
        if (counts) ++failing_;
    }
}

void AuditStage::emit(CaseResult c) {
    if (suites_.empty()) suite_started(c.suite, "");
    suites_.back().count_streamed(c);
    inner_->take_case(std::move(c));
}

void AuditStage::case_finished(const CaseResult& c) {
    CaseResult copy = c;
    apply(copy);
    emit(std::move(copy));
}

void AuditStage::take_case(CaseResult&& c) {
    apply(c);
    emit(std::move(c));
}

void AuditStage::suite_finished(const SuiteResult& s) {
    if (suites_.empty()) suite_started(s.name, s.file);
    SuiteResult& mine = suites_.back();
    mine.seconds = s.seconds;
    mine.timestamp = s.timestamp;
    inner_->suite_finished(mine);
}

void AuditStage::audit_finished(const reporters::AuditSummary& a) { inner_->audit_finished(a); }

// Expired waivers and (with strict_waivers) stale ones are problems of the
// audit itself: they become cases of their own, so every report lists them.
void AuditStage::finish_waivers() {
    if (!cfg_.waivers) return;
    std::vector<CaseResult> cases;
    for (std::size_t i = 0; i < waiver_status_.size(); ++i) {
        auto& st = waiver_status_[i];
        const Waiver& w = cfg_.waivers->waivers[i];
        if (st.state == "active" && st.waived == 0) st.state = "stale";
        if (st.state == "active") continue;
        CaseResult c;
        c.suite = "waivers";
        c.name = "waiver " + w.pos.str() + " (" + w.rule + ")";
        // Filed under the waiver's rule, so every per-rule table and the
        // matrix show it beside the failures it is about: the rule ids of
        // the failures an expired waiver covered, else the rule as written.
        if (!expired_rules_[i].empty()) c.rules.assign(expired_rules_[i].begin(), expired_rules_[i].end());
        else c.rules = {w.rule};
        c.classname = "waivers." + c.rules.front();
        c.pos = w.pos;
        c.properties = {{"waiver", w.pos.str()},        {"waiver.state", st.state},   {"waiver.rule", w.rule},
                        {"waiver.covers", st.covers},   {"waiver.owner", w.owner},    {"waiver.expires", w.expires},
                        {"waiver.reason", w.reason}};
        if (st.state == "expired") {
            if (st.matched_expired > 0) {
                c.outcome = Outcome::failed;
                c.message = "waiver expired after " + w.expires + " (owner " + w.owner + "): it waives nothing, and " +
                            std::to_string(st.matched_expired) + " failure" + (st.matched_expired == 1 ? "" : "s") +
                            " it covers fail the run; renew it or fix them";
            } else {
                // a waiver of nothing: nothing in this run to apply it to
                skip(c, SkipCause::not_applicable,
                     "waiver expired after " + w.expires + " and covers no failure of this run: remove it");
            }
        } else {
            std::string why = "stale waiver: covers no failure of this run (today " + day_text(cfg_.today) +
                              "); remove or narrow it" + (cfg_.strict_waivers ? " (--strict-waivers)" : "");
            if (cfg_.strict_waivers) {
                c.outcome = Outcome::failed;
                c.message = std::move(why);
            } else {
                skip(c, SkipCause::not_applicable, std::move(why));
            }
        }
        if (c.outcome == Outcome::failed) ++failing_;
        cases.push_back(std::move(c));
    }
    if (cases.empty()) return;
    suite_started("waivers", cfg_.waivers->path);
    for (auto& c : cases) emit(std::move(c));
    suites_.back().file = cfg_.waivers->path;
    inner_->suite_finished(suites_.back());
}

void AuditStage::finish_baseline() {
    if (!cfg_.baseline) return;
    for (const auto& [key, e] : cfg_.baseline->failing) {
        if (seen_.count(&e) != 0) continue;
        ++audit_.gone;
        if (audit_.gone_cases.size() < gone_listed) audit_.gone_cases.push_back(e.suite + " \xE2\x80\xBA " + e.name);
    }
    std::sort(audit_.gone_cases.begin(), audit_.gone_cases.end());
    for (auto& [rule, row] : rows_) audit_.baseline.push_back(row);
}

bool AuditStage::run_finished(const RunSummary& run, std::string& error) {
    finish_waivers();
    finish_baseline();
    if (cfg_.waivers) {
        audit_.waivers_file = cfg_.waivers->path;
        audit_.waivers = waiver_status_;
    }
    if (cfg_.baseline) audit_.baseline_file = cfg_.baseline->path;
    audit_.fail_on_new = cfg_.fail_on_new && cfg_.baseline.has_value();
    if (cfg_.audits()) inner_->audit_finished(audit_);
    summary_.suites = suites_;
    summary_.seconds = run.seconds;
    summary_.notes = run.notes;
    summary_.interrupted = run.interrupted;
    summary_.filtered_out = run.filtered_out;
    return inner_->run_finished(summary_, error);
}

}  // namespace idconform::audit
