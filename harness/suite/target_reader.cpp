// The one reader of a target (see target_reader.hpp).
#include "suite/target_reader.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <vector>

namespace idconform::suite::detail {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> tls_keys = {"cacert", "cert", "key", "insecure"};
const std::vector<std::string> timeout_keys = {"connect", "read"};
const std::vector<std::string> principal_keys = {"headers", "authenticated"};
const std::vector<std::string> grpc_target_keys = {"address", "protos", "import_paths", "reflection", "tls"};
const std::vector<std::string> grpc_tls_keys = {"cacert", "cert", "key"};

// A file or directory of the grpc section, relative to `base_dir`; nullopt
// (with a diagnostic) when it does not exist.
std::optional<std::string> existing_path(Reader& r, const Val& v, const std::string& p, bool directory,
                                         const GrpcFiles& files) {
    const std::string& base_dir = files.base_dir;
    fs::path full(p);
    if (full.is_relative() && !base_dir.empty()) full = fs::path(base_dir) / full;
    if (!files.must_exist) return full.string();
    std::error_code ec;
    const bool ok = directory ? fs::is_directory(full, ec) : fs::is_regular_file(full, ec);
    if (!ok) {
        r.error(v, std::string(directory ? "no such directory '" : "no such file '") + p + "'",
                "paths in the grpc section are relative to the " + std::string(files.relative_to) + " (" +
                    (base_dir.empty() ? std::string(".") : base_dir) + ")");
        return std::nullopt;
    }
    return full.string();
}

void read_grpc_tls(Reader& r, const Val& v, Target::Grpc& g, const GrpcFiles& base_dir) {
    if (v.node.IsScalar()) {
        if (auto b = r.boolean(v, "tls")) g.tls = *b;
        return;
    }
    auto tm = r.mapping(v, "tls", grpc_tls_keys, "{cacert: certs/ca.pem}");
    if (!tm) return;
    g.tls = true;
    struct File {
        const char* key;
        const char* example;
        std::string* into;
    };
    for (const File f : {File{"cacert", "cacert: certs/ca.pem", &g.ca_file}, File{"cert", "cert: certs/client.pem", &g.cert_file},
                         File{"key", "key: certs/client.key", &g.key_file}})
        if (const auto* y = tm->find(f.key))
            if (auto s = r.string(y->val(), f.key, f.example))
                if (auto full = existing_path(r, y->val(), *s, false, base_dir)) *f.into = *full;
    if (g.cert_file.empty() != g.key_file.empty())
        r.error(v, "mTLS needs both 'cert' and 'key'", "give the client certificate and its key");
}

}  // namespace

void read_tls(Reader& r, const Val& v, TargetTls& out) {
    auto m = r.mapping(v, "tls", tls_keys, "{cacert: certs/ca.pem, insecure: false}");
    if (!m) return;
    if (const auto* y = m->find("cacert"))
        if (auto s = r.string(y->val(), "cacert", "cacert: certs/ca.pem", true)) out.ca_file = *s;
    if (const auto* y = m->find("cert"))
        if (auto s = r.string(y->val(), "cert", "cert: certs/client.pem", true)) out.cert_file = *s;
    if (const auto* y = m->find("key"))
        if (auto s = r.string(y->val(), "key", "key: certs/client.key", true)) out.key_file = *s;
    if (const auto* y = m->find("insecure"))
        if (auto b = r.boolean(y->val(), "insecure")) out.insecure = *b;
}

void read_timeouts(Reader& r, const Val& v, TargetTimeouts& out) {
    auto to = r.mapping(v, "timeout", timeout_keys, "{connect: 2s, read: 5s}");
    if (!to) return;
    if (const auto* y = to->find("connect")) out.connect_timeout_ms = r.duration(y->val(), "connect");
    if (const auto* y = to->find("read")) out.read_timeout_ms = r.duration(y->val(), "read");
}

std::optional<Principal> read_principal(Reader& r, const Entry& entry) {
    if (!valid_name(entry.key)) {
        r.error(entry.key_val(), "bad principal name '" + entry.key + "'",
                "names use letters, digits, '_' and '-' and start with a letter, e.g. alice");
        return std::nullopt;
    }
    Principal p;
    p.name = entry.key;
    p.pos = r.pos(entry.key_val());
    if (entry.value.IsNull()) return p;  // `anonymous:`: sends no headers
    auto pm = r.mapping(entry.val(), "principal", principal_keys, "{headers: {Authorization: \"Bearer ${token_a}\"}}");
    if (!pm) return std::nullopt;
    if (const auto* h = pm->find("headers"))
        p.headers = r.pairs(h->val(), "headers", "{Authorization: \"Bearer ${token_a}\"}");
    if (const auto* a = pm->find("authenticated"))
        if (auto b = r.boolean(a->val(), "authenticated")) p.authenticated = *b;
    return p;
}

std::optional<std::vector<int>> read_refused(Reader& r, const Val& v) {
    const char* const hint =
        "list the 4xx statuses with which the API refuses another principal's access, e.g. refused: [403, 404] "
        "or refused: [401, 404]";
    std::vector<Val> items;
    if (v.node.IsSequence())
        for (const auto& item : v.node) items.push_back(Val{item, item.Mark()});
    else
        items.push_back(v);
    if (items.empty()) {
        r.error(v, "empty 'refused' list", hint);
        return std::nullopt;
    }
    std::vector<int> out;
    bool ok = true;
    for (const auto& item : items) {
        const std::string s = item.node.IsScalar() ? item.node.Scalar() : std::string();
        const bool code = s.size() == 3 && s[0] == '4' && std::isdigit(static_cast<unsigned char>(s[1])) &&
                          std::isdigit(static_cast<unsigned char>(s[2]));
        if (!code) {
            r.error(item, item.node.IsScalar() ? "'" + s + "' is not a 4xx status" : "expected a 4xx status here", hint);
            ok = false;
            continue;
        }
        const int c = std::stoi(s);
        if (std::find(out.begin(), out.end(), c) != out.end()) {
            r.error(item, "status " + s + " is listed twice in 'refused'", "list each status once");
            ok = false;
            continue;
        }
        out.push_back(c);
    }
    if (!ok) return std::nullopt;
    return out;
}

std::optional<Target::Grpc> read_grpc_target(Reader& r, const Val& v, const GrpcFiles& base_dir) {
    const char* const example = "{address: \"${env:IDCONFORM_GRPC_ADDRESS:-127.0.0.1:50051}\", reflection: true}";
    auto m = r.mapping(v, "grpc", grpc_target_keys, example);
    if (!m) return std::nullopt;
    Target::Grpc g;
    g.pos = r.pos(v);
    if (const auto* x = m->find("address")) {
        if (auto s = r.string(x->val(), "address", "address: \"127.0.0.1:50051\"", true);
            s && r.check_template_at(x->val(), *s, false)) {
            if (s->empty()) r.error(x->val(), "the gRPC address is empty", "write host:port, e.g. address: 127.0.0.1:50051");
            g.address = *s;
        }
    } else {
        r.error(v, "missing required key 'address' in grpc", std::string("say where gRPC listens, e.g. grpc: ") + example);
    }
    for (const char* key : {"protos", "import_paths"}) {
        const auto* x = m->find(key);
        if (!x) continue;
        const bool dirs = std::string_view(key) == "import_paths";
        const char* const ex = dirs ? "import_paths: [proto]" : "protos: [proto/api.proto]";
        auto items = r.sequence(x->val(), key, ex);
        if (!items) continue;
        for (const auto& item : *items) {
            auto s = r.string(item, key, ex);
            if (!s) continue;
            if (auto full = existing_path(r, item, *s, dirs, base_dir)) (dirs ? g.import_paths : g.protos).push_back(*full);
        }
    }
    const auto* refl = m->find("reflection");
    g.reflection = g.protos.empty() && !m->find("protos");
    if (refl)
        if (auto b = r.boolean(refl->val(), "reflection")) g.reflection = *b;
    if (refl && !g.reflection && !m->find("protos"))
        r.error(refl->val(), "the gRPC schemas come from nowhere",
                "either ask the server (reflection: true) or name the .proto files (protos: [api/products.proto])");
    if (const auto* x = m->find("tls")) read_grpc_tls(r, x->val(), g, base_dir);
    return g;
}

}  // namespace idconform::suite::detail
