// Checks over many ids at once, as pure functions: the values one case
// collected (`collect:` / `collected:`) and every id-named member of one
// answer (`id_members:`). Used by the db-identifiers, uuidv8-legacy and
// viewable-id packs; the statistics of check_random are in docs/packs.md.
#pragma once

#include "core/result.hpp"

#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace idconform::runner {

// The verdict of one check; the caller adds rule and position.
struct SequenceVerdict {
    bool ok = true;
    std::string what, expected, actual;
};

// No value occurs twice.
[[nodiscard]] SequenceVerdict check_distinct(const std::vector<std::string>& values);
// Every value equals the first (a deterministic mapping).
[[nodiscard]] SequenceVerdict check_same(const std::vector<std::string>& values);
// ULIDs (any case) whose 48-bit times never decrease in the given order.
[[nodiscard]] SequenceVerdict check_time_ordered(const std::vector<std::string>& values);

// The statistical test for "not sequential, not guessable": every value is
// `prefix` followed by L Crockford symbols (the same L for all, 1..12). On
// the values as 5L-bit numbers in the order they were issued it measures
//   ascents   - how often a value is greater than the one before; flagged
//               beyond 6 standard deviations of a random order's count
//               (mean (n-1)/2, variance (n+1)/12);
//   neighbours- consecutive values closer than 2^(5L-20); flagged at 2;
//   dominance - the count of the commonest symbol at each position; flagged
//               at the smallest k with 32*L*P(Binomial(n,1/32) >= k) <= 1e-9;
//   spread    - Pearson's chi-square of all n*L symbols over the 32-symbol
//               alphabet (31 degrees of freedom); flagged above 103.44
//               (upper tail 1e-9).
// For n = 100, L = 7 a uniformly random generator trips any of them with
// probability about 2.1e-8 (docs/packs.md). Needs n >= 30.
struct RandomnessStats {
    std::size_t n = 0, length = 0;
    std::size_t ascents = 0;
    double ascent_limit = 0;       // |ascents - (n-1)/2| must not exceed this
    std::size_t close_pairs = 0;
    std::size_t max_count = 0;     // of one symbol at one position
    std::size_t dominance_limit = 0;  // flagged at this count
    double chi_square = 0;
    std::string problem;           // "" when the values are a random-looking set
};
[[nodiscard]] RandomnessStats randomness_stats(const std::vector<std::string>& values, std::string_view prefix);
[[nodiscard]] SequenceVerdict check_random(const std::vector<std::string>& values, std::string_view prefix);

// Every id-named member ("id", "*_id", "*Id") anywhere in `body` holds a
// value of `kind` (the id check kinds: ulid, uuid, uuidv7, viewable, ...):
// one verdict per offending member, or one passing verdict naming how many
// members were seen. An integer id beside ULIDs is the R1 violation.
//
// `declared` are the members a profile declares on purpose (pointer in the
// entity, kind): a member whose pointer ends with one is judged by that kind,
// not `kind` (a uuidv4 tracking id is a uuidv4; a viewable id TR-... beside
// ULID keys, or a field of kind existing, is left to its own rules). Only
// undeclared id-named members are held to `kind`.
struct DeclaredMember {
    std::string pointer;  // "/viewable_id": matches /viewable_id, /items/3/viewable_id, ...
    std::string kind;
};
[[nodiscard]] std::vector<SequenceVerdict> check_id_members(const boost::json::value& body, std::string_view kind,
                                                            const std::vector<DeclaredMember>& declared = {});

// Whether `text` is a valid id of `kind` (a suite kind name): ids::is_valid,
// the one verdict; canonical=false accepts any spelling of the same bits.
[[nodiscard]] bool is_kind(std::string_view text, std::string_view kind, bool canonical = true);

}  // namespace idconform::runner
