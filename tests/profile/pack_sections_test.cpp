// The profile keys of the db-identifiers, uuidv8-legacy and viewable-id
// packs (lookup, action, job, request_id, legacy, viewable): what loads, every
// error with its position and hint, and what expand() makes of them.
#include "test_support.hpp"

#include <cstdlib>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

// A valid profile whose resource `r` ends at line 6; `more` adds resource
// keys (indented by 4) from line 7.
std::string with(const std::string& more) {
    return "name: t\n"                  // 1
           "base_url: http://h\n"       // 2
           "principals: {a: {}}\n"      // 3
           "resources:\n"               // 4
           "  r:\n"                     // 5
           "    create: {path: /r}\n" + // 6
           more;
}

const suite::Variable* var(const suite::Suite& s, const std::string& name) {
    for (const auto& v : s.vars)
        if (v.name == name) return &v;
    return nullptr;
}

}  // namespace

TEST_CASE("the pack sections load with their defaults") {
    const LoadResult r = load_profile_text(with("    id: {kind: ulid}\n"
                                                "    lookup: {path: /r, param: id}\n"
                                                "    action: {path: /confirm, id_at: /r_id, body: {a: 1}}\n"
                                                "    job: {at: /job_id, read: \"/jobs/{id}\"}\n"
                                                "    viewable: {read: \"/r/by-viewable/{id}\"}\n"
                                                "  s:\n"
                                                "    read: {path: \"/s/{id}\"}\n"
                                                "    legacy:\n"
                                                "      lookup: {path: \"/s/legacy/{id}\"}\n"
                                                "      ids: [1, 4294967295]\n"
                                                "      entity_type: 500\n"
                                                "      layout: {hash2: {offset: 66, bits: 40}}\n"
                                                "request_id: X-Request-Id\n"),
                                           "p.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    const Resource& a = r.profile->resources[0];
    CHECK(a.lookup->method == "GET");
    CHECK(a.lookup->param == "id");
    CHECK(a.action->method == "POST");
    CHECK(a.action->id_at == "/r_id");
    CHECK(a.job->pointer == "/job_id");
    CHECK(a.job->read == "/jobs/{id}");
    CHECK(a.viewable->pointer == "/viewable_id");
    CHECK(a.viewable->format == "^TR-[0-9A-HJKMNP-TV-Z]{7}$");
    CHECK(r.profile->request_id == "X-Request-Id");
    const Resource& s = r.profile->resources[1];
    CHECK(s.id.kind == ids::IdKind::uuidv8_legacy);  // defaulted by legacy:
    CHECK(s.legacy->ids == std::vector<std::uint64_t>{1, 4294967295u});
    CHECK(s.legacy->entity_type == 500);
    CHECK(s.legacy->salt_env == "IDCONFORM_LEGACY_SALT");
    CHECK(s.legacy->layout.hash2_bits == 40);
    CHECK(s.legacy->layout.id_bits == 32);
    CHECK(pack_applies("db-identifiers", a));
    CHECK_FALSE(pack_applies("data-id", a));
    CHECK(pack_applies("viewable-id", a));
    CHECK(pack_applies("uuidv8-legacy", s));
    CHECK_FALSE(pack_applies("nil-max", s));
}

TEST_CASE("errors in the pack sections") {
    SUBCASE("lookup without param, with {id}") {
        const LoadResult r = load_profile_text(with("    lookup: {path: \"/r/{id}\"}\n"), "inline.yaml");
        check(r.diagnostics, "inline.yaml", 7, 13, "missing required key 'param' in lookup", "e.g. lookup:");
        check(r.diagnostics, "inline.yaml", 7, 24, "the lookup path cannot hold '{id}'", "collection");
    }
    SUBCASE("action without id_at; an empty id_at") {
        only_error(with("    action: {path: /c}\n"), 7, 13, "missing required key 'id_at' in action",
                   "say where the entity's id goes in the body");
        only_error(with("    action: {path: /c, id_at: \"\"}\n"), 7, 31, "empty JSON pointer for 'id_at'", "/order_id");
    }
    SUBCASE("job") {
        only_error(with("    job: {read: \"/j/{id}\"}\n"), 7, 10, "missing required key 'at' in job", "job id");
        only_error(with("    job: {at: /job_id, read: /j}\n"), 7, 30, "the read path '/j' has no '{id}'", "{id}");
        only_error(with("    job: {at: /job_id, raed: /j}\n"), 7, 24, "unknown key 'raed' in job", "did you mean 'read'?");
    }
    SUBCASE("request_id") {
        only_error("request_id: \"X Request\"\n" + with(""), 1, 13, "'X Request' is not a header name", "X-Request-Id");
    }
    SUBCASE("legacy: missing keys") {
        const LoadResult r = load_profile_text(with("    legacy: {}\n"), "inline.yaml");
        check(r.diagnostics, "inline.yaml", 7, 13, "missing required key 'lookup' in legacy", "legacy integer id");
        check(r.diagnostics, "inline.yaml", 7, 13, "missing required key 'ids' in legacy", "ids: [17, 4242]");
        check(r.diagnostics, "inline.yaml", 7, 13, "missing required key 'entity_type' in legacy", "entity_type: 500");
    }
    const std::string lookup = "{path: \"/s/{id}\"}";
    SUBCASE("legacy: ids and type out of range, bad salt_env") {
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [4294967296], entity_type: 1}\n"), 7, 47,
                   "'ids' must be an integer from 0 to 4294967295", "ids: [17, 4242]");
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [-1], entity_type: 1}\n"), 7, 47,
                   "'ids' must be an integer from 0 to 4294967295", "ids:");
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [1], entity_type: 32768}\n"), 7, 64,
                   "'entity_type' must be an integer from 0 to 32767", "entity_type: 500");
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [], entity_type: 1}\n"), 7, 46, "no legacy ids",
                   "ids: [17]");
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [1], entity_type: 1, salt_env: my-salt}\n"), 7, 77,
                   "'my-salt' is not an environment variable name", "never the salt itself");
    }
    SUBCASE("legacy: a lookup path without {id}") {
        only_error(with("    legacy: {lookup: {path: /s}, ids: [1], entity_type: 1}\n"), 7, 29,
                   "the lookup path '/s' has no '{id}'", "{id}");
    }
    SUBCASE("legacy: bad layouts") {
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [1], entity_type: 1, layout: {id: {offset: 40, bits: 32}}}\n"),
                   7, 75, "bad legacy layout: type overlaps id at bit 40", "no two fields may overlap");
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [1], entity_type: 1, layout: {idd: {}}}\n"), 7, 76,
                   "unknown key 'idd' in layout", "did you mean 'id'?");
        only_error(with("    legacy: {lookup: " + lookup + ", ids: [1], entity_type: 1, layout: {flag: 200}}\n"), 7, 82,
                   "'flag' must be an integer from 0 to 127", "flag: 0");
    }
    SUBCASE("legacy: another id kind") {
        only_error(with("    id: {kind: uuidv7}\n    legacy: {lookup: " + lookup + ", ids: [1], entity_type: 1}\n"), 8, 5,
                   "a resource with 'legacy' has ids of kind uuidv8-legacy, not uuidv7", "kind: uuidv8-legacy");
    }
    SUBCASE("viewable") {
        only_error(with("    viewable: {prefix: TR}\n"), 7, 24, "the viewable prefix 'TR' does not end with '-'",
                   "prefix: \"TR-\"");
        only_error(with("    viewable: {length: 13}\n"), 7, 24, "'length' must be an integer from 1 to 12", "length: 7");
        only_error(with("    viewable: {length: 0}\n"), 7, 24, "'length' must be an integer from 1 to 12", "length: 7");
        only_error(with("    viewable: {format: \"^TR-[\"}\n"), 7, 24,
                   "bad regular expression '^TR-[': missing ]: [", "RE2 pattern");
        only_error(with("    viewable: {read: /by-viewable}\n"), 7, 22, "the read path '/by-viewable' has no '{id}'", "{id}");
        only_error(with("    viewable: {at: \"\"}\n"), 7, 20, "empty JSON pointer for 'at'", "/viewable_id");
    }
    SUBCASE("viewable without create") {
        const LoadResult r = load_profile_text(with("  s:\n    viewable: {}\n"), "inline.yaml");
        check(r.diagnostics, "inline.yaml", 8, 5, "'viewable' needs a create endpoint on 's'", "add create:");
    }
}

TEST_CASE("expand: packs apply per resource, legacy ids, layout and salt become suite data") {
    const std::string text = with("    viewable: {read: \"/r/v/{id}\"}\n"
                                  "  o:\n"
                                  "    create: {path: /o}\n"
                                  "    id: {kind: ulid}\n"
                                  "  s:\n"
                                  "    legacy: {lookup: {path: \"/s/{id}\"}, ids: [17, 42], entity_type: 500, "
                                  "salt_env: IDCONFORM_TEST_SALT_UNSET}\n") +
                             "packs: [data-id, db-identifiers, uuidv8-legacy, viewable-id]\n";
    const LoadResult r = load_profile_text(text, "p.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    ::unsetenv("IDCONFORM_TEST_SALT_UNSET");
    const Expansion x = expand(*r.profile, source_file("suites/packs"));
    INFO(dump(x.diagnostics));
    REQUIRE(x.diagnostics.empty());
    std::size_t data_id = 0, db = 0, legacy = 0, viewable = 0;
    for (const auto& s : x.suites) {
        if (s.name.rfind("data-id", 0) == 0) {
            ++data_id;
            CHECK(s.name.substr(s.name.size() - 2) == " r");
        }
        if (s.name.rfind("db-identifiers", 0) == 0) {
            ++db;
            CHECK(s.name.substr(s.name.size() - 2) == " o");
        }
        if (s.name.rfind("viewable-id", 0) == 0) {
            ++viewable;
            REQUIRE(var(s, "res.viewable_format"));
            CHECK(var(s, "res.viewable_format")->value.as_string() == "^TR-[0-9A-HJKMNP-TV-Z]{7}$");
            CHECK(var(s, "res.viewable_read")->value.as_string() == "/r/v/{id}");
        }
        if (s.name == "uuidv8-legacy s") {
            ++legacy;
            const auto& set = s.vector_sets.at("legacy_ids");
            REQUIRE(set.vectors.size() == 2);
            CHECK(set.vectors[1].value.as_string() == "42");
            CHECK(var(s, "res.legacy_layout")->value.as_string() == "flag=0 id=1:32 type=33:15 hash1=52:12 hash2=66:62");
            CHECK(var(s, "res.legacy_type")->value.as_string() == "500");
            CHECK_FALSE(var(s, "res.legacy_salt"));
            bool skipped = false;
            for (const auto& c : s.cases)
                if (c.rules == std::vector<std::string>{"LEGACY-HASH"})
                    skipped = c.skip.find("set the environment variable IDCONFORM_TEST_SALT_UNSET") != std::string::npos;
            CHECK(skipped);
        }
    }
    CHECK(data_id == 7);
    CHECK(db >= 4);
    CHECK(legacy == 1);
    CHECK(viewable == 1);

    ::setenv("IDCONFORM_TEST_SALT_UNSET", "x", 1);
    const Expansion y = expand(*r.profile, source_file("suites/packs"));
    ::unsetenv("IDCONFORM_TEST_SALT_UNSET");
    for (const auto& s : y.suites)
        if (s.name == "uuidv8-legacy s") {
            const suite::Variable* salt = var(s, "res.legacy_salt");
            REQUIRE(salt);
            CHECK(salt->secret);
            CHECK(salt->value.as_string() == "${env:IDCONFORM_TEST_SALT_UNSET}");  // read at run time, never copied
        }
}

TEST_CASE("expand: a chosen pack that applies to no resource is an error") {
    const LoadResult r = load_profile_text(with("") + "packs: [viewable-id]\n", "p.yaml");
    REQUIRE(r.profile);
    const Expansion x = expand(*r.profile, source_file("suites/packs"));
    REQUIRE(x.diagnostics.size() == 1);
    CHECK(x.diagnostics[0].title == "pack 'viewable-id' applies to no resource of the profile");
    CHECK(x.diagnostics[0].hint.find("viewable: section") != std::string::npos);
}
