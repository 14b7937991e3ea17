// The kafka step kind: request building, the message check, its description.
#include "runner/steps/kafka.hpp"

#include "ids/ids.hpp"
#include "runner/checks.hpp"
#include "runner/scope.hpp"
#include "transport/kafka/kafka_request.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

namespace idconform::runner {

namespace json = boost::json;
namespace kafka = transport::kafka;

// A kafka step's request (encoding in transport/kafka/kafka_request.hpp).
Result<Request> build_kafka_request(const suite::KafkaRequest& k, const Scope& scope, const KafkaContext& ctx) {
    using R = Result<Request>;
    auto fail = [&k](const std::string& what) { return R(boost::system::in_place_error, k.pos.str() + ": " + what); };
    if (!ctx.problem.empty()) return R(boost::system::in_place_error, ctx.problem);
    if (ctx.brokers.empty())
        return fail("this suite has no Kafka cluster: add target: {kafka: {brokers: \"${env:IDCONFORM_KAFKA_BROKERS}\"}}");
    kafka::Spec spec;
    auto topic = interpolate(k.topic, scope);
    if (!topic) return fail("topic: " + topic.error());
    if (!kafka::valid_topic(*topic)) return fail("bad Kafka topic '" + *topic + "' (1-249 of a-z A-Z 0-9 . _ -)");
    spec.topic = *topic;
    if (k.op == suite::KafkaRequest::Op::produce) {
        spec.op = kafka::Spec::Op::produce;
        spec.partition = k.partition;
        if (k.key) {
            auto key = interpolate(*k.key, scope);
            if (!key) return fail("key: " + key.error());
            spec.key = *key;
        }
        for (const auto& [name, v] : k.headers) {
            auto hv = interpolate(v, scope);
            if (!hv) return fail("header " + name + ": " + hv.error());
            spec.headers.push_back({name, *hv});
        }
        if (k.json) {
            auto body = interpolate_json(*k.json, scope);
            if (!body) return fail("json: " + body.error());
            spec.payload = json::serialize(*body);
        } else if (k.raw) {
            auto body = interpolate(*k.raw, scope);
            if (!body) return fail("raw: " + body.error());
            spec.payload = *body;
        }
        return kafka::to_request(spec);
    }
    spec.op = kafka::Spec::Op::consume;
    spec.partitions = k.partitions;
    spec.timeout = k.timeout_ms ? std::chrono::milliseconds(*k.timeout_ms) : ctx.read_timeout;
    using From = suite::KafkaRequest::From;
    switch (k.from) {
        case From::case_start: {
            // Widened by the clock skew: the broker stamps messages with
            // the producer's clock, not ours.
            const json::value* started = scope.find(case_started_var);
            const std::int64_t ms = started && started->is_int64() ? started->as_int64() : ids::system_unix_ms();
            spec.start = {kafka::Start::Kind::timestamp, std::max<std::int64_t>(0, ms - ctx.clock_skew.count())};
            break;
        }
        case From::end: spec.start = {kafka::Start::Kind::end, 0}; break;
        case From::beginning: spec.start = {kafka::Start::Kind::beginning, 0}; break;
        case From::offset: spec.start = {kafka::Start::Kind::offset, k.from_offset}; break;
        case From::time: {
            auto text = interpolate(k.from_time, scope);
            if (!text) return fail("from: " + text.error());
            auto ms = parse_iso8601_ms(*text);
            if (!ms || *ms < 0) return fail("from: '" + *text + "' is not an RFC 3339 UTC time (e.g. 2024-05-01T12:00:00Z)");
            spec.start = {kafka::Start::Kind::timestamp, *ms};
            break;
        }
    }
    for (const auto& m : k.match) {
        auto v = interpolate(m.value, scope);
        if (!v) return R(boost::system::in_place_error, m.pos.str() + ": match: " + v.error());
        using K = suite::KafkaMatch::Kind;
        const auto kind = m.kind == K::key ? kafka::Match::Kind::key : m.kind == K::header ? kafka::Match::Kind::header
                                                                                           : kafka::Match::Kind::json;
        spec.match.push_back({kind, m.kind == K::json ? resolve_pointer(m.name, scope) : m.name, *v});
    }
    return kafka::to_request(spec);
}

// A miss is a broken contract (the event was not published, or not in the
// form it must have), not a transport error: the transport did its job.
CheckResult kafka_message_check(const suite::KafkaRequest& k, const Exchange& x, const std::string& rule) {
    CheckResult c;
    c.rule = rule;
    c.pos = k.pos;
    auto spec = transport::kafka::parse_request(x.request);
    const std::string topic = spec ? spec->topic : k.topic;
    const std::string filter = spec ? transport::kafka::describe(spec->match) : "the match";
    const long waited = spec && spec->timeout ? static_cast<long>(spec->timeout->count()) : -1;
    c.what = "kafka message on " + topic;
    const std::string within = waited >= 0 ? " within " + std::to_string(waited) + " ms" : " within the read timeout";
    c.expected = (k.absent ? "no message with " : "a message with ") + filter + within;
    const Response& resp = *x.response;
    const bool found = resp.status == 200;
    if (found) {
        const std::string* key = resp.header(transport::kafka::key_header);
        const std::string* part = resp.header(transport::kafka::partition_header);
        const std::string* off = resp.header(transport::kafka::offset_header);
        c.actual = "message" + (key ? " with key '" + *key + "'" : std::string(" with a null key")) + " at partition " +
                   (part ? *part : "?") + " offset " + (off ? *off : "?");
    } else {
        c.actual = "none";
        boost::system::error_code ec;
        json::value b = json::parse(resp.body, ec);
        if (!ec && b.is_object()) {
            const auto& o = b.as_object();
            if (const auto* n = o.if_contains("read")) c.actual += " (read " + json::serialize(*n) + " other messages";
            if (const auto* last = o.if_contains("last_read"); last && last->is_array() && !last->as_array().empty()) {
                c.actual += "; last keys:";
                for (const auto& m : last->as_array())
                    if (m.is_object())
                        if (const auto* kv = m.as_object().if_contains("key"))
                            c.actual += " " + (kv->is_string() ? std::string(kv->as_string()) : std::string("null"));
            }
            if (o.if_contains("read")) c.actual += ")";
        }
    }
    c.ok = found != k.absent;
    return c;
}

void add_message_check(const suite::KafkaRequest& k, const Exchange& x, const std::string& rule,
                       std::vector<CheckResult>& checks) {
    if (k.op != suite::KafkaRequest::Op::consume) return;
    CheckResult got = kafka_message_check(k, x, rule);
    if (k.absent || x.response->status != 200) checks.clear();
    checks.insert(checks.begin(), std::move(got));
}

namespace steps {

std::string describe(const suite::KafkaRequest& k) {
    std::string s = std::string(k.op == suite::KafkaRequest::Op::produce ? "produce to " : "consume ") + k.topic;
    if (k.key) s += " key " + *k.key;
    for (const auto& m : k.match)
        s += m.kind == suite::KafkaMatch::Kind::key ? " key=" + m.value : " " + m.name + "=" + m.value;
    return s;
}

void add_properties(const suite::KafkaRequest& k, std::vector<Property>& out) {
    out.push_back({"transport", "kafka"});
    out.push_back({"endpoint", std::string(k.op == suite::KafkaRequest::Op::produce ? "produce " : "consume ") + k.topic});
}


}  // namespace steps

}  // namespace idconform::runner
