// The parts http and grpc requests share: headers (the target's, then the
// principal's, then the step's own, a later one replacing an earlier one of
// the same name) and the set/unset edits of a JSON body. Written once so the
// two step kinds cannot drift apart.
#pragma once

#include "core/strings.hpp"
#include "core/exchange.hpp"
#include "runner/scope.hpp"
#include "runner/steps/env.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idconform::runner::steps {

using Templates = std::vector<std::pair<std::string, std::string>>;

// HTTP keeps header names as written (compared case-insensitively); gRPC
// metadata keys are lower-case.
enum class HeaderNames { as_written, lower_case };

struct HeaderSource {
    const std::string& principal;  // name in the suite's principals, may be empty
    const Templates& own;          // the step's headers / metadata (templates)
    std::string_view own_label;    // "header" / "metadata", for messages
    const SourcePos& pos;          // the step's request, for messages
};

// Adds the target's, the principal's and the step's headers to `r`.
[[nodiscard]] Result<bool> add_headers(Request& r, const Env& env, const HeaderSource& src, const Scope& scope,
                                       HeaderNames names);

// Replaces a header of the same name (case-insensitive) or appends one.
void put_header(std::vector<Header>& headers, std::string_view name, std::string value);

struct BodyEdits {
    const std::vector<std::pair<std::string, boost::json::value>>& set;  // pointer and value are templates
    const std::vector<std::string>& unset;                                 // pointer templates
    std::string_view what;  // "body" / "message", for messages
    const SourcePos& pos;
};

// Applies the set/unset edits to an interpolated body.
[[nodiscard]] Result<bool> apply_body_edits(boost::json::value& body, const BodyEdits& e, const Scope& scope);

// ASCII case-insensitive equality and shell words: core/strings.hpp.
using ::idconform::iequals;
using ::idconform::shell_quote;

}  // namespace idconform::runner::steps
