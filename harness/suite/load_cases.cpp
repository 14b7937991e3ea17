// The suite loader, cases: name, rules, tags, requires, for_each and the
// `collected:` checks.
#include "suite/loader_impl.hpp"

#include "ids/kind.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

namespace idconform::suite::detail {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> case_keys = {"name", "description", "rule", "tags", "skip", "for_each", "steps", "requires",
                                            "collected", "fresh"};
const std::vector<std::string> collected_keys = {"distinct", "same", "time_ordered", "random", "min_count"};
const std::vector<std::string> random_keys = {"prefix"};
const std::vector<std::string> for_each_keys = {"vectors", "mutations", "kind", "prefix",
                                                "length",  "count",     "as",   "only",   "except"};

}  // namespace

void Loader::cases(Reader& r, const Entry& e, Suite& s) {
    auto items = r.sequence(e.val(), "cases", "\n  cases:\n    - name: first case\n      steps: [...]");
    if (!items) return;
    std::map<std::string, SourcePos> names;
    suite_ = &s;
    for (const auto& item : *items) {
        auto c = parse_case(r, item);
        if (!c) continue;
        if (auto [it, fresh] = names.emplace(c->name, c->pos); !fresh) {
            r.error(item, "duplicate case name '" + c->name + "'",
                    "case names must be unique in a suite (they name the JUnit test cases); the first is "
                    "at line " + std::to_string(it->second.line));
            continue;
        }
        s.cases.push_back(std::move(*c));
    }
}

std::optional<Case> Loader::parse_case(Reader& r, const Val& v) {
    auto m = r.mapping(v, "case", case_keys, "{name: first case, steps: [...]}");
    if (!m) return std::nullopt;
    const std::size_t before = diags.size();
    Case c;
    c.pos = r.pos(v);
    if (const auto* n = m->find("name")) {
        if (auto s = r.string(n->val(), "name", "name: create returns a v7 id")) {
            if (s->empty()) r.error(n->val(), "the case name is empty", "write a name, e.g. name: create works");
            c.name = *s;
        }
    } else {
        r.error(v, "missing required key 'name' in case",
                "name the case (it becomes the JUnit test case name), e.g. name: create returns a v7 id");
    }
    if (const auto* x = m->find("description"))
        if (auto s = r.string(x->val(), "description", "description: text")) c.description = *s;
    if (const auto* x = m->find("rule"))
        if (auto s = r.strings(x->val(), "rule", "rule: DATA-ID-001 or rule: [DATA-ID-001, DATA-ID-002]"))
            c.rules = *s;
    if (const auto* x = m->find("tags"))
        if (auto s = r.strings(x->val(), "tags", "tags: [create]")) c.tags = *s;
    if (const auto* x = m->find("skip")) {
        if (auto s = r.string(x->val(), "skip", "skip: \"waiting for ticket 123\"")) {
            if (s->empty())
                r.error(x->val(), "empty skip reason", "say why the case is skipped, e.g. skip: \"ticket 123\"");
            c.skip = *s;
        }
    }
    if (const auto* x = m->find("for_each")) c.for_each = for_each(r, x->val());
    if (const auto* x = m->find("requires"))
        if (auto s = r.strings(x->val(), "requires", "requires: [res.put]")) c.needs = *s;
    if (const auto* x = m->find("fresh")) fresh(r, x->val(), c);
    collected_marks_.clear();
    if (const auto* x = m->find("collected")) collected(r, x->val(), c);
    if (const auto* x = m->find("steps")) {
        c.steps = step_list(r, x->val(), "steps");
        if (x->val().node.IsSequence() && x->val().node.size() == 0)
            r.error(x->val(), "the case has no steps",
                    "add at least one step, e.g. - http: {method: GET, path: /v1/products}");
    } else if (!c.skip.empty()) {
        // A rule nothing can observe from outside: reported skipped with its reason.
    } else {
        r.error(v, "missing required key 'steps' in case",
                "list the steps, e.g.\n  steps:\n    - http: {method: GET, path: /v1/products}");
    }
    for (std::size_t i = 0; i < c.collected.size() && i < collected_marks_.size(); ++i) {
        const auto& ce = c.collected[i];
        bool found = false;
        for (const auto& st : c.steps)
            for (const auto& id : st.expect.ids) found = found || id.collect == ce.list;
        if (!found)
            r.error(collected_marks_[i], "nothing collects '" + ce.list + "' in this case",
                    "add collect: " + ce.list + " to an id check of a step, e.g. id: {at: /id, kind: ulid, collect: " +
                        ce.list + "}");
    }
    if (diags.size() != before) return std::nullopt;
    return c;
}

// `fresh: setup` (every setup step) or `fresh: [NAME, ...]`, each NAME a
// suite variable or the name of a setup step, each named once.
void Loader::fresh(Reader& r, const Val& v, Case& c) {
    const char* const example = "fresh: setup, or fresh: [create the live entity]";
    std::vector<std::string> setup_names, known;
    if (suite_) {
        for (const auto& st : suite_->setup)
            if (!st.name.empty()) setup_names.push_back(st.name);
        known = setup_names;
        for (const auto& var : suite_->vars) known.push_back(var.name);
    }
    if (v.node.IsScalar()) {
        auto s = r.string(v, "fresh", example);
        if (!s) return;
        if (*s != "setup") {
            r.error(v, "fresh takes 'setup' or a list of names, not '" + *s + "'",
                    "write fresh: setup to run every setup step again for each element, or list the setup steps and "
                    "variables to make anew, e.g. fresh: [" +
                        (setup_names.empty() ? std::string("NAME") : setup_names.front()) + "]");
            return;
        }
        if (!suite_ || suite_->setup.empty()) {
            r.error(v, "fresh: setup, but the suite has no setup steps",
                    "add the steps that make the state each element needs under setup:, or drop fresh:");
            return;
        }
        c.fresh = setup_names;
        c.fresh_all_setup = true;
        return;
    }
    auto items = r.sequence(v, "fresh", example);
    if (!items) return;
    if (items->empty()) r.error(v, "fresh lists nothing", "name what each element makes anew, or drop fresh:");
    for (const auto& item : *items) {
        auto s = r.string(item, "fresh", example);
        if (!s) continue;
        if (std::find(known.begin(), known.end(), *s) == known.end()) {
            r.error(item, "fresh names '" + *s + "', which is neither a setup step nor a suite variable",
                    detail::suggest(*s, known, "setup steps and variables"));
            continue;
        }
        if (std::find(c.fresh.begin(), c.fresh.end(), *s) != c.fresh.end()) {
            r.error(item, "fresh names '" + *s + "' twice", "name each setup step or variable once");
            continue;
        }
        c.fresh.push_back(*s);
    }
}

// `collected: {LIST: {distinct: true, ...}}`; every LIST must be
// collected by some id check of the case (checked after the steps load).
void Loader::collected(Reader& r, const Val& v, Case& c) {
    const char* const example = "{order_ids: {time_ordered: true, distinct: true}}";
    collected_marks_.clear();
    auto m = r.mapping(v, "collected", {}, example);
    if (!m) return;
    for (const auto& entry : m->entries) {
        auto cm = r.mapping(entry.val(), "collected list", collected_keys, "{distinct: true, min_count: 50}");
        if (!cm) continue;
        CollectedExpect ce;
        ce.pos = r.pos(entry.key_val());
        ce.list = entry.key;
        bool any = false;
        for (auto [key, slot] : {std::pair{"distinct", &ce.distinct}, std::pair{"same", &ce.same},
                                 std::pair{"time_ordered", &ce.time_ordered}})
            if (const auto* x = cm->find(key))
                if (auto b = r.boolean(x->val(), key)) {
                    *slot = *b;
                    any = any || *b;
                }
        if (const auto* x = cm->find("random")) {
            const Val rv = x->val();
            if (rv.node.IsMap()) {
                if (auto rm = r.mapping(rv, "random", random_keys, "{prefix: \"TR-\"}")) {
                    std::string prefix;
                    if (const auto* p = rm->find("prefix"))
                        if (auto s = r.string(p->val(), "prefix", "prefix: \"TR-\"", true)) prefix = *s;
                    ce.random = prefix;
                    any = true;
                }
            } else if (auto b = r.boolean(rv, "random")) {
                if (*b) ce.random = std::string();
                any = any || *b;
            }
        }
        if (const auto* x = cm->find("min_count")) {
            auto n = r.json(x->val(), false);
            if (!n || !n->is_int64() || n->as_int64() < 1 || n->as_int64() > 100000)
                r.error(x->val(), "min_count must be an integer from 1 to 100000", "e.g. min_count: 50");
            else
                ce.min_count = static_cast<int>(n->as_int64());
        }
        if (!any)
            r.error(entry.val(), "the collected list '" + entry.key + "' is checked for nothing",
                    "say what must hold, e.g. " + entry.key + ": {distinct: true}");
        c.collected.push_back(std::move(ce));
        collected_marks_.push_back(entry.key_val().mark);
    }
}

namespace {

// `prefix:` and `length:` of a for_each over the mutations of viewable ids
// (`TR-` and 7 Crockford symbols unless they say otherwise): the format the
// mutations are made in, as a profile's `viewable:` gives it to the packs.
void viewable_format(Reader& r, const Mapping& m, ForEach& fe) {
    const Entry* prefix = m.find("prefix");
    const Entry* length = m.find("length");
    if (!prefix && !length) return;
    const bool viewable = fe.kind == "viewable" || fe.kind.find("${") != std::string::npos;
    if (fe.source != ForEach::Source::mutations || !viewable) {
        r.error((prefix ? prefix : length)->key_val(),
                "'" + (prefix ? prefix : length)->key + "' belongs to for_each over the mutations of viewable ids",
                "for_each: {mutations: \"${ticket}\", kind: viewable, prefix: \"TR-\", length: 7, as: m}");
        return;
    }
    if (prefix) {
        if (auto s = r.string(prefix->val(), "prefix", "prefix: \"TR-\"")) {
            if (s->empty() || s->back() != '-' || s->find_first_of(" /?#%{}") != std::string::npos)
                r.error(prefix->val(), "the viewable prefix '" + *s + "' does not end with '-'",
                        "a prefix is ASCII text ending in '-', e.g. prefix: \"TR-\"");
            else fe.viewable_prefix = *s;
        }
    }
    if (length) {
        auto n = r.json(length->val(), false);
        if (!n || !n->is_int64() || n->as_int64() < 1 || n->as_int64() > 12)
            r.error(length->val(), "length must be an integer from 1 to 12",
                    "the number of Crockford symbols after the prefix, e.g. length: 7");
        else fe.viewable_length = static_cast<std::size_t>(n->as_int64());
    }
}

}  // namespace

std::optional<ForEach> Loader::for_each(Reader& r, const Val& v) {
    auto m = r.mapping(v, "for_each", for_each_keys, "{vectors: rfc9562, as: v}");
    if (!m) return std::nullopt;
    ForEach fe;
    fe.pos = r.pos(v);
    const auto* vectors = m->find("vectors");
    const auto* mutations = m->find("mutations");
    if (const auto* count = m->find("count")) {
        if (vectors || mutations) {
            r.error(count->key_val(), "for_each takes one of 'vectors', 'mutations' or 'count'",
                    "repeat a case N times with for_each: {count: 20}, in a case of its own");
            return std::nullopt;
        }
        auto n = r.json(count->val(), false);
        if (!n || !n->is_int64() || n->as_int64() < 1 || n->as_int64() > 100000) {
            r.error(count->val(), "count must be an integer from 1 to 100000", "e.g. for_each: {count: 20}");
            return std::nullopt;
        }
        fe.source = ForEach::Source::count;
        fe.count = static_cast<int>(n->as_int64());
        viewable_format(r, *m, fe);  // refused here
        if (const auto* a = m->find("as"))
            if (auto s = r.string(a->val(), "as", "as: n")) fe.as = *s;
        return fe;
    }
    if (vectors && mutations) {
        r.error(mutations->key_val(), "for_each takes 'vectors' or 'mutations', not both",
                "loop over a vector set (vectors: rfc9562) or over the mutations of an id (mutations: "
                "\"${product_id}\") in separate cases");
        return std::nullopt;
    }
    if (!vectors && !mutations) {
        r.error(v, "for_each needs 'vectors' or 'mutations'",
                "e.g. for_each: {vectors: rfc9562, as: v} or for_each: {mutations: \"${product_id}\", as: m}");
        return std::nullopt;
    }
    std::optional<Ref> set_ref;
    if (vectors) {
        auto s = r.string(vectors->val(), "vectors", "vectors: rfc9562");
        if (!s) return std::nullopt;
        fe.source = ForEach::Source::vectors;
        fe.set = *s;
        set_ref = ref(r, vectors->val(), *s);
    } else {
        auto s = r.string(mutations->val(), "mutations", "mutations: \"${product_id}\"", true);
        if (!s) return std::nullopt;
        fe.source = ForEach::Source::mutations;
        fe.set = *s;
    }
    if (const auto* k = m->find("kind")) {
        if (!mutations) {
            r.error(k->key_val(), "'kind' belongs to for_each over mutations",
                    "for_each: {mutations: \"${product_id}\", kind: uuidv7, as: m}");
        } else if (auto s = r.string(k->val(), "kind", "kind: uuidv7")) {
            // An id kind, or a variable: a pack's declared kind, resolved when
            // the case is expanded.
            if (s->find("${") == std::string::npos && !ids::parse_kind(*s))
                r.error(k->val(), "unknown id kind '" + *s + "'", detail::suggest(*s, ids::kind_names(), "kinds"));
            else fe.kind = *s;
        }
    }
    viewable_format(r, *m, fe);
    if (const auto* a = m->find("as")) {
        if (auto s = r.string(a->val(), "as", "as: v")) {
            if (!valid_name(*s))
                r.error(a->val(), "bad variable name '" + *s + "'",
                        "variable names use letters, digits, '_' and '-' and start with a letter or '_'");
            fe.as = *s;
        }
    }
    SetUse use;
    for (const char* key : {"only", "except"}) {
        const auto* x = m->find(key);
        if (!x) continue;
        auto items = r.sequence(x->val(), key, std::string(key) + ": [a6-v7]");
        if (!items) continue;
        for (const auto& item : *items) {
            auto s = r.string(item, key, std::string(key) + ": [a6-v7]");
            if (!s) continue;
            (std::string_view(key) == "only" ? fe.only : fe.except).push_back(*s);
            use.names.push_back(ref(r, item, *s));
        }
    }
    if (set_ref) {
        use.set = *set_ref;
        set_uses_.push_back(std::move(use));
    }
    return fe;
}

}  // namespace idconform::suite::detail
