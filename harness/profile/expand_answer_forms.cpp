// The answer forms of real APIs in pack instances (see expand_answer_forms.hpp).
#include "profile/expand_answer_forms.hpp"

#include "binding/access.hpp"

#include <algorithm>
#include <set>

namespace idconform::profile::answer_forms {

namespace {

using binding::own_id;
constexpr const char* read_back_var = "readback.id";

// `${res.X}` in a pack's template replaced by the instance's value, so a
// check's pointer can be compared with the profile's fields at expand time.
std::string resolve_res(std::string t, const std::vector<suite::Variable>& vars) {
    for (const auto& v : vars) {
        if (v.name.rfind("res.", 0) != 0 || !v.value.is_string()) continue;
        const std::string ph = "${" + v.name + "}";
        for (auto at = t.find(ph); at != std::string::npos; at = t.find(ph, at)) {
            t.replace(at, ph.size(), v.value.as_string().c_str());
            at += v.value.as_string().size();
        }
    }
    return t;
}

// Where the answers of `r` name the id (binding/id_answer.hpp).
bool id_elsewhere(const Resource& r, suite::Operation op) { return id_answer(r).elsewhere(op); }

void move_own_id(const Resource& r, suite::Step& st, const std::string& at = own_id) {
    binding::move_own_id(id_answer(r), st, at);
}

// The JSON pointers a create answer of `r` lacks; `all`: it holds no entity
// (the create answer names the id only in a header).
struct Lacks {
    bool all = false;
    bool time = false;  // the time field (time_field: {in_create: false})
    std::set<std::string> pointers;
    [[nodiscard]] bool lacks(const std::string& p) const { return all || pointers.count(p) != 0; }
    [[nodiscard]] bool any() const { return all || time || !pointers.empty(); }
};

Lacks create_lacks(const Resource& r) {
    Lacks l;
    l.all = !r.id.header.empty() || !r.id.create_pointer.empty();
    for (const auto& f : r.fields)
        if (!f.in_create) l.pointers.insert(f.pointer);
    for (const auto& ref : r.references)
        if (!ref.in_create) l.pointers.insert(ref.answer_at());
    l.time = !r.time_in_create && !r.time_field.empty();
    return l;
}

std::string lacks_reason(const Resource& r, const Lacks& l) {
    if (l.all && !r.id.create_pointer.empty())
        return "the create answer of '" + r.name + "' names the new id at " + r.id.create_pointer +
               ", not at the entity's " + r.id.pointer + " (create_at, " + r.id.create_pos.str() +
               "), and is not taken for the entity";
    if (l.all)
        return "the create answer of '" + r.name + "' names the new id only in its " + r.id.header + " header (" +
               r.id.pos.str() + ") and holds no entity";
    std::string fields;
    for (const auto& p : l.pointers) fields += (fields.empty() ? "" : ", ") + p;
    if (l.time) fields += (fields.empty() ? "" : ", ") + std::string("its time field ") + r.time_field;
    return "the create answer of '" + r.name + "' lacks " + fields + " (in_create: false)";
}

// The text values of `v` (its string leaves), in order.
void strings_of(const boost::json::value& v, std::vector<std::string>& out) {
    if (v.is_string()) out.emplace_back(v.as_string());
    else if (v.is_object())
        for (const auto& kv : v.as_object()) strings_of(kv.value(), out);
    else if (v.is_array())
        for (const auto& e : v.as_array()) strings_of(e, out);
}

// A text the update body of `r` writes that the create body does not: what a
// read finds in the entity once an update was applied. "" when there is none.
std::string update_marker(const Resource& r) {
    if (!r.update || !r.update->body) return {};
    std::vector<std::string> wrote, created;
    strings_of(*r.update->body, wrote);
    if (r.create && r.create->body) strings_of(*r.create->body, created);
    for (const auto& w : wrote) {
        if (w.size() < 4 || w.find("${") != std::string::npos) continue;  // too short to be told apart; a template
        const bool in_create = std::any_of(created.begin(), created.end(),
                                           [&](const std::string& c) { return c.find(w) != std::string::npos; });
        if (!in_create) return w;
    }
    return {};
}

}  // namespace

void add_unchanged_reads(const Resource& r, suite::Suite& s) {
    if (!r.update || !r.update->not_found || !r.update->not_found->empty) return;
    const std::string blind = "the update of '" + r.name + "' answers " + std::to_string(r.update->not_found->status) +
                              " with no body whether or not it matched (not_found, " + r.update->not_found->pos.str() +
                              ")";
    const std::string marker = update_marker(r);
    const std::string owner = s.principals.count("owner") ? "owner" : "";
    for (auto& c : s.cases) {
        if (!c.skip.empty()) continue;
        for (std::size_t i = 0; i < c.steps.size(); ++i) {
            suite::Step& st = c.steps[i];
            if (!st.is<suite::OpCall>()) continue;
            const suite::OpCall call = st.as<suite::OpCall>();
            if (call.op != suite::Operation::update || call.via_other) continue;
            if (!st.expect.status || !suite::is_refusal(*st.expect.status)) {
                // An update that succeeds answers no body either: what its
                // checks and captures want of the answer is read back.
                if (st.expect.ids.empty() && !st.expect.body && st.captures.empty()) continue;
                suite::Step back;
                back.pos = st.pos;
                back.name = "read the entity after the update (its answer has no body)";
                suite::OpCall read;
                read.pos = st.pos;
                read.op = suite::Operation::read;
                read.id = call.id;
                read.principal = call.principal;
                back.request = std::move(read);
                suite::StatusExpect ok;
                ok.pos = st.pos;
                ok.exact = {200};
                back.expect.status = ok;
                back.expect.ids = std::move(st.expect.ids);
                back.expect.body = std::move(st.expect.body);
                back.expect.rule = st.expect.rule;
                back.captures = std::move(st.captures);
                st.expect.ids.clear();
                st.expect.body.reset();
                st.captures.clear();
                c.steps.insert(c.steps.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(back));
                ++i;
                continue;
            }
            // The entity the update aimed at: the live id a mutation was made
            // of, or the id itself; none for a vector's value (Nil, Max).
            std::string live = call.id;
            if (c.for_each && call.id == "${" + c.for_each->as + "}")
                live = c.for_each->source == suite::ForEach::Source::mutations ? c.for_each->set : std::string();
            // No entity has a vector's id (Nil, Max): an update that matched
            // nothing changed nothing, so its 204 is the refusal it says it is.
            if (live.empty()) continue;
            std::string why;
            if (c.for_each && !r.cannot_delete.empty())
                why = "'" + r.name + "' cannot be deleted, so every element of the case shares one entity and a "
                      "read cannot tell which update changed it";
            else if (!r.read) why = "the profile declares no read of '" + r.name + "' to tell whether it changed anything";
            else if (marker.empty())
                why = "the update body of '" + r.name + "' (" + r.update->pos.str() +
                      ") writes no text the create body does not, so a read cannot tell whether it was applied";
            if (!why.empty()) {
                c.skip = "not applicable: " + blind + ", and " + why;
                c.skip_cause = SkipCause::not_applicable;
                break;
            }
            suite::Step back;
            back.pos = st.pos;
            back.name = "read the entity after the refused update: the update was not applied";
            suite::OpCall read;
            read.pos = st.pos;
            read.op = suite::Operation::read;
            read.id = live;
            read.principal = owner.empty() ? call.principal : owner;
            back.request = std::move(read);
            suite::StatusExpect ok;
            ok.pos = st.pos;
            ok.exact = {200};
            back.expect.status = ok;
            suite::BodyExpect body;
            body.pos = st.pos;
            body.not_contains = {marker};
            back.expect.body = body;
            back.expect.rule = st.expect.rule;
            c.steps.insert(c.steps.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(back));
            ++i;
        }
    }
}

void add_read_backs(const Resource& r, const std::vector<suite::Variable>& vars, suite::Suite& s) {
    const Lacks lacks = create_lacks(r);
    if (!lacks.any()) return;
    for (auto& c : s.cases) {
        if (!c.skip.empty()) continue;
        for (std::size_t i = 0; i < c.steps.size(); ++i) {
            suite::Step& st = c.steps[i];
            if (!st.is<suite::OpCall>()) continue;
            const suite::OpCall call = st.as<suite::OpCall>();
            if (call.op != suite::Operation::create || call.via_other) continue;
            std::vector<suite::IdExpect> moved;
            auto& ids = st.expect.ids;
            for (auto it = ids.begin(); it != ids.end();) {
                const bool own = it->at && *it->at == own_id;
                // DATA-ID-005 judges the id beside the entity's time field: both
                // are in the read answer when the create answer holds no entity.
                const bool own_with_time =
                    own && (lacks.all || lacks.time) && !it->time_field.empty() && !r.id.pointer.empty();
                if (it->at && (own_with_time || (!own && lacks.lacks(resolve_res(*it->at, vars))))) {
                    moved.push_back(std::move(*it));
                    it = ids.erase(it);
                } else {
                    ++it;
                }
            }
            if (moved.empty()) continue;
            if (!r.read || st.repeat != 1) {
                c.skip = "not applicable: " + lacks_reason(r, lacks) + ", and " +
                         (r.read ? std::string("a repeated create is not read back")
                                 : "the profile declares no read of '" + r.name + "' to judge it in");
                break;
            }
            // The new id, wherever the answer names it (adapt_expectations moves the
            // capture to the header), then a read of that entity.
            suite::Capture cap;
            cap.pos = st.pos;
            cap.var = read_back_var;
            cap.path = own_id;
            st.captures.push_back(cap);
            suite::Step back;
            back.pos = st.pos;
            std::string names;
            for (const auto& m : moved) names += (names.empty() ? "" : ", ") + resolve_res(*m.at, vars);
            back.name = "read the entity back: " + names + " (" + lacks_reason(r, lacks) + ")";
            suite::OpCall rd;
            rd.pos = call.pos;
            rd.op = suite::Operation::read;
            rd.id = std::string("${") + read_back_var + "}";
            rd.principal = call.principal;
            back.request = std::move(rd);
            back.expect.pos = st.expect.pos;
            back.expect.rule = st.expect.rule;
            back.expect.advisory = st.expect.advisory;
            suite::StatusExpect ok;
            ok.pos = st.expect.pos;
            ok.exact = {200};
            back.expect.status = ok;
            for (auto& m : moved) m.minted = false;  // a time window of the read, not of the create
            back.expect.ids = std::move(moved);
            c.steps.insert(c.steps.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(back));
            ++i;  // past the read-back
        }
    }
}

namespace {

// The operations that address the entity where its create answer's
// Location says, when the profile says so (read, update, delete, put).
bool at_a_location(suite::Operation op) {
    using O = suite::Operation;
    return op == O::read || op == O::update || op == O::del || op == O::put;
}

}  // namespace

void add_location_probe(const Resource& r, suite::Suite& s) {
    const bool at_location =
        (r.read && r.read->at_location) || (r.update && r.update->at_location) || (r.del && r.del->at_location);
    if (!at_location || !r.create) return;
    auto creates = [](const suite::Step& st) {
        return st.is<suite::OpCall>() && st.as<suite::OpCall>().op == suite::Operation::create &&
               !st.as<suite::OpCall>().via_other;
    };
    if (std::any_of(s.setup.begin(), s.setup.end(), creates)) return;
    bool addressed = false;
    for (const auto& c : s.cases)
        for (const auto& st : c.steps)
            if (st.is<suite::OpCall>() && !st.as<suite::OpCall>().via_other && at_a_location(st.as<suite::OpCall>().op))
                addressed = true;
    if (!addressed) return;
    suite::Step st;
    st.pos = r.create->pos;
    st.name = "create a '" + r.name + "' entity: its create answer's Location shows where other ids are addressed";
    suite::OpCall call;
    call.pos = r.create->pos;
    call.op = suite::Operation::create;
    call.principal = "owner";
    st.request = std::move(call);
    st.expect.pos = r.create->pos;
    suite::StatusExpect ok;
    ok.pos = r.create->pos;
    ok.classes = {2};
    st.expect.status = ok;
    s.setup.push_back(std::move(st));
}

binding::IdAnswer id_answer(const Resource& r) {
    binding::IdAnswer id;
    id.pointer = r.id.pointer;
    id.header = r.id.header;
    id.create_pointer = r.id.create_pointer;
    return id;
}

std::shared_ptr<const binding::Access> access_of(const Resource& r, suite::Operation op, const Endpoint& ep) {
    binding::Access a;
    if (ep.at_location) a.location_of = r.name;
    // (`[]` is "not found" by the form itself: the loader made it the read's not_found.)
    if (op == suite::Operation::read && ep.answers_array) a.entity_array = ep.items;
    if (a.location_of.empty() && !a.entity_array) return nullptr;
    return std::make_shared<const binding::Access>(std::move(a));
}

void adapt_create_answer(const Resource& r, suite::Step& st) {
    if (!id_elsewhere(r, suite::Operation::create)) return;
    move_own_id(r, st);
    move_own_id(r, st, r.id.pointer);  // the setup's capture names the pointer itself
}

void adapt_cleanup(const Resource& r, binding::Deletion& d) {
    d.resource = r.name;
    if (!r.id.header.empty()) d.id_header = r.id.header;
    if (!r.id.create_pointer.empty()) d.id_at = r.id.create_pointer;
    if (r.del && r.del->at_location) d.at_location = true;
}

void skip_inapplicable(const Resource& r, const binding::SuiteBinding& b, suite::Suite& s) {
    // A call is judged as what it is bound to when the suite runs (a copy
    // bound here). (Pack steps send the resource's operations as calls,
    // never as plain requests, and have no cleanups of their own: expand()
    // says so of a pack that does.)
    auto bound_copy = [&](const suite::Step& st, suite::Step& copy) {
        if (st.as<suite::OpCall>().via_other) return false;  // bound to gRPC: nothing here applies
        copy = st;
        binding::StepBinding unused;
        return binding::bind(b.own, copy, unused) != nullptr;
    };
    for (auto& c : s.cases) {
        if (!c.skip.empty()) continue;
        for (auto& written : c.steps) {
            suite::Step copy;
            if (written.is<suite::OpCall>() && !bound_copy(written, copy)) continue;
            const suite::Step& st = written.is<suite::OpCall>() ? copy : written;  // what is judged
            if (!st.is<suite::HttpRequest>()) continue;
            const auto& h = st.as<suite::HttpRequest>();
            if (r.id.pointer.empty()) {
                const bool edits_id =
                    std::any_of(h.set.begin(), h.set.end(), [](const auto& kv) { return kv.first == own_id; }) ||
                    std::find(h.unset.begin(), h.unset.end(), own_id) != h.unset.end();
                if (edits_id) {
                    c.skip = "not applicable: the answers of '" + r.name + "' name its id only in the " + r.id.header +
                             " header (" + r.id.pos.str() + "): no body holds an id for a request to change";
                    break;
                }
            }
            // An update that names its entity by the id in its body (POST
            // /v1/orders:update {"id": ...}) at the entity's own id pointer: a
            // body carrying another id there addresses another entity, it
            // does not try to change this one's.
            if (r.update && r.update->id_at == r.id.pointer && !r.id.pointer.empty() && h.path == r.update->path &&
                h.method == r.update->method &&
                std::any_of(h.set.begin(), h.set.end(), [](const auto& kv) { return kv.first == own_id; })) {
                c.skip = "not applicable: the update of '" + r.name + "' names the entity by the id in its body (" +
                         r.update->pos.str() + "), so a body carrying another id addresses another entity";
                break;
            }
            if (!c.skip.empty()) break;
        }
    }
}

}  // namespace idconform::profile::answer_forms
