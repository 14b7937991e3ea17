// Tests of the one glob (core/glob.hpp) used by `run --filter` and by the
// waivers' scopes.
#include "core/glob.hpp"

#include <doctest/doctest.h>

#include <string>

using idconform::glob_match;

TEST_CASE("glob_match: '*' any run, '?' one char, everything else literal") {
    CHECK(glob_match("*", ""));
    CHECK(glob_match("*", "anything at all"));
    CHECK(glob_match("", ""));
    CHECK_FALSE(glob_match("", "a"));
    CHECK_FALSE(glob_match("?", ""));
    CHECK(glob_match("?", "x"));
    CHECK(glob_match("a?c", "abc"));
    CHECK_FALSE(glob_match("a?c", "ac"));
    CHECK_FALSE(glob_match("a?c", "abbc"));
    CHECK(glob_match("a?c*", "abcdef"));
    CHECK_FALSE(glob_match("a?c", "abcd"));
    CHECK(glob_match("create*", "create product"));
    CHECK_FALSE(glob_match("create*", "a create"));
    CHECK(glob_match("*[nil]", "path id rejected [nil]"));  // brackets are literal: no classes
    CHECK_FALSE(glob_match("*[nil]", "path id rejected [max]"));
    CHECK_FALSE(glob_match("[abc]", "a"));
    CHECK(glob_match("*ab", "aab"));  // needs backtracking
    CHECK(glob_match("a*b*c", "aXbYc"));
    CHECK(glob_match("a*b*c", "abc"));
    CHECK_FALSE(glob_match("a*b*c", "aXbY"));
    CHECK(glob_match("**", "x"));
    CHECK(glob_match("*?*", "x"));
    CHECK_FALSE(glob_match("*?*", ""));
    CHECK_FALSE(glob_match("ab", "abc"));
    CHECK_FALSE(glob_match("abc", "ab"));
    CHECK_FALSE(glob_match("Create*", "create x"));  // case-sensitive
    CHECK(glob_match("DATA-ID-00?", "DATA-ID-002"));
    CHECK_FALSE(glob_match("DATA-ID-00?", "DATA-ID-0021"));
    CHECK(glob_match("R5.*", "R5.3"));
    CHECK_FALSE(glob_match("R5.*", "R53"));
}

TEST_CASE("glob_match: a '*' in the pattern is a wildcard even where the text has a '*'") {
    // the copies this function replaced matched "*" against a text '*'
    // literally first and then gave up: glob("*", "*x") was false
    CHECK(glob_match("*", "*x"));
    CHECK(glob_match("a*", "a*b"));
    CHECK(glob_match("*b", "**b"));
    CHECK(glob_match("?", "*"));
}

TEST_CASE("glob_match: '?' is one UTF-8 character, not one byte") {
    CHECK(glob_match("caf?", "caf\xC3\xA9"));             // é
    CHECK_FALSE(glob_match("caf??", "caf\xC3\xA9"));
    CHECK(glob_match("?", "\xE2\x80\xBA"));               // › (3 bytes)
    CHECK(glob_match("?", "\xF0\x9F\x98\x80"));           // an emoji (4 bytes)
    CHECK(glob_match("*?", "\xF0\x9F\x98\x80"));
    CHECK(glob_match("a*?z", "a\xC3\xA9\xC3\xA9z"));
    CHECK_FALSE(glob_match("a*??z", "a\xC3\xA9z"));
    // bytes that are not valid UTF-8 count one each
    CHECK(glob_match("??", "\xC3\x28"));                  // lead byte without its continuation
    CHECK(glob_match("?", "\x80"));
    CHECK(glob_match("??", "\xE2\x80"));                  // a cut 3-byte sequence: two characters
    CHECK(glob_match("???", "\xF8\x88\x80"));             // no 5-byte forms
}

TEST_CASE("glob_match: many stars over a long text end quickly and correctly") {
    const std::string text(10000, 'a');
    CHECK_FALSE(glob_match("*a*a*a*a*a*a*a*a*b", text));
    CHECK(glob_match("*a*a*a*a*a*a*a*a*", text));
    CHECK(glob_match(std::string(200, '*') + "a", text));
}
