// Loading YAML suites into the model. A suite loads completely or not at all:
// every problem becomes a Diagnostic with file:line:col and a hint; unknown
// keys get "did you mean". Includes are resolved relative to the including
// file; include cycles are errors.
#pragma once

#include "core/diagnostic.hpp"
#include "suite/model.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace idconform::suite {

struct LoadResult {
    std::optional<Suite> suite;          // set only when diagnostics is empty
    std::vector<Diagnostic> diagnostics;
    [[nodiscard]] bool ok() const { return suite.has_value(); }
};

[[nodiscard]] LoadResult load_file(const std::string& path);
// For tests: load from text, `path` used in positions and to resolve includes.
[[nodiscard]] LoadResult load_text(const std::string& text, const std::string& path);

// A file holding one vector set (vectors/*.yaml).
struct VectorLoadResult {
    std::optional<VectorSet> set;
    std::vector<Diagnostic> diagnostics;
};
// Simple files (see simple_vectors.hpp) are read without yaml-cpp's node tree;
// `simple_reader = false` forces yaml-cpp (tests compare the two).
[[nodiscard]] VectorLoadResult load_vector_file(const std::string& path, bool simple_reader = true);

// Expands a directory argument into the *.yaml / *.yml suite files directly
// in it (not recursive), sorted; a file argument is returned as is. Files
// that are not suites are skipped: *.vectors.yaml, files in a `fragments/`
// folder, and files whose top-level mapping has `set:`, `fragments:` or
// `vectors:` but no `name:`. A missing path, or a directory without suites,
// adds a diagnostic.
[[nodiscard]] std::vector<std::string> expand_suite_paths(const std::vector<std::string>& args,
                                                          std::vector<Diagnostic>& diagnostics);

}  // namespace idconform::suite
