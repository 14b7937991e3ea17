// The suite loader, the suite's environment: `vars:`, `target:` (base URL,
// headers, TLS, timeouts, Kafka, gRPC) and `principals:`.
#include "suite/loader_impl.hpp"
#include "suite/target_reader.hpp"

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
    if (const auto* x = m->find("tls")) read_tls(r, x->val(), t);
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
    if (const auto* x = m->find("grpc"))
        if (auto g = read_grpc_target(r, x->val(), {suite_dir_, "suite file", true})) t.grpc = std::move(*g);
    if (const auto* x = m->find("timeout")) read_timeouts(r, x->val(), t);
}

void Loader::principals(Reader& r, const Entry& e, Suite& s) {
    auto m = r.mapping(e.val(), "principals", {}, "\n  principals:\n    alice: {headers: {Authorization: \"Bearer ${token_a}\"}}");
    if (!m) return;
    for (const auto& entry : m->entries)
        if (auto p = read_principal(r, entry)) s.principals.emplace(p->name, std::move(*p));
}

}  // namespace idconform::suite::detail
