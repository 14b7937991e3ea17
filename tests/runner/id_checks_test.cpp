// Unit tests of identifier checks: every kind, canonical form, Nil/Max,
// allow_null, equals, `minted` against the send/receive window widened by the
// skew, `unique` across calls, the advisory time_field check, the shape scan
// (DATA-ID-002/-007, nil-max, versions per field) and captures.
#include "test_support.hpp"

#include "ids/ids.hpp"
#include "runner/captures.hpp"

#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

#include <utility>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::runner::test;
namespace json = boost::json;

namespace {

CheckResult check_text(const suite::IdExpect& e, const json::value& v, Ctx& c, const Exchange& x = answered(200, "")) {
    return check_id(e, &v, x, c.ctx);
}

bool passes(std::string kind, const std::string& text, bool canonical = true) {
    Ctx c;
    auto e = id_at("/id", std::move(kind));
    e.canonical = canonical;
    return check_text(e, json::value(text), c).ok;
}

std::string ulid_at(std::int64_t ms) {
    ids::UlidGenerator g([ms] { return ms; });
    return ids::format_ulid(g.next(), true);
}

std::string upper(std::string s) {
    for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    return s;
}

}  // namespace

TEST_CASE("id kinds uuidv1..uuidv8: each vector passes its own version only") {
    const std::vector<std::pair<int, std::string>> vectors = {{1, v1_text}, {3, v3_text}, {4, v4_text}, {5, v5_text},
                                                              {6, v6_text}, {7, v7_text}, {8, v8_text}};
    for (const auto& [version, text] : vectors) {
        for (int want = 1; want <= 8; ++want) {
            CAPTURE(text);
            CAPTURE(want);
            CHECK(passes("uuidv" + std::to_string(want), text) == (want == version));
        }
        CHECK(passes("uuid", text));
    }
}

TEST_CASE("id: the check names what it looked at and why") {
    Ctx c;
    auto e = id_at("/id", "uuidv7");
    e.pos = {"s.yaml", 4, 9};
    auto r = check_text(e, json::value(v7_text), c);
    CHECK(r.ok);
    CHECK(r.what == "id /id uuidv7");
    CHECK(r.expected == "canonical uuidv7");
    CHECK(r.actual == "'" + v7_text + "': canonical valid UUIDv7");
    CHECK(r.rule == "TEST-RULE");
    CHECK(r.pos.str() == "s.yaml:4:9");
    r = check_text(e, json::value(v4_text), c);
    CHECK_FALSE(r.ok);
    CHECK(r.actual == "'" + v4_text + "': canonical valid UUIDv4");
    e.minted = true;
    e.allow_null = true;
    CHECK(check_text(e, json::value(nullptr), c).expected == "canonical uuidv7, minted during this step (or null/absent)");
    e.canonical = false;
    CHECK(check_text(e, json::value(nullptr), c).expected == "uuidv7, minted during this step (or null/absent)");
}

TEST_CASE("id: canonical versus other spellings") {
    const std::string no_hyphens = "017f22e279b07cc398c4dc0c0c07398f";
    const std::string braces = "{" + v7_text + "}";
    const std::string urn = "urn:uuid:" + v7_text;
    for (const auto& kind : {"uuid", "uuidv7"}) {
        const std::string k = kind;
        CAPTURE(k);
        CHECK(passes(kind, v7_text));
        CHECK_FALSE(passes(kind, v7_upper));
        CHECK_FALSE(passes(kind, no_hyphens));
        CHECK_FALSE(passes(kind, braces));
        CHECK_FALSE(passes(kind, urn));
        CHECK_FALSE(passes(kind, " " + v7_text));
        // canonical: false accepts any recognisable spelling of the same id
        CHECK(passes(kind, v7_upper, false));
        CHECK(passes(kind, no_hyphens, false));
        CHECK(passes(kind, braces, false));
    }
    Ctx c;
    const auto r = check_text(id_at("/id", "uuidv7"), json::value(v7_upper), c);
    CHECK(r.actual == "'" + v7_upper + "': upper-case form of a valid UUIDv7");
    // wrong variant: not an RFC 9562 v7
    CHECK_FALSE(passes("uuidv7", "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f"));
    CHECK_FALSE(passes("uuidv7", "017f22e2-79b0-7cc3-98c4-dc0c0c07398"));  // one char short
    CHECK_FALSE(passes("uuid", "not an id"));
    CHECK_FALSE(passes("uuid", ""));
}

TEST_CASE("id: Nil and Max never pass as uuid, uuidv4 or uuidv7") {
    for (const auto& kind : {"uuid", "uuidv4", "uuidv7", "uuidv8"}) {
        for (const auto& text : {nil_text, max_text, upper(max_text)}) {
            const std::string k = kind;
            CAPTURE(k);
            CAPTURE(text);
            CHECK_FALSE(passes(kind, text));
            CHECK_FALSE(passes(kind, text, false));
        }
    }
    Ctx c;
    auto r = check_text(id_at("/id", "uuidv4"), json::value(nil_text), c);
    CHECK(r.actual == "'" + nil_text + "': Nil UUID (special value, not a v4 or v7 identifier)");
    r = check_text(id_at("/id", "uuidv7"), json::value(max_text), c);
    CHECK(r.actual == "'" + max_text + "': Max UUID (special value, not a v4 or v7 identifier)");
}

TEST_CASE("id kind ulid: lower-case canonical") {
    const std::string u = ulid_at(v7_ms);
    REQUIRE(u.size() == 26);
    CHECK(passes("ulid", u));
    CHECK_FALSE(passes("ulid", upper(u)));
    CHECK(passes("ulid", upper(u), false));
    CHECK_FALSE(passes("ulid", v7_text));
    CHECK_FALSE(passes("ulid", u.substr(0, 25)));
    CHECK_FALSE(passes("ulid", "8" + u.substr(1)));  // > 128 bits
    CHECK_FALSE(passes("uuid", u));
    Ctx c;
    CHECK(check_text(id_at("/id", "ulid"), json::value(upper(u)), c).actual ==
          "'" + upper(u) + "': upper-case ULID (the wire form is lower-case)");
}

TEST_CASE("id kind viewable") {
    CHECK(passes("viewable", "TR-0123ABC"));
    CHECK(passes("viewable", "TR-ZZZZZZZ"));
    CHECK_FALSE(passes("viewable", "TR-0123abc"));
    CHECK_FALSE(passes("viewable", "TR-0123ABI"));  // I is not Crockford
    CHECK_FALSE(passes("viewable", "TR-0123AB"));
    CHECK_FALSE(passes("viewable", "XX-0123ABC"));
    CHECK_FALSE(passes("viewable", v7_text));
}

TEST_CASE("id kind uuidv8-legacy: v8, RFC variant and the legacy flag") {
    const std::string legacy = ids::format(ids::encode_legacy(12345, 402, "pepper"));
    CHECK(passes("uuidv8-legacy", legacy));
    CHECK(passes("uuidv8", legacy));
    CHECK_FALSE(passes("uuidv8-legacy", upper(legacy)));
    CHECK(passes("uuidv8-legacy", upper(legacy), false));
    CHECK_FALSE(passes("uuidv8-legacy", v8_text));  // RFC B.1: flag bit clear
    CHECK_FALSE(passes("uuidv8-legacy", v7_text));
    CHECK_FALSE(passes("uuidv8-legacy", max_text));
}

TEST_CASE("id: not a string") {
    Ctx c;
    const auto r = check_text(id_at("/id", "uuid"), json::value(123), c);
    CHECK_FALSE(r.ok);
    CHECK(r.actual == "123 (not a string)");
    CHECK_FALSE(check_text(id_at("/id", "uuid"), js(R"({"id":"x"})"), c).ok);
    CHECK_FALSE(check_text(id_at("/id", "uuid"), json::value(true), c).ok);
}

TEST_CASE("id allow_null: null and absent") {
    Ctx c;
    auto e = id_at("/ref", "uuidv7");
    const json::value null_v = nullptr;
    const auto x = answered(200, "");
    auto r = check_id(e, &null_v, x, c.ctx);
    CHECK_FALSE(r.ok);
    CHECK(r.actual == "null");
    r = check_id(e, nullptr, x, c.ctx);
    CHECK_FALSE(r.ok);
    CHECK(r.actual == "(absent)");
    e.allow_null = true;
    CHECK(check_id(e, &null_v, x, c.ctx).ok);
    CHECK(check_id(e, nullptr, x, c.ctx).ok);
    // allow_null does not make a bad id good
    CHECK_FALSE(check_text(e, json::value(""), c).ok);
    CHECK_FALSE(check_text(e, json::value(nil_text), c).ok);
    CHECK(check_text(e, json::value(v7_text), c).ok);
}

TEST_CASE("id allow_null: an answer with no body has no id, which allow_null accepts") {
    Ctx c;
    suite::Expect e;
    e.ids.push_back(id_at("/id", "any"));
    // 204 No Content to an update: without allow_null the id is missing
    auto out = evaluate(e, answered(204, ""), c.ctx);
    REQUIRE(out.size() == 1);
    CHECK_FALSE(out[0].ok);
    CHECK(out[0].actual == "the body is empty (no JSON at all)");
    e.ids[0].allow_null = true;
    out = evaluate(e, answered(204, ""), c.ctx);
    REQUIRE(out.size() == 1);
    CHECK(out[0].ok);
    CHECK(out[0].actual == "(absent)");
    // a body that is not JSON is no absent id
    out = evaluate(e, answered(200, "<html>ok</html>"), c.ctx);
    REQUIRE(out.size() == 1);
    CHECK_FALSE(out[0].ok);
    // and a body that names another id still fails
    e.ids[0].equals = v7_text;
    out = evaluate(e, answered(200, R"({"id":")" + v4_text + "\"}"), c.ctx);
    REQUIRE(out.size() == 1);
    CHECK_FALSE(out[0].ok);
}

TEST_CASE("id equals: exact text of the interpolated template") {
    Ctx c;
    c.scope.set("created", json::value(v7_text));
    auto e = id_at("/id", "uuidv7");
    e.equals = "${created}";
    auto r = check_text(e, json::value(v7_text), c);
    CHECK(r.ok);
    CHECK(r.what == "id /id equals");
    CHECK(r.expected == v7_text);
    CHECK(r.actual == v7_text);
    r = check_text(e, json::value(v4_text), c);
    CHECK_FALSE(r.ok);
    CHECK(r.actual == v4_text);
    CHECK_FALSE(check_text(e, json::value(v7_upper), c).ok);  // another spelling is another text
    e.equals = "${not_captured}";
    r = check_text(e, json::value(v7_text), c);
    CHECK_FALSE(r.ok);
    CHECK(r.expected == "equal to ${not_captured}");
    CHECK(r.actual == "undefined variable ${not_captured}");
}

TEST_CASE("id minted: inside the send/receive window widened by the skew, edges included") {
    Ctx c;  // skew 5000 ms
    auto e = id_at("/id", "uuidv7");
    e.minted = true;
    const json::value id = json::value(v7_text);
    auto at = [&](std::int64_t sent, std::int64_t received) { return check_id(e, &id, answered(201, "", {}, sent, received), c.ctx); };
    CHECK(at(v7_ms, v7_ms).ok);
    CHECK(at(v7_ms - 100, v7_ms + 100).ok);
    // lower edge: sent - skew == id time
    CHECK(at(v7_ms + 5000, v7_ms + 6000).ok);
    const auto late = at(v7_ms + 5001, v7_ms + 6000);
    CHECK_FALSE(late.ok);
    CHECK(late.actual == "'" + v7_text + "': canonical valid UUIDv7; its time 2022-02-22T19:22:22.000Z lies outside the "
                         "send/receive window 2022-02-22T19:22:22.001Z .. 2022-02-22T19:22:33.000Z (skew 5000 ms)");
    // upper edge: received + skew == id time
    CHECK(at(v7_ms - 6000, v7_ms - 5000).ok);
    CHECK_FALSE(at(v7_ms - 6000, v7_ms - 5001).ok);
    // a wider skew admits it again
    c.ctx.clock_skew = std::chrono::milliseconds(5001);
    CHECK(at(v7_ms + 5001, v7_ms + 6000).ok);
    c.ctx.clock_skew = std::chrono::milliseconds(0);
    CHECK(at(v7_ms, v7_ms).ok);
    CHECK_FALSE(at(v7_ms + 1, v7_ms + 1).ok);
    CHECK_FALSE(at(v7_ms - 1, v7_ms - 1).ok);
    // without `minted` the time does not matter
    e.minted = false;
    CHECK(at(v7_ms + 999999, v7_ms + 999999).ok);
}

TEST_CASE("id minted: ULIDs by their 48-bit time, other kinds carry no time") {
    Ctx c;
    c.ctx.clock_skew = std::chrono::milliseconds(1000);
    auto e = id_at("/id", "ulid");
    e.minted = true;
    const json::value u = json::value(ulid_at(v7_ms));
    CHECK(check_id(e, &u, answered(201, "", {}, v7_ms + 1000, v7_ms + 1000), c.ctx).ok);
    CHECK_FALSE(check_id(e, &u, answered(201, "", {}, v7_ms + 1001, v7_ms + 1001), c.ctx).ok);
    CHECK_FALSE(check_id(e, &u, answered(201, "", {}, v7_ms - 1001, v7_ms - 1001), c.ctx).ok);
    // a v4 has no time: `minted` cannot be shown, so it fails
    auto any = id_at("/id", "uuid");
    any.minted = true;
    const json::value v4 = json::value(v4_text);
    CHECK_FALSE(check_id(any, &v4, answered(201, "", {}, v7_ms, v7_ms), c.ctx).ok);
    const json::value v7 = json::value(v7_text);
    CHECK(check_id(any, &v7, answered(201, "", {}, v7_ms, v7_ms), c.ctx).ok);
}

TEST_CASE("id unique: a shared seen set across calls") {
    Ctx c;
    auto e = id_at("/id", "uuid");
    e.unique = true;
    e.canonical = false;
    auto r = check_text(e, json::value(v7_text), c);
    CHECK(r.ok);
    CHECK(r.what == "id /id uuid unique");
    CHECK(check_text(e, json::value(v4_text), c).ok);
    r = check_text(e, json::value(v7_text), c);
    CHECK_FALSE(r.ok);
    CHECK(r.actual == "'" + v7_text + "': canonical valid UUIDv7; the same id was already returned earlier in this run "
                      "(ids must be distinct and never reused)");
    // the same 128 bits in another spelling are the same id
    CHECK_FALSE(check_text(e, json::value(v4_text.substr(0, 8) + upper(v4_text.substr(8))), c).ok);
    CHECK(c.seen == std::set<std::string>{v4_text, v7_text});
    // a failing id is not remembered
    auto strict = id_at("/id", "uuidv7");
    strict.unique = true;
    CHECK_FALSE(check_text(strict, json::value(v1_text), c).ok);
    CHECK(c.seen.count(v1_text) == 0);
    // without a seen set, uniqueness is not checked
    c.ctx.seen_ids = nullptr;
    CHECK(check_text(e, json::value(v7_text), c).ok);
}

TEST_CASE("id checks through evaluate: body pointer and Location header") {
    Ctx c;
    suite::Expect e;
    e.ids.push_back(id_at("/data/id", "uuidv7"));
    suite::IdExpect h;
    h.header = "location";
    h.kind = "uuidv7";
    e.ids.push_back(h);
    const auto x = answered(201, R"({"data":{"id":")" + v7_text + R"("}})",
                            {{"Location", "http://127.0.0.1:8080/items/" + v7_text + "?expand=1"}});
    auto out = evaluate(e, x, c.ctx);
    REQUIRE(out.size() == 2);
    CHECK(out[0].ok);
    CHECK(out[0].what == "id /data/id uuidv7");
    CHECK(out[1].ok);
    CHECK(out[1].what == "id header location uuidv7");
    const auto y = answered(201, R"({"data":{}})", {{"Location", "/items/" + v7_upper}});
    out = evaluate(e, y, c.ctx);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].ok);
    CHECK(out[0].actual == "(absent)");
    CHECK_FALSE(out[1].ok);
    const auto z = answered(201, R"({"data":{}})");
    out = evaluate(e, z, c.ctx);
    CHECK_FALSE(out[1].ok);
    CHECK(out[1].actual == "(absent)");
    // pointer as a variable
    c.scope.set("res", js(R"({"id_at":"/data/id"})"));
    suite::Expect v;
    v.ids.push_back(id_at("${res.id_at}", "uuidv7"));
    out = evaluate(v, x, c.ctx);
    REQUIRE(out.size() == 1);
    CHECK(out[0].ok);
    CHECK(out[0].what == "id /data/id uuidv7");
}

namespace {
std::vector<CheckResult> time_checks(const std::string& id, const std::string& time_member_json, Ctx& c) {
    suite::Expect e;
    auto ie = id_at("/id", "uuid");
    ie.time_field = "/created_at";
    e.ids.push_back(ie);
    std::string b = R"({"id":")" + id + "\"";
    if (!time_member_json.empty()) b += R"(,"created_at":)" + time_member_json;
    return evaluate(e, answered(201, b + "}"), c.ctx);
}
}  // namespace

TEST_CASE("time_field (advisory DATA-ID-005): absent or derived from the id is a warning") {
    Ctx c;
    SUBCASE("absent field") {
        const auto out = time_checks(v7_text, "", c);
        REQUIRE(out.size() == 2);
        CHECK(out[0].ok);
        CHECK_FALSE(out[1].ok);
        CHECK(out[1].warning);
        CHECK(out[1].what == "time field /created_at");
        CHECK(out[1].actual == "(absent): the entity has no explicit time field; ordering by id is not business time");
    }
    SUBCASE("equal to the id's millisecond") {
        for (const auto* t : {R"("2022-02-22T19:22:22.000Z")", R"("2022-02-22T19:22:22Z")", R"("2022-02-22T19:22:22.000000+00:00")"}) {
            const std::string time = t;
            CAPTURE(time);
            const auto out = time_checks(v7_text, t, c);
            REQUIRE(out.size() == 2);
            CHECK_FALSE(out[1].ok);
            CHECK(out[1].warning);
            CHECK(out[1].actual == std::string(t) + ": derived from the id (equals its unix_ts_ms to the millisecond)");
        }
    }
    SUBCASE("microsecond precision or another time: no warning") {
        for (const auto* t : {R"("2022-02-22T19:22:22.000123Z")", R"("2022-02-22T19:22:22.001Z")", R"("2022-02-22T19:22:21.999Z")",
                              R"(1645557742000)", R"("not a time")"}) {
            const std::string time = t;
            CAPTURE(time);
            const auto out = time_checks(v7_text, t, c);
            REQUIRE(out.size() == 2);
            CHECK(out[1].ok);
            CHECK_FALSE(out[1].warning);
            CHECK(out[1].expected == "an explicit time, not derived from the id");
        }
    }
    SUBCASE("a v4 id has no time to copy") {
        const auto out = time_checks(v4_text, R"("2022-02-22T19:22:22.000Z")", c);
        REQUIRE(out.size() == 2);
        CHECK(out[1].ok);
    }
    SUBCASE("no id, no time check") {
        suite::Expect e;
        auto ie = id_at("/id", "uuid");
        ie.time_field = "/created_at";
        e.ids.push_back(ie);
        const auto out = evaluate(e, answered(201, "{}"), c.ctx);
        REQUIRE(out.size() == 1);
        CHECK_FALSE(out[0].ok);
    }
}

TEST_CASE("advisory expectation: failing id checks become warnings") {
    Ctx c;
    suite::Expect e;
    e.ids.push_back(id_at("/id", "uuidv7"));
    e.ids.push_back(id_at("/ok", "uuidv4"));
    e.advisory = true;
    e.rule = "DATA-ID-003";
    const auto out = evaluate(e, answered(200, R"({"id":")" + v4_text + R"(","ok":")" + v4_text + "\"}"), c.ctx);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].ok);
    CHECK(out[0].warning);
    CHECK(out[0].rule == "DATA-ID-003");
    CHECK(out[1].ok);
    CHECK_FALSE(out[1].warning);
}

// ------------------------------------------------------------ shape scan

namespace {
std::vector<std::pair<std::string, std::string>> findings(const std::vector<CheckResult>& out) {
    std::vector<std::pair<std::string, std::string>> f;
    for (const auto& c : out) f.emplace_back(c.rule, c.what);
    return f;
}
using Findings = std::vector<std::pair<std::string, std::string>>;
}  // namespace

TEST_CASE("scan_ids: non-canonical spellings anywhere are DATA-ID-002 with their pointer") {
    const std::string u = ulid_at(v7_ms);
    const auto b = js(R"({
        "id": ")" + v7_upper + R"(",
        "items": [
            {"ref": "017f22e279b07cc398c4dc0c0c07398f"},
            {"ref": "{)" + v7_text + R"(}"},
            {"deep": [["017F22E2-79b0-7cc3-98c4-dc0c0c07398f"]]}
        ],
        "a/b": "urn:uuid:)" + v7_text + R"(",
        "m~n": ")" + upper(u) + R"(",
        "fine": ")" + v7_text + R"(",
        "fine4": ")" + v4_text + R"(",
        "ulid": ")" + u + R"("
    })");
    const auto out = scan_ids(b, nullptr);
    CHECK(findings(out) == Findings{{"DATA-ID-002", "shape scan /id"},
                                    {"DATA-ID-002", "shape scan /items/0/ref"},
                                    {"DATA-ID-002", "shape scan /items/1/ref"},
                                    {"DATA-ID-002", "shape scan /items/2/deep/0/0"},
                                    {"DATA-ID-002", "shape scan /a~1b"},
                                    {"DATA-ID-002", "shape scan /m~0n"}});
    for (const auto& c : out) {
        CHECK_FALSE(c.ok);
        CHECK_FALSE(c.warning);
        CHECK(c.expected == "ids on the wire in canonical lower-case form");
    }
    REQUIRE(out.size() == 6);
    CHECK(out[0].actual == "'" + v7_upper + "': upper-case form of a valid UUIDv7");
    CHECK(out[1].actual == "'017f22e279b07cc398c4dc0c0c07398f': hyphen-less form of a valid UUIDv7");
    CHECK(out[5].actual == "'" + upper(u) + "': upper-case ULID (the wire form is lower-case)");
    // a root-level string has the root pointer
    const auto root = scan_ids(json::value(v7_upper), nullptr);
    CHECK(findings(root) == Findings{{"DATA-ID-002", "shape scan (root)"}});
}

TEST_CASE("scan_ids: Nil/Max are nil-max, or DATA-ID-007 in id-named members") {
    const auto b = js(R"({
        "id": ")" + nil_text + R"(",
        "owner_id": ")" + max_text + R"(",
        "parentId": ")" + nil_text + R"(",
        "ID": ")" + nil_text + R"(",
        "parent": ")" + nil_text + R"(",
        "marker": ")" + max_text + R"(",
        "list": [")" + nil_text + R"("],
        "refs": {"account_id": [")" + max_text + R"("]}
    })");
    const auto out = scan_ids(b, nullptr);
    CHECK(findings(out) == Findings{{"DATA-ID-007", "shape scan /id"},
                                    {"DATA-ID-007", "shape scan /owner_id"},
                                    {"DATA-ID-007", "shape scan /parentId"},
                                    {"DATA-ID-007", "shape scan /ID"},
                                    {"nil-max", "shape scan /parent"},
                                    {"nil-max", "shape scan /marker"},
                                    {"nil-max", "shape scan /list/0"},
                                    {"DATA-ID-007", "shape scan /refs/account_id/0"}});
    REQUIRE(out.size() == 8);
    CHECK(out[0].actual == "'" + nil_text + "': Nil UUID (special value, not a v4 or v7 identifier) used as a placeholder");
    CHECK(out[0].expected == "a real id, or null/omitted when absent");
    CHECK(out[5].actual == "'" + max_text + "': Max UUID (special value, not a v4 or v7 identifier) used as a placeholder");
}

TEST_CASE("scan_ids: \"\" and 0 in id-named members are dummies (DATA-ID-007)") {
    const auto b = js(R"({
        "id": 0, "x_id": "", "xId": 0, "_id": "", "userId": "",
        "name": "", "count": 0, "ids": "", "idea": 0, "paid": 0, "valid": "",
        "ok_id": 5, "null_id": null, "float_id": 1.5
    })");
    const auto out = scan_ids(b, nullptr);
    CHECK(findings(out) == Findings{{"DATA-ID-007", "shape scan /id"},
                                    {"DATA-ID-007", "shape scan /x_id"},
                                    {"DATA-ID-007", "shape scan /xId"},
                                    {"DATA-ID-007", "shape scan /_id"},
                                    {"DATA-ID-007", "shape scan /userId"}});
    REQUIRE(out.size() == 5);
    CHECK(out[0].actual == "0 (a dummy id)");
    CHECK(out[1].actual == "\"\" (empty string as a dummy id)");
    CHECK(out[0].expected == "null or an omitted field for an absent id");
}

TEST_CASE("scan_ids: canonical ids, ordinary strings and timestamps pass") {
    const auto b = js(R"({
        "id": ")" + v7_text + R"(", "other_id": ")" + v4_text + R"(", "ulid": ")" + ulid_at(v7_ms) + R"(",
        "created_at": "2022-02-22T19:22:22.000Z", "name": "Widget", "sku": "ABC-123", "n": 42,
        "hex": "deadbeef", "word": "abcdefghijklmnopqrstuvwxyz", "flag": true, "none": null,
        "nested": [{"v1": ")" + v1_text + R"("}, {"v8": ")" + v8_text + R"("}]
    })");
    CHECK(scan_ids(b, nullptr).empty());
    CHECK(scan_ids(js("[]"), nullptr).empty());
    CHECK(scan_ids(json::value(nullptr), nullptr).empty());
}

TEST_CASE("scan_ids: a canonical UUID with a non-RFC variant is DATA-ID-002") {
    const auto out = scan_ids(js(R"({"id":"017f22e2-79b0-7cc3-c8c4-dc0c0c07398f"})"), nullptr);
    CHECK(findings(out) == Findings{{"DATA-ID-002", "shape scan /id"}});
}

TEST_CASE("scan_ids: versions collected per shape pointer, array indices as *") {
    std::map<std::string, std::set<int>> versions;
    const auto b = js(R"({
        "items": [{"id": ")" + v7_text + R"("}, {"id": ")" + v4_text + R"("}, {"id": ")" + v7_text + R"("}],
        "owner": {"id": ")" + v7_text + R"("},
        "matrix": [[")" + v1_text + R"("]],
        "ulid": ")" + ulid_at(v7_ms) + R"(",
        "bad": ")" + v7_upper + R"(",
        "nil": ")" + nil_text + R"("
    })");
    (void)scan_ids(b, &versions);
    CHECK(versions == std::map<std::string, std::set<int>>{
                          {"/items/*/id", {4, 7}}, {"/owner/id", {7}}, {"/matrix/*/*", {1}}});
    // a second answer adds to the same map
    (void)scan_ids(js(R"({"owner":{"id":")" + v4_text + R"("}})"), &versions);
    CHECK(versions.at("/owner/id") == std::set<int>{4, 7});
}

// -------------------------------------------------------------- captures

namespace {
suite::Capture cap(std::string var, suite::Capture::From from, std::string path) {
    suite::Capture c;
    c.var = std::move(var);
    c.from = from;
    c.path = std::move(path);
    c.pos = {"suite.yaml", 20, 5};
    return c;
}
}  // namespace

TEST_CASE("captures: json pointer, whole body, header, status") {
    Scope s;
    s.set("res", js(R"({"id_at":"/data/id"})"));
    const auto x = answered(201, R"({"data":{"id":")" + v7_text + R"(","n":0,"none":null}})", {{"Location", "/items/x"}});
    const std::vector<suite::Capture> caps = {
        cap("created", suite::Capture::From::json, "/data/id"),
        cap("via_var", suite::Capture::From::json, "${res.id_at}"),
        cap("n", suite::Capture::From::json, "/data/n"),
        cap("none", suite::Capture::From::json, "/data/none"),
        cap("whole", suite::Capture::From::json, ""),
        cap("loc", suite::Capture::From::header, "location"),
        cap("code", suite::Capture::From::status, ""),
    };
    auto r = apply_captures(caps, x, s);
    REQUIRE_MESSAGE(r.has_value(), r.error());
    CHECK(*s.find("created") == json::value(v7_text));
    CHECK(*s.find("via_var") == json::value(v7_text));
    CHECK(*s.find("n") == json::value(0));
    CHECK(s.find("none")->is_null());
    CHECK(*s.find("whole") == js(x.response->body));
    CHECK(*s.find("loc") == json::value("/items/x"));
    CHECK(*s.find("code") == json::value(201));
}

TEST_CASE("captures: what is missing is an error naming the capture") {
    Scope s;
    const auto x = answered(200, R"({"data":{}})");
    auto r = apply_captures({cap("first", suite::Capture::From::status, ""), cap("created", suite::Capture::From::json, "/data/id"),
                             cap("never", suite::Capture::From::status, "")},
                            x, s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "capture 'created': nothing at /data/id (suite.yaml:20:5)");
    CHECK(s.find("first") != nullptr);  // earlier captures are kept
    CHECK(s.find("never") == nullptr);  // later ones are not run
    CHECK(s.find("created") == nullptr);

    r = apply_captures({cap("loc", suite::Capture::From::header, "Location")}, x, s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "capture 'loc': header Location is absent (suite.yaml:20:5)");

    r = apply_captures({cap("id", suite::Capture::From::json, "/id")}, answered(200, "not json"), s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "capture 'id': body is not JSON (suite.yaml:20:5)");

    r = apply_captures({cap("id", suite::Capture::From::json, "/id")}, answered(202, ""), s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "capture 'id': the answer has no body (suite.yaml:20:5)");

    // A pack's pointer is a variable: the message names what it stands for.
    s.set("res.id_at", boost::json::value("/data/id"));
    r = apply_captures({cap("created", suite::Capture::From::json, "${res.id_at}")}, x, s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "capture 'created': nothing at /data/id (suite.yaml:20:5)");

    r = apply_captures({cap("id", suite::Capture::From::json, "no-slash")}, x, s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "capture 'id': nothing at no-slash (suite.yaml:20:5)");

    Exchange failed;
    failed.error = TransportError{TransportErrorKind::connect, "refused"};
    r = apply_captures({cap("id", suite::Capture::From::status, "")}, failed, s);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error() == "no response to capture from");
}
