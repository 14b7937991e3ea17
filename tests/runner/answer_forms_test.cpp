// The run-time halves of the profile's answer forms: the Location book
// (entities at the URL their create answered, same origin only), reads
// answering an array (entity_view), captures of the id a header names, and
// http steps built at a Location, and the cleanup's requests for an entity
// named by its URL or by the id in a JSON body.
#include "binding/locations.hpp"
#include "runner/captures.hpp"
#include "runner/cleanup.hpp"
#include "binding/access.hpp"
#include "binding/operations.hpp"
#include "binding/entity_view.hpp"
#include "runner/steps/env.hpp"
#include "runner/steps/http.hpp"
#include "test_support.hpp"

#include <boost/asio/io_context.hpp>
#include <map>
#include <boost/json/parse.hpp>
#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::runner;
using namespace idconform::binding;
using namespace idconform::runner::test;

namespace {

// Books what a create step bound to `d` made, as the engine does after a
// 2xx: through the suite's step bindings (register_created).
void book(SuiteRun& run, const Deletion& d, const Request& req, const Exchange& x, BodyJson& body) {
    suite::Step st;
    st.cleanup = written_form(d);
    BoundSteps bound;
    bound.add(st, {nullptr, std::make_shared<const Deletion>(d)});
    const BoundSteps* before = run.bound;
    run.bound = &bound;
    register_created(run, st, req, x, body, Scope{}, "create");
    run.bound = before;
}

}  // namespace

namespace {

const std::string base = "http://127.0.0.1:8080";
const std::string id = "01932c07-2a3b-7c4d-8e5f-0a1b2c3d4e5f";

// A suite's run state with no transport, for the cleanup's bookkeeping.
struct CleanupRun {
    suite::Suite s;
    const TransportFactory factory;
    boost::asio::io_context io;
    SuiteRun run{s, factory, io.get_executor()};
    CleanupRun() { run.env.base_url = base; }
};

}  // namespace

TEST_CASE("a relative Location is resolved against the create's URL, another id takes the created id's place") {
    LocationBook book;
    book.record("uploads", id, "/v2/p/blobs/uploads/" + id + "?_state=abc", base + "/v2/p/blobs/uploads/", base);
    CHECK(book.knows("uploads"));
    auto own = book.url_for("uploads", id);
    REQUIRE(own.has_value());
    CHECK(*own == base + "/v2/p/blobs/uploads/" + id + "?_state=abc");
    auto other = book.url_for("uploads", "{" + id + "} ");
    REQUIRE(other.has_value());
    CHECK(*other == base + "/v2/p/blobs/uploads/%7B" + id + "%7D%20?_state=abc");
    // Relative to the request's path, as a browser resolves it.
    book.record("files", "f1", "f1", base + "/v1/files/", base);
    CHECK(*book.url_for("files", "f1") == base + "/v1/files/f1");
}

TEST_CASE("an absolute Location on the same origin is used, on another origin it is never followed") {
    LocationBook book;
    book.record("w", id, "HTTP://127.0.0.1:8080/v1/w/" + id, base + "/v1/w", base);
    CHECK(book.url_for("w", id).has_value());
    LocationBook other;
    other.record("w", id, "http://localhost:8080/v1/w/" + id, base + "/v1/w", base);
    auto u = other.url_for("w", id);
    REQUIRE_FALSE(u.has_value());
    CHECK(u.error().find(
              "is on another origin (http://localhost:8080) than base_url (http://127.0.0.1:8080): not followed") !=
          std::string::npos);
    auto m = other.url_for("w", "x");
    REQUIRE_FALSE(m.has_value());
    CHECK(m.error().find("another origin") != std::string::npos);
    CHECK(origin_of("https://Example.com/x") == "https://example.com:443");
    CHECK(origin_of("/relative").empty());
}

TEST_CASE("a Location without the id addresses only that entity, an unknown resource says what is missing") {
    LocationBook book;
    book.record("jobs", id, "/v1/jobs/session-42", base + "/v1/jobs", base);
    CHECK(*book.url_for("jobs", id) == base + "/v1/jobs/session-42");
    auto m = book.url_for("jobs", "other");
    REQUIRE_FALSE(m.has_value());
    CHECK(m.error().find("does not hold the id '" + id + "' exactly once") != std::string::npos);
    auto none = LocationBook().url_for("jobs", id);
    REQUIRE_FALSE(none.has_value());
    CHECK(none.error().find("no create of 'jobs' answered a Location yet") == 0);
}

TEST_CASE("an http step with location_of goes to the entity's Location") {
    LocationBook book;
    book.record("w", id, "/v1/w/" + id, base + "/v1/w", base);
    steps::Env env;
    env.base_url = base;
    env.locations = &book;
    suite::HttpRequest h;
    h.method = "PATCH";
    h.path = "{location}";
    Access at;
    at.location_of = "w";
    h.path_params = {{"id", "${live}"}};
    Scope scope;
    scope.set("live", boost::json::value(id));
    auto r = steps::build(h, env, scope, &at);
    REQUIRE(r.has_value());
    CHECK(r->url == base + "/v1/w/" + id);
    scope.set("live", boost::json::value("NOPE"));
    CHECK(steps::build(h, env, scope, &at)->url == base + "/v1/w/NOPE");
    const auto as_written = steps::build(h, env, scope);  // no access: the path as written, not the Location
    CHECK((!as_written || as_written->url.find("/v1/w/") == std::string::npos));
}

TEST_CASE("a read answering an array: one element is the entity, [] is not found, more is an error") {
    std::string array;  // the answer itself
    suite::HttpRequest h;
    suite::Expect want;
    suite::StatusExpect ok;
    ok.exact = {200};
    want.status = ok;
    EntityView one = entity_view(h, array, want, answered(200, R"([{"id":"a"}])"), "DATA-ID-002");
    REQUIRE(one.view);
    CHECK(js(one.view->response->body) == js(R"({"id":"a"})"));
    CHECK(one.error.empty());
    EntityView none = entity_view(h, array, want, answered(200, "[]"), "DATA-ID-002");
    CHECK_FALSE(none.view);
    REQUIRE(none.not_found);
    CHECK_FALSE(none.not_found->ok);
    CHECK(none.not_found->rule == "DATA-ID-002");
    CHECK(none.not_found->actual == "[] (not found)");
    EntityView two = entity_view(h, array, want, answered(200, R"([{"id":"a"},{"id":"a"}])"), "R");
    CHECK(two.error.find("the read answered 2 entities in the answer for one id") == 0);
    EntityView obj = entity_view(h, array, want, answered(200, R"({"id":"a"})"), "R");
    CHECK(obj.error.find("the read answered no array at ''") == 0);
    // A refusal judges the answer as it came ([] is its not-found answer).
    suite::Expect refuse;
    suite::StatusExpect four;
    four.classes = {4};
    refuse.status = four;
    EntityView r = entity_view(h, array, refuse, answered(200, R"([{"id":"a"}])"), "R");
    CHECK_FALSE(r.view);
    CHECK_FALSE(r.not_found);
    CHECK(r.error.empty());
    // Under a pointer, and not for answers that are not 2xx.
    array = "/data";
    CHECK(entity_view(h, array, want, answered(200, R"({"data":[{"id":"b"}]})"), "R").view);
    CHECK_FALSE(entity_view(h, array, want, answered(404, R"({"data":[]})"), "R").not_found);
}

TEST_CASE("a capture of the id a header names takes its last path segment") {
    suite::Capture c;
    c.var = "live";
    c.from = suite::Capture::From::header_id;
    c.path = "Location";
    Scope scope;
    auto ok = apply_captures({c}, answered(202, "", {{"Location", "/v2/p/uploads/" + id + "?_state=x"}}), scope);
    REQUIRE(ok.has_value());
    CHECK(scope.find("live")->as_string() == id);
    c.path = "Docker-Upload-UUID";
    REQUIRE(apply_captures({c}, answered(202, "", {{"Docker-Upload-UUID", id}}), scope).has_value());
    CHECK(scope.find("live")->as_string() == id);
    auto absent = apply_captures({c}, answered(202, ""), scope);
    REQUIRE_FALSE(absent.has_value());
    CHECK(absent.error().find("header Docker-Upload-UUID is absent") != std::string::npos);
}

TEST_CASE("cleanup: a delete naming the entity in a JSON body is booked with its body, follows a re-key, settles") {
    CleanupRun f;
    SuiteRun& run = f.run;
    binding::Deletion cl;
    cl.method = "POST";
    cl.path = "/v1/orders:delete";
    cl.body_id_at = "/id";
    cl.body = js(R"({"reason": "idconform"})");
    cl.read_path = "/v1/orders:get";
    cl.read_method = "POST";
    cl.read_body_id_at = "/id";
    Request create;
    create.method = "POST";
    create.url = base + "/v1/orders:create";
    create.headers = {{"Authorization", "Bearer alice"}, {"Content-Type", "application/json"}};
    Exchange x = answered(200, R"({"id": ")" + id + R"("})");
    BodyJson body(*x.response);
    book(run, cl, create, x, body);
    REQUIRE(run.created.size() == 1);
    const SuiteRun::Created& c = run.created.front();
    CHECK(c.problem.empty());
    CHECK(c.del.request.method == "POST");
    CHECK(c.del.request.url == base + "/v1/orders:delete");
    CHECK(js(c.del.request.body) == js(R"({"reason": "idconform", "id": ")" + id + R"("})"));
    CHECK(c.del.request.headers.size() == 2);  // the principal's, and the body's own content type
    CHECK(c.del.request.headers[1].value == "application/json");
    REQUIRE(c.confirm);
    CHECK(c.confirm->request.method == "POST");
    CHECK(js(c.confirm->request.body) == js(R"({"id": ")" + id + R"("})"));

    // An update naming it in its body, answered with another id: the delete follows.
    const std::string other = "01932c07-2a3b-7c4d-8e5f-0a1b2c3d4e60";
    Request update;
    update.method = "POST";
    update.url = base + "/v1/orders:update";
    update.body = R"({"id": ")" + id + R"(", "name": "n"})";
    Exchange u = answered(200, R"({"id": ")" + other + R"("})");
    BodyJson ub(*u.response);
    follow_rekey(run, steps::Wire::http, update, ub);
    CHECK(c.id == other);
    CHECK(c.rekeyed_from == id);
    CHECK(js(c.del.request.body) == js(R"({"reason": "idconform", "id": ")" + other + R"("})"));
    CHECK(js(c.confirm->request.body) == js(R"({"id": ")" + other + R"("})"));
    // Another POST to the same URL naming something else settles nothing; the delete itself does.
    Request unrelated = c.del.request;
    unrelated.body = R"({"reason": "idconform", "id": ")" + id + R"("})";
    note_deleted(run, delete_key(steps::Wire::http, unrelated));
    CHECK_FALSE(c.deleted);
    note_deleted(run, delete_key(steps::Wire::http, c.del.request));
    CHECK(c.deleted);
}

TEST_CASE("cleanup: a delete by a body without a read has no confirming read, a DELETE by URL is confirmed at its URL") {
    CleanupRun f;
    SuiteRun& run = f.run;
    binding::Deletion rpc;
    rpc.method = "POST";
    rpc.path = "/v1/orders:delete";
    rpc.body_id_at = "/order/id";
    Request create;
    create.method = "POST";
    Exchange x = answered(201, R"({"id": ")" + id + R"("})");
    BodyJson body(*x.response);
    book(run, rpc, create, x, body);
    binding::Deletion plain;
    plain.path = "/v1/orders/{id}";
    book(run, plain, create, x, body);
    REQUIRE(run.created.size() == 2);
    CHECK(js(run.created[0].del.request.body) == js(R"({"order": {"id": ")" + id + R"("}})"));
    CHECK_FALSE(run.created[0].confirm);
    CHECK(run.created[1].del.request.method == "DELETE");
    CHECK(run.created[1].del.request.body.empty());
    REQUIRE(run.created[1].confirm);
    CHECK(run.created[1].confirm->request.method == "GET");
    CHECK(run.created[1].confirm->request.url == base + "/v1/orders/" + id);
    // a PATCH at its URL re-keys it there, and the read follows
    Request patch;
    patch.method = "PATCH";
    patch.url = base + "/v1/orders/" + id;
    Exchange p = answered(200, R"({"id": "x y"})");
    BodyJson pb(*p.response);
    follow_rekey(run, steps::Wire::http, patch, pb);
    CHECK(run.created[1].del.request.url == base + "/v1/orders/x%20y");
    CHECK(run.created[1].confirm->request.url == base + "/v1/orders/x%20y");
    CHECK(run.created[0].id == id);  // the other entity's delete names another URL
}

TEST_CASE("cleanup: an update naming an entity deleted by a body re-keys it only where a body names its entity") {
    CleanupRun f;
    SuiteRun& run = f.run;
    binding::Deletion cl;
    cl.method = "POST";
    cl.path = "/v1/orders:delete";
    cl.body_id_at = "/id";
    Request create;
    create.method = "POST";
    Exchange x = answered(200, R"({"id": ")" + id + R"("})");
    BodyJson body(*x.response);
    book(run, cl, create, x, body);
    // another order's update whose body references this one: not a re-key
    const std::string other = "01932c07-2a3b-7c4d-8e5f-0a1b2c3d4e61";
    Request update;
    update.method = "POST";
    update.url = base + "/v1/orders:update";
    update.body = R"({"id": ")" + other + R"(", "parent": ")" + id + R"("})";
    Exchange u = answered(200, R"({"id": ")" + other + R"("})");
    BodyJson ub(*u.response);
    follow_rekey(run, steps::Wire::http, update, ub);
    CHECK(run.created.front().id == id);
    CHECK(run.created.front().rekeyed_from.empty());
}

TEST_CASE("cleanup: what a create made besides its entity (made_by) is booked first, so deleted after it") {
    CleanupRun f;
    SuiteRun& run = f.run;
    binding::Deletion note;
    note.path = "/v1/notes/{id}";
    binding::Deletion its_book;
    its_book.path = "/v1/notebooks/{id}";
    its_book.id_at = "/notebook_id";
    note.made.push_back(its_book);
    Request create;
    create.method = "POST";
    create.url = base + "/v1/notes";
    const std::string notebook = "01932c07-2a3b-7c4d-8e5f-0a1b2c3d4e62";
    Exchange x = answered(201, R"({"id": ")" + id + R"(", "notebook_id": ")" + notebook + R"("})");
    x.response->headers.push_back({"Location", "/v1/notes/" + id});
    BodyJson body(*x.response);
    book(run, note, create, x, body);
    REQUIRE(run.created.size() == 2);
    CHECK(run.created[0].id == notebook);  // the cleanup deletes last booked first: the note, then its notebook
    CHECK(run.created[0].del.request.url == base + "/v1/notebooks/" + notebook);
    CHECK(run.created[0].origin == "create (what it made, at /notebook_id)");
    CHECK(run.created[1].id == id);
    CHECK(run.created[1].del.request.url == base + "/v1/notes/" + id);
    // an answer without the made id made nothing: only the note (never the Location's id for it)
    Exchange alone = answered(201, R"({"id": ")" + id + R"("})");
    alone.response->headers.push_back({"Location", "/v1/notes/" + id});
    BodyJson alone_body(*alone.response);
    book(run, note, create, alone, alone_body);
    REQUIRE(run.created.size() == 3);
    CHECK(run.created[2].id == id);
    CHECK(run.created[2].del.request.url == base + "/v1/notes/" + id);
}

TEST_CASE("cleanup: a create-only header that replaced the target's or the principal's is sent as theirs") {
    CleanupRun f;
    SuiteRun& run = f.run;
    run.env.target_headers = {{"X-Api-Version", "1"}};
    std::map<std::string, suite::Principal> principals;
    principals["alice"].headers = {{"Authorization", "Bearer alice"}, {"Prefer", "handling=lenient"}};
    run.env.principals = &principals;
    // The create sent its own X-Api-Version and Prefer over theirs, and an Idempotency-Key.
    binding::Deletion d;
    d.path = "/v1/orders/{id}";
    d.create_only_headers = {"X-Api-Version", "prefer", "Idempotency-Key"};
    suite::Step st;
    st.as<suite::HttpRequest>().principal = "alice";
    st.cleanup = written_form(d);
    BoundSteps bound;
    bound.add(st, {nullptr, std::make_shared<const Deletion>(d)});
    run.bound = &bound;
    Request create;
    create.method = "POST";
    create.url = base + "/v1/orders";
    create.headers = {{"X-Api-Version", "2"},
                      {"Authorization", "Bearer alice"},
                      {"Prefer", "return=representation"},
                      {"Idempotency-Key", "k1"},
                      {"Content-Type", "application/json"}};
    Exchange x = answered(201, R"({"id": ")" + id + R"("})");
    BodyJson body(*x.response);
    register_created(run, st, create, x, body, Scope{}, "create");
    run.bound = nullptr;
    REQUIRE(run.created.size() == 1);
    const auto& sent = run.created.front().del.request.headers;
    auto value = [&](const std::string& name) -> std::string {
        for (const auto& h : sent)
            if (h.name == name) return h.value;
        return "(none)";
    };
    CHECK(value("X-Api-Version") == "1");               // the target's
    CHECK(value("Prefer") == "handling=lenient");       // the principal's
    CHECK(value("Authorization") == "Bearer alice");
    CHECK(value("Idempotency-Key") == "(none)");        // only the create's: not sent
    CHECK(value("Content-Type") == "(none)");
    CHECK(sent.size() == 3);
    CHECK(run.created.front().del.request.url == base + "/v1/orders/" + id);
}
