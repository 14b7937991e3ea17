// Handler-level tests of the example server's tickets (--tickets): integer
// ids counted up and never reused, the canonical decimal form in URLs, the
// owner check, and the defects ticket-id-lenient and ticket-ids-reused (the
// gRPC-only grpc-ticket-no-owner is caught end to end, tests/e2e/integer_ids.sh).
#include "products_test_support.hpp"

using namespace products_test;
using products::Defect;
using products::ProductsService;

namespace {

ProductsService& with_tickets(ProductsService& svc) {
    svc.set_tickets(true);
    return svc;
}

std::int64_t new_ticket(ProductsService& svc, std::string_view who = "alice") {
    const Reply r = call(svc, "POST", "/v1/tickets", who, R"({"title":"t"})");
    REQUIRE(r.status == 201);
    const json::value* id = r.obj().if_contains("id");
    REQUIRE((id && id->is_int64()));
    CHECK(r.location == "/v1/tickets/" + std::to_string(id->get_int64()));
    return id->get_int64();
}

}  // namespace

TEST_CASE("tickets: only with --tickets") {
    ProductsService svc;
    CHECK(call(svc, "POST", "/v1/tickets", "alice", R"({"title":"t"})").status == 404);
}

TEST_CASE("tickets: integer ids from 1, read by their canonical decimal text only, by their owner only") {
    ProductsService svc;
    with_tickets(svc);
    const std::int64_t a = new_ticket(svc), b = new_ticket(svc);
    CHECK(a == 1);
    CHECK(b == 2);
    const std::string url = "/v1/tickets/" + std::to_string(a);
    CHECK(call(svc, "GET", url, "alice").status == 200);
    CHECK(call(svc, "GET", url, "bob").status == 404);
    CHECK(call(svc, "GET", url, "").status == 401);
    for (const char* bad : {"01", "1.0", "%201%20", "+1", "-1", "%7B1%7D", "0", "99999999999999999999"})
        CHECK_MESSAGE(call(svc, "GET", std::string("/v1/tickets/") + bad, "alice").status == 404, bad);
    CHECK(call(svc, "POST", "/v1/tickets", "alice", R"({"id":5,"title":"t"})").status == 400);
    CHECK(call(svc, "POST", "/v1/tickets", "alice", R"({"title":""})").status == 400);
    // an update keeps the id; an id member must be the ticket's own
    const Reply p = call(svc, "PATCH", url, "alice", R"({"title":"u","id":1})");
    CHECK(p.status == 200);
    CHECK(p.str("title") == "u");
    CHECK(call(svc, "PATCH", url, "alice", R"({"id":2})").status == 400);
    CHECK(call(svc, "PATCH", url, "bob", R"({"title":"b"})").status == 404);
    // the list is the caller's
    CHECK(call(svc, "GET", "/v1/tickets", "alice").obj().at("items").as_array().size() == 2);
    CHECK(call(svc, "GET", "/v1/tickets", "bob").obj().at("items").as_array().empty());
    // deleted ids never come back
    CHECK(call(svc, "DELETE", "/v1/tickets/2", "bob").status == 404);
    CHECK(call(svc, "DELETE", "/v1/tickets/2", "alice").status == 204);
    CHECK(call(svc, "GET", "/v1/tickets/2", "alice").status == 404);
    CHECK(new_ticket(svc) == 3);
    CHECK(call(svc, "PUT", url, "alice", "{}").status == 405);
}

TEST_CASE("ticket-id-lenient: a ticket id in the URL is read as a number") {
    ProductsService svc(products::DefectSet{Defect::ticket_id_lenient});
    with_tickets(svc);
    const std::string a = std::to_string(new_ticket(svc));
    for (const std::string& text : {"0" + a, a + ".0", "%20" + a + "%20", "%7B" + a + "%7D", "%22" + a + "%22"})
        CHECK_MESSAGE(call(svc, "GET", "/v1/tickets/" + text, "alice").status == 200, text);
    CHECK(call(svc, "GET", "/v1/tickets/" + a + "1", "alice").status == 404);  // another number stays unknown
}

TEST_CASE("ticket-ids-reused: the newest ticket's id comes back after its delete") {
    ProductsService svc(products::DefectSet{Defect::ticket_ids_reused});
    with_tickets(svc);
    (void)new_ticket(svc);
    const std::int64_t b = new_ticket(svc);
    REQUIRE(call(svc, "DELETE", "/v1/tickets/" + std::to_string(b), "alice").status == 204);
    CHECK(new_ticket(svc) == b);
}

TEST_CASE("grpc-ticket-no-owner: the service answers a ticket whatever its owner (what its gRPC GetTicket does)") {
    ProductsService svc(products::DefectSet{Defect::grpc_ticket_no_owner});
    with_tickets(svc);
    const std::int64_t a = new_ticket(svc);
    CHECK(call(svc, "GET", "/v1/tickets/" + std::to_string(a), "bob").status == 404);  // HTTP stays conformant
    CHECK(svc.ticket_of_any_owner(a).status == 200);
    CHECK(svc.ticket_of_any_owner(a + 1).status == 404);
}
