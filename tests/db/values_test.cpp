// The verdicts on one column's stored values (checks.hpp: ValueTally).
#include "db/checks.hpp"

#include "ids/ids.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::db;

namespace {

const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
const std::string nil = "00000000-0000-0000-0000-000000000000";

struct Col {
    Table t;
    Column c;
    JudgedColumn j;
    Col(TypeFamily f, std::optional<ids::IdKind> kind) {
        t.schema = "app";
        t.name = "t";
        c.name = "x_id";
        c.family = f;
        j.table = &t;
        j.column = &c;
        j.kind = kind;
    }
};

// The tally of `values` in a column of `family` judged as `kind`; uuid
// values are given as text and fed as their 16 bytes.
std::vector<Finding> judge(TypeFamily family, std::optional<ids::IdKind> kind, const std::vector<std::string>& values,
                           std::int64_t now_ms = 0) {
    Col col(family, kind);
    ValueTally t(family, kind);
    t.set_clock(now_ms, 5000);
    for (const auto& v : values) {
        if (v == "NULL") {
            t.add(Value{{}, true});
        } else if (family == TypeFamily::uuid) {
            const auto u = ids::parse_canonical(v);
            REQUIRE(u);
            t.add(Value{std::string_view(reinterpret_cast<const char*>(u->bytes.data()), 16), false});
        } else {
            t.add(Value{v, false});
        }
    }
    return t.findings(col.j);
}

const Finding* rule(const std::vector<Finding>& fs, std::string_view r) {
    for (const auto& f : fs)
        if (f.rule == r) return &f;
    return nullptr;
}

std::vector<std::string> failed(const std::vector<Finding>& fs) {
    std::vector<std::string> out;
    for (const auto& f : fs)
        if (f.verdict == Verdict::failed) out.push_back(f.rule);
    return out;
}

}  // namespace

TEST_CASE("uuid column: one version passes, mixed versions are DATA-ID-003, v4 in a v7 column DATA-ID-001") {
    auto fs = judge(TypeFamily::uuid, std::nullopt, {v7, v7, "NULL"});
    CHECK(failed(fs).empty());
    REQUIRE(rule(fs, "DATA-ID-003"));
    CHECK(rule(fs, "DATA-ID-003")->message == "one version in 2 values (and 1 null): v7 2");

    fs = judge(TypeFamily::uuid, std::nullopt, {v7, v4, v7});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-003"});
    CHECK(rule(fs, "DATA-ID-003")->actual == "v4 1, v7 2");
    CHECK(rule(fs, "DATA-ID-003")->examples == std::vector<std::string>{v4, v7});

    fs = judge(TypeFamily::uuid, ids::IdKind::uuidv7, {v7, v4});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-001"});
    CHECK(rule(fs, "DATA-ID-001")->message == "1 UUID not of version 7 in 2 values: v4 1, v7 1");
    CHECK(rule(fs, "DATA-ID-001")->examples == std::vector<std::string>{v4});

    fs = judge(TypeFamily::uuid, ids::IdKind::uuidv4, {v4, v4});
    CHECK(failed(fs).empty());
    // a v4 of the NCS variant in a v4 column
    fs = judge(TypeFamily::uuid, ids::IdKind::uuidv4, {"919108f7-52d1-4320-1bac-f847db4148a8"});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-003"});
}

TEST_CASE("Nil and Max, '' and '0' are DATA-ID-007 dummies, not versions") {
    auto fs = judge(TypeFamily::uuid, std::nullopt, {v7, nil, "ffffffff-ffff-ffff-ffff-ffffffffffff"});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-007"});
    CHECK(rule(fs, "DATA-ID-007")->actual == "Nil UUID 1, Max UUID 1");
    CHECK(rule(fs, "DATA-ID-003")->verdict == Verdict::passed);  // Nil/Max are not a second version
    fs = judge(TypeFamily::text, std::nullopt, {v7, "", "0"});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-007"});
    CHECK(rule(fs, "DATA-ID-007")->examples == std::vector<std::string>{"''", "'0'"});
    fs = judge(TypeFamily::integer, std::nullopt, {"1", "2", "0"});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-007"});
    CHECK(judge(TypeFamily::integer, std::nullopt, {"1", "2"}).size() == 1);  // integers: only the dummy check
}

TEST_CASE("text column: other spellings are DATA-ID-002, with the spelling described") {
    std::string upper = v7;
    for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    auto fs = judge(TypeFamily::text, std::nullopt, {v7, upper, "{" + v7 + "}"});
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-002"});
    const Finding* f = rule(fs, "DATA-ID-002");
    CHECK(f->actual == "2 values in another spelling");
    CHECK(f->message == "2 values in another spelling in 3 values; the first: upper-case form of a valid UUIDv7");
    CHECK(rule(fs, "DATA-ID-003")->verdict == Verdict::passed);  // one version, in any spelling
}

TEST_CASE("ULIDs: upper case is R4, other text in a declared ULID column is R4 too") {
    const std::string ulid = "01arz3ndektsv4rrffq69g5fav";
    std::string upper = ulid;
    for (auto& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    auto fs = judge(TypeFamily::text, ids::IdKind::ulid, {ulid, ulid});
    CHECK(failed(fs).empty());
    CHECK(rule(fs, "R4")->message == "2 lower-case ULIDs in 2 values");
    fs = judge(TypeFamily::text, ids::IdKind::ulid, {ulid, upper});
    CHECK(failed(fs) == std::vector<std::string>{"R4"});
    fs = judge(TypeFamily::text, ids::IdKind::ulid, {ulid, "order-17"});
    REQUIRE(failed(fs) == std::vector<std::string>{"R4"});
    const Finding* bad = nullptr;
    for (const auto& f : fs)
        if (f.verdict == Verdict::failed) bad = &f;
    REQUIRE(bad);
    CHECK(bad->check == "values of the declared kind");
    CHECK(bad->examples == std::vector<std::string>{"order-17"});
    CHECK(bad->message.find("not a valid ulid") != std::string::npos);
    // undeclared: upper-case ULIDs still R4, other text not judged
    fs = judge(TypeFamily::text, std::nullopt, {upper, "order-17"});
    CHECK(failed(fs) == std::vector<std::string>{"R4"});
}

TEST_CASE("a declared viewable column: valid ids pass, others fail VIEWABLE-FORMAT") {
    auto fs = judge(TypeFamily::text, ids::IdKind::viewable, {"TR-ABCDEFG", "TR-0123456"});
    CHECK(failed(fs).empty());
    fs = judge(TypeFamily::text, ids::IdKind::viewable, {"TR-ABCDEFG", "tr-abcdefg"});
    CHECK(failed(fs) == std::vector<std::string>{"VIEWABLE-FORMAT"});
    CHECK(rule(fs, "VIEWABLE-FORMAT")->examples == std::vector<std::string>{"tr-abcdefg"});
}

TEST_CASE("examples are capped, counts are not") {
    std::vector<std::string> vals(50, nil);
    auto fs = judge(TypeFamily::uuid, std::nullopt, vals);
    const Finding* f = rule(fs, "DATA-ID-007");
    CHECK(f->examples.size() == max_examples);
    CHECK(f->actual == "Nil UUID 50");
}

TEST_CASE("v7 timestamps after the clock and its skew are DATA-ID-001") {
    // the RFC vector's time: 1645557742000 (2022-02-22T19:22:22.000Z)
    auto fs = judge(TypeFamily::uuid, std::nullopt, {v7}, 1645557742000 - 5000);  // exactly at the skew: fine
    CHECK(failed(fs).empty());
    const Finding* f = nullptr;
    for (const auto& x : fs)
        if (x.check == "v7 timestamps") f = &x;
    REQUIRE(f);
    CHECK(f->message == "no v7 timestamp after 2022-02-22T19:22:17.000Z + 5 s in 1 v7 values");
    fs = judge(TypeFamily::uuid, std::nullopt, {v7, v4}, 1645557742000 - 5001);
    CHECK(failed(fs) == std::vector<std::string>{"DATA-ID-003", "DATA-ID-001"});
    fs = judge(TypeFamily::uuid, std::nullopt, {v7}, 1645557742000 - 5001);
    REQUIRE(failed(fs) == std::vector<std::string>{"DATA-ID-001"});
    for (const auto& x : fs)
        if (x.verdict == Verdict::failed) {
            CHECK(x.message == "1 v7 timestamp in the future of 1 v7 values; the first at 2022-02-22T19:22:22.000Z");
            CHECK(x.examples == std::vector<std::string>{v7});
        }
    // without a clock: not judged
    fs = judge(TypeFamily::uuid, std::nullopt, {v7});
    for (const auto& x : fs) CHECK(x.check != "v7 timestamps");
}

TEST_CASE("uuidv8-legacy columns: flag, entity types of a key, hash with the salt") {
    const std::string salt = "unit-salt";
    auto legacy = [&](std::uint64_t id, std::uint32_t type) { return ids::format(ids::encode_legacy(id, type, salt)); };
    Col col(TypeFamily::uuid, ids::IdKind::uuidv8_legacy);
    col.j.key = true;
    auto run = [&](const std::vector<std::string>& values, std::optional<std::string> s) {
        ValueTally t(TypeFamily::uuid, ids::IdKind::uuidv8_legacy);
        t.set_legacy_salt(std::move(s));
        for (const auto& v : values) {
            const auto u = ids::parse_canonical(v);
            t.add(Value{std::string_view(reinterpret_cast<const char*>(u->bytes.data()), 16), false});
        }
        return t.findings(col.j);
    };
    auto fs = run({legacy(1, 200), legacy(2, 200)}, salt);
    CHECK(failed(fs).empty());
    CHECK(rule(fs, "LEGACY-DECODE")->message == "entity type 200 2");
    CHECK(rule(fs, "LEGACY-HASH")->message == "the hash bits of 2 legacy ids verify with the salt");
    fs = run({legacy(1, 200), legacy(2, 402)}, salt);
    CHECK(failed(fs) == std::vector<std::string>{"LEGACY-DECODE"});
    fs = run({legacy(1, 200)}, std::string("another salt"));
    CHECK(failed(fs) == std::vector<std::string>{"LEGACY-HASH"});
    fs = run({legacy(1, 200)}, std::nullopt);
    CHECK(failed(fs).empty());
    CHECK(rule(fs, "LEGACY-HASH")->verdict == Verdict::skipped);
    // a v8 with the flag clear is a new entity's, not a legacy id
    ids::Uuid clear = ids::encode_legacy(1, 200, salt);
    clear.bytes[0] &= 0x7f;
    fs = run({ids::format(clear)}, salt);
    CHECK(failed(fs) == std::vector<std::string>{"LEGACY-FLAG"});
}

TEST_CASE("uuidv8-legacy columns in another layout decode and verify with that layout") {
    ids::LegacyLayout layout;
    layout.id_bits = 31;
    layout.type_offset = 32;
    layout.type_bits = 16;
    REQUIRE(layout.validate().empty());
    const ids::Uuid u = ids::encode_legacy(7, 40000, "s", layout);  // a type that needs 16 bits
    Col col(TypeFamily::uuid, ids::IdKind::uuidv8_legacy);
    auto run = [&](const ids::LegacyLayout& l) {
        ValueTally t(TypeFamily::uuid, ids::IdKind::uuidv8_legacy);
        t.set_legacy_salt(std::string("s"), l);
        t.add(Value{std::string_view(reinterpret_cast<const char*>(u.bytes.data()), 16), false});
        return t.findings(col.j);
    };
    auto fs = run(layout);
    CHECK(failed(fs).empty());
    CHECK(rule(fs, "LEGACY-DECODE")->message == "entity type 40000 1");
    CHECK(failed(run({})) == std::vector<std::string>{"LEGACY-HASH"});  // read in the default layout
}
