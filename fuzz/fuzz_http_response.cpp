// Fuzz target: what the harness does with an HTTP answer, socket-free. The
// first input byte picks how the bytes arrive (all at once, or 1-125 bytes
// per read, at most 64 reads), whether the request was HEAD, and the body
// cap; the rest is what a server sends. They go through the transport's own answer reading
// (transport/http/answer_read.hpp: Beast's header and body read loops with
// the transport's header limit, 1xx answers skipped up to 8, the body cap,
// the reuse decision) over boost::beast::test::stream, which then reports
// end of stream. Properties: the read always ends; a response's kept body
// is within the cap, its count at least the kept bytes, truncated exactly
// when more was counted; a connection with bytes left after the answer is
// never reusable. The Response then goes through everything the runner does
// with an answer: every kind of expectation (status, headers, JSON
// pointers, body, id checks with minted time windows, id members, the shape
// scan of every id-like string), captures from JSON, headers and status,
// and the redirect rules for a Location header.
#include "runner/body_json.hpp"
#include "runner/captures.hpp"
#include "runner/checks.hpp"
#include "runner/scope.hpp"
#include "suite/loader.hpp"
#include "transport/http/answer_read.hpp"
#include "transport/http/url_target.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/_experimental/test/stream.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace idconform;
namespace asio = boost::asio;

namespace {

// One step that asks for everything the checks can do.
const char* const suite_text = R"(name: fuzz
vars:
  expected: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
cases:
  - name: all checks
    steps:
      - http: {path: /x}
        expect:
          status: 2xx
          headers:
            Content-Type: {regex: "application/json.*"}
            Location: {present: true}
          json:
            /id: {type: string}
            /items/0/id: ${expected}
            /count: {type: integer}
            /name: {regex: "[a-z]+"}
            /tags: {one_of: [a, b]}
            /gone: {absent: true}
          body: {contains: ["id"], not_contains: ["secret"]}
          id:
            - {at: /id, kind: uuidv7, minted: true}
            - {at: /items/0/owner_id, kind: uuid, allow_null: true}
            - {at: /id, equals: "${expected}", unique: true}
            - {header: Location, kind: uuidv7}
            - {at: /ulid, kind: ulid}
            - {at: /vid, kind: viewable}
          id_members: uuidv7
        capture:
          new_id: /id
          loc: {header: Location}
          code: {status: true}
          whole: ""
)";

const suite::Step& the_step() {
    static const suite::LoadResult loaded = suite::load_text(suite_text, "fuzz.yaml");
    if (!loaded.suite) {
        for (const auto& d : loaded.diagnostics) std::fputs(render(d).c_str(), stderr);
        std::abort();
    }
    return loaded.suite->cases.at(0).steps.at(0);
}

void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz_http_response: %s\n", what);
    std::abort();
}

// A coroutine with its state in parameters (a capturing lambda coroutine
// would outlive its captures).
asio::awaitable<void> read_one(boost::beast::test::stream& s, boost::beast::flat_buffer& buffer,
                               const transport::http::AnswerLimits& limits, transport::http::AnswerRead& out,
                               bool& done) {
    out = co_await transport::http::read_answer(s, buffer, limits, [](boost::system::error_code&) {});
    done = true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const suite::Step& step = the_step();
    const std::uint8_t sel = data[0];
    // One io_context for the process: making one per input costs an epoll
    // and an eventfd.
    static asio::io_context io;

    transport::http::AnswerLimits limits;
    limits.head = (sel & 0x80) != 0;
    limits.body_cap = (sel & 0x40) ? 16 : 4096;
    transport::http::AnswerRead got;
    bool done = false;
    boost::beast::flat_buffer buffer{transport::http::read_buffer_limit};
    {
        boost::beast::test::stream server_bytes(
            io, boost::beast::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
        // Pieces of 1-125 bytes, but at most 64 reads per input: each read
        // is a trip through Asio's handler machinery, which made 1-byte
        // reads of 64 KiB inputs run at 200 inputs/s.
        if (const unsigned piece = sel & 0x3f; piece != 0)
            server_bytes.read_size(std::max<std::size_t>(piece * 2 - 1, (size + 63) / 64));
        server_bytes.close_remote();  // after the bytes: end of stream
        asio::co_spawn(io, read_one(server_bytes, buffer, limits, got, done), asio::detached);
        io.restart();
        io.run();
    }
    require(done, "the answer read did not end");
    if (buffer.size() > 0) require(!got.reusable, "a connection with unread bytes is reusable");
    if (!got.response) return 0;
    require(!got.ec && !got.too_many_interim, "a response and an error");
    Response& resp = *got.response;
    require(resp.body.size() <= limits.body_cap, "body over the cap");
    require(resp.body_bytes >= resp.body.size(), "body count below the kept bytes");
    require(resp.body_truncated == (resp.body_bytes > resp.body.size()), "truncation flag");
    if (limits.head) require(resp.body_bytes == 0, "a body on a HEAD answer");

    Exchange x;
    x.request.method = "GET";
    x.request.url = "http://127.0.0.1:8080/v1/x?q=1";
    x.request.headers = {{"Authorization", "Bearer t"}, {"Cookie", "a=b"}};
    x.response = std::move(resp);
    x.sent = Clock::time_point(std::chrono::milliseconds(1645557742000));
    x.received = x.sent + std::chrono::milliseconds(50);

    runner::Scope scope;
    scope.set("expected", boost::json::value("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
    std::set<std::string> seen;
    std::map<std::string, std::vector<std::string>> collected;
    runner::CheckContext ctx;
    ctx.scope = &scope;
    ctx.rule = "DATA-ID-001";
    ctx.seen_ids = &seen;
    ctx.collected = &collected;
    runner::BodyJson body(*x.response);
    for (const auto& c : runner::evaluate(step.expect, x, ctx, body)) (void)c;
    std::map<std::string, std::set<int>> versions;
    if (const auto* v = body.get()) (void)runner::scan_ids(*v, &versions);
    (void)runner::apply_captures(step.captures, x, scope, body);

    const int status = x.response->status;
    if (transport::http::is_redirect(status))
        if (const std::string* loc = x.response->header("Location")) {
            const auto hop = transport::http::next_redirect(x.request, status, *loc);
            if (hop.next.has_value() == !hop.error.empty()) std::abort();
            if (hop.next) (void)transport::http::validate_request(*hop.next);
        }
    (void)transport::http::parse_target(x.request.url);
    return 0;
}
