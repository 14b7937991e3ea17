// Editing JSON at an RFC 6901 pointer: the `set:`/`unset:` body edits of
// http and grpc steps, the cleanup message of a gRPC delete. Not a check:
// checks only read (checks.hpp).
#pragma once

#include "suite/scope.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>

namespace idconform::suite {

// Sets (creating objects on the way) or removes the member at a JSON pointer.
[[nodiscard]] bool set_at_pointer(boost::json::value& root, std::string_view pointer, boost::json::value v);
[[nodiscard]] bool erase_at_pointer(boost::json::value& root, std::string_view pointer);

// A JSON pointer that may be written as a variable ("${res.id_at}").
[[nodiscard]] std::string resolve_pointer(const std::string& ptr, const Scope& scope);

}  // namespace idconform::suite
