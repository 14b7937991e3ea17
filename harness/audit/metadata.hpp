// Run metadata an auditor asks for (what was checked, with what settings),
// gathered by the CLI into RunInfo::metadata.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace idconform::audit {

// Lower-case hex SHA-256 of a file's bytes; nullopt when it cannot be read.
[[nodiscard]] std::optional<std::string> file_sha256(const std::string& path);
// The same of bytes already read (a profile from standard input).
[[nodiscard]] std::string text_sha256(std::string_view bytes);

}  // namespace idconform::audit
