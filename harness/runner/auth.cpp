// A 401 is not a contract result (auth.hpp).
#include "runner/auth.hpp"
#include "runner/scope.hpp"

#include "core/grpc_status.hpp"
#include "core/redact.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string_view>
#include <vector>

namespace idconform::runner {

namespace {

constexpr int unauthorized = 401;

const suite::Principal* find(const suite::Suite& s, const std::string& key) {
    const auto it = s.principals.find(key);
    return it == s.principals.end() ? nullptr : &it->second;
}

}  // namespace

bool answered_unauthenticated(const Response& resp) {
    if (resp.status == unauthorized) return true;
    const std::string* g = resp.header("grpc-status");
    return g && *g == std::to_string(grpc_status::unauthenticated);
}

const std::string& step_principal(const suite::Step& st) { return suite::principal_of(st.request); }

bool expects_unauthenticated(const suite::Suite& s, const suite::Step& st) {
    const auto& status = st.expect.status;
    if (!status || status->negate) return false;
    const auto has = [](const std::vector<int>& v, int c) { return std::find(v.begin(), v.end(), c) != v.end(); };
    return has(status->exact, unauthorized) || (status->refused && has(s.refused, unauthorized)) ||
           has(status->grpc_codes, grpc_status::unauthenticated);
}

std::string principal_label(const suite::Suite& s, const std::string& key) {
    const auto* p = find(s, key);
    const std::string& name = p && !p->name.empty() ? p->name : key;
    std::string out = "principal '" + name + "'";
    if (name != key) out += key == "owner" ? " (the owner)" : key == "other" ? " (the other principal)" : " (" + key + ")";
    return out;
}

namespace {

// The hint of credential_hint over one list of header templates.
std::string hint_of(const suite::Suite& s, const std::vector<std::pair<std::string, std::string>>& headers) {
    TemplateRefs refs;
    for (const auto& [name, value] : headers) template_refs(value, refs);
    // One level of suite variables (`Bearer ${token_a}`).
    for (const auto& var : refs.vars)
        for (const auto& v : s.vars)
            if (v.name == var && v.value.is_string()) template_refs(v.value.get_string(), refs);
    std::set<std::string> said;
    std::string out;
    for (const auto& [name, has_default] : refs.env) {
        if (name.empty() || !said.insert(name).second) continue;
        const char* value = std::getenv(name.c_str());
        std::string state = !value            ? (has_default ? "is not set (its default was sent)" : "is not set")
                            : *value == '\0' ? "is empty"
                                             : "is set";
        out += (out.empty() ? "" : ", ") + name + " " + state;
    }
    return out;
}

// The credential headers among the target's (sent with every request).
std::vector<std::pair<std::string, std::string>> target_credentials(const suite::Suite& s) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& h : s.target.headers)
        if (redact::is_sensitive_header(h.first)) out.push_back(h);
    return out;
}

}  // namespace

std::string credential_hint(const suite::Suite& s, const std::string& key) {
    const auto* p = find(s, key);
    return p ? hint_of(s, p->headers) : std::string();
}

std::optional<std::string> unauthenticated(const suite::Suite& s, const suite::Step& st, const Request& req,
                                           const Response& resp, const Confirmed& confirmed) {
    if (!answered_unauthenticated(resp)) return std::nullopt;
    if (expects_unauthenticated(s, st)) return std::nullopt;
    const std::string& key = step_principal(st);
    const std::string where = req.method + " " + redact::redact_url(req.url);
    const std::string code = resp.status == unauthorized ? "401" : "UNAUTHENTICATED";
    if (key.empty()) {
        // No principal: the target's credential headers, if it sends any,
        // are the caller's (a suite with `Authorization` under target.headers).
        const auto creds = target_credentials(s);
        if (creds.empty()) return std::nullopt;
        std::string out = "the target's credential (" + creds.front().first + " under target.headers) was not "
                          "accepted: " + code + " on " + where;
        const std::string hint = hint_of(s, creds);
        out += hint.empty() ? "; check the credential it sends" : "; check it: " + hint;
        return out + "; a step that must be refused 401 says so (status: 401)";
    }
    const auto* p = find(s, key);
    if (!p || !p->authenticated) return std::nullopt;
    const std::string who = principal_label(s, key);
    if (const auto it = confirmed.find(key); it != confirmed.end())
        return code + " to " + who + ", whom the API let in before (" + it->second + "), on " + where +
               ": " + code + " is not an answer this check judges. If the API refuses another principal's access "
               "with it, add 401 to the profile's `refused:` (or the suite's); otherwise the credential stopped "
               "working (an expired token?)";
    std::string out = who + " is not authenticated: " + code + " on " + where;
    const std::string hint = credential_hint(s, key);
    if (!hint.empty())
        out += "; check its credential: " + hint;
    else if (p->headers.empty())
        out += "; it sends no credential: give it headers, or declare it `authenticated: false` if the API must "
               "not know it";
    else
        out += "; check the credential its headers send";
    return out;
}

}  // namespace idconform::runner
