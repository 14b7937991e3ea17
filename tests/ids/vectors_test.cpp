// Vector tests for the identifier module: every entry of vectors/*.yaml is
// decoded by harness/ids and compared field by field with the values the
// generator (vectors/tools/gen_vectors.py) computed and cross-checked. The
// YAML is read with yaml-cpp directly so a loader bug elsewhere cannot hide a
// decoding bug here; every check names its vector by file:line.
#include "ids/ids.hpp"

#include <doctest/doctest.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ids = idconform::ids;

namespace {

struct Vector {
    YAML::Node node;
    std::string where;  // vectors/<file>.yaml:<line>, 1-based
    [[nodiscard]] std::string str(const char* key) const { return node[key].as<std::string>(); }
    [[nodiscard]] std::uint64_t u64(const char* key) const { return node[key].as<std::uint64_t>(); }
    [[nodiscard]] std::int64_t i64(const char* key) const { return node[key].as<std::int64_t>(); }
    [[nodiscard]] bool has(const char* key) const { return static_cast<bool>(node[key]); }
};

// Loads one vector file and checks its envelope (set name, non-empty list,
// unique names), so a truncated or renamed file fails loudly.
std::vector<Vector> load(const std::string& file, const std::string& want_set) {
    const std::string path = std::string(IDCONFORM_SOURCE_DIR) + "/vectors/" + file;
    const YAML::Node root = YAML::LoadFile(path);
    REQUIRE(root["set"].as<std::string>() == want_set);
    REQUIRE(root["description"]);
    REQUIRE(root["vectors"].IsSequence());
    std::vector<Vector> out;
    std::set<std::string> names;
    for (const auto& n : root["vectors"]) {
        Vector v{n, "vectors/" + file + ":" + std::to_string(n.Mark().line + 1)};
        const std::string name = n["name"].as<std::string>();
        INFO(v.where);
        CHECK_MESSAGE(names.insert(name).second, "duplicate vector name " << name);
        out.push_back(v);
    }
    REQUIRE(!out.empty());
    return out;
}

ids::Uuid must_parse(const std::string& text) {
    const auto u = ids::parse_canonical(text);
    REQUIRE_MESSAGE(u.has_value(), "not canonical: " << text);
    return *u;
}

std::string hex_of(const std::uint8_t* data, std::size_t n) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < n; ++i) {
        s += digits[data[i] >> 4];
        s += digits[data[i] & 0xf];
    }
    return s;
}

std::vector<std::uint8_t> bytes_of(const std::string& hex) {
    std::vector<std::uint8_t> out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    return out;
}

// A plain (untagged, unquoted) scalar is a YAML number/bool/null; a quoted
// one is a string. The negative corpus uses both (0 and "0").
bool is_plain_scalar(const YAML::Node& n) { return n.IsScalar() && n.Tag() == "?"; }

}  // namespace

TEST_CASE("vectors rfc9562: every value decodes to its recorded fields") {
    const auto vectors = load("rfc9562.yaml", "rfc9562");
    std::set<std::string> seen;
    for (const auto& v : vectors) {
        INFO(v.where);
        const std::string text = v.str("value");
        seen.insert(v.str("name"));
        CAPTURE(text);
        const ids::Uuid u = must_parse(text);
        CHECK(ids::format(u) == text);
        CHECK(ids::is_canonical(text));
        CHECK(ids::version(u) == v.i64("version"));
        CHECK(ids::to_string(ids::variant(u)) == v.str("variant"));

        const ids::Recognition r = ids::recognize(text);
        CHECK(r.kind == ids::Kind::uuid);
        CHECK(r.canonical);
        CHECK(r.defects == ids::Defect::none);
        REQUIRE(r.value.has_value());
        CHECK(*r.value == u);

        const int ver = static_cast<int>(v.i64("version"));
        if (v.has("special")) {
            const std::string sp = v.str("special");
            CHECK(ids::to_string(ids::special(u)) == sp);
            CHECK(u == (sp == "nil" ? ids::nil_uuid : ids::max_uuid));
            // Special values never pass a strict version check (RULES.md, nil-max).
            for (int want = 0; want <= 15; ++want) CHECK_FALSE(ids::is_canonical_version(text, want));
            CHECK(r.special == ids::special(u));
            continue;
        }
        CHECK(ids::special(u) == ids::Special::none);
        CHECK(ids::is_canonical_version(text, ver));
        for (int other = 0; other <= 15; ++other)
            if (other != ver) CHECK_FALSE(ids::is_canonical_version(text, other));

        if (ver == 1 || ver == 6) {
            const ids::GregorianFields g = ver == 1 ? ids::decode_v1(u) : ids::decode_v6(u);
            CHECK(g.timestamp_100ns == v.u64("gregorian_100ns"));
            CHECK(g.clock_seq == v.u64("clock_seq"));
            CHECK(g.node == v.u64("node"));
            CHECK(std::stoull(v.str("gregorian_100ns_hex"), nullptr, 16) == g.timestamp_100ns);
            CHECK(std::stoull(v.str("clock_seq_hex"), nullptr, 16) == g.clock_seq);
            CHECK(std::stoull(v.str("node_hex"), nullptr, 16) == g.node);
            CHECK(g.unix_ns() == v.i64("unix_100ns") * 100);
            CHECK(ids::iso8601_100ns(v.i64("unix_100ns")) == v.str("time"));
        }
        if (ver == 7) {
            const ids::V7Fields f = ids::decode_v7(u);
            CHECK(f.unix_ts_ms == v.u64("unix_ts_ms"));
            CHECK(f.rand_a == v.u64("rand_a"));
            CHECK(f.rand_b == v.u64("rand_b"));
            CHECK(ids::iso8601_ms(static_cast<std::int64_t>(f.unix_ts_ms)) == v.str("time"));
        }
        if (ver == 8) {
            const ids::V8Fields f = ids::decode_v8(u);
            CHECK(f.custom_a == v.u64("custom_a"));
            CHECK(f.custom_b == v.u64("custom_b"));
            CHECK(f.custom_c == v.u64("custom_c"));
            if (v.has("unix_10ns")) {
                // B.1: custom_a|custom_b is a 60-bit count of 10 ns steps.
                CHECK(((f.custom_a << 12) | f.custom_b) == v.u64("unix_10ns"));
                CHECK(ids::iso8601_100ns(v.i64("unix_10ns") / 10) == v.str("time"));
            }
        }
    }
    // The file must hold every RFC vector the brief lists.
    for (const char* name : {"a1-v1", "a2-v3", "a3-v4", "a4-v5", "a5-v6", "a6-v7", "b1-v8-time", "b2-v8-sha256",
                             "nil", "max"})
        CHECK_MESSAGE(seen.count(name) == 1, "missing RFC vector " << name);
}

TEST_CASE("vectors rfc9562: the v1 node is 9f6b..., not the 9f68... typo") {
    const auto u = must_parse("c232ab00-9414-11ec-b3c8-9f6bdeced846");
    CHECK(ids::decode_v1(u).node == 0x9F6BDECED846ull);
    CHECK(ids::decode_v6(must_parse("1ec9414c-232a-6b00-b3c8-9f6bdeced846")).timestamp_100ns ==
          ids::decode_v1(u).timestamp_100ns);
}

// What recognize() must report for each negative category. Categories that
// recognize() cannot name (null: no text at all; sql_injection,
// path_traversal, oversized: no Defect bit exists) are checked for the
// weaker but essential property: not canonical and no UUID recovered, so a
// caller can never act on the id hidden inside the payload.
TEST_CASE("vectors negative: every entry is rejected and recognised by category") {
    const auto vectors = load("negative.yaml", "negative");
    CHECK(vectors.size() >= 40);
    const std::map<std::string, ids::Defect> defect_of = {
        {"empty", ids::Defect::empty},
        {"whitespace", ids::Defect::whitespace},
        {"braces", ids::Defect::braces},
        {"urn_prefix", ids::Defect::urn_prefix},
        {"upper_case", ids::Defect::upper_case},
        {"mixed_case", ids::Defect::mixed_case},
        {"no_hyphens", ids::Defect::no_hyphens},
        {"misplaced_hyphens", ids::Defect::misplaced_hyphens},
        {"wrong_length", ids::Defect::wrong_length},
        {"non_hex", ids::Defect::non_hex},
        {"unicode_lookalike", ids::Defect::unicode_lookalike},
    };
    const std::set<std::string> unnamed = {"sql_injection", "path_traversal", "oversized"};
    const std::set<std::string> known = {"empty", "null", "zero", "whitespace", "braces", "urn_prefix", "upper_case",
                                         "mixed_case", "no_hyphens", "misplaced_hyphens", "wrong_length", "non_hex",
                                         "unicode_lookalike", "wrong_version", "wrong_variant", "nil", "max", "base32",
                                         "base64", "integer", "sql_injection", "path_traversal", "oversized"};
    std::set<std::string> categories_seen;

    for (const auto& v : vectors) {
        INFO(v.where);
        const std::string category = v.str("category");
        CAPTURE(category);
        REQUIRE_MESSAGE(known.count(category) == 1, "unknown category " << category);
        categories_seen.insert(category);
        CHECK_FALSE(v.str("why").empty());

        const YAML::Node value = v.node["value"];
        REQUIRE(value);
        if (value.IsNull()) {
            CHECK(category == "null");  // nothing to recognise: a transport-level case
            continue;
        }
        const std::string text = value.as<std::string>();
        CAPTURE(text);
        if (category == "zero") CHECK(text == "0");
        if (is_plain_scalar(value)) CHECK(category == "zero");  // the only non-string value

        // The DATA-ID-002 v7 field check rejects every entry, including Nil/Max.
        CHECK_FALSE(ids::is_canonical_version(text, 7));
        const ids::Recognition r = ids::recognize(text);

        if (auto it = defect_of.find(category); it != defect_of.end()) {
            CHECK_MESSAGE(ids::has(r.defects, it->second), "recognize() misses " << category);
            CHECK_FALSE(r.canonical);
        } else if (category == "wrong_version") {
            CHECK(r.kind == ids::Kind::uuid);
            CHECK(r.canonical);  // well-formed text: only the version is wrong
            CHECK(r.version == v.i64("version"));
            CHECK(r.variant == ids::Variant::rfc9562);
        } else if (category == "wrong_variant") {
            CHECK(r.kind == ids::Kind::uuid);
            CHECK(r.canonical);
            CHECK(r.version == 7);
            CHECK(ids::to_string(r.variant) == v.str("variant"));
        } else if (category == "nil" || category == "max") {
            CHECK(r.kind == ids::Kind::uuid);
            CHECK(ids::to_string(r.special) == category);
            CHECK_FALSE(ids::is_canonical_version(text, 4));
        } else if (unnamed.count(category) == 1) {
            CHECK_FALSE(r.canonical);
            CHECK_MESSAGE(!r.value.has_value(), "a UUID was recovered from a " << category << " payload");
        }

        if (v.has("kind")) CHECK(ids::to_string(r.kind) == v.str("kind"));
        if (v.has("recovers")) {
            REQUIRE_MESSAGE(r.value.has_value(), "the 128 bits are recoverable but recognize() lost them");
            CHECK(ids::format(*r.value) == v.str("recovers"));
        }
    }
    CHECK_MESSAGE(categories_seen == known, "every category has at least one entry");
}

TEST_CASE("vectors ulid: lower-case canonical values, case policy, overflow") {
    const auto vectors = load("ulid.yaml", "ulid");
    for (const auto& v : vectors) {
        INFO(v.where);
        const std::string text = v.str("value");
        CAPTURE(text);
        if (v.node["valid"].as<bool>()) {
            for (auto policy : {ids::CasePolicy::lower_only, ids::CasePolicy::any}) {
                const ids::UlidParse p = ids::parse_ulid(text, policy);
                REQUIRE(p.value.has_value());
                CHECK(p.error == ids::UlidError::none);
                CHECK(p.value->unix_ms() == v.u64("unix_ms"));
                CHECK(hex_of(p.value->bytes.data(), 16) == v.str("hex"));
                CHECK(ids::format_ulid(*p.value) == text);
                CHECK(ids::iso8601_ms(static_cast<std::int64_t>(p.value->unix_ms())) == v.str("time"));
            }
            // The spec's upper-case spelling is the same value under `any`.
            std::string upper = text;
            for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            CHECK(ids::format_ulid(*ids::parse_ulid(upper, ids::CasePolicy::any).value, false) == upper);
            CHECK(ids::parse_ulid(upper, ids::CasePolicy::upper_only).value.has_value());
            continue;
        }
        const ids::UlidParse strict = ids::parse_ulid(text, ids::CasePolicy::lower_only);
        CHECK_FALSE(strict.value.has_value());
        CHECK(ids::to_string(strict.error) == v.str("error_lower_only"));
        if (v.has("position")) CHECK(strict.position == v.u64("position"));
        const ids::UlidParse any = ids::parse_ulid(text, ids::CasePolicy::any);
        CHECK(any.value.has_value() == v.node["valid_any_case"].as<bool>());
        if (v.str("category") == "upper_case") {
            // Valid per the ULID spec, and the same bits as its lower-case form.
            REQUIRE(any.value.has_value());
            std::string lower = text;
            for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            CHECK(ids::format_ulid(*any.value) == lower);
        }
        if (v.str("category") == "overflow") CHECK(any.error == ids::UlidError::overflow);
    }
}

TEST_CASE("vectors crockford: encodings, round trip, symbol values, overflow") {
    const auto vectors = load("crockford.yaml", "crockford");
    int encodes = 0, symbols = 0, failures = 0;
    for (const auto& v : vectors) {
        INFO(v.where);
        if (v.has("hex")) {
            ++encodes;
            const auto data = bytes_of(v.str("hex"));
            REQUIRE(data.size() == v.u64("bytes"));
            const std::string enc = ids::crockford_encode(data.data(), data.size());
            CHECK(enc == v.str("encoded"));
            CHECK(enc.size() == (data.size() * 8 + 4) / 5);
            std::vector<std::uint8_t> back(data.size() + 1, 0xAA);  // +1: guard byte
            REQUIRE(ids::crockford_decode(enc, back.data(), data.size()));
            CHECK(hex_of(back.data(), data.size()) == v.str("hex"));
            CHECK(back[data.size()] == 0xAA);
            // Decoding is case-insensitive.
            std::string lower = enc;
            for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            REQUIRE(ids::crockford_decode(lower, back.data(), data.size()));
            CHECK(hex_of(back.data(), data.size()) == v.str("hex"));
        } else if (v.has("symbol")) {
            ++symbols;
            const std::string s = v.str("symbol");
            REQUIRE(s.size() == 1);
            CHECK(ids::crockford_value(s[0]) == v.i64("symbol_value"));
        } else {
            ++failures;
            const std::string enc = v.str("encoded");
            std::vector<std::uint8_t> out(v.u64("bytes"));
            CHECK_FALSE(ids::crockford_decode(enc, out.data(), out.size()));
        }
    }
    CHECK(encodes >= 10);
    CHECK(symbols >= 30);
    CHECK(failures >= 2);
}

TEST_CASE("vectors viewable: valid ids pass, malformed ones fail with their category") {
    const auto vectors = load("viewable.yaml", "viewable");
    for (const auto& v : vectors) {
        INFO(v.where);
        const std::string text = v.str("value");
        CAPTURE(text);
        const ids::ViewableError e = ids::check_viewable(text);
        if (v.node["valid"].as<bool>()) {
            CHECK(e == ids::ViewableError::none);
            CHECK(ids::recognize(text).kind == ids::Kind::viewable);
        } else {
            CHECK(ids::to_string(e) == v.str("category"));
        }
    }
    CHECK(ids::viewable_pattern() == "^TR-[0-9A-HJKMNP-TV-Z]{7}$");
}

TEST_CASE("vectors uuidv8-legacy: encode, decode and verify with the test salt") {
    const auto vectors = load("uuidv8-legacy.yaml", "uuidv8-legacy");
    for (const auto& v : vectors) {
        INFO(v.where);
        const std::uint64_t id = v.u64("legacy_id");
        const auto type = static_cast<std::uint32_t>(v.u64("entity_type"));
        const std::string salt = v.str("salt");
        CHECK(salt == "idconform-test-salt");
        const std::string want = v.str("uuid");
        CAPTURE(want);

        const ids::Uuid u = ids::encode_legacy(id, type, salt);
        CHECK(ids::format(u) == want);
        CHECK(ids::is_canonical_version(want, 8));
        const ids::LegacyFields f = ids::decode_legacy(must_parse(want));
        CHECK(f.legacy_flag);
        CHECK(f.legacy_id == id);
        CHECK(f.entity_type == type);
        CHECK(ids::verify_legacy_hash(u, salt));
        CHECK_FALSE(ids::verify_legacy_hash(u, "another-salt"));
        CHECK_FALSE(ids::verify_legacy_hash(u, ""));
        // Determinism: a second encode (a re-migration) gives the same id.
        CHECK(ids::encode_legacy(id, type, salt) == u);
    }
}
