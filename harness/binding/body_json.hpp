// An answer's body parsed as JSON once per step, shared by its checks, its
// captures, the shape scan and the cleanup record.
#pragma once

#include "core/exchange.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace idconform::binding {

// How deep an answer's JSON may nest (Boost.JSON's default is 32, which
// valid bodies exceed): the same bound as the file scan's reader. Recursion
// over a parsed body (checks, scan, destruction) stays well inside the stack.
inline constexpr std::size_t max_body_depth = 512;

// Parses JSON text with the depth bound above (for bodies not read through
// BodyJson: Kafka summaries, ...).
[[nodiscard]] boost::json::value parse_body_json(std::string_view text, boost::system::error_code& ec);

// An answer's body parsed as JSON at most once, on first use, and shared
// by the expectations, the captures, the shape scan and the cleanup record
// of one step.
class BodyJson {
public:
    explicit BodyJson(const Response& r) : resp_(&r) {}
    // The parsed body, or nullptr when it is not JSON (see error()).
    [[nodiscard]] const boost::json::value* get() {
        used_ = true;
        return parse();
    }
    // The same, for the shape scan and the cleanup record: not counted as
    // used() (what cannot read the body says so itself or falls back).
    [[nodiscard]] const boost::json::value* view() { return parse(); }
    [[nodiscard]] const std::string& error() { (void)parse(); return error_; }
    // Whether an expectation or a capture asked for the parsed body.
    [[nodiscard]] bool used() const { return used_; }
    // Why the body could not be judged because of a harness limit rather
    // than the answer itself: truncated at the body cap, or nested deeper
    // than max_body_depth ("" when neither). A check that needed such a
    // body is an error, never a failure.
    [[nodiscard]] const std::string& limit() { (void)parse(); return limit_; }
private:
    const boost::json::value* parse();
    const Response* resp_;
    bool tried_ = false;
    bool used_ = false;
    std::optional<boost::json::value> value_;
    std::string error_;
    std::string limit_;
};

}  // namespace idconform::binding
