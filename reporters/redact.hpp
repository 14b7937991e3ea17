// The reporters' safety net against leaking secrets. The runner already
// redacts requests before they reach a result; every reporter still passes
// headers, URLs and free text (detail, reproduce commands) through here
// before printing, so a runner bug cannot put a token into a CI artefact.
#pragma once

#include "core/exchange.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace idconform::reporters {

// What a masked value is replaced with.
inline constexpr std::string_view redacted_mark = "[REDACTED]";

// Header names masked always (compared case-insensitively).
[[nodiscard]] const std::vector<std::string>& default_sensitive_headers();

// True when name is a default sensitive header or one of extra
// (case-insensitive).
[[nodiscard]] bool is_sensitive_header(std::string_view name, const std::vector<std::string>& extra = {});

// Headers with the values of sensitive ones replaced by redacted_mark;
// order and duplicates are kept.
[[nodiscard]] std::vector<Header> redact_headers(const std::vector<Header>& headers,
                                                 const std::vector<std::string>& extra = {});

// A URL with the password of its userinfo masked:
// "https://u:secret@h/p" -> "https://u:[REDACTED]@h/p".
[[nodiscard]] std::string redact_url(std::string_view url);

// Free text (a curl command, a detail message) with the value after every
// "<sensitive-name>:" masked up to the next quote or line end, e.g.
//   curl -H 'Authorization: Bearer abc' ...  ->  curl -H 'Authorization: [REDACTED]' ...
// and with URL userinfo passwords masked as in redact_url.
[[nodiscard]] std::string redact_text(std::string_view text, const std::vector<std::string>& extra = {});
// redact_text / redact_url appended to out: no copy when nothing is masked
// (the common case, on the path every passed case's report takes).
void append_redacted(std::string& out, std::string_view text, const std::vector<std::string>& extra = {});
void append_redacted_url(std::string& out, std::string_view url);

}  // namespace idconform::reporters
