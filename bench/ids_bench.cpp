// Identifier benchmark: how fast the identifier module checks, recognises and
// generates ids, with RE2 (the DATA-ID-002 v7 pattern, precompiled) as the
// yardstick. Every check benchmark walks the same pre-generated input set, so
// items/s are comparable; bench/run_ids.sh prints the strict-check/RE2 ratio.
#include "ids/ids.hpp"

#include <benchmark/benchmark.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace ids = idconform::ids;

namespace {

constexpr std::size_t input_count = 4096;
constexpr const char* v7_pattern = "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$";

// 50% canonical v7, 50% mutations (every negative form the module derives,
// round-robin over fresh v7 ids), shuffled with a fixed seed so runs differ
// only in timing, never in input.
std::vector<std::string> make_inputs() {
    ids::V7Generator gen;
    std::vector<std::string> out;
    out.reserve(input_count);
    std::vector<ids::Mutation> pool;
    std::size_t next_mutation = 0;
    while (out.size() < input_count) {
        const ids::Uuid u = gen.next();
        out.push_back(ids::format(u));
        if (next_mutation == pool.size()) {
            pool = ids::mutations(gen.next());
            next_mutation = 0;
        }
        out.push_back(pool[next_mutation++].text);
    }
    std::mt19937 rng(20240522);
    std::shuffle(out.begin(), out.end(), rng);
    return out;
}

const std::vector<std::string>& inputs() {
    static const std::vector<std::string> set = make_inputs();
    return set;
}

const RE2& v7_re2() {
    static const RE2 re(v7_pattern);
    return re;
}

// The strict check and RE2 must agree on every input, or the speed
// comparison is meaningless; checked once before any timing.
bool agree_on_inputs() {
    static const bool ok = [] {
        for (const auto& s : inputs()) {
            if (ids::is_canonical_version(s, 7) != RE2::FullMatch(s, v7_re2())) {
                std::fprintf(stderr, "strict check and RE2 disagree on \"%s\"\n", s.c_str());
                return false;
            }
        }
        return true;
    }();
    return ok;
}

void BM_strict_check_v7(benchmark::State& state) {
    if (!agree_on_inputs()) { state.SkipWithError("strict check and RE2 disagree"); return; }
    const auto& in = inputs();
    std::size_t accepted = 0;
    for (auto _ : state) {
        for (const auto& s : in) accepted += ids::is_canonical_version(s, 7) ? 1 : 0;
        benchmark::DoNotOptimize(accepted);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
    state.counters["accepted_share"] = static_cast<double>(accepted) / static_cast<double>(state.iterations() * in.size());
}
BENCHMARK(BM_strict_check_v7);

void BM_re2_fullmatch_v7(benchmark::State& state) {
    if (!agree_on_inputs()) { state.SkipWithError("strict check and RE2 disagree"); return; }
    const auto& in = inputs();
    const RE2& re = v7_re2();
    std::size_t accepted = 0;
    for (auto _ : state) {
        for (const auto& s : in) accepted += RE2::FullMatch(s, re) ? 1 : 0;
        benchmark::DoNotOptimize(accepted);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
    state.counters["accepted_share"] = static_cast<double>(accepted) / static_cast<double>(state.iterations() * in.size());
}
BENCHMARK(BM_re2_fullmatch_v7);

void BM_recognize(benchmark::State& state) {
    const auto& in = inputs();
    for (auto _ : state) {
        for (const auto& s : in) {
            ids::Recognition r = ids::recognize(s);
            benchmark::DoNotOptimize(r);
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_recognize);

void BM_looks_like_id(benchmark::State& state) {
    const auto& in = inputs();
    std::size_t hits = 0;
    for (auto _ : state) {
        for (const auto& s : in) hits += ids::looks_like_id(s) ? 1 : 0;
        benchmark::DoNotOptimize(hits);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.size()));
}
BENCHMARK(BM_looks_like_id);

void BM_v7_generator_next(benchmark::State& state) {
    ids::V7Generator gen;
    for (auto _ : state) {
        ids::Uuid u = gen.next();
        benchmark::DoNotOptimize(u);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_v7_generator_next);

void BM_v7_next_and_format(benchmark::State& state) {
    ids::V7Generator gen;
    char text[36];
    for (auto _ : state) {
        ids::format_to(gen.next(), text);
        benchmark::DoNotOptimize(text);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_v7_next_and_format);

void BM_generate_v4(benchmark::State& state) {
    for (auto _ : state) {
        ids::Uuid u = ids::generate_v4();
        benchmark::DoNotOptimize(u);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_generate_v4);

}  // namespace

BENCHMARK_MAIN();
