// The reader of a `not_found:` answer (a 2xx that means "nothing there"),
// shared by a suite's expectations and a profile's endpoints so both say
// the same things about the same mistakes.
#pragma once

#include "suite/model.hpp"
#include "suite/yaml_reader.hpp"

#include <optional>

namespace idconform::suite::detail {

// `{status: 200, body: []}`, `{status: 200, at: /found, equals: false}` or
// `{status: 204, empty: true}`; nullopt (with diagnostics) when it is not a
// mapping. A mapping with mistakes gives a NotFound and its diagnostics.
[[nodiscard]] std::optional<NotFound> read_not_found(Reader& r, const Val& v);

}  // namespace idconform::suite::detail
