// What running one step gave: its record (request, answer, checks) and how
// it ended. A step ends in at most one of: a suite error (a template problem
// found at run time), a transport error, failed checks.
#pragma once

#include "core/result.hpp"

#include <string>

namespace idconform::runner {

struct StepOutcome {
    StepRecord record;
    bool transport_error = false;
    std::string suite_error;        // template problem: undefined variable, ...
    bool unbound = false;           // the suite error is a variable never set (a capture that never happened)
    // What a transport_error is caused by: transport, authentication, harness_limit, or input (a
    // file step's file that cannot be opened); suite with a suite_error.
    ErrorCause cause = ErrorCause::none;
    bool failed = false;
    bool evidence_pending = false;  // redaction and reproduce line left to the caller (evidence.hpp)
    // The answer could not be judged for a limit of the harness (its body cut
    // at the cap, nested too deep: BodyJson::limit): the step is an error.
    std::string harness_limit;
    // A 401 to a principal that should be let in, which the check does not
    // expect (runner/auth.hpp): the step is an error, its checks not judged.
    std::string unauthenticated;
};

}  // namespace idconform::runner
