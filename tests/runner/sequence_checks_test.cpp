// Unit tests of the checks over many ids (sequence_checks.hpp) and of the
// pack additions to the single id check: distinct, same, ULID time order,
// the randomness test (a real CSPRNG generator passes; counters, fixed
// symbols and skewed alphabets fail), id members of one kind (R1), the
// legacy UUIDv8 fields and hash, configured patterns and `collect`.
#include "test_support.hpp"

#include "ids/ids.hpp"
#include "runner/sequence_checks.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;
namespace json = boost::json;

namespace {

std::string ulid_at(std::int64_t ms) {
    ids::UlidGenerator g([ms] { return ms; });
    return ids::format_ulid(g.next(), true);
}

// The 35-bit number n as "TR-" and 7 Crockford symbols.
std::string counted(std::uint64_t n) {
    static constexpr char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    std::string out = "TR-";
    for (int i = 6; i >= 0; --i) out += alphabet[(n >> (5 * i)) & 31];
    return out;
}

}  // namespace

TEST_CASE("distinct and same") {
    CHECK(check_distinct({"a", "b", "c"}).ok);
    const auto d = check_distinct({"a", "b", "a"});
    CHECK_FALSE(d.ok);
    CHECK(d.actual == "value 3 'a' repeats value 1 (of 3)");
    CHECK(check_same({"x", "x", "x"}).ok);
    const auto s = check_same({"x", "x", "y"});
    CHECK_FALSE(s.ok);
    CHECK(s.actual == "value 3 is 'y', value 1 was 'x'");
    CHECK_FALSE(check_same({}).ok);
}

TEST_CASE("ULID time order") {
    CHECK(check_time_ordered({ulid_at(1000), ulid_at(1000), ulid_at(1001), ulid_at(5000)}).ok);
    const auto bad = check_time_ordered({ulid_at(2000), ulid_at(1000)});
    CHECK_FALSE(bad.ok);
    CHECK(bad.actual.find("value 2") == 0);
    CHECK(bad.actual.find("before value 1's 1970-01-01T00:00:02.000Z") != std::string::npos);
    // any case is read (R4 is checked elsewhere); a non-ULID is reported
    std::string upper = ulid_at(3000);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(check_time_ordered({ulid_at(2000), upper}).ok);
    const auto junk = check_time_ordered({ulid_at(2000), "nope"});
    CHECK_FALSE(junk.ok);
    CHECK(junk.actual.find("is not a ULID") != std::string::npos);
}

TEST_CASE("randomness: a CSPRNG generator passes") {
    // Fails with probability about 2e-8 per run (docs/packs.md).
    std::vector<std::string> v;
    for (int i = 0; i < 100; ++i) v.push_back(ids::generate_viewable());
    const auto r = check_random(v, "TR-");
    INFO(r.actual);
    CHECK(r.ok);
    const RandomnessStats s = randomness_stats(v, "TR-");
    CHECK(s.length == 7);
    CHECK(s.dominance_limit == 22);  // smallest k with 224 * P(Bin(100, 1/32) >= k) <= 1e-9
    CHECK(s.ascent_limit == doctest::Approx(17.4069).epsilon(1e-4));
}

TEST_CASE("randomness: counters, fixed symbols and skewed alphabets fail") {
    std::vector<std::string> up, down, near, fixed, skewed;
    const std::uint64_t start = 0x2f3a1b4c5ull;
    for (std::uint64_t i = 0; i < 100; ++i) {
        up.push_back(counted(start + i * 7919));             // increasing: the order gives it away
        down.push_back(counted(start - i * 7919));
        near.push_back(counted(start + (i % 2 == 0 ? i : 100 - i)));  // neither up nor down, but close
    }
    CHECK(check_random(up, "TR-").actual.find("99 of 99 values are greater") == 0);
    CHECK(check_random(down, "TR-").actual.find("0 of 99 values are greater") == 0);
    CHECK_FALSE(check_random(near, "TR-").ok);
    // two random symbols, the rest fixed
    for (int i = 0; i < 100; ++i) fixed.push_back("TR-00000" + ids::generate_viewable().substr(3, 2));
    const auto f = check_random(fixed, "TR-");
    CHECK_FALSE(f.ok);
    CHECK(f.actual.find("low entropy") != std::string::npos);
    // only the 16 symbols 0-9A-F, uniformly
    for (int i = 0; i < 100; ++i) {
        std::string t = ids::generate_viewable();
        for (std::size_t j = 3; j < t.size(); ++j) t[j] = "0123456789ABCDEF"[ids::crockford_value(t[j]) % 16];
        skewed.push_back(t);
    }
    const auto k = check_random(skewed, "TR-");
    CHECK_FALSE(k.ok);
    CHECK(k.actual.find("chi-square") != std::string::npos);
}

TEST_CASE("randomness: input it cannot test") {
    std::vector<std::string> few(10, "TR-0000000");
    CHECK(check_random(few, "TR-").actual.find("too few values") == 0);
    std::vector<std::string> v;
    for (int i = 0; i < 40; ++i) v.push_back(ids::generate_viewable());
    v[5] = "XX-0000000";
    CHECK(check_random(v, "TR-").actual.find("value 6 'XX-0000000' does not start with 'TR-'") == 0);
    v[5] = "TR-000000";
    CHECK(check_random(v, "TR-").actual.find("has 6 symbols after the prefix") != std::string::npos);
    v[5] = "TR-000000i";
    CHECK(check_random(v, "TR-").actual.find("not an upper-case Crockford") != std::string::npos);
}

TEST_CASE("id members of one kind (R1)") {
    const std::string a = ulid_at(1000), b = ulid_at(2000);
    const auto ok = check_id_members(js(R"({"id":")" + a + R"(","job_id":")" + b + R"(","parent_id":null,"items":[{"id":")" +
                                        b + R"("}],"name":"x"})"),
                                     "ulid");
    REQUIRE(ok.size() == 1);
    CHECK(ok[0].ok);
    CHECK(ok[0].actual == "3 id-named members, all ulid");
    const auto bad = check_id_members(js(R"({"id":")" + a + R"(","invoice_id":1001,"links":{"ownerId":")" + v7_text + R"("}})"),
                                      "ulid");
    REQUIRE(bad.size() == 2);
    CHECK(bad[0].what == "id member /invoice_id");
    CHECK(bad[0].actual == "1001 (an integer key beside ulid ids)");
    CHECK(bad[1].what == "id member /links/ownerId");
    CHECK(bad[1].actual.find("UUIDv7") != std::string::npos);
    // letter case is R4's: an upper-case ULID is still a ULID here
    std::string upper = a;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK(check_id_members(js(R"({"id":")" + upper + R"("})"), "ulid")[0].ok);
}

TEST_CASE("id members (R1): ids of requests, traces and other systems are not the repository's, whatever their name's case") {
    const std::string a = ulid_at(1000);
    const auto r = check_id_members(js(R"({"id":")" + a + R"(","external_id":"cus_9f2","traceID":"4bf92f3577b34da6","x-request-id":"r-1",)"
                                       R"("meta":{"correlationId":7,"orderID":")" + a + R"("}})"),
                                    "ulid");
    REQUIRE(r.size() == 1);
    CHECK(r[0].ok);
    CHECK(r[0].actual == "2 id-named members, all ulid");  // id and the Go-style orderID
    const auto bad = check_id_members(js(R"({"id":")" + a + R"(","ownerUUID":"42"})"), "ulid");
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].what == "id member /ownerUUID");
}

TEST_CASE("id members (R1): members the profile declares are judged by their declared kind") {
    // Issue #13: a viewable id TR-... beside the ULID key is not an R1 failure.
    const std::string a = ulid_at(1000);
    const std::string body = R"({"items":[{"id":")" + a + R"(","viewable_id":"TR-8F2K3P2","tracking_id":")" +
                             std::string(v4_text) + R"(","invoice_id":7}]})";
    const std::vector<DeclaredMember> declared = {{"/id", "ulid"}, {"/viewable_id", "viewable"}, {"/tracking_id", "uuidv4"}};
    const auto undeclared = check_id_members(js(body), "ulid");
    CHECK(undeclared.size() == 3);  // without the declarations all three are held to ulid
    const auto v = check_id_members(js(body), "ulid", declared);
    REQUIRE(v.size() == 1);  // only the undeclared integer key
    CHECK(v[0].what == "id member /items/0/invoice_id");
    const auto ok = check_id_members(js(R"({"id":")" + a + R"(","viewable_id":"TR-8F2K3P2","tracking_id":")" +
                                        std::string(v4_text) + R"("})"),
                                     "ulid", declared);
    REQUIRE(ok.size() == 1);
    CHECK(ok[0].ok);
    CHECK(ok[0].actual.find("1 declared member of a kind with rules of its own") != std::string::npos);
    // A declared field is judged by its kind: a v7 where the profile says uuidv4 still fails.
    const auto wrong = check_id_members(js(R"({"id":")" + a + R"(","tracking_id":")" + std::string(v7_text) + R"("})"),
                                        "ulid", declared);
    REQUIRE(wrong.size() == 1);
    CHECK_FALSE(wrong[0].ok);
    CHECK(wrong[0].expected == "a uuidv4, the kind the profile declares for /tracking_id");
    // A declared pointer matches on token boundaries only.
    CHECK_FALSE(check_id_members(js(R"({"xviewable_id":"TR-8F2K3P2"})"), "ulid", declared)[0].ok);
}

TEST_CASE("id check: legacy UUIDv8 flag, fields and hash with a configured layout") {
    const ids::LegacyLayout layout;
    const std::string good = ids::format(ids::encode_legacy(17, 500, "salt", layout));
    Ctx c;
    auto e = id_at("/id", "uuidv8-legacy");
    suite::IdExpect::Legacy l;
    l.layout = ids::format_layout(layout);
    l.legacy_id = "17";
    l.entity_type = "500";
    l.salt = "salt";
    e.legacy = l;
    CHECK_FALSE(check_id(e, nullptr, answered(200, ""), c.ctx).ok);  // absent
    const json::value v(good);
    CHECK(check_id(e, &v, answered(200, ""), c.ctx).ok);
    e.legacy->legacy_id = "18";
    auto r = check_id(e, &v, answered(200, ""), c.ctx);
    CHECK_FALSE(r.ok);
    CHECK(r.actual.find("legacy id 17, entity type 500") != std::string::npos);
    e.legacy->legacy_id = "17";
    e.legacy->salt = "other";
    r = check_id(e, &v, answered(200, ""), c.ctx);
    CHECK_FALSE(r.ok);
    CHECK(r.actual.find("the hash bits do not verify with the salt") != std::string::npos);
    e.legacy->salt.clear();
    e.legacy->layout = "id=1:32 nonsense";
    r = check_id(e, &v, answered(200, ""), c.ctx);
    CHECK_FALSE(r.ok);
    CHECK(r.actual.find("bad layout") == 0);
    // the flag clear: not a legacy id
    ids::Uuid u = ids::encode_legacy(17, 500, "salt", layout);
    u.bytes[0] &= 0x7f;
    e.legacy->layout.clear();
    const json::value flagless(ids::format(u));
    CHECK_FALSE(check_id(e, &flagless, answered(200, ""), c.ctx).ok);
}

TEST_CASE("id check: a configured pattern and collect") {
    std::map<std::string, std::vector<std::string>> lists;
    Ctx c;
    c.ctx.collected = &lists;
    c.scope.set("fmt", json::value("^AB-[0-9A-HJKMNP-TV-Z]{4}$"));
    auto e = id_at("/v", "viewable");
    e.pattern = "${fmt}";
    e.collect = "vids";
    const json::value good("AB-7Z0Q"), bad("TR-7Z0QAAA");
    CHECK(check_id(e, &good, answered(200, ""), c.ctx).ok);
    CHECK_FALSE(check_id(e, &bad, answered(200, ""), c.ctx).ok);
    CHECK(lists["vids"] == std::vector<std::string>{"AB-7Z0Q", "TR-7Z0QAAA"});
    e.pattern = "([";
    CHECK(check_id(e, &good, answered(200, ""), c.ctx).actual.find("bad pattern") == 0);
}

TEST_CASE("layout text round-trips and reports what is wrong") {
    ids::LegacyLayout l;
    l.hash2_bits = 40;
    const auto back = ids::parse_layout(ids::format_layout(l));
    REQUIRE(back);
    CHECK(*back == l);
    std::string why;
    CHECK_FALSE(ids::parse_layout("flag=0 colour=1:2", &why));
    CHECK(why.find("unknown layout field 'colour'") == 0);
    CHECK_FALSE(ids::parse_layout("id=1", &why));
    CHECK(why == "id=1 is not offset:bits");
    CHECK_FALSE(ids::parse_layout("id=40:32", &why));
    CHECK(why.find("overlaps") != std::string::npos);
}

TEST_CASE("viewable mutations of a live id") {
    const auto f = ids::infer_viewable_format("TR-8F2K3P2");
    REQUIRE(f);
    CHECK(f->prefix == "TR-");
    CHECK(f->length == 7);
    CHECK_FALSE(ids::infer_viewable_format("TR8F2K3P2"));
    CHECK_FALSE(ids::infer_viewable_format("TR-8f2k3p2"));
    const auto m = ids::viewable_mutations("TR-8F2K3P2", *f);
    std::map<std::string, std::string> by_name;
    for (const auto& x : m) by_name[x.name] = x.text;
    CHECK(by_name["lower-case"] == "tr-8f2k3p2");
    CHECK(by_name["mixed-case"] == "TR-8f2K3P2");
    CHECK(by_name["excluded-letter-i"] == "TR-8F2K3PI");
    CHECK(by_name["excluded-letter-u"] == "TR-8F2K3PU");
    CHECK(by_name["one-symbol-short"] == "TR-8F2K3P");
    CHECK(by_name["one-symbol-long"] == "TR-8F2K3P20");
    CHECK(by_name["wrong-prefix"] == "XR-8F2K3P2");
    CHECK(by_name["no-prefix"] == "8F2K3P2");
    for (const auto& x : m) CHECK(ids::check_viewable(x.text, *f) != ids::ViewableError::none);
    // all digits: the prefix still makes the lower-case form differ; no mixed-case form
    const auto digits = ids::viewable_mutations("TR-1234567", *f);
    bool mixed = false;
    for (const auto& x : digits) mixed = mixed || x.name == "mixed-case";
    CHECK_FALSE(mixed);
    CHECK(digits.front().text == "tr-1234567");
}
