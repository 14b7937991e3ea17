// Telling an answer that carries an entity from an error that quotes the
// rejected input. A 400 saying `not a valid UUID: "{3fefef18-...}"` holds the
// live id as a substring of the value the harness sent; that is not a leak
// (DATA-ID-002 forbids answering with the entity, not naming the bad input).
// `find_outside_echoes` finds every occurrence of a text in an answer and
// says which of them lie inside a quoted sent value, in whatever escaping
// the server quoted it: as sent, JSON or C-style backslash escapes (one or
// two levels: Go's %q inside JSON), percent-encoding (a path echoed as it
// came, `+` for a space in a query), HTML entities, or trimmed of
// surrounding whitespace. Pure: no scope, no exchange.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::runner {

struct EchoSearch {
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);
    std::size_t occurrences = 0;       // of the needle in the body
    std::size_t inside_echo = 0;       // of them inside a quoted sent value
    std::size_t first_outside = npos;  // byte offset of the first one outside every quoted sent value
    std::string echoed;                // the sent value quoted around the first occurrence inside one
    bool sent_is_needle = false;       // a sent value is the needle itself: its echo cannot be told apart
    [[nodiscard]] std::size_t outside() const { return occurrences - inside_echo; }
};

// Occurrences of `needle` in `body` (byte-exact, as `not_contains` looks),
// and which of them lie wholly inside one of the `sent` values quoted back
// (every raw byte of the occurrence is part of the quote). A sent value equal
// to the needle (or equal to it once trimmed) hides nothing, and
// `sent_is_needle` says so.
[[nodiscard]] EchoSearch find_outside_echoes(std::string_view body, std::string_view needle,
                                             const std::vector<std::string>& sent);

}  // namespace idconform::runner
