// Drafting a target profile from an OpenAPI/Swagger document. See
// profile_draft.hpp. The draft is written as text (yaml-cpp's emitter cannot
// place comments beside values); every scalar goes through yaml_quote.
#include "schema/profile_draft.hpp"

#include "schema/profile_draft_impl.hpp"

#include "ids/ids.hpp"
#include "ids/kind.hpp"
#include "schema/pattern_judge.hpp"
#include "schema/spec.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace idconform::schema {

namespace {

using namespace draft;

class Drafter : SchemaReader {
public:
    Drafter(SpecSet& set, ProfileDraft& out) : SchemaReader(set), out_(out) {}

    void run() {
        const Loc root = set_.root();
        read_paths(root);
        std::string y;
        header(root, y);
        principals(root, y);
        resources(y);
        const bool any_post = std::any_of(res_.begin(), res_.end(), [](const Resource& r) { return r.coll->ops.count("post") != 0; });
        out_.no_resource = out_.resources == 0;
        out_.no_create = drafted_creates_ == 0 || out_.no_resource;
        out_.creates_not_drafted = out_.no_create && !out_.no_resource && any_post;
        if (out_.no_resource)
            y = operations_seen() + y;
        else if (out_.no_create && !any_post)
            y = "# NOTE: the document describes no create endpoint (a POST on a collection path): found " +
                std::to_string(paths_.size()) + " path" + (paths_.size() == 1 ? "" : "s") + " and " + std::to_string(res_.size()) +
                " resource" + (res_.size() == 1 ? "" : "s") + " without one.\n"
                "# The harness makes its own test data, so every pack (DATA-ID-001 to -007, events) skips until a\n"
                "# resource has `create: {path: ..., body: ...}`: this draft does not load until you add one.\n" + y;
        else if (out_.no_create)
            y = "# NOTE: no drafted resource has a create: the resources with a POST could not be drafted (below, each\n"
                "# says why, as a comment). The harness makes its own test data, so every pack skips until a resource\n"
                "# has `create: {path: ..., body: ...}`: this draft does not load until you complete one.\n" + y;
        out_.yaml = y;
        for (std::size_t at = 0; at < y.size();) {
            const auto nl = y.find('\n', at);
            const std::string_view line(y.data() + at, (nl == std::string::npos ? y.size() : nl) - at);
            if (line.find("# guess:") != std::string_view::npos || line.find("; guess:") != std::string_view::npos ||
                line.find(": guess:") != std::string_view::npos)
                ++out_.guesses;
            if (line.find("placeholder") != std::string_view::npos) ++out_.placeholders;
            at = nl == std::string::npos ? y.size() : nl + 1;
        }
    }

private:
    ProfileDraft& out_;
    std::vector<PathInfo> paths_;
    std::vector<Resource> res_;
    int drafted_creates_ = 0;  // drafted (not commented-out) resources with a create
    bool read_drafted_ = false;  // the resource being drafted has a read (uncommented)
    // lookups built once, so that drafting is linear in the number of paths
    std::unordered_map<std::string, const Resource*> by_stem_;       // squashed (singular) name -> first resource
    std::unordered_map<std::string, std::string> read_by_var_;       // item path variable -> last item path with GET
    std::unordered_map<std::string, std::string> read_by_parent_;    // squashed singular parent segment -> last item path with GET
    std::unordered_map<std::string, std::string> action_for_;        // an id name a POST body requires -> first such path


    void read_paths(const Loc& root) {
        std::set<std::string> seen_paths;
        for (const Loc& item_ref : members(root.child("paths"))) {
            PathInfo pi;
            pi.path = last_token(item_ref);
            if (pi.path.rfind("x-", 0) == 0) continue;  // an extension, not a path
            if (!seen_paths.insert(pi.path).second) continue;  // a duplicate key (warned): the first counts, as in lookups
            if (!safe_text(pi.path) || pi.path.empty() || pi.path[0] != '/') {
                left_out_.push_back("path " + yaml_quote(pi.path) + " (a path starts with '/' and holds no '${' or control character)");
                continue;
            }
            if (!path_template_ok(pi.path)) {
                left_out_.push_back("path " + yaml_quote(pi.path) +
                                    " (a path variable is '{name}' within one segment: an unclosed, stray or empty brace)");
                continue;
            }
            pi.item = set_.deref(item_ref);
            for (const char* m : {"get", "post", "put", "patch", "delete"}) {
                const Loc op = pi.item.child(m);
                if (op.valid() && op.node.IsMap()) pi.ops[m] = Op{op, true};
            }
            std::size_t pos = 0;
            while ((pos = pi.path.find('{', pos)) != std::string::npos) {
                const auto end = pi.path.find('}', pos);
                if (end == std::string::npos) break;
                pi.vars.push_back(pi.path.substr(pos + 1, end - pos - 1));
                pos = end + 1;
            }
            paths_.push_back(std::move(pi));
        }
        // a collection whose create is a POST on `<collection>/create` (no
        // variables, no POST of its own): that POST is the collection's
        {
            std::unordered_map<std::string, const PathInfo*> by_path;
            for (const auto& c : paths_) by_path.emplace(c.path, &c);
            for (auto& c : paths_) {
                if (c.path.ends_with("}")) continue;  // an item path
                const auto it = by_path.find(c.path + "/create");
                if (c.ops.count("post") || it == by_path.end() || !it->second->vars.empty() || !it->second->ops.count("post")) continue;
                c.ops["post"] = it->second->ops.at("post");
                c.post_at = "/create";
            }
        }
        // RPC-style APIs ("/documents.create", "/v1/orders:create"): the reads,
        // updates and deletes are POSTs of siblings taking the id in a body (id_at)
        std::unordered_map<std::string, const PathInfo*> post_at;
        for (const auto& c : paths_)
            if (c.vars.empty() && c.ops.count("post")) post_at.emplace(c.path, &c);
        auto sibling = [&](const std::string& stem, std::initializer_list<const char*> verbs) -> const PathInfo* {
            for (const char* v : verbs)
                if (const auto it = post_at.find(stem + v); it != post_at.end()) return it->second;
            return nullptr;
        };
        for (const auto& c : paths_) {
            const bool dotted = c.path.ends_with(".create"), colon = c.path.ends_with(":create");
            if (!c.vars.empty() || !c.ops.count("post") || (!dotted && !colon)) continue;
            const auto dot = c.path.size() - 7;
            const std::string stem = c.path.substr(0, dot + 1);  // "/documents." or "/v1/orders:"
            Resource r;
            r.collection = c.path;
            r.path = c.path;
            r.coll = &c;
            r.rpc = true;
            r.rpc_read = sibling(stem, {"info", "get", "read", "show", "fetch"});
            r.rpc_update = sibling(stem, {"update", "patch", "edit"});
            r.rpc_delete = sibling(stem, {"delete", "remove", "destroy"});
            r.name = c.path.substr(c.path.rfind('/') + 1, dot - c.path.rfind('/') - 1);
            for (auto& ch : r.name)
                if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-')) ch = '_';
            if (r.name.empty() || !(std::isalpha(static_cast<unsigned char>(r.name[0])) || r.name[0] == '_')) r.name = "r_" + r.name;
            res_.push_back(r);
        }
        // resources: a collection path (its last segment not a variable, though a
        // parent may be one: /v1/{prefix}/namespaces/{namespace}/tables) and its
        // item path `<collection>/{var}`
        // (a trailing '/' is the same path: /circuits/terminations/ and /circuits/terminations/{id}/, as Django writes them)
        auto trimmed = [](const std::string& p) { return p.size() > 1 && p.back() == '/' ? p.substr(0, p.size() - 1) : p; };
        std::unordered_map<std::string, const PathInfo*> item_of;  // collection path -> its last item path
        for (const auto& i : paths_) {
            const std::string ip = trimmed(i.path);
            if (!i.vars.empty() && ip.ends_with("/{" + i.vars.back() + "}"))
                item_of[ip.substr(0, ip.size() - i.vars.back().size() - 3)] = &i;
        }
        std::set<std::string> names;
        for (const auto& r : res_) names.insert(r.name);
        for (const auto& c : paths_) {
            const std::string cp = trimmed(c.path);
            if (cp.ends_with("}") || c.path.ends_with(".create") || c.path.ends_with(":create")) continue;
            Resource r;
            r.collection = c.path;
            r.path = with_parent_vars(c.path, "");
            r.coll = &c;
            if (const auto it = item_of.find(cp); it != item_of.end()) r.item = it->second;
            if (!c.ops.count("post") && !r.item) continue;
            // a POST with no item path is a resource only when its answer has an id
            // (else it is an action, like a confirmation)
            if (!r.item) {
                Object answer;
                gather_object(response_schema(c.ops.at("post").node), answer);
                if (!answer.find("id")) continue;
            }
            if (!c.ops.count("post") && !c.ops.count("get") && r.item && !r.item->ops.count("get")) continue;
            auto clean = [](std::string n) {
                for (auto& ch : n)
                    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-')) ch = '_';
                if (!std::isalpha(static_cast<unsigned char>(n[0])) && n[0] != '_') n = "r_" + n;
                return n;
            };
            std::string seg = cp.substr(cp.rfind('/') + 1);
            r.name = clean(seg.empty() ? "root" : seg);
            // a second collection of that name is named by the fixed segment before it
            // (/Invoices/{InvoiceID}/Attachments: Invoices_Attachments; /designer/templates: designer_templates)
            if (names.count(r.name)) {
                std::string parent;
                for (std::size_t end = cp.rfind('/'); end != std::string::npos && end > 0 && parent.empty();) {
                    const std::size_t from = cp.rfind('/', end - 1);
                    if (from == std::string::npos) break;
                    const std::string p = cp.substr(from + 1, end - from - 1);
                    if (!p.empty() && p.front() != '{') parent = p;
                    end = from;
                }
                if (!parent.empty() && !names.count(clean(parent + "_" + r.name))) r.name = clean(parent + "_" + r.name);
            }
            if (names.count(r.name)) r.name += "_" + std::to_string(res_.size());
            names.insert(r.name);
            res_.push_back(r);
        }
    }

    // What the top of a draft without a resource says: that, and the operations the document has.
    std::string operations_seen() const {
        constexpr std::size_t shown = 60;
        std::string y = "# NOTE: no resource was recognised: none of the paths is a collection with a POST whose answer\n"
                        "# has an id, or with an item path <collection>/{var}. Add resources by hand (docs/target-profile.md);\n"
                        "# this draft does not load until one has `create:`. The operations of the document:\n";
        std::size_t n = 0;
        for (const auto& p : paths_)
            for (const auto& [method, op] : p.ops)
                if (n++ < shown) {
                    std::string m = method;
                    for (auto& c : m) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
                    y += "#   " + m + " " + one_line(p.path) + "\n";
                }
        if (n == 0) y += "#   (none)\n";
        if (n > shown) y += "#   ... and " + std::to_string(n - shown) + " more\n";
        return y;
    }

    void header(const Loc& root, std::string& y) {
        y += "# Target profile drafted by `idconform init --from-openapi " + one_line(root.file->path) + "`.\n";
        y += "# Each value read off the document says what it was based on; check each one marked as a guess,\n";
        y += "# fill in the commented ones left to fill in, then: idconform run --target THIS_FILE\n";
        std::string title = scalar(get(root.node, "info"), "title").value_or("");
        if (!safe_text(title)) {
            left_out_.push_back("info.title " + yaml_quote(title));
            title.clear();
        }
        y += "name: " + yaml_quote(title.empty() ? std::string("api") : title) + (title.empty() ? "  # the document has no info.title\n" : "  # info.title\n");
        std::string url;
        std::string why;
        const Loc servers = root.child("servers");
        if (servers.valid() && servers.node.IsSequence() && servers.node.size() > 0) {
            const Loc s0 = servers.at(0);
            url = scalar(s0.node, "url").value_or("");
            // server variables take their defaults
            for (const Loc& v : members(s0.child("variables"))) {
                const std::string name = "{" + last_token(v) + "}";
                const std::string def = scalar(v.node, "default").value_or("");
                for (std::size_t p; (p = url.find(name)) != std::string::npos;) url.replace(p, name.size(), def);
            }
            why = "servers[0].url";
        } else if (const auto host = scalar(root.node, "host")) {
            std::string scheme = "https";
            const Loc schemes = root.child("schemes");
            if (schemes.valid() && schemes.node.IsSequence() && schemes.node.size() > 0 && schemes.node[0].IsScalar())
                scheme = schemes.node[0].Scalar();
            url = scheme + "://" + *host + scalar(root.node, "basePath").value_or("");
            while (url.size() > 1 && url.back() == '/') url.pop_back();
            why = "schemes, host and basePath";
        }
        const bool absolute = !url.empty() && url.find("://") != std::string::npos && url.find('{') == std::string::npos &&
                              url.find('$') == std::string::npos;
        if (absolute && loopback_url(url)) {
            y += "base_url: " + yaml_quote("${env:IDCONFORM_BASE_URL:-" + url + "}") + "  # " + why + "\n";
        } else if (absolute) {
            // A server the document names may be production: the packs create,
            // change and delete there, so no default; an unset variable stops
            // the run before its first request.
            std::string named;
            std::size_t n = 0;
            for (std::size_t i = 0; servers.valid() && servers.node.IsSequence() && i < servers.node.size(); ++i) {
                const std::string u = scalar(servers.at(i).node, "url").value_or("");
                if (u.empty() || !safe_text(u) || ++n > 3) continue;
                named += (named.empty() ? "" : ", ") + one_line(u);
            }
            if (named.empty()) named = one_line(url);
            y += "base_url: \"${env:IDCONFORM_BASE_URL}\"  # no default: the document names " + named +
                 " (perhaps production); set IDCONFORM_BASE_URL to a test or staging server\n";
        } else {
            y += "base_url: \"${env:IDCONFORM_BASE_URL}\"  # the document names no absolute server URL" +
                 (url.empty() ? std::string() : " ('" + one_line(url) + "')") + ": set IDCONFORM_BASE_URL\n";
        }
        y += "headers: {Accept: application/json}  # the answers the packs read are JSON\n";
        y += "# clock_skew: 2s                     # placeholder: how far the server's clock may be off\n";
    }

    void principals(const Loc& root, std::string& y) {
        Loc schemes = set_.deref(set_.deref(root.child("components")).child("securitySchemes"));
        if (!schemes.valid()) schemes = set_.deref(root.child("securityDefinitions"));
        std::string chosen;
        const Loc sec = root.child("security");
        if (sec.valid() && sec.node.IsSequence() && sec.node.size() > 0 && sec.node[0].IsMap() && sec.node[0].size() > 0)
            chosen = sec.node[0].begin()->first.Scalar();
        Loc scheme;
        for (const Loc& s : members(schemes))
            if (chosen.empty() || last_token(s) == chosen) {
                scheme = set_.deref(s);
                chosen = last_token(s);
                break;
            }
        y += "principals:  # the first owns the test data; the second must not reach it (DATA-ID-004)\n";
        if (!scheme.valid()) {
            y += "  anonymous: {}  # the document declares no security scheme\n";
            y += "  # other: {headers: {Authorization: \"Bearer ${env:IDCONFORM_TOKEN_B}\"}}  # placeholder: a second principal\n";
            return;
        }
        const std::string type = lower(scalar(scheme.node, "type").value_or(""));
        const std::string http_scheme = lower(scalar(scheme.node, "scheme").value_or(""));
        std::string header, value_a, value_b;
        if ((type == "http" && http_scheme == "bearer") || type == "oauth2" || type == "openidconnect") {
            header = "Authorization";
            value_a = "Bearer ${env:IDCONFORM_TOKEN_A}";
            value_b = "Bearer ${env:IDCONFORM_TOKEN_B}";
        } else if ((type == "http" && http_scheme == "basic") || type == "basic") {
            header = "Authorization";
            value_a = "Basic ${env:IDCONFORM_BASIC_A}";
            value_b = "Basic ${env:IDCONFORM_BASIC_B}";
        } else if (type == "apikey" && lower(scalar(scheme.node, "in").value_or("")) == "header") {
            header = scalar(scheme.node, "name").value_or("");
            value_a = "${env:IDCONFORM_TOKEN_A}";
            value_b = "${env:IDCONFORM_TOKEN_B}";
        }
        if (!safe_text(header)) header.clear();  // said below: it cannot be sent as a header
        const std::string why = "security scheme '" + one_line(chosen) + "' (" + type + (http_scheme.empty() ? "" : " " + http_scheme) + ")";
        if (header.empty()) {
            y += "  anonymous: {}  # " + why + " cannot be sent as a header: add the credentials by hand\n";
            return;
        }
        y += "  owner: {headers: {" + yaml_quote(header) + ": " + yaml_quote(value_a) + "}}  # " + why + "\n";
        y += "  other: {headers: {" + yaml_quote(header) + ": " + yaml_quote(value_b) + "}}  # a second user's token\n";
    }


    const Resource* resource_for_stem(const std::string& stem) const {
        const auto it = by_stem_.find(stem);
        return it == by_stem_.end() ? nullptr : it->second;
    }

    // The lookups id_and_fields makes for every property, built once.
    void index_paths() {
        for (const auto& r : res_) {
            const std::string a = squash(singular(r.name)), b = squash(r.name);
            // the first resource either name matches, as a scan of res_ in order would find
            by_stem_.try_emplace(a, &r);
            by_stem_.try_emplace(b, &r);
        }
        std::set<const PathInfo*> collections;
        for (const auto& r : res_) collections.insert(r.coll);
        for (const auto& pi : paths_) {
            if (pi.vars.size() == 1 && pi.ops.count("get")) {
                read_by_var_[pi.vars[0]] = item_path(pi);
                const std::string parent = pi.path.substr(0, pi.path.rfind('/'));
                read_by_parent_[squash(singular(parent.substr(parent.rfind('/') + 1)))] = item_path(pi);
            }
            if (!pi.vars.empty() || !pi.ops.count("post") || collections.count(&pi)) continue;
            Object body;
            gather_object(request_schema(pi.ops.at("post").node), body);
            for (const auto& name : body.required)
                if (name.ends_with("_id") && body.find(name)) action_for_.try_emplace(name, pi.path);
        }
    }

    // The item path as the profile writes it: its last variable {id}, the others from the environment.
    static std::string item_path(const PathInfo& p) { return with_parent_vars(p.path, p.vars.back()); }

    // The environment variable a run reads a parent path variable from ({namespace}: IDCONFORM_PATH_NAMESPACE).
    static std::string parent_env(const std::string& var) {
        std::string e = "IDCONFORM_PATH_";
        for (const char c : var) e += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : '_';
        return e;
    }

    // `path` with every {var} but `id_var` written ${env:IDCONFORM_PATH_VAR} and `id_var` as {id}:
    // a profile knows one path variable, the entity's id; the parents it lives under are the user's to say.
    static std::string with_parent_vars(const std::string& path, const std::string& id_var) {
        std::string out;
        for (std::size_t i = 0; i < path.size(); ++i) {
            const std::size_t close = path[i] == '{' ? path.find('}', i) : std::string::npos;
            if (close == std::string::npos) {
                out += path[i];
                continue;
            }
            const std::string var = path.substr(i + 1, close - i - 1);
            out += !id_var.empty() && var == id_var && path.find('{', close) == std::string::npos ? "{id}" : "${env:" + parent_env(var) + "}";
            i = close;
        }
        return out;
    }

    void resources(std::string& y) {
        index_paths();
        y += "resources:\n";
        std::string headers_seen;
        std::set<std::string> drafted;
        for (const auto& r : res_) {
            ++out_.resources;
            const std::size_t start = y.size();
            y += "  " + r.name + ":  # paths " + r.collection + (r.item ? " and " + r.item->path : std::string()) + "\n";
            if (!r.coll->vars.empty()) {
                std::string vars, envs;
                for (const auto& v : r.coll->vars) {
                    vars += (vars.empty() ? "{" : ", {") + v + "}";
                    envs += (envs.empty() ? "" : ", ") + parent_env(v);
                }
                y += "    # placeholder: the paths lie under " + vars + ": set " + envs +
                     " to a parent the run may create test data under (the run stops before its first request while one is unset)\n";
            }
            if (r.rpc && !r.rpc_read && !r.rpc_update && !r.rpc_delete)
                y += "    # read/update/delete: placeholder: this API takes the id in a POST body; no sibling of the "
                     "create (" + r.name + ".info, " + r.name + ".delete) was found: write read: {method: POST, path: "
                     "..., id_at: /id}\n";
            Object entity;
            std::string entity_from;
            Loc create_schema;
            CreateAt create_at;
            if (r.item && r.item->ops.count("get")) {
                gather_object(response_schema(r.item->ops.at("get").node), entity);
                entity_from = "GET " + r.item->path;
            } else if (r.rpc_read) {
                gather_object(response_schema(r.rpc_read->ops.at("post").node), entity);
                entity_from = "POST " + r.rpc_read->path;
            }
            if (r.coll->ops.count("post")) {
                const Loc op = r.coll->ops.at("post").node;
                create_schema = request_schema(op);
                std::string skipped;
                const std::string body = body_of(create_schema, "idconform-probe", true, &skipped);
                y += "    create: {path: " + yaml_quote(r.path + r.coll->post_at) + (body.empty() ? "" : ", body: " + body) + "}";
                y += r.coll->post_at.empty() ? "  # POST" : "  # POST on " + r.coll->path + r.coll->post_at + ", the collection's create";
                y += "; body: the create schema's required properties besides ids";
                if (!skipped.empty()) y += " (left out, fill in: " + skipped + ")";
                y += "\n";
                if (entity.props.empty()) {
                    gather_object(response_schema(op), entity);
                    entity_from = "the POST answer";
                } else {
                    Object created;
                    gather_object(response_schema(op), created);
                    create_at = create_id_member(r.name, entity, created);
                    create_at.answer = created;  // what the create answer holds, beside the read entity
                }
            }
            IdChoice id = choose_id(r, entity);
            std::string envelope;
            if (!id.found && create_at.pointer.empty()) {
                envelope = unwrap(r, entity);
                if (!envelope.empty()) {
                    entity_from += " (inside " + envelope + ")";
                    id = choose_id(r, entity);
                    // the create answer wraps it the same way
                    if (create_at.answer)
                        if (const Loc* inner = create_at.answer->find(envelope.substr(1))) {
                            Object unwrapped;
                            gather_object(*inner, unwrapped);
                            create_at.answer = std::move(unwrapped);
                        }
                }
            }
            if (r.item) item_operations(r, id, y);
            if (r.rpc) rpc_operations(r, y);
            if (r.coll->ops.count("get")) {
                const Loc op = r.coll->ops.at("get").node;
                const Loc s = flatten(response_schema(op));
                std::string items;
                bool known = false, one_entity = false;
                if (scalar(s.node, "type").value_or("") == "array") {
                    known = true;
                } else {
                    Object page;
                    gather_object(s, page);
                    // an answer with the entity's id member is one entity, not a page
                    // (its arrays are the entity's own: a transmission's attachments)
                    one_entity = id.found && page.find(id.name) != nullptr;
                    for (const auto& [n, p] : page.props) {
                        if (one_entity) break;
                        if (scalar(flatten(p).node, "type").value_or("") != "array" || !safe_text(n)) continue;
                        items = yaml_quote(member_pointer(n));
                        known = true;
                        break;
                    }
                }
                if (known) y += "    list: {path: " + yaml_quote(r.path) + (items.empty() ? "" : ", items: " + items) + "}  # GET; " +
                                (items.empty() ? "the answer is the array\n" : "guess: items: the first array of the answer\n");
                else if (one_entity)
                    y += "    # list: {path: " + r.path + ", items: /...}  # placeholder: the document says the GET answers one entity (it has /" +
                         id.name + "), not a list\n";
                else y += "    # list: {path: " + r.path + ", items: /...}  # placeholder: the answer's array was not found\n";
                // an id query parameter of the list is a lookup by id (db-identifiers R5.1)
                const Loc params = op.child("parameters");
                if (params.valid() && params.node.IsSequence())
                    for (std::size_t i = 0; i < params.node.size(); ++i) {
                        const Loc p = set_.deref(params.at(i));
                        if (scalar(p.node, "in").value_or("") == "query" && scalar(p.node, "name").value_or("") == "id")
                            y += "    lookup: {path: " + yaml_quote(r.path) + ", param: id}  # the query parameter 'id'\n";
                    }
            }
            read_drafted_ = has_key(y, start, "read");
            id_and_fields(r, entity, entity_from, create_schema, create_at, id, envelope, y);
            // a resource of comments alone is no mapping: the whole of it becomes a comment
            if (!has_entry(y, y.find('\n', start) + 1)) {
                y.insert(start + 2, "# placeholder, nothing the packs can use was found: ");
                --out_.resources;
            } else if (!id.found && !entity.props.empty() && create_at.pointer.empty()) {
                // an entity schema without an id (tags, a cache): not an entity the packs can address
                comment_out(y, start, "# not drafted: " + entity_from + " has no id member (no 'id', nothing named as this resource's id): ");
                --out_.resources;
            } else {
                drafted.insert(r.name);
                if (has_create(y, start)) ++drafted_creates_;
            }
        }
        drop_references_to(y, drafted);
        if (res_.empty()) y += "  # placeholder: no collection path with POST or item path was found\n  {}\n";
        else if (out_.resources == 0) y += "  {}  # placeholder: no resource could be drafted (above, why)\n";
        for (const auto& what : left_out_) y += "# left out: " + one_line(what) + "\n";
        for (const char* h : {"X-Request-Id", "X-Request-ID", "Request-Id", "X-Correlation-Id"})
            if (response_headers_.count(h)) {
                y += "request_id: " + std::string(h) + "  # an answer header the document declares\n";
                break;
            }
        y += "# legacy (uuidv8-legacy) and grpc sections cannot be read from an OpenAPI document: see docs/target-profile.md\n";
    }

    // Where the POST answer names the new id when the read entity has it at
    // /id and the POST answer has no `id`: its one property the entity lacks
    // that is named as this resource's id ({"orderID": ...} for /orders);
    // other id-named ones are named in a comment, never chosen among.
    // read, update, delete and put of a resource's item path.
    void item_operations(const Resource& r, const IdChoice& id, std::string& y) {
        const std::string ip = item_path(*r.item);
        const std::string var = r.item->vars.back();
        // the item path takes an integer key, the entity's id is its UUID, or the path names the entity by a
        // handle, a name or a slug ({channelHandle}, {team_name}): a profile addresses entities by their id
        std::string word;
        for (char c : var) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string by;
        for (const char* w : {"handle", "name", "slug", "username", "login", "email"})
            if (word.size() >= std::strlen(w) && word.compare(word.size() - std::strlen(w), std::string::npos, w) == 0 &&
                var != "name_or_id")
                by = w;
        const bool takes_id = id.path_takes_it && by.empty();
        const std::string off = takes_id ? "" : "    # ";
        const std::string off_why =
            takes_id ? ""
            : !by.empty()
                ? "  # not drafted: the path variable '" + var + "' names the entity by its " + by + ", not by its id /" + id.name
                : "  # not drafted: the path variable '" + var + "' is an integer, the id is /" + id.name;
        const std::string var_note = !takes_id || ids::id_named_field(var) || var == "name_or_id"
                                         ? std::string()
                                         : "  # guess: the path variable is '" + var + "': check that it takes the entity's id";
        auto line = [&](const std::string& text, const std::string& why) {
            y += (off.empty() ? "    " : off) + text + (off.empty() ? why : off_why) + "\n";
        };
        if (r.item->ops.count("get")) line("read: {path: " + yaml_quote(ip) + "}", var_note);
        const bool patch = r.item->ops.count("patch") != 0;
        if (patch) {
            const std::string body = body_of(request_schema(r.item->ops.at("patch").node), "idconform-renamed", false, nullptr);
            line("update: {path: " + yaml_quote(ip) + (body.empty() ? "" : ", body: " + body) + "}", "  # PATCH");
        }
        if (r.item->ops.count("delete")) line("delete: {path: " + yaml_quote(ip) + "}", "");
        if (!r.item->ops.count("put")) return;
        const Loc op = r.item->ops.at("put").node;
        const PutMeaning meaning = put_meaning(op);
        if (meaning == PutMeaning::create_or_replace) {
            const std::string body = body_of(request_schema(op), "idconform-put", true, nullptr);
            line("put: {path: " + yaml_quote(ip) + (body.empty() ? "" : ", body: " + body) + ", replaces: true}",
                 "  # guess: PUT on the item path, documented to create or replace (a 201 and a 200, or 'upsert'): "
                 "a PUT to a live id replaces it");
            return;
        }
        if (meaning == PutMeaning::create) {
            const std::string body = body_of(request_schema(op), "idconform-put", true, nullptr);
            line("put: {path: " + yaml_quote(ip) + (body.empty() ? "" : ", body: " + body) + "}",
                 "  # PUT on the item path, documented to create (a 201, or 'create'): a create with the client's id");
            return;
        }
        // a replacement sends the required members; without any, one member changed
        std::string body = body_of(request_schema(op), "idconform-renamed", true, nullptr);
        if (body.empty()) body = body_of(request_schema(op), "idconform-renamed", false, nullptr);
        const std::string update = "update: {method: PUT, path: " + yaml_quote(ip) + (body.empty() ? "" : ", body: " + body) + "}";
        const std::string put = "put: {path: " + yaml_quote(ip) + (body.empty() ? "" : ", body: " + body) + "}";
        if (patch)
            y += "    # " + put + "  # guess: PUT beside PATCH, " +
                 (meaning == PutMeaning::update ? "documented as an update (a 404, or 'update'): not a create"
                                                : "not documented as a create: uncomment if it creates with the client's id") + "\n";
        else if (meaning == PutMeaning::update)
            line(update, "  # PUT on the item path, documented as an update (a 404 for an unknown id, or 'update')");
        else
            line(update, "  # guess: PUT on the item path, not documented as a create, taken as an update; "
                         "if it creates with the client's id, write put: {path: ...} instead");
    }

    // The read, update and delete of an RPC-style resource: POSTs naming the
    // entity by the id in their body, at its `id` member (or the one id-named
    // member the body has, a guess).
    void rpc_operations(const Resource& r, std::string& y) {
        auto one = [&](const char* key, const PathInfo* p, const char* word) {
            if (!p) return;
            const Loc schema = request_schema(p->ops.at("post").node);
            Object body;
            gather_object(schema, body);
            std::string at, note;
            if (body.find("id")) at = "/id";
            else {
                std::vector<std::string> named;
                for (const auto& [n, prop] : body.props)
                    if (ids::id_named_field(n) && safe_text(n)) named.push_back(n);
                if (named.size() == 1) {
                    at = member_pointer(named.front());
                    note = "; guess: the id is its one id-named member";
                }
            }
            if (at.empty()) {
                y += "    # " + std::string(key) + ": {method: POST, path: " + yaml_quote(p->path) +
                     ", id_at: /...}  # placeholder: its body names no id member\n";
                return;
            }
            std::string rest;
            if (word) {
                rest = body_of(schema, word, false, nullptr);
                // the id goes at id_at; a body of the id alone adds nothing
                if (rest == "{" + at.substr(1) + ": " + word + "}") rest.clear();
            }
            y += "    " + std::string(key) + ": {method: POST, path: " + yaml_quote(p->path) + ", id_at: " + yaml_quote(at) +
                 (rest.empty() ? "" : ", body: " + rest) + "}  # POST with the id in the body" + note + "\n";
        };
        one("read", r.rpc_read, nullptr);
        one("update", r.rpc_update, "idconform-renamed");
        one("delete", r.rpc_delete, nullptr);
    }

    struct CreateAt {
        std::string pointer;  // "" = none
        std::string comment;  // for the draft
        std::optional<Object> answer;  // the POST answer's schema, when the entity came from a read
    };
    static CreateAt create_id_member(const std::string& resource, const Object& entity, const Object& created) {
        CreateAt out;
        if (!entity.find("id") || created.props.empty() || created.find("id")) return out;
        // only a name that says it is this resource's id (orderID for
        // /orders) is taken; a jobId or requestId in the answer is not
        std::vector<std::string> names, own;
        for (const auto& [name, p] : created.props)
            if (ids::id_named_field(name) && !entity.find(name) && safe_text(name)) {
                names.push_back(name);
                const std::string stem = reference_stem(name);
                if (!stem.empty() && (stem == squash(singular(resource)) || stem == squash(resource))) own.push_back(name);
            }
        if (own.size() == 1) {
            out.pointer = member_pointer(own[0]);
            out.comment = "guess: the POST answer has no 'id' but '" + own[0] + "'";
        } else if (!names.empty()) {
            std::string list;
            for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
            out.comment = "the POST answer has no 'id'; " + std::string(names.size() == 1 ? "" : "one of ") + list +
                          " may name the new id: if so, add create_at: /THAT to id";
        }
        return out;
    }

    void id_and_fields(const Resource& r, const Object& entity, const std::string& entity_from, const Loc& create_schema,
                       const CreateAt& create_at, const IdChoice& id, const std::string& envelope, std::string& y) {
        auto at_of = [&](const std::string& name) {
            std::string ptr = envelope;
            append_pointer_token(ptr, name);
            return yaml_quote(ptr);
        };
        if (entity.props.empty()) {
            y += "    # id: {at: /id, kind: uuidv7}  # placeholder: no entity schema found (the default is this)\n";
            return;
        }
        Object create;
        gather_object(create_schema, create);
        const Loc* idp = id.found ? entity.find(id.name) : nullptr;
        if (idp) {
            std::string why;
            std::string k = kind_of(*idp, &why);
            const std::string type = scalar(flatten(*idp).node, "type").value_or("");
            if (k.empty() && (type == "integer" || type == "number"))
                why = "typed " + type + " in the document: the packs will say so (DATA-ID-002); uuidv7 is what DATA-ID-001 asks";
            else if (k.empty()) why = "guess: its schema fixes no id kind; uuidv7 is what DATA-ID-001 asks";
            const std::string made_at = create_at.pointer.empty() ? "" : ", create_at: " + yaml_quote(create_at.pointer);
            y += "    id: {at: " + at_of(id.name) + ", kind: " + (k.empty() ? std::string("uuidv7") : k) + made_at + "}  # " + envelope + "/" +
                 id.name + " of " + entity_from + ": " + (id.why.empty() ? "" : id.why + "; ") + why +
                 (create_at.comment.empty() ? "" : "; " + create_at.comment) + "\n";
        } else {
            y += "    # id: {at: /..., kind: uuidv7}  # placeholder: " + entity_from + " has no 'id' property\n";
        }
        std::string fields, refs, time_field, viewable, job;
        for (const auto& [name, p] : entity.props) {
            if (name == "id" || name == id.name) continue;
            if (!safe_text(name)) {
                left_out_.push_back("field " + yaml_quote(name));
                continue;
            }
            const Loc s = flatten(p);
            const std::string fmt = lower(scalar(s.node, "format").value_or(""));
            const bool creation_time = fmt == "date-time" && (name == "created_at" || name == "createdAt" || name == "created" ||
                                                              name == "creation_time" || name == "createTime");
            // only the read has it (an audit column the database fills in): judged on a read-back
            const bool read_only = create_at.answer && !create_at.answer->props.empty() && !create_at.answer->find(name) &&
                                   r.item && r.item->ops.count("get");
            // (in_create: false needs the read the draft has)
            if (time_field.empty() && creation_time && read_only && !read_drafted_)
                time_field = "    # time_field: {at: " + at_of(name) + ", in_create: false}  # placeholder: only the read answer has "
                             "it, and no read is drafted\n";
            else if (time_field.empty() && creation_time && read_only)
                time_field = "    time_field: {at: " + at_of(name) +
                             ", in_create: false}  # guess: a date-time property named for creation, not in the POST answer\n";
            else if (time_field.empty() && creation_time)
                time_field = "    time_field: " + at_of(name) + "  # guess: a date-time property named for creation\n";
            if (!ids::id_named_field(name)) continue;
            std::string why;
            const std::string k = kind_of(p, &why);
            const std::string stem = reference_stem(name);
            if (k == "viewable") {
                const auto rv = read_by_var_.find(name);
                const std::string read = rv == read_by_var_.end() ? std::string() : rv->second;
                viewable = "    viewable: {at: " + at_of(name) + (read.empty() ? "" : ", read: " + yaml_quote(read)) + "}  # " + why +
                           (read.empty() ? "; no path reads by it" : "; read by GET " + read) + "\n";
                // the viewable-id pack creates entities to read their viewable ids
                if (!r.coll->ops.count("post")) viewable = "    # placeholder (no create on this resource, which the pack needs):" + viewable.substr(3);
                continue;
            }
            const Resource* target = stem.empty() ? nullptr : resource_for_stem(stem);
            if (!target && stem == "parent") target = &r;
            if (target && !envelope.empty()) {
                refs += "      # " + name + ": {resource: " + target->name + "}  # placeholder: a reference inside " + envelope +
                        " of the answer, which references: cannot point into\n";
                continue;
            }
            if (target) {
                const bool required = create.required.count(name) != 0;
                const bool creatable = target->coll && target->coll->ops.count("post");
                if (required && (target == &r || !creatable)) {
                    refs += "      # " + name + ": {resource: " + target->name + ", required: true}  # placeholder: " +
                            (target == &r ? std::string("a required reference to its own resource cannot be made first")
                                          : target->name + " has no create, so the harness cannot make the entity it needs") +
                            "\n";
                    continue;
                }
                refs += "      " + yaml_quote(name) + ": {resource: " + target->name + ", required: " + (required ? "true" : "false") +
                        (k.empty() || k == "uuidv7" ? "" : ", kind: " + k) + "}  # " +
                        (stem == "parent" && target == &r ? "guess: 'parent' taken as the same resource" : "guess: names resource " + target->name) +
                        "; required: " + (required ? "in" : "not in") + " the create schema's required" + "\n";
                continue;
            }
            // another generated id with a path that reads it (db-identifiers R7)
            std::string jread;
            if (!stem.empty() && !resource_for_stem(stem))
                if (const auto it = read_by_parent_.find(stem); it != read_by_parent_.end()) jread = it->second;
            if (!jread.empty() && job.empty()) {
                job = "    job: {at: " + at_of(name) + ", read: " + yaml_quote(jread) + "}  # guess: another generated id, read by GET " + jread + "\n";
                continue;
            }
            if (!k.empty()) fields += "      " + yaml_quote(name) + ": {at: " + at_of(name) + ", kind: " + k + "}  # " + why + "\n";
            else fields += "      # " + name + ": {at: " + envelope + member_pointer(name) + ", kind: ...}  # placeholder: the schema fixes no id kind\n";
        }
        // a section header only above real entries: a mapping of comments alone does not load
        auto section = [&](const char* key, const std::string& body) {
            if (body.empty()) return;
            if (body.find("\n      \"") != std::string::npos || body.find("\n      ") != std::string::npos ||
                body.rfind("      #", 0) != 0) {
                bool real = false;
                std::size_t at = 0;
                while (at < body.size()) {
                    const auto nl = body.find('\n', at);
                    const std::string line = body.substr(at, nl - at);
                    if (line.rfind("      #", 0) != 0) real = true;
                    at = nl == std::string::npos ? body.size() : nl + 1;
                }
                if (real) {
                    y += std::string("    ") + key + ":\n" + body;
                    return;
                }
            }
            y += body;  // comments only
        };
        section("fields", fields);
        section("references", refs);
        y += time_field + viewable + job;
        // a POST elsewhere whose body names this resource's id: the application's own action (R5.2)
        const std::string own = singular(r.name) + "_id";
        if (const auto it = action_for_.find(own); it != action_for_.end())  // one action per resource: the first
            y += "    action: {path: " + yaml_quote(it->second) + ", id_at: /" + own + "}  # POST whose body requires " + own + "\n";
    }
};

}  // namespace

namespace {

ProfileDraft draft_set(std::unique_ptr<SpecSet> set, std::vector<Diagnostic>& diags) {
    ProfileDraft out;
    if (!set) {
        out.errors = std::move(diags);
        return out;
    }
    if (!set->shape_errors().empty()) {
        out.errors = set->shape_errors();
        return out;
    }
    Drafter(*set, out).run();
    out.warnings = set->diagnostics();
    return out;
}

}  // namespace

ProfileDraft draft_profile(const std::string& spec_path) {
    std::vector<Diagnostic> diags;
    auto set = SpecSet::load(spec_path, diags);
    return draft_set(std::move(set), diags);
}

ProfileDraft draft_profile_text(const std::string& name, const std::string& text) {
    std::vector<Diagnostic> diags;
    auto set = SpecSet::load_text(name, text, diags);
    return draft_set(std::move(set), diags);
}

}  // namespace idconform::schema
