// Where a resource's answers name the entity's own id (the profile's `id:`
// with its `header:` and `create_at:` forms), and what that does to a step
// written against `${res.id_at}`: its id checks and captures read the header
// or the create answer's pointer instead.
#pragma once

#include "suite/model.hpp"

#include <string>

namespace idconform::binding {

// The placeholder of the entity's own id pointer in pack steps.
inline constexpr const char* own_id = "${res.id_at}";

struct IdAnswer {
    std::string pointer;         // the id's JSON pointer in the entity ("": only in the header)
    std::string header;          // the answer header naming a created id ("": none)
    std::string create_pointer;  // where a create answer holds it, when not at `pointer`

    // Whether the answers of `op` name the id in `header` rather than at
    // `pointer`: a create's always when the header is written, every answer's
    // when there is no pointer.
    [[nodiscard]] bool in_header(suite::Operation op) const noexcept;
    // Whether they name it elsewhere than at `pointer`: in the header, or (a
    // create's, and a put's: a create with the client's id, whose answer has
    // the create answer's shape, as CouchDB's {"ok", "id", "rev"}) at
    // `create_pointer`.
    [[nodiscard]] bool elsewhere(suite::Operation op) const noexcept;
};

// The step's id checks and captures of the pointer `at` moved to where the
// answer names the id (IdAnswer::elsewhere): the header, or the create's pointer.
void move_own_id(const IdAnswer& id, suite::Step& st, const std::string& at = own_id);

// A call of `op` bound to an HTTP request: the id checks and captures of the
// entity's own id read where the answers name it; a read of an entity whose
// answers name it only in a header may answer 204 (there is no body).
void adapt_expectations(const IdAnswer& id, suite::Operation op, suite::Step& st);

}  // namespace idconform::binding
