// The scripted fake transport (see fake_transport.hpp).
#include "transport/fake/fake_transport.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace idconform::transport::fake {

namespace asio = boost::asio;

Reply Reply::answer(int status, std::string body, std::vector<Header> headers) {
    Reply r;
    r.status = status;
    r.body = std::move(body);
    r.headers = std::move(headers);
    return r;
}

Reply Reply::fail(TransportErrorKind kind, std::string message, bool retryable) {
    Reply r;
    r.error = TransportError{kind, std::move(message), retryable};
    return r;
}

void Script::on(std::string method, std::string url, Reply reply, int times) {
    rules_.push_back({std::move(method), std::move(url), std::move(reply), times > 0 ? times : -1});
}

std::size_t Script::count(std::string_view method, std::string_view url) const {
    std::size_t n = 0;
    for (const auto& s : requests_) n += s.request.method == method && s.request.url == url;
    return n;
}

std::size_t Script::arrived(const std::string& transport, const Request& r) {
    requests_.push_back({transport, r, std::chrono::steady_clock::now()});
    return requests_.size() - 1;
}

Reply Script::reply_for(const Request& r) {
    for (auto& rule : rules_) {
        if (rule.left == 0 || rule.method != r.method || rule.url != r.url) continue;
        if (rule.left > 0) --rule.left;
        return rule.reply;
    }
    if (fallback_) return fallback_(r);
    return Reply::answer(404, R"({"error":"no rule in the fake's script"})");
}

class FakeTransport final : public Transport {
public:
    FakeTransport(Script& s, std::string name, asio::any_io_executor ex)
        : script_(s), name_(std::move(name)), ex_(std::move(ex)) {}

    asio::awaitable<Exchange> exchange(Request request) override {
        Exchange x;
        x.sent = Clock::now();
        const std::size_t index = script_.arrived(name_, request);
        Reply reply = script_.reply_for(request);
        if (reply.delay.count() > 0) {
            asio::steady_timer t(ex_, reply.delay);
            co_await t.async_wait(asio::use_awaitable);
        }
        x.request = std::move(request);
        if (reply.error) {
            x.error = std::move(reply.error);
        } else {
            Response r;
            r.status = reply.status;
            r.headers = std::move(reply.headers);
            r.body_bytes = reply.body.size();
            r.body = std::move(reply.body);
            x.response = std::move(r);
        }
        x.received = Clock::now();
        script_.answered_.push_back(index);
        co_return x;
    }

    void shutdown() override { ++script_.shutdowns_; }

private:
    Script& script_;
    std::string name_;
    asio::any_io_executor ex_;
};

NamedFactory Script::factory(std::vector<std::string> unknown) {
    return [this, unknown = std::move(unknown)](const std::string& name, asio::any_io_executor ex,
                                                const Options& o) -> std::unique_ptr<Transport> {
        for (const auto& u : unknown)
            if (u == name) return nullptr;
        made_[name] = o;
        return std::make_unique<FakeTransport>(*this, name, std::move(ex));
    };
}

}  // namespace idconform::transport::fake
