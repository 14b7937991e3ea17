// The target-profile loader: YAML text -> validated Profile. It reads with the
// suite loader's YAML reader, so positions, messages and "did you mean" hints
// look the same; every problem is collected and the profile is returned only
// when there were none.
#include "profile/load_impl.hpp"

#include "suite/input_guard.hpp"
#include "suite/target_reader.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

namespace idconform::profile::loading {

namespace {

const std::vector<std::string> profile_keys = {"name",      "base_url",   "headers",    "tls",
                                               "timeout",   "clock_skew", "principals", "packs",
                                               "resources", "request_id", "grpc",       "refused"};

const char* const profile_example =
    "\n  name: my-api\n  base_url: http://127.0.0.1:8080\n  principals:\n    alice: {headers: {Authorization: "
    "\"Bearer alice\"}}\n  resources:\n    products:\n      create: {path: /v1/products, body: {name: probe}}";

std::vector<std::string> accepted_packs() { return known_packs(); }

}  // namespace

std::optional<Profile> Loader::load(const std::string& text) {
    auto root =
        detail::parse_document(r_, text, "profile", std::string("a target profile needs at least:") + profile_example);
    if (!root) return std::nullopt;
    const Val rv{*root, root->Mark()};
    if (!root->IsMap()) {
        r_.error(rv, "expected a mapping at the top of the profile, found " + detail::kind_name(*root),
                 std::string("a target profile is a mapping of keys such as:") + profile_example);
        return std::nullopt;
    }
    auto m = r_.mapping(rv, "profile", profile_keys, profile_example);
    if (!m) return std::nullopt;

    Profile p;
    p.file = r_.source().path;
    p.pos = r_.pos(rv);

    if (const auto* e = m->find("name")) {
        if (auto n = r_.string(e->val(), "name", "name: products-api")) {
            if (n->empty())
                r_.error(e->val(), "the profile name is empty",
                         "write a name (it names the report), e.g. name: products-api");
            p.name = *n;
        }
    } else {
        r_.error(rv, "missing required key 'name' in profile",
                 "name the target (it names the report), e.g. name: products-api");
    }
    if (const auto* e = m->find("base_url")) {
        if (auto s =
                r_.string(e->val(), "base_url", "base_url: ${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}", true)) {
            if (s->empty())
                r_.error(e->val(), "the base_url is empty",
                         "write the target's address, e.g. base_url: http://127.0.0.1:8080");
            p.base_url = *s;
        }
    } else {
        r_.error(rv, "missing required key 'base_url' in profile",
                 "say where the target listens, e.g. base_url: ${env:IDCONFORM_BASE_URL:-http://127.0.0.1:8080}");
    }
    if (const auto* e = m->find("headers")) p.headers = r_.pairs(e->val(), "headers", "{Accept: application/json}");
    if (const auto* e = m->find("tls")) detail::read_tls(r_, e->val(), p);
    if (const auto* e = m->find("timeout")) detail::read_timeouts(r_, e->val(), p);
    if (const auto* e = m->find("refused"))
        if (auto v = detail::read_refused(r_, e->val())) p.refused = std::move(*v);
    if (const auto* e = m->find("clock_skew")) p.clock_skew_ms = r_.duration(e->val(), "clock_skew");
    if (const auto* e = m->find("principals")) principals(*e, p);
    else
        r_.error(rv, "missing required key 'principals' in profile",
                 "name at least one principal; the first owns the test data, e.g.\n  principals:\n    alice: "
                 "{headers: {Authorization: \"Bearer ${env:IDCONFORM_TOKEN_A:-alice}\"}}");
    if (const auto* e = m->find("packs")) packs(e->val(), p);
    if (const auto* e = m->find("grpc"))
        if (auto g = detail::read_grpc_target(
                r_, e->val(),
                {std::filesystem::path(r_.source().path).parent_path().string(), "profile's folder", false}))
            p.grpc = std::move(*g);
    if (const auto* e = m->find("request_id")) {
        if (auto s = r_.string(e->val(), "request_id", "request_id: X-Request-Id")) {
            if (s->empty() || s->find_first_of(" \t:()<>@,;\\\"/[]?={}") != std::string::npos)
                r_.error(e->val(), "'" + *s + "' is not a header name",
                         "name the answer header that carries the request id, e.g. request_id: X-Request-Id");
            else p.request_id = *s;
        }
    }
    if (const auto* e = m->find("resources")) resources(*e, p);
    else
        r_.error(rv, "missing required key 'resources' in profile",
                 "describe at least one resource with a create endpoint, e.g.\n  resources:\n    products:\n"
                 "      create: {path: /v1/products, body: {name: idconform-probe}}");

    check_references(p);
    // A reference holds ids of the resource it points to: without its own
    // `kind:` it has that resource's id kind.
    for (auto& res : p.resources)
        for (auto& ref : res.references)
            if (!ref.kind_written)
                for (const auto& t : p.resources)
                    if (t.name == ref.resource) ref.kind = t.id.kind;
    if (!p.grpc)
        for (const auto& [res, at] : grpc_sites_)
            r_.error(at, "resource '" + res + "' binds gRPC methods, but the profile does not say where gRPC listens",
                     "add at the top level: grpc: {address: \"${env:IDCONFORM_GRPC_ADDRESS:-127.0.0.1:50051}\", "
                     "reflection: true}");
    if (!diags_->empty()) return std::nullopt;
    return p;
}

void Loader::principals(const Entry& e, Profile& p) {
    const char* const example = "\n  principals:\n    alice: {headers: {Authorization: \"Bearer ...\"}}";
    auto m = r_.mapping(e.val(), "principals", {}, example);
    if (!m) return;
    if (e.value.size() == 0) {
        r_.error(e.val(), "no principals",
                 "name at least one principal; the first owns the test data, a second one is needed for the "
                 "DATA-ID-004 access checks, e.g.\n  principals:\n    alice: {headers: {Authorization: "
                 "\"Bearer alice\"}}\n    bob: {headers: {Authorization: \"Bearer bob\"}}");
        return;
    }
    for (const auto& entry : m->entries)
        if (auto pr = detail::read_principal(r_, entry)) p.principals.push_back(std::move(*pr));
}

void Loader::packs(const Val& v, Profile& p) {
    std::vector<Val> items;
    if (v.node.IsScalar()) {
        items.push_back(v);
    } else if (auto seq = r_.sequence(v, "packs", "packs: [data-id, nil-max]")) {
        items = std::move(*seq);
    } else {
        return;
    }
    const std::vector<std::string> accepted = accepted_packs();
    std::map<std::string, int> seen;  // name -> line
    for (const auto& item : items) {
        auto s = r_.string(item, "packs", "packs: [data-id, nil-max]");
        if (!s) continue;
        if (std::find(accepted.begin(), accepted.end(), *s) == accepted.end()) {
            r_.error(item, "unknown pack '" + *s + "'", detail::suggest(*s, accepted, "known packs"));
            continue;
        }
        if (auto [it, fresh] = seen.emplace(*s, item.mark.line + 1); !fresh) {
            r_.error(item, "pack '" + *s + "' is listed twice",
                     "it is already listed at line " + std::to_string(it->second) + "; remove one of them");
            continue;
        }
        p.packs.push_back(*s);
    }
}

// Every reference names a resource of the profile; a required one must
// be creatable first, so it needs a create and cannot close a loop.
void Loader::check_references(const Profile& p) {
    const auto index_of = [&](const std::string& name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < p.resources.size(); ++i)
            if (p.resources[i].name == name) return i;
        return std::nullopt;
    };
    // Required edges between distinct resources that loaded, in file order.
    // References of a resource that failed to load are still checked for
    // what needs no loaded resource: the name and self-reference.
    std::vector<std::vector<const ReferenceSite*>> edges(p.resources.size());
    for (const auto& site : sites_) {
        const bool written =
            std::find(written_names_.begin(), written_names_.end(), site.resource) != written_names_.end();
        if (!written) {
            r_.error(site.at, "unknown resource '" + site.resource + "' in reference '" + site.field + "'",
                     detail::suggest(site.resource, written_names_, "resources of the profile"));
            continue;
        }
        if (!site.required) continue;
        if (site.resource == site.from) {
            r_.error(site.at, "resource '" + site.from + "' requires itself through '" + site.field + "'",
                     "no first '" + site.from + "' could ever be created; make the reference required: false");
            continue;
        }
        const auto from = index_of(site.from);
        const auto to = index_of(site.resource);
        if (!from || !to) continue;  // a resource that failed to load was reported already
        if (!p.resources[*to].create && !p.resources[*to].made_by) {
            r_.error(site.at,
                     "required reference '" + site.field + "' points to '" + site.resource + "', which has no 'create'",
                     "the harness creates the referenced entity first; add create: to '" + site.resource +
                         "' or make the reference required: false");
            continue;
        }
        edges[*from].push_back(&site);
    }
    // `made_by`: the creating resource exists, is another one, and creates;
    // the made resource's entities need it, as a required reference would.
    for (const auto& site : made_by_sites_) {
        const auto from = index_of(site.from);
        if (std::find(written_names_.begin(), written_names_.end(), site.resource) == written_names_.end()) {
            r_.error(site.at, "unknown resource '" + site.resource + "' in made_by of '" + site.from + "'",
                     detail::suggest(site.resource, written_names_, "resources of the profile"));
            continue;
        }
        if (site.resource == site.from) {
            r_.error(site.at, "'" + site.from + "' is made_by itself",
                     "name the other resource whose create makes one, e.g. made_by: {resource: files, at: /folder_id}");
            continue;
        }
        const auto to = index_of(site.resource);
        if (!from || !to) continue;
        if (p.resources[*from].create) {
            r_.error(site.at, "resource '" + site.from + "' has both 'create' and 'made_by'",
                     "keep create: when the API creates them itself; made_by: when only a create of '" +
                         site.resource + "' makes one");
            continue;
        }
        if (!p.resources[*to].create) {
            r_.error(site.at, "'" + site.from + "' is made_by '" + site.resource + "', which has no 'create'",
                     "made_by names the resource whose create makes one; add create: to '" + site.resource + "'");
            continue;
        }
        // The run deletes the entity it takes to be made by its create: one
        // that existed before (a create naming a folder that is there) must
        // never be it.
        const auto& creator = p.resources[*to];
        const bool makes_new = p.resources[*from].made_by->fresh ||
                               (creator.create->body &&
                                boost::json::serialize(*creator.create->body).find("${gen:") != std::string::npos);
        if (p.resources[*from].del && !makes_new) {
            r_.error(site.at,
                     "the run would delete the '" + site.from + "' entity a create of '" + site.resource +
                         "' makes, which may be one that existed before",
                     "make each create of '" + site.resource + "' make a new one: a fresh name in its body, e.g. "
                     "notebook: \"idconform-${gen:uuidv7}\", or say made_by: {..., fresh: true} if every create "
                     "makes a new one");
            continue;
        }
        edges[*from].push_back(&site);
    }
    // Depth-first search; a reference back into the current chain closes
    // a cycle and is reported once, at that reference.
    enum class Mark { unseen, active, done };
    std::vector<Mark> marks(p.resources.size(), Mark::unseen);
    std::vector<std::size_t> chain;
    const auto visit = [&](const auto& self, std::size_t node) -> void {
        marks[node] = Mark::active;
        chain.push_back(node);
        for (const ReferenceSite* site : edges[node]) {
            const std::size_t to = *index_of(site->resource);
            if (marks[to] == Mark::active) {
                std::string loop;
                const auto start = std::find(chain.begin(), chain.end(), to);
                for (auto it = start; it != chain.end(); ++it) loop += p.resources[*it].name + " -> ";
                loop += p.resources[to].name;
                r_.error(site->at, "required references form a cycle: " + loop,
                         site->field == "made_by"
                             ? "none of these resources can be created first; make the reference to '" +
                                   site->from + "' required: false"
                             : "none of these resources can be created first; make one of the references (e.g. '" +
                                   site->field + "' here) required: false");
            } else if (marks[to] == Mark::unseen) {
                self(self, to);
            }
        }
        chain.pop_back();
        marks[node] = Mark::done;
    };
    for (std::size_t i = 0; i < p.resources.size(); ++i)
        if (marks[i] == Mark::unseen) visit(visit, i);
}

}  // namespace idconform::profile::loading

namespace idconform::profile {

using loading::Loader;
namespace detail = suite::detail;
using detail::SourceText;

const std::vector<std::string>& known_packs() {
    static const std::vector<std::string> packs = {"data-id", "nil-max", "db-identifiers", "uuidv8-legacy",
                                                   "viewable-id"};
    return packs;
}

bool pack_applies(const std::string& pack, const Resource& r) {
    // `existing` ids keep their format (DATA-ID-001's exception): every other
    // rule of data-id and nil-max still applies to them.
    const bool uuid_keyed =
        (ids::is_uuid_kind(r.id.kind) && r.id.kind != ids::IdKind::uuidv8_legacy) || r.id.kind == ids::IdKind::existing;
    // A singleton (read without an id) gets the data-id pack's singleton
    // checks only, under whatever kind it declares.
    if (pack == "data-id" && r.singleton) return true;
    if (pack == "data-id" || pack == "nil-max") return r.create && uuid_keyed;
    if (pack == "db-identifiers") return r.create && r.id.kind == ids::IdKind::ulid;
    if (pack == "uuidv8-legacy") return r.legacy.has_value();
    if (pack == "viewable-id") return r.create && r.viewable.has_value();
    return r.create.has_value();
}

LoadResult load_profile_text(const std::string& text, const std::string& path) {
    LoadResult out;
    const SourceText src = SourceText::from(path, text);
    try {
        Loader loader(src, out.diagnostics);
        auto profile = loader.load(text);
        if (out.diagnostics.empty() && profile) out.profile = std::move(*profile);
    } catch (const std::exception& e) {
        // yaml-cpp or the allocator; never let it cross the component boundary.
        out.profile.reset();
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0},
                                             std::string("internal error while loading: ") + e.what(),
                                             "please report this with the profile",
                                             {}});
    }
    return out;
}

LoadResult load_profile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        LoadResult out;
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0},
                                             "'" + path + "' is a directory, not a profile",
                                             "pass the profile's .yaml file, e.g. examples/products.target.yaml",
                                             {}});
        return out;
    }
    auto text = detail::read_input_file(path, "profile");
    if (!text.text) {
        LoadResult out;
        out.diagnostics.push_back(std::move(text.error));
        return out;
    }
    return load_profile_text(*text.text, path);
}

}  // namespace idconform::profile
