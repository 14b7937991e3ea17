// Direct access to the nodes behind a YAML::Node, for the hot paths of the
// schema readers: yaml-cpp 0.7's own lookups cost a copy of every key's text
// and two reference-count updates per member compared (node::equals), and
// its iterators two YAML::Node constructions per step. Internal to
// harness/schema/ (spec.cpp, json_tree.cpp); nothing here changes a tree.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string_view>

namespace idconform::schema::detail {
struct YamlAccess {};
}  // namespace idconform::schema::detail

// YAML::Node keeps its detail::node and memory private; yaml-cpp makes
// every as_if a friend of Node, and this specialisation for a type of ours
// is the one door to them. What is used behind it (memory_holder::create_node,
// detail::node's set_* / push_back / insert / begin / end / scalar) is the
// public header API that yaml-cpp's own NodeBuilder drives.
template <>
struct YAML::as_if<idconform::schema::detail::YamlAccess, void> {
    static Node wrap(detail::node& n, const detail::shared_memory_holder& memory) { return Node(n, memory); }
    // nullptr for an invalid node (a zombie) or one not yet made
    static const detail::node* node_of(const Node& n) { return n.m_isValid ? n.m_pNode : nullptr; }
    static const detail::shared_memory_holder& memory_of(const Node& n) { return n.m_pMemory; }
};

namespace idconform::schema::detail {

using yaml_access = YAML::as_if<YamlAccess, void>;

// The value of the first member whose key is the scalar `key` (what yaml-cpp's
// const operator[] finds), nullptr when none; `map` must be a defined map.
inline const YAML::detail::node* find_member(const YAML::detail::node& map, std::string_view key) {
    for (auto it = map.begin(); it != map.end(); ++it) {
        const YAML::detail::node* k = it->first;
        if (k->type() == YAML::NodeType::Scalar && k->scalar() == key) return it->second;
    }
    return nullptr;
}

}  // namespace idconform::schema::detail
