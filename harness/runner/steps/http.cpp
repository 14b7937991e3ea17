// The http step kind: request building, description, curl reproduction.
#include "runner/steps/http.hpp"

#include "binding/locations.hpp"
#include "runner/steps/request_parts.hpp"

#include <boost/json/serialize.hpp>

namespace idconform::runner::steps {

namespace json = boost::json;

namespace {

// The Location URL of the entity path_params names (a profile's
// `path: "{location}"`): what its create answered, or that URL around
// another id (locations.hpp).
Result<std::string> location_path(const suite::HttpRequest& h, const std::string& resource, const Env& env,
                                  const Scope& scope) {
    using R = Result<std::string>;
    std::string id;
    for (const auto& [k, v] : h.path_params)
        if (k == "id") {
            auto pv = interpolate(v, scope);
            if (!pv) return pv;
            id = *pv;
        }
    if (!env.locations) return R(boost::system::in_place_error, "no Location book in this run");
    return env.locations->url_for(resource, id);
}

}  // namespace

Result<Request> build(const suite::HttpRequest& h, const Env& env, const Scope& scope, const binding::Access* access) {
    using R = Result<Request>;
    Request r;
    r.transport = "http";
    auto method = interpolate(h.method, scope);
    if (!method) return R(boost::system::in_place_error, h.pos.str() + ": method: " + method.error());
    r.method = *method;
    const bool at_location = access && !access->location_of.empty();
    auto path = at_location ? location_path(h, access->location_of, env, scope) : build_path(h.path, h.path_params, scope);
    if (!path) return R(boost::system::in_place_error, h.pos.str() + ": path: " + path.error());
    const bool absolute = path->rfind("http://", 0) == 0 || path->rfind("https://", 0) == 0;
    r.url = absolute ? *path : env.base_url + (path->empty() || path->front() == '/' ? "" : "/") + *path;
    char sep = r.url.find('?') == std::string::npos ? '?' : '&';
    for (const auto& [k, v] : h.query) {
        auto qv = interpolate(v, scope, Encoding::query);
        if (!qv) return R(boost::system::in_place_error, h.pos.str() + ": query " + k + ": " + qv.error());
        auto qk = interpolate(k, scope);
        if (!qk) return R(boost::system::in_place_error, h.pos.str() + ": query key " + k + ": " + qk.error());
        r.url += sep + percent_encode(*qk, false) + "=" + *qv;
        sep = '&';
    }
    if (auto ok = add_headers(r, env, {h.principal, h.headers, "header", h.pos}, scope, HeaderNames::as_written); !ok)
        return R(boost::system::in_place_error, ok.error());
    if (h.json) {
        auto body = interpolate_json(*h.json, scope);
        if (!body) return R(boost::system::in_place_error, h.pos.str() + ": json: " + body.error());
        if (auto ok = apply_body_edits(*body, {h.set, h.unset, "body", h.pos}, scope); !ok)
            return R(boost::system::in_place_error, ok.error());
        r.body = json::serialize(*body);
        bool has_ct = false;
        for (const auto& e : r.headers) has_ct = has_ct || iequals(e.name, "content-type");
        if (!has_ct) r.headers.push_back({"Content-Type", "application/json"});
    } else if (h.raw) {
        auto body = interpolate(*h.raw, scope);
        if (!body) return R(boost::system::in_place_error, h.pos.str() + ": raw: " + body.error());
        r.body = *body;
    }
    return r;
}

std::string describe(const suite::HttpRequest& h) {
    std::string s = h.method + " " + h.path;
    for (const auto& [k, v] : h.path_params) s += " {" + k + "}=" + v;
    for (const auto& [k, v] : h.query) s += " ?" + k + "=" + v;
    for (const auto& [p, v] : h.set) s += " body" + p + "=" + json::serialize(v);
    for (const auto& p : h.unset) s += " without body" + p;
    if (!h.principal.empty()) s += " as " + h.principal;
    return s;
}

void add_properties(const suite::HttpRequest& h, std::vector<Property>& out) {
    out.push_back({"transport", "http"});
    out.push_back({"endpoint", h.method + " " + h.path});
}

std::string curl_command(const Request& r, std::optional<int> max_redirects) {
    std::string c = "curl -sS -i";
    if (max_redirects) c += " -L --max-redirs " + std::to_string(*max_redirects);
    if (r.method != "GET") c += " -X " + r.method;
    c += " " + shell_quote(r.url);
    for (const auto& h : r.headers) c += " -H " + shell_quote(h.name + ": " + h.value);
    if (!r.body.empty()) c += " --data-raw " + shell_quote(r.body);
    return c;
}

}  // namespace idconform::runner::steps
