// Kafka steps in the runner: the request a step becomes (after
// interpolation), and the message check of a consume's answer.
#include "runner/steps/kafka.hpp"
#include "transport/kafka/kafka_request.hpp"

#include <doctest/doctest.h>

#include <boost/json/parse.hpp>

using namespace idconform;
using namespace idconform::runner;
namespace json = boost::json;
namespace kafka = idconform::transport::kafka;

namespace {

KafkaContext context() {
    KafkaContext c;
    c.brokers = "127.0.0.1:9092";
    c.read_timeout = std::chrono::milliseconds(7000);
    c.clock_skew = std::chrono::milliseconds(5000);
    return c;
}

kafka::Spec spec_of(const Result<Request>& r) {
    INFO((r ? std::string() : r.error()));
    REQUIRE(r.has_value());
    auto s = kafka::parse_request(*r);
    REQUIRE(s.has_value());
    return *s;
}

}  // namespace

TEST_CASE("a produce step becomes a produce request with everything interpolated") {
    Scope scope;
    scope.set("id", json::value("0190a000-0000-7000-8000-000000000001"));
    scope.set("v", json::value(nullptr));
    suite::KafkaRequest k;
    k.op = suite::KafkaRequest::Op::produce;
    k.topic = "products.${t}";
    scope.set("t", json::value("commands"));
    k.key = "${id}";
    k.headers = {{"probe", "p-${id}"}};
    k.json = json::parse(R"({"type":"delete_product","id":"${v}","name":"n-${id}"})");
    k.partition = 3;
    const auto r = build_kafka_request(k, scope, context());
    REQUIRE(r.has_value());
    CHECK(r->transport == "kafka");
    CHECK(r->method == "produce");
    CHECK(r->url == "kafka://products.commands?partition=3");
    const kafka::Spec s = spec_of(r);
    CHECK(s.key == "0190a000-0000-7000-8000-000000000001");
    REQUIRE(s.headers.size() == 1);
    CHECK(s.headers[0].value == "p-0190a000-0000-7000-8000-000000000001");
    // "${v}" alone is the variable's JSON value: null is sent as null
    CHECK(json::parse(s.payload) == json::parse(R"({"type":"delete_product","id":null,"name":"n-0190a000-0000-7000-8000-000000000001"})"));
}

TEST_CASE("a raw payload is sent as written") {
    Scope scope;
    suite::KafkaRequest k;
    k.topic = "t";
    k.raw = "not json {";
    CHECK(spec_of(build_kafka_request(k, scope, context())).payload == "not json {");
}

TEST_CASE("a consume step: start of the case minus the clock skew, matches, the read timeout by default") {
    Scope scope;
    scope.set(case_started_var, json::value(std::int64_t{1700000010000}));
    scope.set("id", json::value("abc"));
    scope.set("ptr", json::value("/id"));
    suite::KafkaRequest k;
    k.op = suite::KafkaRequest::Op::consume;
    k.topic = "products.events";
    suite::KafkaMatch m1;
    m1.kind = suite::KafkaMatch::Kind::key;
    m1.value = "${id}";
    suite::KafkaMatch m2;
    m2.kind = suite::KafkaMatch::Kind::json;
    m2.name = "${ptr}";
    m2.value = "${id}";
    k.match = {m1, m2};
    const kafka::Spec s = spec_of(build_kafka_request(k, scope, context()));
    CHECK(s.op == kafka::Spec::Op::consume);
    CHECK(s.start.kind == kafka::Start::Kind::timestamp);
    CHECK(s.start.value == 1700000005000);
    CHECK(s.timeout == std::chrono::milliseconds(7000));
    REQUIRE(s.match.size() == 2);
    CHECK(s.match[0].value == "abc");
    CHECK(s.match[1].name == "/id");
    CHECK(s.match[1].value == "abc");

    k.timeout_ms = 1500;
    k.from = suite::KafkaRequest::From::time;
    k.from_time = "2024-05-01T12:00:00.250Z";
    const kafka::Spec t = spec_of(build_kafka_request(k, scope, context()));
    CHECK(t.start.value == 1714564800250);
    CHECK(t.timeout == std::chrono::milliseconds(1500));
    k.from = suite::KafkaRequest::From::offset;
    k.from_offset = 17;
    CHECK(spec_of(build_kafka_request(k, scope, context())).start.value == 17);
    k.from = suite::KafkaRequest::From::end;
    CHECK(spec_of(build_kafka_request(k, scope, context())).start.kind == kafka::Start::Kind::end);
}

TEST_CASE("kafka request problems name where and what") {
    Scope scope;
    suite::KafkaRequest k;
    k.pos = SourcePos{"s.yaml", 4, 9};
    k.topic = "t";
    auto error_of = [&](const KafkaContext& c) {
        auto r = build_kafka_request(k, scope, c);
        REQUIRE_FALSE(r.has_value());
        return r.error();
    };
    KafkaContext none = context();
    none.brokers.clear();
    CHECK(error_of(none).find("s.yaml:4:9: this suite has no Kafka cluster") == 0);
    KafkaContext problem = context();
    problem.problem = "s.yaml:2:3: kafka brokers: undefined variable ${env:B}";
    CHECK(error_of(problem) == problem.problem);
    k.topic = "${nope}";
    CHECK(error_of(context()).find("topic: ") != std::string::npos);
    CHECK(error_of(context()).find("nope") != std::string::npos);
    scope.set("bad", json::value("a b"));
    k.topic = "${bad}";
    CHECK(error_of(context()).find("bad Kafka topic 'a b'") != std::string::npos);
    k.topic = "t";
    k.op = suite::KafkaRequest::Op::consume;
    k.from = suite::KafkaRequest::From::time;
    k.from_time = "yesterday";
    CHECK(error_of(context()).find("'yesterday' is not an RFC 3339 UTC time") != std::string::npos);
}

TEST_CASE("the message check: a match passes, a miss fails under the rule with what was read") {
    suite::KafkaRequest k;
    k.op = suite::KafkaRequest::Op::consume;
    k.pos = SourcePos{"s.yaml", 9, 11};
    kafka::Spec s;
    s.op = kafka::Spec::Op::consume;
    s.topic = "products.events";
    s.timeout = std::chrono::milliseconds(5000);
    s.match = {{kafka::Match::Kind::key, "", "abc"}};
    Exchange x;
    x.request = kafka::to_request(s);
    x.response.emplace();
    x.response->status = 200;
    x.response->headers = {{"kafka-partition", "2"}, {"kafka-offset", "41"}, {"kafka-key", "abc"}};
    CheckResult ok = kafka_message_check(k, x, "DATA-ID-002");
    CHECK(ok.ok);
    CHECK(ok.rule == "DATA-ID-002");
    CHECK(ok.what == "kafka message on products.events");
    CHECK(ok.expected == "a message with key = 'abc' within 5000 ms");
    CHECK(ok.actual == "message with key 'abc' at partition 2 offset 41");
    CHECK(ok.pos.str() == "s.yaml:9:11");

    x.response->status = 404;
    x.response->headers.clear();
    x.response->body = R"({"read":2,"last_read":[{"key":"k1"},{"key":null}]})";
    CheckResult miss = kafka_message_check(k, x, "DATA-ID-002");
    CHECK_FALSE(miss.ok);
    CHECK(miss.actual == "none (read 2 other messages; last keys: k1 null)");

    k.absent = true;
    CHECK(kafka_message_check(k, x, "R").ok);
    x.response->status = 200;
    CheckResult unwanted = kafka_message_check(k, x, "R");
    CHECK_FALSE(unwanted.ok);
    CHECK(unwanted.expected == "no message with key = 'abc' within 5000 ms");
}
