// The engine's outer loop (engine.hpp): which suites run, one after another
// at -j 1 or side by side at -j N, and what the run says at its end; the
// interrupt and what it leaves on the target.
#include "runner/engine.hpp"

#include "core/redact.hpp"
#include "runner/buffered_reporter.hpp"
#include "runner/engine_detail.hpp"
#include "runner/left_behind.hpp"
#include "runner/preflight.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <exception>
#include <map>
#include <memory>

namespace idconform::runner {

namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;
using detail::seconds_since;
using detail::signal_name;

bool Engine::left_out(const suite::Suite& s, bool selected, std::size_t& not_started_by_preflight) {
    if (interrupted_) {
        ++suites_not_started_;
        return true;
    }
    // --filter and --tags select setups too: a suite none of whose cases
    // they can pick runs nothing, not even its setup, so it creates
    // nothing; its cases are only counted. A preflight suite is exempt
    // from the selection, but runs only when some contract case does.
    if (!selected) {
        if (!s.preflight) report_.summary.filtered_out += unselected_count(s);
        return true;
    }
    if (!stopped_.empty()) {  // the target cannot be tested with these principals
        ++not_started_by_preflight;
        return true;
    }
    return false;
}

awaitable<void> Engine::run_all(const std::vector<suite::Suite>& suites) {
    const auto t0 = std::chrono::steady_clock::now();
    std::size_t not_started_by_preflight = 0;
    const std::vector<bool> selected = suites_selected(suites, opts_);
    if (slots_) {
        co_await run_side_by_side(suites, selected, not_started_by_preflight);
    } else {
        for (std::size_t i = 0; i < suites.size(); ++i)
            if (!left_out(suites[i], selected[i], not_started_by_preflight))
                report_.summary.suites.push_back(co_await run_suite(suites[i], reporter_, left_behind_));
    }
    if (!shape_.empty()) report_.summary.suites.push_back(report_shape_findings());
    report_.summary.seconds = seconds_since(t0);
    report_.summary.notes = left_behind_notes(left_behind_);
    for (const auto& [how, n] : deleted_across_)
        report_.summary.notes.push_back("the cleanup deleted " + std::to_string(n) + (n == 1 ? " entity " : " entities ") +
                                        how);
    if (!stopped_.empty())
        report_.summary.notes.insert(report_.summary.notes.begin(),
                                     preflight_stop_note(stopped_, not_started_by_preflight));
    if (interrupted_) {
        report_.summary.interrupted = signal_name(interrupted_);
        std::string note = "the run was interrupted by " + report_.summary.interrupted + ": " +
                           std::to_string(not_run_) + " case" + (not_run_ == 1 ? "" : "s") + " not run";
        if (suites_not_started_ > 0)
            note += ", " + std::to_string(suites_not_started_) + " suite" + (suites_not_started_ == 1 ? "" : "s") +
                    " not started";
        note += "; what the run created was deleted (a cleanup testcase names what may remain)";
        report_.summary.notes.insert(report_.summary.notes.begin(), std::move(note));
    }
}

// Up to opts.concurrency suites at once. The first suite not yet reported
// reports straight to the reporter; each one after it into a buffer that is
// replayed once every suite before it has been: the reports read as if the
// suites had run one after another. A preflight
// suite waits for the suites in flight and runs alone, since what it finds
// decides whether the next ones start.
awaitable<void> Engine::run_side_by_side(const std::vector<suite::Suite>& suites, const std::vector<bool>& selected,
                                         std::size_t& not_started_by_preflight) {
    struct Done {
        std::unique_ptr<BufferedReporter> buffer;
        std::vector<SuiteRun::LeftBehind> left;
        SuiteResult result;
        bool finished = false;
    };
    std::map<std::size_t, Done> started;  // by suite index; replayed in order, then erased
    std::size_t in_flight = 0;
    std::exception_ptr failure;
    auto ex = co_await asio::this_coro::executor;
    asio::steady_timer wake(ex);
    // The first suite not yet reported reports straight through; the ones
    // after it keep their events until it has finished.
    auto replay_ready = [&] {
        while (!started.empty()) {
            Done& d = started.begin()->second;
            d.buffer->go_live(reporter_);
            if (!d.finished) break;
            report_.summary.suites.push_back(std::move(d.result));
            for (auto& l : d.left) left_behind_.push_back(std::move(l));
            started.erase(started.begin());
        }
    };
    auto wait_until = [&](auto done) -> awaitable<void> {
        while (!done()) {
            wake.expires_at(asio::steady_timer::time_point::max());
            boost::system::error_code ec;
            co_await wake.async_wait(asio::redirect_error(use_awaitable, ec));
        }
    };
    const std::size_t width = static_cast<std::size_t>(opts_.concurrency);
    for (std::size_t i = 0; i < suites.size() && !failure; ++i) {
        const suite::Suite& s = suites[i];
        // Waited for before anything else: an interrupt, or what a preflight
        // found, while waiting decides whether this suite starts.
        if (s.preflight) co_await wait_until([&] { return in_flight == 0; });
        else if (selected[i]) co_await wait_until([&] { return in_flight < width || failure; });
        if (failure) break;
        if (left_out(s, selected[i], not_started_by_preflight)) continue;
        if (s.preflight) {
            report_.summary.suites.push_back(co_await run_suite(s, reporter_, left_behind_));
            continue;
        }
        Done& d = started[i];
        d.buffer = std::make_unique<BufferedReporter>();
        if (started.begin()->first == i) d.buffer->go_live(reporter_);
        ++in_flight;
        asio::co_spawn(ex, run_suite(s, *d.buffer, d.left), [&, i](std::exception_ptr e, SuiteResult r) {
            Done& done = started[i];
            done.result = std::move(r);
            done.finished = true;
            if (e && !failure) failure = e;
            --in_flight;
            replay_ready();
            wake.cancel();
        });
    }
    co_await wait_until([&] { return in_flight == 0; });
    replay_ready();
    if (failure) std::rethrow_exception(failure);
}

void Engine::interrupt(int signo) {
    if (interrupted_) return;
    interrupted_ = signo;
    const auto deadline = std::chrono::steady_clock::now() + opts_.interrupt_cleanup;
    for (SuiteRun* run : in_flight_) run->cleanup_deadline = deadline;
}

std::vector<std::string> Engine::left_on_target() const {
    std::vector<std::string> out;
    for (const SuiteRun* run : in_flight_) {
        const redact::Secrets secrets(run->scope.secrets());
        for (const auto& c : run->created)
            if (!c.by_design && !c.deleted) {
                std::string line = c.del.request.method + " " + redact::redact_url(c.del.request.url) +
                                   " (created by '" + c.origin + "')";
                secrets.mask(line);  // what reports never show, stderr does not either
                out.push_back(std::move(line));
            }
    }
    return out;
}

}  // namespace idconform::runner
