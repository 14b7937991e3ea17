// Server reflection client. See reflection.hpp.
#include "transport/grpc/reflection.hpp"

#include "reflection_client.pb.h"

#include <grpcpp/client_context.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/support/sync_stream.h>

#include <memory>

namespace idconform::transport::grpcdyn {

namespace {

using Req = idconform::reflection::ServerReflectionRequest;
using Resp = idconform::reflection::ServerReflectionResponse;

constexpr const char* v1_path = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
constexpr const char* v1alpha_path = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

class Stream {
public:
    Stream(grpc::Channel& channel, const char* path, const std::vector<Header>& metadata,
           std::chrono::system_clock::time_point deadline)
        : method_(path, grpc::internal::RpcMethod::BIDI_STREAMING) {
        ctx_.set_deadline(deadline);
        for (const auto& h : metadata) ctx_.AddMetadata(h.name, h.value);
        rw_.reset(grpc::internal::ClientReaderWriterFactory<Req, Resp>::Create(&channel, method_, &ctx_));
    }
    bool ask(const Req& q, Resp& r) { return rw_->Write(q) && rw_->Read(&r); }
    grpc::Status finish() {
        rw_->WritesDone();
        return rw_->Finish();
    }

private:
    grpc::internal::RpcMethod method_;
    grpc::ClientContext ctx_;
    std::unique_ptr<grpc::ClientReaderWriter<Req, Resp>> rw_;
};

ReflectResult failed(const grpc::Status& st) {
    ReflectResult r;
    r.ok = false;
    r.code = static_cast<int>(st.error_code());
    r.message = "server reflection failed: " + std::string(st.error_message());
    return r;
}

ReflectResult bad_answer(std::string what) {
    ReflectResult r;
    r.ok = false;
    r.code = -1;
    r.message = "server reflection: " + std::move(what);
    return r;
}

bool add_files(const Resp& r, ReflectionSchema& schema, ReflectResult& out) {
    for (const auto& f : r.file_descriptor_response().file_descriptor_proto())
        if (!schema.add_file(f)) {
            out = bad_answer("the server sent a file descriptor that does not parse or clashes with another");
            return false;
        }
    return true;
}

// Opens a stream on the version that works (remembered in schema.method_path),
// sends the first request and reads its answer.
template <class Then>
ReflectResult with_stream(grpc::Channel& channel, const std::vector<Header>& metadata,
                          std::chrono::system_clock::time_point deadline, ReflectionSchema& schema, const Req& first,
                          Then then) {
    std::vector<const char*> paths;
    if (!schema.method_path.empty()) paths.push_back(schema.method_path == v1_path ? v1_path : v1alpha_path);
    else paths = {v1_path, v1alpha_path};
    grpc::Status last;
    for (const char* path : paths) {
        Stream s(channel, path, metadata, deadline);
        Resp r;
        if (!s.ask(first, r)) {
            last = s.finish();
            if (last.error_code() == grpc::StatusCode::UNIMPLEMENTED) continue;  // try the other version
            return failed(last);
        }
        schema.method_path = path;
        ReflectResult out = then(s, r);
        (void)s.finish();
        return out;
    }
    ReflectResult r = failed(last);
    r.message = "the server does not offer reflection (neither grpc.reflection.v1 nor v1alpha): " +
                std::string(last.error_message()) + "; give the schema with protos: [file.proto]";
    return r;
}

}  // namespace

ReflectResult reflect_service(grpc::Channel& channel, const std::vector<Header>& metadata,
                              std::chrono::system_clock::time_point deadline, const std::string& service,
                              ReflectionSchema& schema) {
    Req first;
    first.set_file_containing_symbol(service);
    return with_stream(channel, metadata, deadline, schema, first, [&](Stream& s, Resp& r) {
        ReflectResult out;
        if (r.has_error_response()) {
            out.ok = false;
            out.not_found = r.error_response().error_code() == static_cast<int>(grpc::StatusCode::NOT_FOUND);
            out.code = r.error_response().error_code();
            out.message = r.error_response().error_message();
            return out;
        }
        if (!add_files(r, schema, out)) return out;
        // Dependencies the first answer left out, one by one.
        for (int round = 0; round < 64; ++round) {
            const auto missing = schema.missing_dependencies();
            if (missing.empty()) break;
            for (const auto& name : missing) {
                Req q;
                q.set_file_by_filename(name);
                Resp dep;
                if (!s.ask(q, dep)) return failed(s.finish());
                if (dep.has_error_response())
                    return bad_answer("the server cannot send '" + name + "', which its schema imports: " +
                                      dep.error_response().error_message());
                if (!add_files(dep, schema, out)) return out;
                if (!schema.has_file(name)) return bad_answer("the server answered '" + name + "' with other files");
            }
        }
        return out;
    });
}

ReflectResult reflect_list(grpc::Channel& channel, const std::vector<Header>& metadata,
                           std::chrono::system_clock::time_point deadline, ReflectionSchema& schema) {
    Req first;
    first.set_list_services("*");
    return with_stream(channel, metadata, deadline, schema, first, [&](Stream&, Resp& r) {
        ReflectResult out;
        schema.listed_services.clear();
        for (const auto& s : r.list_services_response().service())
            if (s.name().rfind("grpc.reflection.", 0) != 0) schema.listed_services.push_back(s.name());
        return out;
    });
}

}  // namespace idconform::transport::grpcdyn
