// Helpers of the products API shared by its parts in separate files
// (service.cpp, orders.cpp, staff.cpp, viewable.cpp): JSON text, error
// answers, percent-decoding and the bearer principal. Defined in service.cpp.
#pragma once

#include "service.hpp"

#include <string>
#include <string_view>

namespace products::detail {

void append_json_string(std::string& out, std::string_view s);
// {"error": code, "message": message} with the given status.
[[nodiscard]] Response error(unsigned status, std::string_view code, std::string_view message);
[[nodiscard]] Response not_found();
[[nodiscard]] Response method_not_allowed(std::string_view allow);
// Percent-decodes a path segment or query component; a broken escape keeps the raw text.
[[nodiscard]] std::string percent_decode(std::string_view in, bool plus_is_space);
// "Bearer <token>" -> token; empty when missing or another scheme.
[[nodiscard]] std::string_view bearer_principal(std::string_view header);
// ISO-8601 UTC now, microseconds.
[[nodiscard]] std::string now_text();

}  // namespace products::detail
