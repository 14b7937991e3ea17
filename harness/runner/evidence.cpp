// Evidence, redaction and failure messages (see evidence.hpp).
#include "runner/evidence.hpp"

#include "core/redact.hpp"

#include "runner/steps/request_parts.hpp"
#include "runner/steps/step.hpp"

#include <algorithm>

namespace idconform::runner {

using steps::iequals;

// "timeout: no answer after 300 ms (GET http://..., 2 attempts)"
std::string describe_transport_error(const Exchange& x) {
    const auto& err = *x.error;
    // Says which principal, which request and what to check already (auth.hpp).
    if (err.kind == TransportErrorKind::unauthenticated) return err.message;
    return std::string(to_string(err.kind)) + ": " + err.message + " (" + x.request.method + " " + x.request.url + ", " +
           std::to_string(x.attempts) + " attempt" + (x.attempts == 1 ? "" : "s") + ")";
}

void add_evidence(StepRecord& rec, steps::Wire wire, const steps::Env& env, const std::set<std::string>& secrets) {
    redact::scrub_step(rec, secrets);
    rec.reproduce = steps::reproduce(wire, rec.exchange.request, env);
}

const CheckResult* first_failure(const std::vector<CheckResult>& checks) {
    for (const auto& c : checks)
        if (!c.ok && !c.warning) return &c;
    return nullptr;
}

std::string failure_message(const CheckResult& c) { return c.what + ": expected " + c.expected + ", got " + c.actual; }

const CheckResult* first_failure(const std::vector<StepRecord>& steps) {
    for (const auto& st : steps)
        for (const auto& c : st.checks)
            if (!c.ok && !c.warning) return &c;
    return nullptr;
}

// The reproduce line of the collected checks: the case's first n requests
// sent again, in order (a run of identical requests, e.g. from `repeat`,
// as one shell loop).
std::string replay_steps(const std::vector<StepRecord>& steps, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j < n && steps[j].reproduce == steps[i].reproduce) ++j;
        if (!steps[i].reproduce.empty()) {
            if (!out.empty()) out += "\n";
            out += j - i == 1 ? steps[i].reproduce
                              : "for i in $(seq " + std::to_string(j - i) + "); do " + steps[i].reproduce + "; echo; done";
        }
        i = j;
    }
    return out;
}

// A passed case keeps what its report shows (request line, status,
// checks) and drops headers, bodies and the reproduce command, so that
// runs of 100,000 cases stay small. Failed and errored cases keep all.
void compact_passed(CaseResult& r) {
    for (auto& st : r.steps) {
        auto& x = st.exchange;
        std::vector<Header>().swap(x.request.headers);
        std::string().swap(x.request.body);
        if (x.response) {
            std::vector<Header>().swap(x.response->headers);
            std::string().swap(x.response->body);
        }
        std::string().swap(st.reproduce);
        for (auto& c : st.checks) {
            if (c.actual.size() > 160) { c.actual.resize(160); c.actual += "..."; c.actual.shrink_to_fit(); }
            if (c.expected.size() > 160) { c.expected.resize(160); c.expected += "..."; c.expected.shrink_to_fit(); }
        }
    }
}

}  // namespace idconform::runner
