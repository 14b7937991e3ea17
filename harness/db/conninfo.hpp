// The connection string of `idconform db` as it may be shown: a libpq
// key=value string or a postgres:// URI with any password in it masked
// (redact::mark), and the password itself, so that a message of the client
// library quoting it can be masked too. Pure text work, no libpq.
#pragma once

#include <string>
#include <string_view>

namespace idconform::db {

// "host=h password=pw dbname=d" -> "host=h password=[REDACTED] dbname=d";
// "postgresql://u:pw@h/d?password=x" -> "postgresql://u:[REDACTED]@h/d?password=[REDACTED]".
// Quoted values ('p w', with \' and \\ escapes) are masked whole.
[[nodiscard]] std::string redact_conninfo(std::string_view conninfo);

// The password written in the connection string ("" when none): the URI's
// userinfo password (percent-decoded) or query parameter, or the value of
// the `password` keyword.
[[nodiscard]] std::string password_in(std::string_view conninfo);

[[nodiscard]] bool is_uri(std::string_view conninfo) noexcept;

}  // namespace idconform::db
