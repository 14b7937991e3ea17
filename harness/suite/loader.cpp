// The suite loader: YAML text -> validated suite model. Every problem found
// becomes a Diagnostic at the offending node; loading goes on after an error
// so one run shows all of them, and the suite is returned only when there
// were none.
#include "suite/loader.hpp"

#include "suite/simple_vectors.hpp"
#include "suite/yaml_reader.hpp"

#include "scan/scan.hpp"
#include "core/grpc_status.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

namespace idconform::suite {

namespace fs = std::filesystem;
using detail::Entry;
using detail::Mapping;
using detail::Reader;
using detail::SourceText;
using detail::Val;

namespace {

// ------------------------------------------------------------ constants

const std::vector<std::string> suite_keys = {"name",       "description", "tags",     "include",
                                             "vars",       "target",      "principals", "vectors",
                                             "fragments",  "setup",       "teardown", "cases", "scan"};
const std::vector<std::string> library_keys = {"description", "include", "vectors", "fragments"};
const std::vector<std::string> vector_file_keys = {"set", "description", "vectors"};
const std::vector<std::string> target_keys = {"base_url", "headers", "tls", "timeout", "kafka", "grpc"};
const std::vector<std::string> kafka_target_keys = {"brokers", "properties"};
const std::vector<std::string> grpc_target_keys = {"address", "protos", "import_paths", "reflection", "tls"};
const std::vector<std::string> grpc_keys = {"method", "message", "metadata", "principal", "set", "unset"};
const std::vector<std::string> tls_keys = {"cacert", "cert", "key", "insecure"};
const std::vector<std::string> timeout_keys = {"connect", "read"};
const std::vector<std::string> principal_keys = {"headers"};
const std::vector<std::string> secret_var_keys = {"value", "secret"};
const std::vector<std::string> case_keys = {"name", "description", "rule", "tags", "skip", "for_each", "steps", "requires",
                                            "collected"};
const std::vector<std::string> collected_keys = {"distinct", "same", "time_ordered", "random", "min_count"};
const std::vector<std::string> random_keys = {"prefix"};
const std::vector<std::string> legacy_keys = {"layout", "id", "type", "salt"};
const std::vector<std::string> for_each_keys = {"vectors", "mutations", "count", "as", "only", "except"};
const std::vector<std::string> step_keys = {"name", "http", "call", "kafka", "file", "grpc", "expect", "capture", "use", "cleanup", "repeat"};
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
const std::vector<std::string> expect_keys = {"rule", "status", "status_not", "headers", "json", "body", "id", "advisory",
                                              "id_members"};
const std::vector<std::string> header_ops = {"equals", "regex", "absent", "present"};
const std::vector<std::string> json_ops = {"equals", "absent", "present", "null", "type", "regex", "one_of"};
const std::vector<std::string> json_types = {"string", "number", "integer", "boolean", "object", "array", "null"};
const std::vector<std::string> body_keys = {"contains", "not_contains"};
const std::vector<std::string> id_keys = {"at", "header", "kind", "canonical", "minted", "allow_null", "equals",
                                          "unique", "time_field", "collect", "pattern", "legacy"};
const std::vector<std::string> id_kinds = {"uuid",   "uuidv1", "uuidv3", "uuidv4", "uuidv5",   "uuidv6",
                                           "uuidv7", "uuidv8", "ulid",   "viewable", "uuidv8-legacy"};
const std::vector<std::string> capture_keys = {"json", "header", "status"};

const char* const suite_example = "\n  name: my-suite\n  cases:\n    - name: first case\n      steps: [...]";

// A name written somewhere, to be checked once everything is loaded.
struct Ref {
    std::string name;
    SourcePos pos;
    std::string source_line;
};

struct Fragment {
    Step step;
    std::optional<Ref> principal;
    SourcePos pos;
};

struct SetUse {
    Ref set;
    std::vector<Ref> names;  // only/except entries
};

using detail::read_text;
using detail::valid_name;

// ----------------------------------------------------------------- loader

class Loader {
public:
    std::vector<Diagnostic> diags;

    // Parses `text` (of file `path`) into one YAML document; nullopt with
    // diagnostics when it is broken or empty. `kind` names it ("suite").
    std::optional<YAML::Node> parse(const SourceText& src, const std::string& text, std::string_view kind) {
        Reader r(src, diags);
        return detail::parse_document(r, text, kind,
                                      kind == "suite" ? std::string("a suite needs at least:") + suite_example
                                                      : "an included file holds a vector set (set: name, vectors: [...]) or "
                                                        "fragments (fragments: {name: step})");
    }

    SourceText& keep(SourceText src) {
        sources_.push_back(std::make_unique<SourceText>(std::move(src)));
        return *sources_.back();
    }

    std::optional<Suite> load_suite(const std::string& text, const std::string& path) {
        const SourceText& src = keep(SourceText::from(path, text));
        auto root = parse(src, text, "suite");
        if (!root) return std::nullopt;
        Reader r(src, diags);
        const Val rv{*root, root->Mark()};
        if (!root->IsMap()) {
            r.error(rv, "expected a mapping at the top of the suite file, found " + detail::kind_name(*root),
                    std::string("a suite file is a mapping of keys such as:") + suite_example);
            return std::nullopt;
        }
        auto m = r.mapping(rv, "suite", suite_keys, suite_example);
        if (!m) return std::nullopt;

        Suite s;
        s.file = path;
        s.pos = r.pos(rv);
        s.target.pos = s.pos;
        push_include_frame(path);
        suite_dir_ = fs::path(path).parent_path().string();

        // Includes and fragments first: steps refer to them.
        if (const auto* e = m->find("include")) includes(r, *e);
        if (const auto* e = m->find("vectors")) inline_vectors(r, *e);
        if (const auto* e = m->find("fragments")) fragments(r, *e);

        const auto* name = m->find("name");
        if (!name) {
            r.error(rv, "missing required key 'name' in suite",
                    "add the suite's name (used as the JUnit testsuite name), e.g. name: data-id-basics");
        } else if (auto n = r.string(name->val(), "name", "name: data-id-basics")) {
            if (n->empty())
                r.error(name->val(), "the suite name is empty", "write a name, e.g. name: data-id-basics");
            s.name = *n;
        }
        if (const auto* e = m->find("description"))
            if (auto d = r.string(e->val(), "description", "description: what this suite checks")) s.description = *d;
        if (const auto* e = m->find("tags"))
            if (auto t = r.strings(e->val(), "tags", "tags: [smoke, data-id]")) s.tags = *t;
        if (const auto* e = m->find("vars")) vars(r, *e, s);
        if (const auto* e = m->find("target")) target(r, *e, s.target);
        if (const auto* e = m->find("principals")) principals(r, *e, s);
        if (const auto* e = m->find("scan"))
            if (auto b = r.boolean(e->val(), "scan")) s.scan = *b;
        if (const auto* e = m->find("setup")) s.setup = step_list(r, e->val(), "setup");
        if (const auto* e = m->find("teardown")) s.teardown = step_list(r, e->val(), "teardown");
        if (const auto* e = m->find("cases"))
            cases(r, *e, s);
        else
            r.error(rv, "missing required key 'cases' in suite",
                    "add the list of cases, e.g.\n  cases:\n    - name: create returns a v7 id\n      steps: [...]");

        s.vector_sets = std::move(vector_sets_);  // one suite per Loader: no copy of large sets
        check_references(s);
        if (!s.target.grpc)
            for (const auto& p : grpc_steps_) {
                Diagnostic d;
                d.pos = p;
                d.title = "a grpc step needs the target's grpc section";
                d.hint = "say where the gRPC server is, e.g. target: {grpc: {address: \"${env:IDCONFORM_GRPC_ADDRESS:-127.0.0.1:50051}\"}}";
                diags.push_back(std::move(d));
                break;
            }
        if (!diags.empty()) return std::nullopt;
        return s;
    }

    std::optional<VectorSet> load_vector_set_file(const std::string& text, const std::string& path, bool simple_reader) {
        if (simple_reader)
            if (auto set = detail::read_simple_vector_set(text, path)) return set;
        const SourceText& src = keep(SourceText::from(path, text));
        auto root = parse(src, text, "vector-set");
        if (!root) return std::nullopt;
        Reader r(src, diags);
        const Val rv{*root, root->Mark()};
        auto set = vector_file(r, rv);
        if (!diags.empty()) return std::nullopt;
        return set;
    }

private:
    std::vector<std::unique_ptr<SourceText>> sources_;
    std::map<std::string, VectorSet> vector_sets_;
    std::map<std::string, Fragment> fragments_;
    std::vector<std::string> include_stack_;    // canonical paths of files being loaded
    std::vector<std::string> include_display_;  // the same, as printed
    std::set<std::string> included_;            // canonical paths loaded already
    std::vector<Ref> principal_refs_;
    std::set<std::string> used_fragments_;
    std::vector<SetUse> set_uses_;
    std::vector<SourcePos> grpc_steps_;  // checked against the target's grpc section
    std::string suite_dir_;              // relative paths of the grpc section

    static std::string canonical(const std::string& path) {
        std::error_code ec;
        auto c = fs::weakly_canonical(fs::absolute(path, ec), ec);
        return ec ? path : c.string();
    }

    void push_include_frame(const std::string& path) {
        include_stack_.push_back(canonical(path));
        include_display_.push_back(path);
        included_.insert(include_stack_.back());
    }
    void pop_include_frame() {
        include_stack_.pop_back();
        include_display_.pop_back();
    }

    Ref ref(const Reader& r, const Val& v, std::string name) const {
        Ref out{std::move(name), r.pos(v), {}};
        const auto& lines = r.source().lines;
        if (out.pos.line > 0 && static_cast<std::size_t>(out.pos.line) <= lines.size())
            out.source_line = lines[static_cast<std::size_t>(out.pos.line - 1)];
        return out;
    }

    void error_at(const Ref& at, std::string title, std::string hint) {
        diags.push_back(Diagnostic{at.pos, std::move(title), std::move(hint), at.source_line});
    }

    // ------------------------------------------------------------ includes

    void includes(Reader& r, const Entry& e) {
        auto items = r.sequence(e.val(), "include", "include: [../vectors/rfc9562.yaml, fragments/products.yaml]");
        if (!items) return;
        const std::string from = r.source().path;
        for (const auto& item : *items) {
            auto rel = r.string(item, "include", "- ../vectors/rfc9562.yaml");
            if (!rel) continue;
            include_one(r, item, *rel, from);
        }
    }

    void include_one(Reader& r, const Val& item, const std::string& rel, const std::string& from) {
        const fs::path joined = fs::path(from).parent_path() / rel;
        const std::string display = joined.lexically_normal().string();
        const std::string canon = canonical(display);
        if (auto it = std::find(include_stack_.begin(), include_stack_.end(), canon); it != include_stack_.end()) {
            std::string chain;
            for (auto i = static_cast<std::size_t>(it - include_stack_.begin()); i < include_display_.size(); ++i)
                chain += include_display_[i] + " -> ";
            r.error(item, "include cycle: " + chain + display,
                    "remove this include: a file must not include, directly or indirectly, a file that "
                    "includes it");
            return;
        }
        if (included_.count(canon)) return;  // the same file reached twice: loaded once
        std::error_code ec;
        if (!fs::is_regular_file(display, ec)) {
            r.error(item, "included file '" + rel + "' not found",
                    "looked for " + display + "; include paths are relative to the including file (" + from + ")");
            return;
        }
        auto text = read_text(display);
        if (!text) {
            r.error(item, "cannot read included file '" + rel + "'", "check the permissions of " + display);
            return;
        }
        const std::size_t before = diags.size();
        push_include_frame(display);
        library_file(*text, display);
        pop_include_frame();
        if (diags.size() > before)
            r.error(item, "included file '" + display + "' has errors",
                    "fix the errors reported for " + display + " above");
    }

    // An included file: a vector-set file or a fragment/library file.
    void library_file(const std::string& text, const std::string& path) {
        // Large generated vector sets: no yaml-cpp tree (see simple_vectors.hpp).
        if (auto set = detail::read_simple_vector_set(text, path); set && !vector_sets_.count(set->name)) {
            vector_sets_.emplace(set->name, std::move(*set));
            return;
        }
        const SourceText& src = keep(SourceText::from(path, text));
        auto root = parse(src, text, "included");
        if (!root) return;
        Reader r(src, diags);
        const Val rv{*root, root->Mark()};
        const char* const kinds =
            "an included file holds either a vector set:\n  set: rfc9562\n  vectors: [{name: a6-v7, value: ...}]\n"
            "or fragments (reusable steps):\n  fragments:\n    create_product: {http: {...}, expect: {...}}";
        if (!root->IsMap()) {
            r.error(rv, "expected a mapping at the top of the included file, found " + detail::kind_name(*root),
                    kinds);
            return;
        }
        const YAML::Node& top = *root;  // const: operator[] must not insert keys
        if (top["set"]) {
            if (auto set = vector_file(r, rv)) add_vector_set(r, rv, std::move(*set));
            return;
        }
        if (top["name"] || top["cases"]) {
            r.error(rv, "cannot include a suite file",
                    "only vector-set files and fragment files can be included; run suites side by side instead");
            return;
        }
        if (!top["fragments"] && !top["vectors"]) {
            r.error(rv, "the included file is neither a vector-set file nor a fragment file", kinds);
            return;
        }
        auto m = r.mapping(rv, "fragment file", library_keys, "fragments: {create_product: {http: {...}}}");
        if (!m) return;
        if (const auto* e = m->find("include")) includes(r, *e);
        if (const auto* e = m->find("description")) (void)r.string(e->val(), "description", "description: text");
        if (const auto* e = m->find("vectors")) inline_vectors(r, *e);
        if (const auto* e = m->find("fragments")) fragments(r, *e);
    }

    // ------------------------------------------------------------- vectors

    std::optional<VectorSet> vector_file(Reader& r, const Val& rv) {
        const char* const example = "\n  set: rfc9562\n  vectors:\n    - {name: a6-v7, value: 017f22e2-...}";
        if (!rv.node.IsMap()) {
            r.error(rv, "expected a mapping at the top of the vector-set file, found " + detail::kind_name(rv.node),
                    std::string("a vector-set file looks like:") + example);
            return std::nullopt;
        }
        auto m = r.mapping(rv, "vector-set file", vector_file_keys, example);
        if (!m) return std::nullopt;
        VectorSet set;
        set.pos = r.pos(rv);
        bool ok = true;
        if (const auto* e = m->find("set")) {
            if (auto n = r.string(e->val(), "set", "set: rfc9562")) {
                set.name = *n;
                set.pos = r.pos(e->val());
                if (!valid_name(*n)) {
                    r.error(e->val(), "bad vector set name '" + *n + "'",
                            "names use letters, digits, '_' and '-' and start with a letter, e.g. set: rfc9562");
                    ok = false;
                }
            } else {
                ok = false;
            }
        } else {
            r.error(rv, "missing required key 'set' in vector-set file", "name the set, e.g. set: rfc9562");
            ok = false;
        }
        if (const auto* e = m->find("description"))
            if (auto d = r.string(e->val(), "description", "description: text")) set.description = *d;
        if (const auto* e = m->find("vectors")) {
            if (!vector_entries(r, e->val(), set)) ok = false;
        } else {
            r.error(rv, "missing required key 'vectors' in vector-set file",
                    "list the vectors, e.g.\n  vectors:\n    - {name: a6-v7, value: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f}");
            ok = false;
        }
        if (!ok) return std::nullopt;
        return set;
    }

    bool vector_entries(Reader& r, const Val& v, VectorSet& set) {
        auto items = r.sequence(v, "vectors", "\n  vectors:\n    - {name: a6-v7, value: 017f22e2-...}");
        if (!items) return false;
        bool ok = true;
        std::map<std::string, int> names;  // name -> line
        for (const auto& item : *items) {
            auto m = r.mapping(item, "vector", {}, "{name: a6-v7, value: 017f22e2-..., version: 7}");
            if (!m) {
                ok = false;
                continue;
            }
            Vector vec;
            vec.pos = r.pos(item);
            const auto* name = m->find("name");
            const auto* value = m->find("value");
            if (!name) {
                r.error(item, "missing required key 'name' in vector", "name each vector, e.g. name: a6-v7");
                ok = false;
            } else if (auto n = r.string(name->val(), "name", "name: a6-v7")) {
                vec.name = *n;
                if (auto [it, fresh] = names.emplace(*n, name->val().mark.line + 1); !fresh) {
                    r.error(name->val(), "duplicate vector name '" + *n + "' in set '" + set.name + "'",
                            "vector names must be unique within a set; the first is at line " +
                                std::to_string(it->second));
                    ok = false;
                }
            } else {
                ok = false;
            }
            if (!value) {
                r.error(item, "missing required key 'value' in vector",
                        "give the value the vector stands for (null, 0 and \"\" are allowed), e.g. value: "
                        "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
                ok = false;
            } else if (value->value.IsMap() || value->value.IsSequence()) {
                r.error(value->val(), "expected a scalar here, found " + detail::kind_name(value->value),
                        "a vector's value is one scalar (a string, number, true/false or null); put other "
                        "data in extra keys of the entry");
                ok = false;
            } else if (auto j = r.json(value->val(), false)) {
                vec.value = std::move(*j);
            }
            for (const auto& e : m->entries) {
                if (e.key == "name" || e.key == "value") continue;
                if (auto j = r.json(e.val(), false))
                    vec.fields[e.key] = std::move(*j);
                else
                    ok = false;
            }
            set.vectors.push_back(std::move(vec));
        }
        return ok;
    }

    void add_vector_set(Reader& r, const Val& at, VectorSet set) {
        if (auto it = vector_sets_.find(set.name); it != vector_sets_.end()) {
            r.error(at, "duplicate vector set '" + set.name + "'",
                    "it is already defined at " + it->second.pos.str() + "; rename one of them");
            return;
        }
        vector_sets_.emplace(set.name, std::move(set));
    }

    void inline_vectors(Reader& r, const Entry& e) {
        auto m = r.mapping(e.val(), "vectors", {}, "\n  vectors:\n    my-set:\n      - {name: v1, value: abc}");
        if (!m) return;
        for (const auto& entry : m->entries) {
            VectorSet set;
            set.name = entry.key;
            set.pos = r.pos(entry.key_val());
            if (!valid_name(entry.key)) {
                r.error(entry.key_val(), "bad vector set name '" + entry.key + "'",
                        "names use letters, digits, '_' and '-' and start with a letter, e.g. my-set");
                continue;
            }
            if (vector_entries(r, entry.val(), set)) add_vector_set(r, entry.key_val(), std::move(set));
        }
    }

    // ----------------------------------------------------------- fragments

    void fragments(Reader& r, const Entry& e) {
        auto m = r.mapping(e.val(), "fragments", {},
                           "\n  fragments:\n    create_product:\n      http: {method: POST, path: /v1/products}");
        if (!m) return;
        for (const auto& entry : m->entries) {
            if (!valid_name(entry.key)) {
                r.error(entry.key_val(), "bad fragment name '" + entry.key + "'",
                        "names use letters, digits, '_' and '-' and start with a letter, e.g. create_product");
                continue;
            }
            if (auto it = fragments_.find(entry.key); it != fragments_.end()) {
                r.error(entry.key_val(), "duplicate fragment '" + entry.key + "'",
                        "it is already defined at " + it->second.pos.str() + "; rename one of them");
                continue;
            }
            std::optional<Ref> principal;
            auto step = parse_step(r, entry.val(), "fragment", &principal, /*allow_use=*/false);
            if (!step) continue;
            if (step->name.empty() || step->name == default_step_name(step->request)) step->name = entry.key;
            fragments_.emplace(entry.key, Fragment{std::move(*step), std::move(principal), r.pos(entry.key_val())});
        }
    }

    // ---------------------------------------------------------------- vars

    void vars(Reader& r, const Entry& e, Suite& s) {
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

    // -------------------------------------------------------------- target


    void target(Reader& r, const Entry& e, Target& t) {
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
    std::optional<std::string> grpc_path(Reader& r, const Val& v, const std::string& p, bool directory) {
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

    void grpc_target(Reader& r, const Entry& e, Target& t) {
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

    void principals(Reader& r, const Entry& e, Suite& s) {
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

    // --------------------------------------------------------------- steps

    std::vector<Step> step_list(Reader& r, const Val& v, std::string_view what) {
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

    std::optional<Step> parse_step(Reader& r, const Val& v, std::string_view what, std::optional<Ref>* principal,
                                   bool allow_use) {
        const char* const example = "{http: {method: GET, path: /v1/products}, expect: {status: 200}}";
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
        // One request per step: http, a pack's call, kafka, or a file to scan.
        const Entry* kinds[] = {m->find("http"), m->find("call"), m->find("kafka"), m->find("file"), m->find("grpc")};
        const char* kind_names[] = {"http", "call", "kafka", "file", "grpc"};
        int given = 0;
        const char* first = nullptr;
        for (std::size_t i = 0; i < std::size(kinds); ++i) {
            if (!kinds[i]) continue;
            if (++given > 1) {
                r.error(kinds[i]->key_val(),
                        std::string("a step has one request: '") + first + "' and '" + kind_names[i] +
                            "' cannot both be set",
                        "split it into two steps");
                continue;
            }
            first = kind_names[i];
            if (i == 0) {
                HttpRequest h;
                http(r, *kinds[i], h, principal);
                step.request = std::move(h);
            } else if (i == 1) {
                OpCall c;
                call(r, *kinds[i], c, principal);
                step.request = std::move(c);
            } else if (i == 2) {
                KafkaRequest k;
                kafka(r, *kinds[i], k);
                step.request = std::move(k);
            } else if (i == 4) {
                GrpcCall g;
                grpc_call(r, *kinds[i], g, principal);
                step.request = std::move(g);
                grpc_steps_.push_back(r.pos(kinds[i]->key_val()));
            } else {
                FileScan f;
                file_scan(r, *kinds[i], f);
                step.request = std::move(f);
                for (const char* k : {"expect", "capture", "cleanup"})
                    if (const auto* x = m->find(k))
                        r.error(x->key_val(), std::string("a file step takes no '") + k + "'",
                                "every violation found in the file fails the step; declare id fields under "
                                "file: {fields: {/id: uuidv7}}");
            }
        }
        if (given == 0) {
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
        if (step.is<KafkaRequest>())
            if (const auto* c = m->find("cleanup"))
                r.error(c->key_val(), "'cleanup' is for steps that create an entity over HTTP",
                        "a kafka step creates nothing the run can delete; put cleanup: on the HTTP create step");
        step.expect.pos = step.pos;
        if (const auto* x = m->find("expect")) expect(r, *x, step.expect);
        if (const auto* c = m->find("capture")) captures(r, *c, step.captures);
        if (const auto* c = m->find("cleanup"); c && step.is<GrpcCall>()) {
            r.error(c->key_val(), "'cleanup' is for http steps",
                    "delete what a grpc step created with a teardown step calling the delete method");
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

    std::size_t r_errors() const { return diags.size(); }

    // ---------------------------------------------------------------- kafka

    void kafka(Reader& r, const Entry& e, KafkaRequest& req) {
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
    void topic(Reader& r, const Mapping& m, const Val& at, KafkaRequest& req, std::string_view example) {
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

    void produce(Reader& r, const Entry& e, KafkaRequest& req) {
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

    void consume(Reader& r, const Entry& e, KafkaRequest& req) {
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

    void match(Reader& r, const Val& v, std::vector<KafkaMatch>& out) {
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

    void file_scan(Reader& r, const Entry& e, FileScan& f) {
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

    void http(Reader& r, const Entry& e, HttpRequest& req, std::optional<Ref>* principal) {
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
    void body_edits(Reader& r, const Mapping& m, std::vector<std::pair<std::string, boost::json::value>>& set,
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
    void call(Reader& r, const Entry& e, OpCall& c, std::optional<Ref>* principal) {
        auto m = r.mapping(e.val(), "call", call_keys, "{op: read, id: \"${live_id}\", principal: owner}");
        if (!m) return;
        c.pos = r.pos(e.val());
        if (const auto* x = m->find("op")) {
            if (auto s = r.string(x->val(), "op", "op: read")) {
                if (std::find(op_names().begin(), op_names().end(), *s) == op_names().end())
                    r.error(x->val(), "unknown operation '" + *s + "'", detail::suggest(*s, op_names(), "operations"));
                else
                    c.op = *s;
            }
        } else {
            r.error(e.val(), "missing required key 'op' in call", "name the operation, e.g. op: read");
        }
        const bool needs_id = c.op == "read" || c.op == "update" || c.op == "delete" || c.op == "put";
        if (const auto* x = m->find("id")) {
            if (!needs_id && !c.op.empty())
                r.error(x->key_val(), "'" + c.op + "' takes no id", "only read, update, delete and put name an entity");
            else if (auto s = r.string(x->val(), "id", "id: \"${live_id}\"", true); s && r.check_template_at(x->val(), *s, false))
                c.id = *s;
        } else if (needs_id) {
            r.error(e.val(), "missing required key 'id' in call " + c.op, "say which entity, e.g. id: \"${live_id}\"");
        }
        if (const auto* x = m->find("filter")) {
            if (c.op != "list" && !c.op.empty()) r.error(x->key_val(), "only 'list' takes a filter", "remove filter:");
            c.filter = r.pairs(x->val(), "filter", "{category_id: \"${m}\"}");
        }
        const bool has_body = c.op == "create" || c.op == "update" || c.op == "put";
        for (const char* k : {"json", "set", "unset"})
            if (const auto* x = m->find(k); x && !has_body && !c.op.empty())
                r.error(x->key_val(), "'" + c.op + "' sends no body, so '" + k + "' does not apply",
                        "only create, update and put send a body");
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

    void grpc_call(Reader& r, const Entry& e, GrpcCall& call, std::optional<Ref>* principal) {
        const char* const example = "{method: products.v1.Products/GetProduct, message: {id: \"${id}\"}}";
        auto m = r.mapping(e.val(), "grpc", grpc_keys, example);
        if (!m) return;
        call.pos = r.pos(e.val());
        if (const auto* x = m->find("method")) {
            if (auto s = r.string(x->val(), "method", "method: products.v1.Products/GetProduct")) {
                const bool templated = s->find("${") != std::string::npos;
                const auto slash = s->find('/', s->empty() || s->front() != '/' ? 0 : 1);
                const bool shaped = slash != std::string::npos && slash > 0 && slash + 1 < s->size() &&
                                    s->find('/', slash + 1) == std::string::npos &&
                                    s->find_first_of(" \t") == std::string::npos;
                if (templated) {
                    if (r.check_template_at(x->val(), *s, false)) call.method = *s;
                } else if (!shaped) {
                    r.error(x->val(), "'" + *s + "' is not a gRPC method name",
                            "write package.Service/Method, e.g. products.v1.Products/GetProduct");
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
        if (const auto* x = m->find("set")) {
            if (auto sm = r.mapping(x->val(), "set", {}, "{/category_id: \"${m}\"}")) {
                for (const auto& entry : sm->entries) {
                    if (!r.check_template_at(entry.key_val(), entry.key, false)) continue;
                    if (entry.key.empty() || (entry.key[0] != '/' && entry.key.rfind("${", 0) != 0)) {
                        r.error(entry.key_val(), "'" + entry.key + "' is not a JSON pointer",
                                "a pointer starts with '/', e.g. /category_id");
                        continue;
                    }
                    if (auto j = r.json(entry.val(), true)) call.set.emplace_back(entry.key, std::move(*j));
                }
            }
        }
        if (const auto* x = m->find("unset"))
            if (auto u = r.strings(x->val(), "unset", "unset: [/category_id]", true)) call.unset = *u;
    }

    // -------------------------------------------------------- expectations

    void expect(Reader& r, const Entry& e, Expect& x) {
        auto m = r.mapping(e.val(), "expect", expect_keys, "{status: 200}");
        if (!m) return;
        x.pos = r.pos(e.val());
        if (const auto* y = m->find("rule"))
            if (auto s = r.string(y->val(), "rule", "rule: DATA-ID-002")) x.rule = *s;
        if (const auto* y = m->find("advisory"))
            if (auto b = r.boolean(y->val(), "advisory")) x.advisory = *b;
        const auto* status = m->find("status");
        const auto* status_not = m->find("status_not");
        if (status && status_not)
            r.error(status_not->key_val(), "'status' and 'status_not' cannot both be set",
                    "use status: for the codes that must come, or status_not: for codes that must not");
        else if (status)
            x.status = status_expect(r, status->val(), false);
        else if (status_not)
            x.status = status_expect(r, status_not->val(), true);
        if (const auto* y = m->find("headers")) header_expects(r, y->val(), x.headers);
        if (const auto* y = m->find("json")) json_expects(r, y->val(), x.json);
        if (const auto* y = m->find("body")) {
            if (auto bm = r.mapping(y->val(), "body", body_keys, "{contains: [\"p1\"], not_contains: [\"error\"]}")) {
                BodyExpect b;
                b.pos = r.pos(y->val());
                if (const auto* z = bm->find("contains"))
                    if (auto s = r.strings(z->val(), "contains", "contains: [\"p1\"]", true)) b.contains = *s;
                if (const auto* z = bm->find("not_contains"))
                    if (auto s = r.strings(z->val(), "not_contains", "not_contains: [\"${product_id}\"]", true))
                        b.not_contains = *s;
                x.body = std::move(b);
            }
        }
        if (const auto* y = m->find("id_members")) {
            if (auto s = r.string(y->val(), "id_members", "id_members: ulid")) {
                if (std::find(id_kinds.begin(), id_kinds.end(), *s) == id_kinds.end())
                    r.error(y->val(), "unknown id kind '" + *s + "'", detail::suggest(*s, id_kinds, "kinds"));
                else
                    x.id_members = *s;
            }
        }
        if (const auto* y = m->find("id")) {
            const Val v = y->val();
            if (v.node.IsSequence()) {
                for (const auto& item : v.node)
                    if (auto id = id_expect(r, Val{item, item.Mark()})) x.ids.push_back(std::move(*id));
            } else if (v.node.IsMap()) {
                if (auto id = id_expect(r, v)) x.ids.push_back(std::move(*id));
            } else {
                r.error(v, "expected a mapping or a list of mappings here, found " + detail::kind_name(v.node),
                        "write id: {at: /id, kind: uuidv7} or a list of such checks");
            }
        }
    }

    std::optional<StatusExpect> status_expect(Reader& r, const Val& v, bool negate) {
        StatusExpect st;
        st.pos = r.pos(v);
        st.negate = negate;
        std::vector<Val> items;
        if (v.node.IsSequence()) {
            for (const auto& item : v.node) items.push_back(Val{item, item.Mark()});
            if (items.empty()) {
                r.error(v, "empty status list", "list at least one code or class, e.g. [200, 201] or [4xx]");
                return std::nullopt;
            }
        } else {
            items.push_back(v);
        }
        const char* const hint =
            "write a code from 100 to 599 (e.g. 201) or a class such as 4xx, alone or in a list: [200, 201]; "
            "grpc steps also take a gRPC status (NOT_FOUND, or 0 to 16)";
        bool ok = true;
        for (const auto& item : items) {
            if (!item.node.IsScalar()) {
                r.error(item, "expected a status code or class here, found " + detail::kind_name(item.node), hint);
                ok = false;
                continue;
            }
            const std::string& s = item.node.Scalar();
            const bool digits = !s.empty() && s.size() <= 4 &&
                                std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (digits) {
                const int code = std::stoi(s);
                if (code >= 100 && code <= 599) {
                    st.exact.push_back(code);
                    continue;
                }
                if (code <= grpc_status::max_code && s.size() <= 2) {  // a gRPC code by number
                    st.grpc_codes.push_back(code);
                    continue;
                }
            } else if (s.size() == 3 && s[0] >= '1' && s[0] <= '5' && (s[1] == 'x' || s[1] == 'X') &&
                       (s[2] == 'x' || s[2] == 'X')) {
                st.classes.push_back(s[0] - '0');
                continue;
            } else if (auto code = grpc_status::from_name(s)) {
                st.grpc_codes.push_back(*code);
                continue;
            } else if (std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
                const std::string best = did_you_mean(s, grpc_status::names());
                r.error(item, "unknown gRPC status '" + s + "'",
                        best.empty() ? "gRPC codes are written as their names, e.g. NOT_FOUND or INVALID_ARGUMENT"
                                     : "did you mean '" + best + "'?");
                ok = false;
                continue;
            }
            r.error(item, "bad status '" + s + "'", hint);
            ok = false;
        }
        if (!ok) return std::nullopt;
        return st;
    }

    bool compile_regex(Reader& r, const Val& v, const std::string& pattern) {
        RE2 re(pattern, RE2::Quiet);
        if (re.ok()) return true;
        r.error(v, "bad regular expression '" + pattern + "': " + re.error(),
                "patterns use RE2 syntax (no lookaround or backreferences) and must match the whole value");
        return false;
    }

    void header_expects(Reader& r, const Val& v, std::vector<HeaderExpect>& out) {
        auto m = r.mapping(v, "headers", {}, "{Content-Type: application/json, Location: {regex: \"^/v1/.*\"}}");
        if (!m) return;
        for (const auto& e : m->entries) {
            HeaderExpect h;
            h.name = e.key;
            h.pos = r.pos(e.key_val());
            const Val hv = e.val();
            if (!hv.node.IsMap()) {
                if (auto s = r.string(hv, e.key, "Content-Type: application/json", true)) {
                    h.equals = *s;
                    out.push_back(std::move(h));
                }
                continue;
            }
            auto om = r.mapping(hv, "header check", header_ops, "{regex: \"^application/json\"}");
            if (!om) continue;
            if (om->entries.size() != 1) {
                if (om->entries.size() > 1 || om->self.node.size() == 0)
                    r.error(hv, "a header check takes exactly one of: equals, regex, absent, present",
                            "e.g. Location: {regex: \"^/v1/products/\"} or X-Debug: {absent: true}");
                continue;
            }
            const Entry& op = om->entries.front();
            if (op.key == "equals") {
                if (auto s = r.string(op.val(), "equals", "equals: application/json", true)) h.equals = *s;
                else continue;
            } else if (op.key == "regex") {
                auto s = r.string(op.val(), "regex", "regex: \"^application/json\"");
                if (!s || !compile_regex(r, op.val(), *s)) continue;
                h.regex = *s;
            } else {
                auto b = r.boolean(op.val(), op.key);
                if (!b) continue;
                if (!*b) {
                    r.error(op.val(), "'" + op.key + ": false' is not a check",
                            op.key == "absent" ? "to require the header, write {present: true}"
                                               : "to forbid the header, write {absent: true}");
                    continue;
                }
                (op.key == "absent" ? h.absent : h.present) = true;
            }
            out.push_back(std::move(h));
        }
    }

    bool pointer_ok(Reader& r, const Val& v, const std::string& pointer) {
        // A pointer may come from a variable (pack suites: at: "${res.id_at}").
        if (pointer.find("${") != std::string::npos) return r.check_template_at(v, pointer, false);
        const std::string why = detail::check_json_pointer(pointer);
        if (why.empty()) return true;
        r.error(v, "bad JSON pointer '" + pointer + "'",
                why + ", e.g. /id or /items/0/id; '' is the whole body (RFC 6901)");
        return false;
    }

    void json_expects(Reader& r, const Val& v, std::vector<JsonExpect>& out) {
        auto m = r.mapping(v, "json", {}, "{/name: p1, /id: {type: string}}");
        if (!m) return;
        for (const auto& e : m->entries) {
            if (!pointer_ok(r, e.key_val(), e.key)) continue;
            JsonExpect j;
            j.pointer = e.key;
            j.pos = r.pos(e.key_val());
            const Val jv = e.val();
            // A one-key mapping whose key is an operator is a check; a key
            // close to one is a typo, not an object to compare with.
            if (jv.node.IsMap() && jv.node.size() == 1) {
                const YAML::Node key = jv.node.begin()->first;
                const std::string k = detail::key_text(key).value_or("");
                const bool is_op = std::find(json_ops.begin(), json_ops.end(), k) != json_ops.end();
                if (!is_op) {
                    const std::string best = did_you_mean(k, json_ops);
                    if (!best.empty()) {
                        r.error({key, key.Mark()}, "unknown operator '" + k + "' in json check",
                                "did you mean '" + best + "'? To compare with an object, write {equals: {" + k +
                                    ": ...}}");
                        continue;
                    }
                } else {
                    if (auto op = json_op(r, jv, j)) out.push_back(std::move(*op));
                    continue;
                }
            }
            if (auto val = r.json(jv, true)) {
                j.op = JsonOp::equals;
                j.operand = std::move(*val);
                out.push_back(std::move(j));
            }
        }
    }

    std::optional<JsonExpect> json_op(Reader& r, const Val& v, JsonExpect j) {
        auto m = r.mapping(v, "json check", json_ops, "{type: string}");
        if (!m || m->entries.empty()) return std::nullopt;
        const Entry& op = m->entries.front();
        const Val ov = op.val();
        if (op.key == "equals") {
            auto val = r.json(ov, true);
            if (!val) return std::nullopt;
            j.op = JsonOp::equals;
            j.operand = std::move(*val);
        } else if (op.key == "one_of") {
            if (!ov.node.IsSequence() || ov.node.size() == 0) {
                r.error(ov, "expected a non-empty list here, found " + detail::kind_name(ov.node),
                        "one_of takes the allowed values, e.g. {one_of: [a, b]}");
                return std::nullopt;
            }
            auto val = r.json(ov, true);
            if (!val) return std::nullopt;
            j.op = JsonOp::one_of;
            j.operand = std::move(*val);
        } else if (op.key == "type") {
            auto s = r.string(ov, "type", "type: string");
            if (!s) return std::nullopt;
            if (std::find(json_types.begin(), json_types.end(), *s) == json_types.end()) {
                r.error(ov, "unknown JSON type '" + *s + "'", detail::suggest(*s, json_types, "types"));
                return std::nullopt;
            }
            j.op = JsonOp::type;
            j.operand = boost::json::value(*s);
        } else if (op.key == "regex") {
            auto s = r.string(ov, "regex", "regex: \"^[0-9a-f-]{36}$\"");
            if (!s || !compile_regex(r, ov, *s)) return std::nullopt;
            j.op = JsonOp::regex;
            j.operand = boost::json::value(*s);
        } else {
            auto b = r.boolean(ov, op.key);
            if (!b) return std::nullopt;
            if (!*b) {
                r.error(ov, "'" + op.key + ": false' is not a check",
                        op.key == "absent"  ? "to require the member, write {present: true}"
                        : op.key == "present" ? "to forbid the member, write {absent: true}"
                                              : "to forbid null, write {type: ...} with the expected type");
                return std::nullopt;
            }
            j.op = op.key == "absent" ? JsonOp::absent : op.key == "present" ? JsonOp::present : JsonOp::null;
        }
        return j;
    }

    std::optional<IdExpect> id_expect(Reader& r, const Val& v) {
        auto m = r.mapping(v, "id", id_keys, "{at: /id, kind: uuidv7, minted: true}");
        if (!m) return std::nullopt;
        const std::size_t before = diags.size();
        IdExpect id;
        id.pos = r.pos(v);
        const auto* at = m->find("at");
        const auto* header = m->find("header");
        if (at && header) {
            r.error(header->key_val(), "an id check takes 'at' or 'header', not both",
                    "write one check per place: {at: /id} for the body, {header: Location} for a header");
        } else if (!at && !header) {
            r.error(v, "an id check needs 'at' or 'header'",
                    "say where the id is, e.g. {at: /id, kind: uuidv7} or {header: Location, kind: uuidv7}");
        }
        if (at)
            if (auto s = r.string(at->val(), "at", "at: /id"); s && pointer_ok(r, at->val(), *s)) id.at = *s;
        if (header)
            if (auto s = r.string(header->val(), "header", "header: Location")) id.header = *s;
        if (const auto* k = m->find("kind")) {
            if (auto s = r.string(k->val(), "kind", "kind: uuidv7")) {
                if (std::find(id_kinds.begin(), id_kinds.end(), *s) == id_kinds.end())
                    r.error(k->val(), "unknown id kind '" + *s + "'", detail::suggest(*s, id_kinds, "kinds"));
                else
                    id.kind = *s;
            }
        }
        if (const auto* b = m->find("canonical"))
            if (auto x = r.boolean(b->val(), "canonical")) id.canonical = *x;
        if (const auto* b = m->find("minted"))
            if (auto x = r.boolean(b->val(), "minted")) id.minted = *x;
        if (const auto* b = m->find("allow_null"))
            if (auto x = r.boolean(b->val(), "allow_null")) id.allow_null = *x;
        if (const auto* q = m->find("equals"))
            if (auto s = r.string(q->val(), "equals", "equals: \"${product_id}\"", true)) id.equals = *s;
        if (const auto* b = m->find("unique"))
            if (auto x = r.boolean(b->val(), "unique")) id.unique = *x;
        if (const auto* q = m->find("time_field"))
            if (auto s = r.string(q->val(), "time_field", "time_field: /created_at"); s && pointer_ok(r, q->val(), *s))
                id.time_field = *s;
        if (const auto* q = m->find("collect")) {
            if (auto s = r.string(q->val(), "collect", "collect: order_ids")) {
                if (!valid_name(*s))
                    r.error(q->val(), "bad list name '" + *s + "'",
                            "names use letters, digits, '_' and '-' and start with a letter, e.g. collect: order_ids");
                else
                    id.collect = *s;
            }
        }
        if (const auto* q = m->find("pattern")) {
            if (auto s = r.string(q->val(), "pattern", "pattern: \"^TR-[0-9A-HJKMNP-TV-Z]{7}$\"", true)) {
                // A pattern that is a variable is compiled when it is used.
                if (s->find("${") != std::string::npos || compile_regex(r, q->val(), *s)) id.pattern = *s;
            }
        }
        if (const auto* q = m->find("legacy")) {
            const char* const example = "{layout: \"${res.legacy_layout}\", id: \"${lid}\", type: 500, salt: \"${res.legacy_salt}\"}";
            if (auto lm = r.mapping(q->val(), "legacy", legacy_keys, example)) {
                IdExpect::Legacy l;
                l.pos = r.pos(q->val());
                std::string* slots[] = {&l.layout, &l.legacy_id, &l.entity_type, &l.salt};
                const char* names[] = {"layout", "id", "type", "salt"};
                for (std::size_t i = 0; i < 4; ++i)
                    if (const auto* z = lm->find(names[i]))
                        if (auto s = r.string(z->val(), names[i], example, true)) *slots[i] = *s;
                id.legacy = std::move(l);
            }
            if (id.kind != "uuidv8-legacy")
                r.error(q->key_val(), "'legacy' checks need kind: uuidv8-legacy (found kind '" + id.kind + "')",
                        "write {at: /id, kind: uuidv8-legacy, legacy: {...}}");
        }
        if (diags.size() != before) return std::nullopt;
        return id;
    }

    void captures(Reader& r, const Entry& e, std::vector<Capture>& out) {
        auto m = r.mapping(e.val(), "capture", {}, "{product_id: /id, location: {header: Location}}");
        if (!m) return;
        for (const auto& entry : m->entries) {
            if (!valid_name(entry.key)) {
                r.error(entry.key_val(), "bad variable name '" + entry.key + "'",
                        "variable names use letters, digits, '_' and '-' and start with a letter or '_'");
                continue;
            }
            Capture c;
            c.var = entry.key;
            c.pos = r.pos(entry.key_val());
            const Val v = entry.val();
            if (v.node.IsScalar()) {
                auto s = r.string(v, entry.key, "product_id: /id");
                if (!s || !pointer_ok(r, v, *s)) continue;
                c.from = Capture::From::json;
                c.path = *s;
                out.push_back(std::move(c));
                continue;
            }
            auto cm = r.mapping(v, "capture source", capture_keys, "{header: Location}");
            if (!cm) continue;
            if (cm->entries.size() != 1) {
                if (cm->entries.size() > 1 || v.node.size() == 0)
                    r.error(v, "a capture takes exactly one of: json, header, status",
                            "e.g. {json: /id}, {header: Location} or {status: true}");
                continue;
            }
            const Entry& src = cm->entries.front();
            if (src.key == "json") {
                auto s = r.string(src.val(), "json", "json: /id");
                if (!s || !pointer_ok(r, src.val(), *s)) continue;
                c.from = Capture::From::json;
                c.path = *s;
            } else if (src.key == "header") {
                auto s = r.string(src.val(), "header", "header: Location");
                if (!s) continue;
                c.from = Capture::From::header;
                c.path = *s;
            } else {
                auto b = r.boolean(src.val(), "status");
                if (!b) continue;
                if (!*b) {
                    r.error(src.val(), "'status: false' captures nothing", "write {status: true}");
                    continue;
                }
                c.from = Capture::From::status;
            }
            out.push_back(std::move(c));
        }
    }

    // --------------------------------------------------------------- cases

    void cases(Reader& r, const Entry& e, Suite& s) {
        auto items = r.sequence(e.val(), "cases", "\n  cases:\n    - name: first case\n      steps: [...]");
        if (!items) return;
        std::map<std::string, SourcePos> names;
        for (const auto& item : *items) {
            auto c = parse_case(r, item);
            if (!c) continue;
            if (auto [it, fresh] = names.emplace(c->name, c->pos); !fresh) {
                r.error(item, "duplicate case name '" + c->name + "'",
                        "case names must be unique in a suite (they name the JUnit test cases); the first is "
                        "at line " + std::to_string(it->second.line));
                continue;
            }
            s.cases.push_back(std::move(*c));
        }
    }

    std::optional<Case> parse_case(Reader& r, const Val& v) {
        auto m = r.mapping(v, "case", case_keys, "{name: first case, steps: [...]}");
        if (!m) return std::nullopt;
        const std::size_t before = diags.size();
        Case c;
        c.pos = r.pos(v);
        if (const auto* n = m->find("name")) {
            if (auto s = r.string(n->val(), "name", "name: create returns a v7 id")) {
                if (s->empty()) r.error(n->val(), "the case name is empty", "write a name, e.g. name: create works");
                c.name = *s;
            }
        } else {
            r.error(v, "missing required key 'name' in case",
                    "name the case (it becomes the JUnit test case name), e.g. name: create returns a v7 id");
        }
        if (const auto* x = m->find("description"))
            if (auto s = r.string(x->val(), "description", "description: text")) c.description = *s;
        if (const auto* x = m->find("rule"))
            if (auto s = r.strings(x->val(), "rule", "rule: DATA-ID-001 or rule: [DATA-ID-001, DATA-ID-002]"))
                c.rules = *s;
        if (const auto* x = m->find("tags"))
            if (auto s = r.strings(x->val(), "tags", "tags: [create]")) c.tags = *s;
        if (const auto* x = m->find("skip")) {
            if (auto s = r.string(x->val(), "skip", "skip: \"waiting for ticket 123\"")) {
                if (s->empty())
                    r.error(x->val(), "empty skip reason", "say why the case is skipped, e.g. skip: \"ticket 123\"");
                c.skip = *s;
            }
        }
        if (const auto* x = m->find("for_each")) c.for_each = for_each(r, x->val());
        if (const auto* x = m->find("requires"))
            if (auto s = r.strings(x->val(), "requires", "requires: [res.put]")) c.needs = *s;
        collected_marks_.clear();
        if (const auto* x = m->find("collected")) collected(r, x->val(), c);
        if (const auto* x = m->find("steps")) {
            c.steps = step_list(r, x->val(), "steps");
            if (x->val().node.IsSequence() && x->val().node.size() == 0)
                r.error(x->val(), "the case has no steps",
                        "add at least one step, e.g. - http: {method: GET, path: /v1/products}");
        } else if (!c.skip.empty()) {
            // A rule nothing can observe from outside: reported skipped with its reason.
        } else {
            r.error(v, "missing required key 'steps' in case",
                    "list the steps, e.g.\n  steps:\n    - http: {method: GET, path: /v1/products}");
        }
        for (std::size_t i = 0; i < c.collected.size() && i < collected_marks_.size(); ++i) {
            const auto& ce = c.collected[i];
            bool found = false;
            for (const auto& st : c.steps)
                for (const auto& id : st.expect.ids) found = found || id.collect == ce.list;
            if (!found)
                r.error(collected_marks_[i], "nothing collects '" + ce.list + "' in this case",
                        "add collect: " + ce.list + " to an id check of a step, e.g. id: {at: /id, kind: ulid, collect: " +
                            ce.list + "}");
        }
        if (diags.size() != before) return std::nullopt;
        return c;
    }

    // `collected: {LIST: {distinct: true, ...}}`; every LIST must be
    // collected by some id check of the case (checked after the steps load).
    void collected(Reader& r, const Val& v, Case& c) {
        const char* const example = "{order_ids: {time_ordered: true, distinct: true}}";
        collected_marks_.clear();
        auto m = r.mapping(v, "collected", {}, example);
        if (!m) return;
        for (const auto& entry : m->entries) {
            auto cm = r.mapping(entry.val(), "collected list", collected_keys, "{distinct: true, min_count: 50}");
            if (!cm) continue;
            CollectedExpect ce;
            ce.pos = r.pos(entry.key_val());
            ce.list = entry.key;
            bool any = false;
            for (auto [key, slot] : {std::pair{"distinct", &ce.distinct}, std::pair{"same", &ce.same},
                                     std::pair{"time_ordered", &ce.time_ordered}})
                if (const auto* x = cm->find(key))
                    if (auto b = r.boolean(x->val(), key)) {
                        *slot = *b;
                        any = any || *b;
                    }
            if (const auto* x = cm->find("random")) {
                const Val rv = x->val();
                if (rv.node.IsMap()) {
                    if (auto rm = r.mapping(rv, "random", random_keys, "{prefix: \"TR-\"}")) {
                        std::string prefix;
                        if (const auto* p = rm->find("prefix"))
                            if (auto s = r.string(p->val(), "prefix", "prefix: \"TR-\"", true)) prefix = *s;
                        ce.random = prefix;
                        any = true;
                    }
                } else if (auto b = r.boolean(rv, "random")) {
                    if (*b) ce.random = std::string();
                    any = any || *b;
                }
            }
            if (const auto* x = cm->find("min_count")) {
                auto n = r.json(x->val(), false);
                if (!n || !n->is_int64() || n->as_int64() < 1 || n->as_int64() > 100000)
                    r.error(x->val(), "min_count must be an integer from 1 to 100000", "e.g. min_count: 50");
                else
                    ce.min_count = static_cast<int>(n->as_int64());
            }
            if (!any)
                r.error(entry.val(), "the collected list '" + entry.key + "' is checked for nothing",
                        "say what must hold, e.g. " + entry.key + ": {distinct: true}");
            c.collected.push_back(std::move(ce));
            collected_marks_.push_back(entry.key_val().mark);
        }
    }
    std::vector<YAML::Mark> collected_marks_;  // of the case being parsed, for the check after its steps

    std::optional<ForEach> for_each(Reader& r, const Val& v) {
        auto m = r.mapping(v, "for_each", for_each_keys, "{vectors: rfc9562, as: v}");
        if (!m) return std::nullopt;
        ForEach fe;
        fe.pos = r.pos(v);
        const auto* vectors = m->find("vectors");
        const auto* mutations = m->find("mutations");
        if (const auto* count = m->find("count")) {
            if (vectors || mutations) {
                r.error(count->key_val(), "for_each takes one of 'vectors', 'mutations' or 'count'",
                        "repeat a case N times with for_each: {count: 20}, in a case of its own");
                return std::nullopt;
            }
            auto n = r.json(count->val(), false);
            if (!n || !n->is_int64() || n->as_int64() < 1 || n->as_int64() > 100000) {
                r.error(count->val(), "count must be an integer from 1 to 100000", "e.g. for_each: {count: 20}");
                return std::nullopt;
            }
            fe.source = ForEach::Source::count;
            fe.count = static_cast<int>(n->as_int64());
            if (const auto* a = m->find("as"))
                if (auto s = r.string(a->val(), "as", "as: n")) fe.as = *s;
            return fe;
        }
        if (vectors && mutations) {
            r.error(mutations->key_val(), "for_each takes 'vectors' or 'mutations', not both",
                    "loop over a vector set (vectors: rfc9562) or over the mutations of an id (mutations: "
                    "\"${product_id}\") in separate cases");
            return std::nullopt;
        }
        if (!vectors && !mutations) {
            r.error(v, "for_each needs 'vectors' or 'mutations'",
                    "e.g. for_each: {vectors: rfc9562, as: v} or for_each: {mutations: \"${product_id}\", as: m}");
            return std::nullopt;
        }
        std::optional<Ref> set_ref;
        if (vectors) {
            auto s = r.string(vectors->val(), "vectors", "vectors: rfc9562");
            if (!s) return std::nullopt;
            fe.source = ForEach::Source::vectors;
            fe.set = *s;
            set_ref = ref(r, vectors->val(), *s);
        } else {
            auto s = r.string(mutations->val(), "mutations", "mutations: \"${product_id}\"", true);
            if (!s) return std::nullopt;
            fe.source = ForEach::Source::mutations;
            fe.set = *s;
        }
        if (const auto* a = m->find("as")) {
            if (auto s = r.string(a->val(), "as", "as: v")) {
                if (!valid_name(*s))
                    r.error(a->val(), "bad variable name '" + *s + "'",
                            "variable names use letters, digits, '_' and '-' and start with a letter or '_'");
                fe.as = *s;
            }
        }
        SetUse use;
        for (const char* key : {"only", "except"}) {
            const auto* x = m->find(key);
            if (!x) continue;
            auto items = r.sequence(x->val(), key, std::string(key) + ": [a6-v7]");
            if (!items) continue;
            for (const auto& item : *items) {
                auto s = r.string(item, key, std::string(key) + ": [a6-v7]");
                if (!s) continue;
                (std::string_view(key) == "only" ? fe.only : fe.except).push_back(*s);
                use.names.push_back(ref(r, item, *s));
            }
        }
        if (set_ref) {
            use.set = *set_ref;
            set_uses_.push_back(std::move(use));
        }
        return fe;
    }

    // ---------------------------------------------------- cross references

    void check_references(const Suite& s) {
        std::vector<std::string> principal_names;
        for (const auto& [name, p] : s.principals) principal_names.push_back(name);
        for (const auto& pr : principal_refs_) {
            if (s.principals.count(pr.name)) continue;
            const std::string best = did_you_mean(pr.name, principal_names);
            error_at(pr, "unknown principal '" + pr.name + "'",
                     !best.empty() ? "did you mean '" + best + "'?"
                     : principal_names.empty()
                         ? "define it under 'principals:', e.g. principals: {" + pr.name +
                               ": {headers: {Authorization: \"Bearer ...\"}}}"
                         : "define it under 'principals:'; defined: " + detail::join(principal_names));
        }
        std::vector<std::string> set_names;
        for (const auto& [name, set] : s.vector_sets) set_names.push_back(name);
        for (const auto& use : set_uses_) {
            auto it = s.vector_sets.find(use.set.name);
            if (it == s.vector_sets.end()) {
                const std::string best = did_you_mean(use.set.name, set_names);
                error_at(use.set, "unknown vector set '" + use.set.name + "'",
                         !best.empty() ? "did you mean '" + best + "'?"
                                       : "include a vector-set file that defines it (include: "
                                         "[../vectors/file.yaml]) or define it under 'vectors:'");
                continue;
            }
            std::vector<std::string> vector_names;
            for (const auto& vec : it->second.vectors) vector_names.push_back(vec.name);
            for (const auto& n : use.names) {
                if (std::find(vector_names.begin(), vector_names.end(), n.name) != vector_names.end()) continue;
                error_at(n, "unknown vector '" + n.name + "' in set '" + use.set.name + "'",
                         detail::suggest(n.name, vector_names, "vectors of the set"));
            }
        }
    }
};

Diagnostic file_error(const std::string& path, const std::string& what) {
    Diagnostic d;
    d.pos.file = path;
    d.title = what;
    std::error_code ec;
    d.hint = fs::exists(path, ec) ? "check the file's permissions"
                                  : "check the path; relative paths are relative to the current directory (" +
                                        fs::current_path(ec).string() + ")";
    return d;
}

}  // namespace

LoadResult load_text(const std::string& text, const std::string& path) {
    LoadResult out;
    Loader loader;
    try {
        auto suite = loader.load_suite(text, path);
        out.diagnostics = std::move(loader.diags);
        if (out.diagnostics.empty() && suite) out.suite = std::move(*suite);
    } catch (const std::exception& e) {
        // yaml-cpp or the allocator; never let it cross the component boundary.
        out.suite.reset();
        out.diagnostics = std::move(loader.diags);
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0}, std::string("internal error while loading: ") + e.what(),
                                             "please report this with the suite file", {}});
    }
    return out;
}

LoadResult load_file(const std::string& path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        LoadResult out;
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0}, "'" + path + "' is a directory, not a suite file",
                                             "pass a .yaml file, or let expand_suite_paths list the directory", {}});
        return out;
    }
    auto text = read_text(path);
    if (!text) {
        LoadResult out;
        out.diagnostics.push_back(file_error(path, "cannot read suite file: no such file or directory"));
        if (fs::exists(path, ec)) out.diagnostics.back().title = "cannot read suite file";
        return out;
    }
    return load_text(*text, path);
}

VectorLoadResult load_vector_file(const std::string& path, bool simple_reader) {
    VectorLoadResult out;
    auto text = read_text(path);
    if (!text) {
        out.diagnostics.push_back(file_error(path, "cannot read vector-set file"));
        return out;
    }
    Loader loader;
    try {
        auto set = loader.load_vector_set_file(*text, path, simple_reader);
        out.diagnostics = std::move(loader.diags);
        if (out.diagnostics.empty() && set) out.set = std::move(*set);
    } catch (const std::exception& e) {
        out.set.reset();
        out.diagnostics = std::move(loader.diags);
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0}, std::string("internal error while loading: ") + e.what(),
                                             "please report this with the vector file", {}});
    }
    return out;
}

}  // namespace idconform::suite
