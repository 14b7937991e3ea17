// The run's concurrency as slots (`-j N`): with suites side by side, every
// case, setup, teardown and cleanup of every suite holds a slot while it
// sends, so the target never sees more than N of them at once, however many
// suites are in flight. On the runner's one thread: no locks. A released
// slot goes to the longest waiter, a cleanup's deletes before cases.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <deque>
#include <memory>

namespace idconform::runner {

class Slots {
public:
    explicit Slots(int n) : free_(std::max(1, n)) {}
    Slots(const Slots&) = delete;
    Slots& operator=(const Slots&) = delete;

    // `ahead`: served before every waiter that is not (a cleanup's deletes:
    // a suite that only has its cleanup left is done sooner, and its
    // entities do not wait for other suites' cases to be deleted).
    boost::asio::awaitable<void> acquire(bool ahead = false) {
        if (free_ > 0 && waiters_.empty() && ahead_.empty()) {
            --free_;
            co_return;
        }
        auto t = std::make_shared<boost::asio::steady_timer>(co_await boost::asio::this_coro::executor,
                                                             boost::asio::steady_timer::time_point::max());
        (ahead ? ahead_ : waiters_).push_back(t);
        boost::system::error_code ec;  // cancelled by release(): the slot is handed over
        co_await t->async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
    void release() {
        auto& queue = ahead_.empty() ? waiters_ : ahead_;
        if (queue.empty()) {
            ++free_;
            return;
        }
        auto t = std::move(queue.front());
        queue.pop_front();
        t->cancel();
    }

private:
    int free_;
    std::deque<std::shared_ptr<boost::asio::steady_timer>> waiters_, ahead_;
};

// Holds one slot of `s` (none when s is null) until destroyed.
class SlotHold {
public:
    SlotHold() = default;
    explicit SlotHold(Slots* s) : s_(s) {}
    SlotHold(SlotHold&& o) noexcept : s_(o.s_) { o.s_ = nullptr; }
    SlotHold& operator=(SlotHold&&) = delete;
    ~SlotHold() {
        if (s_) s_->release();
    }

private:
    Slots* s_ = nullptr;
};

// Waits for one slot of `s` (nothing to wait for when s is null).
inline boost::asio::awaitable<SlotHold> hold_slot(Slots* s, bool ahead = false) {
    if (s) co_await s->acquire(ahead);
    co_return SlotHold(s);
}

}  // namespace idconform::runner
