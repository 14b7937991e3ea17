// Reading an entity out of an answer, the same for the checks and the
// cleanup: the id a Location-like header names, JSON equality, and whether
// an answer is the profile's 2xx "nothing there" (`not_found:`).
#pragma once

#include "suite/model.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace idconform::binding {

// The id text in a Location-like header value: the last path segment.
[[nodiscard]] std::string last_path_segment(std::string_view url);

// Numeric-aware JSON equality (1 == 1.0 == uint 1).
[[nodiscard]] bool json_equal(const boost::json::value& a, const boost::json::value& b);

// Whether an answer is the profile's 2xx "nothing there" answer. `body` is
// the parsed answer (nullptr when it is not JSON); `no_body`: the answer has
// no body at all (what `empty: true` wants).
[[nodiscard]] bool says_not_found(const suite::StatusExpect::NotFound& nf, int status, const boost::json::value* body,
                                  bool no_body = false);

}  // namespace idconform::binding
