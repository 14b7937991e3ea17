// Helpers of the products API shared by its parts in separate files
// (service.cpp, products.cpp, orders.cpp, staff.cpp, viewable.cpp): JSON
// text, error answers, percent-decoding, the bearer principal, the clock and
// the request-body parser. Defined in service.cpp, or inline here.
#pragma once

#include "service.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <cstdint>
#include <optional>
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
// Now as Unix microseconds.
[[nodiscard]] std::int64_t now_unix_us();

inline constexpr std::string_view nil_text = "00000000-0000-0000-0000-000000000000";
inline constexpr std::string_view max_text = "ffffffff-ffff-ffff-ffff-ffffffffffff";

// Parses a JSON body into a stack-backed arena: no heap traffic for small
// bodies. Values that outlive the request are copied out explicitly.
struct BodyParse {
    std::array<unsigned char, 4096> buffer;
    boost::json::monotonic_resource arena{buffer.data(), buffer.size()};
    boost::json::value value;
    const boost::json::object* object = nullptr;

    // Returns an error response when the body is not a JSON object.
    std::optional<Response> parse(std::string_view body) {
        boost::system::error_code ec;
        value = boost::json::parse(body, ec, &arena);
        if (ec) return error(400, "invalid_json", "request body is not valid JSON");
        object = value.if_object();
        if (object == nullptr) return error(400, "invalid_body", "request body must be a JSON object");
        return std::nullopt;
    }
    [[nodiscard]] const boost::json::value* field(std::string_view name) const { return object->if_contains(name); }
};

[[nodiscard]] inline bool is_zero_number(const boost::json::value& v) {
    if (v.is_int64()) return v.get_int64() == 0;
    if (v.is_uint64()) return v.get_uint64() == 0;
    if (v.is_double()) return v.get_double() == 0.0;
    return false;
}

}  // namespace products::detail
