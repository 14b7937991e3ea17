// SuiteRun: the suite's transports.
#include "runner/suite_run.hpp"

namespace idconform::runner {

transport::Transport* SuiteRun::transport_for(const std::string& name) {
    auto it = transports.find(name);
    if (it == transports.end()) it = transports.emplace(name, (*factory)(name, executor, transport_options)).first;
    return it->second.get();
}

boost::asio::awaitable<Exchange> SuiteRun::send(const Request& req) {
    transport::Transport* t = transport_for(req.transport);
    if (!t) {
        Exchange x;
        x.request = req;
        x.error = TransportError{TransportErrorKind::other, "no transport named '" + req.transport + "'"};
        co_return x;
    }
    co_return co_await t->exchange(req);
}

void SuiteRun::shutdown() {
    for (auto& [name, t] : transports)
        if (t) t->shutdown();
}

}  // namespace idconform::runner
