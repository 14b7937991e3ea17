// Writing a report file atomically: readers (CI uploaders, a previous run's
// viewer) see either the old file or the complete new one, never half of it.
#pragma once

#include <string>
#include <string_view>

namespace idconform::reporters {

// Writes content to a temporary file beside path, flushes it to disk and
// renames it over path. On failure removes the temporary file, sets error to
// "cannot write <what> '<path>': <reason>" and returns false. Never throws.
[[nodiscard]] bool write_file_atomic(const std::string& path, std::string_view content, std::string_view what,
                                     std::string& error) noexcept;

}  // namespace idconform::reporters
