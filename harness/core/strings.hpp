// Small text helpers more than one component needs, written once: ASCII
// case-insensitive comparison (header names), RFC 3986 percent-encoding (the
// runner's interpolation, the redaction of secrets in URLs and the Kafka
// request URLs must agree byte for byte) and shell quoting (reproduce
// commands), file paths as URIs. Locale-free: the same bytes whatever the process locale.
#pragma once

#include <string>
#include <string_view>

namespace idconform {

// ASCII case-insensitive equality.
[[nodiscard]] bool iequals(std::string_view a, std::string_view b) noexcept;

// Percent-encodes every byte but the unreserved ones (ALPHA, DIGIT, '-', '.',
// '_', '~') and those in `keep`, as %XX with upper-case hex.
[[nodiscard]] std::string percent_encode(std::string_view s, std::string_view keep = {});

// Decodes every %XX (either case of hex); a '%' not followed by two hex
// digits stays as it is. No '+' for space: that is forms, not URIs.
[[nodiscard]] std::string percent_decode(std::string_view s);

// A file path as a URI reference (SARIF artifact locations, links to the
// docs): '\\' written '/', every byte but the unreserved ones and '/'
// percent-encoded, `file://` before an absolute path; a relative path stays relative.
[[nodiscard]] std::string file_uri(std::string_view path);

// One JSON pointer token unescaped (RFC 6901: "~1" is '/', "~0" is '~'; a
// '~' before anything else stays as it is).
[[nodiscard]] std::string unescape_pointer_token(std::string_view token);

// A shell word: single-quoted, inner single quotes survive ('it'\''s').
[[nodiscard]] std::string shell_quote(std::string_view s);

}  // namespace idconform
