// The reading half of `idconform init --from-openapi` (profile_draft.hpp):
// what the drafter asks of the document (an object schema's properties
// through $ref/allOf, an operation's request and answer schemas, the id kind
// a property's schema fixes, a create body) and the text helpers every
// drafted line goes through (yaml_quote above all). The drafter itself,
// which decides what the profile says, is profile_draft.cpp.
#pragma once

#include "schema/spec.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace idconform::schema::draft {

std::string lower(std::string s);

// A scalar as YAML: plain when that reads back as the same string, else double-quoted.
std::string yaml_quote(const std::string& s);

// A comment's text on one line: every control character (a line break
// would end the comment and start YAML of the document's making) a space.
std::string one_line(std::string s);

// Text of the document that may go into the draft as data: no control
// character and no '${', which the profile language reads as a placeholder
// (and has no escape for): a document must not make the draft send
// ${env:TOKEN} to its server. Names and paths that fail this are left out.
bool safe_text(const std::string& s);

// The drafted text's own structure, read back while it is drafted:
// whether a line from `from` on is an entry (not a comment); whether one
// is a resource's create (`    create:`, uncommented); every
// line of the resource from `start` on made a comment (the first prefixed by
// `why`); references to resources outside `drafted` made comments.
bool has_entry(const std::string& y, std::size_t from);
bool has_create(const std::string& y, std::size_t from);
bool has_key(const std::string& y, std::size_t from, const std::string& key);  // `    key:`, uncommented
void comment_out(std::string& y, std::size_t start, const std::string& why);
void drop_references_to(std::string& y, const std::set<std::string>& drafted);

// Whether every brace of an OpenAPI path template is a `{name}` within one
// segment (what the profile loader accepts): paths that are not are left out.
bool path_template_ok(const std::string& path);

// Whether a server URL is on this machine (127.0.0.0/8, ::1, localhost):
// the only servers a draft may aim at without being told.
bool loopback_url(const std::string& url);
// The JSON pointer to the top-level member `name` ('~' and '/' in it
// escaped, RFC 6901: a property "~ items" is /~0 items).
std::string member_pointer(const std::string& name);

std::string singular(const std::string& plural);

// "category_id" / "categoryId" / "categoryID" -> "category"; "" when not a
// reference name (the stem is ids::id_name_stem's, squashed).
std::string reference_stem(const std::string& name);

std::string squash(const std::string& s);

struct Object {
    std::vector<std::pair<std::string, Loc>> props;  // in document order
    std::set<std::string> required;
    [[nodiscard]] const Loc* find(const std::string& n) const {
        for (const auto& [k, v] : props)
            if (k == n) return &v;
        return nullptr;
    }
};

struct Op {
    Loc node;
    bool present = false;
};

struct PathInfo {
    std::string path;
    std::map<std::string, Op> ops;  // method -> operation
    std::vector<std::string> vars;  // {name} segments in order
    Loc item;                       // the path item (parameters shared by its operations)
    // "/create" when the collection's POST is written at `<path>/create`
    // (Docker's POST /networks/create beside GET /networks): the create path is path + this
    std::string post_at;
};

struct Resource {
    std::string name;
    std::string collection;  // path, as the document writes it
    std::string path;        // the collection path as the profile writes it (parent variables from the environment)
    const PathInfo* coll = nullptr;
    const PathInfo* item = nullptr;
    bool rpc = false;  // "/things.create": the other operations take the id in a body
    // RPC-style siblings of the create, each a POST naming the entity in its
    // body ("/things.info", "/v1/things:delete"): nullptr when the document has none.
    const PathInfo* rpc_read = nullptr;
    const PathInfo* rpc_update = nullptr;
    const PathInfo* rpc_delete = nullptr;
};

// The member of an entity that is its id (SchemaReader::choose_id).
struct IdChoice {
    std::string name = "id";
    std::string why;               // the reason, when not simply `id`
    bool found = false;            // the entity has the member
    bool path_takes_it = true;     // false: the item path takes another key (an integer) than this member
};

// What a PUT on an item path does (SchemaReader::put_meaning).
// create_or_replace: a 201 and a 200 documented, or text saying upsert /
// create or replace / create or update.
enum class PutMeaning { create, create_or_replace, update, unsaid };

// The document, as the drafter reads it. Holds what reading it noted on the
// way: the answer headers declared, the text that cannot be written as data.
class SchemaReader {
public:
    explicit SchemaReader(SpecSet& set) : set_(set) {}

protected:
    std::vector<Loc> members(const Loc& m);
    static std::string last_token(const Loc& l);
    // The schema itself once $ref, single-branch oneOf/anyOf (with null) and
    // single-part allOf are seen through.
    Loc flatten(const Loc& s_in, int depth = 0);
    // The properties and required names of an object schema, through $ref and allOf.
    void gather_object(const Loc& s_in, Object& o, int depth = 0);
    // The JSON schema of an operation's request body (OpenAPI 3) or body parameter (Swagger 2).
    Loc request_schema(const Loc& op);
    // The schema of the first 2xx answer, noting the answer headers declared.
    Loc response_schema(const Loc& op);
    // The id kind a property's schema fixes, judged by behaviour; "" when none.
    std::string kind_of(const Loc& prop, std::string* why);
    static std::string body_value(const std::string& type, const std::string& word);
    // {name: idconform-probe, price: 1} from the required non-reference properties.
    std::string body_of(const Loc& schema, const std::string& word, bool all_required, std::string* skipped);
    // An answer that wraps its entity ({"data": {...}}, {"metadata": {"id": ...}}):
    // when the entity has no id member, and exactly one member named as an
    // envelope (data, result, item, metadata, ..., the resource's singular, or
    // any name when it is the answer's only member: {"results": {...}}) is an
    // object that has an `id`, that object is the entity and the
    // member's pointer is returned ("" otherwise).
    std::string unwrap(const Resource& r, Object& entity);

    // Which member of the entity is its id. `id`, unless `id` is an integer
    // key and the entity also has its UUID (`uuid`, `guid`, `<resource>_uuid`:
    // the id the rules are about), or there is no `id` and exactly one member
    // is named as this resource's id (`tableId` for /tables).
    IdChoice choose_id(const Resource& r, const Object& entity);

    // The declared type of a path parameter ("" when not declared), at the path or at any of its operations.
    std::string path_param_type(const PathInfo& p, const std::string& var);

    // What a PUT on the item path does, as its document says: a 201 or the
    // words create/upsert make it a create with the client's id; a 404 or the
    // words update/replace an update; otherwise it is not said.
    PutMeaning put_meaning(const Loc& op);

    SpecSet& set_;
    std::set<std::string> response_headers_;
    std::vector<std::string> left_out_;  // document text that cannot be written as data (said in a comment)
};

}  // namespace idconform::schema::draft
