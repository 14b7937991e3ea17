// Authentication is not a contract result. A 401 answer to a step sent as
// a principal the suite does not declare `authenticated: false` says nothing
// about the identifier rules (a missing or expired token, a scope the
// endpoint needs), unless the step's status expectation names 401 itself
// (written out, a gRPC UNAUTHENTICATED, or among the suite's `refused:`
// statuses): such a step is an error of the run, never a pass of a negative
// check and never a failure under a rule. The text says which principal,
// which request, and what to check (the environment variables its headers
// read, whether they are set), never a credential.
#pragma once

#include "core/exchange.hpp"
#include "suite/model.hpp"

#include <map>
#include <optional>
#include <string>

namespace idconform::runner {

// A 401, or a gRPC UNAUTHENTICATED.
[[nodiscard]] bool answered_unauthenticated(const Response& resp);

// The principal a step is sent as ("" when none).
[[nodiscard]] const std::string& step_principal(const suite::Step& st);

// Whether the step's status expectation names 401.
[[nodiscard]] bool expects_unauthenticated(const suite::Suite& s, const suite::Step& st);

// "principal 'alice' (the owner)"; the name alone when the suite uses it as is.
[[nodiscard]] std::string principal_label(const suite::Suite& s, const std::string& key);

// What the principal's headers read from the environment, and how they
// stand: "IDCONFORM_TOKEN_A is not set (its default was sent)"; "" when its
// headers read none. Variables of the suite that the headers name are
// followed one level (`Bearer ${token_a}`, token_a: "${env:TOKEN_A}").
[[nodiscard]] std::string credential_hint(const suite::Suite& s, const std::string& key);

// Who the run has seen let in (the preflight: principal key -> "GET
// /v1/orders answered 200"), so a later 401 to them is told apart from a
// principal that was never authenticated.
using Confirmed = std::map<std::string, std::string>;

// The error of a step answered 401 that the contract cannot judge, or
// nullopt when the answer is the step's to judge.
[[nodiscard]] std::optional<std::string> unauthenticated(const suite::Suite& s, const suite::Step& st,
                                                         const Request& req, const Response& resp,
                                                         const Confirmed& confirmed);

}  // namespace idconform::runner
