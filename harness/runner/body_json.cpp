// BodyJson: the answer's body parsed on first use.
#include "runner/body_json.hpp"

#include <boost/json/parse.hpp>

namespace idconform::runner {

namespace json = boost::json;

const json::value* BodyJson::get() {
    if (!tried_) {
        tried_ = true;
        boost::system::error_code ec;
        value_ = json::parse(resp_->body, ec);
        if (ec) {
            value_.reset();
            error_ = resp_->body_truncated ? "body truncated at the cap, not parseable"
                                           : "body is not JSON (" + ec.message() + ")";
        }
    }
    return value_ ? &*value_ : nullptr;
}

}  // namespace idconform::runner
