// How a bound http step reaches the entity it is about and reads the answer,
// where the resource's answer forms say it differs from a path template and
// a plain JSON entity: set by the profile expander
// (profile/expand_answer_forms.cpp), never written in suites; null on
// suite::HttpRequest::access when the step is as written.
#pragma once

#include "suite/model.hpp"

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

// The step's Location resource ("" for none) and entity array pointer.
[[nodiscard]] inline const std::string& location_of(const suite::HttpRequest& h) {
    static const std::string none;
    return h.access ? h.access->location_of : none;
}
[[nodiscard]] inline const std::optional<std::string>& entity_array(const suite::HttpRequest& h) {
    static const std::optional<std::string> none;
    return h.access ? h.access->entity_array : none;
}

// Changes the step's access (copied: an Access may be shared).
template <class Edit>
void edit_access(suite::HttpRequest& h, Edit&& edit) {
    Access a = h.access ? *h.access : Access{};
    edit(a);
    h.access = std::make_shared<const Access>(std::move(a));
}

}  // namespace idconform::binding
