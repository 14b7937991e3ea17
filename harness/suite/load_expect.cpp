// The suite loader, expectations: status, headers, JSON pointers, body, id
// checks; and captures.
#include "suite/loader_impl.hpp"

#include "ids/kind.hpp"

#include "core/grpc_status.hpp"
#include "suite/not_found_reader.hpp"

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

const std::vector<std::string> legacy_keys = {"layout", "id", "type", "salt"};
const std::vector<std::string> expect_keys = {"rule", "status", "status_not", "not_found", "headers", "json", "body", "id", "advisory",
                                              "id_members", "precondition"};
const std::vector<std::string> header_ops = {"equals", "regex", "absent", "present"};
const std::vector<std::string> json_ops = {"equals", "absent", "present", "null", "type", "regex", "one_of"};
const std::vector<std::string> json_types = {"string", "number", "integer", "boolean", "object", "array", "null"};
const std::vector<std::string> body_keys = {"contains", "not_contains", "allow_echo"};
const std::vector<std::string> id_members_keys = {"kind", "declared"};
const std::vector<std::string> id_keys = {"at", "header", "kind", "canonical", "minted", "allow_null", "equals",
                                          "unique", "time_field", "collect", "pattern", "legacy"};
const std::vector<std::string> capture_keys = {"json", "header", "header_id", "status"};

}  // namespace

namespace {

// An id kind name, or an error at `v` naming the kinds there are.
std::optional<std::string> id_kind(Reader& r, const Val& v, std::string_view what, std::string_view example) {
    auto s = r.string(v, what, example);
    if (!s) return std::nullopt;
    if (ids::parse_kind(*s)) return s;
    r.error(v, "unknown id kind '" + *s + "'", detail::suggest(*s, ids::kind_names(), "kinds"));
    return std::nullopt;
}

}  // namespace

// `id_members: ulid`, or `id_members: {kind: ulid, declared: {/tracking_id:
// uuidv4}}`: the members declared on purpose are judged by their own kind.
void Loader::id_members(Reader& r, const Val& v, Expect& x) {
    if (!v.node.IsMap()) {
        if (auto k = id_kind(r, v, "id_members", "id_members: ulid")) x.id_members = *k;
        return;
    }
    auto m = r.mapping(v, "id_members", id_members_keys, "{kind: ulid, declared: {/tracking_id: uuidv4}}");
    if (!m) return;
    const auto* kind = m->find("kind");
    if (!kind) {
        r.error(v, "id_members needs 'kind'", "the kind every id-named member holds: id_members: {kind: ulid}");
        return;
    }
    auto k = id_kind(r, kind->val(), "kind", "kind: ulid");
    if (!k) return;
    x.id_members = *k;
    const auto* declared = m->find("declared");
    if (!declared) return;
    auto dm = r.mapping(declared->val(), "declared", {}, "{/tracking_id: uuidv4}");
    if (!dm) return;
    for (const auto& entry : dm->entries) {
        if (entry.key.empty() || entry.key.front() != '/') {
            r.error(entry.key_val(), "'" + entry.key + "' is not a JSON pointer",
                    "name the member by its pointer in the entity, e.g. /tracking_id (it matches at any depth)");
            continue;
        }
        if (auto dk = id_kind(r, entry.val(), "declared kind", "uuidv4"))
            x.id_members_declared.emplace_back(entry.key, *dk);
    }
}

void Loader::expect(Reader& r, const Entry& e, Expect& x) {
    auto m = r.mapping(e.val(), "expect", expect_keys, "{status: 200}");
    if (!m) return;
    x.pos = r.pos(e.val());
    if (const auto* y = m->find("rule"))
        if (auto s = r.string(y->val(), "rule", "rule: DATA-ID-002")) x.rule = *s;
    if (const auto* y = m->find("advisory"))
        if (auto b = r.boolean(y->val(), "advisory")) x.advisory = *b;
    if (const auto* y = m->find("precondition")) {
        if (auto s = r.string(y->val(), "precondition", "precondition: \"the owner's list shows the entity\"")) {
            if (s->empty()) r.error(y->val(), "'precondition' is empty", "say what the case needs, e.g. precondition: \"the owner's list shows the entity\"");
            else x.precondition = *s;
        }
    }
    if (const auto* y = m->find("precondition"); y && x.advisory)
        r.error(y->key_val(), "'precondition' and 'advisory' cannot both be set",
                "an advisory check never fails, so it cannot stop the case");
    const auto* status = m->find("status");
    const auto* status_not = m->find("status_not");
    if (status && status_not)
        r.error(status_not->key_val(), "'status' and 'status_not' cannot both be set",
                "use status: for the codes that must come, or status_not: for codes that must not");
    else if (status)
        x.status = status_expect(r, status->val(), false);
    else if (status_not)
        x.status = status_expect(r, status_not->val(), true);
    if (const auto* y = m->find("not_found")) {
        auto nf = read_not_found(r, y->val());
        if (!x.status || !is_refusal(*x.status))
            r.error(y->key_val(), "'not_found' is for a check that wants a refusal",
                    "write it beside status: 404 (or [403, 404], 4xx, refused): the 2xx answer that means "
                    "nothing is there then passes too, e.g. not_found: {status: 200, at: /found, equals: false}");
        else if (nf) x.status->not_found = std::move(nf);
    }
    if (const auto* y = m->find("headers")) header_expects(r, y->val(), x.headers);
    if (const auto* y = m->find("json")) json_expects(r, y->val(), x.json);
    if (const auto* y = m->find("body")) {
        if (auto bm = r.mapping(y->val(), "body", body_keys, "{contains: [\"p1\"], not_contains: [\"error\"]}")) {
            BodyExpect b;
            b.pos = r.pos(y->val());
            if (const auto* z = bm->find("contains"))
                if (auto s = r.strings(z->val(), "contains", "contains: [\"p1\"]", true)) b.contains = *s;
            if (const auto* z = bm->find("not_contains"))
                if (auto s = r.strings(z->val(), "not_contains", "not_contains: [\"${product_id}\"]", true))
                    b.not_contains = *s;
            if (const auto* z = bm->find("allow_echo")) allow_echo(r, *z, bm->find("not_contains") != nullptr, b);
            x.body = std::move(b);
        }
    }
    if (const auto* y = m->find("id_members")) id_members(r, y->val(), x);
    if (const auto* y = m->find("id")) {
        const Val v = y->val();
        if (v.node.IsSequence()) {
            for (const auto& item : v.node)
                if (auto id = id_expect(r, Val{item, item.Mark()})) x.ids.push_back(std::move(*id));
        } else if (v.node.IsMap()) {
            if (auto id = id_expect(r, v)) x.ids.push_back(std::move(*id));
        } else {
            r.error(v, "expected a mapping or a list of mappings here, found " + detail::kind_name(v.node),
                    "write id: {at: /id, kind: uuidv7} or a list of such checks");
        }
    }
}

// `allow_echo`: the values the step sent that the answer may quote (an
// error naming the rejected input). It only narrows what `not_contains`
// looks at, so it needs one, and it must name something else than what
// not_contains looks for: that text as its own echo would hide every
// occurrence.
void Loader::allow_echo(Reader& r, const Entry& z, bool has_not_contains, BodyExpect& b) {
    const char* const example = "allow_echo: \"${m}\"";
    const Val v = z.val();
    auto s = r.strings(v, "allow_echo", example, true);
    if (!s) return;
    if (!has_not_contains) {
        r.error(z.key_val(), "'allow_echo' without 'not_contains'",
                "allow_echo names a value the step sent that the answer may quote; it only changes what "
                "not_contains looks at: add not_contains: [\"${live_id}\"] or remove allow_echo");
        return;
    }
    std::vector<Val> items;
    if (v.node.IsSequence())
        for (const auto& item : v.node) items.push_back(Val{item, item.Mark()});
    else items.push_back(v);
    if (items.empty()) {
        r.error(v, "empty 'allow_echo' list", std::string("name the value the step sent, e.g. ") + example);
        return;
    }
    bool ok = true;
    for (std::size_t i = 0; i < s->size() && i < items.size(); ++i) {
        const std::string& t = (*s)[i];
        if (t.empty()) {
            r.error(items[i], "'allow_echo' is empty",
                    std::string("name the value the step sent (a for_each binding), e.g. ") + example);
            ok = false;
        } else if (std::find(b.not_contains.begin(), b.not_contains.end(), t) != b.not_contains.end()) {
            r.error(items[i], "'allow_echo' is '" + t + "', the text not_contains looks for",
                    "an echo of that text would hide every occurrence of it; name the value the step sent "
                    "instead (the mutated id, e.g. " +
                        std::string(example) + ")");
            ok = false;
        }
    }
    if (ok) b.allow_echo = std::move(*s);
}

std::optional<StatusExpect> Loader::status_expect(Reader& r, const Val& v, bool negate) {
    StatusExpect st;
    st.pos = r.pos(v);
    st.negate = negate;
    std::vector<Val> items;
    if (v.node.IsSequence()) {
        for (const auto& item : v.node) items.push_back(Val{item, item.Mark()});
        if (items.empty()) {
            r.error(v, "empty status list", "list at least one code or class, e.g. [200, 201] or [4xx]");
            return std::nullopt;
        }
    } else {
        items.push_back(v);
    }
    const char* const hint =
        "write a code from 100 to 599 (e.g. 201), a class such as 4xx or `refused` (the suite's refused: "
        "statuses), alone or in a list: [200, 201]; grpc steps also take a gRPC status (NOT_FOUND, or 0 to 16)";
    bool ok = true;
    for (const auto& item : items) {
        if (!item.node.IsScalar()) {
            r.error(item, "expected a status code or class here, found " + detail::kind_name(item.node), hint);
            ok = false;
            continue;
        }
        const std::string& s = item.node.Scalar();
        if (s == "refused") {  // the suite's `refused:` statuses, resolved when the check runs
            st.refused = true;
            continue;
        }
        const bool digits = !s.empty() && s.size() <= 4 &&
                            std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (digits) {
            const int code = std::stoi(s);
            if (code >= 100 && code <= 599) {
                st.exact.push_back(code);
                continue;
            }
            if (code <= grpc_status::max_code && s.size() <= 2) {  // a gRPC code by number
                st.grpc_codes.push_back(code);
                continue;
            }
        } else if (s.size() == 3 && s[0] >= '1' && s[0] <= '5' && (s[1] == 'x' || s[1] == 'X') &&
                   (s[2] == 'x' || s[2] == 'X')) {
            st.classes.push_back(s[0] - '0');
            continue;
        } else if (auto code = grpc_status::from_name(s)) {
            st.grpc_codes.push_back(*code);
            continue;
        } else if (std::any_of(s.begin(), s.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
            const std::string best = did_you_mean(s, grpc_status::names());
            r.error(item, "unknown gRPC status '" + s + "'",
                    best.empty() ? "gRPC codes are written as their names, e.g. NOT_FOUND or INVALID_ARGUMENT"
                                 : "did you mean '" + best + "'?");
            ok = false;
            continue;
        }
        r.error(item, "bad status '" + s + "'", hint);
        ok = false;
    }
    if (!ok) return std::nullopt;
    return st;
}

bool Loader::compile_regex(Reader& r, const Val& v, const std::string& pattern) {
    RE2 re(pattern, RE2::Quiet);
    if (re.ok()) return true;
    r.error(v, "bad regular expression '" + pattern + "': " + re.error(),
            "patterns use RE2 syntax (no lookaround or backreferences) and must match the whole value");
    return false;
}

void Loader::header_expects(Reader& r, const Val& v, std::vector<HeaderExpect>& out) {
    auto m = r.mapping(v, "headers", {}, "{Content-Type: application/json, Location: {regex: \"^/v1/.*\"}}");
    if (!m) return;
    for (const auto& e : m->entries) {
        HeaderExpect h;
        h.name = e.key;
        h.pos = r.pos(e.key_val());
        const Val hv = e.val();
        if (!hv.node.IsMap()) {
            if (auto s = r.string(hv, e.key, "Content-Type: application/json", true)) {
                h.equals = *s;
                out.push_back(std::move(h));
            }
            continue;
        }
        auto om = r.mapping(hv, "header check", header_ops, "{regex: \"^application/json\"}");
        if (!om) continue;
        if (om->entries.size() != 1) {
            if (om->entries.size() > 1 || om->self.node.size() == 0)
                r.error(hv, "a header check takes exactly one of: equals, regex, absent, present",
                        "e.g. Location: {regex: \"^/v1/products/\"} or X-Debug: {absent: true}");
            continue;
        }
        const Entry& op = om->entries.front();
        if (op.key == "equals") {
            if (auto s = r.string(op.val(), "equals", "equals: application/json", true)) h.equals = *s;
            else continue;
        } else if (op.key == "regex") {
            auto s = r.string(op.val(), "regex", "regex: \"^application/json\"");
            if (!s || !compile_regex(r, op.val(), *s)) continue;
            h.regex = *s;
        } else {
            auto b = r.boolean(op.val(), op.key);
            if (!b) continue;
            if (!*b) {
                r.error(op.val(), "'" + op.key + ": false' is not a check",
                        op.key == "absent" ? "to require the header, write {present: true}"
                                           : "to forbid the header, write {absent: true}");
                continue;
            }
            (op.key == "absent" ? h.absent : h.present) = true;
        }
        out.push_back(std::move(h));
    }
}

bool Loader::pointer_ok(Reader& r, const Val& v, const std::string& pointer) {
    // A pointer may come from a variable (pack suites: at: "${res.id_at}").
    if (pointer.find("${") != std::string::npos) return r.check_template_at(v, pointer, false);
    const std::string why = detail::check_json_pointer(pointer);
    if (why.empty()) return true;
    r.error(v, "bad JSON pointer '" + pointer + "'",
            why + ", e.g. /id or /items/0/id; '' is the whole body (RFC 6901)");
    return false;
}

void Loader::json_expects(Reader& r, const Val& v, std::vector<JsonExpect>& out) {
    auto m = r.mapping(v, "json", {}, "{/name: p1, /id: {type: string}}");
    if (!m) return;
    for (const auto& e : m->entries) {
        if (!pointer_ok(r, e.key_val(), e.key)) continue;
        JsonExpect j;
        j.pointer = e.key;
        j.pos = r.pos(e.key_val());
        const Val jv = e.val();
        // A one-key mapping whose key is an operator is a check; a key
        // close to one is a typo, not an object to compare with.
        if (jv.node.IsMap() && jv.node.size() == 1) {
            const YAML::Node key = jv.node.begin()->first;
            const std::string k = detail::key_text(key).value_or("");
            const bool is_op = std::find(json_ops.begin(), json_ops.end(), k) != json_ops.end();
            if (!is_op) {
                const std::string best = did_you_mean(k, json_ops);
                if (!best.empty()) {
                    r.error({key, key.Mark()}, "unknown operator '" + k + "' in json check",
                            "did you mean '" + best + "'? To compare with an object, write {equals: {" + k +
                                ": ...}}");
                    continue;
                }
            } else {
                if (auto op = json_op(r, jv, j)) out.push_back(std::move(*op));
                continue;
            }
        }
        if (auto val = r.json(jv, true)) {
            j.op = JsonOp::equals;
            j.operand = std::move(*val);
            out.push_back(std::move(j));
        }
    }
}

std::optional<JsonExpect> Loader::json_op(Reader& r, const Val& v, JsonExpect j) {
    auto m = r.mapping(v, "json check", json_ops, "{type: string}");
    if (!m || m->entries.empty()) return std::nullopt;
    const Entry& op = m->entries.front();
    const Val ov = op.val();
    if (op.key == "equals") {
        auto val = r.json(ov, true);
        if (!val) return std::nullopt;
        j.op = JsonOp::equals;
        j.operand = std::move(*val);
    } else if (op.key == "one_of") {
        if (!ov.node.IsSequence() || ov.node.size() == 0) {
            r.error(ov, "expected a non-empty list here, found " + detail::kind_name(ov.node),
                    "one_of takes the allowed values, e.g. {one_of: [a, b]}");
            return std::nullopt;
        }
        auto val = r.json(ov, true);
        if (!val) return std::nullopt;
        j.op = JsonOp::one_of;
        j.operand = std::move(*val);
    } else if (op.key == "type") {
        auto s = r.string(ov, "type", "type: string");
        if (!s) return std::nullopt;
        if (std::find(json_types.begin(), json_types.end(), *s) == json_types.end()) {
            r.error(ov, "unknown JSON type '" + *s + "'", detail::suggest(*s, json_types, "types"));
            return std::nullopt;
        }
        j.op = JsonOp::type;
        j.operand = boost::json::value(*s);
    } else if (op.key == "regex") {
        auto s = r.string(ov, "regex", "regex: \"^[0-9a-f-]{36}$\"");
        if (!s || !compile_regex(r, ov, *s)) return std::nullopt;
        j.op = JsonOp::regex;
        j.operand = boost::json::value(*s);
    } else {
        auto b = r.boolean(ov, op.key);
        if (!b) return std::nullopt;
        if (!*b) {
            r.error(ov, "'" + op.key + ": false' is not a check",
                    op.key == "absent"  ? "to require the member, write {present: true}"
                    : op.key == "present" ? "to forbid the member, write {absent: true}"
                                          : "to forbid null, write {type: ...} with the expected type");
            return std::nullopt;
        }
        j.op = op.key == "absent" ? JsonOp::absent : op.key == "present" ? JsonOp::present : JsonOp::null;
    }
    return j;
}

std::optional<IdExpect> Loader::id_expect(Reader& r, const Val& v) {
    auto m = r.mapping(v, "id", id_keys, "{at: /id, kind: uuidv7, minted: true}");
    if (!m) return std::nullopt;
    const std::size_t before = diags.size();
    IdExpect id;
    id.pos = r.pos(v);
    const auto* at = m->find("at");
    const auto* header = m->find("header");
    if (at && header) {
        r.error(header->key_val(), "an id check takes 'at' or 'header', not both",
                "write one check per place: {at: /id} for the body, {header: Location} for a header");
    } else if (!at && !header) {
        r.error(v, "an id check needs 'at' or 'header'",
                "say where the id is, e.g. {at: /id, kind: uuidv7} or {header: Location, kind: uuidv7}");
    }
    if (at)
        if (auto s = r.string(at->val(), "at", "at: /id"); s && pointer_ok(r, at->val(), *s)) id.at = *s;
    if (header)
        if (auto s = r.string(header->val(), "header", "header: Location")) id.header = *s;
    if (const auto* k = m->find("kind")) {
        if (auto s = r.string(k->val(), "kind", "kind: uuidv7")) {
            // An id kind (ids/kind.hpp, `any` and `existing` among them), or
            // a variable: a pack's declared kind, resolved when the check runs.
            if (s->find("${") != std::string::npos)
                id.kind = *s;
            else if (!ids::parse_kind(*s))
                r.error(k->val(), "unknown id kind '" + *s + "'", detail::suggest(*s, ids::kind_names(), "kinds"));
            else
                id.kind = *s;
        }
    }
    if (const auto* b = m->find("canonical"))
        if (auto x = r.boolean(b->val(), "canonical")) id.canonical = *x;
    if (const auto* b = m->find("minted"))
        if (auto x = r.boolean(b->val(), "minted")) id.minted = *x;
    if (const auto* b = m->find("allow_null"))
        if (auto x = r.boolean(b->val(), "allow_null")) id.allow_null = *x;
    if (const auto* q = m->find("equals"))
        if (auto s = r.string(q->val(), "equals", "equals: \"${product_id}\"", true)) id.equals = *s;
    if (const auto* b = m->find("unique"))
        if (auto x = r.boolean(b->val(), "unique")) id.unique = *x;
    if (const auto* q = m->find("time_field"))
        if (auto s = r.string(q->val(), "time_field", "time_field: /created_at"); s && pointer_ok(r, q->val(), *s))
            id.time_field = *s;
    if (const auto* q = m->find("collect")) {
        if (auto s = r.string(q->val(), "collect", "collect: order_ids")) {
            if (!valid_name(*s))
                r.error(q->val(), "bad list name '" + *s + "'",
                        "names use letters, digits, '_' and '-' and start with a letter, e.g. collect: order_ids");
            else
                id.collect = *s;
        }
    }
    if (const auto* q = m->find("pattern")) {
        if (auto s = r.string(q->val(), "pattern", "pattern: \"^TR-[0-9A-HJKMNP-TV-Z]{7}$\"", true)) {
            // A pattern that is a variable is compiled when it is used.
            if (s->find("${") != std::string::npos || compile_regex(r, q->val(), *s)) id.pattern = *s;
        }
    }
    if (const auto* q = m->find("legacy")) {
        const char* const example = "{layout: \"${res.legacy_layout}\", id: \"${lid}\", type: 500, salt: \"${res.legacy_salt}\"}";
        if (auto lm = r.mapping(q->val(), "legacy", legacy_keys, example)) {
            IdExpect::Legacy l;
            l.pos = r.pos(q->val());
            std::string* slots[] = {&l.layout, &l.legacy_id, &l.entity_type, &l.salt};
            const char* names[] = {"layout", "id", "type", "salt"};
            for (std::size_t i = 0; i < 4; ++i)
                if (const auto* z = lm->find(names[i]))
                    if (auto s = r.string(z->val(), names[i], example, true)) *slots[i] = *s;
            id.legacy = std::move(l);
        }
        if (id.kind != "uuidv8-legacy")
            r.error(q->key_val(), "'legacy' checks need kind: uuidv8-legacy (found kind '" + id.kind + "')",
                    "write {at: /id, kind: uuidv8-legacy, legacy: {...}}");
    }
    if (diags.size() != before) return std::nullopt;
    return id;
}

void Loader::captures(Reader& r, const Entry& e, std::vector<Capture>& out) {
    auto m = r.mapping(e.val(), "capture", {}, "{product_id: /id, location: {header: Location}}");
    if (!m) return;
    for (const auto& entry : m->entries) {
        if (!valid_name(entry.key)) {
            r.error(entry.key_val(), "bad variable name '" + entry.key + "'",
                    "variable names use letters, digits, '_' and '-' and start with a letter or '_'");
            continue;
        }
        Capture c;
        c.var = entry.key;
        c.pos = r.pos(entry.key_val());
        const Val v = entry.val();
        if (v.node.IsScalar()) {
            auto s = r.string(v, entry.key, "product_id: /id");
            if (!s || !pointer_ok(r, v, *s)) continue;
            c.from = Capture::From::json;
            c.path = *s;
            out.push_back(std::move(c));
            continue;
        }
        auto cm = r.mapping(v, "capture source", capture_keys, "{header: Location}");
        if (!cm) continue;
        if (cm->entries.size() != 1) {
            if (cm->entries.size() > 1 || v.node.size() == 0)
                r.error(v, "a capture takes exactly one of: json, header, header_id, status",
                        "e.g. {json: /id}, {header: Location}, {header_id: Location} or {status: true}");
            continue;
        }
        const Entry& src = cm->entries.front();
        if (src.key == "json") {
            auto s = r.string(src.val(), "json", "json: /id");
            if (!s || !pointer_ok(r, src.val(), *s)) continue;
            c.from = Capture::From::json;
            c.path = *s;
        } else if (src.key == "header" || src.key == "header_id") {
            // header_id: the id the header names, its last path segment (a
            // 201 whose new id is only in its Location)
            auto s = r.string(src.val(), src.key, src.key + ": Location");
            if (!s) continue;
            c.from = src.key == "header" ? Capture::From::header : Capture::From::header_id;
            c.path = *s;
        } else {
            auto b = r.boolean(src.val(), "status");
            if (!b) continue;
            if (!*b) {
                r.error(src.val(), "'status: false' captures nothing", "write {status: true}");
                continue;
            }
            c.from = Capture::From::status;
        }
        out.push_back(std::move(c));
    }
}

namespace {

// A member's pointer: well-formed, and not "" (the whole answer is body:'s).
bool pointer_ok(Reader& r, const Val& v, const std::string& pointer) {
    if (!r.check_pointer_at(v, pointer)) return false;
    if (!pointer.empty()) return true;
    r.error(v, "empty JSON pointer for 'at'", "'' is the whole entity; point at its member, e.g. at: /found");
    return false;
}

}  // namespace

// `not_found: {status: 200, body: []}`, `{status: 200, at: /found, equals:
// false}` or `{status: 204, empty: true}`: a 2xx answer that means nothing
// was found.
std::optional<NotFound> read_not_found(Reader& r, const Val& v) {
    const char* const example =
        "{status: 200, body: []}, {status: 200, at: /found, equals: false} or {status: 204, empty: true}";
    auto m = r.mapping(v, "not_found", {"status", "body", "at", "equals", "empty"}, example);
    if (!m) return std::nullopt;
    NotFound nf;
    nf.pos = r.pos(v);
    if (const auto* x = m->find("status")) {
        if (auto s = r.string(x->val(), "status", "status: 200")) {
            int code = 0;
            const bool digits = s->size() == 3 && s->find_first_not_of("0123456789") == std::string::npos;
            if (digits) code = std::stoi(*s);
            if (!digits || code < 200 || code > 299)
                r.error(x->val(), "not_found status '" + *s + "' is not a 2xx status",
                         "a 4xx is already taken as not found; not_found describes a 2xx answer, e.g. " +
                             std::string(example));
            else nf.status = code;
        }
    } else {
        r.error(v, "missing required key 'status' in not_found", std::string("e.g. not_found: ") + example);
    }
    const Entry* body = m->find("body");
    const Entry* at = m->find("at");
    const Entry* equals = m->find("equals");
    const Entry* empty = m->find("empty");
    if (empty) {  // an answer with no body: nothing else to compare
        if (auto b = r.boolean(empty->val(), "empty"); b && !*b)
            r.error(empty->val(), "not_found: empty: false says nothing",
                     "leave it out and give body: or at: with equals:, or write empty: true for an answer with no body");
        else if (b) nf.empty = true;
        if (const Entry* other = body ? body : at ? at : equals)
            r.error(other->key_val(), "not_found has 'empty' and '" + other->key + "'",
                     "an empty answer has no body to compare: keep empty: true alone, or drop it");
    } else if (body && (at || equals)) {
        r.error((at ? at : equals)->key_val(), "not_found has 'body' and '" + std::string(at ? "at" : "equals") + "'",
                 "keep one: body: the whole answer, or at: with equals: a member of it that says nothing was found");
    } else if (body) {
        if (auto j = r.json(body->val(), false)) nf.body = std::move(*j);
    } else if (at || equals) {
        if (!at || !equals) {
            r.error((at ? at : equals)->key_val(), std::string("not_found has '") + (at ? "at" : "equals") +
                                                        "' without '" + (at ? "equals" : "at") + "'",
                     "at: names the member, equals: its value when nothing was found, e.g. not_found: {status: "
                     "200, at: /found, equals: false}");
        } else if (auto s = r.string(at->val(), "at", "at: /found"); s && pointer_ok(r, at->val(), *s)) {
            nf.at = *s;
            if (auto j = r.json(equals->val(), false)) nf.equals = std::move(*j);
        }
    } else {
        r.error(v, "missing required key 'body' in not_found",
                 std::string("the exact JSON answer that means nothing was found (or at: and equals:, a member "
                             "that says so), e.g. not_found: ") +
                     example);
    }
    return nf;
}



}  // namespace idconform::suite::detail
