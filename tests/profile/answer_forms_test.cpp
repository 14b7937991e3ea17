// The answer forms of real APIs in the profile loader and the expander
// (load_answer_forms.cpp, expand_answer_forms.cpp), with the real packs: the
// new id only in an answer header, read/update/delete at the create answer's
// Location, reads answering an array, fields only in read answers.
#include "binding/access.hpp"
#include "test_support.hpp"

#include <boost/json/parse.hpp>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;

namespace {

// `extra` goes under the resource `items` (line 7 on), after its create.
std::string api(const std::string& extra, const std::string& packs = "[data-id, nil-max]") {
    return "name: api\n"                     // 1
           "base_url: http://127.0.0.1:9\n"  // 2
           "principals: {a: {}}\n"           // 3
           "packs: " +
           packs +
           "\n"                                            // 4
           "resources:\n"                                  // 5
           "  items:\n"                                    // 6
           "    create: {path: /items, body: {n: 1}}\n" +  // 7
           extra;
}

Profile loaded(const std::string& text) { return load_ok(text, "api.yaml"); }

BoundExpansion expanded(const std::string& text) {
    BoundExpansion e = bound(expand(loaded(text), packs_dir));
    INFO(dump(e.diagnostics));
    REQUIRE(e.diagnostics.empty());
    return e;
}

}  // namespace

TEST_CASE("id: {header: ...} loads: without `at` no answer has the id in a body, with it, read answers do") {
    Profile p = loaded(api("    id: {header: Docker-Upload-UUID, kind: uuidv4}\n"));
    CHECK(p.resources[0].id.header == "Docker-Upload-UUID");
    CHECK(p.resources[0].id.pointer.empty());
    CHECK(p.resources[0].id.kind == ids::IdKind::uuidv4);
    p = loaded(api("    id: {at: /id, header: Location}\n"));
    CHECK(p.resources[0].id.header == "Location");
    CHECK(p.resources[0].id.pointer == "/id");
}

TEST_CASE("id field keys that say nothing there are refused, even for a field named id") {
    // Each was accepted and then ignored: a key a user writes must act or be an error.
    only_error(api("    fields: {id: {at: /other_id, header: X-Id}}\n"), 8, 34,
               "'header' is for the entity's own id, not for field 'id'", "id: {header: Location}");
    only_error(api("    fields: {id: {at: /other_id, create_at: /x}}\n"), 8, 34,
               "'create_at' is for the entity's own id, not for field 'id'", "in_create: false");
    only_error(api("    fields: {legacy_no: {kind: existing, pattern: \"^[0-9]+$\"}}\n"), 8, 42,
               "'pattern' is for the entity's own id, not for field 'legacy_no'", "remove pattern:");
    only_error(api("    client_ids: {line_id: {at: /lines/0/id, kind: uuidv7, in_create: false}}\n"), 8, 59,
               "'in_create' does not apply to the client-chosen id 'line_id'", "remove in_create:");
}

TEST_CASE("id header errors: not a header name, on a field, in_create on the own id") {
    only_error(api("    id: {header: \"X Id\"}\n"), 8, 18, "'X Id' is not a header name", "header: Docker-Upload-UUID");
    only_error(api("    fields: {tracking_id: {header: X-Tracking}}\n"), 8, 28,
               "'header' is for the entity's own id, not for field 'tracking_id'", "id: {header: Location}");
    only_error(api("    id: {at: /id, in_create: false}\n"), 8, 19,
               "'in_create' is for the entity's other fields and references, not its own id", "header: Location");
    only_error(api("    id: {header: [Location]}\n"), 8, 18, "expected a string here, found a list",
               "header: Location");
}

TEST_CASE("id: {create_at: ...}: the create answer names the new id at another member, errors at their key") {
    const Profile p = loaded(api("    id: {at: /id, create_at: /orderID}\n"));
    CHECK(p.resources[0].id.pointer == "/id");
    CHECK(p.resources[0].id.create_pointer == "/orderID");
    CHECK(p.resources[0].id.create_pos.line == 8);
    only_error(api("    fields: {tracking_id: {create_at: /t}}\n"), 8, 28,
               "'create_at' is for the entity's own id, not for field 'tracking_id'", "in_create: false");
    only_error(api("    id: {at: /id, header: Location, create_at: /orderID}\n"), 8, 37,
               "'create_at' and 'header' both say where the create answer names the new id", "keep one");
    only_error(api("    id: {at: /id, create_at: /id}\n"), 8, 30,
               "create_at /id is where every answer has the id already (at: /id)", "drop create_at");
    only_error(api("    id: {create_at: /id}\n"), 8, 21,
               "create_at /id is where every answer has the id already (at: /id)", "drop create_at");
    only_error(api("    id: {at: /id, create_at: orderID}\n"), 8, 30, "bad JSON pointer 'orderID'",
               "a JSON pointer starts with '/'");
    only_error(api("    id: {at: /id, create_at: \"\"}\n"), 8, 30, "empty JSON pointer for 'create_at'", "/orderID");
}

TEST_CASE("expansion: create_at captures, judges and cleans up the new id where the create answer names it") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"/items/{id}\"}\n    update: {path: \"/items/{id}\", body: {n: 2}}\n"
                     "    delete: {path: \"/items/{id}\"}\n    location: false\n    time_field: /created_at\n"
                     "    id: {at: /id, create_at: /orderID}\n    fields: {tracking_id: {kind: uuidv4}}\n"));
    const suite::Suite& s = instance(e, "data-id-002 items");
    REQUIRE(!s.setup.empty());
    const suite::Step& create = s.setup.back();
    REQUIRE(create.captures.size() == 1);
    CHECK(create.captures[0].from == suite::Capture::From::json);
    CHECK(create.captures[0].path == "/orderID");
    REQUIRE(create.cleanup);
    CHECK(create.cleanup->id_at == "/orderID");
    // reads judge the id at /id
    const suite::Case& rd = case_named(s, "reading the live entity returns its id unchanged and canonical");
    REQUIRE(rd.steps[0].expect.ids.size() == 1);
    CHECK(rd.steps[0].expect.ids[0].at.value_or("") == "${res.id_at}");
    // DATA-ID-001 judges the minted id at /orderID on the create itself
    const suite::Case& minted =
        case_named(instance(e, "data-id-001 items"), "a create mints a v7 id in the body, inside the request window");
    REQUIRE(!minted.steps[0].expect.ids.empty());
    CHECK(minted.steps[0].expect.ids[0].at.value_or("") == "/orderID");
    // the v4 field and the time field are judged on a read-back of the entity
    for (const char* name : {"data-id-003 items", "data-id-005 items"}) {
        CAPTURE(name);
        bool read_back = false;
        for (const auto& c : instance(e, name).cases)
            for (const auto& st : c.steps)
                if (st.name.find("read the entity back") != std::string::npos) {
                    read_back = true;
                    CHECK(st.name.find("names the new id at /orderID, not at the entity's /id (create_at, api.yaml:") !=
                          std::string::npos);
                }
        CHECK(read_back);
    }
}

TEST_CASE("path \"{location}\" loads for read, update and delete, and nowhere else") {
    const Profile p =
        loaded(api("    read: {path: \"{location}\"}\n    update: {path: \"{location}\", body: {n: 2}}\n"
                   "    delete: {path: \"{location}\"}\n"));
    CHECK(p.resources[0].read->at_location);
    CHECK(p.resources[0].update->at_location);
    CHECK(p.resources[0].del->at_location);
    CHECK_FALSE(p.resources[0].create->at_location);
    only_error(api("    list: {path: \"{location}\"}\n"), 8, 18, "the list path cannot be '{location}'",
               "a list goes to the collection");
    only_error(api("    put: {path: \"{location}\"}\n"), 8, 17, "the put path cannot be '{location}'",
               "only read, update and delete");
    only_error(api("    read: {path: \"{location}/x\"}\n"), 8, 19, "'{location}' must be the whole read path",
               "path: \"{location}\"");
}

TEST_CASE("a Location path needs a create that answers a Location") {
    only_error(api("    read: {path: \"{location}\"}\n    location: false\n"), 8, 11,
               "the read of 'items' goes to the create answer's Location, but the profile says it has none "
               "(location: false)",
               "remove location: false");
    only_error(api("  other:\n    read: {path: \"{location}\"}\n"), 9, 11,
               "the read of 'other' goes to the create answer's Location, but 'other' has no create",
               "give 'other' a create");
}

TEST_CASE("a read with items answers an array, not at a Location") {
    const Profile p = loaded(api("    read: {path: \"/items?id=eq.{id}\", items: \"\"}\n"));
    CHECK(p.resources[0].read->answers_array);
    CHECK(p.resources[0].read->items.empty());
    CHECK(p.resources[0].read->path == "/items?id=eq.{id}");
    only_error(api("    read: {path: \"{location}\", items: \"\"}\n"), 8, 11,
               "a read at the create answer's Location cannot answer an array", "items: says the read filters");
    only_error(api("    read: {path: \"/items?id=eq.{id}\", items: data}\n"), 8, 46, "bad JSON pointer 'data'",
               "a JSON pointer starts with '/'");
}

TEST_CASE("in_create: false on fields and references, it needs a read") {
    const Profile p =
        loaded(api("    read: {path: \"/items/{id}\"}\n"
                   "    fields: {audit_id: {kind: uuidv4, in_create: false}}\n"
                   "    references: {owner_id: {resource: items, in_create: false}}\n"));
    CHECK_FALSE(p.resources[0].fields[0].in_create);
    CHECK_FALSE(p.resources[0].references[0].in_create);
    only_error(api("    fields: {audit_id: {kind: uuidv4, in_create: false}}\n"), 8, 5,
               "'items' has the field /audit_id only in read answers, but no read endpoint", "add read:");
    only_error(api("    read: {path: \"/items/{id}\"}\n    fields: {audit_id: {in_create: maybe}}\n"), 9, 36,
               "expected a boolean here, found 'maybe'", "in_create: true");
}

TEST_CASE("expansion: a header id is captured and judged in the header, on creates only when reads hold it at `at`") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"/items/{id}\"}\n    update: {path: \"/items/{id}\", body: {n: 2}}\n"
                     "    id: {at: /id, header: Location}\n"));
    const suite::Suite& s = instance(e, "data-id-002 items");
    REQUIRE(!s.setup.empty());
    const suite::Step& create = s.setup.back();
    REQUIRE(create.captures.size() == 1);
    CHECK(create.captures[0].from == suite::Capture::From::header_id);
    CHECK(create.captures[0].path == "Location");
    REQUIRE(create.cleanup);
    CHECK(e.deletion(create).id_header == "Location");
    CHECK(e.deletion(create).resource == "items");
    // The read answers hold the id at /id: judged there.
    const suite::Case& rd = case_named(s, "reading the live entity returns its id unchanged and canonical");
    REQUIRE(rd.steps[0].expect.ids.size() == 1);
    CHECK(rd.steps[0].expect.ids[0].at.value_or("") == "${res.id_at}");
    // DATA-ID-001's body case judges the new id where the create answer has it.
    const suite::Suite& s1 = instance(e, "data-id-001 items");
    const suite::Case& minted = case_named(s1, "a create mints a v7 id in the body, inside the request window");
    REQUIRE(minted.steps[0].expect.ids.size() == 1);
    CHECK(minted.steps[0].expect.ids[0].header.value_or("") == "Location");
    CHECK_FALSE(minted.steps[0].expect.ids[0].at);
}

TEST_CASE(
    "expansion: a header-only id: every answer judged in the header, reads may answer 204, body id edits not "
    "applicable") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"{location}\"}\n    update: {method: PATCH, path: \"{location}\"}\n"
                     "    delete: {path: \"{location}\"}\n    id: {header: Docker-Upload-UUID, kind: uuidv4}\n"));
    const suite::Suite& s = instance(e, "data-id-006 items");
    const suite::Case& upd = case_named(s, "the id is unchanged after an update");
    REQUIRE(upd.steps.size() == 2);
    CHECK(e.location_of(upd.steps[0]) == "items");
    CHECK(upd.steps[0].expect.ids[0].header.value_or("") == "Docker-Upload-UUID");
    const auto& read = upd.steps[1];
    CHECK(e.location_of(read) == "items");
    CHECK(read.expect.status->exact.empty());
    CHECK(read.expect.status->classes == std::vector<int>{2});
    const suite::Case& body = case_named(s, "the id is unchanged after an update whose body carries another id");
    CHECK(body.skip.find("not applicable: the answers of 'items' name its id only in the Docker-Upload-UUID header") ==
          0);
    // Deleted where the create answer said it is.
    REQUIRE(s.setup.back().cleanup);
    CHECK(e.deletion(s.setup.back()).at_location);
    // nil-max creates nothing in its setup: one create shows where other ids go.
    const suite::Suite& nm = instance(e, "nil-max items");
    REQUIRE(nm.setup.size() == 1);
    CHECK(nm.setup[0].is<suite::HttpRequest>());
    CHECK(nm.setup[0].as<suite::HttpRequest>().path == "/items");
    CHECK(nm.setup[0].name.find("Location") != std::string::npos);
}

TEST_CASE("expansion: an array read is judged by its element, a refusal accepts []") {
    const BoundExpansion e = expanded(
        api("    read: {path: \"/items?id=eq.{id}\", items: \"\"}\n    delete: {path: \"/items?id=eq.{id}\"}\n"));
    const suite::Suite& s = instance(e, "data-id-002 items");
    const suite::Case& rd = case_named(s, "reading the live entity returns its id unchanged and canonical");
    REQUIRE(e.entity_array(rd.steps[0]));
    CHECK(e.entity_array(rd.steps[0])->empty());
    CHECK_FALSE(rd.steps[0].expect.status->not_found);  // a read that wants the entity: [] is a failure
    const suite::Case& neg = case_named(s, "a mutated live id in a read path is rejected");
    REQUIRE(neg.steps[0].expect.status->not_found);
    CHECK(neg.steps[0].expect.status->not_found->status == 200);
    CHECK(neg.steps[0].expect.status->not_found->body == boost::json::array());
    // The delete is not a read: no array form there.
    const suite::Case& del = case_named(s, "a mutated live id in a delete path deletes nothing");
    CHECK_FALSE(e.entity_array(del.steps[0]));
    CHECK(e.entity_array(del.steps[1]));
}

TEST_CASE("expansion: what the create answer lacks is judged on a read-back of the new entity") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"/items/{id}\"}\n"
                     "    fields: {audit_id: {kind: uuidv4, in_create: false}}\n"));
    const suite::Suite& s = instance(e, "data-id-003 items");
    const suite::Case& c = case_named(s, "a v4 field of a new entity holds a v4 id");
    REQUIRE(c.steps.size() == 2);
    CHECK(c.steps[0].expect.ids.empty());  // nothing "missing" on the create answer
    REQUIRE(c.steps[0].captures.size() == 1);
    CHECK(c.steps[0].captures[0].var == "readback.id");
    const auto& back = c.steps[1];
    CHECK(back.as<suite::HttpRequest>().path == "/items/{id}");
    REQUIRE(back.as<suite::HttpRequest>().path_params.size() == 1);
    CHECK(back.as<suite::HttpRequest>().path_params[0].second == "${readback.id}");
    REQUIRE(back.expect.ids.size() == 1);
    CHECK(back.expect.ids[0].at.value_or("") == "${res.v4_field}");
    CHECK(back.expect.ids[0].kind == "uuidv4");
    CHECK(back.name.find("/audit_id") != std::string::npos);
    // A field in the create answer stays there.
    const BoundExpansion e2 = expanded(api("    read: {path: \"/items/{id}\"}\n    fields: {audit_id: {kind: uuidv4}}\n"));
    CHECK(case_named(instance(e2, "data-id-003 items"), "a v4 field of a new entity holds a v4 id").steps.size() == 1);
}

TEST_CASE("expansion: with the id only in the create answer's Location, its other checks are read back") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"{location}\"}\n    id: {at: /id, header: Location}\n"
                     "    references: {parent_id: {resource: items}}\n"));
    const suite::Suite& s = instance(e, "data-id-007 items");
    const suite::Case& c = case_named(s, "an omitted optional reference comes back null or omitted");
    REQUIRE(c.steps.size() == 2);
    CHECK(c.steps[0].expect.ids.empty());
    CHECK(c.steps[0].captures[0].from == suite::Capture::From::header_id);
    CHECK(e.location_of(c.steps[1]) == "items");
    CHECK(c.steps[1].expect.ids[0].at.value_or("") == "${res.optional_ref_at}");
}

TEST_CASE(
    "expansion: DATA-ID-005 judges the id beside the time field on the read-back when the create holds no entity") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"{location}\"}\n    id: {at: /id, header: Location}\n"
                     "    time_field: /created_at\n"));
    const suite::Case& c =
        case_named(instance(e, "data-id-005 items"), "a new entity has an explicit time field not derived from its id");
    REQUIRE(c.steps.size() == 2);
    CHECK(c.steps[0].expect.ids.empty());
    REQUIRE(c.steps[1].expect.ids.size() == 1);
    CHECK(c.steps[1].expect.ids[0].at.value_or("") == "${res.id_at}");
    CHECK(c.steps[1].expect.ids[0].time_field == "${res.time_field}");
}

TEST_CASE("expansion: the creates of db-identifiers read the id from the header too") {
    const BoundExpansion e =
        expanded(api("    read: {path: \"/items/{id}\"}\n    delete: {path: \"/items/{id}\"}\n"
                     "    id: {at: /id, kind: ulid, header: Location}\n",
                     "[db-identifiers]"));
    const suite::Suite& s = instance(e, "db-identifiers-r1 items");
    REQUIRE(!s.setup.empty());
    REQUIRE(!s.setup[0].captures.empty());
    CHECK(s.setup[0].captures[0].from == suite::Capture::From::header_id);
    REQUIRE(s.setup[0].cleanup);
    CHECK(e.deletion(s.setup[0]).id_header == "Location");
}

TEST_CASE("a read answering an array at the root has the not-found answer 200 [] unless it says another") {
    Profile p = loaded(api("    read: {path: \"/items?id=eq.{id}\", items: \"\"}\n"));
    REQUIRE(p.resources[0].read->not_found);
    CHECK(p.resources[0].read->not_found->status == 200);
    CHECK(p.resources[0].read->not_found->body == boost::json::array());
    p = loaded(api("    read: {path: \"/items?id=eq.{id}\", items: \"\", not_found: {status: 206, body: []}}\n"));
    CHECK(p.resources[0].read->not_found->status == 206);
    p = loaded(api("    read: {path: \"/items?id=eq.{id}\", items: /data}\n"));
    CHECK_FALSE(p.resources[0].read->not_found);
}

TEST_CASE("time_field: {at: ..., in_create: false}: judged on a read-back, errors at their key") {
    const std::string read = "    read: {path: \"/items/{id}\"}\n";
    const Profile p = loaded(api(read + "    time_field: {at: /created_at, in_create: false}\n"));
    CHECK(p.resources[0].time_field == "/created_at");
    CHECK_FALSE(p.resources[0].time_in_create);
    const Profile plain = loaded(api(read + "    time_field: /created_at\n"));
    CHECK(plain.resources[0].time_in_create);
    only_error(api("    time_field: {at: /created_at, in_create: false}\n"), 8, 5,
               "'items' has the time field /created_at only in read answers, but no read endpoint", "read: {path:");
    only_error(api(read + "    time_field: {in_create: false}\n"), 9, 5,
               "time_field needs 'at', the time field's JSON pointer",
               "time_field: {at: /created_at, in_create: false}");
    only_error(api(read + "    time_field: {at: /created_at, in_create: maybe}\n"), 9, 46,
               "expected a boolean here, found 'maybe'", "");
    only_error(api(read + "    time_field: {at: created_at}\n"), 9, 22, "bad JSON pointer 'created_at'",
               "a JSON pointer starts with '/'");

    // the expansion: DATA-ID-005 reads the new entity back and judges its time field there
    const BoundExpansion e = expanded(api(read + "    delete: {path: \"/items/{id}\"}\n    location: false\n"
                                            "    time_field: {at: /created_at, in_create: false}\n"));
    const suite::Case* c = nullptr;
    for (const auto& s : e.suites)
        for (const auto& k : s.cases)
            if (k.name.rfind("a new entity has an explicit time field", 0) == 0) c = &k;
    REQUIRE(c);
    CHECK(c->skip.empty());
    bool judged_on_read = false;
    for (const auto& st : c->steps)
        for (const auto& id : st.expect.ids)
            if (!id.time_field.empty()) judged_on_read = st.name.find("read the entity back") == 0;
    CHECK(judged_on_read);
}

TEST_CASE("not_found: {status: 200, at: /found, equals: false} on read, update and delete, errors at their key") {
    const Profile p = loaded(
        api("    read: {path: \"/items/{id}\", not_found: {status: 200, at: /found, equals: false}}\n"
            "    update: {path: \"/items/{id}\", body: {n: 2}, not_found: {status: 200, at: /found, equals: false}}\n"
            "    delete: {path: \"/items/{id}\", not_found: {status: 200, at: /ttl, equals: -1}}\n"));
    const Resource& r = p.resources[0];
    REQUIRE(r.read->not_found);
    CHECK(r.read->not_found->at == "/found");
    CHECK(r.read->not_found->equals == boost::json::value(false));
    REQUIRE(r.update->not_found);
    REQUIRE(r.del->not_found);
    CHECK(r.del->not_found->equals == boost::json::value(-1));
    only_error(api("    read: {path: \"/items/{id}\", not_found: {status: 200, body: {}, at: /found}}\n"), 8, 68,
               "not_found has 'body' and 'at'", "keep one");
    only_error(api("    read: {path: \"/items/{id}\", not_found: {status: 200, at: /found}}\n"), 8, 58,
               "not_found has 'at' without 'equals'", "at: /found, equals: false");
    only_error(api("    read: {path: \"/items/{id}\", not_found: {status: 200, equals: false}}\n"), 8, 58,
               "not_found has 'equals' without 'at'", "at: /found, equals: false");
    only_error(api("    read: {path: \"/items/{id}\", not_found: {status: 200, at: found, equals: false}}\n"), 8, 62,
               "bad JSON pointer 'found'", "a JSON pointer starts with '/'");
    only_error(api("    read: {path: \"/items/{id}\", not_found: {status: 200}}\n"), 8, 44,
               "missing required key 'body' in not_found", "at: and equals:");

    // the expansion: a refusal the delete case wants accepts the value form
    const BoundExpansion e =
        expanded(api("    read: {path: \"/items/{id}\", not_found: {status: 200, at: /found, equals: false}}\n"
                     "    delete: {path: \"/items/{id}\", not_found: {status: 200, at: /found, equals: false}}\n"));
    bool seen = false;
    for (const auto& s : e.suites)
        for (const auto& c : s.cases)
            for (const auto& st : c.steps)
                if (st.expect.status && st.expect.status->not_found && !st.expect.status->not_found->at.empty()) {
                    CHECK(st.expect.status->not_found->at == "/found");
                    CHECK(suite::is_refusal(*st.expect.status));
                    seen = true;
                }
    CHECK(seen);
}

TEST_CASE("id_at on read, update and delete: the id in a JSON body, the path without {id}, errors at their key") {
    const std::string rpc =
        "    read: {method: POST, path: \"/items:get\", id_at: /id}\n"
        "    update: {method: POST, path: /items, id_at: /id, body: {n: 2}}\n"
        "    delete: {method: POST, path: \"/items:delete\", id_at: /item/id, body: {why: t}}\n"
        "    location: false\n";
    const Profile p = loaded(api(rpc));
    const Resource& r = p.resources[0];
    CHECK(r.read->id_at == "/id");
    CHECK(r.update->id_at == "/id");
    CHECK(r.del->id_at == "/item/id");
    REQUIRE(r.del->body);
    // without id_at a read path still needs {id}, and says how to name it in a body
    only_error(api("    read: {method: POST, path: \"/items:get\"}\n"), 8, 32,
               "the read path '/items:get' has no '{id}'", "id_at: /id}");
    only_error(api("    delete: {path: /items}\n"), 8, 20, "the delete path '/items' has no '{id}'",
               "write id_at: /id (and method: POST)");
    only_error(api("    read: {path: \"/items:get\", id_at: id}\n"), 8, 39, "bad JSON pointer 'id'", "/id");
    only_error(api("    delete: {path: \"/items/{id}\", body: {why: t}}\n"), 8, 35,
               "a delete body is sent only with id_at", "or drop the body");

    const BoundExpansion e = expanded(api(rpc));
    // every read, update and delete of the packs is a POST with the id at id_at
    std::size_t bound = 0;
    for (const auto& s : e.suites)
        for (const auto& c : s.cases)
            for (const auto& st : c.steps) {
                if (!st.is<suite::HttpRequest>()) continue;
                const auto& h = st.as<suite::HttpRequest>();
                if (h.path != "/items:get" && h.path != "/items:delete") continue;
                ++bound;
                CHECK(h.method == "POST");
                REQUIRE(h.json);
                REQUIRE(!h.set.empty());
                CHECK(h.set.front().first == (h.path == "/items:get" ? "/id" : "/item/id"));
                if (h.path == "/items:delete") CHECK(h.json->as_object().contains("why"));
            }
    CHECK(bound > 10);
    // the creates are cleaned up by the POST delete with the id in its body, confirmed by the POST read
    const suite::Suite& s = instance(e, "data-id-002 items");
    REQUIRE(s.setup.back().cleanup);
    REQUIRE(e.of(s.setup.back()));
    const binding::Deletion& cl = e.deletion(s.setup.back());
    CHECK(cl.method == "POST");
    CHECK(cl.body_id_at == "/item/id");
    CHECK(cl.read_method == "POST");
    CHECK(cl.read_body_id_at == "/id");
    // an update that names the entity by /id cannot carry another id there
    const suite::Case& other = case_named(instance(e, "data-id-006 items"),
                                          "the id is unchanged after an update whose body carries another id");
    CHECK(other.skip.find("names the entity by the id in its body (api.yaml:9:13)") != std::string::npos);
    CHECK(case_named(instance(e, "data-id-006 items"), "the id is unchanged after an update").skip.empty());
}

TEST_CASE("a reference named otherwise in answers (at:) is sent under its key and judged at its pointer") {
    const std::string text =
        api("    read: {path: \"/items/{id}\"}\n"
            "    references: {parent: {resource: items, at: /parent_series}}\n");
    const Profile p = loaded(text);
    REQUIRE(p.resources[0].references.size() == 1);
    CHECK(p.resources[0].references[0].answer_at() == "/parent_series");
    const BoundExpansion e = expanded(text);
    const suite::Suite& s = instance(e, "data-id-007 items");
    const suite::Case& set = case_named(s, "an optional reference that is set comes back as that id");
    REQUIRE(set.steps[0].is<suite::HttpRequest>());
    CHECK(set.steps[0].as<suite::HttpRequest>().set.front().first == "/${res.optional_ref}");  // sent as `parent`
    REQUIRE(set.steps[0].expect.ids.size() == 1);
    CHECK(set.steps[0].expect.ids[0].at.value_or("") == "${res.optional_ref_at}");
    bool var_seen = false;
    for (const auto& v : s.vars)
        if (v.name == "res.optional_ref_at") {
            CHECK(v.value == boost::json::value("/parent_series"));
            var_seen = true;
        }
    CHECK(var_seen);
    only_error(api("    references: {parent: {resource: items, at: parent_series}}\n"), 8, 48,
               "bad JSON pointer 'parent_series'", "a JSON pointer starts with '/'");
}

TEST_CASE("put: {replaces: true}: a PUT to a live id replaces it, and DATA-ID-006 judges that instead of a refusal") {
    const std::string put = "    read: {path: \"/items/{id}\"}\n    put: {path: \"/items/{id}\", replaces: true}\n";
    CHECK(loaded(api(put)).resources[0].put->replaces);
    CHECK_FALSE(loaded(api("    put: {path: \"/items/{id}\"}\n")).resources[0].put->replaces);
    only_error(api("    put: {path: \"/items/{id}\", replaces: yes-please}\n"), 8, 42,
               "expected a boolean here, found 'yes-please'", "");
    only_error(api("    read: {path: \"/items/{id}\", replaces: true}\n"), 8, 33, "unknown key 'replaces' in read", "");
    auto skip_of = [](const Expansion& e, const std::string& name) {
        return case_named(instance(e, "data-id-006 items"), name).skip;
    };
    const BoundExpansion replaces = expanded(api(put));
    CHECK(skip_of(replaces, "a PUT to a live id replaces that entity and keeps its id").empty());
    CHECK(skip_of(replaces, "a create with an existing id fails and leaves the entity unchanged")
              .find("creates or replaces (replaces: true)") != std::string::npos);
    const BoundExpansion creates = expanded(api("    read: {path: \"/items/{id}\"}\n    put: {path: \"/items/{id}\"}\n"));
    CHECK(skip_of(creates, "a create with an existing id fails and leaves the entity unchanged").empty());
    CHECK(skip_of(creates, "a PUT to a live id replaces that entity and keeps its id").find("only creates") !=
          std::string::npos);
}

TEST_CASE("client_ids: a fresh id at each sub-object pointer of every create, dummies and mutations sent there") {
    const std::string text =
        "name: api\nbase_url: http://127.0.0.1:9\nprincipals: {a: {}}\npacks: [data-id, nil-max]\nresources:\n"
        "  orders:\n    create: {path: /orders, body: {lines: [{sku: a}]}}\n"
        "    client_ids: {line_id: {at: /lines/0/id, kind: uuidv7}}\n";
    const Profile p = loaded(text);
    REQUIRE(p.resources[0].client_ids.size() == 1);
    CHECK(p.resources[0].client_ids[0].pointer == "/lines/0/id");
    const BoundExpansion e = expanded(text);
    const suite::Suite& s = instance(e, "data-id-007 orders");
    const suite::Case& dummy =
        case_named(s, "a client-chosen sub-object id holding an absent-value placeholder is rejected");
    CHECK(dummy.skip.empty());
    REQUIRE(dummy.steps[0].is<suite::HttpRequest>());
    const auto& h = dummy.steps[0].as<suite::HttpRequest>();
    REQUIRE(h.json);
    // the create body: the sku kept, a fresh v7 at the line's id, then the pack's edit
    CHECK(*h.json == boost::json::parse(R"({"lines": [{"sku": "a", "id": "${gen:uuidv7}"}]})"));
    REQUIRE(!h.set.empty());
    CHECK(h.set.back().first == "${res.client_id_at}");
    CHECK(case_named(instance(e, "nil-max orders"), "Nil and Max as a client-chosen sub-object id are rejected")
              .skip.empty());
    // without client_ids the cases say what to add
    const BoundExpansion plain = expanded(api(""));
    CHECK(case_named(instance(plain, "data-id-007 items"),
                     "a client-chosen sub-object id holding an absent-value placeholder is rejected")
              .skip.find("add `client_ids:`") != std::string::npos);
    only_error(api("    client_ids: {legacy: {at: /a/id, kind: existing}}\n"), 8, 26,
               "idconform cannot make client-chosen ids of kind existing for 'legacy': without a pattern it says "
               "nothing of the ids' form; add pattern: (an RE2 expression of the ids) to the id",
               "uuidv7, uuidv4, ulid");
}

TEST_CASE("not_found: {status: 204, empty: true}: an answer with no body, alone, errors at their key") {
    const Profile p = loaded(api("    delete: {path: \"/items/{id}\", not_found: {status: 204, empty: true}}\n"));
    REQUIRE(p.resources[0].del->not_found);
    CHECK(p.resources[0].del->not_found->empty);
    CHECK(p.resources[0].del->not_found->status == 204);
    only_error(api("    delete: {path: \"/items/{id}\", not_found: {status: 204, empty: true, body: []}}\n"), 8, 73,
               "not_found has 'empty' and 'body'", "keep empty: true alone");
    only_error(api("    delete: {path: \"/items/{id}\", not_found: {status: 204, empty: false}}\n"), 8, 67,
               "not_found: empty: false says nothing", "empty: true");
    const BoundExpansion e =
        expanded(api("    read: {path: \"/items/{id}\"}\n"
                     "    delete: {path: \"/items/{id}\", not_found: {status: 204, empty: true}}\n"));
    const suite::Case& c =
        case_named(instance(e, "data-id-004 items"), "another principal cannot delete the entity by its id");
    REQUIRE(c.steps[0].expect.status);
    REQUIRE(c.steps[0].expect.status->not_found);
    CHECK(c.steps[0].expect.status->not_found->empty);
}

TEST_CASE("an update answering 204 with no body whatever it matched: refused updates are read back, so are checks") {
    const std::string blind =
        "    read: {path: \"/items/{id}\"}\n"
        "    update: {path: \"/items?id=eq.{id}\", body: {n: idconform-renamed},\n"
        "             not_found: {status: 204, empty: true}}\n";
    // two principals, so that DATA-ID-004 runs (line 3, the lines keep their numbers)
    auto two = [](std::string text) { return text.replace(text.find("{a: {}}"), 7, "{a: {}, b: {}}"); };
    const BoundExpansion e = expanded(two(api(blind)));
    // a mutated id: the 204 is accepted, and the live entity must not hold the update's text
    const suite::Case& m =
        case_named(instance(e, "data-id-002 items"), "a mutated live id in an update path is rejected");
    REQUIRE(m.skip.empty());
    REQUIRE(m.steps.size() == 2);
    REQUIRE(m.steps[0].expect.status);
    REQUIRE(m.steps[0].expect.status->not_found);
    CHECK(m.steps[0].expect.status->not_found->empty);
    const suite::Step& back = m.steps[1];
    CHECK(back.name == "read the entity after the refused update: the update was not applied");
    const auto& read = back.as<suite::HttpRequest>();
    CHECK(read.method == "GET");
    REQUIRE(read.path_params.size() == 1);
    CHECK(read.path_params[0].second == "${live_id}");  // the live id, not the mutation
    CHECK(read.principal == "owner");
    REQUIRE(back.expect.body);
    CHECK(back.expect.body->not_contains == std::vector<std::string>{"idconform-renamed"});
    // another principal's update: read back as the owner
    const suite::Case& o =
        case_named(instance(e, "data-id-004 items"), "another principal cannot update the entity by its id");
    REQUIRE(o.steps.size() == 2);
    CHECK(o.steps[0].as<suite::HttpRequest>().principal == "other");
    CHECK(o.steps[1].as<suite::HttpRequest>().principal == "owner");
    // Nil and Max: no entity has them, nothing to read back
    CHECK(case_named(instance(e, "nil-max items"), "Nil and Max as update path ids are rejected").steps.size() == 1);
    // an update expected to succeed: its answer's id checks move to a read right after it
    const suite::Case& u = case_named(instance(e, "data-id-006 items"), "the id is unchanged after an update");
    REQUIRE(u.steps.size() == 3);
    CHECK(u.steps[0].expect.ids.empty());
    CHECK(u.steps[1].name == "read the entity after the update (its answer has no body)");
    REQUIRE(u.steps[1].expect.ids.size() == 1);
    CHECK(u.steps[1].expect.ids[0].equals.value_or("") == "${live_id}");
    // an update body with no text of its own: a refused update cannot be judged
    const BoundExpansion same =
        expanded(two(api("    read: {path: \"/items/{id}\"}\n"
                         "    update: {path: \"/items?id=eq.{id}\", body: {n: 1},\n"
                         "             not_found: {status: 204, empty: true}}\n")));
    const suite::Case& s =
        case_named(instance(same, "data-id-004 items"), "another principal cannot update the entity by its id");
    INFO(s.skip);
    CHECK(s.skip.find("not applicable: the update of 'items' answers 204 with no body whether or not it matched "
                      "(not_found, api.yaml:10:25)") == 0);
    CHECK(s.skip.find("writes no text the create body does not") != std::string::npos);
    // without the form nothing changes
    const BoundExpansion plain =
        expanded(two(api("    read: {path: \"/items/{id}\"}\n    update: {path: \"/items/{id}\", body: {n: x}}\n")));
    CHECK(case_named(instance(plain, "data-id-004 items"), "another principal cannot update the entity by its id")
              .steps.size() == 1);
}

namespace {

// A notes API whose note create makes a notebook; `notebooks` (line 9) is
// written with `made` and tasks reference it.
std::string notebooks(const std::string& made, const std::string& notes_extra = "") {
    return "name: api\n"                                                                      // 1
           "base_url: http://127.0.0.1:9\n"                                                   // 2
           "principals: {a: {}}\n"                                                            // 3
           "packs: [data-id]\n"                                                               // 4
           "resources:\n"                                                                     // 5
           "  notes:\n"                                                                       // 6
           "    create: {path: /notes, body: {title: t, notebook: \"n-${gen:uuidv7}\"}}\n" +  // 7
           notes_extra +                                                                      // (8)
           "  notebooks:\n" +                                                                 // 8 or 9
           made +                                                                             //
           "  tasks:\n"
           "    create: {path: /tasks, body: {title: t}}\n"
           "    references: {notebook_id: {resource: notebooks, required: true}}\n";
}

}  // namespace

TEST_CASE("made_by: a resource only another's create makes, filled into references, errors at their key") {
    const std::string made =
        "    made_by: {resource: notes, at: /notebook_id}\n"
        "    read: {path: \"/notebooks/{id}\"}\n"
        "    delete: {path: \"/notebooks/{id}\"}\n";
    const Profile p =
        loaded(notebooks(made, "    read: {path: \"/notes/{id}\"}\n    delete: {path: \"/notes/{id}\"}\n"));
    REQUIRE(p.resources[1].made_by);
    CHECK(p.resources[1].made_by->resource == "notes");
    CHECK(p.resources[1].made_by->at == "/notebook_id");
    const BoundExpansion e =
        expanded(notebooks(made, "    read: {path: \"/notes/{id}\"}\n    delete: {path: \"/notes/{id}\"}\n"));
    const suite::Suite& s = instance(e, "data-id-007 tasks");
    // setup: a note's create gives the notebook's id; its cleanup deletes the note, then the notebook
    REQUIRE_FALSE(s.setup.empty());
    const suite::Step& make = s.setup[0];
    CHECK(make.name == "create a 'notes' entity, which makes a 'notebooks' entity for the references of 'tasks'");
    CHECK(make.as<suite::HttpRequest>().path == "/notes");
    REQUIRE(make.captures.size() == 1);
    CHECK(make.captures[0].var == "entity.notebooks");
    CHECK(make.captures[0].path == "/notebook_id");
    REQUIRE(make.cleanup);
    CHECK(make.cleanup->path == "/notes/{id}");
    REQUIRE(e.deletion(make).made.size() == 1);
    CHECK(e.deletion(make).made[0].path == "/notebooks/{id}");
    CHECK(e.deletion(make).made[0].id_at == "/notebook_id");
    // every create of notes deletes what it made too (the notes pack instance's own)
    const suite::Case& c = case_named(instance(e, "data-id-006 notes"), "back-to-back creates give distinct ids");
    REQUIRE(c.steps[0].cleanup);
    CHECK(e.deletion(c.steps[0]).made.size() == 1);
    // no pack instance of notebooks (nothing creates one by itself)
    CHECK_FALSE(find_instance(e, "data-id-007 notebooks"));
    // errors
    only_error(notebooks("    made_by: {resource: nots, at: /notebook_id}\n    read: {path: \"/notebooks/{id}\"}\n"), 9,
               25, "unknown resource 'nots' in made_by of 'notebooks'", "notes");
    only_error(notebooks("    made_by: {resource: notebooks, at: /notebook_id}\n"), 9, 25,
               "'notebooks' is made_by itself", "the other resource");
    only_error(notebooks("    create: {path: /notebooks}\n    made_by: {resource: notes, at: /notebook_id}\n"), 10, 25,
               "resource 'notebooks' has both 'create' and 'made_by'", "keep create:");
    // the run deletes what it takes to be made: each create must make a new one
    const std::string deletes =
        "    made_by: {resource: notes, at: /notebook_id}\n    delete: {path: \"/notebooks/{id}\"}\n";
    std::string same_name = notebooks(deletes);
    same_name.replace(same_name.find("\"n-${gen:uuidv7}\""), 17, "n");
    only_error(same_name, 9, 25,
               "the run would delete the 'notebooks' entity a create of 'notes' makes, which may be one that existed "
               "before",
               "a fresh name in its body");
    std::string fresh = same_name;
    fresh.replace(fresh.find("/notebook_id}"), 13, "/notebook_id, fresh: true}");
    CHECK(loaded(fresh).resources[1].made_by->fresh);
    only_error(notebooks("    made_by: {resource: notes}\n"), 9, 5, "made_by needs 'at'", "made_by: {resource:");
    only_error(notebooks("    made_by: {resource: notes, at: notebook_id}\n"), 9, 36, "bad JSON pointer 'notebook_id'",
               "/");
}
