// What the harness makes from a declared id kind: the mutations of a live id
// and fresh ids. Both depend on the kind a profile or suite declares, never
// on the text a server happened to return: the mutations of a kind have the
// same names for every id of that kind (one the id does not admit, such as
// the upper-case form of an id without letters, is there and says why it
// cannot be made), so one profile gives the same cases on every run.
#pragma once

#include "ids/kind.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::ids {

// ---------------------------------------------------------------- mutations

// One mutation of a live id. `name` is fixed by the kind (stable: it becomes
// a JUnit testcase name); `text` and `breaks` are those of mutations(),
// ulid_mutations(), viewable_mutations() or opaque_mutations(). When this
// mutation cannot be made of this id, `text` is empty and `not_applicable`
// says why, in words ("not applicable: ... has no letter whose case could
// change").
struct KindMutation {
    std::string name;
    std::string text;
    std::string breaks;
    std::string not_applicable;
};

// The mutation names of a kind, in order:
// - UUID kinds: the forms of mutations() with version-N for every nibble but
//   the kind's version (all 16 for `uuid`, which fixes none);
// - ulid: those of ulid_mutations(); viewable: those of viewable_mutations()
//   for `viewable` (wrong-prefix and no-prefix only with a prefix);
// - existing and any: every form opaque_mutations() makes of some text
//   (the case forms, padding, wrapping, leading-zero and decimal-point, one
//   character short and long).
[[nodiscard]] std::vector<std::string> mutation_names(IdKind kind, const ViewableFormat& viewable = {});

// The mutations of `live` as an id of `kind`: one per mutation_names(kind),
// in that order. A live id that is not of the kind's form (a non-UUID text
// declared uuidv7) gives every mutation as not applicable, saying so: the
// rule checks judge the id's own form.
[[nodiscard]] std::vector<KindMutation> mutations_of_kind(IdKind kind, std::string_view live,
                                                          const ViewableFormat& viewable = {});

// The kind a text reads as when nothing declares one (a hand-written suite's
// `for_each: {mutations: ...}` without `kind:`): uuidvN for a canonical UUID
// of a version RFC 9562 defines, uuid for another canonical UUID, ulid for a
// lower-case ULID, existing for anything else (never viewable: its format is
// the profile's to say).
[[nodiscard]] IdKind kind_of_text(std::string_view text);

// ---------------------------------------------------------------- fresh ids

struct FreshOptions {
    std::string pattern;  // kind existing: the RE2 pattern the value must match in full
};

// Why no fresh id of `kind` can be made, in words; "" when one can:
// every UUID kind but uuidv8-legacy (its bits encode a legacy integer id
// with the target's salt), ulid, and existing with a pattern
// text_matching() can make a value of. viewable (the format is a profile's
// `viewable:` section's), existing without a pattern and any cannot.
[[nodiscard]] std::string no_fresh_id(IdKind kind, const FreshOptions& options = {});

// A fresh id of `kind` (nullopt exactly when no_fresh_id() is not ""):
// uuidv4/uuidv8 random; uuidv7 (and `uuid`) from the monotonic v7
// generator; uuidv1/uuidv6 from the clock with a random clock sequence and a
// random multicast node; uuidv3/uuidv5 the hash of a random name in the URL
// namespace; ulid from the monotonic generator; existing a text matching the
// pattern that kind existing accepts (never "", "0", Nil or Max).
[[nodiscard]] std::optional<std::string> fresh_id(IdKind kind, const FreshOptions& options = {});

// A random text that the RE2 `pattern` matches in full, for the part of the
// syntax ids are written in: literals and escaped punctuation, `.`, classes
// (ranges, negation, \d \w, [:alnum:] and its kin), groups ((...), (?:...),
// (?P<name>...)), alternation, the anchors ^ $ \A \z at the ends, and the
// repetitions ? * + {n} {n,} {n,m} (lazy or not). A repetition with room
// takes 12 of a single-character atom (a fresh value, not the shortest), a
// value never starts with '0' when its first class allows another symbol
// (an id "0123" may be read as the number 123). nullopt, with `why` set when
// given, for anything else (flags, \s, back-references, non-ASCII text, a
// shortest match over 4096 characters).
[[nodiscard]] std::optional<std::string> text_matching(std::string_view pattern, std::string* why = nullptr);

}  // namespace idconform::ids
