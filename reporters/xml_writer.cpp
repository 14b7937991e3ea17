// The reports' XML writer (see xml_writer.hpp).
#include "reporters/xml_writer.hpp"

#include "reporters/text.hpp"

#include <array>
#include <stdexcept>

namespace idconform::reporters {

namespace {

// Bytes that XML carries as written, in text and in attributes alike.
constexpr auto plain = [] {
    std::array<bool, 256> t{};
    for (int ch = 0x20; ch <= 0x7e; ++ch) t[ch] = ch != '&' && ch != '<' && ch != '>' && ch != '"';
    return t;
}();

// Appends `v` escaped; false (out as it was) at the first byte outside
// printable ASCII other than tab, line feed and carriage return: UTF-8, which
// xml_text checks, or a control character, which it makes visible.
bool escape_checked(std::string& out, std::string_view v, bool attribute, bool checked) {
    const std::size_t start = out.size();
    for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i;
        while (j < v.size() && plain[static_cast<unsigned char>(v[j])]) ++j;
        out.append(v.data() + i, j - i);  // runs of plain text in one go
        if (j == v.size()) break;
        const char ch = v[j];
        switch (ch) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += attribute ? ">" : "&gt;"; break;
            case '"': out += attribute ? "&quot;" : "\""; break;
            case '\t': out += attribute ? "&#09;" : "\t"; break;
            case '\n': out += attribute ? "&#10;" : "\n"; break;
            case '\r': out += attribute ? "&#13;" : "\r"; break;
            default:
                if (!checked) {
                    out.resize(start);
                    return false;
                }
                out += ch;  // UTF-8, made valid by xml_text
        }
        i = j + 1;
    }
    return true;
}

}  // namespace

void XmlWriter::escape(std::string& out, std::string_view value, bool attribute) {
    if (!escape_checked(out, value, attribute, false)) (void)escape_checked(out, xml_text(value), attribute, true);
}

void XmlWriter::indent() {
    static constexpr std::string_view spaces = "                                ";  // 16 levels
    out_.append(spaces.data(), 2 * depth_);
}

void XmlWriter::declaration() { out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"; }

XmlWriter& XmlWriter::open(std::string_view name) {
    indent();
    out_ += '<';
    out_ += name;
    current_ = name;
    return *this;
}

XmlWriter& XmlWriter::attr(std::string_view name, std::string_view value) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    escape(out_, value, true);
    out_ += '"';
    return *this;
}

XmlWriter& XmlWriter::attr(std::string_view name, std::size_t value) { return attr(name, std::to_string(value)); }

void XmlWriter::empty() { out_ += " />\n"; }

void XmlWriter::text(std::string_view text) {
    out_ += '>';
    escape(out_, text, false);
    out_ += "</";
    out_ += current_;
    out_ += ">\n";
}

void XmlWriter::children() {
    out_ += ">\n";
    if (open_count_ == max_depth || depth_ + 1 >= max_depth) throw std::length_error("XML elements nested deeper than 16");
    open_[open_count_++] = current_;
    ++depth_;
}

void XmlWriter::close() {
    if (open_count_ == 0) return;
    --open_count_;
    --depth_;
    indent();
    out_ += "</";
    out_ += open_[open_count_];
    out_ += ">\n";
}

}  // namespace idconform::reporters
