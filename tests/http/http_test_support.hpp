// Helpers of the HTTP transport tests (http_transport_test.cpp,
// http_transport_tls_test.cpp): a client over the registry's transport,
// requests, handlers, peak RSS and the self-signed test certificates.
#pragma once

#include "test_server.hpp"

#include "transport/transport.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>


namespace idconform::test::http_support {

namespace asio = boost::asio;
using idconform::transport::Options;


inline Request make_request(std::string method, std::string url, std::vector<Header> headers = {}, std::string body = {}) {
    Request r;
    r.transport = url.rfind("https", 0) == 0 ? "https" : "http";
    r.method = std::move(method);
    r.url = std::move(url);
    r.headers = std::move(headers);
    r.body = std::move(body);
    return r;
}

// Owns an io_context and a transport made through the registry; send() runs
// one exchange to completion. The transport (and its pool) lives across
// calls, as in the runner.
struct Client {
    explicit Client(Options o = {}) : transport(transport::make("http", io.get_executor(), o)) {}
    asio::io_context io;
    std::unique_ptr<transport::Transport> transport;

    Exchange send(Request r) {
        std::optional<Exchange> out;
        asio::co_spawn(io, transport->exchange(std::move(r)), [&](std::exception_ptr e, Exchange ex) {
            if (!e) out = std::move(ex);
        });
        io.restart();
        io.run();
        REQUIRE(out.has_value());
        return *out;
    }
};

inline Options short_timeouts(int read_ms = 5000) {
    Options o;
    o.connect_timeout = std::chrono::milliseconds(5000);
    o.read_timeout = std::chrono::milliseconds(read_ms);
    return o;
}

// A handler answering every request on the connection with f(request).
inline Handler answer_each(std::function<std::string(const RawRequest&)> f) {
    return [f](ServerConn& c) -> asio::awaitable<void> {
        while (auto req = co_await c.read_request()) {
            if (!co_await c.write(f(*req))) co_return;
        }
    };
}

inline std::string ok(std::string_view body) { return http_response(200, body); }

// Peak resident set size of this process, in KiB (0 when unknown).
inline long vm_hwm_kib() {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
    return 0;
}

// Self-signed server and client certificates made once per test run.
struct Certs {
    std::filesystem::path dir;
    std::string server_cert, server_key, client_cert, client_key;
    bool ok = false;
    Certs() {
        char tmpl[] = "/tmp/idconform-http-test-XXXXXX";
        if (!mkdtemp(tmpl)) return;
        dir = tmpl;
        server_cert = (dir / "c.pem").string();
        server_key = (dir / "k.pem").string();
        client_cert = (dir / "client.pem").string();
        client_key = (dir / "client-key.pem").string();
        const std::string server_cmd =
            "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -keyout " + server_key + " -out " + server_cert +
            " -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1,DNS:localhost >/dev/null 2>&1";
        const std::string client_cmd = "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -keyout " + client_key +
                                       " -out " + client_cert + " -subj /CN=idconform-client >/dev/null 2>&1";
        ok = std::system(server_cmd.c_str()) == 0 && std::system(client_cmd.c_str()) == 0;
    }
    ~Certs() {
        std::error_code ec;
        if (!dir.empty()) std::filesystem::remove_all(dir, ec);
    }
};

inline const Certs& certs() {
    static Certs c;
    REQUIRE_MESSAGE(c.ok, "openssl could not make the test certificates");
    return c;
}

inline std::shared_ptr<asio::ssl::context> server_tls(bool require_client_cert) {
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    ctx->use_certificate_chain_file(certs().server_cert);
    ctx->use_private_key_file(certs().server_key, asio::ssl::context::pem);
    if (require_client_cert) {
        ctx->set_verify_mode(asio::ssl::verify_peer | asio::ssl::verify_fail_if_no_peer_cert);
        ctx->load_verify_file(certs().client_cert);
    }
    return ctx;
}

}  // namespace idconform::test::http_support
