// Headers and body edits shared by the http and grpc step kinds.
#include "runner/steps/request_parts.hpp"

#include "runner/scope.hpp"

#include <algorithm>
#include <cctype>

namespace idconform::runner::steps {

namespace json = boost::json;


void put_header(std::vector<Header>& headers, std::string_view name, std::string value) {
    for (auto& e : headers)
        if (iequals(e.name, name)) {
            e.value = std::move(value);
            return;
        }
    headers.push_back({std::string(name), std::move(value)});
}

Result<bool> add_headers(Request& r, const Env& env, const HeaderSource& src, const Scope& scope, HeaderNames names) {
    using R = Result<bool>;
    auto add = [&r, names](const std::string& name, std::string value) {
        if (names == HeaderNames::as_written) return put_header(r.headers, name, std::move(value));
        std::string key;
        key.reserve(name.size());
        for (char c : name) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        put_header(r.headers, key, std::move(value));
    };
    for (const auto& [k, v] : env.target_headers) add(k, v);
    if (!src.principal.empty()) {
        static const std::map<std::string, suite::Principal> none;
        const auto& principals = env.principals ? *env.principals : none;
        const auto p = principals.find(src.principal);
        if (p == principals.end())
            return R(boost::system::in_place_error, src.pos.str() + ": unknown principal '" + src.principal + "'");
        for (const auto& [k, v] : p->second.headers) {
            auto hv = interpolate(v, scope);
            if (!hv) return R(boost::system::in_place_error, p->second.pos.str() + ": " + hv.error());
            add(k, std::move(*hv));
        }
    }
    for (const auto& [k, v] : src.own) {
        auto hv = interpolate(v, scope);
        if (!hv)
            return R(boost::system::in_place_error, src.pos.str() + ": " + std::string(src.own_label) + " " + k + ": " + hv.error());
        add(k, std::move(*hv));
    }
    return true;
}

Result<bool> apply_body_edits(json::value& body, const BodyEdits& e, const Scope& scope) {
    using R = Result<bool>;
    for (const auto& [ptr, val] : e.set) {
        auto p = interpolate(ptr, scope);
        auto v = interpolate_json(val, scope);
        if (!p || !v)
            return R(boost::system::in_place_error, e.pos.str() + ": set " + ptr + ": " + (p ? v.error() : p.error()));
        if (!set_at_pointer(body, *p, std::move(*v)))
            return R(boost::system::in_place_error,
                     e.pos.str() + ": set: cannot set " + *p + " in the " + std::string(e.what));
    }
    for (const auto& ptr : e.unset) {
        auto p = interpolate(ptr, scope);
        if (!p) return R(boost::system::in_place_error, e.pos.str() + ": unset: " + p.error());
        (void)erase_at_pointer(body, *p);  // absent already: nothing to remove
    }
    return true;
}

}  // namespace idconform::runner::steps
