// The suite loader: YAML text -> validated suite model. Every problem found
// becomes a Diagnostic at the offending node; loading goes on after an error
// so one run shows all of them, and the suite is returned only when there
// were none. This file: the top of a suite (its keys, in order), cross
// references checked once everything is loaded, and the public functions.
// The sections: load_includes.cpp, load_target.cpp, load_steps.cpp,
// load_expect.cpp, load_cases.cpp (all over yaml_reader.hpp).
#include "suite/input_guard.hpp"
#include "suite/loader_impl.hpp"

#include "suite/simple_vectors.hpp"
#include "suite/target_reader.hpp"

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

const std::vector<std::string> suite_keys = {"name",       "description", "tags",     "include",
                                             "vars",       "target",      "principals", "vectors",
                                             "fragments",  "setup",       "teardown", "cases", "scan",
                                             "refused",    "preflight"};
const char* const suite_example = "\n  name: my-suite\n  cases:\n    - name: first case\n      steps: [...]";

}  // namespace

// Parses `text` (of file `path`) into one YAML document; nullopt with
// diagnostics when it is broken or empty. `kind` names it ("suite").
std::optional<YAML::Node> Loader::parse(const SourceText& src, const std::string& text, std::string_view kind) {
    Reader r(src, diags);
    return detail::parse_document(r, text, kind,
                                  kind == "suite" ? std::string("a suite needs at least:") + suite_example
                                                  : "an included file holds a vector set (set: name, vectors: [...]) or "
                                                    "fragments (fragments: {name: step})");
}

SourceText& Loader::keep(SourceText src) {
    sources_.push_back(std::make_unique<SourceText>(std::move(src)));
    return *sources_.back();
}

std::optional<Suite> Loader::load_suite(const std::string& text, const std::string& path) {
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
    if (const auto* e = m->find("refused"))
        if (auto codes = read_refused(r, e->val())) s.refused = std::move(*codes);
    if (const auto* e = m->find("preflight"))
        if (auto b = r.boolean(e->val(), "preflight")) s.preflight = *b;
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

std::optional<VectorSet> Loader::load_vector_set_file(const std::string& text, const std::string& path, bool simple_reader) {
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

std::string Loader::canonical(const std::string& path) {
    std::error_code ec;
    auto c = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? path : c.string();
}

void Loader::push_include_frame(const std::string& path) {
    include_stack_.push_back(canonical(path));
    include_display_.push_back(path);
    included_.insert(include_stack_.back());
}

void Loader::pop_include_frame() {
    include_stack_.pop_back();
    include_display_.pop_back();
}

Ref Loader::ref(const Reader& r, const Val& v, std::string name) const {
    Ref out{std::move(name), r.pos(v), {}};
    const auto& lines = r.source().lines;
    if (out.pos.line > 0 && static_cast<std::size_t>(out.pos.line) <= lines.size())
        out.source_line = lines[static_cast<std::size_t>(out.pos.line - 1)];
    return out;
}

void Loader::error_at(const Ref& at, std::string title, std::string hint) {
    diags.push_back(Diagnostic{at.pos, std::move(title), std::move(hint), at.source_line});
}

void Loader::check_references(const Suite& s) {
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

}  // namespace idconform::suite::detail

namespace idconform::suite {

namespace fs = std::filesystem;


LoadResult load_text(const std::string& text, const std::string& path) {
    LoadResult out;
    detail::Loader loader;
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
    auto text = detail::read_input_file(path, "suite file");
    if (!text.text) {
        LoadResult out;
        out.diagnostics.push_back(std::move(text.error));
        return out;
    }
    return load_text(*text.text, path);
}

VectorLoadResult load_vector_file(const std::string& path, bool simple_reader) {
    VectorLoadResult out;
    auto text = detail::read_input_file(path, "vector-set file");
    if (!text.text) {
        out.diagnostics.push_back(std::move(text.error));
        return out;
    }
    detail::Loader loader;
    try {
        auto set = loader.load_vector_set_file(*text.text, path, simple_reader);
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
