// The input boundary of the suite and profile loaders; see input_guard.hpp.
#include "suite/input_guard.hpp"

#include "suite/yaml_reader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <cstdio>
#include <sstream>
#include <vector>

namespace idconform::suite::detail {

InputFile read_input_file(const std::string& path, std::string_view what, input::NamedBy named_by) {
    input::Policy p;
    p.what = what;
    p.named_by = named_by;
    p.max_bytes = InputLimits::max_file_bytes;
    return input::read_input(path, p);
}

// ------------------------------------------------------------ pre-parse

namespace {

// A problem found inside an event callback; thrown through yaml-cpp's parser
// (which is exception-safe: it reports its own errors the same way).
struct Stop {
    YAML::Mark mark;
    std::string title;
    std::string hint;
};

bool same_mark(const YAML::Mark& a, const YAML::Mark& b) {
    return a.pos == b.pos && a.line == b.line && a.column == b.column;
}

// Counts nodes as if every alias were copied out (the cost the loader pays
// walking the tree), tracks nesting, and remembers per document what a stuck
// document looks like: one null node and nothing else.
class Counter : public YAML::EventHandler {
public:
    struct Doc {
        YAML::Mark start;
        YAML::Mark root;
        bool bare_null = false;  // one null node without an anchor, nothing else
        bool root_null = false;  // one null node, nothing else
    };
    std::vector<Doc> docs;

    void OnDocumentStart(const YAML::Mark& mark) override {
        docs.push_back(Doc{mark, mark, false, false});
        events_ = 0;
        alias_nodes_ = 0;
        names_.clear();
        sizes_.clear();
        open_.clear();
        frames_.clear();
    }
    void OnDocumentEnd() override {}

    void OnAnchor(const YAML::Mark& /*mark*/, const std::string& name) override { names_.push_back(name); }

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        first_event(mark, anchor == YAML::NullAnchor);
        if (events_ == 1) docs.back().root_null = true;
        leaf(anchor);
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string&) override {
        first_event(mark, false);
        leaf(anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        first_event(mark, false);
        if (anchor < open_.size() && open_[anchor])
            throw Stop{mark, "alias '*" + name(anchor) + "' refers to a node that contains it",
                       "an alias must not repeat a list or mapping from inside itself (the copy would never end)"};
        const std::size_t n = anchor < sizes_.size() ? sizes_[anchor] : 1;
        alias_nodes_ += n;
        if (alias_nodes_ > InputLimits::max_alias_nodes)
            throw Stop{mark,
                       "aliases repeat more than " + std::to_string(InputLimits::max_alias_nodes) +
                           " nodes (here '*" + name(anchor) + "' adds " + std::to_string(n) + ")",
                       "this looks like an alias bomb (\"billion laughs\"); write the values out, or alias "
                       "smaller parts"};
        add(n);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    struct Frame {
        YAML::anchor_t anchor;
        std::size_t size;
    };
    std::size_t events_ = 0;
    std::size_t alias_nodes_ = 0;
    std::vector<std::string> names_;  // anchor id - 1 -> name (ids are given in order)
    std::vector<std::size_t> sizes_;  // anchor id -> expanded size
    std::vector<bool> open_;          // anchor id -> its collection is still open
    std::vector<Frame> frames_;

    std::string name(YAML::anchor_t a) const { return a >= 1 && a <= names_.size() ? names_[a - 1] : "?"; }

    void first_event(const YAML::Mark& mark, bool bare_null) {
        if (events_++ == 0) {
            docs.back().root = mark;
            docs.back().bare_null = bare_null;
        } else {
            docs.back().bare_null = false;
            docs.back().root_null = false;
        }
    }
    void set_size(YAML::anchor_t a, std::size_t n) {
        if (a == YAML::NullAnchor) return;
        if (sizes_.size() <= a) sizes_.resize(a + 1, 1);
        sizes_[a] = n;
    }
    void add(std::size_t n) {
        if (!frames_.empty()) frames_.back().size += n;
    }
    void leaf(YAML::anchor_t anchor) {
        set_size(anchor, 1);
        add(1);
    }
    void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
        first_event(mark, false);
        if (frames_.size() >= static_cast<std::size_t>(InputLimits::max_depth))
            throw Stop{mark,
                       "lists and mappings nested deeper than " + std::to_string(InputLimits::max_depth) + " levels",
                       "flatten the structure; no suite or profile needs this depth"};
        frames_.push_back(Frame{anchor, 1});
        if (anchor != YAML::NullAnchor) {
            if (open_.size() <= anchor) open_.resize(anchor + 1, false);
            open_[anchor] = true;
        }
    }
    void close() {
        if (frames_.empty()) return;
        const Frame f = frames_.back();
        frames_.pop_back();
        set_size(f.anchor, f.size);
        if (f.anchor != YAML::NullAnchor && f.anchor < open_.size()) open_[f.anchor] = false;
        add(f.size);
    }
};

}  // namespace

std::optional<PreParse> pre_parse(Reader& r, const std::string& text) {
    Counter counter;
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        // A third document is read only to tell a stuck document (the same
        // one again at the same mark) from a real second one.
        for (int n = 0; n < 3; ++n) {
            if (!parser.HandleNextDocument(counter)) break;
            const auto& d = counter.docs;
            if (d.size() >= 2 && d[d.size() - 2].bare_null && d.back().bare_null &&
                same_mark(d[d.size() - 2].start, d.back().start)) {
                const YAML::Mark m = d.back().start;
                std::string at;
                if (m.line >= 0 && static_cast<std::size_t>(m.line) < r.source().lines.size()) {
                    const std::string& line = r.source().lines[static_cast<std::size_t>(m.line)];
                    if (m.column >= 0 && static_cast<std::size_t>(m.column) < line.size())
                        at = line.substr(static_cast<std::size_t>(m.column), 1);
                }
                if (at == ",")
                    r.error(m, "YAML syntax error: ',' outside a [list] or {mapping}",
                            "a ',' separates entries only inside [a, b] or {a: 1, b: 2}; remove it, or quote a "
                            "value that holds one ('a, b')");
                else
                    r.error(m, "YAML syntax error: unexpected '" + at + "'", "check the YAML syntax near here");
                return std::nullopt;
            }
        }
    } catch (const Stop& s) {
        r.error(s.mark, s.title, s.hint);
        return std::nullopt;
    } catch (const YAML::DeepRecursion& e) {
        r.error(e.mark, "YAML nested too deeply", "flatten the structure; no suite or profile needs this depth");
        return std::nullopt;
    } catch (const YAML::ParserException& e) {
        r.error(e.mark, "YAML syntax error: " + e.msg, syntax_hint(e.msg));
        return std::nullopt;
    } catch (const YAML::Exception& e) {
        r.error(e.mark, std::string("YAML error: ") + e.what(), "check the YAML syntax near here");
        return std::nullopt;
    }
    PreParse p;
    p.documents = static_cast<int>(counter.docs.size());
    if (!counter.docs.empty()) p.first_is_null = counter.docs[0].root_null;
    if (counter.docs.size() >= 2) {
        p.second_line = counter.docs[1].root.line;
        p.second_column = counter.docs[1].root.column;
    }
    return p;
}

}  // namespace idconform::suite::detail
