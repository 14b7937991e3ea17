// Plain-text evidence of a case, shared by the JUnit reporter (failure/error
// text, system-out transcript) and the console reporter (verbose output), so
// both tell the same story. Output is redacted but not escaped: each
// reporter escapes for its own format.
#pragma once

#include "core/result.hpp"
#include "reporters/options.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace idconform::reporters {

// "FAIL [RULE] what: expected E, actual A (at file:line:col)"; the verdict
// word is "ok", "FAIL" or "warn" (a failed advisory check).
[[nodiscard]] std::string check_line(const CheckResult& c);
void append_check_line(std::string& out, const CheckResult& c);

// The request as sent, the response (status, headers, body excerpt) or the
// transport error, attempts and the reproduce command; every line starts
// with indent.
[[nodiscard]] std::string exchange_evidence(const StepRecord& step, const ReportOptions& opts, std::string_view indent);

// The steps whose evidence explains the outcome: for a failure, the steps
// with a failed (non-advisory) check (a waived case is a failure here); for
// an error, the steps with a transport error; else the last step. Empty for
// passed/skipped cases.
[[nodiscard]] std::vector<const StepRecord*> evidence_steps(const CaseResult& c);

// Failure/error text: rule ids, the message, the runner's detail, then per
// evidence step its failed checks and exchange_evidence.
[[nodiscard]] std::string failure_detail(const CaseResult& c, const ReportOptions& opts);

// Transcript of every step: request line, status (or error), each check.
[[nodiscard]] std::string transcript(const CaseResult& c, const ReportOptions& opts);
void append_transcript(std::string& out, const CaseResult& c, const ReportOptions& opts);

// "DATA-ID-001, DATA-ID-002" ("" when none).
[[nodiscard]] std::string join_rules(const std::vector<std::string>& rules);

}  // namespace idconform::reporters
