// The shape scan's findings of a whole run, folded into results of their
// own. The shape scan reads every id-like value of every 2xx answer; what it
// finds is a claim about an endpoint's answers, not about the case whose
// answer it happened to read, so it never fails that case. A finding is
// filed under its rule x endpoint (method and path template, gRPC method,
// topic) x field (JSON pointer, array indices as '*'): a defect seen in 31
// answers is one failure, with the number of answers it was seen in and the
// first few of them (request, answer, the values found) as evidence.
//
// Results go to a suite of their own, "shape scan", after every other
// suite, one case per key, sorted by name, so names and order are the same
// from run to run whatever the concurrency (waivers and --baseline key on
// them like on any case). Shards each report the keys they saw; `merge`
// folds them back into one (merge_shape_result).
#pragma once

#include "core/result.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace idconform::runner {

struct AnswerScan;

inline constexpr std::string_view shape_scan_suite = "shape scan";
// Answers kept as evidence per key, and values listed per answer.
inline constexpr std::size_t shape_examples_per_finding = 3;
inline constexpr std::size_t shape_values_per_example = 10;
// Distinct keys kept; past it, new fields of a rule x endpoint fold into one
// "(other fields)" key, so a target answering random member names cannot
// grow the run's memory without bound.
inline constexpr std::size_t max_shape_keys = 1000;

class ShapeFindings {
public:
    // The findings of one answer (scan.findings with scan.fields) at
    // `endpoint`. `example` makes the step's evidence (request and answer,
    // redacted, with its reproduce line); it is called only while a key
    // still wants an example, and the findings of that key become its checks.
    void add(const std::string& endpoint, const std::string& transport, AnswerScan&& scan,
             const std::function<StepRecord()>& example);
    [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
    // One failed case per key, sorted by name; the store is left empty.
    [[nodiscard]] std::vector<CaseResult> take_results();

private:
    struct Entry {
        std::string rule, endpoint, field, transport;
        std::size_t answers = 0;  // answers it was seen in
        std::size_t values = 0;   // values found, in all
        std::vector<StepRecord> examples;
    };
    using Key = std::tuple<std::string, std::string, std::string>;  // rule, endpoint, field
    std::map<Key, Entry> entries_;
};

// Folds `more` (a shape-scan case of another shard's report) into `into`,
// the case of the same name: answers and values added, examples kept up to
// the limit, the message said again with the sums.
void merge_shape_result(CaseResult& into, CaseResult&& more);

}  // namespace idconform::runner
