// The gRPC transport: channels per target, schemas from files or reflection,
// JSON <-> dynamic messages, GenericStub callback calls resumed on the
// runner's executor. See README.md.
#include "transport/grpc/grpc_transport.hpp"

#include "core/grpc_method.hpp"
#include "core/grpc_status.hpp"
#include "transport/grpc/codec.hpp"
#include "transport/grpc/reflection.hpp"
#include "transport/grpc/schema.hpp"

#include <boost/asio/async_result.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <grpcpp/create_channel.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/channel_arguments.h>

#include <fstream>
#include <map>
#include <sstream>

namespace idconform::transport::grpcdyn {

namespace asio = boost::asio;
namespace pb = google::protobuf;

namespace {

TransportError request_error(std::string message) {
    return TransportError{TransportErrorKind::other, std::move(message), false};
}

bool read_file(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream s;
    s << in.rdbuf();
    out = s.str();
    return true;
}

// Headers that describe an HTTP connection, not a call: never sent as metadata.
bool http_only(std::string_view n) {
    for (std::string_view h : {"content-type", "content-length", "accept", "host", "connection", "te",
                               "transfer-encoding", "user-agent", "keep-alive", "upgrade", "accept-encoding"})
        if (n == h) return true;
    return false;
}

// Header list -> valid gRPC metadata (lower-case keys), or an error naming
// the bad entry.
bool to_metadata(const std::vector<Header>& headers, std::vector<Header>& out, std::string& error) {
    for (const auto& h : headers) {
        std::string key;
        for (char c : h.name) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (http_only(key)) continue;
        const bool key_ok = !key.empty() && key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_.") ==
                                                std::string::npos;
        if (!key_ok) {
            error = "metadata key '" + h.name + "' is not valid: keys use a-z, 0-9, '-', '_' and '.'";
            return false;
        }
        if (key.rfind("grpc-", 0) == 0) {
            error = "metadata key '" + h.name + "' is reserved by gRPC (grpc-*)";
            return false;
        }
        const bool binary = key.size() > 4 && key.compare(key.size() - 4, 4, "-bin") == 0;
        if (!binary)
            for (char c : h.value)
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) {
                    error = "metadata value of '" + key +
                            "' has a character outside printable ASCII; binary values need a key ending in -bin";
                    return false;
                }
        out.push_back({key, h.value});
    }
    return true;
}

std::string to_string(grpc::string_ref s) { return std::string(s.data(), s.size()); }

// One call's state, owned by the exchange that waits for it.
struct Call {
    grpc::ClientContext ctx;
    grpc::ByteBuffer request;
    grpc::ByteBuffer response;
    std::string wire;  // the answer's bytes, copied out while the call still owns its buffers
};

// Starts the call and resumes the awaiting coroutine on `ex` with the final
// status. The tracked executor keeps the runner's event loop alive while
// gRPC's threads own the call. The awaiting coroutine alone owns the Call:
// the callback only borrows it, so the ClientContext is never destroyed on
// gRPC's thread inside its own completion (which unrefs the call twice).
asio::awaitable<grpc::Status> unary(grpc::GenericStub& stub, const std::string& path, Call& call,
                                    asio::any_io_executor ex) {
    auto init = [&stub, &path, &call, ex](auto handler) {
        auto h = std::make_shared<decltype(handler)>(std::move(handler));
        auto work = asio::prefer(ex, asio::execution::outstanding_work.tracked);
        Call* c = &call;
        stub.UnaryCall(&c->ctx, path, grpc::StubOptions(), &c->request, &c->response, [h, c, work](grpc::Status st) {
            // The received buffer is read here, on gRPC's thread, while the
            // call surely owns it.
            std::vector<grpc::Slice> slices;
            if (st.ok() && c->response.Dump(&slices).ok())
                for (const auto& sl : slices) c->wire.append(reinterpret_cast<const char*>(sl.begin()), sl.size());
            asio::post(work, [h, st = std::move(st)]() mutable { (*h)(std::move(st)); });
        });
    };
    return asio::async_initiate<const asio::use_awaitable_t<>&, void(grpc::Status)>(std::move(init),
                                                                                     asio::use_awaitable);
}

class GrpcTransport final : public Transport, public RequestCheck {
public:
    GrpcTransport(asio::any_io_executor, Options opts) : opts_(std::move(opts)) {}

    asio::awaitable<Exchange> exchange(Request req) override {
        Exchange x;
        x.request = req;
        x.sent = x.received = Clock::now();
        auto fail = [&x](TransportError e) {
            x.error = std::move(e);
            x.received = Clock::now();
            return x;
        };

        bool tls = req.transport == "grpcs";
        std::string authority = req.url;
        if (authority.rfind("grpcs://", 0) == 0) { tls = true; authority.erase(0, 8); }
        else if (authority.rfind("grpc://", 0) == 0) authority.erase(0, 7);
        while (!authority.empty() && authority.back() == '/') authority.pop_back();
        if (authority.empty() || authority.find('/') != std::string::npos)
            co_return fail(request_error("bad gRPC address '" + req.url + "': expected grpc://host:port or grpcs://host:port"));

        std::string service, method;
        if (!split_method(req.method, service, method))
            co_return fail(request_error("bad gRPC method '" + req.method + "': expected " +
                                         std::string(grpc_method::expected_form)));
        std::vector<Header> metadata;
        std::string problem;
        if (!to_metadata(req.headers, metadata, problem)) co_return fail(request_error(problem));

        Target* t = target(authority, tls, problem);
        if (!t) co_return fail(TransportError{TransportErrorKind::tls, problem, false});

        const auto deadline = std::chrono::system_clock::now() + opts_.connect_timeout + opts_.read_timeout;
        std::optional<TransportError> schema_error;
        const pb::MethodDescriptor* md = resolve(*t, service, method, metadata, deadline, tls, schema_error);
        if (!md) co_return fail(std::move(*schema_error));

        const Codec& codec = codec_for(md->file()->pool());
        std::string bytes;
        if (!codec.json_to_binary(*md->input_type(), req.body, bytes, problem)) co_return fail(request_error(problem));
        x.findings = findings_for(*md);

        auto call = std::make_unique<Call>();
        for (const auto& h : metadata) call->ctx.AddMetadata(h.name, h.value);
        call->ctx.set_deadline(std::chrono::system_clock::now() + opts_.read_timeout);
        grpc::Slice slice(bytes);
        call->request = grpc::ByteBuffer(&slice, 1);
        const std::string path = "/" + service + "/" + method;

        x.sent = Clock::now();
        const asio::any_io_executor ex = co_await asio::this_coro::executor;
        auto pending = unary(*t->stub, path, *call, ex);
        grpc::Status st = co_await std::move(pending);
        x.received = Clock::now();

        CallOutcome outcome = classify(static_cast<int>(st.error_code()), st.error_message(), tls);
        if (outcome.error) {
            if (outcome.error->kind == TransportErrorKind::timeout)
                outcome.error->message = "no answer within " + std::to_string(opts_.read_timeout.count()) +
                                         " ms (DEADLINE_EXCEEDED: " + st.error_message() + ")";
            x.error = std::move(outcome.error);
            co_return x;
        }
        Response& r = *outcome.response;
        std::vector<Header> meta;
        for (const auto& [k, v] : call->ctx.GetServerInitialMetadata()) meta.push_back({to_string(k), to_string(v)});
        for (const auto& [k, v] : call->ctx.GetServerTrailingMetadata()) meta.push_back({to_string(k), to_string(v)});
        meta.insert(meta.end(), r.headers.begin(), r.headers.end());
        r.headers = std::move(meta);
        if (st.ok()) {
            if (!codec.binary_to_json(*md->output_type(), call->wire, r.body, problem)) {
                x.error = TransportError{TransportErrorKind::protocol, problem, true};
                co_return x;
            }
        }
        r.body_bytes = r.body.size();
        if (r.body.size() > opts_.body_cap) {
            r.body.resize(opts_.body_cap);
            r.body_truncated = true;
        }
        x.response = std::move(r);
        co_return x;
    }

    void shutdown() override { targets_.clear(); }

    // The member of the request that its field's type cannot hold, from the
    // method's schema (files, or reflection: asked once per service, as a
    // call would). Whatever else keeps the request from going out is the
    // call's to report.
    std::optional<Unsendable> unsendable(const Request& req) override {
        bool tls = req.transport == "grpcs";
        std::string authority = req.url;
        if (authority.rfind("grpcs://", 0) == 0) {
            tls = true;
            authority.erase(0, 8);
        } else if (authority.rfind("grpc://", 0) == 0) authority.erase(0, 7);
        while (!authority.empty() && authority.back() == '/') authority.pop_back();
        std::string service, method, problem;
        std::vector<Header> metadata;
        if (authority.empty() || authority.find('/') != std::string::npos ||
            !split_method(req.method, service, method) || !to_metadata(req.headers, metadata, problem))
            return std::nullopt;
        Target* t = target(authority, tls, problem);
        if (!t) return std::nullopt;
        const auto deadline = std::chrono::system_clock::now() + opts_.connect_timeout + opts_.read_timeout;
        std::optional<TransportError> schema_error;
        const pb::MethodDescriptor* md = resolve(*t, service, method, metadata, deadline, tls, schema_error);
        if (!md) return std::nullopt;
        return codec_for(md->file()->pool()).misfit(*md->input_type(), req.body);
    }

private:
    struct Target {
        std::shared_ptr<grpc::Channel> channel;
        std::unique_ptr<grpc::GenericStub> stub;
        std::unique_ptr<ReflectionSchema> reflection;
    };

    Target* target(const std::string& authority, bool tls, std::string& error) {
        const std::string key = (tls ? "grpcs://" : "grpc://") + authority;
        if (auto it = targets_.find(key); it != targets_.end()) return &it->second;
        grpc::ChannelArguments args;
        const int connect_ms = static_cast<int>(opts_.connect_timeout.count());
        args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, connect_ms);
        args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::min(connect_ms, 1000));
        args.SetInt(GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, 64 << 20);
        std::shared_ptr<grpc::ChannelCredentials> creds;
        if (tls) {
            const TlsOptions& o = opts_.grpc.tls ? *opts_.grpc.tls : opts_.tls;
            if (o.insecure) {
                error = "tls.insecure is not supported for gRPC: give the server's CA with cacert";
                return nullptr;
            }
            grpc::SslCredentialsOptions ssl;
            if (!o.ca_file.empty() && !read_file(o.ca_file, ssl.pem_root_certs)) {
                error = "cannot read CA file '" + o.ca_file + "'";
                return nullptr;
            }
            if (o.cert_file.empty() != o.key_file.empty()) {
                error = "mTLS needs both a client certificate and its key";
                return nullptr;
            }
            if (!o.cert_file.empty() && !read_file(o.cert_file, ssl.pem_cert_chain)) {
                error = "cannot read client certificate '" + o.cert_file + "'";
                return nullptr;
            }
            if (!o.key_file.empty() && !read_file(o.key_file, ssl.pem_private_key)) {
                error = "cannot read client key '" + o.key_file + "'";
                return nullptr;
            }
            creds = grpc::SslCredentials(ssl);
        } else {
            creds = grpc::InsecureChannelCredentials();
        }
        Target t;
        t.channel = grpc::CreateCustomChannel(authority, creds, args);
        t.stub = std::make_unique<grpc::GenericStub>(t.channel);
        return &targets_.emplace(key, std::move(t)).first->second;
    }

    static TransportError reflect_error(const ReflectResult& r, bool tls) {
        if (r.code > 0) {
            CallOutcome o = classify(r.code, r.message, tls);
            if (o.error) {
                o.error->message = r.message;
                return *o.error;
            }
        }
        return request_error(r.message);
    }

    const pb::MethodDescriptor* resolve(Target& t, const std::string& service, const std::string& method,
                                        const std::vector<Header>& metadata,
                                        std::chrono::system_clock::time_point deadline, bool tls,
                                        std::optional<TransportError>& error) {
        std::string problem;
        if (!opts_.grpc.protos.empty() && !files_ && files_error_.empty()) {
            files_ = FileSchema::load(opts_.grpc.protos, opts_.grpc.import_paths, files_error_);
            if (!files_ && files_error_.empty()) files_error_ = "cannot load the .proto files";
        }
        if (!files_error_.empty()) {
            error = request_error("cannot load the gRPC schema: " + files_error_);
            return nullptr;
        }
        if (files_ && files_->pool()->FindServiceByName(service)) {
            const auto* md = find_method(*files_->pool(), service, method, files_->services(), problem);
            if (!md) error = request_error(problem);
            return md;
        }
        if (!opts_.grpc.reflection) {
            error = request_error(no_service_error(service, files_ ? files_->services() : std::vector<std::string>{},
                                                   "the .proto files") +
                                  " (server reflection is off)");
            return nullptr;
        }
        if (!t.reflection) t.reflection = std::make_unique<ReflectionSchema>();
        ReflectionSchema& rs = *t.reflection;
        if (!rs.fetched_services.count(service)) {
            ReflectResult r = reflect_service(*t.channel, metadata, deadline, service, rs);
            if (!r.ok && r.not_found) {
                ReflectResult l = reflect_list(*t.channel, metadata, deadline, rs);
                if (!l.ok) {
                    error = reflect_error(l, tls);
                    return nullptr;
                }
                std::vector<std::string> known = rs.listed_services;
                if (files_) known.insert(known.end(), files_->services().begin(), files_->services().end());
                error = request_error(no_service_error(service, known, "the server (reflection)"));
                return nullptr;
            }
            if (!r.ok) {
                error = reflect_error(r, tls);
                return nullptr;
            }
            rs.fetched_services.insert(service);
        }
        const auto* md = find_method(*rs.pool(), service, method, {}, problem);
        if (!md) error = request_error(problem);
        return md;
    }

    const Codec& codec_for(const pb::DescriptorPool* pool) {
        auto& c = codecs_[pool];
        if (!c) c = std::make_unique<Codec>(pool);
        return *c;
    }

    const std::vector<ContractFinding>& findings_for(const pb::MethodDescriptor& md) {
        auto it = findings_.find(&md);
        if (it == findings_.end()) {
            const FileSchema* files = files_ && md.file()->pool() == files_->pool() ? files_.get() : nullptr;
            it = findings_.emplace(&md, id_type_findings(md, files)).first;
        }
        return it->second;
    }

    Options opts_;
    std::unique_ptr<FileSchema> files_;
    std::string files_error_;
    std::map<std::string, Target> targets_;
    std::map<const pb::DescriptorPool*, std::unique_ptr<Codec>> codecs_;
    std::map<const pb::MethodDescriptor*, std::vector<ContractFinding>> findings_;
};

}  // namespace

CallOutcome classify(int code, const std::string& message, bool tls) {
    CallOutcome o;
    if (code == static_cast<int>(grpc::StatusCode::UNAVAILABLE)) {
        const bool handshake = message.find("SSL") != std::string::npos ||
                               message.find("ssl") != std::string::npos ||
                               message.find("andshake") != std::string::npos ||
                               message.find("certificate") != std::string::npos;
        o.error = TransportError{tls && handshake ? TransportErrorKind::tls : TransportErrorKind::connect,
                                 "UNAVAILABLE: " + message, true};
        return o;
    }
    if (code == static_cast<int>(grpc::StatusCode::DEADLINE_EXCEEDED)) {
        o.error = TransportError{TransportErrorKind::timeout, "DEADLINE_EXCEEDED: " + message, true};
        return o;
    }
    Response r;
    r.status = grpc_status::http_status(code);
    r.reason = std::string(grpc_status::name(code));
    if (r.reason.empty()) r.reason = "code " + std::to_string(code);
    r.headers.push_back({"grpc-status", std::to_string(code)});
    r.headers.push_back({"grpc-message", message});
    if (code != 0) {
        // The grpc-gateway error body, so that body/json expectations can look at it.
        std::string esc;
        for (char c : message) {
            if (c == '"' || c == '\\') esc += '\\';
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
                esc += buf;
                continue;
            }
            esc += c;
        }
        r.body = "{\"code\":" + std::to_string(code) + ",\"status\":\"" + r.reason + "\",\"message\":\"" + esc + "\"}";
    }
    o.response = std::move(r);
    return o;
}

std::unique_ptr<Transport> make_grpc_transport(asio::any_io_executor ex, const Options& opts) {
    return std::make_unique<GrpcTransport>(std::move(ex), opts);
}

}  // namespace idconform::transport::grpcdyn
