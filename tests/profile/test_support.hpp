// Helpers shared by the profile loader tests: fixture paths, reading the
// docs, assertions on diagnostics (file, line, column, title, hint), and
// loading and expanding with the real packs (suite instances, cases).
#pragma once

#include "binding/deletion.hpp"
#include "binding/operations.hpp"
#include "profile/profile.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

// The real packs of the repository, for expansion tests.
inline const std::string packs_dir = source_file("suites/packs");

// An expansion with every suite's calls bound, as a run, `list` and the
// dry-run plan bind them (binding::bind_calls), and what the binding gave
// each step besides its request: what tests of the requests a profile makes
// read. Not copied: the step bindings hold the addresses of its steps.
struct BoundExpansion : Expansion {
    explicit BoundExpansion(Expansion e) : Expansion(std::move(e)) {
        for (auto& s : suites) steps.push_back(binding::bind_calls(s));
    }
    BoundExpansion(const BoundExpansion&) = delete;
    BoundExpansion(BoundExpansion&&) = default;  // the suites' steps stay where they are
    std::vector<binding::BoundSteps> steps;  // by suite

    // What the binding gave `st`, a step of one of the suites; null: as written.
    [[nodiscard]] const binding::StepBinding* of(const suite::Step& st) const {
        for (const auto& b : steps)
            if (const auto* found = b.of(st)) return found;
        return nullptr;
    }
    // The deletion the binding gave `st` (it must have one).
    [[nodiscard]] const binding::Deletion& deletion(const suite::Step& st) const {
        const binding::StepBinding* b = of(st);
        REQUIRE(b);
        REQUIRE(b->deletion);
        return *b->deletion;
    }
    // The Location resource `st` is sent to ("" for none), and its entity array pointer.
    [[nodiscard]] std::string location_of(const suite::Step& st) const {
        const binding::StepBinding* b = of(st);
        return b && b->access ? b->access->location_of : std::string();
    }
    [[nodiscard]] std::optional<std::string> entity_array(const suite::Step& st) const {
        const binding::StepBinding* b = of(st);
        return b && b->access ? b->access->entity_array : std::nullopt;
    }
};

inline BoundExpansion bound(Expansion e) { return BoundExpansion(std::move(e)); }

// Loads a profile that must load, as file `file` (positions name it).
inline Profile load_ok(const std::string& text, const std::string& file) {
    const LoadResult r = load_profile_text(text, file);
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    return *r.profile;
}

// The suite instance of an expansion named `name`, or nullptr.
inline const suite::Suite* find_instance(const Expansion& e, const std::string& name) {
    for (const auto& s : e.suites)
        if (s.name == name) return &s;
    return nullptr;
}

// The suite instance named `name`; fails the test when there is none.
inline const suite::Suite& instance(const Expansion& e, const std::string& name) {
    const suite::Suite* s = find_instance(e, name);
    REQUIRE_MESSAGE(s != nullptr, "no suite " << name);
    return *s;
}

// The case named exactly `name` / the first whose name starts with `prefix`.
inline const suite::Case& case_named(const suite::Suite& s, const std::string& name) {
    for (const auto& c : s.cases)
        if (c.name == name) return c;
    FAIL("no case " << name << " in " << s.name);
    return s.cases.front();
}
inline const suite::Case& case_with_prefix(const suite::Suite& s, const std::string& prefix) {
    for (const auto& c : s.cases)
        if (c.name.rfind(prefix, 0) == 0) return c;
    FAIL("no case " << prefix << " in " << s.name);
    return s.cases.front();
}

}  // namespace idconform::profile::testing
