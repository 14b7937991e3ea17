// Helpers shared by the suite loader tests: fixture paths and assertions on
// diagnostics (file, line, column, title, hint).
#pragma once

#include "suite/loader.hpp"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

namespace idconform::suite::testing {

inline std::string fixture(const std::string& rel) {
    return std::string(IDCONFORM_SOURCE_DIR) + "/tests/suite/fixtures/" + rel;
}

inline std::string dump(const std::vector<Diagnostic>& diags) {
    std::string out;
    for (const auto& d : diags) out += render(d);
    return out;
}

// The first diagnostic whose title contains `title`, or nullptr.
inline const Diagnostic* find(const std::vector<Diagnostic>& diags, std::string_view title) {
    for (const auto& d : diags)
        if (d.title.find(title) != std::string::npos) return &d;
    return nullptr;
}

// Asserts a diagnostic with exactly this title at file:line:col whose hint
// contains `hint`.
inline void check(const std::vector<Diagnostic>& diags, const std::string& file, int line, int col,
                  const std::string& title, const std::string& hint) {
    INFO("diagnostics:\n" << dump(diags));
    const Diagnostic* d = nullptr;
    for (const auto& x : diags)
        if (x.title == title && x.pos.file == file && x.pos.line == line && x.pos.column == col) d = &x;
    REQUIRE_MESSAGE(d != nullptr, "no diagnostic at " << file << ":" << line << ":" << col << " titled: " << title);
    CHECK_MESSAGE(d->hint.find(hint) != std::string::npos, "hint was: " << d->hint);
}

// Loads inline text that must fail with exactly one diagnostic.
inline Diagnostic only_error(const std::string& text, const std::string& path = "inline.yaml") {
    const LoadResult r = load_text(text, path);
    INFO("diagnostics:\n" << dump(r.diagnostics));
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.suite.has_value());
    REQUIRE(r.diagnostics.size() == 1);
    return r.diagnostics.front();
}

}  // namespace idconform::suite::testing
