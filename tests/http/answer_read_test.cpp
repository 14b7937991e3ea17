// Unit tests of the transport's answer reading (transport/http/answer_read.hpp)
// without a socket: the bytes a server sends are fed through
// boost::beast::test::stream, whole or in small pieces, as the fuzz target does.
#include "transport/http/answer_read.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>
#include <doctest/doctest.h>

#include <string>

using namespace idconform;
using namespace idconform::transport::http;
namespace asio = boost::asio;

namespace {

struct Read {
    AnswerRead got;
    std::size_t left = 0;  // bytes left in the read buffer after the answer
};

asio::awaitable<void> read_into(boost::beast::test::stream& s, boost::beast::flat_buffer& buffer,
                                const AnswerLimits& limits, AnswerRead& out, bool& done) {
    out = co_await read_answer(s, buffer, limits, [](boost::system::error_code&) {});
    done = true;
}

// The server sends `bytes` (in pieces of `piece` bytes, 0: as they come),
// then closes.
Read read(const std::string& bytes, std::size_t piece = 0, std::size_t cap = 1 << 20, bool head = false) {
    asio::io_context io;
    boost::beast::test::stream s(io, bytes);
    if (piece) s.read_size(piece);
    s.close_remote();
    boost::beast::flat_buffer buffer{read_buffer_limit};
    AnswerLimits limits;
    limits.body_cap = cap;
    limits.head = head;
    Read r;
    bool done = false;
    asio::co_spawn(io, read_into(s, buffer, limits, r.got, done), asio::detached);
    io.run();
    REQUIRE(done);
    r.left = buffer.size();
    return r;
}

const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";

}  // namespace

TEST_CASE("read_answer: a complete answer alone is reusable, whole or byte by byte") {
    for (std::size_t piece : {0, 1, 3}) {
        CAPTURE(piece);
        const Read r = read(ok, piece);
        REQUIRE(r.got.response);
        CHECK(r.got.response->status == 200);
        CHECK(r.got.response->body == "{}");
        CHECK(r.got.reusable);
        CHECK(r.left == 0);
    }
}

TEST_CASE("read_answer: bytes after a complete answer make the connection not reusable") {
    for (std::size_t piece : {0, 7}) {
        CAPTURE(piece);
        const Read r = read(ok + "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nstray", piece);
        REQUIRE(r.got.response);
        CHECK(r.got.response->body == "{}");
        if (r.left > 0) CHECK_FALSE(r.got.reusable);
        if (piece == 0) CHECK(r.left > 0);  // read with the answer: still in the buffer
    }
}

TEST_CASE("read_answer: interim answers skipped up to 8, a ninth is too many") {
    std::string eight;
    for (int i = 0; i < 8; ++i) eight += "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n";
    const Read r = read(eight + ok, 5);
    REQUIRE(r.got.response);
    CHECK(r.got.response->status == 200);
    const Read flood = read(eight + "HTTP/1.1 100 Continue\r\n\r\n" + ok);
    CHECK_FALSE(flood.got.response);
    CHECK(flood.got.too_many_interim);
    CHECK_FALSE(flood.got.reusable);
}

TEST_CASE("read_answer: the body cap keeps the first bytes and counts all, chunked, HEAD, read until close") {
    const Read capped = read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", 3, 4);
    REQUIRE(capped.got.response);
    CHECK(capped.got.response->body == "0123");
    CHECK(capped.got.response->body_bytes == 10);
    CHECK(capped.got.response->body_truncated);
    CHECK(capped.got.reusable);

    const Read chunked = read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=1\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n", 2);
    REQUIRE(chunked.got.response);
    CHECK(chunked.got.response->body == "abcde");
    CHECK(chunked.got.reusable);

    const Read head = read("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", 0, 1 << 20, true);
    REQUIRE(head.got.response);
    CHECK(head.got.response->body_bytes == 0);
    CHECK(head.got.reusable);

    const Read until_close = read("HTTP/1.1 200 OK\r\n\r\nall of it", 4);
    REQUIRE(until_close.got.response);
    CHECK(until_close.got.response->body == "all of it");
    CHECK_FALSE(until_close.got.reusable);
}

TEST_CASE("read_answer: truncated answers and oversized headers are errors, with the phase") {
    const Read cut = read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234");
    CHECK_FALSE(cut.got.response);
    CHECK(cut.got.phase == AnswerPhase::body);
    CHECK(cut.got.ec == boost::beast::http::error::partial_message);
    CHECK(cut.got.body_bytes == 5);

    const Read nothing = read("");
    CHECK_FALSE(nothing.got.response);
    CHECK(nothing.got.phase == AnswerPhase::header);
    CHECK(nothing.got.nothing_received);

    const Read huge = read("HTTP/1.1 200 OK\r\nX-Huge: " + std::string(70 * 1024, 'h') + "\r\n\r\n");
    CHECK_FALSE(huge.got.response);
    CHECK(huge.got.ec == boost::beast::http::error::header_limit);
    CHECK_FALSE(huge.got.nothing_received);

    const Read switching = read("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n");
    REQUIRE(switching.got.response);
    CHECK(switching.got.response->status == 101);
    CHECK_FALSE(switching.got.reusable);
}
