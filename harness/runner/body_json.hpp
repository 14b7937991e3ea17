// An answer's body parsed as JSON once per step, shared by its checks, its
// captures, the shape scan and the cleanup record.
#pragma once

#include "core/exchange.hpp"

#include <boost/json/value.hpp>

#include <optional>
#include <string>

namespace idconform::runner {

// An answer's body parsed as JSON at most once, on first use, and shared
// by the expectations, the captures, the shape scan and the cleanup record
// of one step.
class BodyJson {
public:
    explicit BodyJson(const Response& r) : resp_(&r) {}
    // The parsed body, or nullptr when it is not JSON (see error()).
    [[nodiscard]] const boost::json::value* get();
    [[nodiscard]] const std::string& error() { (void)get(); return error_; }
private:
    const Response* resp_;
    bool tried_ = false;
    std::optional<boost::json::value> value_;
    std::string error_;
};

}  // namespace idconform::runner
