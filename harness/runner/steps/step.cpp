// Dispatch over the step kinds.
#include "runner/steps/step.hpp"

#include "core/overloaded.hpp"
#include "runner/steps/call.hpp"
#include "runner/steps/file.hpp"
#include "runner/steps/grpc.hpp"
#include "runner/steps/http.hpp"
#include "runner/steps/kafka.hpp"
#include "transport/kafka/kafka_request.hpp"

namespace idconform::runner::steps {

Result<Request> build(const suite::Step& st, const Env& env, const Scope& scope) {
    return std::visit(overloaded{
                          [&](const suite::HttpRequest& h) { return build(h, env, scope); },
                          [&](const suite::GrpcCall& g) { return build(g, env, scope); },
                          [&](const suite::KafkaRequest& k) { return build_kafka_request(k, scope, env.kafka); },
                          [&](const suite::OpCall& c) { return build(c, env, scope); },
                          [&](const suite::FileScan& f) {
                              return Result<Request>(boost::system::in_place_error,
                                                     f.pos.str() + ": internal: a file step sends no request");
                          },
                      },
                      st.request);
}

std::string describe(const suite::Step& st) {
    return std::visit([](const auto& r) { return describe(r); }, st.request);
}

void add_properties(const suite::Step* first, std::vector<Property>& out) {
    if (!first) {
        out.push_back({"transport", "http"});
        return;
    }
    std::visit([&out](const auto& r) { add_properties(r, out); }, first->request);
}

std::string scan_site(const suite::Step& st, const Request& sent) {
    return std::visit(overloaded{
                          [&](const suite::HttpRequest& h) { return scan_site(h, sent); },
                          [&](const suite::GrpcCall& g) { return scan_site(g, sent); },
                          [&](const suite::KafkaRequest& k) { return scan_site(k, sent); },
                          // Never sent (call) or not a JSON answer (file): nothing to file.
                          [&](const suite::OpCall&) { return sent.method; },
                          [&](const suite::FileScan&) { return sent.method; },
                      },
                      st.request);
}

Wire wire(const suite::Step& st) noexcept {
    return std::visit(overloaded{
                          [](const suite::HttpRequest&) { return Wire::http; },
                          [](const suite::OpCall&) { return Wire::http; },
                          [](const suite::GrpcCall&) { return Wire::grpc; },
                          [](const suite::KafkaRequest&) { return Wire::kafka; },
                          [](const suite::FileScan&) { return Wire::file; },
                      },
                      st.request);
}

std::string reproduce(Wire w, const Request& r, const Env& env) {
    switch (w) {
        case Wire::http: return curl_command(r);
        case Wire::grpc: return grpcurl_command(r, env.grpc);
        case Wire::kafka: return transport::kafka::kcat_command(r, env.kafka.brokers);
        case Wire::file: return {};
    }
    return {};
}

}  // namespace idconform::runner::steps
