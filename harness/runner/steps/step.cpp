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

Result<Request> build(const suite::Step& st, const binding::StepBinding* bound, const Env& env,
                      const Scope& scope) {
    const binding::Access* access = bound ? bound->access.get() : nullptr;
    return std::visit(overloaded{
                          [&](const suite::HttpRequest& h) { return build(h, env, scope, access); },
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

std::string name(const suite::Step& st) {
    if (!st.name.empty()) return st.name;  // the loader names every step but an unbound call
    return std::visit(overloaded{
                          [](const suite::OpCall& c) { return std::string("call ") + suite::name(c.op); },
                          [&](const auto&) { return suite::default_step_name(st.request); },
                      },
                      st.request);
}

bool runs_locally(const suite::Step& st) noexcept {
    return std::visit(overloaded{
                          [](const suite::FileScan&) { return true; },
                          [](const suite::HttpRequest&) { return false; },
                          [](const suite::GrpcCall&) { return false; },
                          [](const suite::KafkaRequest&) { return false; },
                          [](const suite::OpCall&) { return false; },
                      },
                      st.request);
}

StepOutcome run_local(const suite::Step& st, const Scope& scope, const std::string& rule) {
    return std::visit(overloaded{
                          [&](const suite::FileScan& f) { return run_file_step(f, st.name, scope, rule); },
                          [&](const auto&) {
                              StepOutcome out;
                              out.record.name = name(st);
                              out.suite_error = st.pos.str() + ": internal: this step sends a request";
                              out.cause = ErrorCause::suite;
                              return out;
                          },
                      },
                      st.request);
}

void add_kind_checks(const suite::Step& st, const Exchange& x, const std::string& rule,
                     std::vector<CheckResult>& checks) {
    std::visit(overloaded{
                   [&](const suite::KafkaRequest& k) { add_message_check(k, x, rule, checks); },
                   [](const suite::HttpRequest&) {},
                   [](const suite::GrpcCall&) {},
                   [](const suite::OpCall&) {},
                   [](const suite::FileScan&) {},
               },
               st.request);
}

std::optional<binding::EntityView> view_entity(const suite::Step& st, const binding::StepBinding* bound,
                                               const Exchange& x, const std::string& rule) {
    const binding::Access* access = bound ? bound->access.get() : nullptr;
    return std::visit(overloaded{
                          [&](const suite::HttpRequest& h) -> std::optional<binding::EntityView> {
                              if (x.error || !access || !access->entity_array) return std::nullopt;
                              return binding::entity_view(h, *access->entity_array, st.expect, x, rule);
                          },
                          [](const auto&) -> std::optional<binding::EntityView> { return std::nullopt; },
                      },
                      st.request);
}

std::string describe(const suite::Step& st) {
    return std::visit([](const auto& r) { return describe(r); }, st.request);
}

void add_properties(const suite::Step* first, const Scope& scope, std::vector<Property>& out) {
    if (!first) {
        out.push_back({"transport", "http"});
        return;
    }
    const std::size_t from = out.size();
    std::visit([&out](const auto& r) { add_properties(r, out); }, first->request);
    for (std::size_t i = from; i < out.size(); ++i)
        if (out[i].name == "endpoint") out[i].value = site_template(out[i].value, scope);
}

std::string site_template(std::string_view tmpl, const Scope& scope) {
    std::string out;
    std::size_t i = 0;
    while (i < tmpl.size()) {
        const std::size_t open = tmpl.find("${", i);
        const std::size_t close = open == std::string_view::npos ? open : tmpl.find('}', open + 2);
        if (close == std::string_view::npos) {
            out += tmpl.substr(i);
            break;
        }
        out += tmpl.substr(i, open - i);
        const std::string_view name = tmpl.substr(open + 2, close - open - 2);
        const boost::json::value* v = name.rfind("res.", 0) == 0 ? scope.find(name) : nullptr;
        if (v && !v->is_object() && !v->is_array()) out += to_text(*v);
        else out += "{" + std::string(name) + "}";
        i = close + 1;
    }
    return out;
}

std::string scan_site(const suite::Step& st, const Request& sent, const Scope& scope) {
    return std::visit(overloaded{
                          [&](const suite::HttpRequest& h) {
                              return site_template(h.method, scope) + " " + site_template(h.path, scope);
                          },
                          [&](const suite::GrpcCall& g) { return scan_site(g, sent); },
                          [&](const suite::KafkaRequest& k) { return sent.method + " " + site_template(k.topic, scope); },
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
        case Wire::http: return curl_command(r, env.max_redirects);
        case Wire::grpc: return grpcurl_command(r, env.grpc);
        case Wire::kafka: return transport::kafka::kcat_command(r, env.kafka.brokers);
        case Wire::file: return {};
    }
    return {};
}

}  // namespace idconform::runner::steps
