// What a suite created and must delete: the record a step with `cleanup:`
// leaves (register_created, booked by the resource's binding) and the
// deletes at the end of the suite (cleanup_created: their order, sending
// and report). Only what this run created is ever deleted.
#pragma once

#include "binding/deletion.hpp"
#include "core/result.hpp"
#include "runner/body_json.hpp"
#include "runner/rate_limiter.hpp"
#include "runner/scope.hpp"
#include "runner/slots.hpp"
#include "runner/steps/env.hpp"
#include "runner/suite_run.hpp"
#include "suite/model.hpp"

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace idconform::runner {

// The suite run's ledger of what it created (binding/deletion.hpp).
[[nodiscard]] inline binding::Ledger ledger_of(SuiteRun& run) {
    return {run.created, run.locations, run.env.base_url, run.env.grpc_url};
}

using binding::delete_key;

// A request `key` (delete_key) was answered 2xx: every creation recorded so
// far under that key is deleted. Creations recorded later (a server that
// hands a deleted id to the next create) are not: they are other entities.
inline void note_deleted(SuiteRun& run, const std::string& key) { binding::note_deleted(run.created, key); }

// Records an entity `st`, a step with a `cleanup`, created so that the end
// of the suite deletes it, unless a DELETE already did
// (binding::book_created): as the profile's binding deletes it when the
// suite's binding gave the step a deletion, else as the cleanup is written;
// with the target's and the step principal's headers, sent in place of a
// create-only header that replaced one of theirs.
void register_created(SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x, BodyJson& body,
                      const Scope& scope, const std::string& step_name);

// A PUT/PATCH at a created entity's URL (over gRPC: another method of the
// same target whose message holds the entity's id) answered 2xx with another
// id at its id_at: the entity was re-keyed (a defect), so the cleanup deletes
// it under the id it has now.
inline void follow_rekey(SuiteRun& run, steps::Wire wire, const Request& req, BodyJson& body) {
    binding::follow_rekey(run.created, wire, req, body.view());
}

// Deletes every entity the suite created and nobody deleted yet, last created
// first. A delete answered anything but 2xx is followed by a read of the
// entity: gone (404/410) counts as deleted; otherwise the entity is reported
// as confirmed to remain (the read answered 2xx) or as possibly remaining.
// Returns an error case naming those problems, or nullopt when nothing
// remains. `unreachable` (if given) is set when the cleanup sent requests
// and the target answered none of them (a transport problem, exit 3).
// `concurrency` (the run's -j): up to that many consecutive deletes of
// entities made by the same create go out side by side (a latency-bound
// target); the report is the same as one by one. `slots` (suites side by
// side): each delete waits for a slot of its own, served before the other
// suites' waiting cases, so a cleanup while other suites run gets slots as
// they free up, not only what was free when it began (the caller holds none).
[[nodiscard]] boost::asio::awaitable<std::optional<CaseResult>> cleanup_created(SuiteRun& run, RateLimiter& limiter,
                                                                                bool* unreachable = nullptr,
                                                                                int concurrency = 1,
                                                                                Slots* slots = nullptr);

}  // namespace idconform::runner
