// Internal to the suite loader: a fast reader for vector-set files written in
// the simple shape that generated and hand-written sets use (top-level `set`,
// `description`, `vectors`; each vector a one-line flow mapping or a block
// mapping of scalars). yaml-cpp's node tree costs about 3 KB a vector (300 MB
// for a 100,000-vector file) and most of the load time; this reader keeps
// nothing but the result. It accepts only a conservative subset of YAML and
// never reports errors: on anything outside the subset, or anything wrong
// (duplicate names, a missing value, a bad set name), it returns nullopt and
// the loader reads the file with yaml-cpp, which gives the usual
// file:line:col diagnostics. Positions equal those the yaml-cpp path records.
#pragma once

#include "suite/model.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace idconform::suite::detail {

[[nodiscard]] std::optional<VectorSet> read_simple_vector_set(std::string_view text, const std::string& path);

}  // namespace idconform::suite::detail
