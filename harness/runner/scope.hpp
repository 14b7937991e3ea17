// The runner's names for the template language of suites and profiles,
// which lives in suite/scope.hpp and suite/json_edit.hpp (one home: the
// expander, the bindings and the runner fill templates the same way).
#pragma once

#include "suite/json_edit.hpp"
#include "suite/scope.hpp"

namespace idconform::runner {

using suite::Encoding;
using suite::erase_at_pointer;
using suite::generator_forms;
using suite::interpolate;
using suite::interpolate_json;
using suite::percent_encode;
using suite::resolve_pointer;
using suite::Result;
using suite::Scope;
using suite::set_at_pointer;
using suite::template_refs;
using suite::TemplateRefs;
using suite::to_text;

}  // namespace idconform::runner
