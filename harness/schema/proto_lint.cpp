// The .proto half of `idconform lint`. A file is read with protobuf's own
// tokenizer (comments, strings and positions as protoc sees them) and a small
// walker over its declarations, not compiled: imports such as
// buf/validate/validate.proto need not be present, and a file that protoc
// would refuse for an unrelated reason is still linted. Id fields (the one
// naming rule, repeated fields named like lists of ids) typed bytes or an
// integer are findings; string ids need a protovalidate (buf.validate) or
// protoc-gen-validate constraint, `string.pattern` judged by what it
// accepts, `string.uuid` being as loose as `format: uuid`.
#include "schema/lint.hpp"

#include "core/input_file.hpp"

#include "ids/ids.hpp"
#include "schema/pattern_judge.hpp"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace idconform::schema {

namespace {

namespace io = google::protobuf::io;

class Errors : public io::ErrorCollector {
public:
    Errors(std::string file, std::vector<Diagnostic>& out) : file_(std::move(file)), out_(out) {}
    void AddError(int line, io::ColumnNumber column, const std::string& message) override {
        out_.push_back(Diagnostic{SourcePos{file_, line + 1, column + 1}, "proto syntax: " + message,
                                  "the file does not tokenize as protobuf; fix it with protoc", ""});
    }

private:
    std::string file_;
    std::vector<Diagnostic>& out_;
};

const std::set<std::string> integer_types = {"int32", "int64", "uint32", "uint64", "sint32", "sint64",
                                             "fixed32", "fixed64", "sfixed32", "sfixed64"};

// A token; its text is a view into one arena of the file's token texts
// (reserved once, never moved), not a string of its own: a 30 MB .proto
// has millions of tokens.
constexpr std::size_t max_proto_bytes = std::size_t{16} << 20;

struct Tok {
    io::Tokenizer::TokenType type;
    std::string_view text;
    int line, column;
};

class ProtoWalker {
public:
    ProtoWalker(std::string file, std::vector<Tok> toks, LintResult& out)
        : file_(std::move(file)), t_(std::move(toks)), out_(out) {}

    void run() {
        std::vector<std::string> scopes;  // message names; "" for blocks that hold no fields
        while (i_ < t_.size()) {
            const Tok& k = t_[i_];
            if (sym("}")) {
                if (scopes.empty()) return error(k, "unbalanced '}'");
                scopes.pop_back();
                ++i_;
                continue;
            }
            if (sym(";")) {
                ++i_;
                continue;
            }
            if (k.type == io::Tokenizer::TYPE_IDENTIFIER) {
                if (k.text == "package") {
                    ++i_;
                    package_.clear();
                    while (i_ < t_.size() && !sym(";")) package_ += t_[i_++].text;
                    continue;
                }
                if (k.text == "syntax" || k.text == "edition" || k.text == "import" || k.text == "option" ||
                    k.text == "reserved" || k.text == "extensions") {
                    skip_statement();
                    continue;
                }
                if ((k.text == "message" || k.text == "oneof") && i_ + 2 < t_.size() && t_[i_ + 2].text == "{") {
                    scopes.push_back(k.text == "message" ? std::string(t_[i_ + 1].text) : std::string("\x01"));
                    i_ += 3;
                    continue;
                }
                if (k.text == "enum" || k.text == "service" || k.text == "extend") {
                    while (i_ < t_.size() && !sym("{")) ++i_;
                    skip_block();
                    continue;
                }
                if (!scopes.empty()) {
                    field(scopes);
                    continue;
                }
            }
            ++i_;  // anything else at the top level: protoc's business
        }
        if (!scopes.empty() && !t_.empty()) error(t_.back(), "missing '}' at the end of the file");
    }

private:
    std::string file_;
    std::vector<Tok> t_;
    LintResult& out_;
    std::size_t i_ = 0;
    std::string package_;

    bool sym(const char* s) const {
        return i_ < t_.size() && t_[i_].type == io::Tokenizer::TYPE_SYMBOL && t_[i_].text == s;
    }
    void error(const Tok& k, std::string what) {
        out_.errors.push_back(Diagnostic{SourcePos{file_, k.line + 1, k.column + 1}, std::move(what),
                                         "the file is not valid protobuf; protoc says more", ""});
        i_ = t_.size();
    }
    void skip_statement() {
        int depth = 0;
        while (i_ < t_.size()) {
            if (sym("{")) ++depth;
            else if (sym("}")) {
                if (depth == 0) return;  // the enclosing block ends: leave it to run()
                --depth;
            } else if (sym(";") && depth == 0) {
                ++i_;
                return;
            }
            ++i_;
        }
    }
    // At '{' (or the end): past the matching '}'.
    void skip_block() {
        int depth = 0;
        while (i_ < t_.size()) {
            if (sym("{")) ++depth;
            else if (sym("}") && --depth == 0) {
                ++i_;
                return;
            }
            ++i_;
        }
    }

    std::string full_name(const std::vector<std::string>& scopes, const std::string& field) const {
        std::string n = package_;
        for (const auto& s : scopes)
            if (s != "\x01") n += (n.empty() ? "" : ".") + s;
        return n + (n.empty() ? "" : ".") + field;
    }

    // [label] type name = N [options] ;
    void field(const std::vector<std::string>& scopes) {
        const std::size_t start = i_;
        bool repeated = false;
        if (t_[i_].text == "repeated" || t_[i_].text == "optional" || t_[i_].text == "required") {
            repeated = t_[i_].text == "repeated";
            ++i_;
        }
        std::string type;
        if (i_ < t_.size() && t_[i_].text == "map") {
            // map<K, V>: the values are what the name describes; not a plain id field
            skip_statement();
            return;
        }
        while (i_ < t_.size() && (t_[i_].type == io::Tokenizer::TYPE_IDENTIFIER || sym(".")) &&
               !(i_ + 1 < t_.size() && t_[i_ + 1].text == "=")) {
            type += t_[i_++].text;
        }
        if (i_ >= t_.size() || t_[i_].type != io::Tokenizer::TYPE_IDENTIFIER || type.empty()) {
            i_ = start;
            skip_statement();
            return;
        }
        const Tok name = t_[i_++];
        std::vector<Tok> opts;
        while (i_ < t_.size() && !sym(";") && !sym("}")) {
            if (sym("[")) {
                int depth = 0;
                while (i_ < t_.size()) {
                    if (sym("[")) ++depth;
                    if (sym("]") && --depth == 0) break;
                    opts.push_back(t_[i_++]);
                }
            }
            ++i_;
        }
        if (sym(";")) ++i_;
        judge(scopes, type, name, repeated, opts);
    }

    void judge(const std::vector<std::string>& scopes, const std::string& type, const Tok& name, bool repeated,
               const std::vector<Tok>& opts) {
        const bool named = ids::id_named_field(name.text) ||
                           (repeated && name.text.size() > 1 && name.text.back() == 's' &&
                            ids::id_named_field(name.text.substr(0, name.text.size() - 1)));
        if (!named) return;
        const std::string n(name.text);
        if (ids::out_of_scope_id_name(n)) return;
        Finding f;
        f.rule = "DATA-ID-002";
        f.pos = SourcePos{file_, name.line + 1, name.column + 1};
        f.pointer = full_name(scopes, n);
        const std::string v7 = canonical_pattern(7);
        const std::string who = "id field '" + n + "'";
        const std::string fix = "string " + n + " with [(buf.validate.field).string.pattern = \"" + v7 + "\"] (or the -4- pattern for a v4 field)";
        ++out_.id_fields;
        if (type == "bytes") {
            f.kind = "proto-bytes-id";
            f.what = who + " is typed bytes: the id crosses the contract as raw bytes";
            f.expected = fix;
        } else if (integer_types.count(type)) {
            f.kind = "proto-integer-id";
            f.what = who + " is typed " + type;
            f.expected = fix;
        } else if (type == "string" || type == "google.protobuf.StringValue" || type == ".google.protobuf.StringValue") {
            std::string pattern;
            bool has_pattern = false, uuid = false, tuuid = false;
            for (std::size_t k = 0; k + 2 < opts.size(); ++k) {
                const Tok& a = opts[k];
                if (a.type != io::Tokenizer::TYPE_IDENTIFIER) continue;
                const Tok& eq = opts[k + 1];
                if (eq.text != "=" && eq.text != ":") continue;
                const Tok& v = opts[k + 2];
                if ((a.text == "uuid" || a.text == "tuuid") && v.text == "true") (a.text == "uuid" ? uuid : tuuid) = true;
                if (a.text == "pattern" && v.type == io::Tokenizer::TYPE_STRING) {
                    has_pattern = true;
                    pattern.clear();
                    for (std::size_t s = k + 2; s < opts.size() && opts[s].type == io::Tokenizer::TYPE_STRING; ++s) {
                        std::string piece;
                        io::Tokenizer::ParseString(std::string(opts[s].text), &piece);
                        pattern += piece;
                    }
                }
            }
            if (has_pattern) {
                const PatternVerdict& v = judge_pattern(pattern);
                if (v.exact_for(7) || v.exact_for(4)) return;
                f.kind = v.compiles && !v.admits_uuid() ? "not-uuid" : "proto-pattern";
                f.what = v.compiles && !v.admits_uuid()
                             ? who + " is not a UUID: its pattern '" + pattern + "' admits no canonical UUID"
                             : who + ": pattern '" + pattern + "' " + v.faults();
                f.expected = fix;
            } else if (uuid || tuuid) {
                f.kind = "proto-uuid-only";
                f.what = who + (tuuid ? ": string.tuuid admits only the hyphen-less form (not the canonical 8-4-4-4-12 text)"
                                      : ": string.uuid alone admits every version and upper case");
                f.expected = fix;
            } else {
                f.kind = "proto-unconstrained";
                f.what = who + " is a string with no validation constraint (protovalidate string.pattern or string.uuid)";
                f.expected = fix;
            }
        } else {
            --out_.id_fields;  // a message type: its own fields are judged where it is declared
            return;
        }
        out_.findings.push_back(std::move(f));
    }
};

void lint_proto_text_into(const std::string& text, const std::string& path, LintResult& out);

void lint_proto_file(const std::string& path, LintResult& out) {
    // Through the one input guard: no pipe, device or system file (a
    // symlink to /dev/zero or /proc/self/environ included), a size cap,
    // NUL/UTF-8/UTF-16 at line:col; read once, without a stream copy.
    input::Policy p;
    p.what = ".proto file";
    p.format = ".proto";
    p.expected = "a .proto file";
    p.pipes = false;
    // The token list costs about 20 bytes per byte of .proto (a 30 MB file
    // peaked at 0.85 GB with the copy this reader no longer makes, 0.6 GB
    // without it): 16 MiB stays under ~350 MB; real .proto files are KBs.
    p.max_bytes = max_proto_bytes;
    auto in = input::read_input(path, p);
    if (!in.text) {
        out.errors.push_back(std::move(in.error));
        return;
    }
    lint_proto_text_into(*in.text, path, out);
}

void lint_proto_text_into(const std::string& text, const std::string& path, LintResult& out) {
    ++out.files;
    io::ArrayInputStream stream(text.data(), static_cast<int>(text.size()));
    Errors errors(path, out.errors);
    io::Tokenizer tok(&stream, &errors);
    std::vector<Tok> toks;
    std::string arena;  // token texts are never longer than the file together
    arena.reserve(text.size());
    const std::size_t before = out.errors.size();
    while (tok.Next()) {
        const auto& c = tok.current();
        if (arena.size() + c.text.size() > arena.capacity()) {  // cannot happen; the arena must never move
            out.errors.push_back(Diagnostic{SourcePos{path, c.line + 1, c.column + 1}, "internal error: token texts exceed the file",
                                            "please report this with the .proto file", ""});
            return;
        }
        const std::size_t at = arena.size();
        arena += c.text;
        toks.push_back({c.type, std::string_view(arena).substr(at, c.text.size()), c.line, c.column});
    }
    if (out.errors.size() != before) return;
    ProtoWalker(path, std::move(toks), out).run();
}

}  // namespace

LintResult lint_proto_text(const std::string& text, const std::string& path) {
    LintResult out;
    out.format = "proto";
    lint_proto_text_into(text, path, out);
    return out;
}

LintResult lint_proto(const std::string& path) {
    namespace fs = std::filesystem;
    LintResult out;
    out.format = "proto";
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        std::vector<std::string> files;
        for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end; it != end && !ec;
             it.increment(ec))
            if (it->is_regular_file() && it->path().extension() == ".proto") files.push_back(it->path().string());
        std::sort(files.begin(), files.end());
        if (files.empty())
            out.errors.push_back(Diagnostic{SourcePos{path, 0, 0}, "no .proto file under " + path, "give .proto files or a folder holding some", ""});
        for (const auto& f : files) lint_proto_file(f, out);
    } else {
        lint_proto_file(path, out);
    }
    return out;
}

}  // namespace idconform::schema
