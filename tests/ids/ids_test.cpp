// Unit tests of the identifier module: strict checks, recognition, field
// decoding, generators (monotonic, thread-safe, injectable clock), ULID,
// Crockford, viewable ids, the UUIDv8 legacy layout and every mutation.
#include "ids/ids.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>
#include <set>
#include <thread>

using namespace idconform::ids;

namespace {
const std::string v7_text = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
Uuid v7() { return *parse_canonical(v7_text); }
}  // namespace

TEST_CASE("strict check accepts only canonical lower-case 8-4-4-4-12") {
    CHECK(is_canonical(v7_text));
    CHECK(is_canonical("00000000-0000-0000-0000-000000000000"));
    CHECK_FALSE(is_canonical("017F22E2-79B0-7CC3-98C4-DC0C0C07398F"));
    CHECK_FALSE(is_canonical("017f22e279b07cc398c4dc0c0c07398f"));
    CHECK_FALSE(is_canonical("{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}"));
    CHECK_FALSE(is_canonical(" 017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
    CHECK_FALSE(is_canonical("017f22e2-79b0-7cc3-98c4-dc0c0c07398"));
    CHECK_FALSE(is_canonical("017f22e-279b0-7cc3-98c4-dc0c0c07398f"));
    CHECK_FALSE(is_canonical(""));
    CHECK(is_canonical_version(v7_text, 7));
    CHECK_FALSE(is_canonical_version(v7_text, 4));
    CHECK_FALSE(is_canonical_version("017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", 7));  // Microsoft variant
}

TEST_CASE("Nil and Max are special values, never v4 or v7") {
    for (int v : {4, 7}) {
        CHECK_FALSE(is_canonical_version("00000000-0000-0000-0000-000000000000", v));
        CHECK_FALSE(is_canonical_version("ffffffff-ffff-ffff-ffff-ffffffffffff", v));
    }
    CHECK(special(nil_uuid) == Special::nil);
    CHECK(special(max_uuid) == Special::max);
    CHECK(special(v7()) == Special::none);
    const auto r = recognize("00000000-0000-0000-0000-000000000000");
    CHECK(r.canonical);
    CHECK(r.special == Special::nil);
    CHECK(r.describe().find("Nil UUID") != std::string::npos);
    CHECK(recognize("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF").describe() ==
          "upper-case form of a Max UUID (special value, not a v4 or v7 identifier)");
}

TEST_CASE("format and parse round-trip random ids") {
    V7Generator gen;
    for (int i = 0; i < 2000; ++i) {
        const Uuid a = (i % 2) ? generate_v4() : gen.next();
        const std::string s = format(a);
        REQUIRE(is_canonical(s));
        CHECK(*parse_canonical(s) == a);
        CHECK(variant(a) == Variant::rfc9562);
        CHECK(version(a) == ((i % 2) ? 4 : 7));
        CHECK(is_canonical_version(s, version(a)));
        const auto r = recognize(s);
        CHECK(r.canonical);
        CHECK(r.value == a);
    }
}

TEST_CASE("recognition: the case of a text is the case of all its letters, hex or not") {
    // Issue #13: a mixed-case text that is not hex was called "upper-case"
    // because only its hex letters (A-F) were looked at.
    const auto r = recognize("ABC-xyz");
    CHECK(has(r.defects, Defect::non_hex));
    CHECK(has(r.defects, Defect::mixed_case));
    CHECK_FALSE(has(r.defects, Defect::upper_case));
    CHECK(r.describe().find("upper-case") == std::string::npos);
    CHECK(r.describe().find("mixed-case") != std::string::npos);
    const auto all_upper = recognize("ABC-XYZ");
    CHECK(has(all_upper.defects, Defect::upper_case));
    CHECK_FALSE(has(all_upper.defects, Defect::mixed_case));
    // Hex-only texts keep their verdicts.
    CHECK(has(recognize("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").defects, Defect::upper_case));
    CHECK(recognize("017f22e2-79b0-7cc3-98c4-dc0c0c07398f").canonical);
}

TEST_CASE("recognition explains non-canonical text") {
    CHECK(recognize("017F22E2-79B0-7CC3-98C4-DC0C0C07398F").describe() == "upper-case form of a valid UUIDv7");
    const auto mixed = recognize("017F22e2-79b0-7cc3-98c4-dc0c0c07398f");
    CHECK(has(mixed.defects, Defect::mixed_case));
    CHECK(mixed.value == v7());
    const auto nohy = recognize("017f22e279b07cc398c4dc0c0c07398f");
    CHECK(has(nohy.defects, Defect::no_hyphens));
    CHECK(nohy.describe() == "hyphen-less form of a valid UUIDv7");
    CHECK(has(recognize("{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}").defects, Defect::braces));
    CHECK(has(recognize("urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f").defects, Defect::urn_prefix));
    CHECK(has(recognize("  017f22e2-79b0-7cc3-98c4-dc0c0c07398f\n").defects, Defect::whitespace));
    const auto shortr = recognize("017f22e2-79b0-7cc3-98c4-dc0c0c07398");
    CHECK(has(shortr.defects, Defect::wrong_length));
    CHECK_FALSE(shortr.value);
    CHECK(shortr.kind == Kind::uuid);
    CHECK(has(recognize("017f22e2-79b0-7cc3-98c4-dc0c0c07398g").defects, Defect::non_hex));
    CHECK(has(recognize("017f22e-279b0-7cc3-98c4-dc0c0c07398f").defects, Defect::misplaced_hyphens));
    // full-width digit zero at position 0
    const auto fw = recognize("\xEF\xBC\x90" "17f22e2-79b0-7cc3-98c4-dc0c0c07398f");
    CHECK(has(fw.defects, Defect::unicode_lookalike));
    CHECK(fw.value == v7());
    CHECK(fw.describe() == "Unicode look-alike form of a valid UUIDv7");
    // Cyrillic 'с' (U+0441) in place of 'c'
    const auto cy = recognize("017f22e2-79b0-7\xD1\x81" "c3-98c4-dc0c0c07398f");
    CHECK(has(cy.defects, Defect::unicode_lookalike));
    CHECK(cy.value == v7());
    CHECK(has(recognize("017f22e2-79b0-7cc3-98c4-dc0c0c0739\xE2\x82\xAC").defects, Defect::non_ascii));
    CHECK(recognize("").defects == Defect::empty);
    CHECK(recognize("12345").kind == Kind::integer);
    CHECK(recognize("TR-7ZK4M9Q").kind == Kind::viewable);
}

TEST_CASE("field decoding of RFC 9562 examples") {
    const auto v1 = *parse_canonical("c232ab00-9414-11ec-b3c8-9f6bdeced846");
    const auto f1 = decode_v1(v1);
    CHECK(f1.timestamp_100ns == 0x1EC9414C232AB00ULL);
    CHECK(f1.clock_seq == 0x33C8);
    CHECK(f1.node == 0x9F6BDECED846ULL);
    CHECK(iso8601_100ns(f1.unix_ns() / 100) == "2022-02-22T19:22:22.0000000Z");
    const auto f6 = decode_v6(*parse_canonical("1ec9414c-232a-6b00-b3c8-9f6bdeced846"));
    CHECK(f6.timestamp_100ns == f1.timestamp_100ns);
    CHECK(f6.node == f1.node);
    const auto f7 = decode_v7(v7());
    CHECK(f7.unix_ts_ms == 1645557742000ULL);
    CHECK(f7.rand_a == 0xCC3);
    CHECK(f7.rand_b == 0x18C4DC0C0C07398FULL);
    CHECK(iso8601_ms(1645557742000) == "2022-02-22T19:22:22.000Z");
    CHECK(iso8601_ms(-1) == "1969-12-31T23:59:59.999Z");
    const auto f8 = decode_v8(*parse_canonical("2489e9ad-2ee2-8e00-8ec9-32d5f69181c0"));
    CHECK(f8.custom_a == 0x2489E9AD2EE2ULL);
    CHECK(f8.custom_b == 0xE00);
    CHECK(f8.custom_c == 0x0EC932D5F69181C0ULL);
}

TEST_CASE("v7 time equals the injected clock, monotonic under a frozen clock") {
    std::int64_t now = 1645557742000;
    V7Generator gen([&now] { return now; });
    Uuid prev = gen.next();
    CHECK(decode_v7(prev).unix_ts_ms == 1645557742000ULL);
    for (int i = 0; i < 100000; ++i) {
        const Uuid next = gen.next();
        REQUIRE(prev < next);
        prev = next;
    }
    CHECK(decode_v7(prev).unix_ts_ms >= 1645557742000ULL);
    now = 1645557743000;
    CHECK(decode_v7(gen.next()).unix_ts_ms == 1645557743000ULL);
    now = 1645557700000;  // clock goes back: order is kept
    const Uuid after_back = gen.next();
    CHECK(prev < after_back);
    CHECK(decode_v7(after_back).unix_ts_ms >= 1645557743000ULL);
}

TEST_CASE("v7 from 8 threads at once: distinct and increasing per thread") {
    V7Generator gen([] { return std::int64_t{1700000000000}; });
    constexpr int per_thread = 20000;
    std::vector<std::vector<Uuid>> seen(8);
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) seen[static_cast<std::size_t>(t)].push_back(gen.next());
        });
    for (auto& th : threads) th.join();
    std::set<Uuid> all;
    for (const auto& v : seen) {
        CHECK(std::is_sorted(v.begin(), v.end()));
        all.insert(v.begin(), v.end());
    }
    CHECK(all.size() == 8u * per_thread);
}

TEST_CASE("v4 ids are random with version 4 and RFC variant") {
    std::set<Uuid> s;
    for (int i = 0; i < 10000; ++i) {
        const Uuid u = generate_v4();
        CHECK(version(u) == 4);
        CHECK(variant(u) == Variant::rfc9562);
        s.insert(u);
    }
    CHECK(s.size() == 10000u);
}

TEST_CASE("Crockford base32 round trip and ambiguity") {
    const std::uint8_t bytes[] = {0x01, 0x7f, 0x22, 0xe2, 0x79};
    const std::string e = crockford_encode(bytes, 5);
    CHECK(e.size() == 8);
    std::uint8_t back[5];
    REQUIRE(crockford_decode(e, back, 5));
    CHECK(std::equal(back, back + 5, bytes));
    for (char c : {'I', 'L', 'O', 'U', 'i', 'l', 'o', 'u', '-', ' '}) CHECK(crockford_value(c) == -1);
    CHECK(crockford_value('z') == 31);
    CHECK_FALSE(crockford_decode("ZZ", back, 1));  // 10 bits do not fit in 8
}

TEST_CASE("ULID: case policy, overflow, monotonic generation") {
    const auto p = parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV", CasePolicy::any);
    REQUIRE(p.value);
    CHECK(parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAV", CasePolicy::lower_only).error == UlidError::wrong_case);
    CHECK(parse_ulid("01arz3ndektsv4rrffq69g5fav", CasePolicy::lower_only).value == p.value);
    CHECK(format_ulid(*p.value, false) == "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    CHECK(parse_ulid("7ZZZZZZZZZZZZZZZZZZZZZZZZZ").value);
    CHECK(parse_ulid("8ZZZZZZZZZZZZZZZZZZZZZZZZZ").error == UlidError::overflow);
    CHECK(parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FA").error == UlidError::wrong_length);
    CHECK(parse_ulid("01ARZ3NDEKTSV4RRFFQ69G5FAU").error == UlidError::bad_char);
    std::int64_t now = 1469918176385;
    UlidGenerator gen([&now] { return now; });
    Ulid prev = gen.next();
    CHECK(prev.unix_ms() == 1469918176385ULL);
    for (int i = 0; i < 10000; ++i) {
        const Ulid n = gen.next();
        REQUIRE(prev < n);
        CHECK(format_ulid(prev) < format_ulid(n));
        prev = n;
    }
}

TEST_CASE("viewable ids") {
    CHECK(check_viewable("TR-7ZK4M9Q") == ViewableError::none);
    CHECK(check_viewable("TR-7zk4m9q") == ViewableError::lower_case);
    CHECK(check_viewable("TR-7ZK4M9I") == ViewableError::excluded_letter);
    CHECK(check_viewable("TR-7ZK4M9") == ViewableError::wrong_length);
    CHECK(check_viewable("XR-7ZK4M9Q") == ViewableError::wrong_prefix);
    CHECK(check_viewable("TR-7ZK4M9-") == ViewableError::bad_char);
    CHECK(viewable_pattern() == "^TR-[0-9A-HJKMNP-TV-Z]{7}$");
    const ViewableFormat custom{"ORD.", 10};
    CHECK(viewable_pattern(custom) == "^ORD\\.[0-9A-HJKMNP-TV-Z]{10}$");
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i) {
        const std::string v = generate_viewable();
        CHECK(check_viewable(v) == ViewableError::none);
        seen.insert(v);
        CHECK(check_viewable(generate_viewable(custom), custom) == ViewableError::none);
    }
    CHECK(seen.size() > 990u);
}

TEST_CASE("UUIDv8 legacy layout: encode, decode, verify") {
    CHECK(LegacyLayout{}.validate().empty());
    LegacyLayout bad;
    bad.type_offset = 40;  // overlaps the version bits
    CHECK_FALSE(bad.validate().empty());
    for (std::uint64_t id : {0ULL, 1ULL, 42ULL, 2147483648ULL, 4294967295ULL}) {
        const Uuid u = encode_legacy(id, 500, "salt");
        CHECK(version(u) == 8);
        CHECK(variant(u) == Variant::rfc9562);
        const auto f = decode_legacy(u);
        CHECK(f.legacy_flag);
        CHECK(f.legacy_id == id);
        CHECK(f.entity_type == 500u);
        CHECK(verify_legacy_hash(u, "salt"));
        CHECK_FALSE(verify_legacy_hash(u, "other"));
        CHECK(encode_legacy(id, 500, "salt") == u);  // deterministic
    }
}

TEST_CASE("every mutation is rejected by the strict check and recognised") {
    V7Generator gen;
    for (int round = 0; round < 50; ++round) {
        const Uuid u = round == 0 ? v7() : gen.next();
        const auto ms = mutations(u);
        std::set<std::string> names;
        for (const auto& m : ms) {
            CAPTURE(m.name);
            CAPTURE(m.text);
            CHECK(names.insert(m.name).second);
            CHECK_FALSE(m.breaks.empty());
            CHECK_FALSE(is_canonical_version(m.text, 7));
            const auto r = recognize(m.text);
            const bool valid_v7 = r.canonical && r.kind == Kind::uuid && r.version == 7 &&
                                  r.variant == Variant::rfc9562;
            CHECK_FALSE(valid_v7);
            if (m.name == "upper-case") CHECK(has(r.defects, Defect::upper_case));
            if (m.name == "mixed-case") CHECK(has(r.defects, Defect::mixed_case));
            if (m.name == "no-hyphens") CHECK(has(r.defects, Defect::no_hyphens));
            if (m.name == "misplaced-hyphens") CHECK(has(r.defects, Defect::misplaced_hyphens));
            if (m.name == "braces") CHECK(has(r.defects, Defect::braces));
            if (m.name == "urn-uuid") CHECK(has(r.defects, Defect::urn_prefix));
            if (m.name == "padded-spaces" || m.name == "trailing-newline") CHECK(has(r.defects, Defect::whitespace));
            if (m.name == "one-char-short" || m.name == "one-char-long") CHECK(has(r.defects, Defect::wrong_length));
            if (m.name == "non-hex-char") CHECK(has(r.defects, Defect::non_hex));
            if (m.name == "fullwidth-digit" || m.name == "cyrillic-letter")
                CHECK(has(r.defects, Defect::unicode_lookalike));
            if (m.name.rfind("version-", 0) == 0) {
                CHECK(r.canonical);
                CHECK(r.version == std::stoi(m.name.substr(8)));
            }
            if (m.name == "variant-ncs") CHECK(r.variant == Variant::ncs);
            if (m.name == "variant-microsoft") CHECK(r.variant == Variant::microsoft);
            if (m.name == "variant-reserved") CHECK(r.variant == Variant::reserved);
            if (m.name == "decimal-integer") CHECK(r.kind == Kind::integer);
            if (m.name == "crockford-base32") {
                CHECK(r.kind == Kind::ulid);
                CHECK(r.value == u);  // same 128 bits
            }
            if (m.name == "fullwidth-digit" || m.name == "cyrillic-letter" || m.name == "upper-case" ||
                m.name == "no-hyphens" || m.name == "braces")
                CHECK(r.value == u);
        }
        CHECK(names.count("version-7") == 0);
        CHECK(names.count("no-hyphens") == 1);
        CHECK(names.count("base64") == 1);
    }
    // exact encodings of the RFC v7 vector
    const auto ms = mutations(v7());
    auto text = [&ms](const std::string& n) {
        for (const auto& m : ms) if (m.name == n) return m.text;
        return std::string();
    };
    CHECK(text("base64") == "AX8i4nmwfMOYxNwMDAc5jw==");
    CHECK(text("decimal-integer") == "1989357241971137676463954034883508623");
}

TEST_CASE("shape scan finds ids in any spelling and ignores ordinary text") {
    CHECK(looks_like_id(v7_text));
    CHECK(looks_like_id("017F22E2-79B0-7CC3-98C4-DC0C0C07398F"));
    CHECK(looks_like_id("017f22e279b07cc398c4dc0c0c07398f"));
    CHECK(looks_like_id("{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}"));
    CHECK(looks_like_id("urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f"));
    CHECK(looks_like_id("01arz3ndektsv4rrffq69g5fav"));
    CHECK_FALSE(looks_like_id("hello world"));
    CHECK_FALSE(looks_like_id("2022-02-22T19:22:22.000Z"));
    CHECK_FALSE(looks_like_id("ABCDEFGHJKMNPQRSTVWXYZABCD"));  // 26 letters, no digit
}

TEST_CASE("strict check agrees with a byte-by-byte reference on every single-byte change") {
    // The strict check is vectorised; compare it with the obvious definition
    // on the canonical text with each position set to every byte value.
    auto reference = [](std::string_view t) {
        if (t.size() != 36) return false;
        for (std::size_t i = 0; i < 36; ++i) {
            const char c = t[i];
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') return false;
            } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    };
    std::string t = v7_text;
    for (std::size_t i = 0; i < 36; ++i) {
        const char saved = t[i];
        for (int b = 0; b < 256; ++b) {
            t[i] = static_cast<char>(b);
            REQUIRE(is_canonical(t) == reference(t));
        }
        t[i] = saved;
    }
    CHECK(is_canonical(t));
}

TEST_CASE("id_named_field: the one naming rule of the shape checks") {
    for (const char* k : {"id", "ID", "Id", "_id", "owner_id", "ownerId", "uuid", "Uuid", "owner_uuid", "ownerUuid",
                          "order-id", "x-tenant-id", "order-uuid", "orderID", "ownerUUID", "v2ID"})
        CHECK_MESSAGE(idconform::ids::id_named_field(k), k);
    for (const char* k : {"", "idx", "name", "Identity", "valid", "uuids", "paid", "PAID", "VALID", "ANDROID", "UUIDS",
                          "-ID", "rapid", "squid"})
        CHECK_MESSAGE(!idconform::ids::id_named_field(k), k);
}

TEST_CASE("out_of_scope_id_name: request, trace, event and other systems' ids by word, not by substring") {
    using idconform::ids::out_of_scope_id_name;
    for (const char* k : {"request_id", "requestId", "requestid", "X-Request-Id", "x-correlation-id", "traceID", "trace_id",
                          "spanId", "eventIds", "external_id", "externalId", "taskExternalId", "run_external_id",
                          "V1WorkflowRunExternalIdList", "idempotencyKey", "HTTPRequestID", "correlationUUID"})
        CHECK_MESSAGE(out_of_scope_id_name(k), k);
    for (const char* k : {"id", "order_id", "orderID", "preventionId", "contractId", "spanishId", "eventualityId", "requester_id",
                          "externality", "tracer", ""})
        CHECK_MESSAGE(!out_of_scope_id_name(k), k);
    // words are compared in a 16-byte buffer: the longest word that can match
    // ("idempotency" + "uuids") still does, a longer one never
    CHECK(out_of_scope_id_name("idempotencyuuids"));
    CHECK(out_of_scope_id_name("the_IdempotencyUUIDs"));
    CHECK_FALSE(out_of_scope_id_name("idempotencyuuidsx"));
    CHECK_FALSE(out_of_scope_id_name("requestidentifiers_id"));
    CHECK(out_of_scope_id_name("averyveryverylongwordbeforeit_trace_id"));
    CHECK(idconform::ids::data_id_named("ownerUUID"));
    CHECK_FALSE(idconform::ids::data_id_named("traceID"));
    CHECK_FALSE(idconform::ids::data_id_named("name"));
}

TEST_CASE("id_name_stem: what an id-named field is the id of, by every suffix id_named_field knows") {
    using idconform::ids::id_name_stem;
    CHECK(id_name_stem("category_id") == "category");
    CHECK(id_name_stem("categoryId") == "category");
    CHECK(id_name_stem("orderID") == "order");
    CHECK(id_name_stem("ownerUUID") == "owner");
    CHECK(id_name_stem("owner-uuid") == "owner");
    CHECK(id_name_stem("x-tenant-id") == "x-tenant");
    CHECK(id_name_stem("parent_uuid") == "parent");
    for (const char* k : {"id", "ID", "uuid", "name", "PAID", "valid"}) CHECK_MESSAGE(id_name_stem(k).empty(), k);
}

TEST_CASE("recognize_uuid: the canonical fast path answers what the digit-by-digit reading answers") {
    std::mt19937_64 rng(9562);
    const char* hex = "0123456789abcdef";
    std::vector<std::string> texts = {"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"};
    for (int i = 0; i < 4000; ++i) {
        std::string t(36, '-');
        for (std::size_t k = 0; k < 36; ++k)
            if (k != 8 && k != 13 && k != 18 && k != 23) t[k] = hex[rng() % 16];
        t[14] = hex[i % 16];         // every version nibble
        t[19] = hex[(i / 16) % 16];  // every variant nibble
        texts.push_back(t);
        std::string spoiled = t;  // one byte changed: the fast path must pass it on
        spoiled[rng() % 36] = "G-A{ \xc3"[rng() % 6];
        texts.push_back(spoiled);
    }
    for (const auto& t : texts) {
        CAPTURE(t);
        const Recognition fast = recognize_uuid(t), slow = idconform::ids::detail::recognize_uuid_spelled(t);
        CHECK(fast.kind == slow.kind);
        CHECK(fast.canonical == slow.canonical);
        CHECK(fast.defects == slow.defects);
        CHECK(fast.value.has_value() == slow.value.has_value());
        if (fast.value && slow.value) CHECK(fast.value->bytes == slow.value->bytes);
        CHECK(fast.version == slow.version);
        CHECK(fast.variant == slow.variant);
        CHECK(fast.special == slow.special);
    }
}
