// What the suite model says about a step by its kind alone: the name a step
// gets when the suite gives none.
#include "core/overloaded.hpp"
#include "suite/model.hpp"

namespace idconform::suite {

std::string default_step_name(const StepRequest& r) {
    return std::visit(overloaded{
                          [](const HttpRequest& h) { return h.method + " " + h.path; },
                          // Named after the request the profile binds it to (profile/expand.cpp).
                          [](const OpCall&) { return std::string(); },
                          [](const KafkaRequest& k) {
                              return std::string("kafka ") + (k.op == KafkaRequest::Op::produce ? "produce " : "consume ") +
                                     k.topic;
                          },
                          [](const FileScan& f) { return "scan " + f.path; },
                          [](const GrpcCall& g) { return "grpc " + g.method; },
                      },
                      r);
}

const std::string& principal_of(const StepRequest& r) {
    static const std::string none;
    return std::visit(overloaded{
                          [](const HttpRequest& h) -> const std::string& { return h.principal; },
                          [](const OpCall& c) -> const std::string& { return c.principal; },
                          [](const GrpcCall& g) -> const std::string& { return g.principal; },
                          [](const KafkaRequest&) -> const std::string& { return none; },
                          [](const FileScan&) -> const std::string& { return none; },
                      },
                      r);
}

std::string awaited(const StepRequest& r) {
    return std::visit(overloaded{
                          [](const KafkaRequest& k) {
                              if (k.op != KafkaRequest::Op::consume) return std::string();
                              return std::string(k.absent ? "no message on " : "a message on ") + k.topic;
                          },
                          [](const HttpRequest&) { return std::string(); },
                          [](const OpCall&) { return std::string(); },
                          [](const GrpcCall&) { return std::string(); },
                          [](const FileScan&) { return std::string(); },
                      },
                      r);
}

bool typed_message(const StepRequest& r) noexcept {
    return std::visit(overloaded{
                          [](const GrpcCall&) { return true; },
                          [](const HttpRequest&) { return false; },
                          [](const OpCall&) { return false; },
                          [](const KafkaRequest&) { return false; },
                          [](const FileScan&) { return false; },
                      },
                      r);
}

std::optional<Refusal> cleanup_refused(const StepRequest& r) {
    return std::visit(
        overloaded{
            [](const KafkaRequest&) -> std::optional<Refusal> {
                return Refusal{"'cleanup' is for steps that create an entity over HTTP",
                               "a kafka step creates nothing the run can delete; put cleanup: on the HTTP create step"};
            },
            [](const GrpcCall&) -> std::optional<Refusal> {
                return Refusal{"'cleanup' is for http steps",
                               "delete what a grpc step created with a teardown step calling the delete method"};
            },
            [](const FileScan&) -> std::optional<Refusal> { return std::nullopt; },
            [](const HttpRequest&) -> std::optional<Refusal> { return std::nullopt; },
            [](const OpCall&) -> std::optional<Refusal> { return std::nullopt; },
        },
        r);
}

}  // namespace idconform::suite
