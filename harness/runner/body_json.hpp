// The runner's names for an answer's body parsed once (binding/body_json.hpp).
#pragma once

#include "binding/body_json.hpp"

namespace idconform::runner {

using binding::BodyJson;
using binding::max_body_depth;
using binding::parse_body_json;

}  // namespace idconform::runner
