// The grpc step kind: request building, description, grpcurl reproduction.
#include "runner/steps/grpc.hpp"

#include "runner/steps/request_parts.hpp"

#include <boost/json/serialize.hpp>

namespace idconform::runner::steps {

namespace json = boost::json;

Result<Request> build(const suite::GrpcCall& g, const Env& env, const Scope& scope) {
    using R = Result<Request>;
    Request r;
    if (env.grpc_url.empty())
        return R(boost::system::in_place_error, g.pos.str() + ": a grpc step needs the target's grpc section");
    r.url = env.grpc_url;
    r.transport = r.url.rfind("grpcs://", 0) == 0 ? "grpcs" : "grpc";
    auto method = interpolate(g.method, scope);
    if (!method) return R(boost::system::in_place_error, g.pos.str() + ": method: " + method.error());
    r.method = *method;
    if (auto ok = add_headers(r, env, {g.principal, g.metadata, "metadata", g.pos}, scope, HeaderNames::lower_case); !ok)
        return R(boost::system::in_place_error, ok.error());
    auto body = interpolate_json(g.message, scope);
    if (!body) return R(boost::system::in_place_error, g.pos.str() + ": message: " + body.error());
    if (auto ok = apply_body_edits(*body, {g.set, g.unset, "message", g.pos}, scope); !ok)
        return R(boost::system::in_place_error, ok.error());
    r.body = json::serialize(*body);
    return r;
}

std::string describe(const suite::GrpcCall& g) {
    std::string s = "grpc " + g.method;
    for (const auto& [p, v] : g.set) s += " message" + p + "=" + json::serialize(v);
    for (const auto& p : g.unset) s += " without message" + p;
    if (!g.principal.empty()) s += " as " + g.principal;
    return s;
}

void add_properties(const suite::GrpcCall& g, std::vector<Property>& out) {
    out.push_back({"transport", "grpc"});
    out.push_back({"endpoint", g.method});
}

// The method names the place; the shape scan adds the field.
std::string scan_site(const suite::GrpcCall&, const Request& sent) { return sent.method; }

std::string grpcurl_command(const Request& r, const transport::GrpcOptions& g) {
    const bool tls = r.url.rfind("grpcs://", 0) == 0;
    const std::size_t scheme = r.url.find("://");
    std::string address = r.url.substr(scheme == std::string::npos ? 0 : scheme + 3);
    std::string c = "grpcurl";
    if (!tls) c += " -plaintext";
    else if (g.tls && !g.tls->ca_file.empty()) c += " -cacert " + shell_quote(g.tls->ca_file);
    if (g.tls && !g.tls->cert_file.empty())
        c += " -cert " + shell_quote(g.tls->cert_file) + " -key " + shell_quote(g.tls->key_file);
    for (const auto& p : g.import_paths) c += " -import-path " + shell_quote(p);
    for (const auto& p : g.protos) c += " -proto " + shell_quote(p);
    for (const auto& h : r.headers) c += " -H " + shell_quote(h.name + ": " + h.value);
    if (!r.body.empty()) c += " -d " + shell_quote(r.body);
    return c + " " + shell_quote(address) + " " + shell_quote(r.method);
}

}  // namespace idconform::runner::steps
