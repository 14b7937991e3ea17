// Loading machine schema documents with positions and resolving `$ref`s
// across files. See spec.hpp.
#include "schema/spec.hpp"

#include "core/strings.hpp"
#include "schema/json_tree.hpp"
#include "schema/yaml_tree.hpp"

#include "suite/input_guard.hpp"
#include "suite/yaml_reader.hpp"

#include <filesystem>
#include <algorithm>
#include <set>

namespace idconform::schema {

namespace fs = std::filesystem;

namespace {

YAML::Mark mark_of(const YAML::Node& n) { return n.Mark(); }

// A JSON document (its first byte '{') read by the JSON reader when it is
// plain JSON that passes the input boundary's checks (size, NUL, UTF-8).
// Else any text that passes them by the one-pass YAML reader; nullopt sends
// it the two-pass way of the input boundary (parse_document: pre-parse, then
// YAML::Load), which reports whatever is wrong with it.
// `duplicates` says whether some mapping has a key twice (the readers see
// it on the way). `checked`: the text has passed input::check_text already.
std::optional<YAML::Node> fast_path(const std::string& text, bool checked, bool& duplicates) {
    if (text.size() > SpecSet::max_document_bytes || (!checked && input::check_text(text, ""))) return std::nullopt;
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first != std::string::npos && text[first] == '{')
        if (auto doc = detail::read_json_tree(text, detail::json_tree_max_depth, &duplicates)) return doc;
    return detail::read_yaml_tree(text, detail::yaml_tree_max_depth, &duplicates);
}

// The lines diagnostics quote (as suite::detail::SourceText::from cuts them).
std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

}  // namespace

void append_pointer_token(std::string& pointer, std::string_view token) {
    pointer += '/';
    if (token.find_first_of("~/") == std::string_view::npos) {  // the usual token: nothing to escape
        pointer += token;
        return;
    }
    for (char c : token) {
        if (c == '~') pointer += "~0";
        else if (c == '/') pointer += "~1";
        else pointer += c;
    }
}

Loc Loc::child(const std::string& key) const {
    Loc out;
    if (!valid() || !node.IsMap()) return out;
    // the first member of that key, as yaml-cpp's iteration finds it, without a YAML::Node per step
    using detail::yaml_access;
    const YAML::detail::node& map = *yaml_access::node_of(node);
    for (auto it = map.begin(), end = map.end(); it != end; ++it) {
        if (it->first->type() != YAML::NodeType::Scalar || it->first->scalar() != key) continue;
        out.file = file;
        out.node.reset(yaml_access::wrap(const_cast<YAML::detail::node&>(*it->second), yaml_access::memory_of(node)));
        out.pointer.reserve(pointer.size() + key.size() + 1);
        out.pointer = pointer;
        append_pointer_token(out.pointer, key);
        out.mark = it->first->mark();
        return out;
    }
    return out;
}

void Loc::children(const std::string_view* keys, std::size_t n, Loc* out) const {
    if (!valid() || !node.IsMap()) return;
    using detail::yaml_access;
    const YAML::detail::node& map = *yaml_access::node_of(node);
    for (auto it = map.begin(), end = map.end(); it != end; ++it) {
        if (it->first->type() != YAML::NodeType::Scalar) continue;
        const std::string& k = it->first->scalar();
        for (std::size_t i = 0; i < n; ++i) {
            if (out[i].file || keys[i] != k) continue;  // the first of equal keys, as child()
            Loc& c = out[i];
            c.file = file;
            c.node.reset(yaml_access::wrap(const_cast<YAML::detail::node&>(*it->second), yaml_access::memory_of(node)));
            c.pointer.reserve(pointer.size() + k.size() + 1);
            c.pointer = pointer;
            append_pointer_token(c.pointer, k);
            c.mark = it->first->mark();
            break;
        }
    }
}

Loc Loc::at(std::size_t index) const {
    Loc out;
    if (!valid() || !node.IsSequence() || index >= node.size()) return out;
    out.file = file;
    out.node.reset(node[index]);
    out.pointer.reserve(pointer.size() + 8);
    out.pointer = pointer;
    out.pointer += '/';
    out.pointer += std::to_string(index);
    out.mark = out.node.Mark();
    return out;
}

SourcePos Loc::pos() const {
    SourcePos p;
    if (!file) return p;
    p.file = file->path;
    p.line = mark.line >= 0 ? mark.line + 1 : 1;
    p.column = mark.column >= 0 ? mark.column + 1 : 1;
    return p;
}

std::string_view to_string(SpecKind k) noexcept {
    switch (k) {
        case SpecKind::openapi30: return "OpenAPI 3.0";
        case SpecKind::openapi31: return "OpenAPI 3.1";
        case SpecKind::swagger20: return "Swagger 2.0";
        case SpecKind::unknown: break;
    }
    return "unknown";
}

std::optional<std::string> scalar(const YAML::Node& map, const char* key) {
    if (!map.IsMap()) return std::nullopt;
    const YAML::Node v = get(map, key);
    if (!v.IsDefined() || !v.IsScalar()) return std::nullopt;
    return v.Scalar();
}

bool is_true(const YAML::Node& map, const char* key) {
    const auto v = scalar(map, key);
    return v && (*v == "true" || *v == "True" || *v == "TRUE");
}

const SpecFile* SpecSet::file(const std::string& path, const Loc* from) {
    const std::string key = fs::path(path).lexically_normal().string();
    if (auto it = files_.find(key); it != files_.end()) return it->second.get();
    if (failed_.count(key)) return nullptr;
    std::vector<Diagnostic> out;
    auto fail = [&](Diagnostic d) {
        failed_[key] = true;
        if (from) {
            d.title = "cannot load the file a $ref names: " + d.title;
            if (d.pos.file.empty() || d.pos.line == 0) d.pos = from->pos();
        }
        diags_.push_back(std::move(d));
        return nullptr;
    };
    // Through the one input guard: a $ref target may not be a pipe, a
    // device or under /proc, /sys or /dev; NUL, invalid UTF-8 and UTF-16
    // are reported at line:col; the size is capped there.
    auto in = suite::detail::read_input_file(key, "schema document",
                                             from ? input::NamedBy::file : input::NamedBy::user);
    if (!in.text) return fail(std::move(in.error));
    return adopt(key, *in.text, from, true);
}

// The parse of one file's text (read by file(), or given by load_text).
const SpecFile* SpecSet::adopt(const std::string& key, const std::string& text, const Loc* from, bool checked) {
    std::vector<Diagnostic> out;
    auto sf = std::make_unique<SpecFile>();
    sf->path = key;
    bool duplicates = true;  // unless a one-pass reader saw none
    auto doc = fast_path(text, checked, duplicates);
    if (!doc) {
        // the input boundary's read, whose diagnostics quote the lines
        // (SourceText::from keeps none above the suites' 8 MiB)
        suite::detail::SourceText source;
        source.path = key;
        source.lines = split_lines(text);
        suite::detail::Reader r(source, out);
        doc = suite::detail::parse_document(
            r, text, "schema document", "an OpenAPI/Swagger document starts with 'openapi: 3.x' or 'swagger: \"2.0\"'",
            max_document_bytes,
            "split it into several files joined by relative $refs (lint follows them; each file is held to the limit "
            "on its own)");
    }
    if (!doc) {
        for (auto& d : out) diags_.push_back(std::move(d));
        if (from) diags_.push_back(Diagnostic{from->pos(), "the file this $ref names does not parse: " + key, "fix the file above", ""});
        failed_[key] = true;
        return nullptr;
    }
    sf->root.reset(*doc);
    const SpecFile* raw = sf.get();
    files_.emplace(key, std::move(sf));
    if (duplicates) check_duplicate_keys(*raw);
    return raw;
}

std::unique_ptr<SpecSet> SpecSet::load(const std::string& path, std::vector<Diagnostic>& out) {
    auto set = std::unique_ptr<SpecSet>(new SpecSet());
    const SpecFile* f = set->file(path, nullptr);
    return finish_load(std::move(set), f, out);
}

std::unique_ptr<SpecSet> SpecSet::load_text(const std::string& name, const std::string& text, std::vector<Diagnostic>& out) {
    auto set = std::unique_ptr<SpecSet>(new SpecSet());
    set->in_memory_ = true;
    const SpecFile* f = set->adopt(name, text, nullptr, false);
    return finish_load(std::move(set), f, out);
}

std::unique_ptr<SpecSet> SpecSet::finish_load(std::unique_ptr<SpecSet> set, const SpecFile* f, std::vector<Diagnostic>& out) {
    if (!f) {
        for (auto& d : set->diags_) out.push_back(std::move(d));
        return nullptr;
    }
    set->entry_key_ = f->path;
    const YAML::Node& r = f->root;
    if (!r.IsMap()) {
        out.push_back(Diagnostic{SourcePos{f->path, mark_of(r).line + 1, mark_of(r).column + 1},
                                 "not an OpenAPI or Swagger document: the top level is not a mapping",
                                 "an OpenAPI document starts with 'openapi: 3.x'", ""});
        return nullptr;
    }
    if (const auto v = scalar(r, "openapi")) {
        if (v->rfind("3.1", 0) == 0) set->kind_ = SpecKind::openapi31;
        else if (v->rfind("3.0", 0) == 0) set->kind_ = SpecKind::openapi30;
    } else if (const auto s = scalar(r, "swagger")) {
        if (*s == "2.0") set->kind_ = SpecKind::swagger20;
    }
    if (set->kind_ == SpecKind::unknown) {
        const YAML::Node v = get(r, "openapi").IsDefined() ? get(r, "openapi") : get(r, "swagger");
        const YAML::Mark m = v.IsDefined() ? v.Mark() : r.Mark();
        out.push_back(Diagnostic{SourcePos{f->path, m.line + 1, m.column + 1},
                                 v.IsDefined() ? "unsupported version: " + (v.IsScalar() ? v.Scalar() : std::string("?"))
                                               : std::string("not an OpenAPI or Swagger document (no 'openapi' or 'swagger' key)"),
                                 "idconform lint reads OpenAPI 3.0, 3.1 and Swagger 2.0; .proto files by their extension", ""});
        return nullptr;
    }
    set->check_shape();
    return set;
}

namespace {

SourcePos pos_of(const SpecFile& f, const YAML::Mark& m) {
    return SourcePos{f.path, m.line >= 0 ? m.line + 1 : 1, m.column >= 0 ? m.column + 1 : 1};
}

}  // namespace

// JSON and YAML readers disagree on which of two equal keys wins (yaml-cpp
// keeps the first): both are said. An explicit stack: no recursion. The
// nodes are read directly (schema/yaml_access.hpp): no copy of a key.
void SpecSet::check_duplicate_keys(const SpecFile& f) {
    using YAML::detail::node;
    const node* root = detail::yaml_access::node_of(f.root);
    if (!root) return;
    std::vector<const node*> todo{root};
    std::vector<const node*> keys;                           // of the mapping at hand, small ones
    std::unordered_map<std::string_view, const node*> seen;  // large ones
    std::size_t visited = 0;
    while (!todo.empty() && ++visited < 4'000'000) {
        const node* n = todo.back();
        todo.pop_back();
        if (!n->is_defined()) continue;
        if (n->type() == YAML::NodeType::Sequence) {
            for (auto it = n->begin(), end = n->end(); it != end; ++it) todo.push_back(it->pNode);
            continue;
        }
        if (n->type() != YAML::NodeType::Map) continue;
        const bool large = n->size() > 16;
        keys.clear();
        seen.clear();
        for (auto it = n->begin(), end = n->end(); it != end; ++it) {
            todo.push_back(it->second);
            const node* k = it->first;
            if (k->type() != YAML::NodeType::Scalar) continue;
            const node* first = nullptr;
            if (large) {
                const auto [at, fresh] = seen.try_emplace(std::string_view(k->scalar()), k);
                if (!fresh) first = at->second;
            } else {
                for (const node* o : keys)
                    if (o->scalar() == k->scalar()) {
                        first = o;
                        break;
                    }
                if (!first) keys.push_back(k);
            }
            if (!first) continue;
            const SourcePos p1 = pos_of(f, first->mark());
            diags_.push_back(Diagnostic{pos_of(f, k->mark()),
                                        "duplicate key '" + k->scalar() + "' (first at " + std::to_string(p1.line) +
                                            ":" + std::to_string(p1.column) + "): readers disagree on which one counts",
                                        "keep one of the two", ""});
        }
    }
}

// What the walkers skip silently when it is not a mapping: said as an error.
void SpecSet::check_shape() {
    const Loc r = root();
    auto want_map = [&](const Loc& l, const std::string& what) {
        if (!l.valid()) return false;
        if (l.node.IsMap()) return true;
        const char* is = l.node.IsSequence() ? "a list" : l.node.IsNull() ? "empty" : "a scalar";
        shape_errors_.push_back(Diagnostic{l.pos(), what + " is " + is + ", not a mapping: nothing in it was read",
                                           "write " + what + " as a mapping (a JSON object)", ""});
        return false;
    };
    for (const char* k : {"paths", "webhooks", "components", "definitions", "parameters", "responses", "securityDefinitions"}) {
        const Loc l = r.child(k);
        if (!l.valid() || l.node.IsNull()) continue;
        if (!want_map(l, "'" + std::string(k) + "'")) continue;
        if (std::string(k) == "components")
            for (auto it = l.node.begin(); it != l.node.end(); ++it)
                if (it->first.IsScalar() && !it->second.IsNull()) want_map(member(l, it->first.Scalar()), "'components." + it->first.Scalar() + "'");
        if (std::string(k) != "paths" && std::string(k) != "webhooks") continue;
        for (auto it = l.node.begin(); it != l.node.end(); ++it) {
            // `x-...` members of the Paths object are extensions, not path items (OpenAPI 3, 4.8.8)
            if (!it->first.IsScalar() || it->first.Scalar().rfind("x-", 0) == 0) continue;
            const Loc item = member(l, it->first.Scalar());
            if (!want_map(item, "the path item '" + it->first.Scalar() + "'")) continue;
            for (const char* m : {"get", "put", "post", "delete", "patch", "options", "head", "trace"})
                if (item.child(m).valid()) want_map(item.child(m), "the operation " + std::string(m) + " " + it->first.Scalar());
        }
    }
}

Loc SpecSet::root() const {
    Loc l;
    l.file = &entry();
    l.node.reset(l.file->root);
    l.mark = l.node.Mark();
    return l;
}

void SpecSet::report(const Loc& at, std::string title, std::string hint) {
    const std::string k = at.key();
    if (reported_[k]) return;
    reported_[k] = true;
    diags_.push_back(Diagnostic{at.pos(), std::move(title), std::move(hint), ""});
}

Loc SpecSet::member(const Loc& m, const std::string& key) {
    if (!m.valid() || !m.node.IsMap()) return Loc{};
    if (m.node.size() < 32) return m.child(key);
    auto [it, fresh] = index_.try_emplace(m.key());
    if (fresh) {
        for (auto i = m.node.begin(); i != m.node.end(); ++i) {
            if (!i->first.IsScalar()) continue;
            Loc c;
            c.file = m.file;
            c.node.reset(i->second);
            c.pointer = m.pointer;
            append_pointer_token(c.pointer, i->first.Scalar());
            c.mark = i->first.Mark();
            it->second.try_emplace(i->first.Scalar(), std::move(c));  // the first of duplicate keys, as child()
        }
    }
    const auto found = it->second.find(key);
    return found == it->second.end() ? Loc{} : found->second;
}

Loc SpecSet::resolve(const std::string& ref, const Loc& at) {
    auto broken = [&](const std::string& why) {
        report(at, "unresolved $ref '" + ref + "': " + why, "the lint goes on without what it points at");
        return Loc{};
    };
    if (ref.empty())
        return broken("it is empty (it would name the whole document)");
    // the same text in the same file names the same place: each distinct
    // reference is walked once (a resolution that passed through another
    // $ref is not kept: its nesting, and what it reports, depend on the way)
    std::string text_key = at.file->path;
    text_key += '\n';
    text_key += ref;
    if (const auto it = by_text_.find(text_key); it != by_text_.end()) return it->second;
    bool through_ref = false;
    const auto hash = ref.find('#');
    const std::string file_part = ref.substr(0, hash);
    const std::string frag = hash == std::string::npos ? std::string() : percent_decode(ref.substr(hash + 1));
    const SpecFile* target = at.file;
    if (!file_part.empty()) {
        if (file_part.find("://") != std::string::npos) return broken("remote references are not fetched");
        if (in_memory_) return broken("a document given in memory refers to no other file");
        const fs::path base = fs::path(at.file->path).parent_path();
        target = file(fs::path(percent_decode(file_part)).is_absolute() ? percent_decode(file_part)
                                                                        : (base / percent_decode(file_part)).string(),
                      &at);
        if (!target) return Loc{};
    }
    Loc cur;
    cur.file = target;
    cur.node.reset(target->root);
    cur.mark = cur.node.Mark();
    if (frag.empty()) {
        // a schema file may refer to itself ('#': a recursive schema); the OpenAPI document is no schema
        if (target->path == entry_key_) return broken("it names the whole OpenAPI document, which is not a schema");
        return cur;
    }
    if (frag[0] != '/') return broken("only JSON-pointer fragments ('#/...') are understood");
    std::size_t start = 1;
    while (start <= frag.size()) {
        const auto slash = frag.find('/', start);
        const std::string token = unescape_pointer_token(frag.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        // a member of a mapping that is itself a reference (components.schemas: {$ref: ...})
        if (cur.node.IsMap() && member(cur, "$ref").valid() && !member(cur, token).valid()) {
            cur = deref(cur);
            through_ref = true;
            if (!cur.valid()) return Loc{};
        }
        Loc next;
        if (cur.node.IsMap()) {
            next = member(cur, token);
        } else if (cur.node.IsSequence()) {
            char* end = nullptr;
            const unsigned long i = std::strtoul(token.c_str(), &end, 10);
            if (!token.empty() && end && *end == '\0') next = cur.at(i);
        }
        if (!next.valid()) return broken("no '" + token + "' in " + cur.file->path + "#" + cur.pointer);
        cur = std::move(next);
        if (slash == std::string::npos) break;
        start = slash + 1;
    }
    if (!through_ref) by_text_.emplace(std::move(text_key), cur);
    return cur;
}

namespace {

// "#/a -> #/b -> #/a", at most a few links of it
std::string cycle_text(const std::vector<std::string>& chain, std::size_t from, const std::string& again) {
    std::string out;
    const std::size_t n = chain.size() - from;
    for (std::size_t i = from; i < chain.size(); ++i) {
        if (n > 6 && i == from + 3) {
            out += "... (" + std::to_string(n - 5) + " more) -> ";
            i = chain.size() - 2;
            continue;
        }
        out += chain[i] + " -> ";
    }
    return out + again;
}

}  // namespace

Loc SpecSet::deref(const Loc& l) {
    const auto is_ref = [](const Loc& c) {  // a mapping with a scalar $ref, read without a YAML::Node
        if (!c.valid()) return false;
        const YAML::detail::node* n = detail::yaml_access::node_of(c.node);
        if (!n || n->type() != YAML::NodeType::Map) return false;
        const YAML::detail::node* ref = detail::find_member(*n, "$ref");
        return ref && ref->is_defined() && ref->type() == YAML::NodeType::Scalar;
    };
    if (!is_ref(l)) return l;
    if (const auto it = resolved_.find(l.key()); it != resolved_.end()) return it->second;
    if (nesting_ >= max_ref_nesting) {
        report(l, "$ref resolution nested more than " + std::to_string(max_ref_nesting) +
                      " deep (JSON pointers that pass through other $refs)",
               "point each $ref at the schema itself rather than through another reference");
        return Loc{};
    }
    ++nesting_;
    const std::size_t base = following_.size();
    Loc cur = l;
    Loc result;
    for (;;) {
        if (!is_ref(cur)) {
            result = cur;
            break;
        }
        const std::string k = cur.key();
        if (const auto it = resolved_.find(k); it != resolved_.end()) {
            result = it->second;
            break;
        }
        if (following_set_.count(k)) {
            const std::size_t from = static_cast<std::size_t>(
                std::find(following_.begin(), following_.end(), k) - following_.begin());
            report(l, "a $ref cycle with no schema in it: " + cycle_text(following_, from, k),
                   "a reference must lead to a schema");
            result = Loc{};
            break;
        }
        following_.push_back(k);
        following_set_.insert(k);
        Loc next = resolve(get(cur.node, "$ref").Scalar(), cur.child("$ref"));
        if (!next.valid()) {
            result = Loc{};
            break;
        }
        cur = std::move(next);
    }
    for (std::size_t i = base; i < following_.size(); ++i) {
        following_set_.erase(following_[i]);
        resolved_.emplace(following_[i], result);
    }
    following_.resize(base);
    --nesting_;
    return result;
}

}  // namespace idconform::schema
