// The profile loader, ids beside a resource's own: `job:` (a related id read
// at its own path), `legacy:` (integer ids migrated into UUIDv8, with their
// bit layout) and `viewable:` (a prefixed short id shown to people).
#include "profile/load_impl.hpp"

#include <re2/re2.h>

namespace idconform::profile::loading {

namespace {

const std::vector<std::string> job_keys = {"at", "read"};
const std::vector<std::string> legacy_keys = {"lookup", "ids", "entity_type", "salt_env", "layout"};
const std::vector<std::string> layout_keys = {"flag", "id", "type", "hash1", "hash2"};
const std::vector<std::string> bit_field_keys = {"offset", "bits"};
const std::vector<std::string> viewable_keys = {"at", "read", "prefix", "length", "format"};

// The legacy lookup: {id} is the legacy integer id.
const Operation legacy_lookup_op = {"lookup", "GET", true, false, false, "{path: \"/v1/staff/{id}\"}"};
// A path read by a related or viewable id, written as a plain path.
const Operation read_path_op = {"read", "GET", true, false, false, "\"/v1/jobs/{id}\""};

// An environment variable name as a shell accepts it.
bool env_name_ok(std::string_view s) {
    if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
    for (char c : s)
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

}  // namespace

// A plain path with {id}, e.g. read: "/v1/jobs/{id}".
std::optional<std::string> Loader::id_path(const Val& v, std::string_view what) {
    auto s = r_.string(v, what, "\"/v1/jobs/{id}\"");
    if (!s || !path_ok(v, *s, read_path_op)) return std::nullopt;
    return s;
}

std::optional<RelatedId> Loader::job(const Val& v) {
    const char* const example = "{at: /job_id, read: \"/v1/jobs/{id}\"}";
    auto m = r_.mapping(v, "job", job_keys, example);
    if (!m) return std::nullopt;
    const std::size_t before = diags_->size();
    RelatedId j;
    j.pos = r_.pos(v);
    if (const auto* x = m->find("at")) {
        if (auto s = r_.string(x->val(), "at", "at: /job_id"); s && member_pointer(x->val(), *s, "at", "/job_id"))
            j.pointer = *s;
    } else {
        r_.error(v, "missing required key 'at' in job",
                 std::string("say where the create answer carries the job id, e.g. job: ") + example);
    }
    if (const auto* x = m->find("read")) {
        if (auto s = id_path(x->val(), "read")) j.read = *s;
    }
    if (diags_->size() != before) return std::nullopt;
    return j;
}

// A non-negative integer that fits `max`.
std::optional<std::uint64_t> Loader::integer(const Val& v, std::string_view what, std::uint64_t max,
                                             std::string_view example, std::uint64_t min) {
    const std::string& t = v.node.IsScalar() ? v.node.Scalar() : std::string();
    bool digits = v.node.IsScalar() && !t.empty() && t.size() <= 19 && detail::is_plain(v.node);
    for (char c : t) digits = digits && c >= '0' && c <= '9';
    if (!digits || std::stoull(t) > max || std::stoull(t) < min) {
        r_.error(
            v,
            "'" + std::string(what) + "' must be an integer from " + std::to_string(min) + " to " + std::to_string(max),
            "e.g. " + std::string(example));
        return std::nullopt;
    }
    return std::stoull(t);
}

std::optional<Legacy> Loader::legacy(const Val& v) {
    const char* const example =
        "{lookup: {path: \"/v1/staff/{id}\"}, ids: [17, 4242], entity_type: 500, salt_env: MY_LEGACY_SALT}";
    auto m = r_.mapping(v, "legacy", legacy_keys, example);
    if (!m) return std::nullopt;
    const std::size_t before = diags_->size();
    Legacy l;
    l.pos = r_.pos(v);
    if (const auto* x = m->find("layout")) layout(x->val(), l.layout);
    if (const auto* x = m->find("lookup")) {
        if (auto e = endpoint(x->val(), legacy_lookup_op)) l.lookup = std::move(*e);
    } else {
        r_.error(v, "missing required key 'lookup' in legacy",
                 "say where an entity is found by its legacy integer id ({id}), e.g. lookup: {path: "
                 "\"/v1/staff/{id}\"}");
    }
    const std::uint64_t id_max =
        l.layout.id_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << l.layout.id_bits) - 1;
    const std::uint64_t type_max =
        l.layout.type_bits >= 32 ? 0xffffffffu : (std::uint64_t{1} << l.layout.type_bits) - 1;
    if (const auto* x = m->find("ids")) {
        if (auto items = r_.sequence(x->val(), "ids", "ids: [17, 4242]")) {
            if (items->empty())
                r_.error(x->val(), "no legacy ids", "list at least one legacy id the target knows, e.g. ids: [17]");
            for (const auto& item : *items)
                if (auto n = integer(item, "ids", id_max, "ids: [17, 4242]")) l.ids.push_back(*n);
        }
    } else {
        r_.error(v, "missing required key 'ids' in legacy",
                 "list legacy integer ids the target has migrated, e.g. ids: [17, 4242]");
    }
    if (const auto* x = m->find("entity_type")) {
        if (auto n = integer(x->val(), "entity_type", type_max, "entity_type: 500"))
            l.entity_type = static_cast<std::uint32_t>(*n);
    } else {
        r_.error(v, "missing required key 'entity_type' in legacy",
                 "give the entity type the target's ids carry, e.g. entity_type: 500 (staff)");
    }
    if (const auto* x = m->find("salt_env")) {
        if (auto s = r_.string(x->val(), "salt_env", "salt_env: MY_LEGACY_SALT")) {
            if (!env_name_ok(*s))
                r_.error(
                    x->val(), "'" + *s + "' is not an environment variable name",
                    "name the variable that holds the salt (never the salt itself), e.g. salt_env: MY_LEGACY_SALT");
            else l.salt_env = *s;
        }
    }
    if (diags_->size() != before) return std::nullopt;
    return l;
}

// {flag: 0, id: {offset: 1, bits: 32}, ...}; fields left out keep the seed's layout.
void Loader::layout(const Val& v, ids::LegacyLayout& l) {
    const char* const example = "{flag: 0, id: {offset: 1, bits: 32}, type: {offset: 33, bits: 15}}";
    auto m = r_.mapping(v, "layout", layout_keys, example);
    if (!m) return;
    const std::size_t before = diags_->size();
    if (const auto* x = m->find("flag"))
        if (auto n = integer(x->val(), "flag", 127, "flag: 0")) l.flag_bit = static_cast<int>(*n);
    struct Slot {
        const char* key;
        int* offset;
        int* bits;
    };
    const Slot slots[] = {{"id", &l.id_offset, &l.id_bits},
                          {"type", &l.type_offset, &l.type_bits},
                          {"hash1", &l.hash1_offset, &l.hash1_bits},
                          {"hash2", &l.hash2_offset, &l.hash2_bits}};
    for (const auto& slot : slots) {
        const auto* x = m->find(slot.key);
        if (!x) continue;
        auto fm = r_.mapping(x->val(), slot.key, bit_field_keys, "{offset: 1, bits: 32}");
        if (!fm) continue;
        if (const auto* y = fm->find("offset"))
            if (auto n = integer(y->val(), "offset", 127, "offset: 1")) *slot.offset = static_cast<int>(*n);
        if (const auto* y = fm->find("bits"))
            if (auto n = integer(y->val(), "bits", 64, "bits: 32")) *slot.bits = static_cast<int>(*n);
    }
    if (diags_->size() != before) return;
    if (std::string why = l.validate(); !why.empty())
        r_.error(v, "bad legacy layout: " + why,
                 "bits count from 0 (the top bit of the first byte); the version (48-51) and variant (64-65) "
                 "bits are fixed, and no two fields may overlap");
}

std::optional<Viewable> Loader::viewable(const Val& v) {
    const char* const example = "{at: /viewable_id, read: \"/v1/products/by-viewable/{id}\"}";
    auto m = r_.mapping(v, "viewable", viewable_keys, example);
    if (!m) return std::nullopt;
    const std::size_t before = diags_->size();
    Viewable w;
    w.pos = r_.pos(v);
    if (const auto* x = m->find("at")) {
        if (auto s = r_.string(x->val(), "at", "at: /viewable_id");
            s && member_pointer(x->val(), *s, "at", "/viewable_id"))
            w.pointer = *s;
    }
    if (const auto* x = m->find("read")) {
        if (auto s = id_path(x->val(), "read")) w.read = *s;
    }
    if (const auto* x = m->find("prefix")) {
        if (auto s = r_.string(x->val(), "prefix", "prefix: \"TR-\"")) {
            if (s->empty() || s->back() != '-' || s->find_first_of(" /?#%{}") != std::string::npos)
                r_.error(x->val(), "the viewable prefix '" + *s + "' does not end with '-'",
                         "a prefix is ASCII text ending in '-', e.g. prefix: \"TR-\"");
            else w.prefix = *s;
        }
    }
    if (const auto* x = m->find("length")) {
        if (auto n = integer(x->val(), "length", 12, "length: 7", 1)) w.length = static_cast<std::size_t>(*n);
    }
    w.format = ids::viewable_pattern(ids::ViewableFormat{w.prefix, w.length});
    if (const auto* x = m->find("format")) {
        if (auto s = r_.string(x->val(), "format", "format: \"^TR-[0-9A-HJKMNP-TV-Z]{7}$\"")) {
            RE2 re(*s, RE2::Quiet);
            if (!re.ok())
                r_.error(x->val(), "bad regular expression '" + *s + "': " + re.error(),
                         "the format is an RE2 pattern matching a whole viewable id, e.g. ^TR-[0-9A-HJKMNP-TV-Z]{7}$");
            else w.format = *s;
        }
    }
    if (diags_->size() != before) return std::nullopt;
    return w;
}

}  // namespace idconform::profile::loading
