// Helpers shared by the profile loader tests: fixture paths, reading the
// docs, and assertions on diagnostics (file, line, column, title, hint).
#pragma once

#include "profile/profile.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace idconform::profile::testing {

inline std::string source_file(const std::string& rel) { return std::string(IDCONFORM_SOURCE_DIR) + "/" + rel; }

inline std::string fixture(const std::string& rel) { return source_file("tests/profile/fixtures/" + rel); }

inline std::string read_source(const std::string& rel) {
    std::ifstream in(source_file(rel), std::ios::binary);
    REQUIRE_MESSAGE(in, "cannot read " << rel);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline std::string dump(const std::vector<Diagnostic>& diags) {
    std::string out;
    for (const auto& d : diags) out += render(d);
    return out;
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

// Loads inline text that must fail with exactly one diagnostic, and checks
// it: position in inline.yaml, exact title, hint containing `hint`.
inline Diagnostic only_error(const std::string& text, int line, int col, const std::string& title,
                             const std::string& hint) {
    const LoadResult r = load_profile_text(text, "inline.yaml");
    INFO("diagnostics:\n" << dump(r.diagnostics));
    CHECK_FALSE(r.profile.has_value());
    REQUIRE(r.diagnostics.size() == 1);
    check(r.diagnostics, "inline.yaml", line, col, title, hint);
    return r.diagnostics.front();
}

}  // namespace idconform::profile::testing
