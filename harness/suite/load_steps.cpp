// The suite loader, steps: one step kind per key (http, call, kafka, file,
// grpc; the table step_kinds), the body edits http and grpc share, names,
// captures and cleanup.
#include "suite/loader_impl.hpp"
#include "suite/operation.hpp"

#include "scan/scan.hpp"
#include "core/grpc_method.hpp"
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

const std::vector<std::string> grpc_keys = {"method", "message", "metadata", "principal", "set", "unset"};
const std::vector<std::string> call_keys = {"op", "id", "filter", "json", "set", "unset", "principal", "via"};
const std::vector<std::string> kafka_keys = {"produce", "consume"};
const std::vector<std::string> produce_keys = {"topic", "key", "headers", "json", "raw", "partition"};
const std::vector<std::string> consume_keys = {"topic", "match", "from", "timeout", "partitions", "absent"};
const std::vector<std::string> match_keys = {"key", "header", "json"};
const std::vector<std::string> from_words = {"case", "end", "beginning"};
const std::vector<std::string> file_keys = {"path", "format", "fields", "scan", "max_violations"};
const std::vector<std::string> cleanup_keys = {"path", "id"};
const std::vector<std::string> http_keys = {"method", "path", "query", "headers", "json", "raw", "principal",
                                            "path_params", "set", "unset"};
const std::vector<std::string> methods = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"};

}  // namespace

std::vector<Step> Loader::step_list(Reader& r, const Val& v, std::string_view what) {
    std::vector<Step> out;
    auto items = r.sequence(v, what, "\n    - http: {method: GET, path: /v1/products}\n      expect: {status: 200}");
    if (!items) return out;
    for (const auto& item : *items) {
        std::optional<Ref> principal;
        if (auto step = parse_step(r, item, "step", &principal, /*allow_use=*/true)) {
            if (principal) principal_refs_.push_back(*principal);
            out.push_back(std::move(*step));
        }
    }
    return out;
}

std::optional<Step> Loader::parse_step(Reader& r, const Val& v, std::string_view what, std::optional<Ref>* principal,
                               bool allow_use) {
    const char* const example = "{http: {method: GET, path: /v1/products}, expect: {status: 200}}";
    // The keys of a step: its kinds (step_kinds(), the one list of them) and the common ones.
    static const std::vector<std::string> step_keys = [] {
        std::vector<std::string> k = {"name"};
        for (const auto& kind : step_kinds()) k.push_back(kind.key);
        for (const char* c : {"expect", "capture", "use", "cleanup", "repeat"}) k.emplace_back(c);
        return k;
    }();
    auto m = r.mapping(v, what, step_keys, example);
    if (!m) return std::nullopt;
    const std::size_t before = r_errors();

    if (const auto* use = m->find("use")) {
        if (!allow_use) {
            r.error(use->key_val(), "a fragment cannot use another fragment",
                    "write the fragment's step out in full");
            return std::nullopt;
        }
        for (const auto& e : m->entries)
            if (e.key != "use")
                r.error(e.key_val(), "a 'use' step takes no other keys (found '" + e.key + "')",
                        "a 'use' step copies a fragment as it is; to change it, define another fragment or "
                        "write the step out in full");
        auto name = r.string(use->val(), "use", "use: create_product");
        if (!name) return std::nullopt;
        auto it = fragments_.find(*name);
        if (it == fragments_.end()) {
            std::vector<std::string> known;
            for (const auto& [k, f] : fragments_) known.push_back(k);
            const std::string best = did_you_mean(*name, known);
            r.error(use->val(), "unknown fragment '" + *name + "'",
                    best.empty() ? "define it under 'fragments:' in this suite or in an included fragment file"
                                 : "did you mean '" + best + "'?");
            return std::nullopt;
        }
        if (r_errors() != before) return std::nullopt;
        if (it->second.principal && used_fragments_.insert(*name).second)
            principal_refs_.push_back(*it->second.principal);
        return it->second.step;
    }

    Step step;
    step.pos = r.pos(v);
    // One request per step, read by the reader of its kind (step_kinds).
    const StepKind* chosen = nullptr;
    for (const StepKind& k : step_kinds()) {
        const Entry* e = m->find(k.key);
        if (!e) continue;
        if (chosen) {
            r.error(e->key_val(),
                    std::string("a step has one request: '") + chosen->key + "' and '" + k.key + "' cannot both be set",
                    "split it into two steps");
            continue;
        }
        chosen = &k;
        (this->*k.read)(r, *e, *m, step, principal);
    }
    if (!chosen) {
        r.error(v, "missing required key 'http' in " + std::string(what),
                "every step sends a request, e.g. http: {method: GET, path: /v1/products}, grpc: {method: "
                "products.v1.Products/GetProduct, message: {id: \"${id}\"}} or kafka: {produce: {...}} / "
                "kafka: {consume: {...}}, or scans a file, e.g. file: {path: \"${export_dir}/products.ndjson\"}");
    }
    if (const auto* n = m->find("name")) {
        if (auto s = r.string(n->val(), "name", "name: create a product")) step.name = *s;
    }
    // A call step is named after the request it is bound to (profile/expand.cpp).
    if (step.name.empty()) step.name = default_step_name(step.request);
    step.expect.pos = step.pos;
    if (const auto* x = m->find("expect")) expect(r, *x, step.expect);
    if (const auto* c = m->find("capture")) captures(r, *c, step.captures);
    const auto* c = m->find("cleanup");
    if (auto refused = c ? cleanup_refused(step.request) : std::nullopt) {
        r.error(c->key_val(), refused->message, refused->hint);
    } else if (c) {
        if (auto cm = r.mapping(c->val(), "cleanup", cleanup_keys, "{path: \"/v1/products/{id}\", id: /id}")) {
            Cleanup cl;
            cl.pos = r.pos(c->val());
            if (const auto* x = cm->find("path")) {
                if (auto ps = r.string(x->val(), "path", "path: \"/v1/products/{id}\"");
                    ps && r.check_template_at(x->val(), *ps, true))
                    cl.path = *ps;
            } else {
                r.error(c->val(), "missing required key 'path' in cleanup",
                        "say how to delete what this step created, e.g. path: \"/v1/products/{id}\"");
            }
            if (const auto* x = cm->find("id"))
                if (auto ps = r.string(x->val(), "id", "id: /id"); ps && pointer_ok(r, x->val(), *ps)) cl.id_at = *ps;
            step.cleanup = std::move(cl);
        }
    }
    if (const auto* x = m->find("repeat")) {
        auto n = r.json(x->val(), false);
        if (!n || !n->is_int64() || n->as_int64() < 1 || n->as_int64() > 10000)
            r.error(x->val(), "repeat must be an integer from 1 to 10000",
                    "send the step several times in a row, e.g. repeat: 50");
        else
            step.repeat = static_cast<int>(n->as_int64());
    }
    if (r_errors() != before) return std::nullopt;
    return step;
}

// ------------------------------------------------------------ step kinds

const std::vector<Loader::StepKind>& Loader::step_kinds() {
    // The order is the order of the "cannot both be set" message.
    static const std::vector<StepKind> kinds = {
        {"http", &Loader::http_step}, {"call", &Loader::call_step}, {"kafka", &Loader::kafka_step},
        {"file", &Loader::file_step}, {"grpc", &Loader::grpc_step},
    };
    return kinds;
}

void Loader::http_step(Reader& r, const Entry& e, const Mapping&, Step& step, std::optional<Ref>* principal) {
    HttpRequest h;
    http(r, e, h, principal);
    step.request = std::move(h);
}

void Loader::call_step(Reader& r, const Entry& e, const Mapping&, Step& step, std::optional<Ref>* principal) {
    OpCall c;
    call(r, e, c, principal);
    step.request = std::move(c);
}

void Loader::kafka_step(Reader& r, const Entry& e, const Mapping&, Step& step, std::optional<Ref>*) {
    KafkaRequest k;
    kafka(r, e, k);
    step.request = std::move(k);
}

void Loader::file_step(Reader& r, const Entry& e, const Mapping& m, Step& step, std::optional<Ref>*) {
    FileScan f;
    file_scan(r, e, f);
    step.request = std::move(f);
    for (const char* k : {"expect", "capture", "cleanup"})
        if (const auto* x = m.find(k))
            r.error(x->key_val(), std::string("a file step takes no '") + k + "'",
                    "every violation found in the file fails the step; declare id fields under "
                    "file: {fields: {/id: uuidv7}}");
}

void Loader::grpc_step(Reader& r, const Entry& e, const Mapping&, Step& step, std::optional<Ref>* principal) {
    GrpcCall g;
    grpc_call(r, e, g, principal);
    step.request = std::move(g);
    grpc_steps_.push_back(r.pos(e.key_val()));
}

void Loader::kafka(Reader& r, const Entry& e, KafkaRequest& req) {
    auto m = r.mapping(e.val(), "kafka", kafka_keys,
                       "{produce: {topic: products.commands, json: {...}}} or {consume: {topic: products.events}}");
    if (!m) return;
    req.pos = r.pos(e.val());
    if (m->entries.size() != 1) {
        if (m->entries.size() > 1 || e.value.size() == 0)
            r.error(e.val(), "a kafka step takes exactly one of: produce, consume",
                    "send with kafka: {produce: {topic: t, json: {...}}} or wait for a message with kafka: "
                    "{consume: {topic: t, match: {key: \"${id}\"}}}, in separate steps");
        return;
    }
    const Entry& op = m->entries.front();
    if (op.key == "produce") {
        req.op = KafkaRequest::Op::produce;
        produce(r, op, req);
    } else {
        req.op = KafkaRequest::Op::consume;
        consume(r, op, req);
    }
}

// A topic: a template, or 1-249 of [a-zA-Z0-9._-].
void Loader::topic(Reader& r, const Mapping& m, const Val& at, KafkaRequest& req, std::string_view example) {
    const auto* x = m.find("topic");
    if (!x) {
        r.error(at, "missing required key 'topic' in kafka", "name the topic, e.g. " + std::string(example));
        return;
    }
    auto s = r.string(x->val(), "topic", example, true);
    if (!s) return;
    const bool templated = s->find("${") != std::string::npos;
    const bool ok = !s->empty() && s->size() <= 249 && std::all_of(s->begin(), s->end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    });
    if (!templated && !ok) {
        r.error(x->val(), "bad Kafka topic '" + *s + "'",
                "a topic name is 1 to 249 of the characters a-z A-Z 0-9 . _ -, e.g. products.events");
        return;
    }
    req.topic = *s;
}

void Loader::produce(Reader& r, const Entry& e, KafkaRequest& req) {
    const char* const example = "topic: products.commands";
    auto m = r.mapping(e.val(), "produce", produce_keys, "{topic: products.commands, key: \"${id}\", json: {...}}");
    if (!m) return;
    topic(r, *m, e.val(), req, example);
    if (const auto* x = m->find("key"))
        if (auto s = r.string(x->val(), "key", "key: \"${product_id}\"", true)) req.key = *s;
    if (const auto* x = m->find("headers")) {
        req.headers = r.pairs(x->val(), "headers", "{trace-id: abc}");
        if (x->value.IsMap())
            for (const auto& h : x->value)
                if (const auto name = detail::key_text(h.first); name && name->rfind("kafka-", 0) == 0)
                    r.error(Val{h.first, h.first.Mark()}, "header names starting with 'kafka-' are reserved",
                            "the transport shows the key, topic, partition, offset and timestamp as kafka-* "
                            "headers of the answer; write the key as key: and rename this header");
    }
    const auto* json = m->find("json");
    const auto* raw = m->find("raw");
    if (json && raw)
        r.error(raw->key_val(), "'json' and 'raw' cannot both be set",
                "send either a JSON payload (json:) or a text payload (raw:), not both");
    if (json)
        if (auto j = r.json(json->val(), true)) req.json = std::move(*j);
    if (raw)
        if (auto s = r.string(raw->val(), "raw", "raw: \"text payload\"", true)) req.raw = *s;
    if (const auto* x = m->find("partition")) {
        auto n = r.json(x->val(), false);
        if (!n || !n->is_int64() || n->as_int64() < 0 || n->as_int64() > 100000)
            r.error(x->val(), "partition must be a whole number from 0", "e.g. partition: 0 (leave it out to let the key choose)");
        else
            req.partition = static_cast<int>(n->as_int64());
    }
}

void Loader::consume(Reader& r, const Entry& e, KafkaRequest& req) {
    const char* const example = "topic: products.events";
    auto m = r.mapping(e.val(), "consume", consume_keys,
                       "{topic: products.events, match: {json: {/id: \"${id}\"}}, timeout: 5s}");
    if (!m) return;
    topic(r, *m, e.val(), req, example);
    if (const auto* x = m->find("match")) match(r, x->val(), req.match);
    if (const auto* x = m->find("timeout")) req.timeout_ms = r.duration(x->val(), "timeout");
    if (const auto* x = m->find("absent"))
        if (auto b = r.boolean(x->val(), "absent")) req.absent = *b;
    if (const auto* x = m->find("partitions")) {
        std::vector<Val> items;
        if (x->value.IsSequence())
            for (const auto& item : x->value) items.push_back(Val{item, item.Mark()});
        else
            items.push_back(x->val());
        for (const auto& item : items) {
            auto n = r.json(item, false);
            if (!n || !n->is_int64() || n->as_int64() < 0 || n->as_int64() > 100000)
                r.error(item, "a partition is a whole number from 0", "e.g. partitions: [0, 1]");
            else
                req.partitions.push_back(static_cast<int>(n->as_int64()));
        }
    }
    if (const auto* x = m->find("from")) {
        auto s = r.string(x->val(), "from", "from: case", true);
        if (!s) return;
        const bool digits = !s->empty() && s->size() <= 18 &&
                            std::all_of(s->begin(), s->end(), [](char c) { return c >= '0' && c <= '9'; });
        if (*s == "case") req.from = KafkaRequest::From::case_start;
        else if (*s == "end") req.from = KafkaRequest::From::end;
        else if (*s == "beginning") req.from = KafkaRequest::From::beginning;
        else if (digits) {
            req.from = KafkaRequest::From::offset;
            req.from_offset = std::stoll(*s);
        } else if (s->find("${") != std::string::npos ||
                   (s->size() >= 20 && std::isdigit(static_cast<unsigned char>((*s)[0])) && (*s)[4] == '-' && (*s)[10] == 'T')) {
            req.from = KafkaRequest::From::time;
            req.from_time = *s;
        } else {
            const std::string best = did_you_mean(*s, from_words);
            r.error(x->val(), "bad start '" + *s + "' for consume",
                    (best.empty() ? std::string() : "did you mean '" + best + "'? ") +
                        "write case (the start of this case), end, beginning, an offset (e.g. 42) or an RFC 3339 "
                        "time (e.g. 2024-05-01T12:00:00Z)");
        }
    }
}

void Loader::match(Reader& r, const Val& v, std::vector<KafkaMatch>& out) {
    auto m = r.mapping(v, "match", match_keys, "{key: \"${id}\"} or {json: {/id: \"${id}\"}} or {header: {trace-id: abc}}");
    if (!m) return;
    if (v.node.size() == 0)
        r.error(v, "empty match", "say which message to wait for, e.g. {key: \"${id}\"} or {json: {/id: \"${id}\"}}");
    for (const auto& e : m->entries) {
        if (e.key == "key") {
            KafkaMatch k;
            k.kind = KafkaMatch::Kind::key;
            k.pos = r.pos(e.val());
            if (auto s = r.string(e.val(), "key", "key: \"${product_id}\"", true)) {
                k.value = *s;
                out.push_back(std::move(k));
            }
            continue;
        }
        const bool is_json = e.key == "json";
        const char* const example = is_json ? "{/id: \"${product_id}\"}" : "{trace-id: \"${trace}\"}";
        auto pm = r.mapping(e.val(), e.key, {}, example);
        if (!pm) continue;
        if (pm->entries.empty())
            r.error(e.val(), "empty '" + e.key + "' match", std::string("e.g. ") + e.key + ": " + example);
        for (const auto& entry : pm->entries) {
            KafkaMatch k;
            k.kind = is_json ? KafkaMatch::Kind::json : KafkaMatch::Kind::header;
            k.pos = r.pos(entry.key_val());
            k.name = entry.key;
            if (is_json && !pointer_ok(r, entry.key_val(), entry.key)) continue;
            if (auto sv = r.string(entry.val(), entry.key, example, true)) {
                k.value = *sv;
                out.push_back(std::move(k));
            }
        }
    }
}

void Loader::file_scan(Reader& r, const Entry& e, FileScan& f) {
    const char* const example = "{path: \"${export_dir}/products.ndjson\", fields: {/id: uuidv7}}";
    auto m = r.mapping(e.val(), "file", file_keys, example);
    if (!m) return;
    f.pos = r.pos(e.val());
    if (const auto* x = m->find("path")) {
        if (auto ps = r.string(x->val(), "path", "path: \"${export_dir}/products.ndjson\"", true)) f.path = *ps;
    } else {
        r.error(e.val(), "missing required key 'path' in file", "say which file to scan, e.g. path: /tmp/export.csv");
    }
    if (const auto* x = m->find("format")) {
        if (auto fs = r.string(x->val(), "format", "format: ndjson")) {
            if (!scan::format_from_name(*fs))
                r.error(x->val(), "unknown file format '" + *fs + "'",
                        detail::suggest(*fs, {"ndjson", "jsonl", "json", "csv"}, "formats"));
            else
                f.format = *fs;
        }
    } else if (!f.path.empty() && f.path.find("${") == std::string::npos && !scan::format_from_path(f.path)) {
        r.error(m->find("path")->val(), "cannot tell the format of '" + f.path + "' from its extension",
                "add format: ndjson, json or csv");
    }
    if (const auto* x = m->find("fields")) {
        if (auto fm = r.mapping(x->val(), "fields", {}, "{/id: uuidv7, /parent_id: \"uuidv7,nullable\"}")) {
            for (const auto& entry : fm->entries) {
                auto kind = r.string(entry.val(), "kind", "uuidv7");
                if (!kind) continue;
                scan::FieldSpec spec;
                std::string err;
                if (!scan::parse_kind_spec(*kind, spec, err)) {
                    r.error(entry.val(), err, "write the id kind, optionally followed by ',nullable': uuidv7,nullable");
                    continue;
                }
                f.fields.emplace_back(entry.key, *kind);
            }
            if (f.fields.size() > 64) r.error(x->val(), "at most 64 declared fields", "split the scan into two steps");
        }
    }
    if (const auto* x = m->find("scan"))
        if (auto b = r.boolean(x->val(), "scan")) f.shape = *b;
    if (const auto* x = m->find("max_violations")) {
        if (auto n = r.string(x->val(), "max_violations", "max_violations: 100")) {
            std::size_t v = 0;
            bool ok = !n->empty() && n->size() < 10;
            for (char c : *n) {
                if (c < '0' || c > '9') ok = false;
                else v = v * 10 + static_cast<std::size_t>(c - '0');
            }
            if (!ok || v == 0) r.error(x->val(), "max_violations must be a positive integer", "max_violations: 100");
            else f.max_violations = v;
        }
    }
}

void Loader::http(Reader& r, const Entry& e, HttpRequest& req, std::optional<Ref>* principal) {
    auto m = r.mapping(e.val(), "http", http_keys, "{method: POST, path: /v1/products, json: {name: p1}}");
    if (!m) return;
    req.pos = r.pos(e.val());
    if (const auto* x = m->find("method")) {
        if (auto s = r.string(x->val(), "method", "method: POST")) {
            const bool templated = s->rfind("${", 0) == 0;  // e.g. ${res.create_method} from a profile
            if (templated) {
                if (r.check_template_at(x->val(), *s, false)) req.method = *s;
            } else if (std::find(methods.begin(), methods.end(), *s) == methods.end())
                r.error(x->val(), "unknown HTTP method '" + *s + "'",
                        detail::suggest(*s, methods, "allowed methods"));
            else
                req.method = *s;
        }
    }
    if (const auto* x = m->find("path")) {
        if (auto s = r.string(x->val(), "path", "path: /v1/products/{product_id}")) {
            if (r.check_template_at(x->val(), *s, true)) req.path = *s;
        }
    } else {
        r.error(e.val(), "missing required key 'path' in http", "say where to send it, e.g. path: /v1/products");
    }
    if (const auto* x = m->find("query")) req.query = r.pairs(x->val(), "query", "{category_id: \"${category_id}\"}");
    if (const auto* x = m->find("headers")) req.headers = r.pairs(x->val(), "headers", "{X-Request-Id: abc}");
    const auto* json = m->find("json");
    const auto* raw = m->find("raw");
    if (json && raw)
        r.error(raw->key_val(), "'json' and 'raw' cannot both be set",
                "send either a JSON body (json:) or a text body (raw:), not both");
    if (json)
        if (auto j = r.json(json->val(), true)) req.json = std::move(*j);
    if (raw)
        if (auto s = r.string(raw->val(), "raw", "raw: \"text body\"", true)) req.raw = *s;
    if (const auto* x = m->find("principal")) {
        if (auto s = r.string(x->val(), "principal", "principal: alice")) {
            req.principal = *s;
            *principal = ref(r, x->val(), *s);
        }
    }
    if (const auto* x = m->find("path_params"))
        req.path_params = r.pairs(x->val(), "path_params", "{id: \"${product_id}\"}");
    if ((m->find("set") || m->find("unset")) && !json)
        r.error(e.val(), "'set' and 'unset' edit a JSON body, but this request has no 'json'",
                "add json: {...} (it may be a variable: json: \"${res.create_body}\")");
    body_edits(r, *m, req.set, req.unset);
}

// `set` (pointer -> value) and `unset` (pointers): edits of a JSON body.
void Loader::body_edits(Reader& r, const Mapping& m, std::vector<std::pair<std::string, boost::json::value>>& set,
                std::vector<std::string>& unset) {
    if (const auto* x = m.find("set")) {
        if (auto sm = r.mapping(x->val(), "set", {}, "{/category_id: \"${m}\"}")) {
            for (const auto& entry : sm->entries) {
                if (!r.check_template_at(entry.key_val(), entry.key, false)) continue;
                if (entry.key.empty() || (entry.key[0] != '/' && entry.key.rfind("${", 0) != 0)) {
                    r.error(entry.key_val(), "'" + entry.key + "' is not a JSON pointer",
                            "a pointer starts with '/', e.g. /category_id");
                    continue;
                }
                if (auto j = r.json(entry.val(), true)) set.emplace_back(entry.key, std::move(*j));
            }
        }
    }
    if (const auto* x = m.find("unset"))
        if (auto u = r.strings(x->val(), "unset", "unset: [/category_id]", true)) unset = *u;
}

// An operation of a profile resource (packs): {op: read, id: "${m}", principal: owner}.
void Loader::call(Reader& r, const Entry& e, OpCall& c, std::optional<Ref>* principal) {
    auto m = r.mapping(e.val(), "call", call_keys, "{op: read, id: \"${live_id}\", principal: owner}");
    if (!m) return;
    c.pos = r.pos(e.val());
    std::optional<Operation> op;  // unset: unknown or missing (already diagnosed; nothing below applies)
    if (const auto* x = m->find("op")) {
        if (auto s = r.string(x->val(), "op", "op: read")) {
            op = operation_from_name(*s);
            if (!op) r.error(x->val(), "unknown operation '" + *s + "'", detail::suggest(*s, operation_names(), "operations"));
            else c.op = *op;
        }
    } else {
        r.error(e.val(), "missing required key 'op' in call", "name the operation, e.g. op: read");
    }
    const std::string op_name = op ? name(*op) : "";
    if (const auto* x = m->find("id")) {
        if (op && !traits(*op).needs_id)
            r.error(x->key_val(), "'" + op_name + "' takes no id",
                    "only " + operations_that(&OperationTraits::needs_id) + " name an entity");
        else if (auto s = r.string(x->val(), "id", "id: \"${live_id}\"", true); s && r.check_template_at(x->val(), *s, false))
            c.id = *s;
    } else if (op && traits(*op).needs_id) {
        r.error(e.val(), "missing required key 'id' in call " + op_name, "say which entity, e.g. id: \"${live_id}\"");
    }
    if (const auto* x = m->find("filter")) {
        if (op && !traits(*op).has_items) r.error(x->key_val(), "only 'list' takes a filter", "remove filter:");
        c.filter = r.pairs(x->val(), "filter", "{category_id: \"${m}\"}");
    }
    for (const char* k : {"json", "set", "unset"})
        if (const auto* x = m->find(k); x && op && !traits(*op).has_body)
            r.error(x->key_val(), "'" + op_name + "' sends no body, so '" + k + "' does not apply",
                    "only " + operations_that(&OperationTraits::has_body) + " send a body");
    if (const auto* x = m->find("json"))
        if (auto j = r.json(x->val(), true)) c.json = std::move(*j);
    body_edits(r, *m, c.set, c.unset);
    if (const auto* x = m->find("principal")) {
        if (auto s = r.string(x->val(), "principal", "principal: owner")) {
            c.principal = *s;
            *principal = ref(r, x->val(), *s);
        }
    }
    if (const auto* x = m->find("via")) {
        if (auto s = r.string(x->val(), "via", "via: other")) {
            if (*s == "other")
                c.via_other = true;
            else if (*s != "same")
                r.error(x->val(), "unknown transport choice '" + *s + "'",
                        "via: other runs the operation on the resource's other transport (HTTP <-> gRPC); "
                        "via: same (the default) on the one the suite instance runs over");
        }
    }
}

void Loader::grpc_call(Reader& r, const Entry& e, GrpcCall& call, std::optional<Ref>* principal) {
    const char* const example = "{method: products.v1.Products/GetProduct, message: {id: \"${id}\"}}";
    auto m = r.mapping(e.val(), "grpc", grpc_keys, example);
    if (!m) return;
    call.pos = r.pos(e.val());
    if (const auto* x = m->find("method")) {
        if (auto s = r.string(x->val(), "method", "method: products.v1.Products/GetProduct")) {
            const bool templated = s->find("${") != std::string::npos;
            if (templated) {
                if (r.check_template_at(x->val(), *s, false)) call.method = *s;
            } else if (!grpc_method::parse(*s)) {
                r.error(x->val(), "'" + *s + "' is not a gRPC method name",
                        "write " + std::string(grpc_method::expected_form));
            } else {
                call.method = *s;
            }
        }
    } else {
        r.error(e.val(), "missing required key 'method' in grpc", std::string("e.g. grpc: ") + example);
    }
    if (const auto* x = m->find("message")) {
        if (auto j = r.json(x->val(), true)) {
            if (!j->is_object() && !(j->is_string() && j->as_string().starts_with("${")))
                r.error(x->val(), "the message must be a mapping (the request message's fields)",
                        "e.g. message: {id: \"${id}\"}");
            else
                call.message = std::move(*j);
        }
    }
    if (const auto* x = m->find("metadata")) {
        call.metadata = r.pairs(x->val(), "metadata", "{x-request-id: abc}");
        for (const auto& [k, v] : call.metadata)
            if (k.empty() || k.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") !=
                                 std::string::npos)
                r.error(x->val(), "bad metadata key '" + k + "'",
                        "gRPC metadata keys use letters, digits, '-', '_' and '.' (sent lower-case)");
    }
    if (const auto* x = m->find("principal")) {
        if (auto s = r.string(x->val(), "principal", "principal: alice")) {
            call.principal = *s;
            *principal = ref(r, x->val(), *s);
        }
    }
    body_edits(r, *m, call.set, call.unset);
}

}  // namespace idconform::suite::detail
