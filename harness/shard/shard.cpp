// Deterministic sharding of a run (shard.hpp).
#include "shard/shard.hpp"

#include "ids/ids.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <numeric>

namespace idconform::shard {

std::optional<ShardSpec> parse_shard(std::string_view text, std::string& error) {
    const auto slash = text.find('/');
    ShardSpec s;
    auto number = [](std::string_view t, std::size_t& out) {
        const auto r = std::from_chars(t.data(), t.data() + t.size(), out);
        return !t.empty() && r.ec == std::errc() && r.ptr == t.data() + t.size();
    };
    if (slash == std::string_view::npos || !number(text.substr(0, slash), s.index) ||
        !number(text.substr(slash + 1), s.count)) {
        error = "'" + std::string(text) + "' is not K/N (e.g. --shard 1/3: the first of three shards)";
        return std::nullopt;
    }
    if (s.count < 1 || s.count > 1024 || s.index < 1 || s.index > s.count) {
        error = "'" + std::string(text) + "': K/N needs 1 <= K <= N <= 1024";
        return std::nullopt;
    }
    return s;
}

std::size_t estimated_cases(const suite::Suite& s) {
    static const std::size_t mutation_count = ids::mutations(ids::nil_uuid).size();
    std::size_t n = s.setup.empty() ? 0 : 1;
    for (const auto& c : s.cases) {
        if (!c.for_each) {
            ++n;
            continue;
        }
        const auto& f = *c.for_each;
        switch (f.source) {
            case suite::ForEach::Source::count: n += static_cast<std::size_t>(std::max(f.count, 0)); break;
            case suite::ForEach::Source::vectors: {
                const auto set = s.vector_sets.find(f.set);
                if (set == s.vector_sets.end()) {
                    ++n;
                    break;
                }
                for (const auto& v : set->second.vectors) {
                    const bool in = f.only.empty() || std::find(f.only.begin(), f.only.end(), v.name) != f.only.end();
                    const bool out = std::find(f.except.begin(), f.except.end(), v.name) != f.except.end();
                    n += in && !out;
                }
                break;
            }
            case suite::ForEach::Source::mutations:
                n += f.only.empty() ? (mutation_count > f.except.size() ? mutation_count - f.except.size() : 1)
                                    : f.only.size();
                break;
        }
    }
    return n;
}

std::vector<std::size_t> assign(const std::vector<std::size_t>& weights, std::size_t shards) {
    std::vector<std::size_t> order(weights.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return weights[a] > weights[b]; });
    std::vector<std::size_t> load(std::max<std::size_t>(shards, 1), 0), out(weights.size(), 0);
    for (std::size_t u : order) {
        const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        out[u] = least;
        load[least] += std::max<std::size_t>(weights[u], 1);  // an empty unit still costs its setup
    }
    return out;
}

std::vector<std::size_t> select(const std::vector<suite::Suite>& suites, const ShardSpec& spec) {
    // A preflight (`preflight: true`) checks that this shard's principals
    // are let in: every shard runs it, and it weighs on none.
    std::vector<std::size_t> mine, units, weights;
    for (std::size_t i = 0; i < suites.size(); ++i) {
        if (suites[i].preflight) {
            mine.push_back(i);
            continue;
        }
        units.push_back(i);
        weights.push_back(estimated_cases(suites[i]));
    }
    const auto where = assign(weights, spec.count);
    for (std::size_t u = 0; u < where.size(); ++u)
        if (where[u] == spec.index - 1) mine.push_back(units[u]);
    return mine;
}

std::string plan_digest(const std::string& profile_text, const std::vector<suite::Suite>& suites) {
    std::uint64_t h = 1469598103934665603ull;
    auto feed = [&h](std::string_view s) {
        for (unsigned char c : s) {
            h ^= c;
            h *= 1099511628211ull;
        }
        h ^= 0xff;  // a separator no text byte sequence can fake
        h *= 1099511628211ull;
    };
    feed(profile_text);
    for (const auto& s : suites) {
        feed(s.name);
        feed(s.file);
        feed(std::to_string(estimated_cases(s)));
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = digits[h & 15];
    return out;
}

}  // namespace idconform::shard
