// Variable lookup and template interpolation.
#include "suite/scope.hpp"
#include "core/strings.hpp"

#include "ids/of_kind.hpp"

#include <re2/re2.h>

#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <optional>

namespace idconform::suite {

namespace json = boost::json;

void Scope::set(const std::string& name, json::value v, bool secret) {
    deferred_.erase(name);
    if (secret && v.is_string() && !v.as_string().empty()) secrets_.insert(std::string(v.as_string()));
    vars_[name] = std::move(v);
}

void Scope::set_deferred(const std::string& name, json::value tmpl) {
    vars_[name] = std::move(tmpl);
    deferred_.insert(name);
}

void Scope::add_secret(std::string value) {
    if (!value.empty()) secrets_.insert(std::move(value));
}

const json::value* Scope::find(std::string_view name) const {
    auto it = vars_.find(name);
    return it == vars_.end() ? nullptr : &it->second;
}

Result<json::value> Scope::resolve(std::string_view expr) const {
    if (expr.substr(0, 4) == "env:") {
        std::string_view rest = expr.substr(4);
        std::optional<std::string_view> fallback;
        if (auto p = rest.find(":-"); p != std::string_view::npos) {
            fallback = rest.substr(p + 2);
            rest = rest.substr(0, p);
        }
        const char* v = std::getenv(std::string(rest).c_str());
        if (v && (*v || !fallback)) return json::value(v);
        if (fallback) return json::value(std::string(*fallback));
        return Result<json::value>(boost::system::in_place_error,
                                   "environment variable " + std::string(rest) + " is not set (use ${env:" +
                                       std::string(rest) + ":-default} for a default)");
    }
    if (expr.substr(0, 4) == "gen:") return generate(expr.substr(4));
    if (const auto* v = find(expr)) {
        if (!deferred_.count(expr)) return *v;
        if (depth_ > 8)
            return Result<json::value>(boost::system::in_place_error, "template variable ${" + std::string(expr) + "} refers to itself");
        ++depth_;
        auto r = interpolate_json(*v, *this);
        --depth_;
        return r;
    }
    // name.field on an object variable
    if (auto dot = expr.find('.'); dot != std::string_view::npos) {
        if (const auto* base = find(expr.substr(0, dot)); base && base->is_object()) {
            if (const auto* f = base->as_object().if_contains(expr.substr(dot + 1))) {
                if (!deferred_.count(expr.substr(0, dot))) return *f;
                // a field of a template variable is filled at use, like the whole
                if (depth_ > 8)
                    return Result<json::value>(boost::system::in_place_error, "template variable ${" + std::string(expr) + "} refers to itself");
                ++depth_;
                auto r = interpolate_json(*f, *this);
                --depth_;
                return r;
            }
        }
    }
    ++misses_;
    return Result<json::value>(boost::system::in_place_error, "undefined variable ${" + std::string(expr) + "}");
}

// ${gen:KIND}: a fresh id of an id kind that has a generator (ids/of_kind.hpp);
// ${gen:match:VAR}: a fresh text the RE2 pattern held by VAR matches in full
// (a profile's `pattern` of an `existing` id). A fresh value on every use.
Result<json::value> Scope::generate(std::string_view what) const {
    auto error = [&](std::string text) { return Result<json::value>(boost::system::in_place_error, std::move(text)); };
    if (what.substr(0, 6) == "match:") {
        const std::string_view var = what.substr(6);
        auto p = resolve(var);
        if (!p) return error("${gen:" + std::string(what) + "}: " + p.error());
        if (!p->is_string())
            return error("${gen:" + std::string(what) + "}: " + std::string(var) + " holds no pattern");
        const std::string pattern(p->as_string());
        const RE2 re(pattern, RE2::Quiet);
        if (!re.ok()) return error("${gen:" + std::string(what) + "}: bad pattern '" + pattern + "': " + re.error());
        std::string why;
        if (!ids::text_matching(pattern, &why))
            return error("${gen:" + std::string(what) + "}: idconform cannot make a text matching '" + pattern +
                         "': " + why);
        // The generator reads a part of RE2's syntax: RE2 has the last word.
        for (int attempt = 0; attempt < 32; ++attempt)
            if (auto t = ids::text_matching(pattern);
                t && RE2::FullMatch(*t, re) && ids::is_valid(*t, ids::IdKind::existing))
                return json::value(*t);
        return error("${gen:" + std::string(what) + "}: no text idconform made matches '" + pattern + "'");
    }
    const auto kind = ids::parse_kind(what);
    if (kind && ids::no_fresh_id(*kind).empty())
        if (auto t = ids::fresh_id(*kind)) return json::value(*t);
    return error("unknown generator ${gen:" + std::string(what) + "} (" + std::string(generator_forms) + ")");
}

std::string to_text(const json::value& v) {
    if (v.is_string()) return std::string(v.as_string());
    return json::serialize(v);
}

std::string percent_encode(std::string_view s, bool keep_slash) {
    return idconform::percent_encode(s, keep_slash ? "/" : "");  // core/strings.hpp, shared with the redaction
}

Result<std::string> interpolate(std::string_view t, const Scope& scope, Encoding enc) {
    std::string out;
    out.reserve(t.size() + 32);
    for (std::size_t i = 0; i < t.size();) {
        const bool dollar = t[i] == '$' && i + 1 < t.size() && t[i + 1] == '{';
        const bool brace = enc == Encoding::path_segment && t[i] == '{';
        if (!dollar && !brace) {
            out += t[i++];
            continue;
        }
        const std::size_t open = i + (dollar ? 2 : 1);
        const std::size_t close = t.find('}', open);
        if (close == std::string_view::npos)
            return Result<std::string>(boost::system::in_place_error, "unclosed placeholder in '" + std::string(t) + "'");
        auto v = scope.resolve(t.substr(open, close - open));
        if (!v) return Result<std::string>(boost::system::in_place_error, v.error());
        const std::string text = to_text(*v);
        if (brace)
            out += percent_encode(text, false);
        else if (enc == Encoding::query)
            out += percent_encode(text, false);
        else
            out += text;
        i = close + 1;
    }
    return Result<std::string>(boost::system::in_place_value, std::move(out));
}

Result<json::value> interpolate_json(const json::value& t, const Scope& scope) {
    switch (t.kind()) {
        case json::kind::string: {
            const std::string_view s = t.as_string();
            if (s.size() > 3 && s.substr(0, 2) == "${" && s.back() == '}' && s.find('}') == s.size() - 1)
                return scope.resolve(s.substr(2, s.size() - 3));
            auto r = interpolate(s, scope);
            if (!r) return Result<json::value>(boost::system::in_place_error, r.error());
            return json::value(*r);
        }
        case json::kind::array: {
            json::array a;
            for (const auto& e : t.as_array()) {
                auto r = interpolate_json(e, scope);
                if (!r) return r;
                a.push_back(std::move(*r));
            }
            return json::value(std::move(a));
        }
        case json::kind::object: {
            json::object o;
            for (const auto& kv : t.as_object()) {
                auto r = interpolate_json(kv.value(), scope);
                if (!r) return r;
                o[kv.key()] = std::move(*r);
            }
            return json::value(std::move(o));
        }
        default: return t;
    }
}

void template_refs(std::string_view t, TemplateRefs& out) {
    for (std::size_t at = t.find("${"); at != std::string_view::npos; at = t.find("${", at + 2)) {
        const auto end = t.find('}', at);
        if (end == std::string_view::npos) return;
        std::string_view body = t.substr(at + 2, end - at - 2);
        if (body.substr(0, 4) == "env:") {
            body.remove_prefix(4);
            const auto dflt = body.find(":-");
            out.env.emplace_back(std::string(body.substr(0, dflt)), dflt != std::string_view::npos);
        } else if (body.find(':') == std::string_view::npos) {
            out.vars.emplace_back(body);
        }
    }
}

Result<std::string> build_path(const std::string& tmpl, const std::vector<std::pair<std::string, std::string>>& params,
                               const Scope& scope) {
    if (params.empty()) return interpolate(tmpl, scope, Encoding::path_segment);
    auto raw = interpolate(tmpl, scope, Encoding::raw);
    if (!raw) return raw;
    Scope inner = scope;
    for (const auto& [k, v] : params) {
        auto pv = interpolate(v, scope);
        if (!pv) return pv;
        inner.set(k, boost::json::value(*pv));
    }
    return interpolate(*raw, inner, Encoding::path_segment);
}

}  // namespace idconform::suite
