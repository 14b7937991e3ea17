// Expansion binds a pack's `call` steps to the operations a resource
// declares: the request, the body with its references, the edits, the
// principal, and the cleanup of whatever a create made (or the reason it
// cannot be cleaned up). Uses a pack written to a temporary directory.
#include "test_support.hpp"

#include <boost/json/serialize.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace idconform;
using namespace idconform::profile;
using namespace idconform::profile::testing;
namespace fs = std::filesystem;

namespace {

const char* const profile_text =
    "name: shop\n"
    "base_url: http://127.0.0.1:9\n"
    "principals: {alice: {}, bob: {}}\n"
    "packs: [nil-max]\n"
    "resources:\n"
    "  categories:\n"
    "    create: {path: /v1/categories, body: {name: c}}\n"
    "  products:\n"
    "    create: {path: /v1/products, body: {name: p}}\n"
    "    read: {path: \"/v1/products/{id}\"}\n"
    "    update: {method: PUT, path: \"/v1/products/{id}\", body: {name: q}}\n"
    "    delete: {path: \"/v1/products/{id}\"}\n"
    "    list: {path: /v1/products}\n"
    "    references:\n"
    "      category_id: {resource: categories, required: true}\n";

const char* const pack_text =
    "name: pk\n"
    "principals: {owner: {headers: {}}, other: {headers: {}}}\n"
    "cases:\n"
    "  - name: c\n"
    "    steps:\n"
    "      - call: {op: create, set: {/category_id: x}, principal: owner}\n"
    "      - call: {op: read, id: \"${m}\", principal: other}\n"
    "      - call: {op: update, id: i, unset: [/name]}\n"
    "      - call: {op: list, filter: {category_id: \"${m}\"}}\n"
    "      - name: kept\n"
    "        call: {op: put, id: i}\n";

struct TempPack {
    fs::path dir = fs::temp_directory_path() / ("idconform-expand-" + std::to_string(::getpid()));
    explicit TempPack(const char* text = pack_text) {
        fs::create_directories(dir / "nil-max");
        std::ofstream(dir / "nil-max" / "pk.yaml") << text;
    }
    ~TempPack() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("a pack's call steps become the resource's requests") {
    TempPack pack;
    const LoadResult lr = load_profile_text(profile_text, "shop.yaml");
    INFO(dump(lr.diagnostics));
    REQUIRE(lr.profile);
    const BoundExpansion e = bound(expand(*lr.profile, pack.dir.string()));
    INFO(dump(e.diagnostics));
    REQUIRE(e.diagnostics.empty());
    REQUIRE(e.suites.size() == 2);  // one instance per resource with a create

    const suite::Suite& s = instance(e, "pk products");
    const auto& steps = s.cases.at(0).steps;
    REQUIRE(steps.size() == 5);
    for (std::size_t i = 0; i < 4; ++i) CHECK(steps[i].is<suite::HttpRequest>());

    const auto& create = steps[0];
    CHECK(create.name == "POST /v1/products");
    CHECK(create.as<suite::HttpRequest>().principal == "owner");
    REQUIRE(create.as<suite::HttpRequest>().json);
    CHECK(boost::json::serialize(*create.as<suite::HttpRequest>().json) ==
          R"({"name":"p","category_id":"${entity.categories}"})");
    REQUIRE(create.as<suite::HttpRequest>().set.size() == 1);
    CHECK(create.as<suite::HttpRequest>().set[0].first == "/category_id");
    REQUIRE(create.cleanup);
    CHECK(create.cleanup->path == "/v1/products/{id}");
    CHECK(create.cleanup->id_at == "/id");
    CHECK(e.deletion(create).impossible.empty());

    const auto& read = steps[1];
    CHECK(read.as<suite::HttpRequest>().method == "GET");
    CHECK(read.as<suite::HttpRequest>().path == "/v1/products/{id}");
    REQUIRE(read.as<suite::HttpRequest>().path_params.size() == 1);
    CHECK(read.as<suite::HttpRequest>().path_params[0] == std::pair<std::string, std::string>{"id", "${m}"});
    CHECK(read.as<suite::HttpRequest>().principal == "other");
    CHECK_FALSE(read.as<suite::HttpRequest>().json);
    CHECK_FALSE(read.cleanup);

    const auto& update = steps[2];
    CHECK(update.as<suite::HttpRequest>().method == "PUT");
    REQUIRE(update.as<suite::HttpRequest>().json);
    CHECK(update.as<suite::HttpRequest>().unset == std::vector<std::string>{"/name"});
    CHECK_FALSE(update.cleanup);  // an update creates nothing

    const auto& list = steps[3];
    CHECK(list.as<suite::HttpRequest>().path == "/v1/products");
    REQUIRE(list.as<suite::HttpRequest>().query.size() == 1);
    CHECK(list.as<suite::HttpRequest>().query[0].first == "category_id");

    // The resource declares no put: the step stays a call, keeps its name,
    // and the runner reports it if a case reaches it unguarded.
    CHECK(steps[4].is<suite::OpCall>());
    CHECK(steps[4].name == "kept");
}

TEST_CASE("expansion leaves the calls to the suite's binding, which binds them once, where the suite runs") {
    TempPack pack;
    const LoadResult lr = load_profile_text(profile_text, "shop.yaml");
    REQUIRE(lr.profile);
    const Expansion e = expand(*lr.profile, pack.dir.string());
    REQUIRE(e.diagnostics.empty());
    suite::Suite s = instance(e, "pk products");
    REQUIRE(s.binding);
    CHECK(s.binding->own.wire == binding::Wire::http);
    CHECK(s.binding->other.wire == binding::Wire::grpc);
    CHECK(s.binding->own.find(suite::Operation::read) != nullptr);
    CHECK(s.binding->own.find(suite::Operation::put) == nullptr);
    // unbound: every pack step is still the call written in the pack
    const auto& written = s.cases.at(0).steps;
    REQUIRE(written.size() == 5);
    for (const auto& st : written) CHECK(st.is<suite::OpCall>());
    CHECK_FALSE(written[0].cleanup);  // the create's cleanup comes with its binding
    const binding::BoundSteps bound = binding::bind_calls(s);
    const auto& steps = s.cases.at(0).steps;
    CHECK(steps[0].is<suite::HttpRequest>());
    REQUIRE(steps[0].cleanup);
    CHECK(steps[0].cleanup->path == "/v1/products/{id}");
    // the binding, not the step, holds how it is deleted
    REQUIRE(bound.of(steps[0]));
    CHECK(bound.of(steps[0])->deletion == s.binding->own.find(suite::Operation::create)->makes);
    CHECK_FALSE(bound.of(steps[1]));  // a read: nothing besides its request
    CHECK(steps[4].is<suite::OpCall>());  // no put declared: it stays a call
    // binding again changes nothing: only calls are bound, a bound step is a request
    suite::Suite again = s;
    // (what it gives besides: only the setup's creates of referenced entities, which are requests already)
    CHECK(binding::bind_calls(again).size() == s.binding->setup_creates.size());
    CHECK(again.cases.at(0).steps[1].as<suite::HttpRequest>().path == steps[1].as<suite::HttpRequest>().path);
    CHECK(again.cases.at(0).steps[1].name == steps[1].name);
    // a suite written by hand has no binding: its calls stay calls
    suite::Suite hand;
    suite::Case c;
    suite::Step call;
    call.request = suite::OpCall{};
    c.steps.push_back(call);
    hand.cases.push_back(c);
    CHECK(binding::bind_calls(hand).size() == 0);
    CHECK(hand.cases.at(0).steps.at(0).is<suite::OpCall>());
    // with_calls_bound: a hand-written suite as it is (no copy), a pack instance bound in the storage
    std::optional<binding::BoundSuite> storage;
    const binding::Bound as_is = binding::with_calls_bound(hand, storage);
    CHECK(&as_is.suite == &hand);
    CHECK(as_is.steps.size() == 0);
    CHECK_FALSE(storage);
    const binding::Bound shown = binding::with_calls_bound(instance(e, "pk products"), storage);
    REQUIRE(storage);
    CHECK(&shown.suite == &storage->suite);
    CHECK(shown.suite.cases.at(0).steps.at(0).is<suite::HttpRequest>());
    CHECK(shown.steps.of(shown.suite.cases.at(0).steps.at(0)));
    CHECK(instance(e, "pk products").cases.at(0).steps.at(0).is<suite::OpCall>());  // the expansion is left as it is
}

TEST_CASE("an operation the resource does not declare stays a call, a create without delete says why it stays") {
    TempPack pack;
    const LoadResult lr = load_profile_text(profile_text, "shop.yaml");
    REQUIRE(lr.profile);
    const BoundExpansion e = bound(expand(*lr.profile, pack.dir.string()));
    const suite::Suite& s = instance(e, "pk categories");
    const auto& steps = s.cases.at(0).steps;
    REQUIRE(steps.size() == 5);
    CHECK(steps[0].is<suite::HttpRequest>());
    REQUIRE(steps[0].cleanup);
    CHECK(e.deletion(steps[0]).impossible == "the profile declares no delete operation for 'categories'");
    for (std::size_t i = 1; i < steps.size(); ++i) {
        CHECK(steps[i].is<suite::OpCall>());
        CHECK_FALSE(steps[i].is<suite::HttpRequest>());
    }
    CHECK(steps[4].name == "kept");
}

namespace {

// How every create step of the instances whose name has `part` is deleted.
std::vector<binding::Deletion> cleanups_of(const BoundExpansion& e, std::string_view part) {
    std::vector<binding::Deletion> out;
    for (const auto& s : e.suites) {
        if (s.name.find(part) == std::string::npos) continue;
        for (const auto& c : s.cases)
            for (const auto& st : c.steps)
                if (st.cleanup) out.push_back(e.deletion(st));
    }
    return out;
}

std::string integer_ids_profile(bool http_delete, bool grpc_delete) {
    std::string t =
        "name: tickets\n"
        "base_url: http://127.0.0.1:9\n"
        "principals: {alice: {}}\n"
        "packs: [nil-max]\n"
        "grpc: {address: \"127.0.0.1:9\"}\n"
        "resources:\n"
        "  tickets:\n"
        "    create: {path: /v1/tickets, body: {title: t}}\n"
        "    read: {path: \"/v1/tickets/{id}\"}\n"
        "    id: {at: /id, kind: existing, pattern: \"^[1-9][0-9]*$\"}\n";
    if (http_delete) t += "    delete: {path: \"/v1/tickets/{id}\"}\n";
    t += "    grpc:\n"
         "      create: {method: t.v1.Tickets/CreateTicket, body: {title: t}}\n"
         "      read: {method: t.v1.Tickets/GetTicket}\n";
    if (grpc_delete) t += "      delete: {method: t.v1.Tickets/DeleteTicket, id_field: /ticket_id}\n";
    return t;
}

}  // namespace

TEST_CASE("a resource that deletes over one transport only: what the other one makes is deleted over it, saying so") {
    TempPack pack;
    SUBCASE("gRPC delete only: entities made over HTTP are deleted with the gRPC method") {
        const LoadResult lr = load_profile_text(integer_ids_profile(false, true), "tickets.yaml");
        REQUIRE(lr.profile);
        const BoundExpansion e = bound(expand(*lr.profile, pack.dir.string()));
        const auto http = cleanups_of(e, "pk tickets");
        REQUIRE_FALSE(http.empty());
        for (const auto& cl : http) {
            if (!cl.grpc_method.empty() && cl.across.empty()) continue;  // the gRPC instance's own
            CHECK(cl.impossible.empty());
            CHECK(cl.grpc_method == "t.v1.Tickets/DeleteTicket");
            CHECK(cl.grpc_id_field == "/ticket_id");
            CHECK(cl.read_path.empty());  // a gRPC delete is taken at its word
            CHECK(cl.across.find("made over HTTP with the gRPC method t.v1.Tickets/DeleteTicket, as the profile "
                                 "declares no HTTP delete for 'tickets' (tickets.yaml:") == 0);
        }
    }
    SUBCASE("HTTP delete only: entities made over gRPC are deleted with the HTTP request, their id from the gRPC answer") {
        const LoadResult lr = load_profile_text(integer_ids_profile(true, false), "tickets.yaml");
        REQUIRE(lr.profile);
        const BoundExpansion e = bound(expand(*lr.profile, pack.dir.string()));
        const auto grpc = cleanups_of(e, "over grpc");
        REQUIRE_FALSE(grpc.empty());
        for (const auto& cl : grpc) {
            CHECK(cl.impossible.empty());
            CHECK(cl.grpc_method.empty());
            CHECK(cl.path == "/v1/tickets/{id}");
            CHECK(cl.method == "DELETE");
            CHECK(cl.id_at == "/id");
            CHECK(cl.across.find("made over gRPC with the HTTP request DELETE /v1/tickets/{id}, as the profile "
                                 "declares no gRPC delete for 'tickets' (tickets.yaml:") == 0);
        }
    }
    SUBCASE("both: each transport deletes what it made, nothing is said") {
        const LoadResult lr = load_profile_text(integer_ids_profile(true, true), "tickets.yaml");
        REQUIRE(lr.profile);
        const BoundExpansion e = bound(expand(*lr.profile, pack.dir.string()));
        for (const auto& cl : cleanups_of(e, "tickets")) CHECK(cl.across.empty());
    }
    SUBCASE("neither: the gRPC instance says it has no delete over either") {
        const LoadResult lr = load_profile_text(integer_ids_profile(false, false), "tickets.yaml");
        REQUIRE(lr.profile);
        const BoundExpansion e = bound(expand(*lr.profile, pack.dir.string()));
        const auto grpc = cleanups_of(e, "over grpc");
        REQUIRE_FALSE(grpc.empty());
        CHECK(grpc.front().impossible == "the profile declares no delete operation for 'tickets', over gRPC or HTTP");
    }
}

TEST_CASE("a pack step that sends an operation as a plain request, or has a cleanup of its own, is the pack's error") {
    // Sent as written, it would go without what the profile says the
    // operation needs (its headers, the id in a body, the Location).
    TempPack pack("name: pk\n"
                  "principals: {owner: {headers: {}}, other: {headers: {}}}\n"
                  "cases:\n"
                  "  - name: c\n"
                  "    steps:\n"
                  "      - http: {method: POST, path: \"${res.create}\", json: \"${res.create_body}\"}\n"
                  "        cleanup: {path: \"${res.delete}\", id: \"${res.id_at}\"}\n"
                  "      - http: {method: GET, path: \"${res.read}\", path_params: {id: x}}\n"
                  "      - http: {method: GET, path: \"${res.job_read}\"}\n");  // not an operation: as written
    const LoadResult lr = load_profile_text(profile_text, "shop.yaml");
    REQUIRE(lr.profile);
    const Expansion e = expand(*lr.profile, pack.dir.string());
    std::vector<std::string> said;
    for (const auto& d : e.diagnostics) said.push_back(std::to_string(d.pos.line) + " " + d.title + " | " + d.hint);
    INFO(dump(e.diagnostics));
    REQUIRE(said.size() == 3);
    CHECK(said[0].rfind("6 a pack step sends the resource's create as a plain request | write it as `call: {op: create", 0) == 0);
    CHECK(said[1].rfind("7 a pack step has a cleanup of its own | remove cleanup:", 0) == 0);
    CHECK(said[2].rfind("8 a pack step sends the resource's read as a plain request", 0) == 0);
    for (const auto& d : e.diagnostics) CHECK(d.pos.file == (pack.dir / "nil-max" / "pk.yaml").string());
}
