// Rule checks as pure functions: from one recorded exchange and the step's
// expectations to CheckResults. No network, no clocks: everything needed
// (send/receive times, skew, variables) is passed in, so each check is
// testable on hand-made exchanges.
#pragma once

#include "binding/answers.hpp"
#include "core/result.hpp"
#include "runner/body_json.hpp"
#include "runner/scope.hpp"
#include "suite/model.hpp"

#include <chrono>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

namespace idconform::runner {

struct CheckContext {
    const Scope* scope = nullptr;
    std::string rule;                             // default rule for the checks (case rules joined)
    std::chrono::milliseconds clock_skew{5000};   // widening of the send/receive window for `minted`
    std::set<std::string>* seen_ids = nullptr;    // ids seen so far in the suite, for `unique`
    std::map<std::string, std::vector<std::string>>* collected = nullptr;  // the case's `collect:` lists
    const std::vector<int>* refused = nullptr;    // what `status: refused` matches (nullptr: 403, 404)
};

// Evaluates every expectation of `e` against `x`. A transport error yields no
// checks (the caller reports it as an error, not a failure).
[[nodiscard]] std::vector<CheckResult> evaluate(const suite::Expect& e, const Exchange& x, const CheckContext& ctx);
[[nodiscard]] std::vector<CheckResult> evaluate(const suite::Expect& e, const Exchange& x, const CheckContext& ctx,
                                                BodyJson& body);

// One id check on a text value (exposed for tests and for the packs).
[[nodiscard]] CheckResult check_id(const suite::IdExpect& e, const boost::json::value* value, const Exchange& x,
                                   const CheckContext& ctx);

// Shape-based scan of a JSON answer: every string that looks like an id in
// any spelling must be a canonical RFC 9562 UUID or a lower-case ULID
// (DATA-ID-002); Nil or Max anywhere is a placeholder (nil-max); an id-named
// member ("id", "*_id", "*Id") holding "", 0 or Nil is a dummy (DATA-ID-007).
// `versions` collects, per JSON pointer (array indices as '*'), the UUID
// versions seen, for the one-version-per-field check (DATA-ID-003).
// Values in `sent` (strings of the request the harness sent) are neither
// findings nor versions of the field: an echo is judged by the case that
// sent it, and it is not something the target minted.
// At most `max_findings` are returned; `unlisted` (when given) counts the
// findings past that, which are judged (and their versions collected) but
// not kept, so an answer with a million bad ids costs no memory. `fields`
// (when given) gets, for each finding returned, its field: the pointer with
// array indices as '*' ("/items/*/id"); `unlisted_fields` (when given)
// counts the findings past `max_findings` by rule and field.
[[nodiscard]] std::vector<CheckResult> scan_ids(const boost::json::value& body,
                                                std::map<std::string, std::set<int>>* versions,
                                                const std::set<std::string>* sent = nullptr,
                                                std::size_t max_findings = static_cast<std::size_t>(-1),
                                                std::size_t* unlisted = nullptr,
                                                std::vector<std::string>* fields = nullptr,
                                                std::map<std::pair<std::string, std::string>, std::size_t>*
                                                    unlisted_fields = nullptr);
// Every string leaf of a JSON request body (nothing when it is not JSON),
// and every number leaf (kept apart from strings, for the shape scan).
[[nodiscard]] std::set<std::string> sent_strings(std::string_view request_body);


// Milliseconds since the epoch of an ISO-8601 UTC time ("2022-02-22T19:22:22.123456Z");
// `exact_ms` tells whether the text carries no precision beyond the millisecond.
[[nodiscard]] std::optional<std::int64_t> parse_iso8601_ms(std::string_view text, bool* exact_ms = nullptr);

// Reading an answer (binding/answers.hpp): the id of a Location header,
// JSON equality, the profile's 2xx "nothing there".
using binding::json_equal;
using binding::last_path_segment;
using binding::says_not_found;
// "200 with []", "200 with /found = false": for messages.
[[nodiscard]] std::string not_found_text(const suite::StatusExpect::NotFound& nf);

// "string", "integer", "number", "boolean", "object", "array", "null"
[[nodiscard]] bool json_has_type(const boost::json::value& v, std::string_view type);

}  // namespace idconform::runner
