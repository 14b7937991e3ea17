// The password masking of connection strings (conninfo.hpp) and the
// framing of binary COPY streams (copy_binary.hpp).
#include "db/conninfo.hpp"
#include "db/copy_binary.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace idconform::db;

TEST_CASE("passwords are masked in key=value strings and URIs") {
    CHECK(redact_conninfo("host=h password=pw dbname=d") == "host=h password=[REDACTED] dbname=d");
    CHECK(redact_conninfo("password='p w\\' x' host=h") == "password=[REDACTED] host=h");
    CHECK(redact_conninfo("host=h dbname=d") == "host=h dbname=d");
    CHECK(redact_conninfo("password = pw") == "password = [REDACTED]");
    CHECK(redact_conninfo("postgresql://u:pw@h:5432/d") == "postgresql://u:[REDACTED]@h:5432/d");
    CHECK(redact_conninfo("postgres://u@h/d?password=pw&sslmode=require") ==
          "postgres://u@h/d?password=[REDACTED]&sslmode=require");
    CHECK(password_in("host=h password='p w\\' x'") == "p w' x");
    CHECK(password_in("postgresql://u:p%40w@h/d") == "p@w");
    CHECK(password_in("postgresql://u@h/d?password=x%20y") == "x y");
    CHECK(password_in("host=h") == "");
}

namespace {

std::string be32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
}
std::string header() { return std::string("PGCOPY\n\377\r\n\0", 11) + be32(0) + be32(0); }
std::string row(const std::string& v) {
    return std::string("\0\1", 2) + be32(static_cast<std::uint32_t>(v.size())) + v;
}
std::string null_row() { return std::string("\0\1", 2) + be32(0xffffffffu); }
const std::string trailer("\xff\xff", 2);

// Feeds `stream` in pieces of `piece` bytes; the values seen ("<null>" for null).
std::vector<std::string> frame(const std::string& stream, std::size_t piece, std::string* error = nullptr) {
    BinaryCopy copy;
    std::vector<std::string> out;
    bool stop = false;
    for (std::size_t i = 0; i < stream.size(); i += piece) {
        const bool ok = copy.feed(
            std::string_view(stream).substr(i, piece),
            [&](const Value& v) {
                out.push_back(v.null ? "<null>" : std::string(v.bytes));
                return true;
            },
            stop);
        if (!ok) {
            if (error) *error = copy.error;
            return out;
        }
    }
    if (!copy.done) out.push_back("<not done>");
    return out;
}

}  // namespace

TEST_CASE("binary COPY: rows across message boundaries, nulls, the trailer") {
    const std::string s = header() + row("abc") + null_row() + row(std::string(16, '\x7f')) + row("") + trailer;
    const std::vector<std::string> want = {"abc", "<null>", std::string(16, '\x7f'), ""};
    for (std::size_t piece : {s.size(), std::size_t{1}, std::size_t{2}, std::size_t{5}, std::size_t{7}})
        CHECK(frame(s, piece) == want);
    // a header extension is skipped
    const std::string ext = std::string("PGCOPY\n\377\r\n\0", 11) + be32(0) + be32(3) + "xyz" + row("a") + trailer;
    CHECK(frame(ext, 4) == std::vector<std::string>{"a"});
    // an empty result: header and trailer only
    CHECK(frame(header() + trailer, 3).empty());
    std::string err;
    frame("NOTCOPY" + std::string(20, '\0'), 100, &err);
    CHECK(err == "not a binary COPY header");
    frame(header() + std::string("\0\2", 2) + be32(1) + "a" + be32(1) + "b", 100, &err);
    CHECK(err == "a row of 2 fields where 1 was asked");
    CHECK(frame(header() + row("abc"), 100) == std::vector<std::string>{"abc", "<not done>"});
}

TEST_CASE("binary COPY: rows of two fields arrive whole, across boundaries") {
    const std::string s = header() + std::string("\0\2", 2) + be32(2) + "ab" + be32(0xffffffffu) +
                          std::string("\0\2", 2) + be32(1) + "c" + be32(1) + "d" + trailer;
    for (std::size_t piece : {s.size(), std::size_t{1}, std::size_t{3}}) {
        BinaryCopy copy(2);
        std::vector<std::string> rows;
        bool stop = false;
        for (std::size_t i = 0; i < s.size(); i += piece)
            REQUIRE(copy.feed_rows(std::string_view(s).substr(i, piece),
                                   [&](const Value* v, std::size_t n) {
                                       REQUIRE(n == 2);
                                       rows.push_back(std::string(v[0].bytes) + "|" +
                                                      (v[1].null ? "<null>" : std::string(v[1].bytes)));
                                       return true;
                                   },
                                   stop));
        CHECK(copy.done);
        CHECK(rows == std::vector<std::string>{"ab|<null>", "c|d"});
    }
}
