// Unit tests of what the harness makes from a declared kind (ids/of_kind.hpp):
// the mutations of a kind have the same names whatever the live id's text
// (json-server 1.x's "xU4Kw_aif-Q", which reads as a viewable id, included),
// the texts are the generators' own, a mutation an id does not admit says
// why; fresh ids are of the declared kind, and texts made for a pattern match
// it (checked with RE2, which has the last word).
#include "ids/of_kind.hpp"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace ids = idconform::ids;
using ids::IdKind;

namespace {

std::vector<std::string> names_of(const std::vector<ids::KindMutation>& ms) {
    std::vector<std::string> out;
    for (const auto& m : ms) out.push_back(m.name);
    return out;
}

const ids::KindMutation& named(const std::vector<ids::KindMutation>& ms, const std::string& name) {
    const auto it = std::find_if(ms.begin(), ms.end(), [&](const ids::KindMutation& m) { return m.name == name; });
    REQUIRE_MESSAGE(it != ms.end(), name);
    return *it;
}

}  // namespace

TEST_CASE("mutations of a declared kind: the same names for ids of different text") {
    // json-server 1.x hands out ids like these; the first one ends in "-Q",
    // which reads as a viewable id (prefix "xU4Kw_aif-", one symbol): judged
    // by its text it got viewable mutations, by its kind it gets the kind's.
    const std::vector<std::string> opaque = {"xU4Kw_aif-Q", "xU4Kw_aifQq", "12", "abc", "ABC-DEF", "a"};
    const auto want = ids::mutation_names(IdKind::existing);
    for (const auto& id : opaque) {
        const auto ms = ids::mutations_of_kind(IdKind::existing, id);
        CHECK_MESSAGE(names_of(ms) == want, id);
        for (const auto& m : ms) {
            CHECK_MESSAGE(m.text.empty() == !m.not_applicable.empty(), id, " ", m.name);
            if (m.not_applicable.empty()) CHECK(m.text != id);
            else CHECK(m.not_applicable.rfind("not applicable: ", 0) == 0);
        }
    }
    // What applies to which text is said, not left out.
    const auto numeric = ids::mutations_of_kind(IdKind::existing, "12");
    CHECK(named(numeric, "upper-case").not_applicable.find("no lower-case letter") != std::string::npos);
    CHECK(named(numeric, "one-char-short").not_applicable.find("another entity") != std::string::npos);
    CHECK(named(numeric, "leading-zero").text == "012");
    const auto nano = ids::mutations_of_kind(IdKind::existing, "xU4Kw_aif-Q");
    CHECK(named(nano, "upper-case").text == "XU4KW_AIF-Q");
    CHECK(named(nano, "leading-zero").not_applicable.find("not a number") != std::string::npos);
    CHECK(named(nano, "one-char-long").text == "xU4Kw_aif-QQ");
}

TEST_CASE("mutations of UUID kinds: the kind's version is left out, not the live id's") {
    const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";  // RFC 9562 A.6
    const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";  // RFC 9562 A.3
    const auto names = ids::mutation_names(IdKind::uuidv7);
    CHECK(std::count(names.begin(), names.end(), "version-7") == 0);
    CHECK(std::count(names.begin(), names.end(), "version-4") == 1);
    // A valid id of the kind: exactly the generator's mutations, in its order.
    const auto ms = ids::mutations_of_kind(IdKind::uuidv7, v7);
    const auto made = ids::mutations(*ids::parse_canonical(v7));
    REQUIRE(ms.size() == made.size());
    for (std::size_t i = 0; i < ms.size(); ++i) {
        CHECK(ms[i].name == made[i].name);
        CHECK(ms[i].text == made[i].text);
        CHECK(ms[i].not_applicable.empty());
    }
    // A v4 where v7 is declared: the same names; version-4 is the id itself.
    const auto other = ids::mutations_of_kind(IdKind::uuidv7, v4);
    CHECK(names_of(other) == names);
    CHECK(named(other, "version-4").not_applicable.find("version 4 already") != std::string::npos);
    // `uuid` fixes no version: all 16 nibbles, the live id's own not applicable.
    const auto any = ids::mutations_of_kind(IdKind::uuid, v4);
    CHECK(names_of(any) == ids::mutation_names(IdKind::uuid));
    CHECK(named(any, "version-7").not_applicable.empty());
    CHECK(!named(any, "version-4").not_applicable.empty());
    // A text that is not a UUID where a UUID is declared: every mutation not
    // applicable, saying so (the rule checks judge the id's own form).
    const auto hex4 = ids::mutations_of_kind(IdKind::uuidv7, "8b5a");
    CHECK(names_of(hex4) == names);
    for (const auto& m : hex4) CHECK(m.not_applicable.find("'8b5a' is not a canonical UUID") != std::string::npos);
}

TEST_CASE("mutations of ulid and viewable kinds follow the declared format") {
    const auto ul = ids::mutations_of_kind(IdKind::ulid, "01arz3ndektsv4rrffq69g5fav");
    CHECK(names_of(ul) == ids::mutation_names(IdKind::ulid));
    CHECK(named(ul, "upper-case").text == "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    const auto not_ulid = ids::mutations_of_kind(IdKind::ulid, "12");
    CHECK(names_of(not_ulid) == ids::mutation_names(IdKind::ulid));
    CHECK(!named(not_ulid, "overflow").not_applicable.empty());

    const ids::ViewableFormat f{"ORD-", 5};
    const auto v = ids::mutations_of_kind(IdKind::viewable, "ORD-8F2K3", f);
    CHECK(names_of(v) == ids::mutation_names(IdKind::viewable, f));
    CHECK(named(v, "no-prefix").text == "8F2K3");
    CHECK(named(v, "lower-case").text == "ord-8f2k3");
    // all digits: no letter whose case could change, said so
    const auto digits = ids::mutations_of_kind(IdKind::viewable, "ORD-12345", f);
    CHECK(names_of(digits) == names_of(v));
    CHECK(named(digits, "mixed-case").not_applicable.find("no letter after the prefix") != std::string::npos);
    // no prefix in the format: no prefix mutations, for every id
    CHECK(ids::mutation_names(IdKind::viewable, {"", 7}).size() + 2 == ids::mutation_names(IdKind::viewable).size());
}

TEST_CASE("kind_of_text: what a text reads as when nothing declares a kind") {
    CHECK(ids::kind_of_text("017f22e2-79b0-7cc3-98c4-dc0c0c07398f") == IdKind::uuidv7);
    CHECK(ids::kind_of_text("919108f7-52d1-4320-9bac-f847db4148a8") == IdKind::uuidv4);
    CHECK(ids::kind_of_text("00000000-0000-0000-0000-000000000000") == IdKind::uuid);
    CHECK(ids::kind_of_text("01arz3ndektsv4rrffq69g5fav") == IdKind::ulid);
    CHECK(ids::kind_of_text("TR-8F2K3P2") == IdKind::existing);  // a viewable format is a profile's to say
    CHECK(ids::kind_of_text("xU4Kw_aif-Q") == IdKind::existing);
}

TEST_CASE("fresh ids are of the declared kind") {
    for (IdKind k : {IdKind::uuid, IdKind::uuidv1, IdKind::uuidv3, IdKind::uuidv4, IdKind::uuidv5, IdKind::uuidv6,
                     IdKind::uuidv7, IdKind::uuidv8, IdKind::ulid}) {
        CAPTURE(ids::kind_name(k));
        CHECK(ids::no_fresh_id(k).empty());
        const auto a = ids::fresh_id(k);
        const auto b = ids::fresh_id(k);
        REQUIRE(a);
        REQUIRE(b);
        CHECK(ids::is_valid(*a, k));
        CHECK(*a != *b);
    }
    // v4, not the v7 every client-id check used to send
    CHECK(ids::is_valid(*ids::fresh_id(IdKind::uuidv4), IdKind::uuidv4));
    CHECK(!ids::is_valid(*ids::fresh_id(IdKind::uuidv4), IdKind::uuidv7));
    // v1/v6 carry the time now
    const auto v1 = ids::decode_v1(*ids::parse_canonical(*ids::fresh_id(IdKind::uuidv1)));
    const auto v6 = ids::decode_v6(*ids::parse_canonical(*ids::fresh_id(IdKind::uuidv6)));
    const std::int64_t now_ns = ids::system_unix_ms() * 1000000;
    CHECK(std::llabs(v1.unix_ns() - now_ns) < 60'000'000'000LL);
    CHECK(std::llabs(v6.unix_ns() - now_ns) < 60'000'000'000LL);
    // kinds no fresh value can be made of say why
    for (IdKind k : {IdKind::uuidv8_legacy, IdKind::viewable, IdKind::any, IdKind::existing}) {
        CAPTURE(ids::kind_name(k));
        CHECK(!ids::no_fresh_id(k).empty());
        CHECK(!ids::fresh_id(k));
    }
    CHECK(ids::no_fresh_id(IdKind::existing).find("add pattern:") != std::string::npos);
}

TEST_CASE("a fresh existing id matches the declared pattern") {
    const std::vector<std::string> patterns = {"^[0-9]+$",
                                               "^[0-9a-f]{4}$",
                                               "^[0-9a-f-]{36}$",
                                               "^[A-Za-z0-9_-]{11}$",
                                               "ord_[0-9a-z]{12}",
                                               "^\\d{3}-\\d{4}$",
                                               "^(?:SKU|ITM)-[A-Z]{2}\\d{6}$",
                                               "^[[:alnum:]]{8,10}$",
                                               "\\A[^/ ]{5}\\z",
                                               "^x[.]y\\.z(-[a-c]+)?$",
                                               "^(?P<year>\\d{4})/[0-9]{1,}$",
                                               "^[]a]{3}$",
                                               "^a{2,5}?b*$",
                                               "^.{6}$"};
    for (const auto& p : patterns) {
        CAPTURE(p);
        REQUIRE(ids::no_fresh_id(IdKind::existing, {p}).empty());
        const RE2 re(p);
        REQUIRE(re.ok());
        std::set<std::string> seen;
        for (int i = 0; i < 20; ++i) {
            const auto t = ids::fresh_id(IdKind::existing, {p});
            REQUIRE(t);
            CHECK_MESSAGE(RE2::FullMatch(*t, re), *t);
            CHECK(ids::is_valid(*t, IdKind::existing));
            seen.insert(*t);
        }
        if (p != "^[]a]{3}$" && p != "^a{2,5}?b*$") CHECK(seen.size() > 1);  // fresh, not one value
    }
    // an integer id never starts with 0 (it would read as another number)
    for (int i = 0; i < 50; ++i) CHECK(ids::fresh_id(IdKind::existing, {"^[0-9]+$"})->front() != '0');
    // outside the syntax ids are written in: refused with the reason, never guessed
    for (const char* p : {"^(?i)abc$", "^\\s+$", "^(a)\\1$", "^a$b", "^[^\\x00-\\x7f]$", "^a{2000}$", "^é$"}) {
        CAPTURE(p);
        std::string why;
        CHECK(!ids::text_matching(p, &why));
        CHECK(!why.empty());
        CHECK(!ids::no_fresh_id(IdKind::existing, {p}).empty());
    }
    CHECK(ids::no_fresh_id(IdKind::existing, {"^0?$"}).find("dummies") != std::string::npos);
}

TEST_CASE("texts made for a pattern stay fresh across the refills of the per-thread random buffer") {
    // 2,000 texts of 12 draws of 8 bytes: about 47 refills of the 4 KiB buffer
    std::set<std::string> seen;
    for (int i = 0; i < 2000; ++i) {
        const auto t = ids::text_matching("^[a-z]{12}$");
        REQUIRE(t);
        REQUIRE(t->size() == 12);
        seen.insert(*t);
    }
    CHECK(seen.size() == 2000);  // 26^12 texts: a repeat means bytes handed out twice
}
