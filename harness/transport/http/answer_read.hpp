// Reading one HTTP/1.1 answer from a stream into a Response: the status line
// and header (interim 1xx answers skipped up to a limit), the body through
// Beast's read loop with the transport's body cap, and whether the
// connection may carry another request. A template over the stream and free
// of sockets: the transport runs it over a TCP or TLS stream, the fuzz target
// (fuzz/fuzz_http_response.cpp) over boost::beast::test::stream fed with
// arbitrary bytes, so both exercise the same code. Deadlines, error text and
// TLS buffers stay with the caller (the check_deadline hook, classify()).
#pragma once

#include "core/exchange.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace idconform::transport::http {

// Bound on one answer's header (status line and fields).
inline constexpr std::uint32_t header_limit_bytes = 64 * 1024;
// Bytes Beast may hold in a connection's read buffer; the header limit above
// is the real bound on headers, this one bounds chunk lines and the like.
inline constexpr std::size_t read_buffer_limit = 256 * 1024;
// Largest piece of body read at once.
inline constexpr std::size_t body_chunk_bytes = 64 * 1024;
// 1xx answers (e.g. 103 Early Hints) skipped before the final one.
inline constexpr int max_interim_answers = 8;

struct AnswerLimits {
    std::size_t body_cap = 0;  // body bytes kept; the rest is counted and dropped
    bool head = false;         // the request was HEAD: the answer has no body
};

enum class AnswerPhase { header, body };

// What read_answer produced: a response, or the error it stopped at.
struct AnswerRead {
    std::optional<Response> response;  // set when the answer was read to its end
    boost::system::error_code ec;      // the read error (after check_deadline)
    AnswerPhase phase = AnswerPhase::header;
    // The error came before any byte of the first answer was parsed and with
    // nothing in the read buffer: on a reused connection, "closed while idle".
    bool nothing_received = false;
    bool too_many_interim = false;  // more than max_interim_answers 1xx answers
    // The answer may be followed by another request on this connection: it
    // was read to its end, its framing and Connection header say keep-alive,
    // it is not a 101, and no byte follows it in the read buffer (bytes after
    // a complete answer are nobody's answer). The caller adds its own
    // conditions (the request's Connection: close, the TLS layer's buffers).
    bool reusable = false;
    int status = 0;  // of the final answer, also when its body failed
    std::size_t body_bytes = 0;
};

// Reads one answer from `stream`, using and leaving `buffer` as the
// connection's read buffer (bytes after the answer stay in it).
// check_deadline(ec) is called after every read that did not finish
// the answer or failed; it may replace ec (e.g. by a timeout, closing the
// stream) to stop the loop.
template <class Stream, class CheckDeadline>
boost::asio::awaitable<AnswerRead> read_answer(Stream& stream, boost::beast::flat_buffer& buffer,
                                               const AnswerLimits& limits, CheckDeadline check_deadline) {
    namespace asio = boost::asio;
    namespace bhttp = boost::beast::http;
    using boost::system::error_code;
    constexpr auto nothrow = asio::as_tuple(asio::use_awaitable);

    AnswerRead out;
    std::optional<bhttp::response_parser<bhttp::buffer_body>> parser;
    for (int informational = 0;; ++informational) {
        parser.emplace();
        parser->header_limit(header_limit_bytes);
        parser->body_limit(boost::none);  // the cap below bounds memory; the count goes on
        if (limits.head) parser->skip(true);
        auto [ec, n] = co_await bhttp::async_read_header(stream, buffer, *parser, nothrow);
        (void)n;
        if (!parser->is_done() || ec) check_deadline(ec);
        if (ec) {
            out.nothing_received = informational == 0 && !parser->got_some() && buffer.size() == 0;
            out.ec = ec;
            co_return out;
        }
        const unsigned status = parser->get().result_int();
        if (status >= 100 && status < 200 && status != 101) {
            if (informational < max_interim_answers) continue;
            // A harness limit, not the answer. The connection (more interim
            // answers may still come) is not reused.
            out.too_many_interim = true;
            co_return out;
        }
        break;
    }

    Response resp;
    resp.status = static_cast<int>(parser->get().result_int());
    resp.reason = std::string(parser->get().reason());
    for (const auto& f : parser->get()) resp.headers.push_back({std::string(f.name_string()), std::string(f.value())});
    out.status = resp.status;
    out.phase = AnswerPhase::body;

    const std::size_t cap = limits.body_cap;
    // Read buffer: no larger than the announced body, and not zero-filled
    // (it is written before it is read); small answers are the common case.
    const auto announced = parser->content_length();
    const std::size_t chunk_size = announced ? std::clamp<std::size_t>(static_cast<std::size_t>(*announced), 1,
                                                                       body_chunk_bytes)
                                             : body_chunk_bytes;
    const std::unique_ptr<char[]> chunk(new char[chunk_size]);
    while (!parser->is_done()) {
        parser->get().body().data = chunk.get();
        parser->get().body().size = chunk_size;
        error_code ec;
        // Body bytes that came in with the header are parsed here: an
        // async_read with nothing to read completes through the scheduler (a
        // round trip on every small answer). Only missing bytes are read.
        std::size_t parsed = 0;
        if (buffer.size() > 0) {
            parsed = parser->put(buffer.data(), ec);
            buffer.consume(parsed);
            if (ec == bhttp::error::need_buffer || ec == bhttp::error::need_more) ec = {};
        }
        if (parsed == 0 && !ec) {
            auto [rec, n] = co_await bhttp::async_read(stream, buffer, *parser, nothrow);
            (void)n;
            ec = rec;
        }
        if (ec == bhttp::error::need_buffer) ec = {};
        if (!parser->is_done() || ec) check_deadline(ec);
        const std::size_t got = chunk_size - parser->get().body().size;
        resp.body_bytes += got;
        if (resp.body.size() < cap) resp.body.append(chunk.get(), std::min(got, cap - resp.body.size()));
        if (ec == asio::ssl::error::stream_truncated && parser->need_eof()) {
            // A TLS server that ends a read-until-close body without
            // close_notify: the close still marks the end of the body.
            error_code eof_ec;
            parser->put_eof(eof_ec);
            if (!eof_ec) break;
        }
        if (ec) {
            out.ec = ec;
            out.body_bytes = resp.body_bytes;
            co_return out;
        }
    }
    resp.body_truncated = resp.body_bytes > resp.body.size();
    out.body_bytes = resp.body_bytes;

    out.reusable = parser->keep_alive() && resp.status != 101 && buffer.size() == 0;
    out.response = std::move(resp);
    co_return out;
}

}  // namespace idconform::transport::http
