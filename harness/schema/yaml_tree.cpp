// YAML into yaml-cpp's node tree in one parser pass. See yaml_tree.hpp.
#include "schema/yaml_tree.hpp"

#include "schema/yaml_access.hpp"

#include <yaml-cpp/eventhandler.h>

#include <memory>
#include <sstream>
#include <vector>

namespace idconform::schema::detail {

namespace {

using YamlNode = YAML::detail::node;

struct HandBack {};

// yaml-cpp 0.7's NodeBuilder (src/nodebuilder.cpp) without anchors: the
// same calls on the same nodes in the same order.
class TreeBuilder final : public YAML::EventHandler {
public:
    explicit TreeBuilder(int max_depth) : max_depth_(max_depth) {}

    [[nodiscard]] YAML::Node root() const { return yaml_access::wrap(*root_, arena_.memory()); }
    [[nodiscard]] bool done() const { return root_ != nullptr && stack_.empty(); }
    [[nodiscard]] bool duplicate_keys() const { return dups_.found(); }

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        YamlNode& n = push(mark, anchor);
        n.set_null();
        pop();
    }
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override { throw HandBack{}; }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        YamlNode& n = push(mark, anchor);
        n.set_scalar(value);
        n.set_tag(tag);
        pop();
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override {
        YamlNode& n = push(mark, anchor);
        n.set_tag(tag);
        n.set_type(YAML::NodeType::Sequence);
        n.set_style(style);
        open();
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override {
        YamlNode& n = push(mark, anchor);
        n.set_type(YAML::NodeType::Map);
        n.set_tag(tag);
        n.set_style(style);
        open();
    }
    void OnMapEnd() override { close(); }

private:
    struct Open {
        YamlNode* node;
        YamlNode* key;     // a map's key waiting for its value
        std::size_t keys;  // a map's base in dups_
    };
    int max_depth_;
    NodeArena arena_;
    DuplicateKeys dups_;
    std::vector<Open> stack_;
    YamlNode* root_ = nullptr;
    YamlNode* pending_ = nullptr;  // the node just pushed, until it is popped or opened

    YamlNode& push(const YAML::Mark& mark, YAML::anchor_t anchor) {
        if (anchor != YAML::NullAnchor || root_) throw HandBack{};  // an anchor; a second root
        YamlNode& n = arena_.create();
        n.set_mark(mark);
        pending_ = &n;
        return n;
    }
    void open() {
        if (static_cast<int>(stack_.size()) >= max_depth_) throw HandBack{};
        stack_.push_back(Open{pending_, nullptr, dups_.open()});
        pending_ = nullptr;
    }
    void close() {
        YamlNode* n = stack_.back().node;
        if (n->type() == YAML::NodeType::Map) dups_.close(stack_.back().keys);
        stack_.pop_back();
        attach(*n);
    }
    void pop() {
        YamlNode* n = pending_;
        pending_ = nullptr;
        attach(*n);
    }
    // A finished node into its collection (NodeBuilder::Pop).
    void attach(YamlNode& n) {
        if (stack_.empty()) {
            root_ = &n;
            return;
        }
        Open& top = stack_.back();
        if (top.node->type() == YAML::NodeType::Sequence) {
            top.node->push_back(n, arena_.memory());
        } else if (!top.key) {
            top.key = &n;
            if (n.type() == YAML::NodeType::Scalar) dups_.add(n.scalar());
        } else {
            top.node->insert(*top.key, n, arena_.memory());
            top.key = nullptr;
        }
    }
};

// Whatever follows the first document: only "nothing" lets it stand alone.
class Rest final : public YAML::EventHandler {
public:
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
};

}  // namespace

std::optional<YAML::Node> read_yaml_tree(const std::string& text, int max_depth, bool* duplicate_keys) {
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        TreeBuilder builder(max_depth);
        if (!parser.HandleNextDocument(builder) || !builder.done()) return std::nullopt;
        Rest rest;
        if (parser.HandleNextDocument(rest)) return std::nullopt;  // a second document (or a stuck one)
        YAML::Node root = builder.root();
        if (root.IsNull()) return std::nullopt;  // empty: the input boundary says so
        if (duplicate_keys) *duplicate_keys = builder.duplicate_keys();
        return root;
    } catch (const HandBack&) {
    } catch (const YAML::Exception&) {}
    return std::nullopt;
}

}  // namespace idconform::schema::detail
