// End-to-end tests of the HTTP(S) transport against scripted servers on
// loopback, part two: redirects and credentials, TLS and mTLS, bytes a
// server sends after an answer (a connection is never reused with unread
// bytes), interim 1xx floods.
#include "http_test_support.hpp"

namespace asio = boost::asio;
using namespace idconform;
using namespace idconform::test;
using namespace idconform::test::http_support;
using idconform::transport::Options;

namespace {
// /r/<n> redirects with status <n> to /final; /loop redirects to itself;
// /chain/<n> redirects n+1 times (no loop) before /final;
// /final echoes method and body.
Handler redirecting_server(std::atomic<int>& loop_hits) {
    return answer_each([&loop_hits](const RawRequest& r) {
        if (r.target.rfind("/r/", 0) == 0)
            return http_response(std::stoi(r.target.substr(3)), "", "Location: /final?from=" + r.target.substr(3) + "\r\n");
        if (r.target == "/loop") {
            ++loop_hits;
            return http_response(302, "", "Location: /loop\r\n");
        }
        if (r.target.rfind("/chain/", 0) == 0) {  // /chain/N -> /chain/N-1 ... -> /chain/0 -> /final
            const int n = std::stoi(r.target.substr(7));
            return http_response(302, "", "Location: " + (n > 0 ? "/chain/" + std::to_string(n - 1) : "/final") + "\r\n");
        }
        return ok(r.method + ":" + r.body + ":" + r.header("Authorization"));
    });
}
}  // namespace

TEST_CASE("redirects are returned as they are by default") {
    std::atomic<int> loops{0};
    TestServer server(redirecting_server(loops));
    Client client;
    auto ex = client.send(make_request("GET", server.url("/r/302")));
    REQUIRE(ex.response);
    CHECK(ex.response->status == 302);
    CHECK(*ex.response->header("Location") == "/final?from=302");
    CHECK(ex.request.url == server.url("/r/302"));
}

TEST_CASE("redirects are followed when asked, with the method rules of each status") {
    std::atomic<int> loops{0};
    TestServer server(redirecting_server(loops));
    Options o;
    o.follow_redirects = true;
    o.max_redirects = 3;
    Client client(o);
    struct Case {
        int status;
        const char* method;
        const char* expect;
    };
    for (const Case& c : {Case{302, "GET", "GET:body:"}, Case{303, "POST", "GET::"}, Case{302, "POST", "GET::"},
                          Case{307, "POST", "POST:body:"}, Case{308, "PUT", "PUT:body:"}, Case{301, "DELETE", "DELETE:body:"}}) {
        CAPTURE(c.status);
        CAPTURE(c.method);
        auto ex = client.send(make_request(c.method, server.url("/r/" + std::to_string(c.status)), {}, "body"));
        REQUIRE(ex.response);
        CHECK(ex.response->status == 200);
        CHECK(ex.response->body == c.expect);
        CHECK(ex.request.url == server.url("/final?from=" + std::to_string(c.status)));
        CHECK(ex.request.method == std::string(c.expect).substr(0, std::string(c.expect).find(':')));
    }
    // Credentials stay on the same origin.
    auto same = client.send(make_request("GET", server.url("/r/302"), {{"Authorization", "Bearer t"}}));
    REQUIRE(same.response);
    CHECK(same.response->body == "GET::Bearer t");

    // A loop stops after max_redirects: an error that says it looped, no answer to check.
    auto loop = client.send(make_request("GET", server.url("/loop")));
    CHECK_FALSE(loop.response);
    REQUIRE(loop.error);
    CHECK(loop.error->kind == TransportErrorKind::protocol);
    CHECK(loop.error->message.find("redirect loop: 3 redirects followed (the limit)") == 0);
    CHECK(loop.error->message.find("Location: /loop") != std::string::npos);
    CHECK(loops.load() == 4);
    // A chain longer than the limit that does not loop: too many redirects.
    auto chain = client.send(make_request("GET", server.url("/chain/9")));
    CHECK_FALSE(chain.response);
    REQUIRE(chain.error);
    CHECK(chain.error->message.find("too many redirects: 3 redirects followed") == 0);
}

TEST_CASE("redirects to another origin drop credentials") {
    TestServer target(answer_each([](const RawRequest& r) { return ok("auth=" + r.header("Authorization")); }));
    TestServer origin(answer_each([&](const RawRequest&) {
        return http_response(307, "", "Location: " + target.url("/there") + "\r\n");
    }));
    Options o;
    o.follow_redirects = true;
    Client client(o);
    auto ex = client.send(make_request("GET", origin.url("/"), {{"Authorization", "Bearer secret"}}));
    REQUIRE(ex.response);
    CHECK(ex.response->body == "auth=");
    CHECK(ex.request.url == target.url("/there"));
}

TEST_CASE("bad requests are refused before anything is sent") {
    Client client;
    auto ex = client.send(make_request("GET", "ftp://127.0.0.1/"));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::other);
    CHECK(ex.error->message.find("unsupported URL scheme") != std::string::npos);
    auto ex2 = client.send(make_request("GET", "http://127.0.0.1:1/", {{"X-Evil", "a\r\nInjected: 1"}}));
    REQUIRE(ex2.error);
    CHECK(ex2.error->message.find("CR, LF or NUL") != std::string::npos);
}

TEST_CASE("HTTPS verifies the server against --cacert, by IP and by name") {
    TestServer server(answer_each([](const RawRequest&) { return ok("secure"); }), server_tls(false));
    Options o;
    o.tls.ca_file = certs().server_cert;
    Client client(o);
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
    CHECK(ex.response->body == "secure");
    auto by_name = client.send(make_request("GET", "https://localhost:" + std::to_string(server.port()) + "/"));
    REQUIRE_MESSAGE(by_name.response, (by_name.error ? by_name.error->message : ""));
    auto again = client.send(make_request("GET", server.url()));
    REQUIRE(again.response);
    CHECK(server.connections() == 2);  // one per origin (127.0.0.1, localhost), each reused
}

TEST_CASE("HTTPS without a trusted CA fails verification") {
    TestServer server(answer_each([](const RawRequest&) { return ok("secure"); }), server_tls(false));
    Client client;  // system store only: the self-signed certificate is unknown
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::tls);
    CHECK_MESSAGE(ex.error->message.find("certificate verify failed") != std::string::npos, ex.error->message);
}

TEST_CASE("HTTPS to an address the certificate does not name fails verification") {
    TestServer server(answer_each([](const RawRequest&) { return ok("secure"); }), server_tls(false), "127.0.0.2");
    Options o;
    o.tls.ca_file = certs().server_cert;
    Client client(o);
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::tls);
    CHECK_MESSAGE(ex.error->message.find("IP address mismatch") != std::string::npos, ex.error->message);
}

TEST_CASE("insecure HTTPS skips verification") {
    TestServer server(answer_each([](const RawRequest&) { return ok("secure"); }), server_tls(false), "127.0.0.2");
    Options o;
    o.tls.insecure = true;
    Client client(o);
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
    CHECK(ex.response->body == "secure");
}

TEST_CASE("mTLS: a server requiring a client certificate") {
    TestServer server(answer_each([](const RawRequest&) { return ok("hello client"); }), server_tls(true));
    Options o;
    o.tls.ca_file = certs().server_cert;
    {
        Client client(o);
        auto ex = client.send(make_request("GET", server.url()));
        REQUIRE(ex.error);
        CHECK(ex.error->kind == TransportErrorKind::tls);
        CHECK_FALSE(ex.response);
    }
    o.tls.cert_file = certs().client_cert;
    o.tls.key_file = certs().client_key;
    Client client(o);
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
    CHECK(ex.response->body == "hello client");
}

TEST_CASE("unreadable TLS files give a tls error on https, and http still works") {
    TestServer plain(answer_each([](const RawRequest&) { return ok("plain"); }));
    Options o;
    o.tls.ca_file = "/nonexistent/ca.pem";
    Client client(o);
    auto ex = client.send(make_request("GET", "https://127.0.0.1:1/"));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::tls);
    CHECK(ex.error->message.find("cannot load CA file '/nonexistent/ca.pem'") != std::string::npos);
    auto ok_ex = client.send(make_request("GET", plain.url()));
    REQUIRE(ok_ex.response);
}

// --- Hostile answers on a keep-alive connection (issue #14, defects 5 and 8) ---

namespace {

// What a server that writes more than its Content-Length says sends: an
// answer and, right behind it, bytes of no request (here shaped like an answer).
const std::string stray_answer = http_response(200, "stray");

// Answers request n with "answer n" padded to `pad` body bytes, followed in
// the same write by stray_answer.
Handler answer_then_stray(std::atomic<int>& seen, std::size_t pad = 0) {
    return [&seen, pad](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            std::string body = "answer " + std::to_string(++seen);
            if (body.size() < pad) body.append(pad - body.size(), '.');
            if (!co_await c.write(ok(body) + stray_answer)) co_return;
        }
    };
}

Options tls_client_options() {
    Options o;
    o.tls.ca_file = certs().server_cert;
    return o;
}

}  // namespace

TEST_CASE("bytes after a complete answer: the connection is not reused (HTTP)") {
    for (const bool single : {false, true}) {
        CAPTURE(single);
        std::atomic<int> seen{0};
        TestServer server(answer_then_stray(seen));
        Options o;
        o.single_threaded = single;
        Client client(o);
        for (int i = 1; i <= 3; ++i) {
            auto ex = client.send(make_request("GET", server.url()));
            REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
            CHECK(ex.response->body == "answer " + std::to_string(i));
        }
        CHECK(server.connections() == 3);
    }
}

TEST_CASE("bytes right after a complete answer over TLS: the connection is not reused (HTTPS)") {
    // The answer fills about one TLS record (16 KiB of plaintext), so the
    // stray bytes may come in a record of their own: read from the socket
    // with the answer, but still inside OpenSSL when the answer is parsed
    // (tls_has_unread), or already decrypted into the read buffer.
    std::atomic<int> seen{0};
    const std::size_t head = ok("").size();
    TestServer server(answer_then_stray(seen, 16384 - head - 2), server_tls(false));
    Client client(tls_client_options());
    for (int i = 1; i <= 3; ++i) {
        auto ex = client.send(make_request("GET", server.url()));
        REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
        CHECK(ex.response->body.rfind("answer " + std::to_string(i), 0) == 0);
    }
    CHECK(server.connections() == 3);
}

TEST_CASE("bytes arriving after a complete answer on plain HTTP: the connection is not used again") {
    // The stray bytes come in a write of their own, right after the answer
    // or later; the next request is sent once they are there, however short
    // the connection was idle (every reuse is peeked).
    for (const int delay_ms : {0, 50, 300}) {
        for (const bool single : {false, true}) {
            CAPTURE(delay_ms);
            CAPTURE(single);
            std::atomic<int> seen{0};
            std::atomic<int> strays_written{0};
            TestServer server([&](ServerConn& c) -> asio::awaitable<void> {
                while (auto req = co_await c.read_request()) {
                    if (!co_await c.write(ok("answer " + std::to_string(++seen)))) co_return;
                    if (delay_ms > 0) {
                        asio::steady_timer t(co_await asio::this_coro::executor,
                                             std::chrono::milliseconds(delay_ms));
                        co_await t.async_wait(asio::use_awaitable);
                    }
                    if (!co_await c.write(stray_answer)) co_return;
                    ++strays_written;
                }
            });
            Options o;
            o.single_threaded = single;
            Client client(o);
            for (int i = 1; i <= 3; ++i) {
                auto ex = client.send(make_request("GET", server.url()));
                REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
                CHECK(ex.response->body == "answer " + std::to_string(i));
                // The next request goes out once the server has written the
                // stray bytes (on loopback they are then in our socket's
                // queue): waiting on the server, not on a fixed sleep, keeps
                // this deterministic on a loaded machine.
                const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
                while (strays_written.load() < i && std::chrono::steady_clock::now() < give_up)
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                REQUIRE(strays_written.load() >= i);
            }
            CHECK(server.connections() == 3);
        }
    }
}

TEST_CASE("bytes arriving on an idle TLS connection: it is not used again") {
    // A session ticket comes before the first answer; what comes while the
    // connection is idle is bytes of no request.
    std::atomic<int> seen{0};
    TestServer server(
        [&](ServerConn& c) -> asio::awaitable<void> {
            while (auto req = co_await c.read_request()) {
                if (!co_await c.write(ok("answer " + std::to_string(++seen)))) co_return;
                asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(30));
                co_await t.async_wait(asio::use_awaitable);
                if (!co_await c.write(stray_answer)) co_return;
            }
        },
        server_tls(false));
    Client client(tls_client_options());
    auto first = client.send(make_request("GET", server.url()));
    REQUIRE(first.response);
    CHECK(first.response->body == "answer 1");
    std::this_thread::sleep_for(std::chrono::milliseconds(60));  // the stray bytes are there by now
    auto second = client.send(make_request("GET", server.url()));
    REQUIRE_MESSAGE(second.response, (second.error ? second.error->message : ""));
    CHECK(second.response->body == "answer 2");
    CHECK(server.connections() == 2);
}

TEST_CASE("more than 8 interim 1xx answers is a protocol error, over HTTP and HTTPS, 8 are skipped") {
    auto early_hints = [](int n) {
        std::string out;
        for (int i = 0; i < n; ++i) out += "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n";
        return out;
    };
    for (const bool tls : {false, true}) {
        CAPTURE(tls);
        std::atomic<int> seen{0};
        Handler h = [&](ServerConn& c) -> asio::awaitable<void> {
            while (auto req = co_await c.read_request()) {
                const int n = ++seen;
                // Each interim answer in a write (a TLS record) of its own.
                for (int i = 0; i < (n == 1 ? 12 : 8); ++i)
                    if (!co_await c.write(early_hints(1))) co_return;
                if (!co_await c.write(ok("final " + std::to_string(n)))) co_return;
            }
        };
        std::optional<TestServer> server;
        if (tls) server.emplace(h, server_tls(false));
        else server.emplace(h);
        Client client(tls ? tls_client_options() : Options{});
        auto flood = client.send(make_request("GET", server->url()));
        REQUIRE(flood.error);
        CHECK(flood.error->kind == TransportErrorKind::protocol);
        CHECK(flood.error->message.find("more than 8 interim (1xx) answers") != std::string::npos);
        auto next = client.send(make_request("GET", server->url()));
        REQUIRE_MESSAGE(next.response, (next.error ? next.error->message : ""));
        CHECK(next.response->status == 200);
        CHECK(next.response->body == "final 2");  // not the flood's late final answer
        CHECK(server->connections() == 2);
    }
}

TEST_CASE("a cross-origin redirect drops X-Api-Key and secret-holding headers, a same-origin one keeps them") {
    TestServer target(answer_each([](const RawRequest& r) {
        return ok("key=" + r.header("X-Api-Key") + ";sig=" + r.header("X-Signature") + ";accept=" + r.header("Accept"));
    }));
    TestServer origin(answer_each([&](const RawRequest& r) {
        if (r.target == "/here")
            return ok("key=" + r.header("X-Api-Key") + ";sig=" + r.header("X-Signature"));
        if (r.target == "/same") return http_response(302, "", "Location: /here\r\n");
        return http_response(307, "", "Location: " + target.url("/there") + "\r\n");
    }));
    Options o;
    o.follow_redirects = true;
    Client client(o);
    auto request = [&](const std::string& path) {
        Request r = make_request("GET", origin.url(path), {{"X-Api-Key", "k-123"}, {"X-Signature", "s-456"}, {"Accept", "a/b"}});
        r.secret_headers = {"X-Signature"};
        return r;
    };
    auto cross = client.send(request("/"));
    REQUIRE(cross.response);
    CHECK(cross.response->body == "key=;sig=;accept=a/b");
    auto same = client.send(request("/same"));
    REQUIRE(same.response);
    CHECK(same.response->body == "key=k-123;sig=s-456");
}
