// The one XML writer of the reports (JUnit): elements written straight into
// a string as the document goes, indented two spaces a level, with one
// escaping for everything. Text and attribute values may hold any bytes:
// what XML 1.0 cannot carry (invalid UTF-8, control characters, NUL) is made
// visible first (text.hpp's xml_text), then `& < > "` and, in attributes,
// tab, line feed and carriage return are written as references, so the
// document parses whatever the target sent. The layout is pugixml's with
// format_indent (the approved JUnit files were written by it; a test holds
// the two to the same bytes): an element without children is self-closed
// (`<a x="1" />`), one whose only child is text is on one line, any other
// has its children on their own lines.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace idconform::reporters {

class XmlWriter {
public:
    // Writes into `out` (appending), elements starting at `depth` levels
    // (fewer than 16).
    explicit XmlWriter(std::string& out, unsigned depth = 0) : out_(out), depth_(depth < 15 ? depth : 15) {}

    // <?xml version="1.0" encoding="UTF-8"?>
    void declaration();
    // Starts element `name` (a literal or a string that outlives the writer):
    // its attributes follow, then exactly one of empty(), text() or children().
    XmlWriter& open(std::string_view name);
    XmlWriter& attr(std::string_view name, std::string_view value);
    XmlWriter& attr(std::string_view name, std::size_t value);
    // Ends the element opened last without children: ` />`.
    void empty();
    // Ends it with `text` as its only child, on the same line.
    void text(std::string_view text);
    // Ends its start tag: its child elements follow, then close(). Throws
    // std::length_error past 16 levels.
    void children();
    // Writes the end tag of the element whose children() came last.
    void close();

    // The element `name` with text only: open(name), text(value).
    void text_element(std::string_view name, std::string_view value) {
        open(name);
        text(value);
    }

    // `value` escaped for an attribute (`attribute`) or for text, appended.
    static void escape(std::string& out, std::string_view value, bool attribute);

private:
    void indent();

    std::string& out_;
    unsigned depth_;
    // Elements with children, innermost last (no allocation: a writer is
    // made per testcase; the reports nest four deep).
    static constexpr std::size_t max_depth = 16;
    std::array<std::string_view, max_depth> open_{};
    std::size_t open_count_ = 0;
    std::string_view current_;  // the element being opened
};

}  // namespace idconform::reporters
