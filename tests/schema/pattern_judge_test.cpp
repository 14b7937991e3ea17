// The pattern judge: verdicts come from what a pattern accepts.
#include "schema/pattern_judge.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace idconform::schema;

TEST_CASE("the canonical v7 and v4 patterns are exact for their version only") {
    const auto& v7 = judge_pattern(canonical_pattern(7));
    CHECK(v7.exact_for(7));
    CHECK_FALSE(v7.exact_for(4));
    CHECK(v7.faults().empty());
    const auto& v4 = judge_pattern(canonical_pattern(4));
    CHECK(v4.exact_for(4));
    CHECK(v4.versions == std::set<int>{4});
}

TEST_CASE("a pattern written differently but accepting the same is exact as well") {
    CHECK(judge_pattern("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$").exact_for(7));
    CHECK(judge_pattern("^[0-9a-f]{8}(-[0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$").exact_for(7));
    CHECK(judge_pattern("\\A[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[8-9a-b][0-9a-f]{3}-[0-9a-f]{12}\\z").exact_for(7));
}

TEST_CASE("faults are found by behaviour") {
    const auto& any = judge_pattern("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    CHECK(any.versions.size() == 16);
    CHECK(any.wrong_variant);
    CHECK(any.nil);
    CHECK(any.max);
    CHECK(any.other_forms.empty());
    const auto& upper = judge_pattern("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-7[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$");
    CHECK(upper.versions == std::set<int>{7});
    CHECK(std::find(upper.other_forms.begin(), upper.other_forms.end(), "upper-case") != upper.other_forms.end());
    const auto& loose = judge_pattern("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    CHECK(loose.unanchored);
    CHECK(loose.faults().find("not anchored") != std::string::npos);
    const auto& v47 = judge_pattern("^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    CHECK(v47.versions == std::set<int>{4, 7});
    CHECK(v47.faults() == "admits versions 4, 7");
    const auto& opaque = judge_pattern("^app_[a-zA-Z0-9]{27}$");
    CHECK_FALSE(opaque.admits_uuid());
}

TEST_CASE("a pattern RE2 cannot compile is said so, not judged") {
    const auto& la = judge_pattern("^(?=.*-7)[0-9a-f-]{36}$");
    CHECK_FALSE(la.compiles);
    CHECK_FALSE(la.error.empty());
}

TEST_CASE("ULID and viewable patterns exact for their example's kind") {
    CHECK(other_kind_exact("^[0-7][0-9a-hjkmnp-tv-z]{25}$", "01hqx9d7k5m4n3p2q1r0s9t8v7") == "ulid");
    CHECK(other_kind_exact("^[0-9a-zA-Z]{26}$", "01hqx9d7k5m4n3p2q1r0s9t8v7").empty());  // admits upper case
    CHECK(other_kind_exact("^TR-[0-9A-HJKMNP-TV-Z]{7}$", "TR-8F2K3P2") == "viewable");
    CHECK(other_kind_exact("^TR-[0-9A-Z]{7}$", "TR-8F2K3P2").empty());  // admits I L O U
}

TEST_CASE("the probe bases are the RFC 9562 v4 and v7 vectors of vectors/rfc9562.yaml") {
    std::ifstream in(std::string(IDCONFORM_SOURCE_DIR) + "/vectors/rfc9562.yaml");
    std::stringstream ss;
    ss << in.rdbuf();
    for (const auto& b : probe_bases()) CHECK(ss.str().find("value: \"" + b + "\"") != std::string::npos);
}
