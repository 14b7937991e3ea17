// Checks over many ids at once (see sequence_checks.hpp): distinctness,
// determinism, ULID time order, the randomness test for viewable ids, and
// the one-kind check over every id-named member of an answer.
#include "runner/sequence_checks.hpp"

#include "ids/ids.hpp"
#include "ids/kind.hpp"
#include "runner/checks.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace idconform::runner {

namespace json = boost::json;

namespace {

std::string shown(std::string_view s) {
    return s.size() <= 60 ? "'" + std::string(s) + "'" : "'" + std::string(s.substr(0, 60)) + "...'";
}

// log P(Binomial(n, p) >= k), summed in log space so large n stays exact enough.
double log_binomial_tail(std::size_t n, double p, std::size_t k) {
    double total = -INFINITY;
    for (std::size_t i = k; i <= n; ++i) {
        const double term = std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) - std::lgamma(double(n - i) + 1) +
                            double(i) * std::log(p) + double(n - i) * std::log1p(-p);
        const double hi = std::max(total, term);
        total = hi + std::log(std::exp(total - hi) + std::exp(term - hi));
    }
    return total;
}

constexpr double chi_square_limit = 103.44;  // chi-square, 31 degrees of freedom, upper tail 1e-9

}  // namespace

bool is_kind(std::string_view text, std::string_view kind, bool canonical) {
    // The one verdict (ids/kind.hpp); the loader admitted only known kinds.
    const std::optional<ids::IdKind> k = ids::parse_kind(kind);
    return k && ids::is_valid(text, *k, {.canonical = canonical});
}

SequenceVerdict check_distinct(const std::vector<std::string>& values) {
    SequenceVerdict v{true, "distinct values", std::to_string(values.size()) + " distinct values", ""};
    std::map<std::string, std::size_t> first;  // value -> index
    for (std::size_t i = 0; i < values.size(); ++i) {
        auto [it, fresh] = first.emplace(values[i], i);
        if (!fresh) {
            v.ok = false;
            v.actual = "value " + std::to_string(i + 1) + " " + shown(values[i]) + " repeats value " +
                       std::to_string(it->second + 1) + " (of " + std::to_string(values.size()) + ")";
            return v;
        }
    }
    v.actual = std::to_string(values.size()) + " values, none repeated";
    return v;
}

SequenceVerdict check_same(const std::vector<std::string>& values) {
    SequenceVerdict v{true, "the same value every time", "", ""};
    if (values.empty()) {
        v.ok = false;
        v.actual = "no values collected";
        return v;
    }
    v.expected = shown(values.front()) + " every time";
    for (std::size_t i = 1; i < values.size(); ++i) {
        if (values[i] != values.front()) {
            v.ok = false;
            v.actual = "value " + std::to_string(i + 1) + " is " + shown(values[i]) + ", value 1 was " + shown(values[0]);
            return v;
        }
    }
    v.actual = std::to_string(values.size()) + " equal values";
    return v;
}

SequenceVerdict check_time_ordered(const std::vector<std::string>& values) {
    SequenceVerdict v{true, "ULID times in creation order", "48-bit times non-decreasing", ""};
    std::int64_t last = -1;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const ids::UlidParse p = ids::parse_ulid(values[i], ids::CasePolicy::any);
        if (!p.value) {
            v.ok = false;
            v.actual = "value " + std::to_string(i + 1) + " " + shown(values[i]) + " is not a ULID (" +
                       std::string(ids::to_string(p.error)) + ")";
            return v;
        }
        const auto ms = static_cast<std::int64_t>(p.value->unix_ms());
        if (ms < last) {
            v.ok = false;
            v.actual = "value " + std::to_string(i + 1) + " " + shown(values[i]) + " has time " + ids::iso8601_ms(ms) +
                       ", before value " + std::to_string(i) + "'s " + ids::iso8601_ms(last);
            return v;
        }
        last = ms;
    }
    v.actual = std::to_string(values.size()) + " ULIDs in time order";
    return v;
}

RandomnessStats randomness_stats(const std::vector<std::string>& values, std::string_view prefix) {
    RandomnessStats s;
    s.n = values.size();
    if (s.n < 30) {
        s.problem = "too few values for the test: " + std::to_string(s.n) + " (it needs at least 30)";
        return s;
    }
    std::vector<std::uint64_t> x;
    x.reserve(s.n);
    std::vector<std::array<std::size_t, 32>> counts;
    std::array<std::size_t, 32> pooled{};
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string_view t = values[i];
        if (t.substr(0, prefix.size()) != prefix) {
            s.problem = "value " + std::to_string(i + 1) + " " + shown(t) + " does not start with " + shown(prefix);
            return s;
        }
        const std::string_view body = t.substr(prefix.size());
        if (i == 0) {
            s.length = body.size();
            if (s.length < 1 || s.length > 12) {
                s.problem = "value 1 " + shown(t) + " has " + std::to_string(s.length) +
                            " symbols after the prefix (the test takes 1 to 12)";
                return s;
            }
            counts.assign(s.length, {});
        }
        if (body.size() != s.length) {
            s.problem = "value " + std::to_string(i + 1) + " " + shown(t) + " has " + std::to_string(body.size()) +
                        " symbols after the prefix, value 1 has " + std::to_string(s.length);
            return s;
        }
        std::uint64_t v = 0;
        for (std::size_t j = 0; j < body.size(); ++j) {
            const int d = ids::crockford_value(body[j]);
            if (d < 0 || (body[j] >= 'a' && body[j] <= 'z')) {
                s.problem = "value " + std::to_string(i + 1) + " " + shown(t) + " has '" + std::string(1, body[j]) +
                            "', not an upper-case Crockford base32 symbol";
                return s;
            }
            v = v << 5 | static_cast<std::uint64_t>(d);
            ++counts[j][static_cast<std::size_t>(d)];
            ++pooled[static_cast<std::size_t>(d)];
        }
        x.push_back(v);
    }
    const int bits = static_cast<int>(5 * s.length);
    const std::uint64_t near = bits > 20 ? std::uint64_t{1} << (bits - 20) : 1;
    for (std::size_t i = 0; i + 1 < x.size(); ++i) {
        if (x[i + 1] > x[i]) ++s.ascents;
        const std::uint64_t gap = x[i + 1] > x[i] ? x[i + 1] - x[i] : x[i] - x[i + 1];
        if (gap < near) ++s.close_pairs;
    }
    const double n = static_cast<double>(s.n);
    s.ascent_limit = 6.0 * std::sqrt((n + 1) / 12.0);
    const double cells = 32.0 * static_cast<double>(s.length);
    s.dominance_limit = s.n + 1;
    for (std::size_t k = 1; k <= s.n; ++k)
        if (std::log(cells) + log_binomial_tail(s.n, 1.0 / 32, k) <= std::log(1e-9)) {
            s.dominance_limit = k;
            break;
        }
    std::size_t worst_pos = 0, worst_sym = 0;
    for (std::size_t j = 0; j < counts.size(); ++j)
        for (std::size_t d = 0; d < 32; ++d)
            if (counts[j][d] > s.max_count) {
                s.max_count = counts[j][d];
                worst_pos = j;
                worst_sym = d;
            }
    const double expected = n * static_cast<double>(s.length) / 32.0;
    for (std::size_t c : pooled) s.chi_square += (double(c) - expected) * (double(c) - expected) / expected;

    static constexpr char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    const double mean = (n - 1) / 2;
    if (std::abs(double(s.ascents) - mean) > s.ascent_limit) {
        s.problem = std::to_string(s.ascents) + " of " + std::to_string(s.n - 1) +
                    " values are greater than the one before (a random order gives " +
                    std::to_string(static_cast<long>(std::ceil(mean - s.ascent_limit))) + ".." +
                    std::to_string(static_cast<long>(std::floor(mean + s.ascent_limit))) + "): they follow creation order";
    } else if (s.max_count >= s.dominance_limit) {
        s.problem = "symbol '" + std::string(1, alphabet[worst_sym]) + "' stands at position " +
                    std::to_string(worst_pos + 1) + " in " + std::to_string(s.max_count) + " of " +
                    std::to_string(s.n) + " values (random: fewer than " + std::to_string(s.dominance_limit) +
                    "): low entropy";
    } else if (s.close_pairs >= 2) {
        s.problem = std::to_string(s.close_pairs) + " consecutive values lie within " + std::to_string(near) +
                    " of each other (two such pairs in a random run: probability about 2e-8): each one is "
                    "guessable from the one before";
    } else if (s.chi_square > chi_square_limit) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", s.chi_square);
        s.problem = std::string("the symbols are unevenly spread over the alphabet (chi-square ") + buf +
                    ", random: at most 103.4): low entropy";
    }
    return s;
}

SequenceVerdict check_random(const std::vector<std::string>& values, std::string_view prefix) {
    const RandomnessStats s = randomness_stats(values, prefix);
    SequenceVerdict v;
    v.what = "randomness of " + std::to_string(values.size()) + " values";
    v.expected = "no sequential or low-entropy pattern (false-alarm rate ~2e-8 for 100 values)";
    v.ok = s.problem.empty();
    if (!v.ok) {
        v.actual = s.problem;
    } else {
        char buf[200];
        std::snprintf(buf, sizeof buf, "%zu ascents of %zu, %zu close neighbours, commonest symbol %zu times, chi-square %.1f",
                      s.ascents, s.n - 1, s.close_pairs, s.max_count, s.chi_square);
        v.actual = buf;
    }
    return v;
}

namespace {
struct MemberScan {
    std::string_view kind;
    const std::vector<DeclaredMember>& declared;
    std::vector<SequenceVerdict>& bad;
    std::size_t seen = 0;
    std::size_t other = 0;  // judged by a declared kind other than `kind`
    std::size_t left = 0;   // declared members of kinds with rules of their own
};

// The declaration `ptr` falls under: its pointer is the end of `ptr` on a
// token boundary (the declarations point into one entity; lists nest them).
const DeclaredMember* declaration(const std::string& ptr, const std::vector<DeclaredMember>& declared) {
    for (const auto& d : declared)
        if (!d.pointer.empty() && d.pointer.front() == '/' && ptr.size() >= d.pointer.size() &&
            std::string_view(ptr).substr(ptr.size() - d.pointer.size()) == d.pointer)
            return &d;
    return nullptr;
}

void members(const json::value& v, std::string& ptr, std::string_view key, MemberScan& scan) {
    if (const auto* o = v.if_object()) {
        for (const auto& kv : *o) {
            const std::size_t mark = ptr.size();
            ptr += '/';
            for (char ch : std::string_view(kv.key())) ptr += ch == '~' ? "~0" : ch == '/' ? "~1" : std::string(1, ch);
            members(kv.value(), ptr, kv.key(), scan);
            ptr.resize(mark);
        }
        return;
    }
    if (const auto* a = v.if_array()) {
        for (std::size_t i = 0; i < a->size(); ++i) {
            const std::size_t mark = ptr.size();
            ptr += "/" + std::to_string(i);
            members((*a)[i], ptr, key, scan);
            ptr.resize(mark);
        }
        return;
    }
    const DeclaredMember* d = declaration(ptr, scan.declared);
    if (!d && (key.empty() || !ids::data_id_named(key))) return;
    if (v.is_null()) return;  // an absent reference
    std::string_view kind = scan.kind;
    if (d && d->kind != kind) {
        const auto k = ids::parse_kind(d->kind);
        if (!k || !(ids::is_uuid_kind(*k) || *k == ids::IdKind::ulid)) {
            ++scan.left;  // viewable, existing: their own rules (and packs) judge them
            return;
        }
        kind = d->kind;
        ++scan.other;
    }
    ++scan.seen;
    // The kind, not its spelling: letter case is R4's business, not R1's.
    const bool ok = v.is_string() && is_kind(v.as_string(), kind, false);
    if (ok) return;
    SequenceVerdict f;
    f.ok = false;
    f.what = "id member " + ptr;
    f.expected = d && d->kind != scan.kind ? "a " + std::string(kind) + ", the kind the profile declares for " + d->pointer
                                           : "a " + std::string(kind) + ", like every id of this repository";
    if (v.is_string()) {
        const ids::Recognition r = ids::recognize(v.as_string());
        f.actual = shown(v.as_string()) + ": " + r.describe();
    } else {
        f.actual = json::serialize(v) + (v.is_number() ? " (an integer key beside " + std::string(kind) + " ids)"
                                                        : " (not a string)");
    }
    scan.bad.push_back(std::move(f));
}
}  // namespace

std::vector<SequenceVerdict> check_id_members(const json::value& body, std::string_view kind,
                                              const std::vector<DeclaredMember>& declared) {
    std::vector<SequenceVerdict> bad;
    std::string ptr;
    MemberScan scan{kind, declared, bad};
    members(body, ptr, "", scan);
    if (!bad.empty()) return bad;
    std::string expected = "every id-named member a " + std::string(kind);
    std::string actual = std::to_string(scan.seen) + " id-named members, all " + std::string(kind);
    if (scan.other + scan.left > 0) {
        expected += " (members the profile declares: their declared kind)";
        actual = std::to_string(scan.seen) + " id-named members, each of its kind (" + std::to_string(scan.other) +
                 " of a declared kind other than " + std::string(kind) + ")";
    }
    if (scan.left > 0)
        actual += "; " + std::to_string(scan.left) + " declared member" + (scan.left == 1 ? "" : "s") +
                  " of a kind with rules of its own (viewable, existing) left to them";
    return {SequenceVerdict{true, "id members", std::move(expected), std::move(actual)}};
}

}  // namespace idconform::runner
