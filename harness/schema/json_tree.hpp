// A reader of plain JSON into the yaml-cpp node tree every schema reader
// works on (spec.hpp's Loc, the lint, the profile draft), with exactly the
// nodes, tags and marks (0-based offset, line and column of each value's
// first byte) yaml-cpp gives the same text, without yaml-cpp's scanner, the
// cost of which dominated `lint` on JSON documents.
//
// It accepts only what it is sure yaml-cpp reads the same way and hands
// everything else back (nullopt): a YAML construct or a syntax error, a
// surrogate or NUL escape (yaml-cpp refuses or differs), a raw control
// character in a string, a lone CR, a byte-order mark, a key whose ':' is
// not on its line within 1,000 bytes (yaml-cpp's simple-key limit), nesting
// deeper than max_depth, a top level that is not an object. The caller then
// reads the text with yaml-cpp, whose diagnostics are the reference; so a
// document gets the same findings and messages whichever reader took it
// (tests/schema/json_tree_test.cpp compares the two trees node by node).
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string_view>

namespace idconform::schema::detail {

// Below the input guard's nesting limit (suite::detail::InputLimits::max_depth,
// 128): deeper text goes to yaml-cpp so that the guard reports it.
inline constexpr int json_tree_max_depth = 100;

// `duplicate_keys`, when given, is set to whether some object has a key twice.
[[nodiscard]] std::optional<YAML::Node> read_json_tree(std::string_view text, int max_depth = json_tree_max_depth,
                                                       bool* duplicate_keys = nullptr);

}  // namespace idconform::schema::detail
