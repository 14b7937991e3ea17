// Expansion of a profile into pack suites: every pack suite is instantiated
// for every resource that can be created, with the resource's endpoints and
// id fields as `res.*` variables (the vocabulary is in docs/packs.md), and
// setup steps that create what its references point to.
#include "profile/profile.hpp"

#include "profile/expand_impl.hpp"

#include "ids/of_kind.hpp"
#include "profile/expand_answer_forms.hpp"
#include "suite/loader.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace idconform::profile {

namespace json = boost::json;

namespace expansion {

const Resource* find_resource(const Profile& p, const std::string& name) {
    for (const auto& r : p.resources)
        if (r.name == name) return &r;
    return nullptr;
}

// Sets `v` at `pointer` of `root`, making objects on the way; an array
// element must be there already. False when the pointer cannot be written.
bool set_member(json::value& root, const std::string& pointer, json::value v) {
    json::value* at = &root;
    std::size_t i = 1;
    while (i <= pointer.size()) {
        const std::size_t end = std::min(pointer.find('/', i), pointer.size());
        std::string token = pointer.substr(i, end - i);
        for (std::size_t k = 0; (k = token.find('~', k)) != std::string::npos; ++k)
            token.replace(k, 2, k + 1 < token.size() && token[k + 1] == '1' ? "/" : "~");
        const bool last = end == pointer.size();
        if (at->is_array()) {
            auto& a = at->as_array();
            char* stop = nullptr;
            const unsigned long n = std::strtoul(token.c_str(), &stop, 10);
            if (token.empty() || *stop != '\0' || n >= a.size()) return false;
            at = &a[n];
        } else {
            if (!at->is_object()) *at = json::object();
            json::value& next = at->as_object()[token];
            if (!last && next.is_null()) next = json::object();
            at = &next;
        }
        if (last) {
            *at = std::move(v);
            return true;
        }
        i = end + 1;
    }
    return false;
}

// A fresh id of a client-chosen sub-object id's kind on every use (the
// loader admits only kinds with a generator).
std::string fresh_template(const IdField& f) { return "${gen:" + std::string(ids::kind_name(f.kind)) + "}"; }

// The create body of `r` with every required reference filled from the
// entity that setup creates for it, and (creates and puts) a fresh id at
// each client-chosen sub-object id.
json::value body_with_refs(const Resource& r, const std::optional<json::value>& body, bool client_ids) {
    json::value b = body ? *body : json::value(json::object());
    if (!b.is_object()) b = json::object();
    for (const auto& ref : r.references)
        if (ref.required) b.as_object()[ref.field] = "${entity." + ref.resource + "}";
    if (client_ids)
        for (const auto& f : r.client_ids) (void)set_member(b, f.pointer, json::value(fresh_template(f)));
    return b;
}

suite::Suite Instance::build() {
    s_.name = s_.name + " " + r_.name + (over_grpc_ ? " over grpc" : "");
    // One target model: the profile's target parts are the suite's types.
    if (p_.grpc) s_.target.grpc = *p_.grpc;
    s_.target.pos = p_.pos;
    s_.target.base_url = p_.base_url;
    s_.target.headers = p_.headers;
    static_cast<suite::TargetTls&>(s_.target) = p_;
    static_cast<suite::TargetTimeouts&>(s_.target) = p_;
    s_.principals.clear();
    const char* roles[] = {"owner", "other"};
    // Keyed by role; each keeps the name the profile gives it, which the
    // errors about its credential use ("principal 'alice' (the owner)").
    for (std::size_t i = 0; i < p_.principals.size() && i < 2; ++i) s_.principals[roles[i]] = p_.principals[i];
    s_.refused = r_.refused.value_or(p_.refused);
    std::vector<suite::Variable> vars;
    resource_vars(vars);
    if (over_grpc_) grpc_vars(vars);
    if (p_.grpc && r_.grpc && r_.grpc->read && r_.read)
        var(vars, "res.other_read", json::value(over_grpc_ ? r_.read->path : r_.grpc->read->method), r_.grpc->pos);
    for (auto& v : s_.vars) vars.push_back(std::move(v));
    s_.vars = std::move(vars);
    legacy_ids();
    shared_reads();
    fewest_creates();
    // Cases that need a variable this target cannot have are skipped
    // with the reason and what to do about it, in the profile's words:
    // what the API declares that rules the case out, or the key to add.
    std::set<std::string> defined;
    for (const auto& v : s_.vars) defined.insert(v.name);
    for (auto& c : s_.cases) {
        if (!c.skip.empty()) continue;
        for (const auto& need : c.needs) {
            if (auto it = unset_reasons_.find(need); it != unset_reasons_.end()) {
                c.skip = it->second.why;
                c.skip_cause = it->second.cause;
                break;
            }
            if (defined.count(need) != 0 || need.rfind("env:", 0) == 0) continue;
            const Unset u = undescribed(need);
            c.skip = u.why;
            c.skip_cause = u.cause;
            break;
        }
    }
    std::vector<suite::Step> setup;
    for (const auto& ref : r_.references) ensure_created(ref.resource, setup);
    for (auto& st : s_.setup) setup.push_back(std::move(st));
    s_.setup = std::move(setup);
    if (r_.viewable)
        for (auto& c : s_.cases)
            if (c.for_each && c.for_each->source == suite::ForEach::Source::mutations) {
                c.for_each->viewable_prefix = r_.viewable->prefix;
                c.for_each->viewable_length = r_.viewable->length;
            }
    if (over_grpc_) drop_unsendable_vectors();
    else {
        answer_forms::add_read_backs(r_, s_.vars, s_);
        answer_forms::add_unchanged_reads(r_, s_);
        answer_forms::add_location_probe(r_, s_);
    }
    own_setup();
    declare_id_members();
    // The calls stay unbound: the suite holds its resource over both
    // transports, and is bound where it runs (binding::bind_calls).
    auto b = std::make_shared<binding::SuiteBinding>();
    b->own = binding_of(over_grpc_);
    b->other = binding_of(!over_grpc_);
    b->setup_creates = setup_creates_;
    if (!over_grpc_) answer_forms::skip_inapplicable(r_, *b, s_);
    s_.binding = std::move(b);
    return std::move(s_);
}

void Instance::drop_unsendable_vectors() {
    for (auto& c : s_.cases) {
        if (!c.for_each || c.for_each->source != suite::ForEach::Source::vectors) continue;
        const auto set = s_.vector_sets.find(c.for_each->set);
        if (set == s_.vector_sets.end()) continue;
        for (const auto& v : set->second.vectors)
            if (!v.value.is_string() && !v.value.is_null()) c.for_each->except.push_back(v.name);
    }
}

void Instance::own_setup() {
    std::string rule;
    for (const auto& c : s_.cases)
        if (!c.rules.empty()) {
            rule = c.rules.front();
            break;
        }
    for (auto& st : s_.setup) {
        if (st.expect.rule.empty()) st.expect.rule = rule;
        if (!st.is<suite::OpCall>() || over_grpc_ != st.as<suite::OpCall>().via_other) continue;
        suite::OpCall& c = st.as<suite::OpCall>();
        const std::optional<Endpoint>* e = endpoint(c.op);
        if (!e || !*e) continue;
        const SourcePos at = (*e)->pos;
        st.pos = at;
        c.pos = at;  // the bound request's position
        st.expect.pos = at;
        if (st.expect.status) st.expect.status->pos = at;
        for (auto& id : st.expect.ids) id.pos = at;
        for (auto& cap : st.captures) cap.pos = at;
    }
}

void Instance::declare_id_members() {
    auto name = [](ids::IdKind k) { return std::string(ids::kind_name(k)); };
    std::vector<std::pair<std::string, std::string>> declared{{r_.id.pointer, name(r_.id.kind)}};
    if (!r_.id.create_pointer.empty()) declared.emplace_back(r_.id.create_pointer, name(r_.id.kind));
    for (const auto& f : r_.fields) declared.emplace_back(f.pointer, name(f.kind));
    for (const auto& ref : r_.references) declared.emplace_back(ref.answer_at(), name(ref.kind));
    if (r_.viewable) declared.emplace_back(r_.viewable->pointer, name(ids::IdKind::viewable));
    auto fill = [&](std::vector<suite::Step>& steps) {
        for (auto& st : steps)
            if (!st.expect.id_members.empty())  // after what the pack declares itself
                st.expect.id_members_declared.insert(st.expect.id_members_declared.end(), declared.begin(),
                                                     declared.end());
    };
    fill(s_.setup);
    for (auto& c : s_.cases) fill(c.steps);
    fill(s_.teardown);
}

void Instance::shared_reads() {
    if (!r_.shared) return;
    for (auto& c : s_.cases) {
        if (!c.skip.empty() || std::find(c.rules.begin(), c.rules.end(), "DATA-ID-004") == c.rules.end()) continue;
        bool other_calls = false, other_writes = false;
        for (const auto& st : c.steps) {
            if (!st.is<suite::OpCall>() || st.as<suite::OpCall>().principal != "other") continue;
            other_calls = true;
            const auto op = st.as<suite::OpCall>().op;
            if (op != suite::Operation::read && op != suite::Operation::list) other_writes = true;
        }
        if (other_calls && !other_writes)
            c.skip = "not applicable: the profile declares '" + r_.name + "' shared reference data (" +
                     r_.shared->str() +
                     "): every principal may read it; another principal's writes are "
                     "still checked";
    }
}

void Instance::fewest_creates() {
    if (r_.cannot_delete.empty()) return;
    constexpr int fewest = 2;
    auto creates = [](const suite::Step& st) {
        return st.is<suite::OpCall>() && suite::traits(st.as<suite::OpCall>().op).creates;
    };
    auto say = [&](suite::Case& c, int count) {
        c.description += std::string(c.description.empty() ? "" : " ") + "(" + std::to_string(fewest) +
                         " creates instead of " + std::to_string(count) + ": the profile says '" + r_.name +
                         "' cannot be deleted, " + r_.cannot_delete_pos.str() + ")";
    };
    for (auto& c : s_.cases) {
        for (auto& st : c.steps) {
            if (st.repeat <= fewest || !creates(st)) continue;
            say(c, st.repeat);
            st.repeat = fewest;
            for (auto& ce : c.collected)
                if (ce.min_count > fewest) ce.min_count = fewest;
        }
        // A fresh entity per element (`fresh:` naming setup steps) would
        // stay behind once per element: the elements share the suite's.
        const auto before = c.fresh.size();
        std::erase_if(c.fresh, [&](const std::string& n) {
            return std::any_of(s_.setup.begin(), s_.setup.end(), [&](const suite::Step& st) { return st.name == n; });
        });
        if (c.fresh.size() != before || c.fresh_all_setup) {
            c.fresh_all_setup = false;
            c.description += std::string(c.description.empty() ? "" : " ") +
                             "(one entity for every element instead of a fresh one each: the profile says '" + r_.name +
                             "' cannot be deleted, " + r_.cannot_delete_pos.str() + ")";
        }
        if (!c.for_each || c.for_each->source != suite::ForEach::Source::count || c.for_each->count <= fewest) continue;
        if (std::none_of(c.steps.begin(), c.steps.end(), creates)) continue;
        say(c, c.for_each->count);
        c.for_each->count = fewest;
    }
}

void Instance::legacy_ids() {
    if (!r_.legacy) return;
    suite::VectorSet set;
    set.pos = r_.legacy->pos;
    set.name = "legacy_ids";
    set.description = "legacy ids of '" + r_.name + "' from the target profile";
    for (std::uint64_t id : r_.legacy->ids) {
        suite::Vector v;
        v.pos = r_.legacy->pos;
        v.name = std::to_string(id);
        v.value = json::value(std::to_string(id));
        set.vectors.push_back(std::move(v));
    }
    s_.vector_sets["legacy_ids"] = std::move(set);
}

// Appends to `steps` (the setup, whose first steps these are) a step that
// creates an entity of `maker` as the owner, captures the id at `at` of its
// answer into `var` and books what it made for the cleanup, as `maker`'s
// deletion says (the suite's binding holds it: SuiteBinding::setup_creates).
void Instance::add_setup_create(std::vector<suite::Step>& steps, const Resource& maker, std::string name,
                                const SourcePos& pos, std::string var, std::string at, const SourcePos& at_pos) {
    suite::Step st;
    st.pos = pos;
    st.name = std::move(name);
    suite::HttpRequest& h = st.as<suite::HttpRequest>();
    h.pos = maker.create->pos;
    h.method = maker.create->method;
    h.path = maker.create->path;
    h.json = body_with_refs(maker, maker.create->body, true);
    h.headers = maker.create->headers;
    h.principal = "owner";
    st.expect.pos = maker.create->pos;
    suite::StatusExpect status;
    status.pos = maker.create->pos;
    status.classes = {2};
    st.expect.status = status;
    suite::Capture cap;
    cap.pos = at_pos;
    cap.var = std::move(var);
    cap.from = suite::Capture::From::json;
    cap.path = std::move(at);
    st.captures.push_back(cap);
    const std::shared_ptr<const binding::Deletion> deletion = deletion_of(maker);  // with what it makes besides (made_by)
    st.cleanup = binding::written_form(*deletion);
    answer_forms::adapt_create_answer(maker, st);
    setup_creates_.emplace_back(steps.size(), deletion);
    steps.push_back(std::move(st));
}

// The entity of `t` that a create of its creator makes as a side effect
// (`made_by`): that create, with the new entity's id at made_by.at; its
// cleanup deletes both, the creator's entity (the file in the folder) first.
void Instance::ensure_made(const Resource& t, std::vector<suite::Step>& steps) {
    const Resource* creator = find_resource(p_, t.made_by->resource);
    if (!creator || !creator->create) return;  // the loader says so
    for (const auto& ref : creator->references)
        if (ref.required) ensure_created(ref.resource, steps);
    add_setup_create(steps, *creator,
                     "create a '" + creator->name + "' entity, which makes a '" + t.name + "' entity for the references of '" +
                         r_.name + "'",
                     t.made_by->pos, "entity." + t.name, t.made_by->at, t.made_by->pos);
}

void Instance::ensure_created(const std::string& target, std::vector<suite::Step>& steps) {
    if (!created_.insert(target).second) return;
    const Resource* t = find_resource(p_, target);
    if (t && !t->create && t->made_by) {
        ensure_made(*t, steps);
        return;
    }
    if (!t || !t->create) return;  // the loader rejects unknown resources; no create: nothing to do
    for (const auto& ref : t->references)
        if (ref.required) ensure_created(ref.resource, steps);
    add_setup_create(steps, *t, "create a '" + t->name + "' entity for the references of '" + r_.name + "'",
                     t->create->pos, "entity." + t->name, t->id.pointer, t->id.pos);
}

}  // namespace expansion

namespace {

using expansion::Instance;

// A pack step that sends an operation of its resource as a plain request
// (`http: {path: "${res.read}"}`) would go without what the profile says
// that operation needs (its headers, the id in a body, the Location, an
// array answer), and one with a cleanup of its own would delete what it
// made in the pack's words, not the profile's: errors of the pack, not
// requests to guess at.
void operations_as_calls(const suite::Suite& s, std::vector<Diagnostic>& out) {
    auto check = [&](const suite::Step& st) {
        auto say = [&](const SourcePos& pos, const char* op) {
            Diagnostic d;
            d.pos = pos;
            d.title = std::string("a pack step sends the resource's ") + op + " as a plain request";
            d.hint = std::string("write it as `call: {op: ") + op +
                     ", ...}`: the profile then binds it to the request it declares (its headers, where the id goes, "
                     "how the answer names the entity), and what a create makes is deleted as the profile says";
            out.push_back(std::move(d));
        };
        if (st.is<suite::HttpRequest>())
            for (const auto& t : suite::operation_table)
                if (st.as<suite::HttpRequest>().path == std::string("${res.") + t.name + "}") say(st.pos, t.name);
        if (st.cleanup) {
            Diagnostic d;
            d.pos = st.cleanup->pos;
            d.title = "a pack step has a cleanup of its own";
            d.hint = "remove cleanup: what a pack's calls make is deleted as the profile says (its delete, the "
                     "Location, or left behind under cannot_delete)";
            out.push_back(std::move(d));
        }
    };
    for (const auto& st : s.setup) check(st);
    for (const auto& c : s.cases)
        for (const auto& st : c.steps) check(st);
    for (const auto& st : s.teardown) check(st);
}

// The preflight suite (packs_dir/preflight.yaml, runner/preflight.hpp) for
// the first resource the run can create, preferring one it can also delete
// (the preflight's entity is then gone at once): over HTTP, else over gRPC.
// None for a profile that can create nothing (the 401 rule still holds on
// every step, runner/auth.hpp).
void add_preflight(const Profile& profile, const std::string& packs_dir, Expansion& out) {
    const auto file = std::filesystem::path(packs_dir) / "preflight.yaml";
    if (!std::filesystem::is_regular_file(file)) return;
    const Resource* chosen = nullptr;
    bool over_grpc = false;
    for (int pass = 0; pass < 3 && !chosen; ++pass)
        for (const auto& r : profile.resources) {
            if (r.singleton) continue;
            const bool http = r.create && (pass > 0 || r.del);
            const bool grpc = pass == 2 && profile.grpc && r.grpc && r.grpc->create;
            if (http || grpc) {
                chosen = &r;
                over_grpc = !http;
                break;
            }
        }
    if (!chosen) return;
    auto loaded = suite::load_file(file.string());
    for (auto& d : loaded.diagnostics) out.diagnostics.push_back(std::move(d));
    if (loaded.suite) operations_as_calls(*loaded.suite, out.diagnostics);
    if (loaded.suite) out.suites.push_back(Instance(profile, *chosen, *loaded.suite, over_grpc).build());
}

}  // namespace

Expansion expand(const Profile& profile, const std::string& packs_dir) {
    Expansion out;
    add_preflight(profile, packs_dir, out);
    std::vector<std::string> packs = profile.packs;
    if (packs.empty())
        for (const auto& k : known_packs())
            if (std::filesystem::is_directory(std::filesystem::path(packs_dir) / k)) packs.push_back(k);
    const bool chosen = !profile.packs.empty();
    for (const auto& pack : packs) {
        const auto dir = std::filesystem::path(packs_dir) / pack;
        if (chosen && std::none_of(profile.resources.begin(), profile.resources.end(),
                                   [&](const Resource& r) { return pack_applies(pack, r); })) {
            Diagnostic d;
            d.pos = profile.pos;
            d.title = "pack '" + pack + "' applies to no resource of the profile";
            d.hint = pack == "db-identifiers"  ? "it checks resources with id: {kind: ulid} and a create endpoint"
                     : pack == "uuidv8-legacy" ? "it checks resources with a legacy: section"
                     : pack == "viewable-id"   ? "it checks resources with a viewable: section and a create endpoint"
                                               : "it checks resources with UUID ids and a create endpoint";
            d.hint += "; describe one, or remove '" + pack + "' from packs";
            out.diagnostics.push_back(std::move(d));
            continue;
        }
        if (!std::filesystem::is_directory(dir)) {
            Diagnostic d;
            d.pos = profile.pos;
            d.title = "pack '" + pack + "' has no suites in " + dir.string();
            d.hint = "this version of idconform ships the packs in " + packs_dir + "; remove '" + pack + "' from packs";
            out.diagnostics.push_back(std::move(d));
            continue;
        }
        std::vector<Diagnostic> diags;
        const auto files = suite::expand_suite_paths({dir.string()}, diags);
        for (auto& d : diags) out.diagnostics.push_back(std::move(d));
        for (const auto& f : files) {
            auto loaded = suite::load_file(f);
            for (auto& d : loaded.diagnostics) out.diagnostics.push_back(std::move(d));
            if (!loaded.suite) continue;
            operations_as_calls(*loaded.suite, out.diagnostics);
            // A suite of singleton checks runs on singletons only, and only
            // it does (a singleton has nothing to create).
            const bool for_singletons =
                !loaded.suite->cases.empty() &&
                std::all_of(loaded.suite->cases.begin(), loaded.suite->cases.end(), [](const suite::Case& c) {
                    return std::find(c.needs.begin(), c.needs.end(), "res.singleton") != c.needs.end();
                });
            for (const auto& r : profile.resources) {
                if (!pack_applies(pack, r) || for_singletons != r.singleton.has_value()) continue;
                out.suites.push_back(Instance(profile, r, *loaded.suite).build());
                // The operation packs run again over gRPC for a resource with
                // gRPC methods (a create among them).
                if ((pack == "data-id" || pack == "nil-max") && profile.grpc && r.grpc && r.grpc->create)
                    out.suites.push_back(Instance(profile, r, *loaded.suite, true).build());
            }
        }
    }
    return out;
}

}  // namespace idconform::profile
