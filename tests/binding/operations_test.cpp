// binding::bind: a pack's call step turned into the request its resource
// declares, over HTTP and over gRPC, from one description per operation.
#include "binding/operations.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <doctest/doctest.h>

using namespace idconform;
namespace json = boost::json;

namespace {

suite::Step call(suite::Operation op, std::string id = {}) {
    suite::Step st;
    suite::OpCall c;
    c.op = op;
    c.id = std::move(id);
    c.principal = "other";
    st.request = std::move(c);
    return st;
}

std::shared_ptr<const binding::Deletion> written(std::string path, std::string id_at) {
    binding::Deletion d;
    d.path = std::move(path);
    d.id_at = std::move(id_at);
    return std::make_shared<const binding::Deletion>(std::move(d));
}

// bind() with what it gives the step besides its request thrown away.
const binding::Operation* bind(const binding::Resource& r, suite::Step& st) {
    binding::StepBinding unused;
    return binding::bind(r, st, unused);
}

binding::Resource http_resource() {
    binding::Resource r;
    binding::Operation create;
    create.method = "POST";
    create.path = "/orders";
    create.body = json::parse(R"({"n":1})");
    create.headers = {{"X-Tenant", "t1"}};
    r.at(suite::Operation::create) = create;
    binding::Operation read;
    read.method = "GET";
    read.path = "/orders/{id}";
    read.not_found = suite::StatusExpect::NotFound{};
    read.not_found->status = 200;
    r.at(suite::Operation::read) = read;
    binding::Operation del;
    del.method = "POST";
    del.path = "/orders:delete";
    del.id_at = "/order/id";
    r.at(suite::Operation::del) = del;
    binding::Operation list;
    list.method = "GET";
    list.path = "/orders";
    list.filter = "{field}=eq.{value}";
    r.at(suite::Operation::list) = list;
    r.at(suite::Operation::create)->makes = written("/orders/{id}", "/id");
    return r;
}

}  // namespace

TEST_CASE("bind: a create call becomes the profile's HTTP request with its body, headers and cleanup") {
    const binding::Resource r = http_resource();
    suite::Step st = call(suite::Operation::create);
    auto& c = st.as<suite::OpCall>();
    c.set.emplace_back("/name", json::value("x"));
    c.unset.push_back("/n");
    binding::StepBinding b;
    REQUIRE(binding::bind(r, st, b) == r.find(suite::Operation::create));
    REQUIRE(st.is<suite::HttpRequest>());
    const auto& h = st.as<suite::HttpRequest>();
    CHECK(h.method == "POST");
    CHECK(h.path == "/orders");
    CHECK(h.principal == "other");
    REQUIRE(h.json);
    CHECK(json::serialize(*h.json) == R"({"n":1})");
    REQUIRE(h.set.size() == 1);
    CHECK(h.set[0].first == "/name");
    CHECK(h.unset == std::vector<std::string>{"/n"});
    CHECK(h.headers == r.find(suite::Operation::create)->headers);
    REQUIRE(st.cleanup);
    CHECK(st.cleanup->path == "/orders/{id}");  // the deletion's, as `list` shows it
    CHECK(b.deletion == r.find(suite::Operation::create)->makes);  // shared, not copied
    CHECK_FALSE(b.access);
    CHECK(st.name == "POST /orders");
}

TEST_CASE("bind: a cleanup the step has already is kept, and a name it has too") {
    const binding::Resource r = http_resource();
    suite::Step st = call(suite::Operation::create);
    st.name = "make one";
    suite::Cleanup own;
    own.path = "/elsewhere/{id}";
    own.id_at = "/key";
    st.cleanup = own;
    binding::StepBinding b;
    REQUIRE(binding::bind(r, st, b));
    CHECK(st.cleanup->path == "/elsewhere/{id}");
    CHECK_FALSE(b.deletion);  // booked as written
    CHECK(st.name == "make one");
}

TEST_CASE("bind: a read takes the id in its path, and the 2xx 'nothing there' only where a refusal is expected") {
    const binding::Resource r = http_resource();
    suite::Step refused = call(suite::Operation::read, "${id}");
    suite::StatusExpect s;
    s.exact = {404};
    refused.expect.status = s;
    REQUIRE(bind(r, refused));
    const auto& h = refused.as<suite::HttpRequest>();
    CHECK(h.path_params == std::vector<std::pair<std::string, std::string>>{{"id", "${id}"}});
    CHECK_FALSE(h.json);  // no body on a read by path
    REQUIRE(refused.expect.status->not_found);
    CHECK(refused.expect.status->not_found->status == 200);
    CHECK_FALSE(refused.cleanup);  // a read makes nothing

    suite::Step found = call(suite::Operation::read, "${id}");
    suite::StatusExpect ok;
    ok.exact = {200};
    found.expect.status = ok;
    REQUIRE(bind(r, found));
    CHECK_FALSE(found.expect.status->not_found);
}

TEST_CASE("bind: a delete naming the entity in a JSON body puts the id there, before the pack's edits") {
    const binding::Resource r = http_resource();
    suite::Step st = call(suite::Operation::del, "${id}");
    REQUIRE(bind(r, st));
    const auto& h = st.as<suite::HttpRequest>();
    CHECK(h.method == "POST");
    REQUIRE(h.json);
    CHECK(json::serialize(*h.json) == "{}");
    REQUIRE(h.set.size() == 1);
    CHECK(h.set[0].first == "/order/id");
    CHECK(h.set[0].second == json::value("${id}"));
}

TEST_CASE("bind: a list filter is spelled as the profile writes it") {
    const binding::Resource r = http_resource();
    suite::Step st = call(suite::Operation::list);
    st.as<suite::OpCall>().filter = {{"category_id", "${entity.categories}"}};
    REQUIRE(bind(r, st));
    const auto& q = st.as<suite::HttpRequest>().query;
    REQUIRE(q.size() == 1);
    CHECK(q[0].first == "category_id");
    CHECK(q[0].second == "eq.${entity.categories}");
    CHECK(binding::spell_filter("", "a", "b") == std::pair<std::string, std::string>{"a", "b"});
    CHECK(binding::spell_filter("filter[{field}]={value}", "a", "b") ==
          std::pair<std::string, std::string>{"filter[a]", "b"});
}

TEST_CASE("bind: an operation the resource does not declare leaves the call as it is") {
    const binding::Resource r = http_resource();
    suite::Step st = call(suite::Operation::update, "${id}");
    CHECK(bind(r, st) == nullptr);
    CHECK(st.is<suite::OpCall>());
    CHECK(st.name.empty());
    suite::Step plain;  // not a call at all
    CHECK(bind(r, plain) == nullptr);
    CHECK(plain.is<suite::HttpRequest>());
}

TEST_CASE("bind: over gRPC the same call becomes a message with the id at its field and filters as fields") {
    binding::Resource r;
    r.wire = binding::Wire::grpc;
    binding::Operation upd;
    upd.method = "shop.Orders/Update";
    upd.id_at = "/order_id";
    upd.body = json::parse(R"({"note":"x"})");
    r.at(suite::Operation::update) = upd;
    binding::Operation list;
    list.method = "shop.Orders/List";
    list.id_at = "/id";
    list.filter = "{field}=eq.{value}";  // HTTP's spelling: not gRPC's
    r.at(suite::Operation::list) = list;
    binding::Operation create;
    create.method = "shop.Orders/Create";
    create.body = json::parse(R"({"n":2})");
    create.makes = written("/orders/{id}", "/id");
    r.at(suite::Operation::create) = create;

    suite::Step st = call(suite::Operation::update, "${id}");
    st.as<suite::OpCall>().set.emplace_back("/note", json::value("y"));
    REQUIRE(bind(r, st));
    REQUIRE(st.is<suite::GrpcCall>());
    const auto& g = st.as<suite::GrpcCall>();
    CHECK(g.method == "shop.Orders/Update");
    CHECK(g.principal == "other");
    CHECK(json::serialize(g.message) == R"({"note":"x"})");
    REQUIRE(g.set.size() == 2);
    CHECK(g.set[0].first == "/order_id");
    CHECK(g.set[1].first == "/note");
    CHECK(st.name == "grpc shop.Orders/Update");
    CHECK_FALSE(st.cleanup);

    suite::Step ls = call(suite::Operation::list);
    ls.as<suite::OpCall>().filter = {{"category_id", "c1"}};
    REQUIRE(bind(r, ls));
    const auto& lg = ls.as<suite::GrpcCall>();
    CHECK(json::serialize(lg.message) == "{}");
    REQUIRE(lg.set.size() == 1);
    CHECK(lg.set[0].first == "/category_id");
    CHECK(lg.set[0].second == json::value("c1"));

    suite::Step mk = call(suite::Operation::create);
    binding::StepBinding b;
    REQUIRE(binding::bind(r, mk, b));
    CHECK(json::serialize(mk.as<suite::GrpcCall>().message) == R"({"n":2})");
    REQUIRE(mk.cleanup);
    CHECK(b.deletion == r.find(suite::Operation::create)->makes);
}

TEST_CASE("bind: a lookup sends the id in its query parameter, an action in its body, with their headers") {
    binding::Resource r = http_resource();
    binding::Operation lookup;
    lookup.method = "GET";
    lookup.path = "/orders";
    lookup.param = "order_id";
    lookup.headers = {{"X-Api-Version", "2"}};
    r.at(suite::Operation::lookup) = lookup;
    binding::Operation action;
    action.method = "POST";
    action.path = "/order-confirmations";
    action.id_at = "/order/id";
    action.body = json::parse(R"({"confirm":true})");
    action.headers = {{"X-Form", "confirm"}};
    const auto left = written("", "");
    action.makes = left;
    r.at(suite::Operation::action) = action;

    suite::Step lk = call(suite::Operation::lookup, "${m}");
    REQUIRE(bind(r, lk));
    const auto& lh = lk.as<suite::HttpRequest>();
    CHECK(lh.method == "GET");
    CHECK(lh.path == "/orders");
    CHECK(lh.query == std::vector<std::pair<std::string, std::string>>{{"order_id", "${m}"}});
    CHECK(lh.path_params.empty());
    CHECK(lh.headers == lookup.headers);
    CHECK_FALSE(lh.json);
    CHECK_FALSE(lk.cleanup);  // a lookup makes nothing

    suite::Step ac = call(suite::Operation::action, "${live_id}");
    ac.as<suite::OpCall>().set.emplace_back("/note", json::value("n"));
    binding::StepBinding acb;
    REQUIRE(binding::bind(r, ac, acb));
    const auto& ah = ac.as<suite::HttpRequest>();
    CHECK(ah.method == "POST");
    CHECK(ah.path == "/order-confirmations");
    REQUIRE(ah.json);
    CHECK(json::serialize(*ah.json) == R"({"confirm":true})");
    REQUIRE(ah.set.size() == 2);  // the id first, then the pack's edits
    CHECK(ah.set[0].first == "/order/id");
    CHECK(ah.set[0].second == json::value("${live_id}"));
    CHECK(ah.set[1].first == "/note");
    CHECK(ah.headers == action.headers);
    REQUIRE(ac.cleanup);
    CHECK(acb.deletion == left);  // what it makes: as the binding says
}
