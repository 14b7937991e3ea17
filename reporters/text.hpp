// Shared text writers for every reporter: UTF-8 repair, XML-safe text,
// JSON string quoting, body excerpts and time formatting. Escaping lives here
// once, with its own tests, so no reporter hand-rolls it.
#pragma once

#include "core/exchange.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace idconform::reporters {

// Valid UTF-8 with every invalid byte (stray continuation, overlong form,
// surrogate, > U+10FFFF, cut-off sequence) replaced by U+FFFD. Everything
// else, control characters included, is kept byte for byte.
[[nodiscard]] std::string valid_utf8(std::string_view s);

// Text that any XML 1.0 parser accepts and a human can read: valid UTF-8;
// C0 controls other than TAB, LF and CR, DEL, C1 controls (U+0080-U+009F)
// and U+FFFE/U+FFFF become visible `\uXXXX` escapes. XML 1.0 cannot carry
// control characters even as `&#01;`: the XML writer (xml_writer.hpp) passes
// every text and attribute value that needs it through this before escaping.
[[nodiscard]] std::string xml_text(std::string_view s);

// Text for HTML element content and quoted attribute values: xml_text
// (valid UTF-8, control characters as visible `\uXXXX`, CR kept as `\r` would
// be lost by HTML's newline normalisation, so it is escaped too), then
// `& < > " '` as character references. Safe inside any element but <script>
// and <style>, and inside attributes quoted with either quote.
[[nodiscard]] std::string html_text(std::string_view s);
void append_html(std::string& out, std::string_view s);

// Same as xml_text, for one terminal line: LF and CR become `\n` and `\r`
// as well, and ESC is escaped, so server data cannot move the cursor or
// recolour the console.
[[nodiscard]] std::string terminal_line(std::string_view s);

// Same as terminal_line but keeps LF, for multi-line console output.
[[nodiscard]] std::string terminal_text(std::string_view s);

// A JSON string literal (with quotes) for s, via Boost.JSON's serializer,
// after valid_utf8: every U+0000-U+001F comes out as an escape.
[[nodiscard]] std::string json_quote(std::string_view s);

// The first max_bytes of body, cut on a UTF-8 character boundary, then
// "... (N more bytes)" when something was left out. total_bytes is what the
// transport received (Response::body_bytes); when the transport truncated
// the body (body.size() < total_bytes) the suffix also names the total, e.g.
// "... (98304 more bytes, 100000 received in total; body truncated by the
// transport)". The excerpt itself is raw bytes: callers sanitise it for
// their format.
[[nodiscard]] std::string body_excerpt(std::string_view body, std::size_t max_bytes,
                                       std::uint64_t total_bytes = 0, bool transport_truncated = false);

// Seconds with exactly three decimals ("1.234"); negative or not finite
// values print as "0.000".
[[nodiscard]] std::string format_seconds(double seconds);

// ISO-8601 UTC with milliseconds: "2024-05-01T12:34:56.789Z".
[[nodiscard]] std::string iso8601_utc(Clock::time_point t);

// Elapsed seconds between two time points, 0 when either is unset or they
// are out of order.
[[nodiscard]] double seconds_between(Clock::time_point from, Clock::time_point to);

}  // namespace idconform::reporters
