// The shared text helpers (core/strings.hpp): one percent-encoding for the
// runner's interpolation, the redaction of URL-encoded secrets and Kafka
// request URLs; ASCII-only case folding; shell words.
#include "core/redact.hpp"
#include "core/strings.hpp"

#include <doctest/doctest.h>

using namespace idconform;

TEST_CASE("percent_encode: unreserved and kept characters stay, every other byte is %XX upper-case") {
    CHECK(percent_encode("AZaz09-._~") == "AZaz09-._~");
    CHECK(percent_encode("a b/c:d") == "a%20b%2Fc%3Ad");
    CHECK(percent_encode("a b/c:d", "/:") == "a%20b/c:d");
    CHECK(percent_encode("{x}") == "%7Bx%7D");
    // bytes >= 0x80 are always encoded (std::isalnum could keep them in some locales; the copies used it)
    CHECK(percent_encode("\xc3\xa9") == "%C3%A9");
    CHECK(percent_encode(std::string_view("a\0b", 3), std::string_view("\0", 1)) == "a%00b");
    CHECK(percent_encode("") == "");
}

TEST_CASE("percent_encode: every byte, alone and between runs of unreserved text, as RFC 3986 says") {
    auto reference = [](unsigned char c, std::string_view keep) {
        const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                                c == '-' || c == '.' || c == '_' || c == '~';
        if (unreserved || (c != 0 && keep.find(static_cast<char>(c)) != std::string_view::npos))
            return std::string(1, static_cast<char>(c));
        static constexpr char hex[] = "0123456789ABCDEF";
        return std::string{'%', hex[c >> 4], hex[c & 15]};
    };
    for (const std::string_view keep : {std::string_view(""), std::string_view("/:@")})
        for (int c = 0; c < 256; ++c) {
            const std::string b(1, static_cast<char>(c));
            CAPTURE(c);
            CHECK(percent_encode(b, keep) == reference(static_cast<unsigned char>(c), keep));
            CHECK(percent_encode("01a2-x" + b + b + "~y", keep) ==
                  "01a2-x" + reference(static_cast<unsigned char>(c), keep) +
                      reference(static_cast<unsigned char>(c), keep) + "~y");
        }
}

TEST_CASE("iequals: ASCII case folding only") {
    CHECK(iequals("X-Api-Key", "x-api-key"));
    CHECK_FALSE(iequals("X-Api-Key", "x-api-ke"));
    CHECK_FALSE(iequals("\xc3\x89", "\xc3\xa9"));  // no folding beyond ASCII
    CHECK(iequals("", ""));
}

TEST_CASE("shell_quote: one word, inner quotes survive") {
    CHECK(shell_quote("abc") == "'abc'");
    CHECK(shell_quote("it's") == "'it'\\''s'");
    CHECK(shell_quote("") == "''");
}

TEST_CASE("file_uri: absolute paths get file://, relative ones stay relative, the rest is percent-encoded") {
    CHECK(file_uri("/usr/share/doc/idconform/lint.md") == "file:///usr/share/doc/idconform/lint.md");
    CHECK(file_uri("specs/api v2.yaml") == "specs/api%20v2.yaml");
    CHECK(file_uri("/tmp/a#b?c%d") == "file:///tmp/a%23b%3Fc%25d");
    CHECK(file_uri("C:\\specs\\api.yaml") == "C%3A/specs/api.yaml");
    CHECK(file_uri("/d\xc3\xa9j\xc3\xa0.yaml") == "file:///d%C3%A9j%C3%A0.yaml");
    CHECK(file_uri("").empty());
}

TEST_CASE("percent_decode: every %XX in either case, a stray '%' kept, no '+' for space, the inverse of percent_encode") {
    CHECK(idconform::percent_decode("p%40ss%2fw%2Fd") == "p@ss/w/d");
    CHECK(idconform::percent_decode("100%") == "100%");
    CHECK(idconform::percent_decode("%4") == "%4");
    CHECK(idconform::percent_decode("%zz%41") == "%zzA");
    CHECK(idconform::percent_decode("a+b") == "a+b");
    CHECK(idconform::percent_decode("%00x") == std::string("\0x", 2));
    const std::string all = [] {
        std::string s;
        for (int c = 0; c < 256; ++c) s += static_cast<char>(c);
        return s;
    }();
    CHECK(idconform::percent_decode(idconform::percent_encode(all)) == all);
}

TEST_CASE("unescape_pointer_token: ~1 is '/', ~0 is '~', in that order, a stray '~' kept") {
    CHECK(idconform::unescape_pointer_token("a~1b") == "a/b");
    CHECK(idconform::unescape_pointer_token("m~0n") == "m~n");
    CHECK(idconform::unescape_pointer_token("~01") == "~1");  // not '/': ~0 first gives "~" then "1"
    CHECK(idconform::unescape_pointer_token("x~") == "x~");
    CHECK(idconform::unescape_pointer_token("~2") == "~2");
    CHECK(idconform::unescape_pointer_token("") == "");
}
