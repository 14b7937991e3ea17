// Expectation evaluation: status, headers, JSON pointer values, body
// substrings and identifier checks (which ask the identifier module).
#include "runner/checks.hpp"

#include "core/grpc_status.hpp"

#include "ids/ids.hpp"
#include "ids/kind.hpp"
#include "runner/echo.hpp"
#include "runner/scope.hpp"
#include "runner/sequence_checks.hpp"
#include "scan/rules.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <re2/re2.h>

#include <algorithm>
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

// The gRPC status code of an answer from the gRPC transport (its grpc-status header).
std::optional<int> grpc_code(const Response& r) {
    const std::string* h = r.header("grpc-status");
    if (!h || h->empty() || h->size() > 2 || h->find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return std::stoi(*h);
}

const std::vector<int>& refused_of(const CheckContext& ctx) {
    static const std::vector<int> fallback = suite::default_refused();
    return ctx.refused ? *ctx.refused : fallback;
}

bool status_matches(const Response& r, const suite::StatusExpect& s, const std::vector<int>& refused) {
    const int status = r.status;
    for (int e : s.exact) if (status == e) return true;
    if (s.refused)
        for (int e : refused) if (status == e) return true;
    for (int c : s.classes) if (status / 100 == c) return true;
    if (!s.grpc_codes.empty())
        if (auto g = grpc_code(r))
            for (int c : s.grpc_codes) if (*g == c) return true;
    return false;
}

// "404", or "NOT_FOUND (404)" for a gRPC answer.
std::string actual_status(const Response& r) {
    if (auto g = grpc_code(r)) return std::string(grpc_status::name(*g)) + " (" + std::to_string(r.status) + ")";
    return std::to_string(r.status);
}

std::string status_text(const suite::StatusExpect& s, const std::vector<int>& refused) {
    std::string t;
    for (int e : s.exact) t += (t.empty() ? "" : " or ") + std::to_string(e);
    if (s.refused)  // the suite's refusals, as if written out
        for (int e : refused)
            if (std::find(s.exact.begin(), s.exact.end(), e) == s.exact.end())
                t += (t.empty() ? "" : " or ") + std::to_string(e);
    for (int c : s.classes) t += (t.empty() ? "" : " or ") + std::to_string(c) + "xx";
    for (int c : s.grpc_codes) t += (t.empty() ? "" : " or ") + std::string(grpc_status::name(c));
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

// `body: {not_contains: [..]}`: the text must not occur in the answer, but
// where the step allows an echo of what it sent (`allow_echo`), an
// occurrence inside a quoted sent value is the server naming the input it
// refused, not the entity (echo.hpp); one outside it still fails.
CheckResult not_contains_check(const CheckContext& ctx, const suite::BodyExpect& b, const std::string& tmpl,
                               const std::string& body) {
    std::string err;
    const std::string want = interp_or(tmpl, ctx, err);
    std::vector<std::string> sent;
    for (const auto& t : b.allow_echo) {
        std::string echo_err;
        std::string v = interp_or(t, ctx, echo_err);
        if (!echo_err.empty() && err.empty()) err = std::move(echo_err);
        if (echo_err.empty() && !v.empty()) sent.push_back(std::move(v));
    }
    if (!err.empty()) return make(ctx, b, "body does not contain", err, "not found", false);
    const bool found = !want.empty() && body.find(want) != std::string::npos;
    if (!found) return make(ctx, b, "body does not contain", excerpt(want), "not found", true);
    if (sent.empty()) return make(ctx, b, "body does not contain", excerpt(want), "found in " + excerpt(body), false);

    const EchoSearch s = find_outside_echoes(body, want, sent);
    const std::string expected = excerpt(want) + " (outside a quoted sent value)";
    auto json_text = [](const std::string& v) { return excerpt(json::serialize(json::value(json::string_view(v)))); };
    auto times = [](std::size_t n) { return n == 1 ? std::string("once") : std::to_string(n) + " times"; };
    if (s.outside() == 0)
        return make(ctx, b, "body does not contain", expected,
                    "the answer quotes the sent value " + json_text(s.echoed) + " (" + times(s.inside_echo) +
                        "), and " + json_text(want) + " does not occur outside it: " + excerpt(body),
                    true);
    // Around the first occurrence outside: in a long answer it may lie past the excerpt's end.
    const std::size_t from = s.first_outside > 80 ? s.first_outside - 80 : 0;
    std::string around = (from > 0 ? "..." : "") + std::string(body.substr(from, 160 + want.size()));
    if (from + 160 + want.size() < body.size()) around += "...";
    std::string actual =
        "found outside any quoted sent value, at byte " + std::to_string(s.first_outside) + ": " + around;
    if (s.inside_echo > 0)
        actual += " (the answer also quotes the sent value " + json_text(s.echoed) + ", " + times(s.inside_echo) + ")";
    else if (s.sent_is_needle)
        actual += " (the sent value is this text itself: its echo cannot be told from the entity's)";
    return make(ctx, b, "body does not contain", expected, std::move(actual), false);
}

}  // namespace

std::string not_found_text(const suite::StatusExpect::NotFound& nf) {
    if (nf.empty) return std::to_string(nf.status) + " with no body";
    return std::to_string(nf.status) + " with " +
           (nf.at.empty() ? excerpt(json::serialize(nf.body)) : nf.at + " = " + excerpt(json::serialize(nf.equals)));
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

CheckResult check_id(const suite::IdExpect& e_in, const json::value* value_in, const Exchange& x, const CheckContext& ctx) {
    const std::string where =
        e_in.at ? resolve_pointer(*e_in.at, *ctx.scope) : "header " + resolve_pointer(e_in.header.value_or("?"), *ctx.scope);
    // A pack writes the kind the profile declared as a variable ("${res.id_kind}").
    const suite::IdExpect* ep = &e_in;
    suite::IdExpect resolved;
    if (e_in.kind.find("${") != std::string::npos) {
        resolved = e_in;
        std::string err;
        resolved.kind = interp_or(e_in.kind, ctx, err);
        if (!err.empty()) return make(ctx, e_in, "id " + where, e_in.kind, err, false);
        ep = &resolved;
    }
    const suite::IdExpect& e = *ep;
    // The loader admitted only kinds of ids/kind.hpp; a pack's variable may
    // still name something else.
    const std::optional<ids::IdKind> kind = ids::parse_kind(e.kind);
    if (!kind)
        return make(ctx, e, "id " + where, e.kind, "unknown id kind '" + e.kind + "' (kinds: " + ids::kind_list() + ")",
                    false);
    const bool formatless = !ids::has_format(*kind);
    // `any` and `existing` ids may be numbers (json-server's 1, 2, 3): judged as their text.
    std::optional<json::value> number_text;
    const json::value* value = value_in;
    if (formatless && value && (value->is_int64() || value->is_uint64())) {
        number_text = json::value(json::serialize(*value));
        value = &*number_text;
    }
    std::string what = "id " + where + " " + e.kind;
    std::string want = *kind == ids::IdKind::any        ? std::string("an id")
                       : *kind == ids::IdKind::existing ? std::string("an id in its existing format")
                                                        : e.kind;
    if (e.canonical && !formatless) want = "canonical " + want;
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
    if (e.collect.size() && ctx.collected) (*ctx.collected)[e.collect].push_back(text);
    bool ok = true;
    if (e.pattern) {
        // A configured form (a profile's viewable format) replaces the kind's built-in one.
        std::string err;
        const std::string pat = interp_or(*e.pattern, ctx, err);
        const RE2 re(pat, RE2::Quiet);
        want += " matching " + pat;
        if (!err.empty() || !re.ok()) return make(ctx, e, what, want, err.empty() ? "bad pattern: " + re.error() : err, false);
        ok = RE2::FullMatch(text, re);
        if (!ok && *kind == ids::IdKind::viewable)
            actual = "'" + excerpt(text) + "': " + std::string(ids::to_string(ids::check_viewable(text)));
    } else if (formatless) {
        // `any`: some text; `existing` (a field that kept its format from
        // before DATA-ID-001): any text but the dummies DATA-ID-007 names.
        const ids::Verdict v = ids::judge(text, *kind);
        ok = v.valid;
        if (ok || *kind == ids::IdKind::any) actual = "'" + excerpt(text) + "'";
    } else if (*kind == ids::IdKind::viewable) {
        const ids::ViewableError ve = ids::check_viewable(text);
        ok = ve == ids::ViewableError::none;
        if (!ok) actual = "'" + excerpt(text) + "': not a viewable id (" + std::string(ids::to_string(ve)) + ")";
    } else {
        // uuidv8-legacy: the flag is judged below, with the configured layout
        ok = ids::is_valid(text, *kind == ids::IdKind::uuidv8_legacy ? ids::IdKind::uuidv8 : *kind,
                           {.canonical = e.canonical});
    }
    if (ok && *kind == ids::IdKind::uuidv8_legacy && r.value) {
        // The flag, the decoded fields and the hash, per the configured layout.
        ids::LegacyLayout layout;
        std::string err;
        auto value_of = [&](const std::string& tmpl) { return tmpl.empty() ? std::string() : interp_or(tmpl, ctx, err); };
        const std::string spec = e.legacy ? value_of(e.legacy->layout) : std::string();
        if (!spec.empty()) {
            std::string why;
            if (auto l = ids::parse_layout(spec, &why)) layout = *l;
            else err = "bad layout '" + spec + "': " + why;
        }
        const ids::LegacyFields f = ids::decode_legacy(*r.value, layout);
        actual += "; flag " + std::to_string(f.legacy_flag) + ", legacy id " + std::to_string(f.legacy_id) +
                  ", entity type " + std::to_string(f.entity_type);
        ok = ids::is_valid(text, ids::IdKind::uuidv8_legacy, {.canonical = e.canonical, .legacy = layout});
        want += ", legacy flag set";
        if (e.legacy && err.empty()) {
            const std::string want_id = value_of(e.legacy->legacy_id), want_type = value_of(e.legacy->entity_type);
            const std::string salt = value_of(e.legacy->salt);
            if (!want_id.empty()) {
                want += ", legacy id " + want_id;
                ok = ok && std::to_string(f.legacy_id) == want_id;
            }
            if (!want_type.empty()) {
                want += ", entity type " + want_type;
                ok = ok && std::to_string(f.entity_type) == want_type;
            }
            if (!e.legacy->salt.empty() && err.empty()) {
                want += ", hash bits verifying with the salt";
                const bool hash_ok = !salt.empty() && ids::verify_legacy_hash(*r.value, salt, layout);
                if (!hash_ok) actual += salt.empty() ? "; the salt is empty" : "; the hash bits do not verify with the salt";
                ok = ok && hash_ok;
            }
        }
        if (!err.empty()) return make(ctx, e, what, want, err, false);
    }
    if (ok && e.minted && r.value) {
        std::int64_t ms = -1;
        if (*kind == ids::IdKind::ulid) ms = static_cast<std::int64_t>(ids::Ulid{r.value->bytes}.unix_ms());
        else if (r.version == 7) ms = static_cast<std::int64_t>(ids::decode_v7(*r.value).unix_ts_ms);
        using namespace std::chrono;
        const auto lo = duration_cast<milliseconds>(x.sent.time_since_epoch()) - ctx.clock_skew;
        const auto hi = duration_cast<milliseconds>(x.received.time_since_epoch()) + ctx.clock_skew;
        if (ms < 0) {
            ok = false;
            actual += "; this kind of id carries no creation time, so it cannot have been minted now";
        } else if (ms < lo.count() || ms > hi.count()) {
            ok = false;
            actual += "; its time " + ids::iso8601_ms(ms) + " lies outside the send/receive window " +
                      ids::iso8601_ms(lo.count()) + " .. " + ids::iso8601_ms(hi.count()) + " (skew " +
                      std::to_string(ctx.clock_skew.count()) + " ms)";
        }
    }
    if (ok && e.unique && ctx.seen_ids && (r.value || formatless)) {
        what += " unique";
        if (!ctx.seen_ids->insert(r.value ? ids::format(*r.value) : text).second) {
            ok = false;
            actual += "; the same id was already returned earlier in this run (ids must be distinct and never reused)";
        }
    }
    return make(ctx, e, what, want, actual, ok);
}



namespace {

// One `json:` expectation against the value at its pointer (nullptr: absent).
CheckResult json_check(const suite::JsonExpect& j, const std::string& what, const json::value* v,
                       const CheckContext& ctx) {
    switch (j.op) {
        case suite::JsonOp::absent: return make(ctx, j, what, "absent", quote(v), v == nullptr);
        case suite::JsonOp::present: return make(ctx, j, what, "present", quote(v), v != nullptr);
        case suite::JsonOp::null: return make(ctx, j, what, "null", quote(v), v && v->is_null());
        case suite::JsonOp::type: {
            const std::string type(j.operand.is_string() ? std::string_view(j.operand.as_string()) : "?");
            return make(ctx, j, what, "of type " + type, quote(v), v && json_has_type(*v, type));
        }
        case suite::JsonOp::regex: {
            const std::string pat(j.operand.is_string() ? std::string_view(j.operand.as_string()) : "");
            const RE2 re(pat);
            const bool ok = v && v->is_string() && re.ok() && RE2::FullMatch(std::string_view(v->as_string()), re);
            return make(ctx, j, what, "matches " + pat, quote(v), ok);
        }
        case suite::JsonOp::equals:
        case suite::JsonOp::one_of: {
            auto want = interpolate_json(j.operand, *ctx.scope);
            if (!want) return make(ctx, j, what, want.error(), quote(v), false);
            bool ok = false;
            if (j.op == suite::JsonOp::equals) {
                ok = v && json_equal(*v, *want);
            } else if (want->is_array()) {
                for (const auto& w : want->as_array()) ok = ok || (v && json_equal(*v, w));
            }
            return make(ctx, j, what, (j.op == suite::JsonOp::one_of ? "one of " : "") + json::serialize(*want),
                        quote(v), ok);
        }
    }
    return make(ctx, j, what, "a known json check", quote(v), false);  // not reached: every JsonOp is handled
}

// DATA-ID-005 (advisory): the entity's explicit time field, not a copy of
// the id's timestamp. `idv` is the id (a string), `tv` the time field.
CheckResult time_field_check(const suite::IdExpect& id, const json::value& idv, const json::value* tv,
                             const CheckContext& ctx) {
    CheckResult c = make(ctx, id, "time field " + resolve_pointer(id.time_field, *ctx.scope),
                         "an explicit time, not derived from the id", quote(tv), true);
    const auto u = ids::parse_canonical(idv.as_string());
    if (!tv) {
        c.ok = false;
        c.actual = "(absent): the entity has no explicit time field; ordering by id is not business time";
    } else if (u && ids::version(*u) == 7 && tv->is_string()) {
        bool exact = false;
        const auto ms = parse_iso8601_ms(tv->as_string(), &exact);
        if (ms && exact && *ms == static_cast<std::int64_t>(ids::decode_v7(*u).unix_ts_ms)) {
            c.ok = false;
            c.actual = quote(tv) + ": derived from the id (equals its unix_ts_ms to the millisecond)";
        }
    }
    c.warning = !c.ok;
    return c;
}

}  // namespace

std::vector<CheckResult> evaluate(const suite::Expect& e, const Exchange& x, const CheckContext& ctx) {
    if (!x.response) return {};
    BodyJson body(*x.response);
    return evaluate(e, x, ctx, body);
}

std::vector<CheckResult> evaluate(const suite::Expect& e, const Exchange& x, const CheckContext& base_ctx,
                                  BodyJson& body) {
    std::vector<CheckResult> out;
    if (!x.response) return out;
    CheckContext ctx = base_ctx;
    if (!e.rule.empty()) ctx.rule = e.rule;
    const Response& resp = *x.response;

    if (e.status) {
        bool m = status_matches(resp, *e.status, refused_of(ctx));
        std::string want = status_text(*e.status, refused_of(ctx)), got = actual_status(resp);
        if (const auto& nf = e.status->not_found; nf && !e.status->negate) {
            want += " or " + not_found_text(*nf) + " (the not_found: answer)";
            if (!m && resp.status == nf->status) {
                const json::value* b = nf->empty ? nullptr : body.get();
                m = says_not_found(*nf, resp.status, b, resp.body_bytes == 0);
                got += " with " + (resp.body_bytes == 0 ? std::string("no body")
                                   : b                                      ? excerpt(json::serialize(*b))
                                                                            : std::string("a body that is not JSON"));
            }
        }
        out.push_back(make(ctx, *e.status, "status", want, got, e.status->negate ? !m : m));
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

    auto parsed_body = [&]() -> const json::value* { return body.get(); };
    auto at_pointer = [&](const std::string& ptr) -> const json::value* {
        const json::value* root = parsed_body();
        if (!root) return nullptr;
        boost::system::error_code ec;
        return root->find_pointer(resolve_pointer(ptr, *ctx.scope), ec);
    };

    for (const auto& j : e.json) {
        const std::string jp = resolve_pointer(j.pointer, *ctx.scope);
        std::string what = "json " + (jp.empty() ? std::string("(root)") : jp);
        if (!parsed_body()) {
            out.push_back(make(ctx, j, what, "a JSON body", body.error(), false));
            continue;
        }
        out.push_back(json_check(j, what, at_pointer(j.pointer), ctx));
    }

    if (e.body) {
        for (const auto& c : e.body->contains) {
            std::string err;
            const std::string want = interp_or(c, ctx, err);
            out.push_back(make(ctx, *e.body, "body contains", err.empty() ? excerpt(want) : err, excerpt(resp.body),
                               err.empty() && resp.body.find(want) != std::string::npos));
        }
        for (const auto& c : e.body->not_contains) out.push_back(not_contains_check(ctx, *e.body, c, resp.body));
    }

    for (const auto& id : e.ids) {
        if (id.header) {
            const std::string* h = resp.header(resolve_pointer(*id.header, *ctx.scope));  // the name may be a variable
            std::optional<json::value> v;
            if (h) v = json::value(last_path_segment(*h));
            out.push_back(check_id(id, v ? &*v : nullptr, x, ctx));
        } else {
            // An answer with no body at all (204 No Content to an update) has no
            // id: absent, which allow_null accepts; a body that is not JSON still fails.
            if (!parsed_body() && id.allow_null && resp.body_bytes == 0) {
                out.push_back(check_id(id, nullptr, x, ctx));
                continue;
            }
            if (!parsed_body()) {
                std::string err;  // a pack's kind is "${res.id_kind}": say the kind it stands for
                const std::string kind = interp_or(id.kind, ctx, err);
                out.push_back(make(ctx, id, "id " + resolve_pointer(id.at.value_or(""), *ctx.scope),
                                   err.empty() ? kind : id.kind, body.error(), false));
                continue;
            }
            const json::value* idv = at_pointer(id.at.value_or(""));
            out.push_back(check_id(id, idv, x, ctx));
            if (!id.time_field.empty() && idv && idv->is_string() && !resolve_pointer(id.time_field, *ctx.scope).empty()) {
                out.push_back(time_field_check(id, *idv, at_pointer(id.time_field), ctx));
            }
        }
    }
    if (!e.id_members.empty()) {
        if (const json::value* root = parsed_body()) {
            std::vector<DeclaredMember> declared;
            for (const auto& [ptr, kind] : e.id_members_declared) declared.push_back({ptr, kind});
            for (auto& v : check_id_members(*root, e.id_members, declared))
                out.push_back(make(ctx, e, std::move(v.what), std::move(v.expected), std::move(v.actual), v.ok));
        } else {
            out.push_back(make(ctx, e, "id members", "a JSON body", body.error(), false));
        }
    }
    if (e.advisory)
        for (auto& c : out)
            if (!c.ok) c.warning = true;
    return out;
}

// The shape rules for one value live in scan/rules.hpp, shared with the
// file scan, so an id is judged the same in an answer and in an export.
using scan::id_named;

namespace {

// How sent_strings keeps a number leaf of a request: its JSON text behind a
// byte no string of a JSON text holds unescaped, so 0 and "0" stay apart.
std::string sent_number_key(const json::value& v) { return "\x01" + json::serialize(v); }

struct ScanSink {
    std::vector<CheckResult>& out;
    std::size_t max;
    std::vector<std::string>* fields;
    std::map<std::pair<std::string, std::string>, std::size_t>* unlisted_fields;
    std::size_t unlisted = 0;
};

void scan_value(const json::value& v, std::string& ptr, std::string& shape, std::string_view key,
                ScanSink& sink, std::map<std::string, std::set<int>>* versions,
                const std::set<std::string>* sent) {
    auto& out = sink.out;
    auto fail = [&](const char* rule, std::string expected, std::string actual) {
        if (out.size() >= sink.max) {
            ++sink.unlisted;
            if (sink.unlisted_fields) ++(*sink.unlisted_fields)[{rule, shape.empty() ? std::string("(root)") : shape}];
            return;
        }
        CheckResult c;
        c.rule = rule;
        c.what = "shape scan " + (ptr.empty() ? std::string("(root)") : ptr);
        c.expected = std::move(expected);
        c.actual = std::move(actual);
        out.push_back(std::move(c));
        if (sink.fields) sink.fields->push_back(shape.empty() ? std::string("(root)") : shape);
    };
    switch (v.kind()) {
        case json::kind::object:
            for (const auto& kv : v.as_object()) {
                const std::size_t a = ptr.size(), b = shape.size();
                std::string token;
                for (char ch : std::string_view(kv.key())) token += ch == '~' ? "~0" : ch == '/' ? "~1" : std::string(1, ch);
                ptr += "/" + token;
                shape += "/" + token;
                scan_value(kv.value(), ptr, shape, kv.key(), sink, versions, sent);
                ptr.resize(a);
                shape.resize(b);
            }
            return;
        case json::kind::array: {
            std::size_t i = 0;
            for (const auto& e : v.as_array()) {
                const std::size_t a = ptr.size(), b = shape.size();
                ptr += "/" + std::to_string(i++);
                shape += "/*";
                scan_value(e, ptr, shape, key, sink, versions, sent);
                ptr.resize(a);
                shape.resize(b);
            }
            return;
        }
        case json::kind::string: {
            // A value the harness itself sent and the target echoed back is
            // judged by the case that sent it (a create refusing a Nil
            // reference, DATA-ID-007), not again as a finding of the answer;
            // nor does it say anything about the versions the target mints.
            if (sent && sent->count(std::string(v.as_string()))) return;
            int version = -1;
            if (scan::Finding f = scan::shape_string(v.as_string(), id_named(key), &version)) {
                fail(f.rule.c_str(), std::move(f.expected), std::move(f.actual));
                return;
            }
            if (versions && version >= 0)
                (*versions)[shape].insert(version);
            return;
        }
        case json::kind::int64:
        case json::kind::uint64:
            if (sent && sent->count(sent_number_key(v))) return;  // an echo, as for strings
            if ((v.is_int64() && v.get_int64() == 0) || (v.is_uint64() && v.get_uint64() == 0))
                if (scan::Finding f = scan::shape_zero(id_named(key)))
                    fail(f.rule.c_str(), std::move(f.expected), std::move(f.actual));
            return;
        default: return;
    }
}
}  // namespace

std::vector<CheckResult> scan_ids(const json::value& body, std::map<std::string, std::set<int>>* versions,
                                  const std::set<std::string>* sent, std::size_t max_findings, std::size_t* unlisted,
                                  std::vector<std::string>* fields,
                                  std::map<std::pair<std::string, std::string>, std::size_t>* unlisted_fields) {
    std::vector<CheckResult> out;
    std::string ptr, shape;
    ScanSink sink{out, max_findings, fields, unlisted_fields};
    scan_value(body, ptr, shape, "", sink, versions, sent);
    if (unlisted) *unlisted = sink.unlisted;
    return out;
}

std::set<std::string> sent_strings(std::string_view request_body) {
    std::set<std::string> out;
    boost::system::error_code ec;
    const json::value v = json::parse(request_body, ec);
    if (ec) return out;
    std::vector<const json::value*> todo{&v};
    while (!todo.empty()) {
        const json::value* x = todo.back();
        todo.pop_back();
        if (x->is_string()) out.emplace(x->as_string());
        else if (x->is_number()) out.emplace(sent_number_key(*x));
        else if (x->is_array()) for (const auto& e : x->as_array()) todo.push_back(&e);
        else if (x->is_object()) for (const auto& kv : x->as_object()) todo.push_back(&kv.value());
    }
    return out;
}

std::optional<std::int64_t> parse_iso8601_ms(std::string_view t, bool* exact_ms) {
    // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)
    auto num = [&t](std::size_t at, std::size_t n, int& out) {
        if (at + n > t.size()) return false;
        out = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9') return false;
            out = out * 10 + (t[i] - '0');
        }
        return true;
    };
    int y, mo, d, h, mi, se;
    if (!num(0, 4, y) || t.size() < 19 || t[4] != '-' || !num(5, 2, mo) || t[7] != '-' || !num(8, 2, d) ||
        (t[10] != 'T' && t[10] != ' ') || !num(11, 2, h) || t[13] != ':' || !num(14, 2, mi) || t[16] != ':' ||
        !num(17, 2, se))
        return std::nullopt;
    // field ranges (second 60 is a leap second); day-of-month is not checked per month
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return std::nullopt;
    std::size_t i = 19;
    std::int64_t ms = 0;
    bool exact = true;
    if (i < t.size() && t[i] == '.') {
        ++i;
        int digits = 0;
        while (i < t.size() && t[i] >= '0' && t[i] <= '9') {
            if (digits < 3) ms = ms * 10 + (t[i] - '0');
            else if (t[i] != '0') exact = false;
            ++digits;
            ++i;
        }
        if (digits == 0) return std::nullopt;  // "22." is not a time
        for (int k = digits; k < 3; ++k) ms *= 10;
    }
    const std::string_view zone = t.substr(i);
    if (zone != "Z" && zone != "+00:00" && zone != "z") return std::nullopt;
    // days from civil (H. Hinnant)
    const int yy = y - (mo <= 2);
    const int era = (yy >= 0 ? yy : yy - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(yy - era * 400);
    const unsigned doy = static_cast<unsigned>((153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1);
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + static_cast<std::int64_t>(doe) - 719468;
    if (exact_ms) *exact_ms = exact;
    return ((days * 24 + h) * 60 + mi) * 60000LL + se * 1000LL + ms;
}

}  // namespace idconform::runner
