// Cleanup of what a suite created (see cleanup.hpp): the order of the
// deletes, sending them (side by side where they may), and the report. How
// each entity is deleted and confirmed gone is its binding's
// (binding/deletion.hpp).
#include "runner/cleanup.hpp"

#include "runner/auth.hpp"
#include "runner/evidence.hpp"
#include "runner/steps/request_parts.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <set>

namespace idconform::runner {

using boost::asio::awaitable;

namespace {

using binding::Created;
using binding::DeleteOutcome;
using binding::delete_group;
using binding::entity_label;
using binding::gone_after;

std::string answered(const Exchange& x) {
    if (x.error) return "failed (" + x.error->message + ")";
    return "answered " + std::to_string(x.response->status);
}

// One delete (and its confirming read) on a slot of its own when suites run
// side by side, served before waiting cases (slots.hpp).
awaitable<DeleteOutcome> delete_one(SuiteRun& run, RateLimiter& limiter, Slots* slots, const Created& c) {
    const SlotHold hold = co_await hold_slot(slots, true);
    DeleteOutcome o;
    if (limiter.active()) co_await limiter.acquire();
    o.x = co_await run.send(c.del.request);
    if (!binding::needs_confirming(c, o.x)) co_return o;
    o.read = c.confirm->request;
    if (limiter.active()) co_await limiter.acquire();
    o.back = co_await run.send(o.read);
    co_return o;
}

// Runs the deletes of a batch side by side (one coroutine each) and waits for all.
awaitable<void> delete_batch(SuiteRun& run, RateLimiter& limiter, Slots* slots,
                             const std::vector<const Created*>& batch, std::vector<DeleteOutcome>& out) {
    out.assign(batch.size(), DeleteOutcome{});
    if (batch.size() == 1) {
        out[0] = co_await delete_one(run, limiter, slots, *batch[0]);
        co_return;
    }
    std::size_t running = batch.size();
    boost::asio::steady_timer done(run.executor, std::chrono::steady_clock::time_point::max());
    for (std::size_t i = 0; i < batch.size(); ++i)
        boost::asio::co_spawn(
            run.executor,
            [&, i]() -> awaitable<void> {
                out[i] = co_await delete_one(run, limiter, slots, *batch[i]);
                if (--running == 0) done.cancel();
            },
            boost::asio::detached);
    // Deletes that did not wait for anything (a transport that answers at
    // once) are done already: only wait for the ones still out.
    if (running > 0) {
        boost::system::error_code ec;
        co_await done.async_wait(boost::asio::redirect_error(boost::asio::use_awaitable, ec));
    }
}

}  // namespace

void register_created(SuiteRun& run, const suite::Step& st, const Request& req, const Exchange& x, BodyJson& body,
                      const Scope& scope, const std::string& step_name) {
    const binding::StepBinding* bound = run.bound_of(st);
    if (!(bound && bound->deletion) && !st.cleanup) return;  // nothing to book
    const bool by_binding = bound && bound->deletion;
    const binding::Deletion written = by_binding ? binding::Deletion{} : binding::Deletion::written(*st.cleanup);
    const binding::Deletion& d = by_binding ? *bound->deletion : written;
    binding::Ledger ledger = ledger_of(run);
    // What the target and the creating principal send with any request, in
    // place of a create-only header of the same name (only a profile's
    // deletion has such headers; what it made shares its creator's); a step
    // whose principal is unknown failed before it was sent.
    Request defaults;
    if (!d.create_only_headers.empty()) {
        static const steps::Templates none;
        if (!steps::add_headers(defaults, run.env, {step_principal(st), none, "header", st.pos}, scope,
                                steps::HeaderNames::as_written))
            defaults.headers.clear();
        ledger.defaults = &defaults.headers;
    }
    binding::book_created(ledger, d, req, *x.response, body.view(), scope, step_name);
}

awaitable<std::optional<CaseResult>> cleanup_created(SuiteRun& run, RateLimiter& limiter, bool* unreachable,
                                                     int concurrency, Slots* slots) {
    CaseResult r;
    r.suite = run.suite->name;
    r.name = "cleanup";
    r.classname = run.suite->name + ".cleanup";
    r.pos = run.suite->pos;
    std::size_t done = 0, remain = 0, unknown = 0, undeletable = 0;
    bool answered_any = false, sent_any = false;
    auto record = [&](std::string name, Exchange x, const Created& c, const Request& req) {
        StepRecord rec;
        rec.name = std::move(name);
        if (x.request.url.empty()) x.request = req;
        rec.exchange = std::move(x);
        add_evidence(rec, c.wire, run.env, run.scope.secrets());
        r.steps.push_back(std::move(rec));
    };
    // What one delete met, in the report (in the order of the records, whatever
    // order the deletes of a batch finished in).
    auto settle = [&](const Created& c, DeleteOutcome o) {
        sent_any = true;
        ++done;
        if (!o.x.error || (o.back && !o.back->error)) answered_any = true;
        if (gone_after(o, c)) {
            if (!c.across.empty()) ++run.deleted_across[c.across];
            return;
        }
        const std::string what = "what " + entity_label(c) + " created";
        const std::string del = c.del.request.method + " " + answered(o.x);
        if (c.wire != steps::Wire::http) {
            ++unknown;
            r.detail += "may remain: " + what + ": the delete " + del + "\n";
            record("delete " + what, std::move(o.x), c, c.del.request);
            return;
        }
        if (!o.back) {
            ++unknown;
            r.detail += "may remain: " + what + ": the delete " + del +
                        ", and no read can confirm it (the profile's delete names the entity in its body and the "
                        "resource has no read)\n";
            record("delete " + what, std::move(o.x), c, c.del.request);
            return;
        }
        const Request& read = o.read;
        const int st = o.back->error ? 0 : o.back->response->status;
        if (st / 100 == 2) {
            ++remain;
            r.detail += "remains on the target: " + what + ": " + del + ", and " + read.method + " " + read.url +
                        " answered " + std::to_string(st) + "\n";
        } else {
            ++unknown;
            r.detail += "may remain: " + what + ": " + del + ", and the read to confirm (" + read.method + " " +
                        read.url + ") " + answered(*o.back) + "\n";
        }
        record("delete " + what, std::move(o.x), c, c.del.request);
        record("read " + what + " back", std::move(*o.back), c, o.read);
    };
    // Last created first: a dependent goes before what it references, so a
    // target that restricts (or cascades) deletes of referenced entities
    // does not turn every later delete into a failure. With concurrency N,
    // up to N consecutive deletes of one group (delete_group) go out side by
    // side; one refused (answered, its entity not gone) is sent again alone
    // once the batch is done (an entity of the batch may have referenced it).
    std::vector<const Created*> batch;
    std::vector<DeleteOutcome> outcomes;
    std::set<std::string> batch_keys;
    std::string batch_group;
    auto flush = [&]() -> awaitable<void> {
        if (batch.empty()) co_return;
        co_await delete_batch(run, limiter, slots, batch, outcomes);
        for (std::size_t i = 0; i < batch.size(); ++i) note_deleted(run, batch[i]->key);
        for (std::size_t i = 0; i < batch.size(); ++i) {
            // Only a refusal is sent again (what an entity of the batch still
            // referencing this one makes), not a delete the target did not answer.
            if (batch.size() > 1 && !outcomes[i].x.error && !gone_after(outcomes[i], *batch[i])) {
                outcomes[i] = co_await delete_one(run, limiter, slots, *batch[i]);
                note_deleted(run, batch[i]->key);
            }
            settle(*batch[i], std::move(outcomes[i]));
        }
        batch.clear();
        batch_keys.clear();
    };
    const std::size_t width = static_cast<std::size_t>(std::max(1, concurrency));
    for (auto it = run.created.rbegin(); it != run.created.rend(); ++it) {
        const Created& c = *it;
        if (c.by_design) {
            // The profile says the API cannot delete it: the run's notes say
            // once what was left behind; not a problem of this cleanup.
            co_await flush();
            run.left_behind.push_back(SuiteRun::LeftBehind{c.problem, c.id});
            continue;
        }
        if (!c.problem.empty()) {
            co_await flush();
            ++undeletable;
            ++done;
            StepRecord rec;
            rec.name = "delete what " + entity_label(c) + " created";
            rec.exchange.error = TransportError{TransportErrorKind::other, c.problem};
            r.steps.push_back(std::move(rec));
            r.detail += "not deleted: what " + entity_label(c) + " created: " + c.problem + "\n";
            continue;
        }
        // Settled by an earlier delete of its key (every earlier creation
        // under the same URL, which one delete of it settles too), or by one
        // in the batch going out.
        if (c.deleted || batch_keys.count(c.key) != 0) continue;
        if (run.cleanup_deadline && std::chrono::steady_clock::now() >= *run.cleanup_deadline) {
            // An interrupted run's cleanup is bounded: say what it did not get to.
            co_await flush();
            ++unknown;
            ++done;
            r.detail += "may remain: what " + entity_label(c) + " created: not deleted, the interrupted run's cleanup "
                        "deadline passed (" + c.del.request.method + " " + c.del.request.url + ")\n";
            continue;
        }
        std::string group = delete_group(c);
        if (!batch.empty() && (group != batch_group || batch.size() >= width)) co_await flush();
        batch_group = std::move(group);
        batch.push_back(&c);
        batch_keys.insert(c.key);
    }
    co_await flush();
    const bool quiet = sent_any && !answered_any;  // the target no longer answers
    if (unreachable) *unreachable = quiet;
    const std::size_t failed = remain + unknown + undeletable;
    if (failed == 0) co_return std::nullopt;
    // the message is said below, with the counts
    set_error(r, quiet ? ErrorCause::transport : ErrorCause::cleanup, {});
    std::string parts;
    auto part = [&](std::size_t n, const std::string& what) {
        if (n == 0) return;
        if (!parts.empty()) parts += ", ";
        parts += std::to_string(n) + " " + what;
    };
    part(remain, "confirmed to remain on the target");
    part(unknown, "may remain (not confirmed either way)");
    part(undeletable, "could not be deleted at all");
    r.message = "could not delete " + std::to_string(failed) + " of " + std::to_string(done) +
                " entities this run created: " + parts + " (see the steps)";
    co_return r;
}

}  // namespace idconform::runner
