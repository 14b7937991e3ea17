// Expectation evaluation: status, headers, JSON pointer values, body
// substrings and identifier checks (which ask the identifier module).
#include "runner/checks.hpp"

#include "ids/ids.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <re2/re2.h>

#include <cmath>

namespace idconform::runner {

namespace json = boost::json;

namespace {

std::string excerpt(std::string_view s, std::size_t max = 200) {
    if (s.size() <= max) return std::string(s);
    return std::string(s.substr(0, max)) + "...";
}

std::string quote(const json::value* v) { return v ? excerpt(json::serialize(*v)) : "(absent)"; }

CheckResult make(const CheckContext& ctx, const suite::Positioned& p, std::string what, std::string expected,
                 std::string actual, bool ok) {
    CheckResult c;
    c.rule = ctx.rule;
    c.what = std::move(what);
    c.expected = std::move(expected);
    c.actual = std::move(actual);
    c.ok = ok;
    c.pos = p.pos;
    return c;
}

bool status_matches(int status, const suite::StatusExpect& s) {
    for (int e : s.exact) if (status == e) return true;
    for (int c : s.classes) if (status / 100 == c) return true;
    return false;
}

std::string status_text(const suite::StatusExpect& s) {
    std::string t;
    for (int e : s.exact) t += (t.empty() ? "" : " or ") + std::to_string(e);
    for (int c : s.classes) t += (t.empty() ? "" : " or ") + std::to_string(c) + "xx";
    return (s.negate ? "not " : "") + t;
}

std::string interp_or(const std::string& tmpl, const CheckContext& ctx, std::string& err) {
    auto r = interpolate(tmpl, *ctx.scope);
    if (!r) {
        err = r.error();
        return {};
    }
    return *r;
}

}  // namespace

bool json_equal(const json::value& a, const json::value& b) {
    if (a.is_number() && b.is_number()) {
        if (a.is_double() || b.is_double()) return a.to_number<double>() == b.to_number<double>();
        if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
        if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
        const auto& i = a.is_int64() ? a : b;
        const auto& u = a.is_int64() ? b : a;
        return i.get_int64() >= 0 && static_cast<std::uint64_t>(i.get_int64()) == u.get_uint64();
    }
    if (a.kind() != b.kind()) return false;
    if (a.is_array()) {
        const auto &x = a.as_array(), &y = b.as_array();
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (!json_equal(x[i], y[i])) return false;
        return true;
    }
    if (a.is_object()) {
        const auto &x = a.as_object(), &y = b.as_object();
        if (x.size() != y.size()) return false;
        for (const auto& kv : x) {
            const auto* o = y.if_contains(kv.key());
            if (!o || !json_equal(kv.value(), *o)) return false;
        }
        return true;
    }
    return a == b;
}

bool json_has_type(const json::value& v, std::string_view type) {
    if (type == "string") return v.is_string();
    if (type == "integer") return v.is_int64() || v.is_uint64() || (v.is_double() && std::floor(v.get_double()) == v.get_double());
    if (type == "number") return v.is_number();
    if (type == "boolean") return v.is_bool();
    if (type == "object") return v.is_object();
    if (type == "array") return v.is_array();
    if (type == "null") return v.is_null();
    return false;
}

std::string last_path_segment(std::string_view url) {
    if (auto q = url.find_first_of("?#"); q != std::string_view::npos) url = url.substr(0, q);
    while (!url.empty() && url.back() == '/') url.remove_suffix(1);
    const auto slash = url.rfind('/');
    return std::string(slash == std::string_view::npos ? url : url.substr(slash + 1));
}

CheckResult check_id(const suite::IdExpect& e, const json::value* value, const Exchange& x, const CheckContext& ctx) {
    const std::string where = e.at ? *e.at : "header " + e.header.value_or("?");
    std::string what = "id " + where + " " + e.kind;
    std::string want = e.kind;
    if (e.canonical) want = "canonical " + want;
    if (e.minted) want += ", minted during this step";
    if (e.allow_null) want += " (or null/absent)";
    if (!value || value->is_null()) {
        const bool ok = e.allow_null;
        return make(ctx, e, what, want, value ? "null" : "(absent)", ok);
    }
    if (!value->is_string()) return make(ctx, e, what, want, json::serialize(*value) + " (not a string)", false);
    const std::string text(value->as_string());

    if (e.equals) {
        std::string err;
        const std::string other = interp_or(*e.equals, ctx, err);
        if (!err.empty()) return make(ctx, e, what, "equal to " + *e.equals, err, false);
        what = "id " + where + " equals";
        return make(ctx, e, what, other, text, text == other);
    }

    const ids::Recognition r = ids::recognize(text);
    std::string actual = "'" + excerpt(text) + "': " + r.describe();
    bool ok = true;
    if (e.kind == "ulid") {
        ok = r.kind == ids::Kind::ulid && (!e.canonical || r.canonical);
    } else if (e.kind == "viewable") {
        ok = ids::check_viewable(text) == ids::ViewableError::none;
    } else if (e.kind == "uuidv8-legacy") {
        ok = r.kind == ids::Kind::uuid && r.value && r.version == 8 && r.variant == ids::Variant::rfc9562 &&
             (!e.canonical || r.canonical) && ids::decode_legacy(*r.value).legacy_flag;
    } else {  // uuid, uuidv1..uuidv8
        const int want_version = e.kind.size() == 6 ? e.kind[5] - '0' : -1;
        ok = r.kind == ids::Kind::uuid && r.value.has_value() && (!e.canonical || r.canonical) &&
             r.special == ids::Special::none;
        if (want_version > 0) ok = ok && r.version == want_version && r.variant == ids::Variant::rfc9562;
    }
    if (ok && e.minted && r.value) {
        std::int64_t ms = -1;
        if (e.kind == "ulid") ms = static_cast<std::int64_t>(ids::Ulid{r.value->bytes}.unix_ms());
        else if (r.version == 7) ms = static_cast<std::int64_t>(ids::decode_v7(*r.value).unix_ts_ms);
        using namespace std::chrono;
        const auto lo = duration_cast<milliseconds>(x.sent.time_since_epoch()) - ctx.clock_skew;
        const auto hi = duration_cast<milliseconds>(x.received.time_since_epoch()) + ctx.clock_skew;
        if (ms < lo.count() || ms > hi.count()) {
            ok = false;
            actual += "; its time " + ids::iso8601_ms(ms) + " lies outside the send/receive window " +
                      ids::iso8601_ms(lo.count()) + " .. " + ids::iso8601_ms(hi.count()) + " (skew " +
                      std::to_string(ctx.clock_skew.count()) + " ms)";
        }
    }
    return make(ctx, e, what, want, actual, ok);
}

std::vector<CheckResult> evaluate(const suite::Expect& e, const Exchange& x, const CheckContext& base_ctx) {
    std::vector<CheckResult> out;
    if (!x.response) return out;
    CheckContext ctx = base_ctx;
    if (!e.rule.empty()) ctx.rule = e.rule;
    const Response& resp = *x.response;

    if (e.status) {
        const bool m = status_matches(resp.status, *e.status);
        out.push_back(make(ctx, *e.status, "status", status_text(*e.status), std::to_string(resp.status),
                           e.status->negate ? !m : m));
    }
    for (const auto& h : e.headers) {
        const std::string* v = resp.header(h.name);
        const std::string what = "header " + h.name;
        if (h.absent) {
            out.push_back(make(ctx, h, what, "absent", v ? excerpt(*v) : "(absent)", v == nullptr));
            continue;
        }
        if (h.present) out.push_back(make(ctx, h, what, "present", v ? excerpt(*v) : "(absent)", v != nullptr));
        if (h.equals) {
            std::string err;
            const std::string want = interp_or(*h.equals, ctx, err);
            out.push_back(make(ctx, h, what, err.empty() ? want : err, v ? excerpt(*v) : "(absent)",
                               err.empty() && v && *v == want));
        }
        if (h.regex) {
            const RE2 re(*h.regex);
            out.push_back(make(ctx, h, what, "matches " + *h.regex, v ? excerpt(*v) : "(absent)",
                               v && re.ok() && RE2::FullMatch(*v, re)));
        }
    }

    std::optional<json::value> body;
    std::string body_error;
    auto parsed_body = [&]() -> const json::value* {
        if (!body && body_error.empty()) {
            boost::system::error_code ec;
            body = json::parse(resp.body, ec);
            if (ec) {
                body.reset();
                body_error = resp.body_truncated ? "body truncated at the cap, not parseable" : "body is not JSON (" + ec.message() + ")";
            }
        }
        return body ? &*body : nullptr;
    };
    auto at_pointer = [&](const std::string& ptr) -> const json::value* {
        const json::value* root = parsed_body();
        if (!root) return nullptr;
        boost::system::error_code ec;
        return root->find_pointer(ptr, ec);
    };

    for (const auto& j : e.json) {
        std::string what = "json " + (j.pointer.empty() ? std::string("(root)") : j.pointer);
        if (!parsed_body()) {
            out.push_back(make(ctx, j, what, "a JSON body", body_error, false));
            continue;
        }
        const json::value* v = at_pointer(j.pointer);
        switch (j.op) {
            case suite::JsonOp::absent: out.push_back(make(ctx, j, what, "absent", quote(v), v == nullptr)); break;
            case suite::JsonOp::present: out.push_back(make(ctx, j, what, "present", quote(v), v != nullptr)); break;
            case suite::JsonOp::null: out.push_back(make(ctx, j, what, "null", quote(v), v && v->is_null())); break;
            case suite::JsonOp::type: {
                const std::string type(j.operand.is_string() ? std::string_view(j.operand.as_string()) : "?");
                out.push_back(make(ctx, j, what, "of type " + type, quote(v), v && json_has_type(*v, type)));
                break;
            }
            case suite::JsonOp::regex: {
                const std::string pat(j.operand.is_string() ? std::string_view(j.operand.as_string()) : "");
                const RE2 re(pat);
                const bool ok = v && v->is_string() && re.ok() && RE2::FullMatch(std::string_view(v->as_string()), re);
                out.push_back(make(ctx, j, what, "matches " + pat, quote(v), ok));
                break;
            }
            case suite::JsonOp::equals:
            case suite::JsonOp::one_of: {
                auto want = interpolate_json(j.operand, *ctx.scope);
                if (!want) {
                    out.push_back(make(ctx, j, what, want.error(), quote(v), false));
                    break;
                }
                bool ok = false;
                if (j.op == suite::JsonOp::equals) {
                    ok = v && json_equal(*v, *want);
                } else if (want->is_array()) {
                    for (const auto& w : want->as_array()) ok = ok || (v && json_equal(*v, w));
                }
                out.push_back(make(ctx, j, what, (j.op == suite::JsonOp::one_of ? "one of " : "") + json::serialize(*want),
                                   quote(v), ok));
                break;
            }
        }
    }

    if (e.body) {
        for (const auto& c : e.body->contains) {
            std::string err;
            const std::string want = interp_or(c, ctx, err);
            out.push_back(make(ctx, *e.body, "body contains", err.empty() ? excerpt(want) : err, excerpt(resp.body),
                               err.empty() && resp.body.find(want) != std::string::npos));
        }
        for (const auto& c : e.body->not_contains) {
            std::string err;
            const std::string want = interp_or(c, ctx, err);
            const bool found = !want.empty() && resp.body.find(want) != std::string::npos;
            out.push_back(make(ctx, *e.body, "body does not contain", err.empty() ? excerpt(want) : err,
                               found ? "found in " + excerpt(resp.body) : "not found", err.empty() && !found));
        }
    }

    for (const auto& id : e.ids) {
        if (id.header) {
            const std::string* h = resp.header(*id.header);
            std::optional<json::value> v;
            if (h) v = json::value(last_path_segment(*h));
            out.push_back(check_id(id, v ? &*v : nullptr, x, ctx));
        } else {
            if (!parsed_body()) {
                out.push_back(make(ctx, id, "id " + id.at.value_or(""), id.kind, body_error, false));
                continue;
            }
            out.push_back(check_id(id, at_pointer(id.at.value_or("")), x, ctx));
        }
    }
    return out;
}

Result<bool> apply_captures(const std::vector<suite::Capture>& caps, const Exchange& x, Scope& scope) {
    if (!x.response) return Result<bool>(boost::system::in_place_error, "no response to capture from");
    const Response& resp = *x.response;
    std::optional<json::value> body;
    for (const auto& c : caps) {
        switch (c.from) {
            case suite::Capture::From::status: scope.set(c.var, resp.status); break;
            case suite::Capture::From::header: {
                const std::string* h = resp.header(c.path);
                if (!h)
                    return Result<bool>(boost::system::in_place_error,
                                        "capture '" + c.var + "': header " + c.path + " is absent (" + c.pos.str() + ")");
                scope.set(c.var, json::value(*h));
                break;
            }
            case suite::Capture::From::json: {
                if (!body) {
                    boost::system::error_code ec;
                    body = json::parse(resp.body, ec);
                    if (ec)
                        return Result<bool>(boost::system::in_place_error,
                                            "capture '" + c.var + "': body is not JSON (" + c.pos.str() + ")");
                }
                boost::system::error_code ec;
                const json::value* v = body->find_pointer(c.path, ec);
                if (!v)
                    return Result<bool>(boost::system::in_place_error,
                                        "capture '" + c.var + "': nothing at " + c.path + " (" + c.pos.str() + ")");
                scope.set(c.var, *v);
                break;
            }
        }
    }
    return true;
}

}  // namespace idconform::runner
