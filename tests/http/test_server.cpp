// The scriptable loopback HTTP(S) test server (see test_server.hpp).
#include "test_server.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>

namespace idconform::test {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
constexpr auto nothrow = asio::as_tuple(asio::use_awaitable);

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

class PlainConn final : public ServerConn {
public:
    explicit PlainConn(tcp::socket& s) : s_(s) {}
    asio::awaitable<std::size_t> read_some(asio::mutable_buffer into) override {
        auto [ec, n] = co_await s_.async_read_some(into, nothrow);
        co_return ec ? 0 : n;
    }
    asio::awaitable<bool> write(std::string_view bytes) override {
        auto [ec, n] = co_await asio::async_write(s_, asio::buffer(bytes), nothrow);
        (void)n;
        co_return !ec;
    }
    void close() override {
        boost::system::error_code ec;
        s_.close(ec);
    }

private:
    tcp::socket& s_;
};

class TlsConn final : public ServerConn {
public:
    explicit TlsConn(asio::ssl::stream<tcp::socket>& s) : s_(s) {}
    asio::awaitable<std::size_t> read_some(asio::mutable_buffer into) override {
        auto [ec, n] = co_await s_.async_read_some(into, nothrow);
        co_return ec ? 0 : n;
    }
    asio::awaitable<bool> write(std::string_view bytes) override {
        auto [ec, n] = co_await asio::async_write(s_, asio::buffer(bytes), nothrow);
        (void)n;
        co_return !ec;
    }
    void close() override {
        boost::system::error_code ec;
        s_.lowest_layer().close(ec);
    }

private:
    asio::ssl::stream<tcp::socket>& s_;
};

}  // namespace

std::string RawRequest::header(std::string_view name) const {
    const std::string needle = "\r\n" + lower(name) + ":";
    const std::string h = lower(head);
    auto pos = h.find(needle);
    if (pos == std::string::npos) return {};
    pos += needle.size();
    auto end = head.find("\r\n", pos);
    std::string value = head.substr(pos, end - pos);
    value.erase(0, value.find_first_not_of(' '));
    return value;
}

asio::awaitable<std::optional<RawRequest>> ServerConn::read_request() {
    char buf[8192];
    std::size_t head_end;
    while ((head_end = pending_.find("\r\n\r\n")) == std::string::npos) {
        const std::size_t n = co_await read_some(asio::buffer(buf));
        if (n == 0) co_return std::nullopt;
        pending_.append(buf, n);
    }
    RawRequest r;
    r.head = pending_.substr(0, head_end + 2);
    pending_.erase(0, head_end + 4);
    const auto sp1 = r.head.find(' ');
    const auto sp2 = r.head.find(' ', sp1 + 1);
    r.method = r.head.substr(0, sp1);
    r.target = r.head.substr(sp1 + 1, sp2 - sp1 - 1);
    const std::string cl = r.header("Content-Length");
    const std::size_t length = cl.empty() ? 0 : std::stoul(cl);
    while (pending_.size() < length) {
        const std::size_t n = co_await read_some(asio::buffer(buf));
        if (n == 0) co_return std::nullopt;
        pending_.append(buf, n);
    }
    r.body = pending_.substr(0, length);
    pending_.erase(0, length);
    co_return r;
}

asio::awaitable<bool> ServerConn::wait_for_close() {
    char buf[4096];
    while (co_await read_some(asio::buffer(buf)) > 0) {
    }
    co_return true;
}

std::string http_response(int status, std::string_view body, std::string_view extra_headers) {
    std::string out = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: " + std::to_string(body.size()) +
                      "\r\n";
    out += extra_headers;
    out += "\r\n";
    out += body;
    return out;
}

TestServer::TestServer(Handler handler, std::string address) : TestServer(std::move(handler), nullptr, address) {}

TestServer::TestServer(Handler handler, std::shared_ptr<asio::ssl::context> tls, std::string address)
    : handler_(std::move(handler)),
      tls_(std::move(tls)),
      address_(std::move(address)),
      acceptor_(io_, tcp::endpoint(asio::ip::make_address(address_), 0)) {
    port_ = acceptor_.local_endpoint().port();
    asio::co_spawn(io_, accept_loop(), [](std::exception_ptr) {});
    thread_ = std::thread([this] { io_.run(); });
}

TestServer::~TestServer() {
    io_.stop();
    thread_.join();
}

std::string TestServer::url(std::string_view path) const {
    return std::string(tls_ ? "https://" : "http://") + address_ + ":" + std::to_string(port_) + std::string(path);
}

asio::awaitable<void> TestServer::accept_loop() {
    for (;;) {
        auto [ec, socket] = co_await acceptor_.async_accept(nothrow);
        if (ec) co_return;
        ++connections_;
        asio::co_spawn(io_, serve(std::move(socket)), [](std::exception_ptr) {});
    }
}

asio::awaitable<void> TestServer::serve(tcp::socket socket) {
    if (!tls_) {
        PlainConn conn(socket);
        co_await handler_(conn);
        co_return;
    }
    asio::ssl::stream<tcp::socket> stream(std::move(socket), *tls_);
    auto [ec] = co_await stream.async_handshake(asio::ssl::stream_base::server, nothrow);
    if (ec) {
        ++handshake_failures_;
        co_return;
    }
    TlsConn conn(stream);
    co_await handler_(conn);
}

bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (!pred() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return pred();
}

}  // namespace idconform::test
