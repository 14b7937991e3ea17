// Helpers for the handler-level tests of the example products server: call
// ProductsService::handle like the network layer would and read the JSON.
#pragma once

#include "ids/ids.hpp"
#include "service.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace products_test {

namespace json = boost::json;
namespace ids = idconform::ids;

struct Reply {
    unsigned status = 0;
    std::string body;
    std::string location;
    std::string allow;
    std::string request_id;  // X-Request-Id (orders API)
    json::value json;  // null when the body is empty or not JSON

    [[nodiscard]] const json::object& obj() const {
        REQUIRE_MESSAGE(json.is_object(), "body is not a JSON object: " << body);
        return json.get_object();
    }
    [[nodiscard]] std::string str(std::string_view key) const {
        const json::value* v = obj().if_contains(key);
        REQUIRE_MESSAGE(v != nullptr, "no field " << key << " in " << body);
        REQUIRE_MESSAGE(v->is_string(), "field " << key << " is not a string in " << body);
        return std::string(v->get_string());
    }
    [[nodiscard]] std::string error() const { return str("error"); }
};

inline Reply call(products::ProductsService& svc, std::string_view method, std::string_view target,
                  std::string_view principal, std::string_view body = {}) {
    const std::string auth = principal.empty() ? std::string() : "Bearer " + std::string(principal);
    products::Request req;
    req.method = method;
    req.target = target;
    req.authorization = auth;
    req.body = body;
    products::Response res = svc.handle(req);
    Reply r;
    r.status = res.status;
    r.body = std::move(res.body);
    r.location = std::move(res.location);
    r.allow = std::string(res.allow);
    r.request_id = std::move(res.request_id);
    boost::system::error_code ec;
    if (!r.body.empty()) r.json = json::parse(r.body, ec);
    if (ec) r.json = nullptr;
    return r;
}

// Percent-encodes everything outside RFC 3986 unreserved characters, as an
// HTTP client does for a path segment.
inline std::string encode_segment(std::string_view s) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
            c == '_' || c == '~' || c == ':') {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 0xf];
        }
    }
    return out;
}

inline std::string product_path(std::string_view id) { return "/v1/products/" + encode_segment(id); }

inline std::string upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

inline std::string without_hyphens(std::string s) {
    std::erase(s, '-');
    return s;
}

inline std::string fresh_v7() {
    static ids::V7Generator gen;
    return ids::format(gen.next());
}

inline std::string make_category(products::ProductsService& svc, std::string_view owner) {
    const Reply r = call(svc, "POST", "/v1/categories", owner, R"({"name":"tools"})");
    REQUIRE_MESSAGE(r.status == 201, r.body);
    return r.str("id");
}

// Creates a product with `extra` JSON members appended (e.g. ,"price":3).
inline Reply make_product(products::ProductsService& svc, std::string_view owner, std::string_view category_id,
                          std::string_view extra = {}) {
    std::string body = R"({"name":"hammer","category_id":")" + std::string(category_id) + "\"";
    body += extra;
    body += '}';
    return call(svc, "POST", "/v1/products", owner, body);
}

inline std::string body_with_ref(std::string_view field, std::string_view json_value, std::string_view category_id) {
    std::string body = R"({"name":"hammer")";
    if (field != "category_id") body += R"(,"category_id":")" + std::string(category_id) + "\"";
    body += ",\"" + std::string(field) + "\":" + std::string(json_value) + "}";
    return body;
}

inline std::string quoted(std::string_view s) { return json::serialize(json::string(s)); }

}  // namespace products_test
