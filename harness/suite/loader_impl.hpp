// The suite loader's internals, shared by its section files (loader.cpp and
// load_*.cpp, one per part of a suite): the Loader's state (sources kept for
// diagnostics, include frames, fragments, names to check once everything is
// loaded) and the key lists more than one section needs. Not installed; only
// harness/suite/ includes it.
#pragma once

#include "core/diagnostic.hpp"
#include "suite/loader.hpp"
#include "suite/model.hpp"
#include "suite/yaml_reader.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::suite::detail {



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

class Loader {
public:
    std::vector<Diagnostic> diags;

    // Parses `text` (of file `path`) into one YAML document; nullopt with
    // diagnostics when it is broken or empty. `kind` names it ("suite").
    std::optional<YAML::Node> parse(const SourceText& src, const std::string& text, std::string_view kind);

    SourceText& keep(SourceText src);

    std::optional<Suite> load_suite(const std::string& text, const std::string& path);

    std::optional<VectorSet> load_vector_set_file(const std::string& text, const std::string& path, bool simple_reader);

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

    static std::string canonical(const std::string& path);

    void push_include_frame(const std::string& path);
    void pop_include_frame();

    Ref ref(const Reader& r, const Val& v, std::string name) const;

    void error_at(const Ref& at, std::string title, std::string hint);

    // ------------------------------------------------------------ includes

    void includes(Reader& r, const Entry& e);

    void include_one(Reader& r, const Val& item, const std::string& rel, const std::string& from);

    // An included file: a vector-set file or a fragment/library file.
    void library_file(const std::string& text, const std::string& path);

    // ------------------------------------------------------------- vectors

    std::optional<VectorSet> vector_file(Reader& r, const Val& rv);

    bool vector_entries(Reader& r, const Val& v, VectorSet& set);

    void add_vector_set(Reader& r, const Val& at, VectorSet set);

    void inline_vectors(Reader& r, const Entry& e);

    // ----------------------------------------------------------- fragments

    void fragments(Reader& r, const Entry& e);

    // ---------------------------------------------------------------- vars

    void vars(Reader& r, const Entry& e, Suite& s);

    // -------------------------------------------------------------- target


    void target(Reader& r, const Entry& e, Target& t);



    void principals(Reader& r, const Entry& e, Suite& s);

    // --------------------------------------------------------------- steps

    std::vector<Step> step_list(Reader& r, const Val& v, std::string_view what);

    // The step kinds: the key of each and the reader of its request (a new
    // kind adds a line to step_kinds() and its reader; see docs/architecture.md).
    using StepReader = void (Loader::*)(Reader&, const Entry&, const Mapping&, Step&, std::optional<Ref>*);
    struct StepKind {
        const char* key;
        StepReader read;
    };
    static const std::vector<StepKind>& step_kinds();
    void http_step(Reader& r, const Entry& e, const Mapping& m, Step& step, std::optional<Ref>* principal);
    void call_step(Reader& r, const Entry& e, const Mapping& m, Step& step, std::optional<Ref>* principal);
    void kafka_step(Reader& r, const Entry& e, const Mapping& m, Step& step, std::optional<Ref>* principal);
    void file_step(Reader& r, const Entry& e, const Mapping& m, Step& step, std::optional<Ref>* principal);
    void grpc_step(Reader& r, const Entry& e, const Mapping& m, Step& step, std::optional<Ref>* principal);

    std::optional<Step> parse_step(Reader& r, const Val& v, std::string_view what, std::optional<Ref>* principal,
                                   bool allow_use);

    std::size_t r_errors() const { return diags.size(); }

    // ---------------------------------------------------------------- kafka

    void kafka(Reader& r, const Entry& e, KafkaRequest& req);

    // A topic: a template, or 1-249 of [a-zA-Z0-9._-].
    void topic(Reader& r, const Mapping& m, const Val& at, KafkaRequest& req, std::string_view example);

    void produce(Reader& r, const Entry& e, KafkaRequest& req);

    void consume(Reader& r, const Entry& e, KafkaRequest& req);

    void match(Reader& r, const Val& v, std::vector<KafkaMatch>& out);

    void file_scan(Reader& r, const Entry& e, FileScan& f);

    void http(Reader& r, const Entry& e, HttpRequest& req, std::optional<Ref>* principal);

    // `set` (pointer -> value) and `unset` (pointers): edits of a JSON body.
    void body_edits(Reader& r, const Mapping& m, std::vector<std::pair<std::string, boost::json::value>>& set,
                    std::vector<std::string>& unset);

    // An operation of a profile resource (packs): {op: read, id: "${m}", principal: owner}.
    void call(Reader& r, const Entry& e, OpCall& c, std::optional<Ref>* principal);

    void grpc_call(Reader& r, const Entry& e, GrpcCall& call, std::optional<Ref>* principal);

    // -------------------------------------------------------- expectations

    void expect(Reader& r, const Entry& e, Expect& x);
    void id_members(Reader& r, const Val& v, Expect& x);

    std::optional<StatusExpect> status_expect(Reader& r, const Val& v, bool negate);
    void allow_echo(Reader& r, const Entry& z, bool has_not_contains, BodyExpect& b);

    bool compile_regex(Reader& r, const Val& v, const std::string& pattern);

    void header_expects(Reader& r, const Val& v, std::vector<HeaderExpect>& out);

    bool pointer_ok(Reader& r, const Val& v, const std::string& pointer);

    void json_expects(Reader& r, const Val& v, std::vector<JsonExpect>& out);

    std::optional<JsonExpect> json_op(Reader& r, const Val& v, JsonExpect j);

    std::optional<IdExpect> id_expect(Reader& r, const Val& v);

    void captures(Reader& r, const Entry& e, std::vector<Capture>& out);

    // --------------------------------------------------------------- cases

    void cases(Reader& r, const Entry& e, Suite& s);

    std::optional<Case> parse_case(Reader& r, const Val& v);

    // `collected: {LIST: {distinct: true, ...}}`; every LIST must be
    // collected by some id check of the case (checked after the steps load).
    void collected(Reader& r, const Val& v, Case& c);
    std::vector<YAML::Mark> collected_marks_;  // of the case being parsed, for the check after its steps

    std::optional<ForEach> for_each(Reader& r, const Val& v);

    // `fresh: setup` or `fresh: [NAME, ...]`: suite variables and setup steps
    // of `suite_` (read before the cases) made anew for each run of the case.
    void fresh(Reader& r, const Val& v, Case& c);
    const Suite* suite_ = nullptr;  // the suite whose cases are being read

    // ---------------------------------------------------- cross references

    void check_references(const Suite& s);
};

}  // namespace idconform::suite::detail
