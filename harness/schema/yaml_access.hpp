// Direct access to the nodes behind a YAML::Node, for the hot paths of the
// schema readers: yaml-cpp 0.7's own lookups cost a copy of every key's text
// and two reference-count updates per member compared (node::equals), and
// its iterators two YAML::Node constructions per step. Internal to
// harness/schema/ (spec.cpp, json_tree.cpp); nothing here changes a tree.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <string_view>
#include <vector>

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

// The nodes of one tree made by our readers. yaml-cpp's memory keeps every
// node in a std::set of shared pointers, one insertion of O(log n) cache
// misses per node and a tree walk to free them: a fifth of `lint` on JSON.
// Here they live in a deque owned, beside an ordinary memory_holder, by one
// block every YAML::Node of the tree shares (an aliasing shared_ptr), so
// a node lives exactly as long as yaml-cpp's own would: while any YAML::Node
// of its tree does. The holder stays usable: what yaml-cpp itself creates
// or merges into it (nothing, for the read-only schema readers) lives there.
class NodeArena {
public:
    NodeArena() : owner_(std::make_shared<Owner>()), memory_(owner_, &owner_->holder) {}
    YAML::detail::node& create() { return owner_->nodes.emplace_back(); }
    [[nodiscard]] const YAML::detail::shared_memory_holder& memory() const { return memory_; }

private:
    struct Owner {
        YAML::detail::memory_holder holder;
        std::deque<YAML::detail::node> nodes;  // destroyed first: they point at one another only
    };
    std::shared_ptr<Owner> owner_;
    YAML::detail::shared_memory_holder memory_;
};

// Whether any mapping a reader builds has a key twice (two equal scalar
// keys), found while the keys are at hand: when none has, SpecSet's
// duplicate-key pass over the whole tree would find nothing and is skipped.
class DuplicateKeys {
public:
    [[nodiscard]] std::size_t open() const { return keys_.size(); }  // a mapping starts: its base
    void add(const std::string& key) { keys_.emplace_back(key); }
    void close(std::size_t base) {  // the mapping that started at `base` is complete
        const std::size_t n = keys_.size() - base;
        if (!found_ && n > 1) {
            const auto first = keys_.begin() + static_cast<std::ptrdiff_t>(base);
            if (n <= 16) {
                for (auto i = first; i != keys_.end() && !found_; ++i)
                    found_ = std::find(i + 1, keys_.end(), *i) != keys_.end();
            } else {
                sorted_.assign(first, keys_.end());
                std::sort(sorted_.begin(), sorted_.end());
                found_ = std::adjacent_find(sorted_.begin(), sorted_.end()) != sorted_.end();
            }
        }
        keys_.resize(base);
    }
    [[nodiscard]] bool found() const { return found_; }

private:
    std::vector<std::string_view> keys_;  // of the open mappings, innermost last (views of the key nodes' text)
    std::vector<std::string_view> sorted_;
    bool found_ = false;
};

// The value of the first member whose key is the scalar `key` (what yaml-cpp's
// const operator[] finds), nullptr when none; `map` must be a defined map.
inline const YAML::detail::node* find_member(const YAML::detail::node& map, std::string_view key) {
    for (auto it = map.begin(), end = map.end(); it != end; ++it) {
        const YAML::detail::node* k = it->first;
        if (k->type() == YAML::NodeType::Scalar && k->scalar() == key) return it->second;
    }
    return nullptr;
}

}  // namespace idconform::schema::detail
