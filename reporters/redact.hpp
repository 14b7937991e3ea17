// The reporters' safety net against leaking secrets is the one redaction
// module, core/redact.hpp (the runner scrubs every result with it before a
// reporter sees it; every reporter passes headers, URLs and free text
// through it again before printing, so a runner bug cannot put a token into
// a CI artefact). These names keep the reporters' spelling.
#pragma once

#include "core/redact.hpp"

namespace idconform::reporters {

inline constexpr std::string_view redacted_mark = redact::mark;
using redact::append_redacted;
using redact::append_redacted_url;
using redact::is_sensitive_header;
using redact::redact_headers;
using redact::redact_text;
using redact::redact_url;

// The header names masked always (compared case-insensitively).
[[nodiscard]] inline const std::vector<std::string>& default_sensitive_headers() { return redact::sensitive_headers(); }

}  // namespace idconform::reporters
