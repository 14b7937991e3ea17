// Fuzz target: what the harness does with an HTTP answer, socket-free. The
// input is the raw bytes a server sends. They are parsed by Beast's response
// parser with the transport's settings (header limit, 1xx answers skipped
// up to 8, body kept up to a cap and counted beyond), and the Response goes
// through everything the runner does with an answer: every kind of
// expectation (status, headers, JSON pointers, body, id checks with minted
// time windows, id members, the shape scan of every id-like string),
// captures from JSON, headers and status, and the redirect rules for a
// Location header. The socket loop itself (harness/transport/http,
// request_on) is not reachable without a socket; its parsing is Beast's.
#include "runner/body_json.hpp"
#include "runner/captures.hpp"
#include "runner/checks.hpp"
#include "runner/json_edit.hpp"
#include "suite/loader.hpp"
#include "transport/http/url_target.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;
namespace bhttp = boost::beast::http;

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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const suite::Step& step = the_step();
    boost::beast::flat_buffer buffer;
    auto in = buffer.prepare(size);
    if (size > 0) std::memcpy(in.data(), data, size);
    buffer.commit(size);

    std::optional<bhttp::response_parser<bhttp::buffer_body>> parser;
    boost::system::error_code ec;
    for (int informational = 0;; ++informational) {
        parser.emplace();
        parser->header_limit(64 * 1024);
        parser->body_limit(boost::none);
        parser->eager(false);
        while (!parser->is_header_done() && buffer.size() > 0) {
            const std::size_t n = parser->put(buffer.data(), ec);
            buffer.consume(n);
            if (ec || n == 0) break;
        }
        if (ec || !parser->is_header_done()) return 0;
        const unsigned status = parser->get().result_int();
        if (status >= 100 && status < 200 && status != 101 && informational < 8) continue;
        break;
    }
    Response resp;
    resp.status = static_cast<int>(parser->get().result_int());
    resp.reason = std::string(parser->get().reason());
    for (const auto& f : parser->get()) resp.headers.push_back({std::string(f.name_string()), std::string(f.value())});
    const std::size_t cap = 4096;
    char chunk[512];
    while (!parser->is_done()) {
        parser->get().body().data = chunk;
        parser->get().body().size = sizeof chunk;
        const std::size_t n = parser->put(buffer.data(), ec);
        buffer.consume(n);
        if (ec == bhttp::error::need_buffer) ec = {};
        const std::size_t got = sizeof chunk - parser->get().body().size;
        resp.body_bytes += got;
        if (resp.body.size() < cap) resp.body.append(chunk, std::min(got, cap - resp.body.size()));
        if (ec == bhttp::error::need_more || (n == 0 && got == 0)) {
            if (parser->need_eof()) parser->put_eof(ec);
            break;
        }
        if (ec) break;
    }
    resp.body_truncated = resp.body_bytes > resp.body.size();

    Exchange x;
    x.request.method = "GET";
    x.request.url = "http://127.0.0.1:8080/v1/x?q=1";
    x.request.headers = {{"Authorization", "Bearer t"}, {"Cookie", "a=b"}};
    x.response = resp;
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

    if (transport::http::is_redirect(resp.status))
        if (const std::string* loc = resp.header("Location")) {
            const auto hop = transport::http::next_redirect(x.request, resp.status, *loc);
            if (hop.next.has_value() == !hop.error.empty()) std::abort();
            if (hop.next) (void)transport::http::validate_request(*hop.next);
        }
    (void)transport::http::parse_target(x.request.url);
    return 0;
}
