// Counting helpers of the result model.
#include "core/result.hpp"

#include <algorithm>

namespace idconform {

const char* to_string(Outcome o) noexcept {
    switch (o) {
        case Outcome::passed: return "passed";
        case Outcome::failed: return "failed";
        case Outcome::error: return "error";
        case Outcome::skipped: return "skipped";
        case Outcome::waived: return "waived";
    }
    return "error";
}

std::size_t SuiteResult::count(Outcome o) const {
    return streamed[static_cast<std::size_t>(o)] +
           static_cast<std::size_t>(
               std::count_if(cases.begin(), cases.end(), [o](const CaseResult& c) { return c.outcome == o; }));
}

std::size_t SuiteResult::total() const {
    std::size_t n = cases.size();
    for (const std::size_t k : streamed) n += k;
    return n;
}

std::size_t RunSummary::count(Outcome o) const {
    std::size_t n = 0;
    for (const auto& s : suites) n += s.count(o);
    return n;
}

std::size_t RunSummary::total() const {
    std::size_t n = 0;
    for (const auto& s : suites) n += s.total();
    return n;
}

}  // namespace idconform
