// The shape scan of one answer as the checks of its step: the findings of
// scan_ids (checks.hpp), at most max_scan_findings_per_step of them plus one
// check counting the rest (as `idconform scan` lists the first violations of
// a rule and counts the others), and, when the body could not be scanned (not
// JSON, truncated at the body cap, nested too deep), an advisory note saying
// so instead of silence.
#pragma once

#include "core/result.hpp"
#include "runner/checks.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace idconform::runner {

inline constexpr std::size_t max_scan_findings_per_step = 100;

struct AnswerScan {
    std::vector<CheckResult> findings;  // failed checks (listed findings and the count of the rest)
    std::vector<std::string> fields;    // each finding's field (pointer, indices as '*'; "" for the count)
    // The findings past the listed ones, by rule and field.
    std::map<std::pair<std::string, std::string>, std::size_t> unlisted;
    std::optional<CheckResult> note;    // an advisory (warning) check: why the body was not scanned
};

// `versions` collects the UUID versions per field of every id seen (listed or
// not), leaving out the strings in `sent` (echoes of the request).
[[nodiscard]] AnswerScan scan_answer(const Response& resp, BodyJson& body,
                                     std::map<std::string, std::set<int>>* versions,
                                     const std::set<std::string>* sent = nullptr,
                                     std::size_t max_findings = max_scan_findings_per_step);

}  // namespace idconform::runner
