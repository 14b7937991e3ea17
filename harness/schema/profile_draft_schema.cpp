// What the drafter reads off the document, and the text helpers of the
// draft (profile_draft_impl.hpp).
#include "schema/profile_draft_impl.hpp"

#include "ids/ids.hpp"
#include "ids/kind.hpp"
#include "schema/pattern_judge.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace idconform::schema::draft {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// A scalar as YAML: plain when that reads back as the same string, else double-quoted.
std::string member_pointer(const std::string& name) {
    std::string ptr;
    append_pointer_token(ptr, name);
    return ptr;
}

std::string yaml_quote(const std::string& s) {
    bool plain = !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '/' || s[0] == '_');
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '/' || c == '.')) plain = false;
    for (const char* word : {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"})
        if (lower(s) == word) plain = false;
    if (plain) return s;
    // double-quoted, every control character escaped: one line, read back as the same bytes
    static const char* const hex = "0123456789abcdef";
    std::string out = "\"";
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (u < 0x20 || u == 0x7f) {
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    return out + "\"";
}

// Whether a line from `from` on is an entry (not a comment).
bool has_entry(const std::string& y, std::size_t from) {
    for (std::size_t at = from; at < y.size();) {
        const auto nl = y.find('\n', at);
        const std::string line = y.substr(at, nl - at);
        const auto first = line.find_first_not_of(' ');
        if (first != std::string::npos && line[first] != '#') return true;
        at = nl == std::string::npos ? y.size() : nl + 1;
    }
    return false;
}

// Whether the lines from `from` on hold a resource's create, uncommented
// (`    create: ...`: what the profile loader asks of one resource; a `put:`
// alone does not count).
bool has_create(const std::string& y, std::size_t from) { return has_key(y, from, "create"); }

bool has_key(const std::string& y, std::size_t from, const std::string& key) {
    const std::string start = "    " + key + ":";
    for (std::size_t at = from; at < y.size();) {
        const auto nl = y.find('\n', at);
        const std::string_view line(y.data() + at, (nl == std::string::npos ? y.size() : nl) - at);
        if (line.rfind(start, 0) == 0) return true;
        at = nl == std::string::npos ? y.size() : nl + 1;
    }
    return false;
}

// Every line of the resource from `start` on made a comment, the first prefixed by `why`.
void comment_out(std::string& y, std::size_t start, const std::string& why) {
    std::string block = y.substr(start), out;
    std::size_t at = 0;
    bool first = true;
    while (at < block.size()) {
        const auto nl = block.find('\n', at);
        const std::string l = block.substr(at, nl - at);
        const auto ind = l.find_first_not_of(' ');
        if (first) out += l.substr(0, ind) + why + l.substr(ind) + "\n";
        else if (ind != std::string::npos && l[ind] == '#') out += l + "\n";
        else out += l.substr(0, ind) + "# " + l.substr(ind) + "\n";
        first = false;
        at = nl == std::string::npos ? block.size() : nl + 1;
    }
    y.replace(start, std::string::npos, out);
}

// References to resources the draft does not hold made comments: a
// resource drafted before its target was left out (`assistant_id:
// {resource: assistants}` when assistants has no id member). A section left
// with comments only (`    references:` and no entry) becomes a comment too.
void drop_references_to(std::string& y, const std::set<std::string>& drafted) {
    std::string out;
    std::size_t header = std::string::npos;  // where in `out` the last `    references:` line starts
    bool header_has_entry = false;
    auto close_section = [&] {
        if (header != std::string::npos && !header_has_entry) out.insert(header + 4, "# ");
        header = std::string::npos;
    };
    for (std::size_t at = 0; at < y.size();) {
        const auto nl = y.find('\n', at);
        std::string line = y.substr(at, (nl == std::string::npos ? y.size() : nl) - at);
        at = nl == std::string::npos ? y.size() : nl + 1;
        if (line.rfind("      ", 0) != 0 || line.rfind("      #", 0) == 0) {
            if (line.rfind("      ", 0) != 0) close_section();
            if (line == "    references:") header = out.size(), header_has_entry = false;
            out += line + "\n";
            continue;
        }
        const auto ref = line.find("{resource: ");
        if (ref != std::string::npos && header != std::string::npos) {
            const auto from = ref + 11;
            const auto to = line.find_first_of(",}", from);
            const std::string target = line.substr(from, to == std::string::npos ? std::string::npos : to - from);
            if (!drafted.count(target)) {
                const auto hash = line.find("  # ");
                out += "      # " + line.substr(6, hash == std::string::npos ? std::string::npos : hash - 6) +
                       "  # placeholder: " + target + " is not drafted (its entry says why)\n";
                continue;
            }
        }
        if (header != std::string::npos) header_has_entry = true;
        out += line + "\n";
    }
    close_section();
    if (!y.empty() && y.back() != '\n' && !out.empty()) out.pop_back();
    y = std::move(out);
}

// A comment's text on one line: every control character (a line break
// would end the comment and start YAML of the document's making) a space.
std::string one_line(std::string s) {
    for (auto& c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
    return s;
}

// Text of the document that may go into the draft as data: no control
// character and no '${', which the profile language reads as a placeholder
// (and has no escape for): a document must not make the draft send
// ${env:TOKEN} to its server. Names and paths that fail this are left out.
bool safe_text(const std::string& s) {
    if (s.find("${") != std::string::npos) return false;
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
    return true;
}

// Whether every brace of an OpenAPI path template is a `{name}` within one
// segment: no '{' unclosed or nested, no stray '}', no empty name.
bool path_template_ok(const std::string& path) {
    bool open = false;
    std::size_t name_len = 0;
    for (char c : path) {
        if (c == '{') {
            if (open) return false;
            open = true;
            name_len = 0;
        } else if (c == '}') {
            if (!open || name_len == 0) return false;
            open = false;
        } else if (open) {
            if (c == '/') return false;
            ++name_len;
        }
    }
    return !open;
}

// Whether a server URL is on this machine (127.0.0.0/8, ::1, localhost):
// the only servers a draft may aim at without being told.
bool loopback_url(const std::string& url) {
    std::string host = url.substr(url.find("://") + 3);
    host = host.substr(0, host.find_first_of("/?#"));
    if (const auto at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);
    if (host.rfind("[::1]", 0) == 0) return true;
    host = lower(host.substr(0, host.rfind(':') == std::string::npos ? host.size() : host.rfind(':')));
    const bool dotted = !host.empty() && host.find_first_not_of("0123456789.") == std::string::npos;
    return host == "localhost" || (dotted && host.rfind("127.", 0) == 0);
}

std::string singular(const std::string& plural) {
    const std::string p = lower(plural);
    if (p.size() > 3 && p.ends_with("ies")) return p.substr(0, p.size() - 3) + "y";
    if (p.size() > 1 && p.ends_with("s")) return p.substr(0, p.size() - 1);
    return p;
}

// "category_id" / "categoryId" / "categoryID" -> "category"; "" when not a
// reference name (the stem is ids::id_name_stem's, squashed).
std::string reference_stem(const std::string& name) {
    std::string out;
    for (char c : ids::id_name_stem(name))
        if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string squash(const std::string& s) {
    std::string out;
    for (char c : s)
        if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::vector<Loc> SchemaReader::members(const Loc& m) {
    std::vector<Loc> out;
    const Loc d = set_.deref(m);
    if (!d.valid() || !d.node.IsMap()) return out;
    for (auto it = d.node.begin(); it != d.node.end(); ++it) {
        if (!it->first.IsScalar()) continue;
        // built here: d.child(key) would scan the mapping again for each member
        Loc c;
        c.file = d.file;
        c.node.reset(it->second);
        c.pointer = d.pointer;
        append_pointer_token(c.pointer, it->first.Scalar());
        c.mark = it->first.Mark();
        out.push_back(std::move(c));
    }
    return out;
}
std::string SchemaReader::last_token(const Loc& l) {
    std::string t = l.pointer.substr(l.pointer.rfind('/') + 1);
    std::string out;
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '~' && i + 1 < t.size()) {
            out += t[i + 1] == '1' ? '/' : '~';
            ++i;
        } else {
            out += t[i];
        }
    }
    return out;
}

// The schema itself once $ref, single-branch oneOf/anyOf (with null) and
// single-part allOf are seen through.
Loc SchemaReader::flatten(const Loc& s_in, int depth) {
    Loc s = set_.deref(s_in);
    if (!s.valid() || !s.node.IsMap() || depth > 16) return s;
    for (const char* k : {"oneOf", "anyOf"}) {
        const Loc alts = s.child(k);
        if (!alts.valid() || !alts.node.IsSequence()) continue;
        std::vector<Loc> real;
        for (std::size_t i = 0; i < alts.node.size(); ++i) {
            const Loc b = set_.deref(alts.at(i));
            const auto t = scalar(b.node, "type");
            if (!(t && *t == "null")) real.push_back(alts.at(i));
        }
        if (real.size() == 1) return flatten(real[0], depth + 1);
    }
    const Loc all = s.child("allOf");
    if (all.valid() && all.node.IsSequence() && all.node.size() == 1 && !get(s.node, "properties").IsDefined())
        return flatten(all.at(0), depth + 1);
    return s;
}

// The properties and required names of an object schema, through $ref and allOf.
void SchemaReader::gather_object(const Loc& s_in, Object& o, int depth) {
    const Loc s = flatten(s_in);
    if (!s.valid() || !s.node.IsMap() || depth > 16) return;
    for (const Loc& p : members(s.child("properties"))) {
        const std::string n = last_token(p);
        if (!o.find(n)) o.props.emplace_back(n, p);
    }
    const Loc req = s.child("required");
    if (req.valid() && req.node.IsSequence())
        for (const auto& r : req.node)
            if (r.IsScalar()) o.required.insert(r.Scalar());
    const Loc all = s.child("allOf");
    if (all.valid() && all.node.IsSequence())
        for (std::size_t i = 0; i < all.node.size(); ++i) gather_object(all.at(i), o, depth + 1);
}

// The JSON schema of an operation's request body (OpenAPI 3) or body parameter (Swagger 2).
Loc SchemaReader::request_schema(const Loc& op) {
    const Loc rb = set_.deref(op.child("requestBody"));
    if (rb.valid()) {
        for (const Loc& mt : members(rb.child("content")))
            if (last_token(mt).find("json") != std::string::npos) return set_.deref(mt).child("schema");
        const auto all = members(rb.child("content"));
        if (!all.empty()) return set_.deref(all.front()).child("schema");
    }
    const Loc params = op.child("parameters");
    if (params.valid() && params.node.IsSequence())
        for (std::size_t i = 0; i < params.node.size(); ++i) {
            const Loc p = set_.deref(params.at(i));
            if (scalar(p.node, "in").value_or("") == "body") return p.child("schema");
        }
    return Loc{};
}

// The schema of the first 2xx answer, noting the answer headers declared.
Loc SchemaReader::response_schema(const Loc& op) {
    for (const Loc& r_ref : members(op.child("responses"))) {
        const std::string code = last_token(r_ref);
        if (code.empty() || code[0] != '2') continue;
        const Loc r = set_.deref(r_ref);
        for (const Loc& h : members(r.child("headers"))) response_headers_.insert(last_token(h));
        for (const Loc& mt : members(r.child("content")))
            if (last_token(mt).find("json") != std::string::npos) return set_.deref(mt).child("schema");
        if (r.child("schema").valid()) return r.child("schema");
    }
    return Loc{};
}

// The id kind a property's schema fixes, judged by behaviour; "" when none.
std::string SchemaReader::kind_of(const Loc& prop, std::string* why) {
    const Loc s = flatten(prop);
    const std::string pat = scalar(s.node, "pattern").value_or("");
    const std::string fmt = lower(scalar(s.node, "format").value_or(""));
    std::string example = scalar(s.node, "example").value_or("");
    if (example.empty()) example = scalar(s.node, "x-example").value_or("");
    if (!pat.empty()) {
        const PatternVerdict& v = judge_pattern(pat);
        if (v.exact_for(7)) return *why = "its pattern is the UUIDv7 pattern", std::string(ids::kind_name(ids::IdKind::uuidv7));
        if (v.exact_for(4)) return *why = "its pattern is the UUIDv4 pattern", std::string(ids::kind_name(ids::IdKind::uuidv4));
        if (!example.empty()) {
            const std::string k = other_kind_exact(pat, example);
            if (!k.empty()) return *why = "its pattern is the canonical " + k + " form", k;
        }
    }
    if (fmt == "uuid") return *why = "format: uuid (no version)", std::string(ids::kind_name(ids::IdKind::uuid));
    if (fmt == "uuid4") return *why = "format: uuid4", std::string(ids::kind_name(ids::IdKind::uuidv4));
    return "";
}

std::string SchemaReader::body_value(const std::string& type, const std::string& word) {
    if (type == "integer" || type == "number") return "1";
    if (type == "boolean") return "true";
    return word;
}

// {name: idconform-probe, price: 1} from the required non-reference properties.
std::string SchemaReader::body_of(const Loc& schema, const std::string& word, bool all_required, std::string* skipped) {
    Object o;
    gather_object(schema, o);
    std::string out;
    for (const auto& [name, p] : o.props) {
        if (ids::id_named_field(name)) continue;  // the harness fills in ids and references
        if (!safe_text(name)) {
            left_out_.push_back("body field " + yaml_quote(name));
            continue;
        }
        if (all_required ? !o.required.count(name) : false) continue;
        const Loc s = flatten(p);
        const std::string type = scalar(s.node, "type").value_or("string");
        std::string value;
        const Loc en = s.child("enum");
        if (en.valid() && en.node.IsSequence() && en.node.size() > 0 && en.node[0].IsScalar() && safe_text(en.node[0].Scalar()))
            value = yaml_quote(en.node[0].Scalar());
        else if (type == "object" || type == "array") {
            if (skipped) *skipped += (skipped->empty() ? "" : ", ") + name;
            continue;
        } else value = body_value(type, word);
        out += (out.empty() ? "" : ", ") + yaml_quote(name) + ": " + value;
        if (!all_required) break;  // an update changes one field
    }
    return out.empty() ? "" : "{" + out + "}";
}

std::string SchemaReader::unwrap(const Resource& r, Object& entity) {
    if (entity.props.empty()) return "";
    std::vector<std::pair<std::string, Object>> inner;
    for (const auto& [n, p] : entity.props) {
        const std::string l = lower(n);
        // a member of an envelope's name, or the answer's one member ({"results": {...}})
        const bool envelope = l == "data" || l == "result" || l == "item" || l == "entity" || l == "resource" ||
                              l == "metadata" || l == "meta" || squash(l) == squash(singular(r.name)) ||
                              entity.props.size() == 1;
        if (!envelope || !safe_text(n)) continue;
        Object o;
        gather_object(p, o);
        if (o.find("id")) inner.emplace_back(n, std::move(o));
    }
    if (inner.size() != 1) return "";
    entity = std::move(inner[0].second);
    std::string ptr;
    append_pointer_token(ptr, inner[0].first);
    return ptr;
}

IdChoice SchemaReader::choose_id(const Resource& r, const Object& entity) {
    IdChoice c;
    const std::string stem = squash(singular(r.name));
    auto own_name = [&](const std::string& n) {
        const std::string st = reference_stem(n);
        return ids::id_named_field(n) && !st.empty() && (st == stem || st == squash(r.name));
    };
    auto is_number = [&](const Loc& p) {
        const std::string t = scalar(flatten(p).node, "type").value_or("");
        return t == "integer" || t == "number";
    };
    const Loc* idp = entity.find("id");
    // the id spelled otherwise (Docker's `Id`, `ID`): the same member
    for (const auto& [n, p] : entity.props)
        if (!idp && n != "id" && lower(n) == "id") {
            idp = &p;
            c.name = n;
            c.why = "the entity's id member is spelled '" + n + "'";
        }
    std::vector<std::string> uuids, own;
    for (const auto& [n, p] : entity.props) {
        if (n == c.name || n == "id" || !safe_text(n)) continue;
        const std::string l = lower(n);
        if (!is_number(p) && (l == "uuid" || l == "guid" || (l.find("uuid") != std::string::npos && own_name(n)))) uuids.push_back(n);
        else if (own_name(n)) own.push_back(n);
    }
    if (idp && is_number(*idp) && uuids.size() == 1) {
        c.name = uuids[0];
        c.why = "'id' is an integer key; /" + uuids[0] + " is the entity's UUID";
    } else if (!idp && (uuids.size() == 1 || (uuids.empty() && own.size() == 1))) {
        c.name = uuids.empty() ? own[0] : uuids[0];
        c.why = "guess: no 'id'; /" + c.name + " is the one member named as this resource's id";
    } else if (!idp) {
        return c;
    }
    c.found = true;
    if (r.item && c.name != "id") {
        const std::string t = path_param_type(*r.item, r.item->vars.back());
        // an integer path variable cannot take a string id; an integer id it takes
        c.path_takes_it = !(t == "integer" || t == "number") || is_number(*entity.find(c.name));
    }
    return c;
}

std::string SchemaReader::path_param_type(const PathInfo& p, const std::string& var) {
    auto in = [&](const Loc& params) -> std::string {
        if (!params.valid() || !params.node.IsSequence()) return "";
        for (std::size_t i = 0; i < params.node.size(); ++i) {
            const Loc q = set_.deref(params.at(i));
            if (scalar(q.node, "in").value_or("") != "path" || scalar(q.node, "name").value_or("") != var) continue;
            if (const auto t = scalar(q.node, "type")) return *t;  // Swagger 2
            return scalar(flatten(q.child("schema")).node, "type").value_or("");
        }
        return "";
    };
    if (std::string t = in(p.item.child("parameters")); !t.empty()) return t;
    for (const auto& [m, op] : p.ops)
        if (std::string t = in(op.node.child("parameters")); !t.empty()) return t;
    return "";
}

PutMeaning SchemaReader::put_meaning(const Loc& op) {
    std::string text;
    for (const char* k : {"summary", "description", "operationId"}) text += lower(scalar(op.node, k).value_or("")) + " ";
    bool created = false, not_found = false, ok = false;
    for (const Loc& r : members(op.child("responses"))) {
        const std::string code = last_token(r);
        created = created || code == "201";
        ok = ok || code == "200" || code == "204";
        not_found = not_found || code == "404";
    }
    auto says = [&](const char* w) { return text.find(w) != std::string::npos; };
    const bool creates = created || says("create") || says("upsert");
    if (creates && (says("upsert") || says("or replace") || says("or update") || says("createorreplace") ||
                    says("createorupdate") || (created && ok && !not_found)))
        return PutMeaning::create_or_replace;
    if (creates) return PutMeaning::create;
    if (not_found || text.find("update") != std::string::npos || text.find("replace") != std::string::npos) return PutMeaning::update;
    return PutMeaning::unsaid;
}

}  // namespace idconform::schema::draft
