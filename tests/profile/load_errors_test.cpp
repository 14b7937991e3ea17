// Every kind of profile error is reported with file, line, column, title and
// hint, all errors of a file are collected, and nothing half-loads.
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

// A valid profile whose one resource `r` ends at line 6; `more` adds lines
// after it (resource keys are indented by 4).
std::string with(const std::string& more) {
    return "name: t\n"                  // 1
           "base_url: http://h\n"       // 2
           "principals: {a: {}}\n"      // 3
           "resources:\n"               // 4
           "  r:\n"                     // 5
           "    create: {path: /r}\n" + // 6
           more;
}

// The same with a free top part: `top` replaces lines 1-3.
std::string with_top(const std::string& top) {
    return top + "resources:\n  r:\n    create: {path: /r}\n";
}

}  // namespace

TEST_CASE("the base profile of these tests is valid") {
    const LoadResult r = load_profile_text(with(""), "inline.yaml");
    INFO(dump(r.diagnostics));
    CHECK(r.profile);
}

TEST_CASE("file-level problems") {
    SUBCASE("empty file") {
        only_error("", 1, 1, "the profile file is empty", "a target profile needs at least:");
        only_error("# only a comment\n", 1, 1, "the profile file is empty", "base_url:");
    }
    SUBCASE("YAML syntax error") {
        const LoadResult r = load_profile_text("name: t\nresources: {r: {create: {path: /r}\n", "inline.yaml");
        REQUIRE(r.diagnostics.size() == 1);
        CHECK_FALSE(r.profile);
        CHECK(r.diagnostics[0].title.rfind("YAML syntax error: ", 0) == 0);
        CHECK(r.diagnostics[0].pos.line == 3);
        CHECK(r.diagnostics[0].hint == "a '{' mapping is missing its closing '}'");
    }
    SUBCASE("not a mapping") {
        only_error("- a\n- b\n", 1, 1, "expected a mapping at the top of the profile, found a list",
                   "a target profile is a mapping of keys such as:");
    }
    SUBCASE("two documents") {
        only_error(with("---\nname: u\n"), 8, 1, "more than one YAML document in one file",
                   "one file holds one profile");
    }
    SUBCASE("missing file") {
        const LoadResult r = load_profile(fixture("nope.yaml"));
        CHECK_FALSE(r.profile);
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].pos.file == fixture("nope.yaml"));
        CHECK(r.diagnostics[0].title == "cannot read profile: no such file or directory");
        CHECK(r.diagnostics[0].hint.find("check the path") == 0);
    }
    SUBCASE("a directory") {
        const LoadResult r = load_profile(fixture(""));
        CHECK_FALSE(r.profile);
        REQUIRE(r.diagnostics.size() == 1);
        CHECK(r.diagnostics[0].title.find("is a directory, not a profile") != std::string::npos);
    }
}

TEST_CASE("required keys") {
    const LoadResult r = load_profile_text("packs: [data-id]\n", "inline.yaml");
    CHECK_FALSE(r.profile);
    CHECK(r.diagnostics.size() == 4);
    check(r.diagnostics, "inline.yaml", 1, 1, "missing required key 'name' in profile", "name: products-api");
    check(r.diagnostics, "inline.yaml", 1, 1, "missing required key 'base_url' in profile",
          "base_url: ${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}");
    check(r.diagnostics, "inline.yaml", 1, 1, "missing required key 'principals' in profile",
          "the first owns the test data");
    check(r.diagnostics, "inline.yaml", 1, 1, "missing required key 'resources' in profile",
          "create: {path: /v1/products");
    SUBCASE("empty name and base_url") {
        const LoadResult e = load_profile_text(with_top("name: \"\"\nbase_url: ''\nprincipals: {a: {}}\n"),
                                               "inline.yaml");
        CHECK(e.diagnostics.size() == 2);
        check(e.diagnostics, "inline.yaml", 1, 7, "the profile name is empty", "name: products-api");
        check(e.diagnostics, "inline.yaml", 2, 11, "the base_url is empty", "base_url: http://127.0.0.1:8080");
    }
}

TEST_CASE("no principals, no resources, no create") {
    SUBCASE("no principals") {
        only_error(with_top("name: t\nbase_url: http://h\nprincipals: {}\n"), 3, 13, "no principals",
                   "a second one is needed for the DATA-ID-004 access checks");
    }
    SUBCASE("no resources") {
        only_error("name: t\nbase_url: http://h\nprincipals: {a: {}}\nresources: {}\n", 4, 12, "no resources",
                   "describe at least one resource");
    }
    SUBCASE("no resource has create") {
        only_error("name: t\nbase_url: http://h\nprincipals: {a: {}}\nresources:\n  r:\n"
                   "    read: {path: \"/r/{id}\"}\n",
                   5, 3, "no resource has a 'create' endpoint", "give at least one resource create:");
    }
}

TEST_CASE("unknown keys at every level, with did-you-mean") {
    SUBCASE("top level") {
        only_error(with("base_ulr: x\n"), 7, 1, "unknown key 'base_ulr' in profile", "did you mean 'base_url'?");
    }
    SUBCASE("top level, nothing close") {
        only_error(with("zzz: 1\n"), 7, 1, "unknown key 'zzz' in profile",
                   "allowed keys: name, base_url, headers, tls, timeout, clock_skew, principals, packs, resources");
    }
    SUBCASE("tls") {
        only_error(with("tls: {cacrt: ca.pem}\n"), 7, 7, "unknown key 'cacrt' in tls", "did you mean 'cacert'?");
    }
    SUBCASE("timeout") {
        only_error(with("timeout: {conect: 2s}\n"), 7, 11, "unknown key 'conect' in timeout",
                   "did you mean 'connect'?");
    }
    SUBCASE("principal") {
        only_error(with_top("name: t\nbase_url: http://h\nprincipals: {a: {header: {}}}\n"), 3, 18,
                   "unknown key 'header' in principal", "did you mean 'headers'?");
    }
    SUBCASE("resource") {
        only_error(with("    rad: {path: \"/r/{id}\"}\n"), 7, 5, "unknown key 'rad' in resource",
                   "did you mean 'read'?");
    }
    SUBCASE("endpoint") {
        // (`items` on a read is the array answer form: answer_forms_test.cpp)
        only_error(with("    read: {path: \"/r/{id}\", filter: false}\n"), 7, 29, "unknown key 'filter' in read",
                   "allowed keys: method, path");
        only_error(with("    list: {path: /r, item: /items}\n"), 7, 22, "unknown key 'item' in list",
                   "did you mean 'items'?");
        only_error(with("    delete: {path: \"/r/{id}\", items: /x}\n"), 7, 31, "unknown key 'items' in delete",
                   "allowed keys: method, path");
        only_error(with("    list: {path: /r, id_at: /id}\n"), 7, 22, "unknown key 'id_at' in list",
                   "allowed keys: method, path");
    }
    SUBCASE("id") {
        only_error(with("    id: {at: /id, knd: uuidv4}\n"), 7, 19, "unknown key 'knd' in id", "did you mean 'kind'?");
    }
    SUBCASE("field") {
        only_error(with("    fields: {t: {kind: uuidv4, att: /t}}\n"), 7, 32, "unknown key 'att' in t",
                   "did you mean 'at'?");
    }
    SUBCASE("reference") {
        only_error(with("    references: {p: {resource: r, requried: false}}\n"), 7, 35,
                   "unknown key 'requried' in reference", "did you mean 'required'?");
    }
}

TEST_CASE("duplicate names are errors") {
    SUBCASE("principal") {
        only_error(with_top("name: t\nbase_url: http://h\nprincipals:\n  a: {}\n  b: {}\n  a: {}\n"), 6, 3,
                   "duplicate key 'a' in principals", "'a' is already set at line 4");
    }
    SUBCASE("resource") {
        only_error(with("  r:\n    create: {path: /s}\n"), 7, 3, "duplicate key 'r' in resources",
                   "'r' is already set at line 5");
    }
    SUBCASE("body member") {
        only_error(with("    update: {path: \"/r/{id}\", body: {a: 1, a: 2}}\n"), 7, 44,
                   "duplicate key 'a' in this object", "'a' is already set at line 7");
    }
}

TEST_CASE("bad names") {
    only_error(with_top("name: t\nbase_url: http://h\nprincipals: {9a: {}}\n"), 3, 14, "bad principal name '9a'",
               "e.g. alice");
    const LoadResult r = load_profile_text(with("  \"a b\": {create: {path: /s}}\n"), "inline.yaml");
    CHECK(r.diagnostics.size() == 1);
    check(r.diagnostics, "inline.yaml", 7, 3, "bad resource name 'a b'", "e.g. products");
}

TEST_CASE("packs") {
    SUBCASE("unknown pack with did-you-mean") {
        only_error(with("packs: [data-id, nilmax]\n"), 7, 18, "unknown pack 'nilmax'", "did you mean 'nil-max'?");
    }
    SUBCASE("unknown pack without a close name lists the known ones") {
        only_error(with("packs: zebra\n"), 7, 8, "unknown pack 'zebra'",
                   "known packs: data-id, nil-max, db-identifiers, uuidv8-legacy, viewable-id");
    }
    SUBCASE("listed twice") {
        only_error(with("packs:\n  - data-id\n  - data-id\n"), 9, 5, "pack 'data-id' is listed twice",
                   "already listed at line 8");
    }
    SUBCASE("not a list") {
        only_error(with("packs: {data-id: true}\n"), 7, 8, "expected a list here, found a mapping",
                   "'packs' takes a list, e.g. packs: [data-id, nil-max]");
    }
}

TEST_CASE("HTTP methods") {
    only_error(with("    read: {method: get, path: \"/r/{id}\"}\n"), 7, 20, "unknown HTTP method 'get'",
               "did you mean 'GET'?");
    only_error(with("    read: {method: BREW, path: \"/r/{id}\"}\n"), 7, 20, "unknown HTTP method 'BREW'",
               "allowed methods: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
}

TEST_CASE("paths") {
    SUBCASE("missing {id} where an entity is addressed") {
        for (const char* op : {"read", "update", "delete", "put"}) {
            CAPTURE(op);
            const std::string key = op;
            only_error(with("    " + key + ": {path: /r}\n"), 7, static_cast<int>(key.size()) + 14,
                       "the " + key + " path '/r' has no '{id}'", "e.g. path: \"/v1/products/{id}\"");
        }
    }
    SUBCASE("{id} where the server has not assigned one") {
        only_error("name: t\nbase_url: http://h\nprincipals: {a: {}}\nresources:\n  r:\n"
                   "    create: {path: \"/r/{id}\"}\n",
                   6, 24, "the create path cannot hold '{id}'", "a client-supplied id is 'put'");
        only_error(with("    list: {path: \"/r/{id}/all\"}\n"), 7, 22, "the list path cannot hold '{id}'",
                   "addressed by read, update and delete");
    }
    SUBCASE("another path variable") {
        only_error(with("    read: {path: \"/r/{id}/{sub_id}\"}\n"), 7, 27,
                   "unknown path variable '{sub_id}' in read path",
                   "a profile path knows one variable, {id}");
    }
    SUBCASE("placeholder errors point into the path") {
        only_error(with("    read: {path: \"/r/{id}?k=${env:9X}\"}\n"), 7, 29,
                   "bad environment variable name '9X' in '${env:9X}'", "do not start with a digit");
        only_error(with("    read: {path: [a]}\n"), 7, 18, "expected a string here, found a list",
                   "'path' takes a string, e.g. path: \"/v1/products/{id}\"");
        only_error(with("    read: {path: \"/r/{id\"}\n"), 7, 22, "unclosed '{' in path '/r/{id'",
                   "close the path variable with '}'");
    }
    SUBCASE("an unquoted {id} inside a flow mapping is a YAML syntax error; in block style it is fine") {
        only_error(with("    read: {path: /r/{id}}\n"), 7, 21, "YAML syntax error: end of map flow not found",
                   "a '{' mapping is missing its closing '}'");
        const LoadResult r = load_profile_text(with("    read:\n      path: /r/{id}\n"), "inline.yaml");
        INFO(dump(r.diagnostics));
        REQUIRE(r.profile);
        CHECK(r.profile->resources[0].read->path == "/r/{id}");
    }
    SUBCASE("no leading slash") {
        only_error(with("    list: {path: r}\n"), 7, 18, "the list path 'r' does not start with '/'",
                   "paths are appended to base_url");
    }
    SUBCASE("missing path") {
        only_error(with("    read: {method: GET}\n"), 7, 11, "missing required key 'path' in read",
                   "read: {path: \"/v1/products/{id}\"}");
    }
    SUBCASE("base_url placeholder") {
        only_error(with_top("name: t\nbase_url: \"${env:URL:-x\"\nprincipals: {a: {}}\n"), 2, 12,
                   "unclosed '${' in '${env:URL:-x'", "close the placeholder with '}'");
    }
}

TEST_CASE("bodies") {
    SUBCASE("must be a mapping") {
        only_error(with("    put: {path: \"/r/{id}\", body: [1, 2]}\n"), 7, 34, "expected a mapping here, found a list",
                   "the put body is a JSON object written as YAML");
        only_error("name: t\nbase_url: http://h\nprincipals: {a: {}}\nresources:\n  r:\n"
                   "    create: {path: /r, body: name}\n",
                   6, 30, "expected a mapping here, found 'name'", "body: {name: idconform-probe}");
    }
    SUBCASE("placeholders inside are checked") {
        only_error(with("    update: {path: \"/r/{id}\", body: {n: \"${}\"}}\n"), 7, 42, "empty placeholder '${}'",
                   "placeholders are");
    }
}

TEST_CASE("JSON pointers") {
    only_error(with("    list: {path: /r, items: items}\n"), 7, 29, "bad JSON pointer 'items'",
               "a JSON pointer starts with '/'");
    only_error(with("    id: {at: id}\n"), 7, 14, "bad JSON pointer 'id'", "a JSON pointer starts with '/'");
    only_error(with("    id: /a~2\n"), 7, 9, "bad JSON pointer '/a~2'", "'~' must be followed by 0");
    only_error(with("    id: \"\"\n"), 7, 9, "empty JSON pointer for 'at'", "point at its member, e.g. at: /id");
    only_error(with("    fields: {t: {at: t}}\n"), 7, 22, "bad JSON pointer 't'", "starts with '/'");
    only_error(with("    time_field: created_at\n"), 7, 17, "bad JSON pointer 'created_at'", "starts with '/'");
    only_error(with("    time_field: \"\"\n"), 7, 17, "empty JSON pointer for 'time_field'",
               "e.g. time_field: /created_at");
}

TEST_CASE("id kinds") {
    only_error(with("    id: {kind: uudv7}\n"), 7, 16, "unknown id kind 'uudv7'", "did you mean 'uuidv7'?");
    only_error(with("    fields: {t: {kind: uuidv44}}\n"), 7, 24, "unknown id kind 'uuidv44'",
               "did you mean 'uuidv4'?");
    only_error(with("    references: {p: {resource: r, kind: snowflake}}\n"), 7, 41, "unknown id kind 'snowflake'",
               "kinds: uuid, uuidv1, uuidv3, uuidv4, uuidv5, uuidv6, uuidv7, uuidv8, ulid, viewable, uuidv8-legacy");
    // `any` is a kind of the vocabulary, but it describes no id field (issue #13).
    only_error(with("    id: {kind: any}\n"), 7, 16, "id kind 'any' does not describe an id field",
               "say what the ids are: a UUID or ULID kind, or kind: existing");
    only_error(with("    references: {p: {resource: r, kind: any}}\n"), 7, 41,
               "id kind 'any' does not describe an id field", "say what the ids are");
    only_error(with("    id: [a]\n"), 7, 9, "expected a JSON pointer or a mapping here, found a list",
               "{at: /id, kind: uuidv7}");
    only_error(with("    fields: {own: {at: /id}}\n"), 7, 14, "field 'own' is the entity's own id (/id)",
               "'fields' lists the entity's other id fields");
}

TEST_CASE("references") {
    SUBCASE("unknown resource with did-you-mean") {
        only_error(with("  things:\n    create: {path: /t}\n    references: {p: {resource: thinsg}}\n"), 9, 32,
                   "unknown resource 'thinsg' in reference 'p'", "did you mean 'things'?");
    }
    SUBCASE("unknown resource without a close name") {
        only_error(with("  things:\n    create: {path: /t}\n    references: {p: {resource: zebra}}\n"), 9, 32,
                   "unknown resource 'zebra' in reference 'p'", "resources of the profile: r, things");
    }
    SUBCASE("missing resource key") {
        only_error(with("    references: {p: {required: true}}\n"), 7, 21,
                   "missing required key 'resource' in reference",
                   "p: {category_id: {resource: categories");
    }
    SUBCASE("required must be a boolean") {
        only_error(with("    references: {p: {resource: r, required: yes}}\n"), 7, 45,
                   "expected a boolean here, found 'yes'", "true or false");
    }
    SUBCASE("a resource requiring itself") {
        only_error(with("    references: {parent: {resource: r, required: true}}\n"), 7, 37,
                   "resource 'r' requires itself through 'parent'", "make the reference required: false");
    }
    SUBCASE("optional self reference is fine") {
        const LoadResult r = load_profile_text(with("    references: {parent: {resource: r}}\n"), "inline.yaml");
        INFO(dump(r.diagnostics));
        CHECK(r.profile);
    }
    SUBCASE("required reference to a resource without create") {
        only_error(with("    references: {v: {resource: views, required: true}}\n"
                        "  views:\n    read: {path: \"/v/{id}\"}\n"),
                   7, 32, "required reference 'v' points to 'views', which has no 'create'",
                   "add create: to 'views'");
    }
    SUBCASE("a cycle of required references is reported once") {
        const std::string text = "name: t\nbase_url: http://h\nprincipals: {a: {}}\nresources:\n"
                                 "  a:\n"                                                     // 5
                                 "    create: {path: /a}\n"                                   // 6
                                 "    references: {b_id: {resource: b, required: true}}\n"    // 7
                                 "  b:\n"                                                     // 8
                                 "    create: {path: /b}\n"                                   // 9
                                 "    references: {c_id: {resource: c, required: true}}\n"    // 10
                                 "  c:\n"                                                     // 11
                                 "    create: {path: /c}\n"                                   // 12
                                 "    references: {a_id: {resource: a, required: true}}\n";   // 13
        only_error(text, 13, 35, "required references form a cycle: a -> b -> c -> a",
                   "make one of the references (e.g. 'a_id' here) required: false");
        std::string optional = text;
        optional.replace(optional.rfind("required: true"), 14, "required: false");
        const LoadResult r = load_profile_text(optional, "inline.yaml");
        INFO(dump(r.diagnostics));
        CHECK(r.profile);
    }
}

TEST_CASE("durations, booleans and other value types") {
    only_error(with("clock_skew: 5\n"), 7, 13, "bad duration '5' for 'clock_skew'",
               "a whole number with a unit ms, s or m");
    only_error(with("timeout: {read: 2h}\n"), 7, 17, "bad duration '2h' for 'read'", "e.g. 500ms, 2s, 1m");
    only_error(with("timeout: {connect: [1s]}\n"), 7, 20, "bad duration a list for 'connect'", "ms, s or m");
    only_error(with("tls: {insecure: \"true\"}\n"), 7, 17, "expected a boolean here, found 'true'", "true or false");
    only_error(with("    location: 1\n"), 7, 15, "expected a boolean here, found '1'", "location: true");
    only_error(with("headers: [a]\n"), 7, 10, "expected a mapping here, found a list",
               "'headers' takes key: value pairs");
    only_error(with("    create: {path: /r}\n"), 7, 5, "duplicate key 'create' in resource", "already set at line 6");
}

TEST_CASE("all errors of a file are reported, and nothing loads") {
    const std::string file = fixture("many_errors.target.yaml");
    const LoadResult r = load_profile(file);
    CHECK_FALSE(r.profile);
    INFO(dump(r.diagnostics));
    check(r.diagnostics, file, 3, 21, "bad environment variable name '' in '${env:}'", "environment variable names");
    check(r.diagnostics, file, 4, 13, "bad duration '5 seconds' for 'clock_skew'", "e.g. 500ms, 2s, 1m");
    check(r.diagnostics, file, 7, 3, "duplicate key 'alice' in principals", "already set at line 6");
    check(r.diagnostics, file, 8, 18, "unknown pack 'nilmax'", "did you mean 'nil-max'?");
    check(r.diagnostics, file, 11, 36, "unknown key 'metod' in create", "did you mean 'method'?");
    check(r.diagnostics, file, 13, 40, "expected a mapping here, found a list", "the create body is a JSON object");
    check(r.diagnostics, file, 14, 18, "the read path '/v1/products' has no '{id}'", "/v1/products/{id}");
    check(r.diagnostics, file, 15, 14, "bad JSON pointer 'id'", "starts with '/'");
    check(r.diagnostics, file, 15, 24, "unknown id kind 'uuidv77'", "did you mean 'uuidv7'?");
    check(r.diagnostics, file, 17, 31, "unknown resource 'categorys' in reference 'category_id'",
          "did you mean 'categories'?");
    CHECK(r.diagnostics.size() == 10);
    // Diagnostics carry their source line for rendering.
    for (const auto& d : r.diagnostics) CHECK_FALSE(d.source_line.empty());
}

TEST_CASE("gRPC: the target section and resource bindings") {
    const std::string top = "name: t\nbase_url: http://h\nprincipals: {a: {}}\n";
    SUBCASE("a resource binding gRPC methods needs the grpc target") {
        only_error(with("    grpc: {read: {method: s.v1.R/Get}}\n"), 7, 5,
                   "resource 'r' binds gRPC methods, but the profile does not say where gRPC listens",
                   "grpc: {address:");
    }
    SUBCASE("the address is required") {
        only_error(with_top(top + "grpc: {reflection: true}\n"), 4, 7, "missing required key 'address' in grpc",
                   "reflection: true");
    }
    SUBCASE("schemas come from reflection or proto files") {
        // One reader for suites and profiles (suite/target_reader.hpp): with
        // neither named the schemas come from reflection (a suite's default,
        // as grpcurl's); only `reflection: false` without protos is an error.
        only_error(with_top(top + "grpc: {address: \"127.0.0.1:1\", reflection: false}\n"), 4, 44,
                   "the gRPC schemas come from nowhere", "reflection: true");
    }
    SUBCASE("unknown keys get did-you-mean") {
        only_error(with_top(top + "grpc: {address: a, reflektion: true}\n"), 4, 20, "unknown key 'reflektion' in grpc",
                   "did you mean 'reflection'?");
        only_error(with_top(top + "grpc: {address: a, reflection: true}\n") + "    grpc: {raed: {method: s.v1.R/Get}}\n",
                   8, 12, "unknown key 'raed' in grpc", "did you mean 'read'?");
        // lookup and action are HTTP-only slots: under grpc they are unknown
        // keys (the loader once wrote past its six gRPC slots for them).
        only_error(with_top(top + "grpc: {address: a, reflection: true}\n") +
                       "    grpc: {lookup: {method: s.v1.R/Get}}\n",
                   8, 12, "unknown key 'lookup' in grpc", "");
    }
    SUBCASE("method names are package.Service/Method") {
        // One parser for suites, profiles and the transport (core/grpc_method.hpp):
        // "R/Get" (a service without a package, valid protobuf) is accepted
        // everywhere now; names no server can have are refused everywhere.
        for (const char* bad : {"GetProduct", "s.v1.R/", "/Get", "R-x/Get", "s.v1.R/Get/x", "s.v1.R/Get x"}) {
            CAPTURE(bad);
            only_error(with_top(top + "grpc: {address: a, reflection: true}\n") + "    grpc: {read: {method: \"" +
                           bad + "\"}}\n",
                       8, 27, "'" + std::string(bad) + "' is not a gRPC method name", "package.Service/Method");
        }
    }
    SUBCASE("keys that do not apply to an operation") {
        only_error(with_top(top + "grpc: {address: a, reflection: true}\n") +
                       "    grpc: {read: {method: s.v1.R/Get, body: {}}}\n",
                   8, 39, "unknown key 'body' in read", "allowed keys: method, id_field");
        only_error(with_top(top + "grpc: {address: a, reflection: true}\n") +
                       "    grpc: {create: {method: s.v1.R/New, id_field: /id}}\n",
                   8, 41, "unknown key 'id_field' in create", "allowed keys: method, body");
    }
    SUBCASE("a missing method") {
        only_error(with_top(top + "grpc: {address: a, reflection: true}\n") + "    grpc: {read: {id_field: /id}}\n", 8,
                   18, "missing required key 'method' in grpc read", "GetProduct");
    }
}

TEST_CASE("gRPC: a good binding loads, files resolved against the profile") {
    const LoadResult r = load_profile_text(
        "name: t\nbase_url: http://h\nprincipals: {a: {}}\n"
        "grpc: {address: \"${env:G:-127.0.0.1:1}\", tls: true, protos: [api/p.proto], import_paths: [api, /abs]}\n"
        "resources:\n  r:\n"
        "    grpc:\n"
        "      create: {method: s.v1.R/Create, body: {name: x}}\n"
        "      read: {method: s.v1.R/Get, id_field: /key}\n"
        "      list: {method: s.v1.R/List, items: /rs}\n",
        "/etc/shop/profile.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.profile);
    REQUIRE(r.profile->grpc);
    const GrpcTarget& g = *r.profile->grpc;
    CHECK(g.address == "${env:G:-127.0.0.1:1}");
    CHECK(g.tls);
    CHECK_FALSE(g.reflection);
    CHECK(g.protos == std::vector<std::string>{"/etc/shop/api/p.proto"});
    CHECK(g.import_paths == std::vector<std::string>{"/etc/shop/api", "/abs"});
    const Resource& res = r.profile->resources.at(0);
    CHECK_FALSE(res.create);  // no HTTP create: a gRPC-only resource
    REQUIRE(res.grpc);
    REQUIRE(res.grpc->create);
    CHECK(res.grpc->create->method == "s.v1.R/Create");
    REQUIRE(res.grpc->read);
    CHECK(res.grpc->read->id_field == "/key");
    REQUIRE(res.grpc->list);
    CHECK(res.grpc->list->items == "/rs");
    CHECK_FALSE(res.grpc->update);
}
