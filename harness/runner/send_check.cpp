// Requests that cannot be sent (see send_check.hpp).
#include "runner/send_check.hpp"

#include "runner/steps/step.hpp"
#include "runner/suite_run.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace idconform::runner {

namespace json = boost::json;

bool has_typed_steps(const suite::Case& c) {
    return std::any_of(c.steps.begin(), c.steps.end(), [](const suite::Step& st) { return suite::typed_message(st.request); });
}

std::string SendCheck::unsendable(const suite::Step& step, const Scope& scope, const json::value& value) const {
    if (!suite::typed_message(step.request)) return {};
    auto req = steps::build(step, run_.bound_of(step), run_.env, scope);
    if (!req) return {};  // a variable a step before it captures: only running the case tells
    auto* check = dynamic_cast<transport::RequestCheck*>(run_.transport_for(req->transport));
    if (!check) return {};
    const auto misfit = check->unsendable(*req);
    if (!misfit) return {};
    boost::system::error_code ec;
    const json::value body = json::parse(req->body, ec);
    if (ec) return {};
    const json::value* at = body.find_pointer(misfit->pointer, ec);
    if (!at || *at != value) return {};  // something else does not fit: the call reports it
    const std::string text = value.is_string() ? std::string(value.as_string()) : json::serialize(value);
    return "not applicable: the value '" + text + "' cannot be sent at " + misfit->pointer + " of " + req->method +
           ": " + misfit->reason;
}

}  // namespace idconform::runner
