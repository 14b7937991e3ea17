// The reports' XML writer: pugixml's bytes for the same document (the
// approved JUnit files were written by pugixml), whatever the text holds,
// and a document every XML parser reads back to the text it was given.
#include "reporters/text.hpp"
#include "reporters/xml_writer.hpp"

#include <doctest/doctest.h>
#include <pugixml.hpp>

#include <random>
#include <sstream>
#include <string>
#include <vector>

using idconform::reporters::XmlWriter;
using idconform::reporters::xml_text;

namespace {

// The same document built with pugixml and printed as the JUnit reporter's
// first version printed it (format_indent, two spaces).
std::string pugixml_of(const std::string& a, const std::string& t, unsigned depth) {
    pugi::xml_document doc;
    auto outer = doc.append_child("outer");
    outer.append_attribute("a").set_value(xml_text(a).c_str());
    auto inner = outer.append_child("inner");
    inner.append_attribute("n").set_value("1");
    inner.append_child(pugi::node_pcdata).set_value(xml_text(t).c_str());
    outer.append_child("none").append_attribute("v").set_value(xml_text(t).c_str());
    auto nested = outer.append_child("nested");
    nested.append_child("leaf");
    std::ostringstream out;
    outer.print(out, "  ", pugi::format_indent, pugi::encoding_utf8, depth);
    return out.str();
}

std::string writer_of(const std::string& a, const std::string& t, unsigned depth) {
    std::string out;
    XmlWriter w(out, depth);
    w.open("outer").attr("a", a).children();
    w.open("inner").attr("n", std::size_t{1}).text(t);
    w.open("none").attr("v", t).empty();
    w.open("nested").children();
    w.open("leaf").empty();
    w.close();
    w.close();
    return out;
}

}  // namespace

TEST_CASE("XML writer: the bytes pugixml prints, for every byte in text and attributes") {
    std::vector<std::string> texts = {"", "plain", "a&b<c>d\"e'f", "tab\there", "line\nfeed", "cr\rhere",
                                      "\x01\x1f\x7f", "caf\xc3\xa9", "bad \xff\xfe utf-8", "\xef\xbf\xbe"};
    for (int ch = 1; ch < 256; ++ch) texts.push_back("x" + std::string(1, static_cast<char>(ch)) + "y");
    std::mt19937 rng(42);
    for (int i = 0; i < 500; ++i) {
        std::string s(rng() % 24, '\0');
        for (char& ch : s) ch = static_cast<char>(1 + rng() % 255);  // NUL stops pugixml's C strings
        texts.push_back(std::move(s));
    }
    for (const auto& t : texts) {
        CAPTURE(t);
        for (unsigned depth : {0u, 2u}) CHECK(writer_of(t, t, depth) == pugixml_of(t, t, depth));
    }
}

TEST_CASE("XML writer: a byte to escape at every offset of long plain text (the 16-byte steps and the tail)") {
    const std::vector<std::string> specials = {"&", "<", ">", "\"", "\t", "\n", "\r", "\x01", "\x1f", "\x7f",
                                               "\x80", "\xff", "caf\xc3\xa9", "\xef\xbf\xbe"};
    for (const auto& sp : specials)
        for (std::size_t at = 0; at <= 40; ++at) {
            std::string t(40, 'p');
            t.insert(at, sp);
            t += std::string(at % 17, 'q');  // tails of every length after the last full step
            CAPTURE(t);
            CHECK(writer_of(t, t, 0) == pugixml_of(t, t, 0));
        }
    for (std::size_t n = 0; n <= 48; ++n) {  // all plain, every length
        const std::string t(n, 'z');
        CHECK(writer_of(t, t, 0) == pugixml_of(t, t, 0));
    }
}

TEST_CASE("XML writer: what it writes parses back to the text (made visible where XML cannot carry it)") {
    for (const std::string t : {"a&b<c>d\"e'f", "tab\there\nand\rcr", "\x02 ctl", "caf\xc3\xa9"}) {
        std::string out;
        XmlWriter w(out);
        w.declaration();
        w.open("e").attr("a", t).text(t);
        pugi::xml_document doc;
        REQUIRE(doc.load_string(out.c_str(), pugi::parse_escapes | pugi::parse_eol));
        const std::string seen = xml_text(t);
        CHECK(doc.child("e").attribute("a").value() == seen);
        // text keeps CR as written; the parser's end-of-line handling turns it into LF
        std::string text = seen;
        for (std::size_t at = text.find("\r\n"); at != std::string::npos; at = text.find("\r\n")) text.erase(at, 1);
        for (char& ch : text) ch = ch == '\r' ? '\n' : ch;
        CHECK(doc.child("e").text().get() == text);
    }
}
