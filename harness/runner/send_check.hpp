// Before a case runs: whether a request it would send can be sent at all.
// A transport that knows the types of what it sends (gRPC, from the method's
// schema: transport::RequestCheck) says which value its field cannot hold;
// the expansion then reports that element of the case as not applicable
// (Nil or Max into an int64 id field is no request a client could make)
// instead of letting the call fail as an error.
#pragma once

#include "runner/scope.hpp"
#include "suite/model.hpp"

#include <boost/json/value.hpp>

#include <string>

namespace idconform::runner {

struct SuiteRun;

class SendCheck {
public:
    explicit SendCheck(SuiteRun& run) : run_(run) {}
    // Why the request of `step`, built with `scope`, cannot carry `value` at
    // the place the step puts it: "not applicable: the value '...' cannot be
    // sent: field id of pkg.GetRequest is int64 (...)". "" when it can, when
    // another member is what does not fit (the call reports that), or when
    // only sending can tell (the request cannot be built yet, the transport
    // knows no types).
    [[nodiscard]] std::string unsendable(const suite::Step& step, const Scope& scope,
                                         const boost::json::value& value) const;

private:
    SuiteRun& run_;
};

// Whether any step of `c` goes through a transport that may know its types
// (gRPC): only those cases are asked about.
[[nodiscard]] bool has_typed_steps(const suite::Case& c);

}  // namespace idconform::runner
