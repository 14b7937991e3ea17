// Suite start: variables, target, transport options (see suite_setup.hpp).
#include "runner/suite_setup.hpp"

#include "runner/send_check.hpp"
#include "transport/kafka/kafka_request.hpp"

namespace idconform::runner {

namespace json = boost::json;

namespace {

// target.kafka: a problem (an unset ${env:...}) is kept for the first
// kafka step, so suites whose kafka cases are skipped run without it.
// Secret property values join the suite's secrets before cases copy the scope.
void setup_kafka_target(const suite::KafkaTarget& t, SuiteRun& run) {
    if (t.brokers.empty()) return;
    auto b = interpolate(t.brokers, run.scope);
    if (!b) {
        run.env.kafka.problem = t.pos.str() + ": kafka brokers: " + b.error();
        return;
    }
    run.kafka.brokers = *b;
    for (const auto& [k, v] : t.properties) {
        auto pv = interpolate(v, run.scope);
        if (!pv) {
            run.env.kafka.problem = t.pos.str() + ": kafka property " + k + ": " + pv.error();
            return;
        }
        if (transport::kafka::secret_property(k) && !pv->empty()) run.scope.add_secret(*pv);
        run.kafka.properties.emplace_back(k, *pv);
    }
}

}  // namespace

std::string interpolate_target(const RunOptions& opts, const suite::Suite& s, SuiteRun& run) {
    for (const auto& v : s.vars) {
        if (v.deferred) {
            run.scope.set_deferred(v.name, v.value);
            continue;
        }
        auto val = interpolate_json(v.value, run.scope);
        if (!val) return v.pos.str() + ": variable '" + v.name + "': " + val.error();
        run.scope.set(v.name, std::move(*val), v.secret);
    }
    for (const auto& [k, v] : opts.vars) run.scope.set(k, json::value(v));
    auto base = opts.base_url ? Result<std::string>(boost::system::in_place_value, *opts.base_url)
                              : interpolate(s.target.base_url, run.scope);
    if (!base) return s.target.pos.str() + ": base_url: " + base.error();
    run.env.base_url = *base;
    while (!run.env.base_url.empty() && run.env.base_url.back() == '/') run.env.base_url.pop_back();
    if (s.target.grpc) {
        auto addr = interpolate(s.target.grpc->address, run.scope);
        if (!addr) return s.target.grpc->pos.str() + ": address: " + addr.error();
        const bool has_scheme = addr->rfind("grpc://", 0) == 0 || addr->rfind("grpcs://", 0) == 0;
        run.env.grpc_url = has_scheme ? *addr : (s.target.grpc->tls ? "grpcs://" : "grpc://") + *addr;
    }
    for (const auto& [k, v] : s.target.headers) {
        auto hv = interpolate(v, run.scope);
        if (!hv) return s.target.pos.str() + ": header " + k + ": " + hv.error();
        run.env.target_headers.emplace_back(k, *hv);
    }
    setup_kafka_target(s.target.kafka, run);
    return {};
}

transport::Options merge_transport_options(const RunOptions& opts, const suite::Target& t,
                                           const transport::KafkaOptions& kafka) {
    transport::Options to;
    to.connect_timeout = opts.connect_timeout.value_or(std::chrono::milliseconds(t.connect_timeout_ms.value_or(5000)));
    to.read_timeout = opts.timeout.value_or(std::chrono::milliseconds(t.read_timeout_ms.value_or(10000)));
    to.body_cap = opts.body_cap;
    to.tls.ca_file = opts.tls.ca_file.empty() ? t.ca_file : opts.tls.ca_file;
    to.tls.cert_file = opts.tls.cert_file.empty() ? t.cert_file : opts.tls.cert_file;
    to.tls.key_file = opts.tls.key_file.empty() ? t.key_file : opts.tls.key_file;
    to.tls.insecure = opts.tls.insecure || t.insecure;
    to.follow_redirects = opts.follow_redirects;
    to.kafka = kafka;
    to.single_threaded = true;  // run() drives the io_context from one thread
    if (t.grpc) {
        const auto& g = *t.grpc;
        to.grpc.protos = g.protos;
        to.grpc.import_paths = g.import_paths;
        to.grpc.reflection = g.reflection;
        if (!g.ca_file.empty() || !g.cert_file.empty()) {
            transport::TlsOptions tls = to.tls;
            if (!g.ca_file.empty()) tls.ca_file = g.ca_file;
            if (!g.cert_file.empty()) {
                tls.cert_file = g.cert_file;
                tls.key_file = g.key_file;
            }
            to.grpc.tls = std::move(tls);
        }
    }
    return to;
}

void finish_env(const RunOptions& opts, SuiteRun& run) {
    run.env.principals = &run.suite->principals;
    run.env.kafka.brokers = run.kafka.brokers;
    run.env.kafka.read_timeout = run.transport_options.read_timeout;
    run.env.kafka.clock_skew = opts.clock_skew;
    run.env.grpc = run.transport_options.grpc;
    if (run.transport_options.follow_redirects) run.env.max_redirects = run.transport_options.max_redirects;
    run.env.locations = &run.locations;
    // The expansion asks the suite's transports through it which values
    // their typed fields cannot hold.
    run.send_check = std::make_shared<SendCheck>(run);
}

}  // namespace idconform::runner
