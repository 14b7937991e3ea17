// Kafka operations in the shared Request model: every Spec survives the trip
// to a Request and back, bad requests are refused with a reason, matching
// follows the documented rules.
#include "transport/kafka/kafka_request.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::transport::kafka;

namespace {

Spec roundtrip(const Spec& s) {
    const Request r = to_request(s);
    auto back = parse_request(r);
    INFO((back ? std::string() : back.error()));
    REQUIRE(back.has_value());
    return *back;
}

}  // namespace

TEST_CASE("a produce travels as method, kafka:// URL, kafka-key header and body") {
    Spec s;
    s.op = Spec::Op::produce;
    s.topic = "products.commands";
    s.partition = 2;
    s.key = "k&=+ %1";
    s.headers = {{"probe", "a b"}, {"trace", "x"}};
    s.payload = R"({"id":"x"})";
    const Request r = to_request(s);
    CHECK(r.transport == "kafka");
    CHECK(r.method == "produce");
    CHECK(r.url == "kafka://products.commands?partition=2");
    REQUIRE(r.headers.size() == 3);
    CHECK(r.headers[0].name == "kafka-key");
    CHECK(r.headers[0].value == "k&=+ %1");
    CHECK(r.body == s.payload);
    const Spec b = roundtrip(s);
    CHECK(b.op == Spec::Op::produce);
    CHECK(b.topic == s.topic);
    CHECK(b.partition == 2);
    CHECK(b.key == s.key);
    REQUIRE(b.headers.size() == 2);
    CHECK(b.headers[1].value == "x");
    CHECK(b.payload == s.payload);
}

TEST_CASE("a produce without a key has a null key") {
    Spec s;
    s.topic = "t";
    CHECK_FALSE(roundtrip(s).key.has_value());
}

TEST_CASE("a consume keeps start, partitions, timeout and matches with awkward characters") {
    Spec s;
    s.op = Spec::Op::consume;
    s.topic = "products.events";
    s.partitions = {0, 3};
    s.timeout = std::chrono::milliseconds(2500);
    s.match = {{Match::Kind::key, "", "a&b=c+d %e"},
               {Match::Kind::header, "probe", "x y#z?"},
               {Match::Kind::json, "/a~1b/0", "\"quoted\" and \xc3\xa9"}};
    for (Start st : {Start{Start::Kind::end, 0}, Start{Start::Kind::beginning, 0}, Start{Start::Kind::timestamp, 1700000000123},
                     Start{Start::Kind::offset, 42}}) {
        s.start = st;
        const Spec b = roundtrip(s);
        CHECK(b.op == Spec::Op::consume);
        CHECK(b.start.kind == st.kind);
        CHECK(b.start.value == st.value);
        CHECK(b.partitions == std::vector<int>{0, 3});
        CHECK(b.timeout == std::chrono::milliseconds(2500));
        REQUIRE(b.match.size() == 3);
        CHECK(b.match[0].value == "a&b=c+d %e");
        CHECK(b.match[1].name == "probe");
        CHECK(b.match[1].value == "x y#z?");
        CHECK(b.match[2].name == "/a~1b/0");
        CHECK(b.match[2].value == "\"quoted\" and \xc3\xa9");
    }
    s.start = {Start::Kind::timestamp, 5};
    CHECK(to_request(s).url.find("from=timestamp:5") != std::string::npos);
}

TEST_CASE("bad requests are refused with the reason") {
    auto error_of = [](Request r) {
        auto p = parse_request(r);
        REQUIRE_FALSE(p.has_value());
        return p.error();
    };
    Request r;
    r.transport = "kafka";
    r.method = "fetch";
    r.url = "kafka://t";
    CHECK(error_of(r).find("unknown Kafka operation 'fetch'") != std::string::npos);
    r.method = "consume";
    r.url = "http://t";
    CHECK(error_of(r).find("not a kafka:// URL") != std::string::npos);
    r.url = "kafka://bad%20topic";
    CHECK(error_of(r).find("bad Kafka topic") != std::string::npos);
    r.url = "kafka://t?from=yesterday";
    CHECK(error_of(r).find("bad start 'yesterday'") != std::string::npos);
    r.url = "kafka://t?from=offset:-1";
    CHECK(error_of(r).find("bad start") != std::string::npos);
    r.url = "kafka://t?partitions=0,x";
    CHECK(error_of(r).find("bad partition list") != std::string::npos);
    r.url = "kafka://t?timeout_ms=soon";
    CHECK(error_of(r).find("bad timeout_ms") != std::string::npos);
    r.url = "kafka://t?colour=red";
    CHECK(error_of(r).find("unknown parameter 'colour'") != std::string::npos);
    r.method = "produce";
    r.url = "kafka://t?from=end";  // a consume parameter on a produce
    CHECK(error_of(r).find("unknown parameter 'from'") != std::string::npos);
    r.url = "kafka://t?partition=-3";
    CHECK(error_of(r).find("bad partition") != std::string::npos);
}

TEST_CASE("topic names") {
    CHECK(valid_topic("products.events"));
    CHECK(valid_topic("a_b-C.9"));
    CHECK_FALSE(valid_topic(""));
    CHECK_FALSE(valid_topic("."));
    CHECK_FALSE(valid_topic(".."));
    CHECK_FALSE(valid_topic("a b"));
    CHECK_FALSE(valid_topic("a/b"));
    CHECK_FALSE(valid_topic(std::string(250, 'a')));
    CHECK(valid_topic(std::string(249, 'a')));
}

TEST_CASE("matching: key, last header of a name, JSON pointer by text or JSON") {
    Message m;
    m.key = "k1";
    m.headers = {{"probe", "old"}, {"probe", "new"}};
    m.payload = R"({"id":"0190","n":5,"nested":{"ok":true},"nil":null})";
    CHECK(matches({}, m));
    CHECK(matches({{Match::Kind::key, "", "k1"}}, m));
    CHECK_FALSE(matches({{Match::Kind::key, "", "K1"}}, m));
    CHECK(matches({{Match::Kind::header, "probe", "new"}}, m));
    CHECK_FALSE(matches({{Match::Kind::header, "probe", "old"}}, m));
    CHECK_FALSE(matches({{Match::Kind::header, "Probe", "new"}}, m));  // header names are exact in Kafka
    CHECK(matches({{Match::Kind::json, "/id", "0190"}}, m));
    CHECK(matches({{Match::Kind::json, "/n", "5"}}, m));
    CHECK(matches({{Match::Kind::json, "/nested/ok", "true"}}, m));
    CHECK(matches({{Match::Kind::json, "/nil", "null"}}, m));
    CHECK_FALSE(matches({{Match::Kind::json, "/missing", "null"}}, m));
    CHECK_FALSE(matches({{Match::Kind::key, "", "k1"}, {Match::Kind::json, "/id", "other"}}, m));  // all must hold
    Message nokey;
    nokey.payload = "not json";
    CHECK_FALSE(matches({{Match::Kind::key, "", ""}}, nokey));  // a null key is not ""
    CHECK_FALSE(matches({{Match::Kind::json, "/id", "x"}}, nokey));
    CHECK(matches({{Match::Kind::header, "h", ""}}, Message{std::nullopt, {{"h", ""}}, ""}));
}

TEST_CASE("descriptions and kcat commands") {
    CHECK(describe({}) == "any message");
    CHECK(describe({{Match::Kind::key, "", "k"}, {Match::Kind::header, "h", "v"}, {Match::Kind::json, "/id", "x"}}) ==
          "key = 'k' and header h = 'v' and /id = 'x'");
    Spec p;
    p.topic = "cmds";
    p.key = "k";
    p.headers = {{"probe", "it's"}};
    p.payload = "{}";
    CHECK(kcat_command(to_request(p), "127.0.0.1:9092") ==
          "printf '%s\\n' 'k\t{}' | kcat -b '127.0.0.1:9092' -t 'cmds' -P -K '\\t' -H 'probe=it'\\''s'");
    Spec c;
    c.op = Spec::Op::consume;
    c.topic = "events";
    c.start = {Start::Kind::timestamp, 99};
    c.partitions = {1};
    CHECK(kcat_command(to_request(c), "b:1") == "kcat -b 'b:1' -t 'events' -C -e -J -p 1 -o s@99  # then look for any message");
    Request bad;
    bad.method = "nope";
    CHECK(kcat_command(bad, "b").rfind("# unknown Kafka operation", 0) == 0);
}

TEST_CASE("secret property names") {
    for (const char* n : {"sasl.password", "ssl.key.password", "sasl.oauthbearer.client.secret", "ssl.key.pem",
                          "sasl.oauthbearer.config", "SASL.PASSWORD"})
        CHECK_MESSAGE(secret_property(n), n);
    for (const char* n : {"security.protocol", "sasl.username", "sasl.mechanism", "ssl.ca.location", "bootstrap.servers"})
        CHECK_MESSAGE(!secret_property(n), n);
}
