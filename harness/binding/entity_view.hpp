// Reads whose answer is an array holding the entity (a PostgREST read
// `GET /products?id=eq.{id}` answers `[{...}]`): the element is the entity
// that the step's expectations, captures and shape scan judge, `[]` means
// "not found", and more than one element cannot be one entity. Set on an
// bound http step by its binding (binding::Access::entity_array).
#pragma once

#include "core/exchange.hpp"
#include "core/result.hpp"
#include "suite/model.hpp"

#include <optional>
#include <string>

namespace idconform::binding {

struct EntityView {
    // The answer as the checks see it: the body replaced by the one element
    // (unset: judge the answer as it came).
    std::optional<Exchange> view;
    // A failed check to add in front of the step's own: a read that wanted
    // the entity got `[]` (not found).
    std::optional<CheckResult> not_found;
    // Non-empty: the answer cannot be read as one entity (more than one
    // element, no array at the pointer): the step is an error saying so.
    std::string error;
};

// How the answer `x` to `h`, a read whose answer holds the entity in an
// array at `array` (Access::entity_array), is judged under `expect` (a 4xx-only
// status expectation is a negative check: `[]` and the status judge it as
// they are).
[[nodiscard]] EntityView entity_view(const suite::HttpRequest& h, const std::string& array,
                                     const suite::Expect& expect, const Exchange& x, const std::string& rule);

}  // namespace idconform::binding
