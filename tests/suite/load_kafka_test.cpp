// Kafka steps and target.kafka in suites: every key loads into the model
// with its position, and every mistake is reported where it was written,
// with a hint (did-you-mean for names).
#include "test_support.hpp"

using namespace idconform;
using namespace idconform::suite;
using namespace idconform::suite::testing;

namespace {

// A suite with target.kafka around one case's steps (starting at line 7).
std::string with_steps(const std::string& steps) {
    return "name: t\n"
           "target:\n"
           "  kafka: {brokers: \"${env:B}\", properties: {security.protocol: SASL_SSL, sasl.password: \"${env:P}\"}}\n"
           "cases:\n"
           "  - name: c\n"
           "    steps:\n" +
           steps;
}

Suite load_ok(const std::string& text) {
    const LoadResult r = load_text(text, "inline.yaml");
    INFO(dump(r.diagnostics));
    REQUIRE(r.ok());
    return *r.suite;
}

}  // namespace

TEST_CASE("target.kafka: brokers and properties as templates") {
    const Suite s = load_ok(with_steps("      - kafka: {consume: {topic: t}}\n"));
    CHECK(s.target.kafka.brokers == "${env:B}");
    REQUIRE(s.target.kafka.properties.size() == 2);
    CHECK(s.target.kafka.properties[0] == std::pair<std::string, std::string>{"security.protocol", "SASL_SSL"});
    CHECK(s.target.kafka.properties[1].second == "${env:P}");
    CHECK(s.target.kafka.pos.line == 3);
}

TEST_CASE("a produce step: topic, key, headers, json payload, partition, default name") {
    const Suite s = load_ok(with_steps("      - kafka:\n"
                                       "          produce:\n"
                                       "            topic: products.commands\n"
                                       "            key: \"${id}\"\n"
                                       "            headers: {probe: \"p-${id}\"}\n"
                                       "            json: {type: delete_product, id: \"${id}\"}\n"
                                       "            partition: 1\n"));
    const Step& st = s.cases.at(0).steps.at(0);
    CHECK(st.is<KafkaRequest>());
    CHECK(st.name == "kafka produce products.commands");
    const KafkaRequest& k = st.as<KafkaRequest>();
    CHECK(k.op == KafkaRequest::Op::produce);
    CHECK(k.topic == "products.commands");
    CHECK(k.key == "${id}");
    REQUIRE(k.headers.size() == 1);
    CHECK(k.headers[0].second == "p-${id}");
    REQUIRE(k.json.has_value());
    CHECK(k.json->at("type") == "delete_product");
    CHECK(k.partition == 1);
    CHECK(k.pos.line == 8);
}

TEST_CASE("a consume step: match of every kind, from, timeout, partitions, absent") {
    const Suite s = load_ok(with_steps("      - name: wait\n"
                                       "        kafka:\n"
                                       "          consume:\n"
                                       "            topic: products.events\n"
                                       "            match: {key: \"${id}\", header: {probe: x}, json: {/id: \"${id}\", /type: created}}\n"
                                       "            from: beginning\n"
                                       "            timeout: 2s\n"
                                       "            partitions: [0, 2]\n"
                                       "            absent: true\n"
                                       "        expect: {id: {header: kafka-key, kind: uuidv7}}\n"));
    const Step& st = s.cases.at(0).steps.at(0);
    CHECK(st.name == "wait");
    const KafkaRequest& k = st.as<KafkaRequest>();
    CHECK(k.op == KafkaRequest::Op::consume);
    REQUIRE(k.match.size() == 4);
    CHECK(k.match[0].kind == KafkaMatch::Kind::key);
    CHECK(k.match[1].kind == KafkaMatch::Kind::header);
    CHECK(k.match[1].name == "probe");
    CHECK(k.match[2].kind == KafkaMatch::Kind::json);
    CHECK(k.match[2].name == "/id");
    CHECK(k.match[3].value == "created");
    CHECK(k.from == KafkaRequest::From::beginning);
    CHECK(k.timeout_ms == 2000);
    CHECK(k.partitions == std::vector<int>{0, 2});
    CHECK(k.absent);
    CHECK(st.expect.ids.at(0).header == "kafka-key");
}

TEST_CASE("consume from: case (default), end, an offset, a time") {
    auto from_of = [](const std::string& from) {
        const Suite s = load_ok(with_steps("      - kafka: {consume: {topic: t" + from + "}}\n"));
        return s.cases.at(0).steps.at(0).as<KafkaRequest>();
    };
    CHECK(from_of("").from == KafkaRequest::From::case_start);
    CHECK(from_of(", from: case").from == KafkaRequest::From::case_start);
    CHECK(from_of(", from: end").from == KafkaRequest::From::end);
    const auto off = from_of(", from: 42");
    CHECK(off.from == KafkaRequest::From::offset);
    CHECK(off.from_offset == 42);
    const auto t = from_of(", from: \"2024-05-01T12:00:00Z\"");
    CHECK(t.from == KafkaRequest::From::time);
    CHECK(t.from_time == "2024-05-01T12:00:00Z");
    CHECK(from_of(", from: \"${since}\"").from == KafkaRequest::From::time);
}

TEST_CASE("kafka step errors, each at its position with a hint") {
    SUBCASE("http and kafka in one step") {
        const Diagnostic d = only_error(with_steps("      - {http: {path: /x}, kafka: {consume: {topic: t}}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:28");
        CHECK(d.title == "a step has one request: 'http' and 'kafka' cannot both be set");
    }
    SUBCASE("both produce and consume") {
        const Diagnostic d = only_error(with_steps("      - kafka: {produce: {topic: t}, consume: {topic: t}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:16");
        CHECK(d.title == "a kafka step takes exactly one of: produce, consume");
    }
    SUBCASE("unknown operation with did-you-mean") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consme: {topic: t}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:17");
        CHECK(d.title == "unknown key 'consme' in kafka");
        CHECK(d.hint == "did you mean 'consume'?");
    }
    SUBCASE("unknown consume key with did-you-mean") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, timout: 5s}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:37");
        CHECK(d.hint == "did you mean 'timeout'?");
    }
    SUBCASE("missing topic") {
        const Diagnostic d = only_error(with_steps("      - kafka: {produce: {key: k}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:26");
        CHECK(d.title == "missing required key 'topic' in kafka");
    }
    SUBCASE("bad topic") {
        const Diagnostic d = only_error(with_steps("      - kafka: {produce: {topic: \"a/b\"}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:34");
        CHECK(d.title == "bad Kafka topic 'a/b'");
    }
    SUBCASE("reserved header name") {
        const Diagnostic d = only_error(with_steps("      - kafka: {produce: {topic: t, headers: {kafka-key: x}}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:47");
        CHECK(d.title == "header names starting with 'kafka-' are reserved");
    }
    SUBCASE("json and raw") {
        const Diagnostic d = only_error(with_steps("      - kafka: {produce: {topic: t, json: {}, raw: x}}\n"));
        CHECK(d.title == "'json' and 'raw' cannot both be set");
    }
    SUBCASE("bad from with did-you-mean") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, from: begining}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:43");
        CHECK(d.title == "bad start 'begining' for consume");
        CHECK(d.hint.rfind("did you mean 'beginning'?", 0) == 0);
    }
    SUBCASE("bad JSON pointer in a match") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, match: {json: {id: x}}}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:52");
        CHECK(d.title == "bad JSON pointer 'id'");
    }
    SUBCASE("unknown match kind") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, match: {kye: x}}}\n"));
        CHECK(d.hint == "did you mean 'key'?");
    }
    SUBCASE("empty match") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, match: {}}}\n"));
        CHECK(d.title == "empty match");
    }
    SUBCASE("bad partition") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, partitions: [0, -1]}}\n"));
        CHECK(d.pos.str() == "inline.yaml:7:53");
        CHECK(d.title == "a partition is a whole number from 0");
    }
    SUBCASE("bad timeout") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t, timeout: soon}}\n"));
        CHECK(d.title == "bad duration 'soon' for 'timeout'");
    }
    SUBCASE("cleanup on a kafka step") {
        const Diagnostic d = only_error(with_steps("      - kafka: {consume: {topic: t}}\n"
                                                   "        cleanup: {path: \"/x/{id}\"}\n"));
        CHECK(d.pos.str() == "inline.yaml:8:9");
        CHECK(d.title == "'cleanup' is for steps that create an entity over HTTP");
    }
    SUBCASE("bad template in a key") {
        const Diagnostic d = only_error(with_steps("      - kafka: {produce: {topic: t, key: \"${id\"}}\n"));
        CHECK(d.pos.line == 7);
    }
}

TEST_CASE("target.kafka errors") {
    SUBCASE("missing brokers") {
        const Diagnostic d = only_error("name: t\ntarget:\n  kafka: {properties: {a: b}}\ncases: [{name: c, steps: [{kafka: {consume: {topic: t}}}]}]\n");
        CHECK(d.pos.str() == "inline.yaml:3:10");
        CHECK(d.title == "missing required key 'brokers' in kafka");
    }
    SUBCASE("unknown key with did-you-mean") {
        const Diagnostic d = only_error("name: t\ntarget:\n  kafka: {broker: x}\ncases: [{name: c, steps: [{kafka: {consume: {topic: t}}}]}]\n");
        CHECK(d.hint == "did you mean 'brokers'?");
    }
}
