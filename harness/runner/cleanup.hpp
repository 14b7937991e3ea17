// What a suite created and must delete: the record a step with `cleanup:`
// leaves (register_created) and the deletes at the end of the suite
// (cleanup_created). Only what this run created is ever deleted.
#pragma once

#include "core/result.hpp"
#include "runner/body_json.hpp"
#include "runner/rate_limiter.hpp"
#include "runner/scope.hpp"
#include "runner/suite_run.hpp"
#include "suite/model.hpp"

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace idconform::runner {

// What identifies a deleted entity: an HTTP DELETE names it in its URL, a
// gRPC delete in its message.
[[nodiscard]] std::string delete_key(steps::Wire wire, const Request& r);

// Records an entity a step created (its id from the answer at cl.id_at, or
// the Location header) so that the end of the suite deletes it, unless a
// DELETE already did.
void register_created(SuiteRun& run, const suite::Cleanup& cl, const Request& req, const Exchange& x, BodyJson& body,
                      const Scope& scope, const std::string& step_name);

// Deletes every entity the suite created and nobody deleted yet; returns an
// error case (the caller counts it as a transport error) naming those it
// could not delete, or nullopt when nothing remains.
[[nodiscard]] boost::asio::awaitable<std::optional<CaseResult>> cleanup_created(SuiteRun& run, RateLimiter& limiter);

}  // namespace idconform::runner
