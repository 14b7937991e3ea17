// Waivers: failures an organisation knowingly accepts, each for one rule,
// with a scope (suite/resource/case globs), a reason, an owner and an expiry
// date. Loaded from YAML with the suites' file:line:col diagnostics; applied
// to case results by the audit stage (audit_stage.hpp) before any reporter
// sees them. See harness/audit/README.md for the file format.
#pragma once

#include "core/diagnostic.hpp"
#include "core/result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::audit {

struct Waiver {
    std::string rule;              // glob on the case's rule ids ("DATA-ID-002", "R5.*")
    std::string suite = "*";       // glob on the suite name
    std::string resource = "*";    // glob on one word of the suite name (packs: "<pack> <resource>[ over grpc]")
    std::string case_name = "*";   // glob on the case name
    std::string reason, owner;
    std::string expires;           // YYYY-MM-DD as written; the waiver holds through that day (UTC)
    long expires_day = 0;          // days since 1970-01-01 of `expires`
    SourcePos pos;                 // the waiver's entry in its file
};

struct WaiverFile {
    std::string path;
    std::vector<Waiver> waivers;   // in file order
};

struct WaiverLoad {
    std::optional<WaiverFile> file;  // set only when diagnostics is empty
    std::vector<Diagnostic> diagnostics;
};

[[nodiscard]] WaiverLoad load_waivers(const std::string& path);
// For tests: from text, `path` used in positions.
[[nodiscard]] WaiverLoad load_waivers_text(const std::string& text, const std::string& path);

// Days since 1970-01-01 of a YYYY-MM-DD date; nullopt when it is not a real
// calendar date in that exact form.
[[nodiscard]] std::optional<long> parse_day(std::string_view date);
// Today (UTC) in days since 1970-01-01.
[[nodiscard]] long today_utc();

// Whether w's scope covers c (the outcome is not looked at); globs are
// core/glob.hpp's, the same as `run --filter`.
[[nodiscard]] bool covers(const Waiver& w, const CaseResult& c);
// "suite=data-id*, case=*upper*" (only what is narrowed), "every case" when nothing.
[[nodiscard]] std::string scope_text(const Waiver& w);

}  // namespace idconform::audit
