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

#include <algorithm>
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

namespace {

// The requests a suite must send one after another, at least: its setup,
// its longest case (a step's repeat is sent in a row) and its teardown.
std::size_t chain_of(const suite::Suite& s) {
    const auto steps = [](const std::vector<suite::Step>& v) {
        std::size_t n = 0;
        for (const auto& st : v) n += static_cast<std::size_t>(std::max(st.repeat, 1));
        return n;
    };
    std::size_t longest = 0;
    for (const auto& c : s.cases) longest = std::max(longest, steps(c.steps));
    return steps(s.setup) + longest + steps(s.teardown);
}

}  // namespace

// Up to opts.concurrency suites at once. Between preflight suites they start
// longest chain first (chain_of; ties in the run's order): a suite that must
// send 200 requests in a row, started last, would end long after the others
// (at -j 16 against 20 ms answers the run took 1.5x the ideal). The reports
// still read as if the suites had run one after another, in the run's order:
// the first suite not yet reported reports straight to the reporter, each one
// after it into a buffer replayed once every suite before it has been. A
// preflight suite waits for the suites in flight and runs alone, since what
// it finds decides whether the next ones start.
awaitable<void> Engine::run_side_by_side(const std::vector<suite::Suite>& suites, const std::vector<bool>& selected,
                                         std::size_t& not_started_by_preflight) {
    enum class State { waiting, left_out, running, finished, reported };
    struct Done {
        std::unique_ptr<BufferedReporter> buffer;
        std::vector<SuiteRun::LeftBehind> left;
        SuiteResult result;
    };
    std::vector<State> state(suites.size(), State::waiting);
    std::map<std::size_t, Done> started;  // by suite index; erased once reported
    std::size_t head = 0;                 // the first suite not yet reported
    std::size_t in_flight = 0;
    std::exception_ptr failure;
    auto ex = co_await asio::this_coro::executor;
    asio::steady_timer wake(ex);
    auto replay_ready = [&] {
        for (; head < suites.size(); ++head) {
            if (state[head] == State::left_out || state[head] == State::reported) continue;
            if (state[head] == State::waiting) break;
            Done& d = started.at(head);
            d.buffer->go_live(reporter_);
            if (state[head] == State::running) break;
            report_.summary.suites.push_back(std::move(d.result));
            for (auto& l : d.left) left_behind_.push_back(std::move(l));
            started.erase(head);
            state[head] = State::reported;
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
    for (std::size_t first = 0; first < suites.size() && !failure;) {
        if (suites[first].preflight) {
            const suite::Suite& s = suites[first];
            // Waited for before anything else: an interrupt, or what a preflight
            // found, while waiting decides whether this suite starts.
            co_await wait_until([&] { return in_flight == 0; });
            replay_ready();
            if (failure) break;
            if (left_out(s, selected[first], not_started_by_preflight)) {
                state[first] = State::left_out;
            } else {
                report_.summary.suites.push_back(co_await run_suite(s, reporter_, left_behind_));
                state[first] = State::reported;
            }
            replay_ready();
            ++first;
            continue;
        }
        std::size_t last = first;
        while (last < suites.size() && !suites[last].preflight) ++last;
        std::vector<std::size_t> order(last - first);
        std::vector<std::size_t> chain(last - first);
        for (std::size_t k = 0; k < order.size(); ++k) {
            order[k] = first + k;
            chain[k] = chain_of(suites[first + k]);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return chain[a - first] > chain[b - first]; });
        for (const std::size_t i : order) {
            const suite::Suite& s = suites[i];
            if (selected[i]) co_await wait_until([&] { return in_flight < width || failure; });
            if (failure) break;
            if (left_out(s, selected[i], not_started_by_preflight)) {
                state[i] = State::left_out;
                replay_ready();
                continue;
            }
            Done& d = started[i];
            d.buffer = std::make_unique<BufferedReporter>();
            state[i] = State::running;
            replay_ready();  // this suite may be the one the reports are at
            ++in_flight;
            asio::co_spawn(ex, run_suite(s, *d.buffer, d.left), [&, i](std::exception_ptr e, SuiteResult r) {
                started.at(i).result = std::move(r);
                state[i] = State::finished;
                if (e && !failure) failure = e;
                --in_flight;
                replay_ready();
                wake.cancel();
            });
        }
        first = last;
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
