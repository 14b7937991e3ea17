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

}  // namespace idconform::suite
