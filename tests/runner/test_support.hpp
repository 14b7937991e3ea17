// Shared helpers of the runner unit tests: hand-made exchanges (no network),
// a check context over a scope, and the RFC 9562 vectors the checks read.
#pragma once

#include "core/exchange.hpp"
#include "core/result.hpp"
#include "runner/checks.hpp"
#include "runner/scope.hpp"

#include <boost/json/parse.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace idconform::runner::test {

// RFC 9562 Appendix A/B vectors.
inline const std::string v1_text = "c232ab00-9414-11ec-b3c8-9f6bdeced846";
inline const std::string v3_text = "5df41881-3aed-3515-88a7-2f4a814cf09e";
inline const std::string v4_text = "919108f7-52d1-4320-9bac-f847db4148a8";
inline const std::string v5_text = "2ed6657d-e927-568b-95e1-2665a8aea6a2";
inline const std::string v6_text = "1ec9414c-232a-6b00-b3c8-9f6bdeced846";
inline const std::string v7_text = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
inline const std::string v8_text = "2489e9ad-2ee2-8e00-8ec9-32d5f69181c0";
inline const std::string v7_upper = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F";
inline const std::string nil_text = "00000000-0000-0000-0000-000000000000";
inline const std::string max_text = "ffffffff-ffff-ffff-ffff-ffffffffffff";
inline constexpr std::int64_t v7_ms = 1645557742000;  // unix_ts_ms of v7_text

inline Clock::time_point at_ms(std::int64_t ms) { return Clock::time_point(std::chrono::milliseconds(ms)); }

// An answered exchange, sent and received at the given Unix milliseconds.
inline Exchange answered(int status, std::string body, std::vector<Header> headers = {},
                         std::int64_t sent_ms = v7_ms, std::int64_t received_ms = v7_ms) {
    Exchange x;
    x.request.method = "GET";
    x.request.url = "http://127.0.0.1:1/items";
    Response r;
    r.status = status;
    r.headers = std::move(headers);
    r.body_bytes = body.size();
    r.body = std::move(body);
    x.response = std::move(r);
    x.sent = at_ms(sent_ms);
    x.received = at_ms(received_ms);
    return x;
}

inline boost::json::value js(std::string_view text) { return boost::json::parse(text); }

inline suite::IdExpect id_at(std::string pointer, std::string kind) {
    suite::IdExpect e;
    e.at = std::move(pointer);
    e.kind = std::move(kind);
    return e;
}

// Owns the scope a CheckContext points at.
struct Ctx {
    Scope scope;
    std::set<std::string> seen;
    CheckContext ctx;
    explicit Ctx(std::string rule = "TEST-RULE") {
        ctx.scope = &scope;
        ctx.rule = std::move(rule);
        ctx.clock_skew = std::chrono::milliseconds(5000);
        ctx.seen_ids = &seen;
    }
    Ctx(const Ctx&) = delete;  // ctx points into this object
    Ctx& operator=(const Ctx&) = delete;
};

}  // namespace idconform::runner::test
