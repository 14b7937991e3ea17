// The preflight's verdicts (preflight.hpp).
#include "runner/preflight.hpp"

#include "core/redact.hpp"
#include "runner/auth.hpp"

namespace idconform::runner {

namespace {

constexpr int forbidden = 403;
constexpr int grpc_permission_denied = 7;

bool stops(TransportErrorKind k) {
    return k == TransportErrorKind::unauthenticated || k == TransportErrorKind::resolve ||
           k == TransportErrorKind::connect || k == TransportErrorKind::tls;
}

bool answered_forbidden(const Response& resp) {
    if (resp.status == forbidden) return true;
    const std::string* g = resp.header("grpc-status");
    return g && *g == std::to_string(grpc_permission_denied);
}

bool has_failure(const StepRecord& rec) {
    for (const auto& c : rec.checks)
        if (!c.ok && !c.warning) return true;
    return false;
}

// The suite's step that record `i` of result `r` is the record of: the
// setup's for the setup testcase, else the case's of the same name.
const suite::Step* step_of(const suite::Suite& s, const CaseResult& r, std::size_t i) {
    const std::vector<suite::Step>* steps = nullptr;
    if (r.name == "setup") steps = &s.setup;
    for (const auto& c : s.cases)
        if (!steps && c.name == r.name) steps = &c.steps;
    return steps && i < steps->size() ? &(*steps)[i] : nullptr;
}

}  // namespace

std::optional<std::string> judge_preflight(const suite::Suite& s, CaseResult& r) {
    if (r.outcome == Outcome::error) {
        for (const auto& rec : r.steps)
            if (rec.exchange.error && stops(rec.exchange.error->kind)) return r.message;
        return std::nullopt;
    }
    if (r.outcome != Outcome::failed) return std::nullopt;
    for (std::size_t i = 0; i < r.steps.size(); ++i) {
        const StepRecord& rec = r.steps[i];
        if (!has_failure(rec)) continue;
        const suite::Step* st = step_of(s, r, i);
        if (rec.exchange.response && answered_forbidden(*rec.exchange.response) && st) {
            const std::string& key = step_principal(*st);
            std::string msg = principal_label(s, key.empty() ? "owner" : key) +
                              " is let in but not allowed to do what the checks need: " +
                              std::to_string(rec.exchange.response->status) + " on " + rec.exchange.request.method +
                              " " + redact::redact_url(rec.exchange.request.url) +
                              "; give its credential the permissions (scopes, roles) to create, read, update and "
                              "delete entities of its own";
            if (const std::string hint = credential_hint(s, key); !hint.empty()) msg += " (" + hint + ")";
            set_error(r, ErrorCause::authentication, msg);
            return msg;
        }
        break;
    }
    skip(r, SkipCause::precondition,
         "not checked: " + r.message + " (not a question of credentials: the contract cases judge this answer)");
    return std::nullopt;
}

std::string preflight_stop_note(const std::string& reason, std::size_t suites_not_started) {
    return "the run stopped before any contract case: " + reason + "; " + std::to_string(suites_not_started) +
           " suite" + (suites_not_started == 1 ? "" : "s") + " not started";
}

}  // namespace idconform::runner
