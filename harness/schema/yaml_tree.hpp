// A schema document's YAML read in one pass of yaml-cpp's parser into the
// node tree YAML::Load would build (the same nodes, tags, styles and marks:
// the events go into a builder that does what yaml-cpp's NodeBuilder does).
// The input boundary (suite::detail::parse_document) reads every YAML text
// twice: an event-only pre-parse that guards against what would make
// yaml-cpp loop or blow up (a stray ',', alias bombs, cyclic aliases, deep
// nesting, several documents), then YAML::Load; on schema documents the
// scanner is most of the time, so the pre-parse cost a third.
//
// This reader guards the same way in its one pass by handing back (nullopt)
// every text where one of those could matter: an anchor or an alias,
// nesting deeper than max_depth, anything after the first document, an
// empty (null) document, any exception from yaml-cpp. The caller then reads
// the text the two-pass way, whose diagnostics are the reference.
// tests/schema/json_tree_test.cpp compares the trees node by node.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

namespace idconform::schema::detail {

// Below the input guard's nesting limit (suite::detail::InputLimits::max_depth, 128).
inline constexpr int yaml_tree_max_depth = 100;

// `duplicate_keys`, when given, is set to whether some mapping has a scalar key twice.
[[nodiscard]] std::optional<YAML::Node> read_yaml_tree(const std::string& text, int max_depth = yaml_tree_max_depth,
                                                       bool* duplicate_keys = nullptr);

}  // namespace idconform::schema::detail
