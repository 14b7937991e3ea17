// The suite keys the db-identifiers, uuidv8-legacy and viewable-id packs
// brought: step `repeat`, id checks' `collect`, `pattern`, `legacy`,
// `id_members`, case `collected`, and a skipped case without steps.
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

// One case `c` (line 3) whose keys follow from line 4, indented by 4.
std::string with_case(const std::string& lines) { return "name: t\ncases:\n  - name: c\n" + lines; }

}  // namespace

TEST_CASE("the pack keys load") {
    const LoadResult r = load_text(with_case("    rule: ULID order\n"
                                             "    steps:\n"
                                             "      - http: {method: POST, path: /o}\n"
                                             "        repeat: 20\n"
                                             "        expect:\n"
                                             "          id_members: ulid\n"
                                             "          id: {at: /id, kind: ulid, collect: ids, pattern: \"^[0-9a-z]{26}$\"}\n"
                                             "      - http: {path: /s}\n"
                                             "        expect: {id: {at: /id, kind: uuidv8-legacy, legacy: {layout: \"${l}\", "
                                             "id: \"17\", type: \"500\", salt: \"${s}\"}}}\n"
                                             "    collected:\n"
                                             "      ids: {time_ordered: true, distinct: true, min_count: 20, random: {prefix: \"TR-\"}}\n"
                                             "  - name: not observable\n"
                                             "    rule: R3\n"
                                             "    skip: not observable from outside\n"),
                                   "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.suite);
    const Case& c = r.suite->cases[0];
    CHECK(c.rules == std::vector<std::string>{"ULID order"});
    CHECK(c.steps[0].repeat == 20);
    CHECK(c.steps[1].repeat == 1);
    CHECK(c.steps[0].expect.id_members == "ulid");
    CHECK(c.steps[0].expect.ids[0].collect == "ids");
    CHECK(*c.steps[0].expect.ids[0].pattern == "^[0-9a-z]{26}$");
    const auto& l = *c.steps[1].expect.ids[0].legacy;
    CHECK(l.layout == "${l}");
    CHECK(l.legacy_id == "17");
    CHECK(l.entity_type == "500");
    CHECK(l.salt == "${s}");
    REQUIRE(c.collected.size() == 1);
    CHECK(c.collected[0].list == "ids");
    CHECK(c.collected[0].time_ordered);
    CHECK(c.collected[0].distinct);
    CHECK_FALSE(c.collected[0].same);
    CHECK(c.collected[0].min_count == 20);
    CHECK(*c.collected[0].random == "TR-");
    CHECK(r.suite->cases[1].steps.empty());
    CHECK(r.suite->cases[1].skip == "not observable from outside");
}

TEST_CASE("errors in the pack keys") {
    const std::string step = "    steps:\n      - http: {path: /o}\n";
    SUBCASE("repeat out of range") {
        check(load_text(with_case(step + "        repeat: 0\n"), "inline.yaml").diagnostics, "inline.yaml", 6, 17,
              "repeat must be an integer from 1 to 10000", "repeat: 50");
        check(load_text(with_case(step + "        repeat: many\n"), "inline.yaml").diagnostics, "inline.yaml", 6, 17,
              "repeat must be an integer from 1 to 10000", "repeat: 50");
    }
    SUBCASE("id_members with an unknown kind") {
        check(load_text(with_case(step + "        expect: {id_members: ulidd}\n"), "inline.yaml").diagnostics,
              "inline.yaml", 6, 30, "unknown id kind 'ulidd'", "did you mean 'ulid'?");
    }
    SUBCASE("id_members with members declared on purpose") {
        const LoadResult ok = load_text(
            with_case(step + "        expect: {id_members: {kind: ulid, declared: {/tracking_id: uuidv4, /tr: viewable}}}\n"),
            "inline.yaml");
        INFO(dump(ok.diagnostics));
        REQUIRE(ok.suite);
        const Expect& x = ok.suite->cases[0].steps[0].expect;
        CHECK(x.id_members == "ulid");
        CHECK(x.id_members_declared ==
              std::vector<std::pair<std::string, std::string>>{{"/tracking_id", "uuidv4"}, {"/tr", "viewable"}});
        check(load_text(with_case(step + "        expect: {id_members: {declared: {/t: uuidv4}}}\n"), "inline.yaml")
                  .diagnostics,
              "inline.yaml", 6, 30, "id_members needs 'kind'", "id_members: {kind: ulid}");
        check(load_text(with_case(step + "        expect: {id_members: {kind: ulid, declared: {tracking_id: uuidv4}}}\n"),
                        "inline.yaml")
                  .diagnostics,
              "inline.yaml", 6, 54, "'tracking_id' is not a JSON pointer", "/tracking_id");
        check(load_text(with_case(step + "        expect: {id_members: {kind: ulid, declared: {/t: uuidv44}}}\n"),
                        "inline.yaml")
                  .diagnostics,
              "inline.yaml", 6, 58, "unknown id kind 'uuidv44'", "did you mean 'uuidv4'?");
        check(load_text(with_case(step + "        expect: {id_members: {kind: ulid, declare: {}}}\n"), "inline.yaml")
                  .diagnostics,
              "inline.yaml", 6, 43, "unknown key 'declare' in id_members", "did you mean 'declared'?");
    }
    SUBCASE("collect, pattern, legacy") {
        check(load_text(with_case(step + "        expect: {id: {at: /id, collect: \"9 lives\"}}\n"), "inline.yaml").diagnostics,
              "inline.yaml", 6, 41, "bad list name '9 lives'", "collect: order_ids");
        check(load_text(with_case(step + "        expect: {id: {at: /id, pattern: \"([\"}}\n"), "inline.yaml").diagnostics,
              "inline.yaml", 6, 41, "bad regular expression '([': missing ]: [", "RE2 syntax");
        check(load_text(with_case(step + "        expect: {id: {at: /id, kind: ulid, legacy: {id: \"1\"}}}\n"), "inline.yaml")
                  .diagnostics,
              "inline.yaml", 6, 44, "'legacy' checks need kind: uuidv8-legacy (found kind 'ulid')", "kind: uuidv8-legacy");
        check(load_text(with_case(step + "        expect: {id: {at: /id, kind: uuidv8-legacy, legacy: {salts: x}}}\n"),
                        "inline.yaml")
                  .diagnostics,
              "inline.yaml", 6, 62, "unknown key 'salts' in legacy", "did you mean 'salt'?");
    }
    SUBCASE("collected") {
        const std::string collecting = "    steps:\n      - http: {path: /o}\n        expect: {id: {at: /id, collect: ids}}\n";
        check(load_text(with_case(collecting + "    collected: {idz: {distinct: true}}\n"), "inline.yaml").diagnostics,
              "inline.yaml", 7, 17, "nothing collects 'idz' in this case", "collect: idz");
        check(load_text(with_case(collecting + "    collected: {ids: {}}\n"), "inline.yaml").diagnostics, "inline.yaml", 7,
              22, "the collected list 'ids' is checked for nothing", "ids: {distinct: true}");
        check(load_text(with_case(collecting + "    collected: {ids: {distinkt: true}}\n"), "inline.yaml").diagnostics,
              "inline.yaml", 7, 23, "unknown key 'distinkt' in collected list", "did you mean 'distinct'?");
        check(load_text(with_case(collecting + "    collected: {ids: {distinct: true, min_count: 0}}\n"), "inline.yaml")
                  .diagnostics,
              "inline.yaml", 7, 50, "min_count must be an integer from 1 to 100000", "min_count: 50");
        check(load_text(with_case(collecting + "    collected: {ids: {random: {prefx: TR-}}}\n"), "inline.yaml").diagnostics,
              "inline.yaml", 7, 32, "unknown key 'prefx' in random", "did you mean 'prefix'?");
    }
    SUBCASE("a case without steps needs a skip reason") {
        check(load_text(with_case("    rule: R3\n"), "inline.yaml").diagnostics, "inline.yaml", 3, 5,
              "missing required key 'steps' in case", "list the steps");
    }
}
