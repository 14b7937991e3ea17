// One audit of a database through a CatalogReader: the catalog, the plan
// of columns (checks.hpp), the schema checks, then each planned column's
// values streamed through a ValueTally, into findings in report order. A
// column that cannot be read (privilege, vanished, unknown type) is said
// and the audit goes on; only a catalog that cannot be read stops it. And
// the findings as report results (CaseResult), the way scan/results.hpp does
// it for files: console lines, JUnit/JSON/HTML through the reporters, with
// waivers and baselines applied by the audit stage in front of them.
#pragma once

#include "core/result.hpp"
#include "db/catalog.hpp"
#include "db/checks.hpp"
#include "db/config.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace idconform::db {

struct AuditOptions {
    std::uint64_t max_rows = 0;  // per column; 0: every row
    std::int64_t now_ms = 0;     // the clock v7 timestamps are judged against (0: not judged)
    std::int64_t clock_skew_ms = 5000;
    std::optional<std::string> legacy_salt;  // uuidv8-legacy hash check (never printed)
};

struct AuditOutcome {
    std::optional<ReadError> fatal;  // the catalog could not be read
    Catalog catalog;
    std::vector<Finding> findings;
    std::uint64_t columns_read = 0, values_read = 0;
};

[[nodiscard]] AuditOutcome audit(CatalogReader& reader, const Config& config, const AuditOptions& options);

// The report case of one finding, in suite `suite` ("db NAME"): named
// "OBJECT CHECK [RULE]", classname "db.OBJECT.RULE"; failed/warning
// findings carry one check with expected/actual and the examples.
[[nodiscard]] CaseResult case_of(const Finding& f, const std::string& suite);

// The case of the connection (and the catalog read): passed with the
// server's version, or in error (unreachable, authentication: exit 3).
[[nodiscard]] CaseResult connect_case(const std::string& suite, const std::string& shown_conninfo,
                                      const std::string& system, const std::optional<ReadError>& error);

// The error cause a reader's error kind counts under.
[[nodiscard]] ErrorCause error_cause_of(ErrorKind k) noexcept;

// "public.orders.id: DATA-ID-001: DEFAULT gen_random_uuid() makes ... [guessed: ...]": the console line.
[[nodiscard]] std::string finding_line(const Finding& f);

}  // namespace idconform::db
