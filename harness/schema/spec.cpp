// Loading machine schema documents with positions and resolving `$ref`s
// across files. See spec.hpp.
#include "schema/spec.hpp"

#include "suite/input_guard.hpp"
#include "suite/yaml_reader.hpp"

#include <filesystem>
#include <set>

namespace idconform::schema {

namespace fs = std::filesystem;

namespace {

constexpr int max_ref_hops = 64;

int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
            out += static_cast<char>(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string unescape_token(std::string_view t) {
    std::string out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '~' && i + 1 < t.size() && (t[i + 1] == '0' || t[i + 1] == '1')) {
            out += t[i + 1] == '0' ? '~' : '/';
            ++i;
        } else {
            out += t[i];
        }
    }
    return out;
}

YAML::Mark mark_of(const YAML::Node& n) { return n.Mark(); }

}  // namespace

void append_pointer_token(std::string& pointer, std::string_view token) {
    pointer += '/';
    for (char c : token) {
        if (c == '~') pointer += "~0";
        else if (c == '/') pointer += "~1";
        else pointer += c;
    }
}

Loc Loc::child(const std::string& key) const {
    Loc out;
    if (!valid() || !node.IsMap()) return out;
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
        out.file = file;
        out.node.reset(it->second);
        out.pointer = pointer;
        append_pointer_token(out.pointer, key);
        out.mark = it->first.Mark();
        return out;
    }
    return out;
}

Loc Loc::at(std::size_t index) const {
    Loc out;
    if (!valid() || !node.IsSequence() || index >= node.size()) return out;
    out.file = file;
    out.node.reset(node[index]);
    out.pointer = pointer + "/" + std::to_string(index);
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
    // are reported at line:col.
    auto in = suite::detail::read_input_file(key, "schema document",
                                             from ? input::NamedBy::file : input::NamedBy::user);
    if (!in.text) return fail(std::move(in.error));
    const std::optional<std::string> text = std::move(in.text);
    auto sf = std::make_unique<SpecFile>();
    sf->path = key;
    const auto source = suite::detail::SourceText::from(key, *text);
    suite::detail::Reader r(source, out);
    auto doc = suite::detail::parse_document(r, *text, "schema document", "an OpenAPI/Swagger document starts with 'openapi: 3.x' or 'swagger: \"2.0\"'");
    if (!doc) {
        for (auto& d : out) diags_.push_back(std::move(d));
        if (from) diags_.push_back(Diagnostic{from->pos(), "the file this $ref names does not parse: " + key, "fix the file above", ""});
        failed_[key] = true;
        return nullptr;
    }
    sf->lines = source.lines;
    sf->root.reset(*doc);
    const SpecFile* raw = sf.get();
    files_.emplace(key, std::move(sf));
    return raw;
}

std::unique_ptr<SpecSet> SpecSet::load(const std::string& path, std::vector<Diagnostic>& out) {
    auto set = std::unique_ptr<SpecSet>(new SpecSet());
    const SpecFile* f = set->file(path, nullptr);
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
    return set;
}

Loc SpecSet::root() const {
    Loc l;
    l.file = &entry();
    l.node.reset(l.file->root);
    l.mark = l.node.Mark();
    return l;
}

Loc SpecSet::resolve(const std::string& ref, const Loc& at) {
    auto broken = [&](const std::string& why) {
        const std::string k = at.key();
        if (!reported_[k]) {
            reported_[k] = true;
            diags_.push_back(Diagnostic{at.pos(), "unresolved $ref '" + ref + "': " + why,
                                        "the lint goes on without what it points at", ""});
        }
        return Loc{};
    };
    const auto hash = ref.find('#');
    const std::string file_part = ref.substr(0, hash);
    const std::string frag = hash == std::string::npos ? std::string() : percent_decode(ref.substr(hash + 1));
    const SpecFile* target = at.file;
    if (!file_part.empty()) {
        if (file_part.find("://") != std::string::npos) return broken("remote references are not fetched");
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
    if (frag.empty()) return cur;
    if (frag[0] != '/') return broken("only JSON-pointer fragments ('#/...') are understood");
    std::size_t start = 1;
    while (start <= frag.size()) {
        const auto slash = frag.find('/', start);
        const std::string token = unescape_token(frag.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
        // a member of a mapping that is itself a reference (components.schemas: {$ref: ...})
        if (cur.node.IsMap() && get(cur.node, "$ref").IsDefined() && !get(cur.node, token).IsDefined()) {
            cur = deref(cur);
            if (!cur.valid()) return Loc{};
        }
        Loc next;
        if (cur.node.IsMap()) {
            next = cur.child(token);
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
    return cur;
}

Loc SpecSet::deref(const Loc& l) {
    Loc cur = l;
    std::set<std::string> seen;
    for (int hop = 0; hop < max_ref_hops; ++hop) {
        if (!cur.valid() || !cur.node.IsMap()) return cur;
        const YAML::Node r = get(cur.node, "$ref");
        if (!r.IsDefined() || !r.IsScalar()) return cur;
        if (!seen.insert(cur.key()).second) break;
        Loc next = resolve(r.Scalar(), cur.child("$ref"));
        if (!next.valid()) return next;
        // keep pointing at the place that used the reference: that is where the field is written
        cur = std::move(next);
    }
    const std::string k = l.key();
    if (!reported_[k]) {
        reported_[k] = true;
        diags_.push_back(Diagnostic{l.pos(), "a $ref cycle with no schema in it", "a reference must lead to a schema", ""});
    }
    return Loc{};
}

}  // namespace idconform::schema
