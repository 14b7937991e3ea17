// The gRPC front: each call becomes the HTTP request the products API
// already answers, so both fronts share one store and one set of defects.
#include "grpc_front.hpp"

#include "products/v1/legacy.grpc.pb.h"
#include "products/v1/products.grpc.pb.h"
#include "products/v1/tickets.grpc.pb.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <google/protobuf/util/json_util.h>
#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

namespace products {
namespace {

namespace json = boost::json;
namespace pb = google::protobuf;
namespace v1 = ::products::v1;

std::string percent_encode(std::string_view s) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[u >> 4];
            out += hex[u & 0xf];
        }
    }
    return out;
}

// The request message as the HTTP JSON body (proto field names, set fields only).
json::object body_of(const pb::Message& m) {
    pb::util::JsonPrintOptions o;
    o.preserve_proto_field_names = true;
    std::string text;
    (void)pb::util::MessageToJsonString(m, &text, o);
    boost::system::error_code ec;
    json::value v = json::parse(text, ec);
    return ec || !v.is_object() ? json::object{} : std::move(v.as_object());
}

// Fits the HTTP answer to the response message: nulls are absent, a number
// in a string field becomes its text (defects write 0 as a reference), members
// the message does not have are dropped.
void fit(json::value& v, const pb::Descriptor& d) {
    if (!v.is_object()) return;
    auto& o = v.as_object();
    for (auto it = o.begin(); it != o.end();) {
        const pb::FieldDescriptor* f = d.FindFieldByName(std::string(it->key()));
        if (!f || it->value().is_null()) {
            it = o.erase(it);
            continue;
        }
        json::value& val = it->value();
        if (f->type() == pb::FieldDescriptor::TYPE_STRING && !val.is_string() && !val.is_array())
            val = json::string(json::serialize(val));
        else if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE && f->is_repeated() && val.is_array())
            for (auto& item : val.as_array()) fit(item, *f->message_type());
        else if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE)
            fit(val, *f->message_type());
        ++it;
    }
}

class Forwarder {
public:
    Forwarder(ProductsService& s, unsigned delay_ms) : service_(s), delay_ms_(delay_ms) {}

    // Sends the translated request; fills `out` from a 2xx JSON answer.
    grpc::Status forward(grpc::ServerContext* ctx, std::string_view method, const std::string& target,
                         const std::string& body, pb::Message* out) const {
        if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
        std::string auth;
        const auto& md = ctx->client_metadata();
        if (auto it = md.find("authorization"); it != md.end()) auth.assign(it->second.data(), it->second.size());
        Request in;
        in.method = method;
        in.target = target;
        in.authorization = auth;
        in.body = body;
        return answer(service_.handle(in), out);
    }

    // The gRPC answer to an HTTP answer of the service.
    static grpc::Status answer(const Response& r, pb::Message* out) {
        if (r.status / 100 != 2) return error_status(r);
        if (!out || r.body.empty()) return grpc::Status::OK;
        boost::system::error_code ec;
        json::value v = json::parse(r.body, ec);
        if (ec) return grpc::Status(grpc::StatusCode::INTERNAL, "the service answered with a body that is not JSON");
        fit(v, *out->GetDescriptor());
        pb::util::JsonParseOptions o;
        o.ignore_unknown_fields = true;
        const auto st = pb::util::JsonStringToMessage(json::serialize(v), out, o);
        if (!st.ok()) return grpc::Status(grpc::StatusCode::INTERNAL, "cannot map the answer: " + std::string(st.message()));
        return grpc::Status::OK;
    }

    ProductsService& service() const { return service_; }

private:
    static grpc::Status error_status(const Response& r) {
        std::string message = "HTTP " + std::to_string(r.status);
        boost::system::error_code ec;
        json::value v = json::parse(r.body, ec);
        if (!ec && v.is_object()) {
            const auto& o = v.as_object();
            if (const auto* e = o.if_contains("error"); e && e->is_string()) message = std::string(e->as_string());
            if (const auto* m = o.if_contains("message"); m && m->is_string()) message += ": " + std::string(m->as_string());
        }
        return grpc::Status(static_cast<grpc::StatusCode>(grpc_code_for_http(r.status)), message);
    }

    ProductsService& service_;
    unsigned delay_ms_;
};

class ProductsImpl final : public v1::Products::Service {
public:
    explicit ProductsImpl(const Forwarder& f) : f_(f) {}

    grpc::Status CreateProduct(grpc::ServerContext* ctx, const v1::CreateProductRequest* req, v1::Product* out) override {
        json::object body = body_of(*req);
        body.erase("id");
        if (req->has_id())
            return f_.forward(ctx, "PUT", "/v1/products/" + percent_encode(req->id()), json::serialize(body), out);
        return f_.forward(ctx, "POST", "/v1/products", json::serialize(body), out);
    }
    grpc::Status GetProduct(grpc::ServerContext* ctx, const v1::GetProductRequest* req, v1::Product* out) override {
        return f_.forward(ctx, "GET", "/v1/products/" + percent_encode(req->id()), "", out);
    }
    grpc::Status UpdateProduct(grpc::ServerContext* ctx, const v1::UpdateProductRequest* req, v1::Product* out) override {
        json::object body = body_of(*req);
        body.erase("id");
        if (auto* b = body.if_contains("body_id")) {
            body["id"] = *b;
            body.erase("body_id");
        }
        return f_.forward(ctx, "PATCH", "/v1/products/" + percent_encode(req->id()), json::serialize(body), out);
    }
    grpc::Status DeleteProduct(grpc::ServerContext* ctx, const v1::DeleteProductRequest* req, pb::Empty*) override {
        return f_.forward(ctx, "DELETE", "/v1/products/" + percent_encode(req->id()), "", nullptr);
    }
    grpc::Status ListProducts(grpc::ServerContext* ctx, const v1::ListProductsRequest* req,
                              v1::ListProductsResponse* out) override {
        std::string target = "/v1/products";
        if (req->has_category_id()) target += "?category_id=" + percent_encode(req->category_id());
        return f_.forward(ctx, "GET", target, "", out);
    }
    grpc::Status CreateCategory(grpc::ServerContext* ctx, const v1::CreateCategoryRequest* req, v1::Category* out) override {
        return f_.forward(ctx, "POST", "/v1/categories", json::serialize(body_of(*req)), out);
    }
    grpc::Status GetCategory(grpc::ServerContext* ctx, const v1::GetCategoryRequest* req, v1::Category* out) override {
        return f_.forward(ctx, "GET", "/v1/categories/" + percent_encode(req->id()), "", out);
    }
    grpc::Status DeleteCategory(grpc::ServerContext* ctx, const v1::DeleteCategoryRequest* req, pb::Empty*) override {
        return f_.forward(ctx, "DELETE", "/v1/categories/" + percent_encode(req->id()), "", nullptr);
    }

private:
    const Forwarder& f_;
};

// Integer ids (tickets.proto): the id travels as an int64 (uint64 in
// DeleteTicket) and becomes its decimal text in the HTTP path.
class TicketsImpl final : public v1::Tickets::Service {
public:
    explicit TicketsImpl(const Forwarder& f) : f_(f) {}

    grpc::Status CreateTicket(grpc::ServerContext* ctx, const v1::CreateTicketRequest* req, v1::Ticket* out) override {
        return f_.forward(ctx, "POST", "/v1/tickets", json::serialize(body_of(*req)), out);
    }
    grpc::Status GetTicket(grpc::ServerContext* ctx, const v1::GetTicketRequest* req, v1::Ticket* out) override {
        if (f_.service().defects().has(Defect::grpc_ticket_no_owner))
            return Forwarder::answer(f_.service().ticket_of_any_owner(req->id()), out);
        return f_.forward(ctx, "GET", "/v1/tickets/" + std::to_string(req->id()), "", out);
    }
    grpc::Status UpdateTicket(grpc::ServerContext* ctx, const v1::UpdateTicketRequest* req, v1::Ticket* out) override {
        json::object body = body_of(*req);
        body.erase("id");
        return f_.forward(ctx, "PATCH", "/v1/tickets/" + std::to_string(req->id()), json::serialize(body), out);
    }
    grpc::Status DeleteTicket(grpc::ServerContext* ctx, const v1::DeleteTicketRequest* req, pb::Empty*) override {
        return f_.forward(ctx, "DELETE", "/v1/tickets/" + std::to_string(req->id()), "", nullptr);
    }
    grpc::Status ListTickets(grpc::ServerContext* ctx, const v1::ListTicketsRequest*,
                             v1::ListTicketsResponse* out) override {
        return f_.forward(ctx, "GET", "/v1/tickets", "", out);
    }

private:
    const Forwarder& f_;
};

// Ids as 16 raw bytes: the deliberate DATA-ID-002 violation of legacy.proto.
class LegacyImpl final : public v1::LegacyProducts::Service {
public:
    explicit LegacyImpl(const Forwarder& f) : f_(f) {}
    grpc::Status GetProduct(grpc::ServerContext* ctx, const v1::LegacyGetProductRequest* req,
                            v1::LegacyProduct* out) override {
        if (req->id().size() != 16) return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "id must be 16 bytes");
        idconform::ids::Uuid u;
        std::copy(req->id().begin(), req->id().end(), u.bytes.begin());
        v1::Product p;
        grpc::Status st = f_.forward(ctx, "GET", "/v1/products/" + idconform::ids::format(u), "", &p);
        if (!st.ok()) return st;
        out->set_id(req->id());
        out->set_name(p.name());
        out->set_created_at(p.created_at());
        return st;
    }

private:
    const Forwarder& f_;
};

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    out = s.str();
    return true;
}

class Front final : public GrpcFront {
public:
    Front(ProductsService& s, const GrpcFrontOptions& o) : forwarder_(s, o.delay_ms), products_(forwarder_), legacy_(forwarder_), tickets_(forwarder_) {}

    bool start(const GrpcFrontOptions& o, std::string& error) {
        std::shared_ptr<grpc::ServerCredentials> creds;
        if (!o.cert_file.empty()) {
            grpc::SslServerCredentialsOptions ssl;
            grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
            if (!read_file(o.cert_file, pair.cert_chain) || !read_file(o.key_file, pair.private_key)) {
                error = "cannot read the TLS certificate or key";
                return false;
            }
            ssl.pem_key_cert_pairs.push_back(std::move(pair));
            creds = grpc::SslServerCredentials(ssl);
        } else {
            creds = grpc::InsecureServerCredentials();
        }
        grpc::reflection::InitProtoReflectionServerBuilderPlugin();
        grpc::ServerBuilder b;
        b.AddListeningPort(o.host + ":" + std::to_string(o.port), creds, &port_);
        b.RegisterService(&products_);
        if (o.legacy) b.RegisterService(&legacy_);
        if (o.tickets) b.RegisterService(&tickets_);
        server_ = b.BuildAndStart();
        if (!server_ || port_ == 0) {
            error = "cannot listen on " + o.host + ":" + std::to_string(o.port);
            return false;
        }
        return true;
    }
    int port() const override { return port_; }
    void shutdown() override {
        if (server_) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    }
    ~Front() override { shutdown(); }

private:
    Forwarder forwarder_;
    ProductsImpl products_;
    LegacyImpl legacy_;
    TicketsImpl tickets_;
    std::unique_ptr<grpc::Server> server_;
    int port_ = 0;
};

}  // namespace

int grpc_code_for_http(unsigned status) noexcept {
    using C = grpc::StatusCode;
    C c = C::UNKNOWN;
    switch (status) {
        case 400: case 422: c = C::INVALID_ARGUMENT; break;
        case 401: c = C::UNAUTHENTICATED; break;
        case 403: c = C::PERMISSION_DENIED; break;
        case 404: c = C::NOT_FOUND; break;
        case 405: c = C::UNIMPLEMENTED; break;
        case 409: c = C::ALREADY_EXISTS; break;
        default: c = status >= 500 ? C::INTERNAL : status / 100 == 2 ? C::OK : C::UNKNOWN; break;
    }
    return static_cast<int>(c);
}

std::unique_ptr<GrpcFront> start_grpc_front(ProductsService& service, const GrpcFrontOptions& options,
                                            std::string& error) {
    auto f = std::make_unique<Front>(service, options);
    if (!f->start(options, error)) return nullptr;
    return f;
}

}  // namespace products
