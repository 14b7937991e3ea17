// The rule catalogue: each rule id a report may name (the DATA-ID rules,
// nil-max, db-identifiers R1-R7 and ULID order, the uuidv8-legacy and
// viewable-id rules) with its one-line statement, which reports show beside
// the rule (the HTML report's rule list; docs/rules.md, column "the promise"). Kept with the shared vocabulary,
// not inside a reporter.
#pragma once

#include <string_view>

namespace idconform {

// The statement of `rule`; "" for a rule the catalogue does not know.
[[nodiscard]] std::string_view rule_statement(std::string_view rule);

}  // namespace idconform
