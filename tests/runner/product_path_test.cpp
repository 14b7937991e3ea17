// The product path in process (issue 21 §4): a target profile expanded into
// the real packs (profile::expand) and run by the engine against the example
// server's own API (products_service, socket-free) behind the scripted fake
// transport. A conforming server passes every case that runs and leaves
// nothing behind; each defect fails under its rule only. What the end-to-end
// tier proves over sockets, here in a second, for every pack or expander change.
#include "defects.hpp"
#include "profile/profile.hpp"
#include "reporters/reporter.hpp"
#include "runner/runner.hpp"
#include "service.hpp"
#include "transport/fake/fake_transport.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace idconform;
using transport::fake::Reply;
using transport::fake::Script;

namespace {

const std::string packs_dir = std::string(IDCONFORM_SOURCE_DIR) + "/suites/packs";

// The example profile's HTTP resources (examples/products.target.yaml without gRPC).
constexpr const char* profile_text = R"(name: products-in-process
base_url: http://products.test
headers: {Accept: application/json}
principals:
  alice: {headers: {Authorization: Bearer alice}}
  bob: {headers: {Authorization: Bearer bob}}
packs: [data-id, nil-max]
resources:
  categories:
    create: {path: /v1/categories, body: {name: idconform-probe}}
    read: {path: "/v1/categories/{id}"}
    delete: {path: "/v1/categories/{id}"}
    time_field: /created_at
  products:
    create: {path: /v1/products, body: {name: idconform-probe, price: 1}}
    read: {path: "/v1/products/{id}"}
    update: {path: "/v1/products/{id}", body: {name: idconform-renamed}}
    delete: {path: "/v1/products/{id}"}
    list: {path: /v1/products, items: /items}
    put: {path: "/v1/products/{id}", body: {name: idconform-put}}
    id: {at: /id, kind: uuidv7}
    fields:
      tracking_id: {at: /tracking_id, kind: uuidv4}
    references:
      category_id: {resource: categories, required: true}
      parent_id: {resource: products, required: false}
    time_field: /created_at
)";

class Tally final : public reporters::Reporter {
public:
    void take_case(CaseResult&& c) override {
        ++outcomes[c.outcome];
        if (c.outcome == Outcome::failed)
            for (const auto& r : failed_rules(c)) failed[r].push_back(c.suite + " › " + c.name + ": " + c.message);
        if (c.outcome == Outcome::error) errors.push_back(c.suite + " › " + c.name + ": " + c.message);
    }
    std::map<Outcome, std::size_t> outcomes;
    std::map<std::string, std::vector<std::string>> failed;  // rule -> cases
    std::vector<std::string> errors;
};

struct Ran {
    Tally tally;
    runner::RunReport report;
    std::size_t live_products = 0;  // lists of products and orders (alice's, bob's) the run left non-empty
};

// What stands between the harness and the service: given a request and the
// service's way to answer it (`pass`), another answer of the test's own (an
// API with a form the example server does not have), or none: the service's.
using Pass = std::function<Reply(const Request&)>;
using Front = std::function<std::optional<Reply>(const Request&, const Pass& pass)>;

// Runs the packs `text` expands to at -j 4 against the service with `defects`.
Ran run_against(const products::DefectSet& defects, const char* text = profile_text, const Front& front = {}) {
    const auto loaded = profile::load_profile_text(text, "in-process.target.yaml");
    REQUIRE(loaded.profile);
    const profile::Expansion e = profile::expand(*loaded.profile, packs_dir);
    REQUIRE(e.diagnostics.empty());
    products::ProductsService service(defects);
    const Pass pass = [&](const Request& r) {
        const std::string origin = "http://products.test";
        REQUIRE(r.url.rfind(origin, 0) == 0);
        const std::string target = r.url.substr(origin.size());
        std::string auth;
        for (const auto& h : r.headers)
            if (h.name == "Authorization") auth = h.value;
        const products::Response res = service.handle({r.method, target, auth, r.body});
        std::vector<Header> headers = {{"Content-Type", "application/json"}};
        if (!res.location.empty()) headers.push_back({"Location", res.location});
        if (!res.allow.empty()) headers.push_back({"Allow", std::string(res.allow)});
        if (!res.request_id.empty()) headers.push_back({"X-Request-Id", res.request_id});
        return Reply::answer(static_cast<int>(res.status), res.body, headers);
    };
    Script script;
    script.otherwise([&](const Request& r) {
        if (front)
            if (auto own = front(r, pass)) return *own;
        return pass(r);
    });
    Ran o;
    runner::RunOptions opts;
    opts.concurrency = 4;
    o.report = runner::run(e.suites, opts, o.tally, script.factory());
    for (const char* who : {"alice", "bob"}) {
        for (const char* path : {"/v1/products", "/v1/orders"}) {
            const products::Response list = service.handle({"GET", path, std::string("Bearer ") + who, ""});
            o.live_products += list.body.find("\"id\"") == std::string::npos ? 0 : 1;
        }
    }
    return o;
}

std::set<std::string> rules_of(const Tally& t) {
    std::set<std::string> out;
    for (const auto& [r, _] : t.failed) out.insert(r);
    return out;
}

}  // namespace

TEST_CASE("product path: the conforming example API passes every pack case that runs and keeps nothing") {
    const Ran o = run_against({});
    INFO("errors: " << (o.tally.errors.empty() ? "" : o.tally.errors.front()));
    CHECK(o.tally.errors.empty());
    for (const auto& [rule, cases] : o.tally.failed) CHECK_MESSAGE(false, rule << ": " << cases.front());
    CHECK(o.tally.outcomes.at(Outcome::passed) > 300);
    CHECK(o.report.transport_errors == 0);
    CHECK(o.report.suite_errors == 0);
    CHECK(o.live_products == 0);
}

TEST_CASE("product path: each defect of the example API fails under its rule only") {
    const std::vector<std::pair<products::Defect, std::string>> defects = {
        {products::Defect::stale_timestamp, "DATA-ID-001"},
        {products::Defect::accept_upper_path, "DATA-ID-002"},
        {products::Defect::no_ownership_read, "DATA-ID-004"},
        {products::Defect::put_overwrites, "DATA-ID-006"},
        {products::Defect::nil_for_absent_ref, "DATA-ID-007"},
    };
    for (const auto& [d, rule] : defects) {
        products::DefectSet set;
        set.add(d);
        const Ran o = run_against(set);
        INFO(rule);
        CHECK(o.tally.errors.empty());
        CHECK(rules_of(o.tally).count(rule) == 1);
        for (const auto& [r, cases] : o.tally.failed)
            if (r != rule) CHECK_MESSAGE(false, "also failed under " << r << ": " << cases.front());
    }
}

namespace {

// The example API's ULID orders and viewable products behind two forms a
// real API has and the example server does not: a create answers its entity
// only when asked to (`Prefer: return=representation`, PostgREST's form; else
// 201 with no body), a read and a lookup want their version header (else
// 406; the legacy lookup too), the form endpoint its CSRF header (else
// 403), and an order's delete its If-Match (else 428) and no Prefer (400).
constexpr const char* header_forms_profile = R"(name: header-forms-in-process
base_url: http://products.test
headers: {Accept: application/json}
principals:
  alice: {headers: {Authorization: Bearer alice}}
  bob: {headers: {Authorization: Bearer bob}}
packs: [db-identifiers, viewable-id, uuidv8-legacy]
request_id: X-Request-Id
resources:
  categories:
    create: {path: /v1/categories, body: {name: idconform-probe}}
    read: {path: "/v1/categories/{id}"}
    delete: {path: "/v1/categories/{id}"}
  products:
    create: {path: /v1/products, body: {name: idconform-probe, price: 1}, headers: {Prefer: return=representation}}
    read: {path: "/v1/products/{id}", headers: {X-Api-Version: "2"}}
    update: {path: "/v1/products/{id}", body: {name: idconform-renamed}}
    delete: {path: "/v1/products/{id}"}
    id: {at: /id, kind: uuidv7}
    references:
      category_id: {resource: categories, required: true}
    viewable: {at: /viewable_id, read: "/v1/products/by-viewable/{id}"}
  orders:
    create: {path: /v1/orders, body: {item: idconform-probe, quantity: 1}, headers: {Prefer: return=representation}}
    read: {path: "/v1/orders/{id}", headers: {X-Api-Version: "2"}}
    delete: {path: "/v1/orders/{id}", headers: {If-Match: "*"}}
    list: {path: /v1/orders, items: /items}
    lookup: {path: /v1/orders, param: id, headers: {X-Api-Version: "2"}}
    action: {path: /v1/order-confirmations, id_at: /order_id, headers: {X-CSRF-Token: t1}}
    id: {at: /id, kind: ulid}
    job: {at: /job_id, read: "/v1/jobs/{id}"}
  staff:
    read: {path: "/v1/staff/by-uuid/{id}", headers: {X-Api-Version: "2"}}
    legacy:
      lookup: {path: "/v1/staff/{id}", headers: {X-Api-Version: "2"}}
      ids: [1, 17, 4242]
      entity_type: 500
)";

std::optional<Reply> header_forms(const Request& r, const Pass& pass) {
    auto has = [&](const char* name, const char* value) {
        return std::any_of(r.headers.begin(), r.headers.end(),
                           [&](const Header& h) { return h.name == name && h.value == value; });
    };
    const std::string path = r.url.substr(r.url.find("/v1/"));
    const bool entity = path.rfind("/v1/products/", 0) == 0 || path.rfind("/v1/orders/", 0) == 0 ||
                        path.rfind("/v1/staff/", 0) == 0;
    if (r.method == "POST" && (path == "/v1/products" || path == "/v1/orders") &&
        !has("Prefer", "return=representation")) {
        Reply made = pass(r);  // made, and answered minimally: no id to delete it by
        if (made.status == 201) made.body.clear();
        return made;
    }
    const bool lookup = path.rfind("/v1/orders?", 0) == 0 && path.find("id=") != std::string::npos;
    if (r.method == "DELETE" && path.rfind("/v1/orders/", 0) == 0) {
        if (!has("If-Match", "*"))
            return Reply::answer(428, R"({"error": "If-Match required"})", {{"Content-Type", "application/json"}});
        if (has("Prefer", "return=representation"))
            return Reply::answer(400, R"({"error": "Prefer is not allowed on DELETE"})", {{"Content-Type", "application/json"}});
    }
    if (r.method == "POST" && path == "/v1/order-confirmations" && !has("X-CSRF-Token", "t1"))
        return Reply::answer(403, R"({"error": "CSRF token missing"})", {{"Content-Type", "application/json"}});
    if (r.method == "GET" && (entity || lookup) && path.find("by-viewable") == std::string::npos &&
        !has("X-Api-Version", "2"))
        return Reply::answer(406, R"({"error": "X-Api-Version: 2 required"})", {{"Content-Type", "application/json"}});
    return std::nullopt;
}

}  // namespace

TEST_CASE("product path: every pack sends an operation with the headers the profile gives it") {
    // Before the plain-request packs were written with calls, their creates,
    // reads, lookups and form posts went without the operation's headers:
    // the creates were answered with no id, the reads and lookups 406 and the
    // form 403, failures of R1, R2, R4, R5, the VIEWABLE and LEGACY rules
    // that said nothing about the API. And the cleanup deleted orders with
    // the create's headers instead of the delete's: 428, every order left
    // behind, a cleanup error.
    const Ran o = run_against({}, header_forms_profile, header_forms);
    INFO("errors: " << (o.tally.errors.empty() ? "" : o.tally.errors.front()));
    CHECK(o.tally.errors.empty());
    for (const auto& [rule, cases] : o.tally.failed) CHECK_MESSAGE(false, rule << ": " << cases.front());
    CHECK(o.tally.outcomes.at(Outcome::passed) >= 70);  // 76 when written
    CHECK(o.report.transport_errors == 0);
    CHECK(o.live_products == 0);
}
