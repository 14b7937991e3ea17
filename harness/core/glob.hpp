// The one glob of idconform: `run --filter` (case names) and the waivers'
// rule/suite/resource/case scopes (harness/audit/) match with it, so a
// pattern means the same wherever a user writes one.
#pragma once

#include <string_view>

namespace idconform {

// Whether `text` matches `pattern` as a whole: '*' any run of characters
// (also none), '?' exactly one character (a UTF-8 sequence counts as one, so
// "caf?" matches "café"; a byte that is not valid UTF-8 counts as one),
// every other byte itself (case-sensitive; no classes, no escapes). No
// allocation, at most O(|pattern| * |text|) steps: one backtrack point, the
// last '*'.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view text) noexcept;

// Whether some text that starts with `prefix` matches `pattern` (what
// `run --filter` can tell of a case whose element names are known only once
// the suite's setup ran: "name [" + a mutation of the live id).
[[nodiscard]] bool glob_match_prefix(std::string_view pattern, std::string_view prefix) noexcept;

}  // namespace idconform
