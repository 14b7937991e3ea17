// The one explicit transport registry: name -> factory. A new transport adds
// its line here (and its library to idconform_transport in CMakeLists.txt).
#include "transport/transport.hpp"

#include "transport/grpc/grpc_transport.hpp"
#include "transport/http/http_transport.hpp"
#include "transport/kafka/kafka_transport.hpp"

namespace idconform::transport {

const std::map<std::string, Factory>& registry() {
    static const std::map<std::string, Factory> factories = {
        {"http", &http::make_http_transport},
        {"https", &http::make_http_transport},
        {"kafka", &kafka::make_kafka_transport},
        {"grpc", &grpcdyn::make_grpc_transport},   // plaintext
        {"grpcs", &grpcdyn::make_grpc_transport},  // TLS
    };
    return factories;
}

std::unique_ptr<Transport> make(const std::string& name, boost::asio::any_io_executor ex, const Options& opts) {
    const auto& all = registry();
    auto it = all.find(name);
    if (it == all.end()) return nullptr;
    return it->second(std::move(ex), opts);
}

NamedFactory registry_factory() {
    return [](const std::string& name, boost::asio::any_io_executor ex, const Options& o) {
        return make(name, std::move(ex), o);
    };
}

}  // namespace idconform::transport
