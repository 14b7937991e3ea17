// The step-kind dispatch (runner/steps/step.hpp, suite/step.cpp): every
// question the engine, the loader and `idconform list` ask about a step's
// kind is a visit over suite::StepRequest, answered here for each kind.
#include "binding/access.hpp"
#include "runner/steps/step.hpp"
#include "suite/model.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>

using namespace idconform;
using namespace idconform::runner;

namespace {

suite::Step step_of(suite::StepRequest r, std::string name = {}) {
    suite::Step st;
    st.request = std::move(r);
    st.name = std::move(name);
    return st;
}

suite::KafkaRequest consume(bool absent) {
    suite::KafkaRequest k;
    k.op = suite::KafkaRequest::Op::consume;
    k.topic = "products.events";
    k.absent = absent;
    return k;
}

}  // namespace

TEST_CASE("a step is named by its own name, or by its kind") {
    suite::OpCall call;
    call.op = suite::Operation::create;
    CHECK(steps::name(step_of(call)) == "call create");
    CHECK(steps::name(step_of(call, "make one")) == "make one");
    suite::HttpRequest h;
    h.method = "GET";
    h.path = "/v1/products";
    CHECK(steps::name(step_of(h)) == "GET /v1/products");
    suite::GrpcCall g;
    g.method = "products.v1.Products/GetProduct";
    CHECK(steps::name(step_of(g)) == "grpc products.v1.Products/GetProduct");
}

TEST_CASE("only a file step runs locally, and a request step handed to run_local is a suite error, not a crash") {
    CHECK(steps::runs_locally(step_of(suite::FileScan{})));
    CHECK_FALSE(steps::runs_locally(step_of(suite::HttpRequest{})));
    CHECK_FALSE(steps::runs_locally(step_of(suite::GrpcCall{})));
    CHECK_FALSE(steps::runs_locally(step_of(consume(false))));
    CHECK_FALSE(steps::runs_locally(step_of(suite::OpCall{})));

    Scope scope;
    StepOutcome out = steps::run_local(step_of(suite::HttpRequest{}, "GET /x"), scope, "DATA-ID-001");
    CHECK(out.cause == ErrorCause::suite);
    CHECK(out.suite_error.find("sends a request") != std::string::npos);

    // A file step really scans: a missing file is the exchange's error, an input error of the case.
    suite::FileScan f;
    f.path = (std::filesystem::temp_directory_path() / "idconform-no-such-export.ndjson").string();
    out = steps::run_local(step_of(f, "scan it"), scope, "DATA-ID-002");
    CHECK(out.record.name == "scan it");
    CHECK(out.cause == ErrorCause::input);
}

TEST_CASE("a Kafka consume adds its message check, other kinds add none") {
    Exchange x;
    x.response.emplace();
    x.response->status = 404;  // the consume's deadline passed without a matching message
    std::vector<CheckResult> checks;
    steps::add_kind_checks(step_of(consume(false)), x, "DATA-ID-002", checks);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].rule == "DATA-ID-002");
    CHECK_FALSE(checks[0].ok);

    checks.clear();
    steps::add_kind_checks(step_of(consume(true)), x, "DATA-ID-002", checks);
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].ok);  // no message, as the step says there must be none

    for (const suite::StepRequest& r :
         {suite::StepRequest(suite::HttpRequest{}), suite::StepRequest(suite::GrpcCall{}),
          suite::StepRequest(suite::OpCall{}), suite::StepRequest(suite::FileScan{})}) {
        checks.clear();
        steps::add_kind_checks(step_of(r), x, "DATA-ID-002", checks);
        CHECK(checks.empty());
    }
}

TEST_CASE("only an http read whose binding's access names an array gets an entity view") {
    Exchange x;
    x.response.emplace();
    x.response->status = 200;
    x.response->body = "[]";
    CHECK_FALSE(steps::view_entity(step_of(suite::HttpRequest{}), nullptr, x, "DATA-ID-004"));
    binding::StepBinding plain;  // bound, reached as written
    CHECK_FALSE(steps::view_entity(step_of(suite::HttpRequest{}), &plain, x, "DATA-ID-004"));

    auto access = std::make_shared<binding::Access>();
    access->entity_array = "";
    const binding::StepBinding bound{access, nullptr};
    CHECK_FALSE(steps::view_entity(step_of(suite::GrpcCall{}), &bound, x, "DATA-ID-004"));
    const suite::Step read = step_of(suite::HttpRequest{});
    auto none = steps::view_entity(read, &bound, x, "DATA-ID-004");
    REQUIRE(none);
    CHECK(none->not_found);  // `[]`: the read found nothing
    x.response->body = R"([{"id":"a"}])";
    auto one = steps::view_entity(read, &bound, x, "DATA-ID-004");
    REQUIRE(one);
    REQUIRE(one->view);
    CHECK(one->view->response->body == R"({"id":"a"})");
    x.error = TransportError{TransportErrorKind::timeout, "timed out"};
    CHECK_FALSE(steps::view_entity(read, &bound, x, "DATA-ID-004"));  // nothing answered: nothing to view
}

TEST_CASE("what a step waits for, whether its message is typed, and where cleanup: is refused") {
    CHECK(suite::awaited(consume(false)) == "a message on products.events");
    CHECK(suite::awaited(consume(true)) == "no message on products.events");
    CHECK(suite::awaited(suite::KafkaRequest{}).empty());  // a produce waits for its delivery only
    CHECK(suite::awaited(suite::HttpRequest{}).empty());

    CHECK(suite::typed_message(suite::GrpcCall{}));
    CHECK_FALSE(suite::typed_message(suite::HttpRequest{}));
    CHECK_FALSE(suite::typed_message(suite::KafkaRequest{}));

    auto kafka = suite::cleanup_refused(suite::KafkaRequest{});
    REQUIRE(kafka);
    CHECK(kafka->message.find("over HTTP") != std::string::npos);
    auto grpc = suite::cleanup_refused(suite::GrpcCall{});
    REQUIRE(grpc);
    CHECK(grpc->hint.find("teardown") != std::string::npos);
    CHECK_FALSE(suite::cleanup_refused(suite::HttpRequest{}));
    CHECK_FALSE(suite::cleanup_refused(suite::OpCall{}));
}
