// One rate limit across every case of the run: requests are spaced evenly
// (a timer on the runner's executor; no thread sleeps).
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <chrono>

namespace idconform::runner {

class RateLimiter {
public:
    explicit RateLimiter(double per_second)
        : interval_(per_second > 0 ? std::chrono::nanoseconds(static_cast<long long>(1e9 / per_second))
                                   : std::chrono::nanoseconds(0)) {}
    // False without a limit: callers then skip acquire() (and its coroutine frame).
    [[nodiscard]] bool active() const noexcept { return interval_.count() != 0; }
    boost::asio::awaitable<void> acquire() {
        if (interval_.count() == 0) co_return;
        const auto now = std::chrono::steady_clock::now();
        const auto slot = std::max(now, next_);
        next_ = slot + interval_;
        if (slot > now) {
            boost::asio::steady_timer t(co_await boost::asio::this_coro::executor, slot);
            co_await t.async_wait(boost::asio::use_awaitable);
        }
    }
private:
    std::chrono::nanoseconds interval_;
    std::chrono::steady_clock::time_point next_{};
};

}  // namespace idconform::runner
