// Unit tests of the shard split: K/N parsing, the balanced deterministic
// assignment, case estimates of for_each forms, and the plan digest.
#include "shard/shard.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

namespace shard = idconform::shard;
namespace suite = idconform::suite;

TEST_CASE("K/N parses only 1 <= K <= N <= 1024") {
    std::string err;
    auto s = shard::parse_shard("2/3", err);
    REQUIRE(s);
    CHECK(s->index == 2);
    CHECK(s->count == 3);
    for (const char* bad : {"0/3", "4/3", "1/0", "3", "a/b", "1/3x", "/3", "1/", "1/2000", "-1/3", ""}) {
        CAPTURE(bad);
        CHECK_FALSE(shard::parse_shard(bad, err));
        CHECK_FALSE(err.empty());
    }
}

TEST_CASE("assignment: every unit once, balanced, deterministic, largest first") {
    const std::vector<std::size_t> w = {50, 3, 3, 40, 10, 10, 10, 1, 0, 25, 25};
    for (std::size_t n : {1, 2, 3, 4, 11, 20}) {
        CAPTURE(n);
        const auto a = shard::assign(w, n);
        REQUIRE(a.size() == w.size());
        CHECK(a == shard::assign(w, n));
        std::vector<std::size_t> load(n, 0);
        for (std::size_t i = 0; i < w.size(); ++i) {
            REQUIRE(a[i] < n);
            load[a[i]] += std::max<std::size_t>(w[i], 1);
        }
        // LPT: no shard exceeds the lightest by more than the largest unit
        CHECK(*std::max_element(load.begin(), load.end()) - *std::min_element(load.begin(), load.end()) <= 50);
    }
    CHECK(shard::assign(w, 2)[0] == 0);  // the largest unit goes first, to shard 0
    CHECK(shard::assign(w, 2)[3] == 1);
    CHECK(shard::assign({}, 3).empty());
}

TEST_CASE("case estimates count for_each elements, and a setup as one testcase") {
    suite::Suite s;
    s.cases.resize(4);
    s.cases[1].for_each = suite::ForEach{};
    s.cases[1].for_each->source = suite::ForEach::Source::count;
    s.cases[1].for_each->count = 24;
    s.cases[2].for_each = suite::ForEach{};
    s.cases[2].for_each->source = suite::ForEach::Source::vectors;
    s.cases[2].for_each->set = "v";
    s.cases[2].for_each->except = {"b"};
    suite::VectorSet set;
    set.vectors.resize(3);
    set.vectors[0].name = "a";
    set.vectors[1].name = "b";
    set.vectors[2].name = "c";
    s.vector_sets["v"] = set;
    s.cases[3].for_each = suite::ForEach{};
    s.cases[3].for_each->source = suite::ForEach::Source::mutations;
    s.cases[3].for_each->only = {"upper-case", "braces"};
    CHECK(shard::estimated_cases(s) == 1 + 24 + 2 + 2);
    s.setup.resize(1);
    CHECK(shard::estimated_cases(s) == 30);
}

TEST_CASE("the plan digest changes with the profile and the units, not between calls") {
    std::vector<suite::Suite> a(2);
    a[0].name = "one";
    a[1].name = "two";
    const std::string d = shard::plan_digest("profile: 1", a);
    CHECK(d.size() == 16);
    CHECK(d == shard::plan_digest("profile: 1", a));
    CHECK(d != shard::plan_digest("profile: 2", a));
    auto b = a;
    std::swap(b[0], b[1]);
    CHECK(d != shard::plan_digest("profile: 1", b));
    b = a;
    b[1].name = "tw";
    b[1].file = "o";
    CHECK(shard::plan_digest("", a) != shard::plan_digest("", b));
}
