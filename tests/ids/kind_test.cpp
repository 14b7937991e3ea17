// Unit tests of the id-kind vocabulary and the one verdict function
// (ids/kind.hpp): names round-trip, the RFC 9562 vectors are valid ids of
// their version and of no other, every entry of the negative corpus fails a
// uuidv7 field with the reason its category names, every mutation of a valid
// id is rejected, ULID/viewable/legacy vectors follow their packs' rules, and
// the fast path agrees with the full verdict on all of them.
#include "ids/kind.hpp"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace ids = idconform::ids;
using ids::IdKind;

namespace {

YAML::Node vectors_of(const std::string& file) {
    const YAML::Node root = YAML::LoadFile(std::string(IDCONFORM_SOURCE_DIR) + "/vectors/" + file);
    REQUIRE(root["vectors"].IsSequence());
    REQUIRE(root["vectors"].size() > 0);
    return root["vectors"];
}

std::set<std::string> codes(const ids::Verdict& v) {
    std::set<std::string> out;
    for (const auto& r : v.reasons) out.insert(r.code);
    return out;
}

bool has_code(const ids::Verdict& v, const std::string& code) { return codes(v).count(code) == 1; }

// Verdict and fast path must agree; reasons exist exactly when invalid.
ids::Verdict judged(const std::string& text, IdKind k, const ids::JudgeOptions& o = {}) {
    const ids::Verdict v = ids::judge(text, k, o);
    CHECK_MESSAGE(v.valid == v.reasons.empty(), text, " ", ids::kind_name(k));
    CHECK_MESSAGE(ids::is_valid(text, k, o) == v.valid, text, " ", ids::kind_name(k));
    for (const auto& r : v.reasons) {
        CHECK_FALSE(r.code.empty());
        CHECK_FALSE(r.text.empty());
    }
    return v;
}

IdKind uuid_kind(int version) {
    for (IdKind k : ids::all_kinds)
        if (ids::uuid_version_of(k) == version && k != IdKind::uuidv8_legacy) return k;
    FAIL("no kind for version ", version);
    return IdKind::uuid;
}

}  // namespace

TEST_CASE("kind names round-trip and are the suite language's list") {
    CHECK(ids::kind_names() == std::vector<std::string>{"uuid", "uuidv1", "uuidv3", "uuidv4", "uuidv5", "uuidv6",
                                                         "uuidv7", "uuidv8", "ulid", "viewable", "uuidv8-legacy",
                                                         "existing", "any"});
    for (IdKind k : ids::all_kinds) {
        const auto name = ids::kind_name(k);
        REQUIRE(ids::parse_kind(name));
        CHECK(*ids::parse_kind(name) == k);
        CHECK_FALSE(ids::kind_summary(k).empty());
    }
    CHECK(ids::kind_names().size() == ids::all_kinds.size());
    CHECK_FALSE(ids::parse_kind("UUIDv7"));  // names are case-sensitive, like every suite key
    CHECK_FALSE(ids::parse_kind("uuidv2"));
    CHECK_FALSE(ids::parse_kind("uuidv8_legacy"));
    CHECK_FALSE(ids::parse_kind(""));
    CHECK(ids::kind_list() ==
          "uuid, uuidv1, uuidv3, uuidv4, uuidv5, uuidv6, uuidv7, uuidv8, ulid, viewable, uuidv8-legacy, existing, any");
    CHECK(ids::uuid_version_of(IdKind::uuid) == 0);
    CHECK(ids::uuid_version_of(IdKind::uuidv7) == 7);
    CHECK(ids::uuid_version_of(IdKind::uuidv8_legacy) == 8);
    CHECK(ids::uuid_version_of(IdKind::ulid) == -1);
    CHECK_FALSE(ids::is_uuid_kind(IdKind::viewable));
    CHECK_FALSE(ids::is_uuid_kind(IdKind::existing));
    CHECK_FALSE(ids::has_format(IdKind::any));
    CHECK(ids::has_format(IdKind::uuidv8_legacy));
}

TEST_CASE("kinds without a format: existing refuses only the dummies, any only the empty text") {
    // Issue #13: `any` and `existing` are kinds of the one vocabulary, judged here.
    for (const std::string& text : {std::string("17"), std::string("V1StGXR8_Z5jdHi6B-myT"), std::string("8b5a"),
                                    std::string("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")}) {
        CHECK(judged(text, IdKind::existing).valid);
        CHECK(judged(text, IdKind::any).valid);
    }
    CHECK(codes(judged("", IdKind::existing)) == std::set<std::string>{"empty"});
    CHECK(codes(judged("0", IdKind::existing)) == std::set<std::string>{"zero"});
    CHECK(codes(judged("00000000-0000-0000-0000-000000000000", IdKind::existing)) == std::set<std::string>{"nil"});
    CHECK(codes(judged("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", IdKind::existing)) == std::set<std::string>{"max"});
    CHECK(codes(judged("", IdKind::any)) == std::set<std::string>{"empty"});
    CHECK(judged("0", IdKind::any).valid);
    CHECK(ids::kind_pattern(IdKind::existing) == "^.+$");
    CHECK(ids::parse_kind("existing") == IdKind::existing);
    CHECK(ids::parse_kind("any") == IdKind::any);
}

TEST_CASE("RFC 9562 vectors are valid ids of their version and of kind uuid, and of no other version") {
    int seen = 0;
    for (const auto& v : vectors_of("rfc9562.yaml")) {
        const std::string text = v["value"].as<std::string>();
        const std::string name = v["name"].as<std::string>();
        CAPTURE(name);
        if (name == "nil" || name == "max") {
            for (IdKind k : ids::all_kinds) {
                if (k == IdKind::any) continue;  // some text is all `any` asks for
                const auto verdict = judged(text, k);
                CHECK_FALSE(verdict.valid);
                if (ids::is_uuid_kind(k)) {
                    CHECK(codes(verdict) == std::set<std::string>{name});  // the special value alone
                }
            }
            continue;
        }
        ++seen;
        const int version = v["version"].as<int>();
        CHECK(judged(text, IdKind::uuid).valid);
        CHECK(judged(text, uuid_kind(version)).valid);
        for (IdKind k : ids::all_kinds) {
            const int kv = ids::uuid_version_of(k);
            if (kv <= 0 || kv == version) continue;
            const auto verdict = judged(text, k);
            CHECK_FALSE(verdict.valid);
            CHECK(has_code(verdict, "version"));
        }
        CHECK(has_code(judged(text, IdKind::ulid), "not-a-ulid"));
        CHECK(has_code(judged(text, IdKind::viewable), "not-a-viewable-id"));
        // The RFC prints some vectors upper-case: that spelling is not the wire form...
        std::string upper = text;
        std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return char(std::toupper(c)); });
        const auto up = judged(upper, uuid_kind(version));
        CHECK(codes(up) == std::set<std::string>{"upper-case"});
        // ...unless the check was asked not to care about the spelling.
        CHECK(judged(upper, uuid_kind(version), {.canonical = false}).valid);
    }
    CHECK(seen == 8);  // A.1-A.6, B.1, B.2
}

TEST_CASE("every entry of the negative corpus fails a uuidv7 field, with the reason of its category") {
    const std::map<std::string, std::string> reason_of = {
        {"empty", "empty"},          {"whitespace", "whitespace"},   {"braces", "braces"},
        {"urn_prefix", "urn-prefix"},       {"upper_case", "upper-case"},   {"mixed_case", "mixed-case"},
        {"no_hyphens", "no-hyphens"}, {"wrong_version", "version"},  {"wrong_variant", "variant"},
        {"nil", "nil"},              {"max", "max"},                 {"unicode_lookalike", "unicode-lookalike"},
        {"misplaced_hyphens", "misplaced-hyphens"}, {"wrong_length", "wrong-length"},
    };
    int n = 0;
    for (const auto& v : vectors_of("negative.yaml")) {
        if (v["value"].IsNull()) continue;  // JSON null: a question for the field's nullability, not for a kind
        const std::string text = v["value"].as<std::string>();
        const std::string category = v["category"].as<std::string>();
        CAPTURE(v["name"].as<std::string>());
        ++n;
        const auto verdict = judged(text, IdKind::uuidv7);
        CHECK_FALSE(verdict.valid);
        if (auto it = reason_of.find(category); it != reason_of.end()) {
            if (category == "wrong_version" && (v["version"].as<int>() == 0 || v["version"].as<int>() == 15))
                CHECK(has_code(verdict, "version-undefined"));
            else
                CHECK_MESSAGE(has_code(verdict, it->second), verdict.summary());
        }
        if (v["kind"] && v["kind"].as<std::string>() != "unknown") CHECK(has_code(verdict, "not-a-uuid"));
        // A text that is not a canonical RFC 9562 UUID of a defined version is no valid `uuid` either.
        const bool other_version = category == "wrong_version" && v["version"].as<int>() >= 1 && v["version"].as<int>() <= 8;
        CHECK(judged(text, IdKind::uuid).valid == other_version);
    }
    CHECK(n > 40);
}

TEST_CASE("inspect's old blind spots: lower-case text with a wrong variant or an undefined version is not valid") {
    for (const char* text : {"017f22e2-79b0-7cc3-08c4-dc0c0c07398f", "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f",
                             "017f22e2-79b0-7cc3-e8c4-dc0c0c07398f"}) {
        const auto v = judged(text, IdKind::uuid);
        CHECK(codes(v) == std::set<std::string>{"variant"});
        CHECK(v.summary().find("RFC 9562 ids have variant 10xx") != std::string::npos);
    }
    for (char version : std::string("09abcdef")) {
        std::string text = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
        text[14] = version;
        CAPTURE(text);
        CHECK(codes(judged(text, IdKind::uuid)) == std::set<std::string>{"version-undefined"});
    }
    // version 2 (DCE Security) is one RFC 9562 defines; no suite kind names it, `uuid` accepts it
    CHECK(judged("017f22e2-79b0-2cc3-98c4-dc0c0c07398f", IdKind::uuid).valid);
    // several reasons at once
    const auto many = judged("017F22E2-79B0-0CC3-C8C4-DC0C0C07398F", IdKind::uuidv7);
    CHECK(codes(many) == std::set<std::string>{"upper-case", "variant", "version-undefined"});
}

TEST_CASE("every mutation of a valid id is rejected for its kind") {
    ids::V7Generator gen;
    for (int i = 0; i < 50; ++i) {
        const ids::Uuid u = (i % 2) ? ids::generate_v4() : gen.next();
        const IdKind k = (i % 2) ? IdKind::uuidv4 : IdKind::uuidv7;
        REQUIRE(judged(ids::format(u), k).valid);
        for (const auto& m : ids::mutations(u)) {
            CAPTURE(m.name);
            CHECK_FALSE(judged(m.text, k).valid);
        }
    }
    const ids::Ulid ulid = ids::UlidGenerator().next();
    REQUIRE(judged(ids::format_ulid(ulid), IdKind::ulid).valid);
    for (const auto& m : ids::ulid_mutations(ulid)) {
        CAPTURE(m.name);
        CHECK_FALSE(judged(m.text, IdKind::ulid).valid);
    }
    const std::string vid = ids::generate_viewable();
    REQUIRE(judged(vid, IdKind::viewable).valid);
    for (const auto& m : ids::viewable_mutations(vid, {})) {
        CAPTURE(m.name);
        CHECK_FALSE(judged(m.text, IdKind::viewable).valid);
    }
}

TEST_CASE("ULID vectors: lower-case canonical ones are valid, the rest fail with a reason") {
    for (const auto& v : vectors_of("ulid.yaml")) {
        const std::string text = v["value"].as<std::string>();
        CAPTURE(v["name"].as<std::string>());
        const bool valid = v["valid"].as<bool>();
        const auto verdict = judged(text, IdKind::ulid);
        CHECK(verdict.valid == valid);
        if (v["valid_any_case"]) CHECK(judged(text, IdKind::ulid, {.canonical = false}).valid == v["valid_any_case"].as<bool>());
        CHECK_FALSE(judged(text, IdKind::uuid).valid);
    }
    CHECK(codes(judged("01ARYZ6S41TSV4RRFFQ69G5FAV", IdKind::ulid)) == std::set<std::string>{"upper-case"});
    CHECK(codes(judged("81aryz6s41tsv4rrffq69g5fav", IdKind::ulid)) == std::set<std::string>{"overflow"});
    CHECK(codes(judged("01aryz6s41tsv4rrffq69g5fau", IdKind::ulid)) == std::set<std::string>{"bad-char"});
    CHECK(codes(judged("01aryz6s41tsv4rrffq69g5fa", IdKind::ulid)) == std::set<std::string>{"wrong-length"});
    CHECK(codes(judged("", IdKind::ulid)) == std::set<std::string>{"empty"});
    CHECK(has_code(judged("01aryz6s41tsv4rrffq69g5fav", IdKind::uuidv7), "not-a-uuid"));
}

TEST_CASE("viewable vectors follow check_viewable and the configured format") {
    std::map<std::string, std::string> reason_of = {{"lower_case", "lower-case"},
                                                    {"excluded_letter", "excluded-letter"},
                                                    {"wrong_length", "wrong-length"},
                                                    {"wrong_prefix", "wrong-prefix"},
                                                    {"bad_char", "bad-char"}};
    for (const auto& v : vectors_of("viewable.yaml")) {
        const std::string text = v["value"].as<std::string>();
        CAPTURE(v["name"].as<std::string>());
        const auto verdict = judged(text, IdKind::viewable);
        CHECK(verdict.valid == v["valid"].as<bool>());
        if (v["category"]) CHECK(has_code(verdict, reason_of.at(v["category"].as<std::string>())));
    }
    const ids::JudgeOptions po{.viewable = {"PRD_", 10}};
    CHECK(judged("PRD_0123456789", IdKind::viewable, po).valid);
    CHECK(has_code(judged("TR-VPFD4XT", IdKind::viewable, po), "wrong-prefix"));
    CHECK(has_code(judged("PRD_012345678", IdKind::viewable, po), "wrong-length"));
}

TEST_CASE("uuidv8-legacy needs version 8, the RFC variant and the legacy flag of the layout") {
    int n = 0;
    for (const auto& v : vectors_of("uuidv8-legacy.yaml")) {
        if (!v["uuid"]) continue;
        const std::string text = v["uuid"].as<std::string>();
        CAPTURE(v["name"].as<std::string>());
        ++n;
        CHECK(judged(text, IdKind::uuidv8_legacy).valid);
        CHECK(judged(text, IdKind::uuidv8).valid);
        CHECK(judged(text, IdKind::uuid).valid);
        CHECK(has_code(judged(text, IdKind::uuidv7), "version"));
    }
    CHECK(n > 0);
    // The RFC's own v8 vectors have the top bit clear: valid uuidv8, not legacy ids.
    const auto b2 = judged("5c146b14-3c52-8afd-938a-375d0df1fbf6", IdKind::uuidv8_legacy);
    CHECK(codes(b2) == std::set<std::string>{"legacy-flag"});
    CHECK(judged("5c146b14-3c52-8afd-938a-375d0df1fbf6", IdKind::uuidv8).valid);
    // A layout whose flag is elsewhere: the same text is judged by that bit.
    ids::LegacyLayout moved;
    moved.flag_bit = 127;
    moved.hash2_bits = 61;
    REQUIRE(moved.validate().empty());
    const std::string flag_low = "5c146b14-3c52-8afd-938a-375d0df1fbf7";  // last bit set
    CHECK(judged(flag_low, IdKind::uuidv8_legacy, {.legacy = moved}).valid);
    CHECK(has_code(judged("5c146b14-3c52-8afd-938a-375d0df1fbf6", IdKind::uuidv8_legacy, {.legacy = moved}),
                   "legacy-flag"));
    // Wrong version or variant comes first; no flag reason on a text that is no uuidv8.
    CHECK(codes(judged("8000181c-8064-777b-93ed-4b4d43e4997b", IdKind::uuidv8_legacy)) ==
          std::set<std::string>{"version"});
    CHECK(codes(judged("8000181c-8064-877b-c3ed-4b4d43e4997b", IdKind::uuidv8_legacy)) ==
          std::set<std::string>{"variant"});
}

TEST_CASE("text that is no id at all gets one reason and no crash") {
    for (const std::string& text : {std::string(), std::string("x"), std::string("12345"), std::string(5000, 'a'),
                                    std::string("\xff\xfe\x00\x01", 4), std::string("TR-VPFD4XT")}) {
        for (IdKind k : ids::all_kinds) {
            if (!ids::has_format(k)) continue;  // any text is an id of an existing format (tested above)
            const auto v = judged(text, k);
            if (k == IdKind::viewable && text == "TR-VPFD4XT") {
                CHECK(v.valid);
                continue;
            }
            CHECK_FALSE(v.valid);
            CHECK(v.reasons.size() >= 1);
            for (const auto& r : v.reasons) CHECK(r.text.size() < 400);  // long input is cut in the reason
        }
    }
    CHECK(codes(judged("12345", IdKind::uuid)) == std::set<std::string>{"not-a-uuid"});
    CHECK(codes(judged("", IdKind::uuidv7)) == std::set<std::string>{"empty"});
}

TEST_CASE("kind patterns are the DATA-ID-002 machine-contract patterns") {
    CHECK(ids::kind_pattern(IdKind::uuidv7) == "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    CHECK(ids::kind_pattern(IdKind::uuidv4) == "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    CHECK(ids::kind_pattern(IdKind::uuid) == "^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
    CHECK(ids::kind_pattern(IdKind::uuidv8_legacy) == ids::kind_pattern(IdKind::uuidv8));
    CHECK(ids::kind_pattern(IdKind::ulid) == "^[0-7][0-9a-hjkmnp-tv-z]{25}$");
    CHECK(ids::kind_pattern(IdKind::viewable) == "^TR-[0-9A-HJKMNP-TV-Z]{7}$");
}
