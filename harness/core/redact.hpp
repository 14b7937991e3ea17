// The one redaction module: what counts as a secret (header names, query
// parameter names, the values a suite marks `secret: true`, credentials the
// run sent or was sent) and how it is masked. The runner scrubs every result
// with it before a reporter sees it; the transport uses its header list to
// drop credentials on a cross-origin redirect; every reporter passes headers,
// URLs and free text through it again as a safety net. One mark, one list.
#pragma once

#include "core/exchange.hpp"
#include "core/result.hpp"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::redact {

// What a masked value is replaced with, everywhere.
inline constexpr std::string_view mark = "[REDACTED]";

// Header names whose values are credentials (compared case-insensitively):
// Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key, ...
[[nodiscard]] const std::vector<std::string>& sensitive_headers();

// True when name is a sensitive header or one of extra (case-insensitive).
[[nodiscard]] bool is_sensitive_header(std::string_view name, const std::vector<std::string>& extra = {});

// Query parameter names whose values are credentials (api_key, access_token,
// token, password, ..., case-insensitive).
[[nodiscard]] bool is_sensitive_query_param(std::string_view name);

// Headers with the values of sensitive ones replaced by mark; order and
// duplicates are kept.
[[nodiscard]] std::vector<Header> redact_headers(const std::vector<Header>& headers,
                                                 const std::vector<std::string>& extra = {});

// A URL with the password of its userinfo and the values of sensitive query
// parameters masked: "https://u:pw@h/p?api_key=k&n=1" -> "https://u:[REDACTED]@h/p?api_key=[REDACTED]&n=1".
[[nodiscard]] std::string redact_url(std::string_view url);

// Free text (a curl command, a detail message) with the value after every
// "<sensitive-name>:" masked up to the next quote or line end, e.g.
//   curl -H 'Authorization: Bearer abc' ...  ->  curl -H 'Authorization: [REDACTED]' ...
// and with URLs masked as in redact_url.
[[nodiscard]] std::string redact_text(std::string_view text, const std::vector<std::string>& extra = {});
// redact_text / redact_url appended to out: no copy when nothing is masked
// (the common case, on the path every passed case's report takes).
void append_redacted(std::string& out, std::string_view text, const std::vector<std::string>& extra = {});
void append_redacted_url(std::string& out, std::string_view url);

// Values to mask wherever they appear: the run's secret values, each also in
// the percent-encoded form a URL carries it in, plus the credentials found in
// sensitive headers of the exchanges scrubbed (a token the server echoes
// back is masked in the body too).
class Secrets {
public:
    Secrets() = default;
    explicit Secrets(const std::set<std::string>& values);
    // A value marked secret: masked whatever its length.
    void add(std::string_view value);
    // A credential seen in a sensitive header ("Bearer abc...", a cookie):
    // the whole value and its token part, if long enough not to mask
    // ordinary words (at least 8 bytes).
    // A "Basic" value also masks its decoded user:password pair (4 bytes or
    // more), the password alone (8 bytes or more) and the base64 without
    // padding or percent-encoded.
    void add_credential(std::string_view header_value);
    // The credentials of every sensitive header of the exchange.
    void add_credentials_of(const Exchange& x);
    // ... and of a step: its exchange and the values its checks on sensitive
    // headers quote.
    void add_credentials_of(const StepRecord& s);
    [[nodiscard]] bool empty() const { return values_.empty(); }
    // Every occurrence of a value in s replaced by mark (longest values first).
    void mask(std::string& s) const;

private:
    void insert(std::string v);
    void add_basic_credential(std::string_view header_value);
    std::vector<std::string> values_;  // sorted longest first, no duplicates
};

// Lists in r.secret_headers every header whose value contains a secret
// value (a redirect to another origin drops them, as it drops credentials).
void mark_secret_headers(Request& r, const std::set<std::string>& secret_values);

// A request as recorded: sensitive headers and its URL's sensitive parts
// masked, every secret value masked in URL, headers and body.
void redact_request(Request& r, const Secrets& secrets);
// A response as recorded: sensitive headers masked, secret values masked in
// every header value and the body.
void redact_response(Response& r, const Secrets& secrets);
// Every text of a result a report can show: message, detail, properties,
// and per step its name, exchange (request, response, error), checks (a
// check on a sensitive header shows no value) and reproduce line. Secret
// values given plus the credentials of the steps' sensitive headers.
void scrub_case(CaseResult& r, const std::set<std::string>& secret_values);
// The same for a passed case about to be compacted (the runner keeps only
// names, request URLs and checks of it): only those are scrubbed, so no
// body is searched for secrets just to be dropped.
void scrub_passed_case(CaseResult& r, const std::set<std::string>& secret_values);
// One step, with these secrets (and its own credentials, in the second form).
void scrub_step(StepRecord& s, const Secrets& secrets);
void scrub_step(StepRecord& s, const std::set<std::string>& secret_values);

}  // namespace idconform::redact
