// How a bound http step reaches the entity it is about and reads the answer,
// where the resource's answer forms say it differs from a path template and
// a plain JSON entity: built by the profile expander
// (profile/expand_answer_forms.cpp) for a resource's operation
// (binding::Operation::access) and given to the steps bound to it
// (binding::StepBinding::access); never written in suites.
#pragma once

#include <memory>
#include <optional>
#include <string>

namespace idconform::binding {

struct Access {
    // Non-empty: the request goes to the Location URL that the create answer
    // of this resource's entity named (path_params `id` says which entity;
    // the step's `path` is not used), locations.hpp.
    std::string location_of;
    // The answer is an array at this JSON pointer holding the entity (a
    // PostgREST read `?id=eq.{id}`): one element is the entity the checks
    // and captures see, [] is "not found", more than one is an error
    // (entity_view.hpp).
    std::optional<std::string> entity_array;
};

}  // namespace idconform::binding
