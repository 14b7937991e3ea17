// The HTTP/1.1 transport on Boost.Beast: the only translation unit that
// includes Beast (it is slow to compile). One exchange = up to
// 1 + max_redirects hops; each hop takes an idle pooled connection or makes a
// new one and runs on that connection's strand, so socket operations and the
// stream's timeout handlers never race even when the io_context runs on
// several threads (with Options::single_threaded the hop runs inline instead). Deadlines live on the tcp_stream (expires_at), so a timeout
// closes the socket and really stops the work.
#include "transport/http/http_transport.hpp"

#include "transport/http/answer_read.hpp"
#include "transport/http/tls_hints.hpp"
#include "transport/http/url_target.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>

#include <algorithm>
#include <memory>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

namespace idconform::transport::http {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = boost::asio::ip::tcp;
using boost::system::error_code;

constexpr std::size_t max_idle_per_host = 64;
constexpr const char* default_user_agent = "idconform/0.1";

constexpr auto nothrow_awaitable = asio::as_tuple(asio::use_awaitable);

using TlsStream = beast::ssl_stream<beast::tcp_stream>;

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

const Header* find_header(const std::vector<Header>& headers, std::string_view name) {
    for (const auto& h : headers)
        if (iequals(h.name, name)) return &h;
    return nullptr;
}

// One keep-alive connection. Exactly one exchange uses it at a time (it is
// either in the idle pool or owned by the coroutine using it).
struct Connection {
    explicit Connection(asio::any_io_executor e) : executor(std::move(e)) {}
    // A strand of the transport's executor, or (single_threaded) the
    // executor itself: the one thread serialises everything already.
    asio::any_io_executor executor;
    std::unique_ptr<beast::tcp_stream> plain;
    std::unique_ptr<TlsStream> tls;
    beast::flat_buffer buffer{read_buffer_limit};
    int served = 0;  // responses read on it; > 0 means the next use is a reuse
    // Single-threaded mode: the exchange's deadline, watched by State's
    // watchdog, which closes the socket and sets timed_out when it passes.
    std::chrono::steady_clock::time_point deadline{};
    bool timed_out = false;

    beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*tls) : *plain; }

    // Whether an idle connection still looks usable: a peek that would block
    // means open and quiet. 0 (the server closed it) or bytes nobody asked
    // for (e.g. a "408 Request Timeout" before closing, stray bytes after an
    // answer) mean drop it, on TLS too: a TLS 1.3 session ticket comes
    // before the first answer and is read with it, so what arrives on an
    // idle TLS connection is a close_notify or bytes of no request.
    bool looks_alive() {
        auto& sock = lowest().socket();
        if (!sock.is_open()) return false;
        char byte = 0;
        const auto n = ::recv(sock.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
        return false;
    }
};

std::unique_ptr<ssl::context> make_ssl_context(const TlsOptions& o, std::string& error);

// Whether the TLS layer holds bytes not yet read by the parser: decrypted
// application data, or records buffered by OpenSSL or still in the memory
// BIO Asio feeds it from. No system call.
bool tls_has_unread(TlsStream& tls) {
    SSL* ssl_handle = tls.native_handle();
    if (SSL_pending(ssl_handle) > 0 || SSL_has_pending(ssl_handle) == 1) return true;
    BIO* rbio = SSL_get_rbio(ssl_handle);
    return rbio && BIO_ctrl_pending(rbio) > 0;
}

// Everything the transport shares between its exchanges. Held by shared_ptr
// so exchanges in flight keep it alive when the Transport object is gone.
struct State : std::enable_shared_from_this<State> {
    asio::any_io_executor ex;
    Options opts;
    // Made on the first https connection, not up front: loading the system
    // CA store costs tens of milliseconds that plain-HTTP runs never need.
    std::once_flag ssl_once;
    std::unique_ptr<ssl::context> ssl_ctx;  // null when the TLS setup failed
    std::string ssl_error;                  // why it failed

    ssl::context* tls_context() {
        std::call_once(ssl_once, [this] { ssl_ctx = make_ssl_context(opts.tls, ssl_error); });
        return ssl_ctx.get();
    }

    TargetCache targets;  // single-threaded mode only

    std::mutex mu;
    bool closed = false;  // no more pooling (transport destroyed)
    std::map<std::string, std::vector<std::unique_ptr<Connection>>> idle;

    std::unique_ptr<Connection> take_idle(const std::string& key) {
        std::lock_guard lock(mu);
        auto it = idle.find(key);
        if (it == idle.end()) return nullptr;
        auto& list = it->second;
        while (!list.empty()) {
            auto conn = std::move(list.back());  // most recently used first
            list.pop_back();
            // Every reuse is peeked, however short the idle time: bytes that
            // came in after the last answer was parsed (a server writing past
            // its Content-Length a moment later) are seen only by the kernel.
            // One recv costs ~0.3 us against ~50-100 us of client CPU per
            // request (bench/README.md); the peek is the last thing before
            // the request is written, so only bytes arriving in between or
            // later escape it, and those no client can tell from the answer.
            if (conn->looks_alive()) return conn;
        }
        return nullptr;
    }

    void give_back(const std::string& key, std::unique_ptr<Connection> conn) {
        std::lock_guard lock(mu);
        if (closed) return;
        auto& list = idle[key];
        if (list.size() >= max_idle_per_host) return;  // conn is closed on return
        list.push_back(std::move(conn));
    }

    // Read deadlines in single-threaded mode. Beast's stream arms a timer per
    // operation (a timerfd_settime for the write and another for the read of
    // every request); instead, connections in an exchange are listed here and
    // one timer, armed at the earliest deadline, closes the sockets whose
    // deadline has passed. With one timeout for all exchanges, a new deadline
    // is never the earliest, so the timer is re-armed about once per timeout.
    std::optional<asio::steady_timer> watchdog;
    std::chrono::steady_clock::time_point watchdog_at = std::chrono::steady_clock::time_point::max();
    std::vector<Connection*> watched;
    bool idle_check_posted = false;

    void watch(Connection& conn, std::chrono::steady_clock::time_point deadline, const std::shared_ptr<State>& self) {
        conn.deadline = deadline;
        conn.timed_out = false;
        watched.push_back(&conn);
        if (deadline < watchdog_at) arm(deadline, self);
    }

    void unwatch(Connection& conn, const std::shared_ptr<State>& self) {
        auto it = std::find(watched.begin(), watched.end(), &conn);
        if (it == watched.end()) return;
        *it = watched.back();
        watched.pop_back();
        // A pending timer would keep the io_context running: stop it when no
        // exchange follows at once (the next case's exchange usually does).
        if (watched.empty() && !idle_check_posted && watchdog_at != std::chrono::steady_clock::time_point::max()) {
            idle_check_posted = true;
            asio::post(ex, [self] {
                self->idle_check_posted = false;
                if (self->watched.empty() && self->watchdog) {
                    self->watchdog->cancel();
                    self->watchdog_at = std::chrono::steady_clock::time_point::max();
                }
            });
        }
    }

    void arm(std::chrono::steady_clock::time_point at, const std::shared_ptr<State>& self) {
        if (!watchdog) watchdog.emplace(ex);
        watchdog_at = at;
        watchdog->expires_at(at);  // cancels the earlier wait, if any
        watchdog->async_wait([self](const error_code& ec) {
            if (ec == asio::error::operation_aborted) return;  // re-armed or stopped
            self->expire(self);
        });
    }

    void expire(const std::shared_ptr<State>& self) {
        watchdog_at = std::chrono::steady_clock::time_point::max();
        const auto now = std::chrono::steady_clock::now();
        auto next = std::chrono::steady_clock::time_point::max();
        for (Connection* c : watched) {
            if (c->timed_out) continue;
            if (c->deadline <= now) {
                c->timed_out = true;
                c->lowest().close();  // the pending operation ends with operation_aborted
            } else {
                next = std::min(next, c->deadline);
            }
        }
        if (next != std::chrono::steady_clock::time_point::max()) arm(next, self);
    }

    void stop_watchdog() {
        if (watchdog) watchdog->cancel();
        watchdog_at = std::chrono::steady_clock::time_point::max();
    }

    void clear() {
        std::map<std::string, std::vector<std::unique_ptr<Connection>>> doomed;
        {
            std::lock_guard lock(mu);
            doomed.swap(idle);
        }
    }
};

// What one hop on one connection produced.
struct Attempt {
    std::optional<Response> response;
    std::optional<TransportError> error;
    bool keep_alive = false;
    // A reused connection failed before any byte of the answer came back:
    // the server had closed it while it was idle. The hop may be sent once
    // more on a fresh connection.
    bool stale = false;
    Clock::time_point sent{};
    Clock::time_point received{};
};

enum class Phase { resolve, connect, handshake, write, read_header, read_body };

std::string ms(std::chrono::milliseconds d) { return std::to_string(d.count()) + " ms"; }

bool is_ssl_error(const error_code& ec) {
    return ec.category() == asio::error::get_ssl_category() || ec.category() == ssl::error::get_stream_category();
}

// The errors that mean "the peer had already closed this connection".
bool is_connection_gone(const error_code& ec) {
    return ec == bhttp::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
           ec == asio::error::broken_pipe || ec == asio::error::connection_aborted ||
           ec == ssl::error::stream_truncated;
}

std::string tls_reason(const error_code& ec, TlsStream* tls, const TlsOptions& o) {
    std::string msg = ec.message();
    if (tls && ec.category() == asio::error::get_ssl_category() &&
        ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == SSL_R_CERTIFICATE_VERIFY_FAILED) {
        const long v = SSL_get_verify_result(tls->native_handle());
        if (v != X509_V_OK) msg += ": " + std::string(X509_verify_cert_error_string(v)) + unknown_issuer_hint(v, o);
    }
    return msg;
}

TransportError classify(Phase phase, const error_code& ec, const Target& t, const Options& o, TlsStream* tls,
                        const std::string& progress = {}) {
    using K = TransportErrorKind;
    const std::string where = t.authority();
    const std::string tail = progress.empty() ? "" : " (" + progress + ")";
    if (ec == beast::error::timeout || ec == asio::error::timed_out) {
        switch (phase) {
            case Phase::resolve: return {K::timeout, "resolving " + t.host + " timed out after " + ms(o.connect_timeout)};
            case Phase::connect: return {K::timeout, "connect to " + where + " timed out after " + ms(o.connect_timeout)};
            case Phase::handshake:
                return {K::timeout, "TLS handshake with " + where + " timed out after " + ms(o.connect_timeout)};
            default:
                return {K::timeout, "no complete response from " + where + " after " + ms(o.read_timeout) + tail};
        }
    }
    if (phase == Phase::resolve) return {K::resolve, "cannot resolve host '" + t.host + "': " + ec.message()};
    if (phase == Phase::connect) {
        if (ec == asio::error::connection_refused) return {K::connect, "connection refused to " + where};
        return {K::connect, "cannot connect to " + where + ": " + ec.message()};
    }
    if (phase == Phase::handshake) {
        if (is_ssl_error(ec)) return {K::tls, "TLS handshake with " + where + " failed: " + tls_reason(ec, tls, o.tls)};
        return {K::tls, "TLS handshake with " + where + " failed: " + ec.message()};
    }
    if (is_ssl_error(ec) && ec != ssl::error::stream_truncated)
        return {K::tls, "TLS error with " + where + ": " + tls_reason(ec, tls, o.tls) + tail};
    if (ec.category() == bhttp::make_error_code(bhttp::error::end_of_stream).category()) {
        if (ec == bhttp::error::end_of_stream)
            return {K::protocol, "server " + where + " closed the connection without sending a response"};
        if (ec == bhttp::error::partial_message)
            return {K::protocol, "server " + where + " closed the connection before the response was complete" + tail};
        if (ec == bhttp::error::header_limit)
            return {K::protocol, "response header from " + where + " exceeds " + std::to_string(header_limit_bytes) + " bytes"};
        if (ec == bhttp::error::buffer_overflow)
            return {K::protocol, "response from " + where + " overflows the " + std::to_string(read_buffer_limit) +
                                     "-byte read buffer (an endless header or chunk line)" + tail};
        return {K::protocol, "malformed response from " + where + ": " + ec.message() + tail};
    }
    if (ec == ssl::error::stream_truncated || ec == asio::error::eof)
        return {K::protocol, "server " + where + " closed the connection before the response was complete" + tail};
    const char* doing = phase == Phase::write ? "sending the request to " : "reading the response from ";
    return {K::other, std::string("connection failed while ") + doing + where + ": " + ec.message() + tail};
}

bool wants_body_length(const Request& r) {
    return !r.body.empty() || r.method == "POST" || r.method == "PUT" || r.method == "PATCH";
}

bhttp::request<bhttp::string_body> build_request(const Target& t, const Request& r) {
    bhttp::request<bhttp::string_body> req;
    req.version(11);
    req.method_string(r.method);
    req.target(t.target);
    const Header* host = find_header(r.headers, "Host");
    req.set(bhttp::field::host, host ? host->value : t.host_header);
    for (const auto& h : r.headers) {
        // Framing is ours: a hand-written length could hang or desync the
        // connection.
        if (iequals(h.name, "Host") || iequals(h.name, "Content-Length") || iequals(h.name, "Transfer-Encoding"))
            continue;
        req.insert(h.name, h.value);
    }
    if (!find_header(r.headers, "User-Agent")) req.set(bhttp::field::user_agent, default_user_agent);
    if (!t.userinfo.empty() && !find_header(r.headers, "Authorization"))
        req.set(bhttp::field::authorization, basic_auth(t.userinfo));
    req.body() = r.body;
    if (wants_body_length(r)) req.content_length(r.body.size());
    return req;
}

// Sends the request on an open connection and reads the answer.
template <class Stream>
asio::awaitable<Attempt> request_on(Stream& stream, Connection& conn, State& st, const Target& t,
                                    const Request& r) {
    Attempt a;
    TlsStream* tls = conn.tls.get();
    const bool reused = conn.served > 0;
    auto req = build_request(t, r);

    // One deadline for the write and the whole response. Beast arms it per
    // operation, but an operation that completes at once (a server streaming
    // without pause) can beat the timer forever, so the loops below also
    // check the clock between reads.
    const auto deadline = std::chrono::steady_clock::now() + st.opts.read_timeout;
    const bool watchdog = st.opts.single_threaded;
    // Ends the watch however the coroutine leaves. Never assigned from a
    // temporary: the temporary's destructor would end the watch at once
    // (the Debug/ASan build did, leaving a silent server without deadline).
    struct Unwatch {
        State* st = nullptr;
        Connection* conn = nullptr;
        Unwatch() = default;
        Unwatch(const Unwatch&) = delete;
        Unwatch& operator=(const Unwatch&) = delete;
        ~Unwatch() {
            if (st) st->unwatch(*conn, st->shared_from_this());
        }
    } unwatch;
    if (watchdog) {
        st.watch(conn, deadline, st.shared_from_this());
        unwatch.st = &st;
        unwatch.conn = &conn;
    } else {
        conn.lowest().expires_at(deadline);
    }
    auto enforce_deadline = [&](error_code& ec) {
        if (ec && conn.timed_out) ec = beast::error::timeout;  // the watchdog closed the socket
        if (!ec && std::chrono::steady_clock::now() >= deadline) {
            conn.lowest().close();
            ec = beast::error::timeout;
        }
    };
    // The request goes out as one buffer, laid out as Beast's serializer
    // writes it (request line, the fields in order, blank line, body): its
    // buffer-sequence machinery cost about a tenth of a small GET's CPU.
    std::string wire;
    wire.reserve(256 + r.body.size());
    wire.append(req.method_string()).append(" ").append(req.target()).append(" HTTP/1.1\r\n");
    for (const auto& f : req) wire.append(f.name_string()).append(": ").append(f.value()).append("\r\n");
    wire.append("\r\n").append(req.body());
    a.sent = Clock::now();
    error_code wec;
    std::size_t written = 0;
    if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
        // Plain HTTP: a small request nearly always fits the socket buffer,
        // so it is written at once (the socket is non-blocking, see open());
        // an asynchronous write would complete through the scheduler. Only
        // what did not fit is left to async_write.
        written = stream.socket().write_some(asio::buffer(wire), wec);
        if (wec == asio::error::would_block || wec == asio::error::try_again) wec = {};
    }
    if (!wec && written < wire.size()) {
        auto [ec, n] = co_await asio::async_write(stream, asio::buffer(wire) + written, nothrow_awaitable);
        (void)n;
        wec = ec;
    }
    if (wec && conn.timed_out) wec = beast::error::timeout;
    if (wec) {
        a.received = Clock::now();
        if (reused && is_connection_gone(wec)) a.stale = true;
        else a.error = classify(Phase::write, wec, t, st.opts, tls);
        co_return a;
    }

    AnswerLimits limits;
    limits.body_cap = st.opts.body_cap;
    limits.head = r.method == "HEAD";
    AnswerRead got = co_await read_answer(stream, conn.buffer, limits, [&](error_code& ec) { enforce_deadline(ec); });
    a.received = Clock::now();
    if (got.too_many_interim) {
        // A harness limit, not the answer: an error. The connection (more
        // interim answers may still come) is not reused.
        a.error = TransportError{TransportErrorKind::protocol,
                                 "server " + t.authority() + " sent more than " +
                                     std::to_string(max_interim_answers) +
                                     " interim (1xx) answers without a final one"};
        co_return a;
    }
    if (got.ec) {
        if (got.phase == AnswerPhase::header && reused && got.nothing_received && is_connection_gone(got.ec)) {
            a.stale = true;
        } else {
            const std::string progress = got.phase == AnswerPhase::body
                                             ? "status " + std::to_string(got.status) + " and " +
                                                   std::to_string(got.body_bytes) + " body bytes received"
                                             : std::string();
            a.error = classify(got.phase == AnswerPhase::header ? Phase::read_header : Phase::read_body, got.ec, t,
                               st.opts, tls, progress);
        }
        co_return a;
    }

    const Header* conn_hdr = find_header(r.headers, "Connection");
    // Bytes after a complete response are nobody's answer: a connection
    // holding any (in the read buffer: got.reusable says, or decrypted or
    // still encrypted in the TLS layer) is never reused, or the next request
    // would be judged on them. Checking what is already in memory costs no
    // system call; what arrives later is seen by the peek before a reuse.
    a.keep_alive = got.reusable && !(tls && tls_has_unread(*tls)) && !(conn_hdr && iequals(conn_hdr->value, "close"));
    if (got.response && got.response->status == 101) {
        // 101 Switching Protocols to a request that asked for no upgrade:
        // what follows is not HTTP, so there is no answer to check. An
        // error (the server misbehaved), never a broken contract; the
        // connection is not reused.
        a.error = TransportError{TransportErrorKind::protocol,
                                 "server " + t.authority() +
                                     " answered 101 Switching Protocols to a request that asked for no upgrade; no HTTP "
                                     "answer to check"};
        co_return a;
    }
    if (!watchdog) conn.lowest().expires_never();
    ++conn.served;
    a.response = std::move(got.response);
    co_return a;
}

asio::awaitable<Attempt> request_on_any(Connection& conn, State& st, const Target& t, const Request& r) {
    if (conn.tls) co_return co_await request_on(*conn.tls, conn, st, t, r);
    co_return co_await request_on(*conn.plain, conn, st, t, r);
}

// Resolves (unless the host is an IP literal), connects and, for https,
// does the TLS handshake, all before one deadline: connect_timeout.
asio::awaitable<std::optional<TransportError>> open(Connection& conn, State& st, const Target& t) {
    const auto deadline = std::chrono::steady_clock::now() + st.opts.connect_timeout;
    std::vector<tcp::endpoint> endpoints;
    if (t.host_is_ip) {
        error_code ec;
        auto addr = asio::ip::make_address(t.host, ec);
        if (ec) co_return TransportError{TransportErrorKind::resolve, "bad IP address '" + t.host + "'"};
        endpoints.emplace_back(addr, t.port);
    } else {
        // The resolver has no deadline of its own, and cancelling it does not
        // end a getaddrinfo() already running. So the coroutine waits on a
        // timer that either the deadline or the resolve completion ends; a
        // late resolve finishes on its own, holding only its shared state.
        struct Resolving {
            explicit Resolving(const asio::any_io_executor& s) : resolver(s), wake(s) {}
            tcp::resolver resolver;
            asio::steady_timer wake;
            bool done = false;
            error_code ec;
            tcp::resolver::results_type results;
        };
        auto r = std::make_shared<Resolving>(conn.executor);
        r->wake.expires_at(deadline);
        r->resolver.async_resolve(t.host, std::to_string(t.port),
                                  [r](const error_code& ec, tcp::resolver::results_type results) {
                                      r->done = true;
                                      r->ec = ec;
                                      r->results = std::move(results);
                                      r->wake.cancel();
                                  });
        (void)co_await r->wake.async_wait(nothrow_awaitable);  // both handlers run on the connection's executor
        error_code ec = r->ec;
        if (!r->done) {
            r->resolver.cancel();
            ec = beast::error::timeout;
        }
        if (!ec && r->results.empty()) ec = asio::error::host_not_found;
        if (ec) co_return classify(Phase::resolve, ec, t, st.opts, nullptr);
        const auto results = std::move(r->results);
        for (const auto& entry : results) endpoints.push_back(entry.endpoint());
    }

    if (t.tls()) {
        ssl::context* ctx = st.tls_context();
        if (!ctx) co_return TransportError{TransportErrorKind::tls, st.ssl_error};
        conn.tls = std::make_unique<TlsStream>(conn.executor, *ctx);
    } else {
        conn.plain = std::make_unique<beast::tcp_stream>(conn.executor);
    }
    conn.lowest().expires_at(deadline);
    auto [cec, ep] = co_await conn.lowest().async_connect(endpoints, nothrow_awaitable);
    (void)ep;
    if (cec) co_return classify(Phase::connect, cec, t, st.opts, nullptr);
    error_code ignored;
    conn.lowest().socket().set_option(tcp::no_delay(true), ignored);
    // Synchronous operations (the request write in request_on) must never
    // block the thread: EAGAIN comes back as would_block instead.
    conn.lowest().socket().non_blocking(true, ignored);

    if (conn.tls) {
        SSL* ssl_handle = conn.tls->native_handle();
        if (!t.host_is_ip) SSL_set_tlsext_host_name(ssl_handle, t.host.c_str());  // SNI takes names only
        if (!st.opts.tls.insecure) {
            // Let OpenSSL check the name during the handshake (rather than
            // a verify callback): its verify result then says precisely
            // "Hostname mismatch" or "IP address mismatch".
            X509_VERIFY_PARAM* param = SSL_get0_param(ssl_handle);
            if (t.host_is_ip) {
                X509_VERIFY_PARAM_set1_ip_asc(param, t.host.c_str());
            } else {
                X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
                X509_VERIFY_PARAM_set1_host(param, t.host.c_str(), t.host.size());
            }
        }
        auto [hec] = co_await conn.tls->async_handshake(ssl::stream_base::client, nothrow_awaitable);
        if (hec) co_return classify(Phase::handshake, hec, t, st.opts, conn.tls.get());
    }
    // The connect deadline must not carry over into the exchanges (Beast
    // arms the stream's timer at its expiry on every operation).
    conn.lowest().expires_never();
    co_return std::nullopt;
}

asio::awaitable<Attempt> open_and_request(Connection& conn, State& st, const Target& t, const Request& r) {
    try {
        if (auto err = co_await open(conn, st, t)) {
            Attempt a;
            a.error = std::move(*err);
            a.received = Clock::now();
            co_return a;
        }
        co_return co_await request_on_any(conn, st, t, r);
    } catch (const std::exception& e) {
        Attempt a;
        a.error = TransportError{TransportErrorKind::other, std::string("internal error: ") + e.what()};
        a.received = Clock::now();
        co_return a;
    }
}

asio::awaitable<Attempt> reuse_and_request(Connection& conn, State& st, const Target& t, const Request& r) {
    try {
        co_return co_await request_on_any(conn, st, t, r);
    } catch (const std::exception& e) {
        Attempt a;
        a.error = TransportError{TransportErrorKind::other, std::string("internal error: ") + e.what()};
        a.received = Clock::now();
        co_return a;
    }
}

// One hop: an idle connection if there is one, with at most one resend on a
// fresh connection when the idle one turns out to be stale.
asio::awaitable<Attempt> send_hop(std::shared_ptr<State> st, const Target& t, const Request& r) {
    const std::string computed_key = t.pool.empty() ? t.pool_key() : std::string();
    const std::string& key = t.pool.empty() ? computed_key : t.pool;
    // On one thread the hop runs inline; otherwise on the connection's strand.
    const bool inline_hop = st->opts.single_threaded;
    if (auto conn = st->take_idle(key)) {
        Attempt a;
        if (inline_hop)
            a = co_await reuse_and_request(*conn, *st, t, r);
        else
            a = co_await asio::co_spawn(conn->executor, reuse_and_request(*conn, *st, t, r), asio::use_awaitable);
        if (!a.stale) {
            if (a.keep_alive && !a.error) st->give_back(key, std::move(conn));
            co_return a;
        }
    }
    auto conn = std::make_unique<Connection>(inline_hop ? st->ex : asio::any_io_executor(asio::make_strand(st->ex)));
    Attempt a;
    if (inline_hop)
        a = co_await open_and_request(*conn, *st, t, r);
    else
        a = co_await asio::co_spawn(conn->executor, open_and_request(*conn, *st, t, r), asio::use_awaitable);
    if (a.stale) {  // cannot happen on a fresh connection; keep the invariant explicit
        a.stale = false;
        a.error = TransportError{TransportErrorKind::other, "connection to " + t.authority() + " closed"};
    }
    if (a.keep_alive && !a.error) st->give_back(key, std::move(conn));
    co_return a;
}

asio::awaitable<Exchange> run_exchange(std::shared_ptr<State> st, Request request) {
    Exchange ex;
    ex.request = std::move(request);  // the request of the current hop: redirects replace it
    ex.attempts = 1;
    ex.sent = Clock::now();  // replaced by the real send time once something is written
    auto fail = [&](TransportErrorKind kind, std::string msg) {
        ex.error = TransportError{kind, std::move(msg)};
        ex.received = Clock::now();
    };
    try {
        const Request& current = ex.request;
        std::vector<std::string> visited;  // URLs of the hops so far: a loop comes back to one
        for (int hop = 0;; ++hop) {
            auto parsed = st->opts.single_threaded ? st->targets.parse(current.url) : parse_target(current.url);
            if (!parsed.target) {
                fail(TransportErrorKind::other, parsed.error);
                co_return ex;
            }
            if (auto bad = validate_request(current); !bad.empty()) {
                fail(TransportErrorKind::other, bad);
                co_return ex;
            }
            Attempt a = co_await send_hop(st, *parsed.target, current);
            if (hop == 0 && a.sent != Clock::time_point{}) ex.sent = a.sent;
            ex.received = a.received;
            if (a.error) {
                ex.error = std::move(a.error);
                co_return ex;
            }
            ex.response = std::move(a.response);
            const std::string* location = ex.response->header("Location");
            if (!st->opts.follow_redirects || !is_redirect(ex.response->status) || !location) co_return ex;
            visited.push_back(current.url);
            auto step = next_redirect(current, ex.response->status, *location);
            if (hop >= st->opts.max_redirects) {
                // Still redirected at the limit: no answer to check (curl -L
                // fails the same way). A loop is said as one.
                const bool loops =
                    step.next && std::find(visited.begin(), visited.end(), step.next->url) != visited.end();
                std::string why = std::string(loops ? "redirect loop: " : "too many redirects: ") +
                                  std::to_string(hop) + " redirects followed (the limit) and " + current.method + " " +
                                  current.url + " was answered " + std::to_string(ex.response->status) +
                                  " again, Location: " + *location +
                                  (loops ? " (a URL already visited: the redirects go round in a circle; fix the "
                                           "server's Location)"
                                         : " (the chain is longer than the limit)");
                ex.response.reset();
                fail(TransportErrorKind::protocol, std::move(why));
                co_return ex;
            }
            if (!step.next) {
                ex.response.reset();
                fail(TransportErrorKind::other, step.error);
                co_return ex;
            }
            ex.request = std::move(*step.next);
            ex.response.reset();
        }
    } catch (const std::exception& e) {
        ex.response.reset();
        fail(TransportErrorKind::other, std::string("internal error: ") + e.what());
    }
    co_return ex;
}

std::unique_ptr<ssl::context> make_ssl_context(const TlsOptions& o, std::string& error) {
    auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
    error_code ec;
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1,
                     ec);
    if (o.insecure) {
        ctx->set_verify_mode(ssl::verify_none, ec);
    } else {
        ctx->set_verify_mode(ssl::verify_peer, ec);
        if (o.ca_file.empty()) {
            ctx->set_default_verify_paths(ec);
            if (ec) {
                error = "cannot load the system CA store: " + ec.message();
                return nullptr;
            }
        } else {
            ctx->load_verify_file(o.ca_file, ec);
            if (ec) {
                error = "cannot load CA file '" + o.ca_file + "': " + ec.message();
                return nullptr;
            }
        }
    }
    if (!o.cert_file.empty() || !o.key_file.empty()) {
        if (o.cert_file.empty() || o.key_file.empty()) {
            error = "a client certificate needs both a certificate file and a key file";
            return nullptr;
        }
        ctx->use_certificate_chain_file(o.cert_file, ec);
        if (ec) {
            error = "cannot load client certificate '" + o.cert_file + "': " + ec.message();
            return nullptr;
        }
        ctx->use_private_key_file(o.key_file, ssl::context::pem, ec);
        if (ec) {
            error = "cannot load client key '" + o.key_file + "': " + ec.message();
            return nullptr;
        }
        if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
            error = "client key '" + o.key_file + "' does not match certificate '" + o.cert_file + "'";
            return nullptr;
        }
    }
    return ctx;
}

class HttpTransport final : public Transport {
public:
    HttpTransport(asio::any_io_executor ex, const Options& opts) : state_(std::make_shared<State>()) {
        state_->ex = std::move(ex);
        state_->opts = opts;
    }
    ~HttpTransport() override {
        {
            std::lock_guard lock(state_->mu);
            state_->closed = true;
        }
        state_->clear();
        // Exchanges still in flight keep their deadlines: the watchdog's
        // handler holds the state and stops once none is left.
        if (state_->watched.empty()) state_->stop_watchdog();
    }
    HttpTransport(const HttpTransport&) = delete;
    HttpTransport& operator=(const HttpTransport&) = delete;

    asio::awaitable<Exchange> exchange(Request request) override { return run_exchange(state_, std::move(request)); }
    void shutdown() override {
        state_->clear();
        if (state_->watched.empty()) state_->stop_watchdog();
    }

private:
    std::shared_ptr<State> state_;
};

}  // namespace

std::unique_ptr<Transport> make_http_transport(boost::asio::any_io_executor ex, const Options& opts) {
    return std::make_unique<HttpTransport>(std::move(ex), opts);
}

}  // namespace idconform::transport::http
