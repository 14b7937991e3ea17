// A scripted transport for in-process tests of the runner, in the spirit of
// Beast's test::stream: the test writes how requests are answered (a status
// and body, a transport error, after a delay), the fake records what arrived,
// in order and when, and in which order the answers went back. No sockets,
// no threads: a delay is a timer on the runner's own executor, so tests are
// deterministic. Not in the registry; tests pass factory() to runner::run.
#pragma once

#include "core/exchange.hpp"
#include "transport/transport.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::transport::fake {

struct Reply {
    int status = 200;
    std::string body;
    std::vector<Header> headers;
    std::optional<TransportError> error;  // set: the exchange fails with this instead of answering
    std::chrono::milliseconds delay{0};   // the answer comes this long after the request

    [[nodiscard]] static Reply answer(int status, std::string body = {}, std::vector<Header> headers = {});
    [[nodiscard]] static Reply fail(TransportErrorKind kind, std::string message, bool retryable = true);
    [[nodiscard]] Reply after(std::chrono::milliseconds d) && {
        delay = d;
        return std::move(*this);
    }
};

// The far side every transport made by factory() talks to.
class Script {
public:
    using Handler = std::function<Reply(const Request&)>;

    // Requests with this method and URL get `reply`, the next `times` of them
    // (0: all). Rules are tried in the order they were added; a used-up rule
    // is skipped. Unmatched requests get the fallback (default: 404).
    void on(std::string method, std::string url, Reply reply, int times = 0);
    void otherwise(Handler h) { fallback_ = std::move(h); }

    struct Seen {
        std::string transport;  // the registry name the runner asked for
        Request request;
        std::chrono::steady_clock::time_point at;
    };
    [[nodiscard]] const std::vector<Seen>& requests() const noexcept { return requests_; }
    // Indices into requests(), in the order their answers went back.
    [[nodiscard]] const std::vector<std::size_t>& answered() const noexcept { return answered_; }
    // Requests with this method and URL so far.
    [[nodiscard]] std::size_t count(std::string_view method, std::string_view url) const;
    // The options each transport was made with, per registry name (the last one).
    [[nodiscard]] const std::map<std::string, Options>& made() const noexcept { return made_; }
    [[nodiscard]] int shutdowns() const noexcept { return shutdowns_; }

    // Makes transports of any name answering from this script (which must
    // outlive them). Names in `unknown` get nullptr, as the registry's make()
    // does for a name it does not know.
    [[nodiscard]] NamedFactory factory(std::vector<std::string> unknown = {});

private:
    friend class FakeTransport;
    struct Rule {
        std::string method, url;
        Reply reply;
        int left;  // < 0: unlimited
    };
    std::size_t arrived(const std::string& transport, const Request& r);
    Reply reply_for(const Request& r);

    std::vector<Rule> rules_;
    Handler fallback_;
    std::vector<Seen> requests_;
    std::vector<std::size_t> answered_;
    std::map<std::string, Options> made_;
    int shutdowns_ = 0;
};

}  // namespace idconform::transport::fake
