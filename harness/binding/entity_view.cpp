// The entity of an array answer (see entity_view.hpp).
#include "binding/entity_view.hpp"

#include "binding/body_json.hpp"

#include <boost/json/serialize.hpp>

namespace idconform::binding {

namespace json = boost::json;

EntityView entity_view(const suite::HttpRequest& h, const std::string& array, const suite::Expect& expect,
                       const Exchange& x, const std::string& rule) {
    EntityView out;
    if (!x.response || x.response->status / 100 != 2) return out;
    // A refusal is judged on the answer as it came: `[]` is the not-found
    // answer, anything else a 2xx the check reports as the server sent it.
    if (expect.status && suite::is_refusal(*expect.status)) return out;
    BodyJson body(*x.response);
    const json::value* root = body.view();
    if (!root) return out;  // not JSON: the checks that need the body say so themselves
    boost::system::error_code ec;
    const json::value* arr = root->find_pointer(array, ec);
    const std::string where = array.empty() ? std::string("the answer") : "the answer's " + array;
    if (!arr || !arr->is_array()) {
        out.error = "the read answered no array at '" + array + "' (" + h.pos.str() +
                    "): the profile's read says the entity comes in an array there (items:)";
        return out;
    }
    const json::array& a = arr->as_array();
    if (a.size() == 1) {
        out.view = x;
        out.view->response->body = json::serialize(a[0]);
        return out;
    }
    if (a.empty()) {
        CheckResult c;
        c.rule = expect.rule.empty() ? rule : expect.rule;
        c.what = "entity in " + where;
        c.expected = "one entity (an array of one element)";
        c.actual = "[] (not found)";
        c.pos = expect.pos;
        out.not_found = std::move(c);
        return out;
    }
    out.error = "the read answered " + std::to_string(a.size()) + " entities in " + where + " for one id (" +
                h.pos.str() + "): one element is the entity, [] is not found; more than one means the read's " +
                "query does not select by the id (check the profile's read path), or entities share the id";
    return out;
}

}  // namespace idconform::binding
