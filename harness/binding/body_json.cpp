// BodyJson: the answer's body parsed on first use, with the harness's depth
// bound; what a limit of the harness keeps from being judged is said apart.
#include "binding/body_json.hpp"

#include <boost/json/parse.hpp>

namespace idconform::binding {

namespace json = boost::json;

json::value parse_body_json(std::string_view text, boost::system::error_code& ec) {
    json::parse_options o;
    o.max_depth = max_body_depth;
    return json::parse(text, ec, {}, o);
}

const json::value* BodyJson::parse() {
    if (!tried_) {
        tried_ = true;
        boost::system::error_code ec;
        value_ = parse_body_json(resp_->body, ec);
        if (ec) {
            value_.reset();
            if (resp_->body_truncated) {
                error_ = "body truncated at the cap, not parseable";
                limit_ = "the body (" + std::to_string(resp_->body_bytes) + " bytes) is larger than the body cap (" +
                         std::to_string(resp_->body.size()) + " bytes kept): it cannot be judged; raise --body-cap";
            } else if (ec == json::error::too_deep) {
                error_ = "body nests deeper than " + std::to_string(max_body_depth) + " levels";
                limit_ = "the JSON body nests deeper than " + std::to_string(max_body_depth) +
                         " levels, the harness's bound: it cannot be judged";
            } else if (resp_->body.empty()) {
                // Boost.JSON calls nothing at all "incomplete JSON": say what it is.
                error_ = "the body is empty (no JSON at all)";
            } else {
                error_ = "body is not JSON (" + ec.message() + ")";
            }
        }
    }
    return value_ ? &*value_ : nullptr;
}

}  // namespace idconform::binding
