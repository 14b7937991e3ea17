// End-to-end tests of the HTTP(S) transport against scripted servers on
// loopback (tests/http/test_server.hpp): normal exchanges, keep-alive,
// concurrency, every failure kind, body caps and resends. Redirects, TLS,
// mTLS and connection-reuse safety: http_transport_tls_test.cpp.
#include "http_test_support.hpp"

namespace asio = boost::asio;
using namespace idconform;
using namespace idconform::test;
using namespace idconform::test::http_support;
using idconform::transport::Options;

TEST_CASE("registry maps http and https to the HTTP transport") {
    asio::io_context io;
    CHECK(transport::registry().count("http") == 1);
    CHECK(transport::registry().count("https") == 1);
    CHECK(transport::make("https", io.get_executor(), {}) != nullptr);
    CHECK(transport::make("carrier-pigeon", io.get_executor(), {}) == nullptr);
}

TEST_CASE("GET sends Host, User-Agent and the caller's headers") {
    TestServer server(answer_each([](const RawRequest& r) {
        return ok(r.method + " " + r.target + "|" + r.header("Host") + "|" + r.header("User-Agent") + "|" +
                  r.header("X-Trace") + "|" + r.header("Content-Length"));
    }));
    Client client;
    auto ex = client.send(make_request("GET", server.url("/items/7?full=1"), {{"X-Trace", "abc"}}));
    REQUIRE_FALSE(ex.error);
    REQUIRE(ex.response);
    CHECK(ex.response->status == 200);
    CHECK(ex.response->body ==
          "GET /items/7?full=1|127.0.0.1:" + std::to_string(server.port()) + "|idconform/0.1|abc|");
    CHECK(ex.response->body_bytes == ex.response->body.size());
    CHECK_FALSE(ex.response->body_truncated);
    CHECK(ex.attempts == 1);
    CHECK(ex.sent <= ex.received);
    CHECK(ex.sent != Clock::time_point{});
}

TEST_CASE("POST sends a JSON body with its length and content type and gets response headers back") {
    TestServer server(answer_each([](const RawRequest& r) {
        return http_response(201, r.body, "Content-Type: application/json\r\nX-Got-Type: " + r.header("Content-Type") +
                                              "\r\nX-Got-Length: " + r.header("Content-Length") + "\r\n");
    }));
    Client client;
    const std::string json = R"({"id":"0190b3c2-7d4e-7c3a-9f1e-2b4c6d8e0f12","n":1})";
    auto ex = client.send(make_request("POST", server.url("/items"), {{"Content-Type", "application/json"}}, json));
    REQUIRE(ex.response);
    CHECK(ex.response->status == 201);
    CHECK(ex.response->reason == "X");
    CHECK(ex.response->body == json);
    REQUIRE(ex.response->header("x-got-type"));
    CHECK(*ex.response->header("x-got-type") == "application/json");
    CHECK(*ex.response->header("X-Got-Length") == std::to_string(json.size()));
    CHECK(*ex.response->header("content-type") == "application/json");

    // A caller's Content-Length is replaced by the real one.
    auto ex2 = client.send(make_request("PUT", server.url("/items"), {{"Content-Length", "999"}}, "abc"));
    REQUIRE(ex2.response);
    CHECK(*ex2.response->header("X-Got-Length") == "3");
}

TEST_CASE("sequential requests reuse one keep-alive connection") {
    TestServer server(answer_each([](const RawRequest& r) { return ok(r.target); }));
    Client client;
    for (int i = 0; i < 20; ++i) {
        auto ex = client.send(make_request("GET", server.url("/n/" + std::to_string(i))));
        REQUIRE(ex.response);
        CHECK(ex.response->body == "/n/" + std::to_string(i));
    }
    CHECK(server.connections() == 1);
}

TEST_CASE("a request with Connection: close does not pool its connection") {
    TestServer server(answer_each([](const RawRequest&) { return ok("x"); }));
    Client client;
    for (int i = 0; i < 3; ++i) {
        auto ex = client.send(make_request("GET", server.url(), {{"Connection", "close"}}));
        REQUIRE(ex.response);
    }
    CHECK(server.connections() == 3);
}

TEST_CASE("50 concurrent exchanges on a two-thread io_context are all answered") {
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            asio::steady_timer t(co_await asio::this_coro::executor, std::chrono::milliseconds(20));
            co_await t.async_wait(asio::use_awaitable);
            if (!co_await c.write(ok(req->target))) co_return;
        }
    });
    asio::io_context io;
    auto tr = transport::make("http", io.get_executor(), short_timeouts());
    constexpr int n = 50;
    std::vector<std::optional<Exchange>> results(n);
    std::mutex mu;
    for (int round = 0; round < 2; ++round) {  // the second round runs on pooled connections
        for (int i = 0; i < n; ++i) {
            asio::co_spawn(io, tr->exchange(make_request("GET", server.url("/c/" + std::to_string(i)))),
                           [&, i](std::exception_ptr, Exchange ex) {
                               std::lock_guard lock(mu);
                               results[static_cast<std::size_t>(i)] = std::move(ex);
                           });
        }
        io.restart();
        std::thread other([&] { io.run(); });
        io.run();
        other.join();
        for (int i = 0; i < n; ++i) {
            const auto& ex = results[static_cast<std::size_t>(i)];
            REQUIRE(ex.has_value());
            REQUIRE_MESSAGE(ex->response.has_value(), (ex->error ? ex->error->message : "no error"));
            CHECK(ex->response->body == "/c/" + std::to_string(i));
        }
    }
    CHECK(server.connections() <= n);
}

TEST_CASE("a server that never answers gives a timeout and the socket is closed") {
    std::atomic<bool> saw_close{false};
    TestServer server([&](ServerConn& c) -> asio::awaitable<void> {
        (void)co_await c.read_request();
        saw_close = co_await c.wait_for_close();
    });
    Client client(short_timeouts(300));
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.error);
    CHECK_FALSE(ex.response);
    CHECK(ex.error->kind == TransportErrorKind::timeout);
    CHECK(ex.error->message.find("after 300 ms") != std::string::npos);
    // The transport closed its socket: the server's read ends.
    CHECK(eventually([&] { return saw_close.load(); }));
}

TEST_CASE("an endless chunked body ends in a timeout with bounded memory") {
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        (void)co_await c.read_request();
        if (!co_await c.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")) co_return;
        const std::string chunk = "4000\r\n" + std::string(0x4000, 'z') + "\r\n";
        while (co_await c.write(chunk)) {
        }
    });
    Client client(short_timeouts(500));
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::timeout);
    CHECK(ex.error->message.find("status 200") != std::string::npos);
}

TEST_CASE("a closed port gives a connect error") {
    std::uint16_t port = 0;
    {
        asio::io_context io;
        asio::ip::tcp::acceptor a(io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
        port = a.local_endpoint().port();
    }  // closed again: nothing listens there now
    Client client;
    auto ex = client.send(make_request("GET", "http://127.0.0.1:" + std::to_string(port) + "/"));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::connect);
    CHECK(ex.error->message == "connection refused to 127.0.0.1:" + std::to_string(port));
}

TEST_CASE("a listener whose accept queue is full gives a connect timeout") {
    // Linux drops SYNs while a listener's accept queue is full: with a backlog
    // of 0 and one connection already queued, the next connect hangs.
    asio::io_context io;
    asio::ip::tcp::acceptor full(io);
    full.open(asio::ip::tcp::v4());
    full.bind(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    full.listen(0);
    asio::ip::tcp::socket filler(io);
    filler.connect(full.local_endpoint());
    Options o;
    o.connect_timeout = std::chrono::milliseconds(300);
    Client client(o);
    auto ex = client.send(make_request("GET", "http://127.0.0.1:" + std::to_string(full.local_endpoint().port()) + "/"));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::timeout);
    CHECK_MESSAGE(ex.error->message.find("connect to 127.0.0.1:") != std::string::npos, ex.error->message);
    CHECK(ex.error->message.find("after 300 ms") != std::string::npos);
}

TEST_CASE("a host that does not resolve gives a resolve error") {
    Client client;
    auto ex = client.send(make_request("GET", "http://no-such-host.invalid/"));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::resolve);
    CHECK(ex.error->message.find("no-such-host.invalid") != std::string::npos);
}

TEST_CASE("hostile or broken answers give protocol errors") {
    struct Case {
        const char* name;
        std::string answer;
        const char* says;
    };
    const std::vector<Case> cases = {
        {"garbage", "SSH-2.0-OpenSSH_9.2\r\n\r\n", "malformed response"},
        {"bad status line", "HTTP/1.1 2x0 OK\r\n\r\n", "malformed response"},
        {"huge header", "HTTP/1.1 200 OK\r\nX-Big: " + std::string(200 * 1024, 'a') + "\r\n\r\n", "exceeds 65536"},
        {"closed mid-body", "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly ten b", "before the response was complete"},
        {"closed mid-chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", "before the response"},
        {"nothing at all", "", "without sending a response"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        TestServer server([&c](ServerConn& conn) -> asio::awaitable<void> {
            (void)co_await conn.read_request();
            if (!c.answer.empty()) (void)co_await conn.write(c.answer);
            conn.close();
        });
        Client client;
        auto ex = client.send(make_request("GET", server.url()));
        REQUIRE(ex.error);
        CHECK_FALSE(ex.response);
        CHECK(ex.error->kind == TransportErrorKind::protocol);
        CHECK_MESSAGE(ex.error->message.find(c.says) != std::string::npos, ex.error->message);
    }
}

TEST_CASE("a 50 MB body with a 1 MB cap keeps 1 MB and counts 50 MB, in bounded memory") {
    constexpr std::size_t total = 50u << 20;
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        while (co_await c.read_request()) {
            if (!co_await c.write("HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(total) + "\r\n\r\n")) co_return;
            const std::string block(1u << 20, 'b');
            for (std::size_t sent = 0; sent < total; sent += block.size())
                if (!co_await c.write(block)) co_return;
        }
    });
    Options o = short_timeouts(60000);
    o.body_cap = 1u << 20;
    Client client(o);
    {
        std::ofstream reset("/proc/self/clear_refs");  // "5" resets VmHWM (Linux >= 4.0)
        reset << "5";
    }
    const long before = vm_hwm_kib();
    auto ex = client.send(make_request("GET", server.url("/big")));
    const long after = vm_hwm_kib();
    REQUIRE(ex.response);
    CHECK(ex.response->body.size() == o.body_cap);
    CHECK(ex.response->body_bytes == total);
    CHECK(ex.response->body_truncated);
    CHECK(ex.response->body == std::string(o.body_cap, 'b'));
#if !defined(__SANITIZE_ADDRESS__)  // ASan's quarantine and shadow memory make RSS meaningless
    CHECK_MESSAGE(after - before < 20 * 1024, "peak RSS grew by " << (after - before) << " KiB");
#else
    (void)before;
    (void)after;
#endif
    // The whole body was read, so the connection stays usable.
    auto again = client.send(make_request("GET", server.url("/big")));
    REQUIRE(again.response);
    CHECK(again.response->body_bytes == total);
    CHECK(server.connections() == 1);
}

TEST_CASE("chunked bodies are decoded, and capped like any other") {
    TestServer server(answer_each([](const RawRequest&) {
        return std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") +
               "5\r\nhello\r\n1;ext=1\r\n \r\n6\r\nworld!\r\n0\r\nX-Trailer: t\r\n\r\n";
    }));
    Client client;
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.response);
    CHECK(ex.response->body == "hello world!");
    CHECK(ex.response->body_bytes == 12);

    Options o;
    o.body_cap = 4;
    Client capped(o);
    auto ex2 = capped.send(make_request("GET", server.url()));
    REQUIRE(ex2.response);
    CHECK(ex2.response->body == "hell");
    CHECK(ex2.response->body_bytes == 12);
    CHECK(ex2.response->body_truncated);
    CHECK(server.connections() == 2);  // each client reused nothing but its own connection
}

TEST_CASE("a body without length or chunking is read until the server closes") {
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        (void)co_await c.read_request();
        (void)co_await c.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it, ");
        (void)co_await c.write("until the end");
        c.close();
    });
    Client client;
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.response);
    CHECK(ex.response->body == "all of it, until the end");
    auto ex2 = client.send(make_request("GET", server.url()));  // that connection is gone: a new one
    REQUIRE(ex2.response);
    CHECK(server.connections() == 2);
}

TEST_CASE("HEAD answers carry no body even with a Content-Length") {
    TestServer server(answer_each([](const RawRequest& r) {
        return r.method == "HEAD" ? std::string("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n") : ok("after");
    }));
    Client client;
    auto ex = client.send(make_request("HEAD", server.url()));
    REQUIRE(ex.response);
    CHECK(ex.response->body.empty());
    CHECK(ex.response->body_bytes == 0);
    auto ex2 = client.send(make_request("GET", server.url()));
    REQUIRE(ex2.response);
    CHECK(ex2.response->body == "after");
    CHECK(server.connections() == 1);
}

TEST_CASE("interim 1xx answers are skipped") {
    TestServer server(answer_each([](const RawRequest&) {
        return std::string("HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\n") + ok("final");
    }));
    Client client;
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.response);
    CHECK(ex.response->status == 200);
    CHECK(ex.response->body == "final");
}

TEST_CASE("a stale keep-alive connection is resent once on a fresh connection") {
    // Connection 1 answers its first request, then drops the second one
    // unanswered, as a server that timed out an idle connection would.
    std::atomic<int> seen{0};
    TestServer server([&](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            const int n = ++seen;
            if (n == 2) {
                c.close();
                co_return;
            }
            if (!co_await c.write(ok("answer " + std::to_string(n)))) co_return;
        }
    });
    Client client;
    auto first = client.send(make_request("POST", server.url(), {}, "payload"));
    REQUIRE(first.response);
    CHECK(first.response->body == "answer 1");
    auto second = client.send(make_request("POST", server.url(), {}, "payload"));
    REQUIRE_MESSAGE(second.response, (second.error ? second.error->message : ""));
    CHECK(second.response->body == "answer 3");
    CHECK(second.attempts == 1);
    CHECK(server.connections() == 2);
}

TEST_CASE("single_threaded: hops run inline, keep-alive reuse and the stale resend still work") {
    std::atomic<int> seen{0};
    TestServer server([&](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            const int n = ++seen;
            if (n == 3) {
                c.close();
                co_return;
            }
            if (!co_await c.write(ok("answer " + std::to_string(n)))) co_return;
        }
    });
    Options o;
    o.single_threaded = true;
    Client client(o);
    for (const char* want : {"answer 1", "answer 2", "answer 4"}) {
        auto ex = client.send(make_request("GET", server.url()));
        REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
        CHECK(ex.response->body == want);
        CHECK(ex.attempts == 1);
    }
    CHECK(server.connections() == 2);
}

TEST_CASE("single_threaded: the deadline watchdog times out a silent server and then lets the io_context stop") {
    std::atomic<bool> saw_close{false};
    TestServer server([&](ServerConn& c) -> asio::awaitable<void> {
        auto req = co_await c.read_request();
        if (req && req->target == "/answer") {
            while (req && co_await c.write(ok("fine"))) req = co_await c.read_request();
            co_return;
        }
        saw_close = co_await c.wait_for_close();
    });
    Options o = short_timeouts(300);
    o.single_threaded = true;
    Client client(o);
    auto ex = client.send(make_request("GET", server.url("/silent")));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::timeout);
    CHECK(ex.error->message.find("after 300 ms") != std::string::npos);
    CHECK(eventually([&] { return saw_close.load(); }));

    // With a deadline an hour away, the io_context still runs out of work as
    // soon as the exchange is done: the watchdog does not hold it.
    Options slow = o;
    slow.read_timeout = std::chrono::hours(1);
    asio::io_context io;
    auto tr = transport::make("http", io.get_executor(), slow);
    std::optional<Exchange> answered;
    asio::co_spawn(io, tr->exchange(make_request("GET", server.url("/answer"))),
                   [&](std::exception_ptr, Exchange e) { answered = std::move(e); });
    io.run_for(std::chrono::seconds(20));
    CHECK(io.stopped());
    REQUIRE(answered.has_value());
    REQUIRE_MESSAGE(answered->response, (answered->error ? answered->error->message : ""));
    CHECK(answered->response->body == "fine");
}

TEST_CASE("single_threaded: exchanges in flight keep their own deadlines") {
    // /hang is never answered; /fast is answered at once. Three hung
    // exchanges start at different times, fast ones run meanwhile.
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            if (req->target.rfind("/hang", 0) == 0) {
                (void)co_await c.wait_for_close();
                co_return;
            }
            if (!co_await c.write(ok(req->target))) co_return;
        }
    });
    Options o = short_timeouts(400);
    o.single_threaded = true;
    asio::io_context io;
    auto tr = transport::make("http", io.get_executor(), o);
    std::vector<std::optional<Exchange>> hung(3), fast(20);
    for (std::size_t i = 0; i < hung.size(); ++i) {
        asio::co_spawn(
            io,
            [&, i]() -> asio::awaitable<void> {
                asio::steady_timer wait(io, std::chrono::milliseconds(150 * static_cast<int>(i)));
                co_await wait.async_wait(asio::use_awaitable);
                hung[i] = co_await tr->exchange(make_request("GET", server.url("/hang/" + std::to_string(i))));
            },
            asio::detached);
    }
    asio::co_spawn(
        io,
        [&]() -> asio::awaitable<void> {
            for (std::size_t i = 0; i < fast.size(); ++i) {
                asio::steady_timer wait(io, std::chrono::milliseconds(20));
                co_await wait.async_wait(asio::use_awaitable);
                fast[i] = co_await tr->exchange(make_request("GET", server.url("/fast/" + std::to_string(i))));
            }
        },
        asio::detached);
    io.run_for(std::chrono::seconds(30));
    CHECK(io.stopped());
    for (const auto& ex : hung) {
        REQUIRE(ex.has_value());
        REQUIRE(ex->error);
        CHECK(ex->error->kind == TransportErrorKind::timeout);
        CHECK(ex->error->message.find("after 400 ms") != std::string::npos);
    }
    for (std::size_t i = 0; i < fast.size(); ++i) {
        REQUIRE(fast[i].has_value());
        REQUIRE_MESSAGE(fast[i]->response, (fast[i]->error ? fast[i]->error->message : ""));
        CHECK(fast[i]->response->body == "/fast/" + std::to_string(i));
    }
}

TEST_CASE("single_threaded: an idle connection the server closed is resent on a fresh one") {
    // Reused at once: the peek before the reuse sees the close, or (when the
    // FIN comes after it) the close shows up as a stale connection and the
    // request goes out once more on a new one. Either way, one attempt.
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        if (auto req = co_await c.read_request()) (void)co_await c.write(ok("once"));
        c.close();
    });
    Options o;
    o.single_threaded = true;
    Client client(o);
    for (int i = 0; i < 3; ++i) {
        auto ex = client.send(make_request("GET", server.url()));
        REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
        CHECK(ex.response->body == "once");
        CHECK(ex.attempts == 1);
    }
}

TEST_CASE("a request larger than the socket buffer is written whole, then the connection is reused") {
    // The first write of a plain request is a non-blocking write_some; what
    // does not fit goes out asynchronously. A slow server fills the buffers.
    TestServer server(answer_each([](const RawRequest& r) {
        std::size_t sum = 0;
        for (unsigned char c : r.body) sum += c;
        return ok(std::to_string(r.body.size()) + ":" + std::to_string(sum));
    }));
    std::string body(8u << 20, '\0');
    std::size_t sum = 0;
    for (std::size_t i = 0; i < body.size(); ++i) {
        body[i] = static_cast<char>('a' + i % 26);
        sum += static_cast<unsigned char>(body[i]);
    }
    for (bool single : {false, true}) {
        CAPTURE(single);
        Options o = short_timeouts(20000);
        o.single_threaded = single;
        Client client(o);
        for (int i = 0; i < 2; ++i) {
            auto ex = client.send(make_request("POST", server.url("/big"), {}, body));
            REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
            CHECK(ex.response->body == std::to_string(body.size()) + ":" + std::to_string(sum));
        }
    }
    CHECK(server.connections() == 2);
}

TEST_CASE("no resend when the first request on a fresh connection goes unanswered") {
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        (void)co_await c.read_request();
        c.close();
    });
    Client client;
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::protocol);
    CHECK(server.connections() == 1);
}

TEST_CASE("no resend when a reused connection dies after part of the answer") {
    std::atomic<int> seen{0};
    TestServer server([&](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            if (++seen == 2) {
                (void)co_await c.write("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\npart");
                c.close();
                co_return;
            }
            if (!co_await c.write(ok("one"))) co_return;
        }
    });
    Client client;
    REQUIRE(client.send(make_request("GET", server.url())).response);
    auto ex = client.send(make_request("GET", server.url()));
    REQUIRE(ex.error);
    CHECK(ex.error->kind == TransportErrorKind::protocol);
    CHECK(server.connections() == 1);
}

TEST_CASE("an idle connection the server closed is not used again") {
    TestServer server([](ServerConn& c) -> asio::awaitable<void> {
        if (auto req = co_await c.read_request()) (void)co_await c.write(ok("once"));
        c.close();  // no "Connection: close": the client only sees the FIN
    });
    Client client;
    for (int i = 0; i < 3; ++i) {
        auto ex = client.send(make_request("GET", server.url()));
        REQUIRE_MESSAGE(ex.response, (ex.error ? ex.error->message : ""));
    }
    CHECK(server.connections() == 3);
}
