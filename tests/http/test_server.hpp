// A tiny scriptable HTTP server for the transport tests: plain Boost.Asio
// (no Beast, so it cannot share a parser bug with the client under test),
// listening on a loopback port chosen by the kernel, running in its own
// thread. Each accepted connection runs the test's handler coroutine, which
// can answer properly or misbehave in any way (garbage, silence, early close).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

namespace idconform::test {

struct RawRequest {
    std::string method;
    std::string target;
    std::string head;  // the whole header block, request line included
    std::string body;
    // Value of the first header with this name (case-insensitive), or "".
    [[nodiscard]] std::string header(std::string_view name) const;
};

// One accepted connection as the handler sees it (plain or TLS).
class ServerConn {
public:
    virtual ~ServerConn() = default;
    // Bytes read into `into`; 0 on EOF or error.
    virtual boost::asio::awaitable<std::size_t> read_some(boost::asio::mutable_buffer into) = 0;
    // false when the peer is gone.
    virtual boost::asio::awaitable<bool> write(std::string_view bytes) = 0;
    // Closes the socket at once (no TLS close_notify).
    virtual void close() = 0;

    // Reads one request (Content-Length bodies only); nullopt on EOF.
    boost::asio::awaitable<std::optional<RawRequest>> read_request();
    // Reads until the peer closes; true when it did (rather than sending).
    boost::asio::awaitable<bool> wait_for_close();

private:
    std::string pending_;  // bytes read past the last request
};

using Handler = std::function<boost::asio::awaitable<void>(ServerConn&)>;

// "HTTP/1.1 <status> X\r\nContent-Length: n\r\n<extra>\r\n<body>".
std::string http_response(int status, std::string_view body, std::string_view extra_headers = {});

class TestServer {
public:
    // Plain HTTP on 127.0.0.1 (or `address`, another loopback address).
    explicit TestServer(Handler handler, std::string address = "127.0.0.1");
    // HTTPS with this server context.
    TestServer(Handler handler, std::shared_ptr<boost::asio::ssl::context> tls, std::string address = "127.0.0.1");
    ~TestServer();
    TestServer(const TestServer&) = delete;
    TestServer& operator=(const TestServer&) = delete;

    [[nodiscard]] std::uint16_t port() const { return port_; }
    // "http://127.0.0.1:<port>" + path (https when TLS).
    [[nodiscard]] std::string url(std::string_view path = "/") const;
    [[nodiscard]] int connections() const { return connections_.load(); }
    [[nodiscard]] int handshake_failures() const { return handshake_failures_.load(); }

private:
    boost::asio::awaitable<void> accept_loop();
    boost::asio::awaitable<void> serve(boost::asio::ip::tcp::socket socket);

    Handler handler_;
    std::shared_ptr<boost::asio::ssl::context> tls_;
    std::string address_;
    boost::asio::io_context io_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::uint16_t port_ = 0;
    std::atomic<int> connections_{0};
    std::atomic<int> handshake_failures_{0};
    std::thread thread_;
};

// Waits (polling, at most `limit`) until pred() holds; returns pred().
bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit = std::chrono::seconds(10));

}  // namespace idconform::test
