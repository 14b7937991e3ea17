// Baseline: the failures of an earlier JSON report (failed or waived cases),
// to tell this run's new failures from fixed and still-failing ones.
#pragma once

#include "core/result.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace idconform::audit {

// A case is the same case in both runs when its suite name and case name
// are: the identity JUnit consumers use too.
[[nodiscard]] std::string case_key(std::string_view suite, std::string_view name);

// Whether an outcome is a finding: a broken contract, accepted or not.
[[nodiscard]] inline bool is_finding(Outcome o) noexcept { return o == Outcome::failed || o == Outcome::waived; }

struct Baseline {
    std::string path;
    // case_key -> rules of each failing case of the earlier report. Read
    // only once loaded: the audit stage keeps which ones this run reported,
    // so the runner's thread may look entries up meanwhile (--max-failures).
    struct Entry {
        std::string suite, name;
        std::vector<std::string> rules;
    };
    std::unordered_map<std::string, Entry> failing;
};

struct BaselineLoad {
    std::optional<Baseline> baseline;
    std::string error;  // "cannot read baseline 'x.json': ..." when baseline is empty
};

// Reads an idconform JSON report with the streaming reader
// (reporters/json_report_reader.hpp): memory grows with the failing cases
// kept (their key and rules), not with the report. A file that is not such
// a report is an error ("baseline PATH:LINE:COL: why"), never an empty
// baseline: comparing against nothing would call every failure new.
[[nodiscard]] BaselineLoad load_baseline(const std::string& path);
[[nodiscard]] BaselineLoad load_baseline_text(std::string_view text, const std::string& path);

}  // namespace idconform::audit
