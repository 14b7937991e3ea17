// The audit flags of `run` and `scan`.
#include "cli/audit_cli.hpp"

#include "audit/metadata.hpp"
#include "cli/install_paths.hpp"

namespace idconform::cli {

void AuditCli::add_flags(CLI::App* cmd) {
    cmd->add_option("--waivers", waivers_,
                    "Waivers file (YAML): failures of a rule knowingly accepted until an expiry date are reported as "
                    "waived and do not fail the run");
    cmd->add_flag("--strict-waivers", strict_, "A waiver that covers no failure (stale) fails the run");
    cmd->add_option("--baseline", baseline_,
                    "An earlier JSON report (--json): report new, fixed and still-failing failures per rule");
    cmd->add_option("--fail-on", fail_on_, "any (default): every failure fails the run; new: only failures not in --baseline")
        ->check(CLI::IsMember({"any", "new"}));
}

void AuditCli::add_metadata(std::string name, std::string value) {
    config_.metadata.push_back({std::move(name), std::move(value)});
}

std::vector<std::string> AuditCli::inputs() const {
    std::vector<std::string> out;
    for (const auto* p : {&waivers_, &baseline_})
        if (!p->empty()) out.push_back(*p);
    return out;
}

bool AuditCli::load(std::ostream& err) {
    // the version is the report's own field; the commit says which build it was
    add_metadata("commit", git_commit());
    if (fail_on_ == "new" && baseline_.empty()) {
        err << "idconform: --fail-on new needs --baseline PREVIOUS.json (new compared with what?)\n";
        return false;
    }
    if (!waivers_.empty()) {
        auto w = audit::load_waivers(waivers_);
        if (!w.file) {
            for (const auto& d : w.diagnostics) err << render(d) << '\n';
            err << "idconform: " << w.diagnostics.size() << " error" << (w.diagnostics.size() == 1 ? "" : "s")
                << " in the waivers file; nothing was run\n";
            return false;
        }
        config_.waivers = std::move(*w.file);
        config_.strict_waivers = strict_;
        if (strict_) add_metadata("strict waivers", "yes (a stale waiver fails the run)");
        const auto sha = audit::file_sha256(waivers_);
        add_metadata("waivers", waivers_ + (sha ? " (sha256 " + *sha + ")" : ""));
    }
    if (!baseline_.empty()) {
        auto b = audit::load_baseline(baseline_);
        if (!b.baseline) {
            err << "idconform: " << b.error << '\n';
            return false;
        }
        config_.baseline = std::move(*b.baseline);
        config_.fail_on_new = fail_on_ == "new";
        add_metadata("baseline", baseline_ + (config_.fail_on_new ? " (--fail-on new)" : ""));
    }
    return true;
}

std::unique_ptr<reporters::Reporter> AuditCli::wrap(std::unique_ptr<reporters::MultiReporter> multi) {
    auto stage = std::make_unique<audit::AuditStage>(std::move(multi), std::move(config_));
    stage_ = stage.get();
    return stage;
}

std::size_t AuditCli::waived() const {
    if (stage_ == nullptr) return 0;
    std::size_t n = 0;
    for (const auto& s : stage_->summary().suites) n += s.count(Outcome::waived);
    return n;
}

std::function<bool(const CaseResult&)> AuditCli::failure_counts() const {
    if (stage_ == nullptr || (!stage_->audits())) return {};
    const audit::AuditStage* stage = stage_;
    return [stage](const CaseResult& c) { return stage->fails_run(c); };
}

}  // namespace idconform::cli
