// The call step kind (unbound pack operations).
#include "runner/steps/call.hpp"

#include <boost/json/serialize.hpp>

namespace idconform::runner::steps {

Result<Request> build(const suite::OpCall& c, const Env&, const Scope&) {
    const std::string op = suite::name(c.op);
    return Result<Request>(boost::system::in_place_error,
                           c.pos.str() + ": call " + op +
                               ": no request is bound to this operation (a 'call' step runs from a target profile whose "
                               "resource declares '" + op + "'; guard the case with requires: [res." + op + "])");
}

std::string describe(const suite::OpCall& op) {
    std::string s = suite::name(op.op);
    if (!op.id.empty()) s += " " + op.id;
    for (const auto& [k, v] : op.filter) s += " ?" + k + "=" + v;
    for (const auto& [p, v] : op.set) s += " body" + p + "=" + boost::json::serialize(v);
    for (const auto& p : op.unset) s += " without body" + p;
    if (!op.principal.empty()) s += " as " + op.principal;
    if (op.via_other) s += " via the other transport";
    return s;
}

// Unbound, it goes nowhere: the endpoint says which operation it stands for.
void add_properties(const suite::OpCall& c, std::vector<Property>& out) {
    out.push_back({"transport", "call"});
    out.push_back({"endpoint", std::string("call ") + suite::name(c.op)});
}

}  // namespace idconform::runner::steps
