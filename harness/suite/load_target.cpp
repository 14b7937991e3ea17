// The suite loader, the suite's environment: `vars:`, `target:` (base URL,
// headers, TLS, timeouts, Kafka, gRPC) and `principals:`.
#include "suite/loader_impl.hpp"

#include "scan/scan.hpp"
#include "core/grpc_status.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

namespace idconform::suite::detail {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> target_keys = {"base_url", "headers", "tls", "timeout", "kafka", "grpc"};
const std::vector<std::string> kafka_target_keys = {"brokers", "properties"};
const std::vector<std::string> grpc_target_keys = {"address", "protos", "import_paths", "reflection", "tls"};
const std::vector<std::string> tls_keys = {"cacert", "cert", "key", "insecure"};
const std::vector<std::string> timeout_keys = {"connect", "read"};
const std::vector<std::string> principal_keys = {"headers"};
const std::vector<std::string> secret_var_keys = {"value", "secret"};

}  // namespace

void Loader::vars(Reader& r, const Entry& e, Suite& s) {
    auto m = r.mapping(e.val(), "vars", {}, "\n  vars:\n    token_a: ${env:TOKEN_A:-alice}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        Variable var;
        var.name = entry.key;
        var.pos = r.pos(entry.key_val());
        if (!valid_name(entry.key)) {
            r.error(entry.key_val(), "bad variable name '" + entry.key + "'",
                    "variable names use letters, digits, '_' and '-' and start with a letter or '_'");
            continue;
        }
        const Val v = entry.val();
        // `{value: ..., secret: true}` wraps a value; any other mapping is
        // a structured (JSON object) value.
        if (v.node.IsMap() && v.node["value"]) {
            auto wrap = r.mapping(v, "variable", secret_var_keys, "{value: \"${env:API_KEY}\", secret: true}");
            if (!wrap) continue;
            bool ok = true;
            if (const auto* val = wrap->find("value")) {
                if (auto j = r.json(val->val(), true))
                    var.value = std::move(*j);
                else
                    ok = false;
            }
            if (const auto* sec = wrap->find("secret")) {
                if (auto b = r.boolean(sec->val(), "secret"))
                    var.secret = *b;
                else
                    ok = false;
            }
            if (ok) s.vars.push_back(std::move(var));
            continue;
        }
        if (auto j = r.json(v, true)) {
            var.value = std::move(*j);
            s.vars.push_back(std::move(var));
        }
    }
}

void Loader::target(Reader& r, const Entry& e, Target& t) {
    auto m = r.mapping(e.val(), "target", target_keys, "{base_url: \"http://127.0.0.1:8080\"}");
    if (!m) return;
    t.pos = r.pos(e.val());
    if (const auto* x = m->find("base_url"))
        if (auto s = r.string(x->val(), "base_url", "base_url: ${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}",
                              true))
            t.base_url = *s;
    if (const auto* x = m->find("headers")) t.headers = r.pairs(x->val(), "headers", "{Accept: application/json}");
    if (const auto* x = m->find("tls")) {
        if (auto tls = r.mapping(x->val(), "tls", tls_keys, "{cacert: certs/ca.pem, insecure: false}")) {
            if (const auto* y = tls->find("cacert"))
                if (auto s = r.string(y->val(), "cacert", "cacert: certs/ca.pem", true)) t.ca_file = *s;
            if (const auto* y = tls->find("cert"))
                if (auto s = r.string(y->val(), "cert", "cert: certs/client.pem", true)) t.cert_file = *s;
            if (const auto* y = tls->find("key"))
                if (auto s = r.string(y->val(), "key", "key: certs/client.key", true)) t.key_file = *s;
            if (const auto* y = tls->find("insecure"))
                if (auto b = r.boolean(y->val(), "insecure")) t.insecure = *b;
        }
    }
    if (const auto* x = m->find("kafka")) {
        const std::size_t before = diags.size();
        if (auto km = r.mapping(x->val(), "kafka", kafka_target_keys,
                                "{brokers: \"${env:IDCONFORM_KAFKA_BROKERS}\", properties: {security.protocol: SASL_SSL}}")) {
            t.kafka.pos = r.pos(x->val());
            if (const auto* y = km->find("brokers")) {
                if (auto s = r.string(y->val(), "brokers", "brokers: \"${env:IDCONFORM_KAFKA_BROKERS}\"", true)) t.kafka.brokers = *s;
            } else if (diags.size() == before) {  // not after a misspelt 'brokers'
                r.error(x->val(), "missing required key 'brokers' in kafka",
                        "say where the cluster is, e.g. brokers: \"${env:IDCONFORM_KAFKA_BROKERS}\"");
            }
            if (const auto* y = km->find("properties"))
                t.kafka.properties =
                    r.pairs(y->val(), "properties", "{security.protocol: SASL_SSL, sasl.password: \"${env:KAFKA_PASSWORD}\"}");
        }
    }
    if (const auto* x = m->find("grpc")) grpc_target(r, *x, t);
    if (const auto* x = m->find("timeout")) {
        if (auto to = r.mapping(x->val(), "timeout", timeout_keys, "{connect: 2s, read: 5s}")) {
            if (const auto* y = to->find("connect")) t.connect_timeout_ms = r.duration(y->val(), "connect");
            if (const auto* y = to->find("read")) t.read_timeout_ms = r.duration(y->val(), "read");
        }
    }
}

// A file or directory of the grpc section, relative to the suite file;
// nullopt (with a diagnostic) when it does not exist.
std::optional<std::string> Loader::grpc_path(Reader& r, const Val& v, const std::string& p, bool directory) {
    fs::path full(p);
    if (full.is_relative() && !suite_dir_.empty()) full = fs::path(suite_dir_) / full;
    std::error_code ec;
    const bool ok = directory ? fs::is_directory(full, ec) : fs::is_regular_file(full, ec);
    if (!ok) {
        r.error(v, std::string(directory ? "no such directory '" : "no such file '") + p + "'",
                "paths in the grpc section are relative to the suite file (" +
                    (suite_dir_.empty() ? std::string(".") : suite_dir_) + ")");
        return std::nullopt;
    }
    return full.string();
}

void Loader::grpc_target(Reader& r, const Entry& e, Target& t) {
    const char* const example = "{address: \"${env:IDCONFORM_GRPC_ADDRESS:-127.0.0.1:50051}\", protos: [api.proto]}";
    auto m = r.mapping(e.val(), "grpc", grpc_target_keys, example);
    if (!m) return;
    Target::Grpc g;
    g.pos = r.pos(e.val());
    if (const auto* x = m->find("address")) {
        if (auto s = r.string(x->val(), "address", "address: \"127.0.0.1:50051\"", true)) g.address = *s;
    } else {
        r.error(e.val(), "missing required key 'address' in grpc", std::string("e.g. grpc: ") + example);
    }
    for (const char* key : {"protos", "import_paths"}) {
        const auto* x = m->find(key);
        if (!x) continue;
        const bool dirs = std::string_view(key) == "import_paths";
        auto items = r.sequence(x->val(), key, dirs ? "import_paths: [proto]" : "protos: [proto/api.proto]");
        if (!items) continue;
        for (const auto& item : *items) {
            auto s = r.string(item, key, dirs ? "import_paths: [proto]" : "protos: [proto/api.proto]");
            if (!s) continue;
            if (auto full = grpc_path(r, item, *s, dirs)) (dirs ? g.import_paths : g.protos).push_back(*full);
        }
    }
    if (const auto* x = m->find("reflection"))
        if (auto b = r.boolean(x->val(), "reflection")) g.reflection = *b;
    if (!g.protos.empty() && !m->find("reflection")) g.reflection = false;
    if (const auto* x = m->find("tls")) {
        const Val v = x->val();
        if (v.node.IsScalar()) {
            if (auto b = r.boolean(v, "tls")) g.tls = *b;
        } else if (auto tm = r.mapping(v, "tls", {"cacert", "cert", "key"}, "{cacert: certs/ca.pem}")) {
            g.tls = true;
            if (const auto* y = tm->find("cacert"))
                if (auto s = r.string(y->val(), "cacert", "cacert: certs/ca.pem"))
                    if (auto f = grpc_path(r, y->val(), *s, false)) g.ca_file = *f;
            if (const auto* y = tm->find("cert"))
                if (auto s = r.string(y->val(), "cert", "cert: certs/client.pem"))
                    if (auto f = grpc_path(r, y->val(), *s, false)) g.cert_file = *f;
            if (const auto* y = tm->find("key"))
                if (auto s = r.string(y->val(), "key", "key: certs/client.key"))
                    if (auto f = grpc_path(r, y->val(), *s, false)) g.key_file = *f;
            if (g.cert_file.empty() != g.key_file.empty())
                r.error(v, "mTLS needs both 'cert' and 'key'", "give the client certificate and its key");
        }
    }
    t.grpc = std::move(g);
}

void Loader::principals(Reader& r, const Entry& e, Suite& s) {
    auto m = r.mapping(e.val(), "principals", {},
                       "\n  principals:\n    alice: {headers: {Authorization: \"Bearer ${token_a}\"}}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        if (!valid_name(entry.key)) {
            r.error(entry.key_val(), "bad principal name '" + entry.key + "'",
                    "names use letters, digits, '_' and '-' and start with a letter, e.g. alice");
            continue;
        }
        Principal p;
        p.name = entry.key;
        p.pos = r.pos(entry.key_val());
        auto pm = r.mapping(entry.val(), "principal", principal_keys,
                            "{headers: {Authorization: \"Bearer ${token_a}\"}}");
        if (!pm) continue;
        if (const auto* h = pm->find("headers"))
            p.headers = r.pairs(h->val(), "headers", "{Authorization: \"Bearer ${token_a}\"}");
        s.principals.emplace(p.name, std::move(p));
    }
}

}  // namespace idconform::suite::detail
