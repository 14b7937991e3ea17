// The reports' XML writer (see xml_writer.hpp).
#include "reporters/xml_writer.hpp"

#include "reporters/text.hpp"

#include <array>
#include <stdexcept>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace idconform::reporters {

namespace {

// Bytes that XML carries as written, in text and in attributes alike.
constexpr auto plain = [] {
    std::array<bool, 256> t{};
    for (int ch = 0x20; ch <= 0x7e; ++ch) t[ch] = ch != '&' && ch != '<' && ch != '>' && ch != '"';
    return t;
}();

// The length of the run of plain bytes at the start of [p, p + n): 16 bytes
// at a time with SSE2 (a signed compare below ' ' finds both the control
// bytes and those from 0x80 up), the rest through the table. A report is
// mostly plain text: this loop was 4% of a run's instructions byte by byte.
std::size_t plain_run(const char* p, std::size_t n) noexcept {
    std::size_t i = 0;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' '), del = _mm_set1_epi8(0x7f), amp = _mm_set1_epi8('&'),
                  lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'), quot = _mm_set1_epi8('"');
    for (; i + 16 <= n; i += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
        __m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)));
        bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, quot)));
        if (const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(bad)); m != 0)
            return i + static_cast<std::size_t>(__builtin_ctz(m));
    }
#endif
    while (i < n && plain[static_cast<unsigned char>(p[i])]) ++i;
    return i;
}

// Appends `v` escaped; false (out as it was) at the first byte outside
// printable ASCII other than tab, line feed and carriage return: UTF-8, which
// xml_text checks, or a control character, which it makes visible.
bool escape_checked(std::string& out, std::string_view v, bool attribute, bool checked) {
    const std::size_t start = out.size();
    for (std::size_t i = 0; i < v.size();) {
        const std::size_t j = i + plain_run(v.data() + i, v.size() - i);
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
