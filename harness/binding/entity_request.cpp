// Requests about one entity, made again for another id (see entity_request.hpp).
#include "binding/entity_request.hpp"

#include "core/strings.hpp"
#include "suite/json_edit.hpp"

#include <boost/json/serialize.hpp>

namespace idconform::binding {

namespace json = boost::json;

bool put_id_in_body(EntityRequest& e, const std::string& id) {
    json::value b = e.body.is_null() ? json::value(json::object()) : e.body;
    if (!suite::set_at_pointer(b, e.body_id_at, json::value(id))) return false;
    e.request.body = json::serialize(b);
    bool typed = false;
    for (const auto& h : e.request.headers) typed = typed || iequals(h.name, "content-type");
    if (!typed && e.request.transport == "http") e.request.headers.push_back({"Content-Type", "application/json"});
    return true;
}

Request EntityRequest::for_id(const std::string& id) const {
    EntityRequest e = *this;
    if (!url_prefix.empty() || !url_suffix.empty()) e.request.url = url_prefix + idconform::percent_encode(id) + url_suffix;
    if (!body_id_at.empty()) (void)put_id_in_body(e, id);
    return std::move(e.request);
}

}  // namespace idconform::binding
