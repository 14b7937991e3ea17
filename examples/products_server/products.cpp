// The products API, its product part: reference checks, create, read,
// update, delete and list of products, and the commands the gRPC front and
// the event feed use. Split from service.cpp (its routing, categories, id
// minting and rendering) to keep each file a size one can read.
#include "service.hpp"
#include "service_detail.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <mutex>

namespace products {
namespace ids = idconform::ids;
namespace json = boost::json;
using namespace detail;
// ------------------------------------------------------- reference checks

namespace {

// Outcome of the syntactic check of one reference field.
struct RefCheck {
    Ref ref;
    bool must_exist = false;  // a real id that the store must know for this caller
};

}  // namespace

// Syntactic validation of a reference value, before any lookup. The three
// questions of the nil-max pack are kept apart: is the text an id at all,
// is it a normal or a special value, and is that allowed for this field.
static std::optional<Response> check_ref(const DefectSet& defects, const json::value* v, bool required,
                                         std::string_view field, RefCheck& out) {
    out = RefCheck{};
    auto invalid = [&] {
        return error(400, "invalid_reference", std::string(field) + " must be a canonical lower-case UUIDv7");
    };
    if (v == nullptr || v->is_null()) {
        if (required && !defects.has(Defect::accept_missing_required_ref))
            return error(400, "missing_reference", std::string(field) + " is required");
        return std::nullopt;  // kind none
    }
    if (!required && defects.has(Defect::optional_ref_accepts_empty) &&
        (is_zero_number(*v) || (v->is_string() && (v->get_string().empty() || v->get_string() == "0")))) {
        out.ref.kind = Ref::Kind::raw;  // the optional field is not validated: the violation
        out.ref.raw = json::value(*v, json::storage_ptr());
        return std::nullopt;
    }
    if (v->is_number()) {
        if (defects.has(Defect::accept_empty_ref) && is_zero_number(*v)) {
            out.ref.kind = Ref::Kind::raw;
            out.ref.raw = json::value(*v, json::storage_ptr());
            return std::nullopt;
        }
        return invalid();
    }
    if (!v->is_string()) return invalid();
    const std::string_view text = v->get_string();

    if (ids::is_canonical_version(text, 7)) {
        out.ref.kind = Ref::Kind::id;
        out.ref.id = *ids::parse_canonical(text);
        out.must_exist = true;
        return std::nullopt;
    }
    if (text.empty()) {
        if (!defects.has(Defect::accept_empty_ref)) return invalid();
        out.ref.kind = Ref::Kind::raw;
        out.ref.raw = json::string();
        return std::nullopt;
    }
    if (text == nil_text && defects.has(Defect::accept_nil_ref)) {
        out.ref.kind = Ref::Kind::id;
        out.ref.id = ids::nil_uuid;
        return std::nullopt;
    }
    if (text == max_text && defects.has(Defect::accept_max_ref)) {
        out.ref.kind = Ref::Kind::id;
        out.ref.id = ids::max_uuid;
        return std::nullopt;
    }
    if (defects.has(Defect::accept_any_version_ref) && text != nil_text && text != max_text) {
        if (auto u = ids::parse_canonical(text)) {
            out.ref.kind = Ref::Kind::id;
            out.ref.id = *u;  // stored as sent, no lookup: nothing of that version exists
            return std::nullopt;
        }
    }
    if (!required && defects.has(Defect::optional_ref_any_form) && text != nil_text && text != max_text) {
        const ids::Recognition r = ids::recognize_uuid(text);
        if (r.value && r.special == ids::Special::none) {
            out.ref.kind = Ref::Kind::id;
            out.ref.id = *r.value;  // normalised, any version: the violation
            // a v7 spelling of a product is looked up; other versions are stored as sent
            out.must_exist = r.version == 7 && r.variant == ids::Variant::rfc9562;
            return std::nullopt;
        }
    }
    if (defects.has(Defect::lenient_ref)) {
        const ids::Recognition r = ids::recognize_uuid(text);
        if (r.value) {
            out.ref.kind = Ref::Kind::id;
            out.ref.id = *r.value;  // silently normalised: the violation
            out.must_exist = true;
            return std::nullopt;
        }
    }
    return invalid();
}

// ---------------------------------------------------------------- products

namespace {

// The validated, not yet stored content of a create or update body.
struct ProductInput {
    const json::value* name = nullptr;
    const json::value* price = nullptr;
    bool has_category = false;
    bool has_parent = false;
    RefCheck category;
    RefCheck parent;
};

std::optional<Response> check_name_price(const BodyParse& in, bool name_required, ProductInput& out) {
    out.name = in.field("name");
    if (out.name == nullptr) {
        if (name_required) return error(400, "invalid_field", "name must be a non-empty string");
    } else if (!out.name->is_string() || out.name->get_string().empty()) {
        return error(400, "invalid_field", "name must be a non-empty string");
    }
    out.price = in.field("price");
    if (out.price != nullptr && !out.price->is_null() && !out.price->is_number())
        return error(400, "invalid_field", "price must be a number");
    return std::nullopt;
}

}  // namespace

Response ProductsService::create_product(std::string_view owner, std::string_view body, const ids::Uuid* client_id) {
    BodyParse in;
    if (auto bad = in.parse(body)) return std::move(*bad);
    if (const json::value* body_id = in.field("id")) {
        if (client_id == nullptr) return error(400, "id_not_allowed", "the server assigns ids");
        const json::string* s = body_id->if_string();
        const std::optional<ids::Uuid> parsed = s ? ids::parse_canonical(*s) : std::nullopt;
        if (!parsed || *parsed != *client_id)
            return error(400, "id_mismatch", "body id differs from the path id");
    }
    ProductInput input;
    if (auto bad = check_name_price(in, true, input)) return std::move(*bad);
    if (auto bad = check_ref(defects_, in.field("category_id"), true, "category_id", input.category))
        return std::move(*bad);
    if (auto bad = check_ref(defects_, in.field("parent_id"), false, "parent_id", input.parent))
        return std::move(*bad);

    Product p;
    p.owner = owner;
    p.name = input.name->get_string();
    p.category = std::move(input.category.ref);
    p.parent = std::move(input.parent.ref);
    if (input.price != nullptr) p.price = json::value(*input.price, json::storage_ptr());
    p.tracking_id = mint_tracking_id();

    std::unique_lock lock(mutex_);
    if (input.category.must_exist) {
        const auto c = categories_.find(p.category.id);
        if (c == categories_.end() || c->second.owner != owner)
            return error(422, "unknown_reference", "category_id does not name one of your categories");
    }
    if (input.parent.must_exist) {
        const auto parent = products_.find(p.parent.id);
        if (parent == products_.end() || parent->second.owner != owner)
            return error(422, "unknown_reference", "parent_id does not name one of your products");
    }

    unsigned status = 201;
    if (client_id != nullptr) {
        p.id = *client_id;
        const auto existing = products_.find(p.id);
        const bool mine = existing != products_.end() && existing->second.owner == owner;
        if (mine && defects_.has(Defect::put_returns_existing)) return product_response(200, existing->second);
        if (mine && defects_.has(Defect::put_overwrites)) {
            status = 200;
        } else if (existing != products_.end() || deleted_.contains(p.id)) {
            // The existing entity is left exactly as it was (DATA-ID-006).
            return error(409, "conflict", "an entity with this id exists or existed");
        }
    } else if (defects_.has(Defect::reuse_deleted_ids) && !reusable_.empty()) {
        p.id = reusable_.back();
        reusable_.pop_back();
        deleted_.erase(p.id);
    } else {
        // Generation may be retried before the save succeeds; a clash with a
        // live or deleted id is never resolved by overwriting.
        for (int attempt = 0; attempt < 8; ++attempt) {
            p.id = mint_product_id();
            if (defects_.has(Defect::same_ms_collision)) break;
            if (!products_.contains(p.id) && !deleted_.contains(p.id)) break;
            if (attempt == 7) return error(500, "id_generation_failed", "could not mint a fresh id");
        }
    }

    if (defects_.has(Defect::derived_time)) {
        p.created_at = ids::iso8601_ms(static_cast<std::int64_t>(ids::decode_v7(p.id).unix_ts_ms));
    } else {
        // A clock reading of its own, kept apart from the id's timestamp;
        // the rare reading that lands exactly on the id's millisecond is
        // moved by 1 us so the time field is never a copy of the id.
        std::int64_t us = now_unix_us();
        if (us % 1000 == 0 && us / 1000 == static_cast<std::int64_t>(ids::decode_v7(p.id).unix_ts_ms)) ++us;
        p.created_at = iso8601_us(us);
    }
    p.updated_at = p.created_at;

    if (const auto old = products_.find(p.id); old != products_.end() && !old->second.viewable_id.empty()) {
        p.viewable_id = old->second.viewable_id;  // put-overwrites: the entity keeps its viewable id
    } else {
        p.viewable_id = mint_viewable_locked();
        if (p.viewable_id.empty()) return error(500, "viewable_id_collisions", "could not mint a fresh viewable id");
    }
    by_viewable_[p.viewable_id] = p.id;
    latest_product_[std::string(owner)] = p.id;

    Response r = product_response(status, p);
    if (status == 201) r.location = location_for(p.id);

    auto [it, inserted] = products_.try_emplace(p.id);
    if (!inserted && it->second.owner != owner) {
        // Only reachable with same-ms-collision: the old owner loses it.
        if (auto idx = products_by_owner_.find(it->second.owner); idx != products_by_owner_.end())
            idx->second.erase(p.id);
    }
    auto idx = products_by_owner_.find(owner);
    if (idx == products_by_owner_.end()) idx = products_by_owner_.emplace(std::string(owner), std::set<ids::Uuid>{}).first;
    idx->second.insert(p.id);
    it->second = std::move(p);
    changed(status == 201 ? "created" : "updated", it->second);
    return r;
}

Response ProductsService::put_product(std::string_view owner, std::string_view path_id, std::string_view body) {
    if (defects_.has(Defect::put_accepts_any_id)) {
        const ids::Recognition r = ids::recognize_uuid(path_id);
        if (r.value && r.special == ids::Special::none) {
            const ids::Uuid id = *r.value;  // any version, any spelling: the violation
            return create_product(owner, body, &id);
        }
    }
    if (!ids::is_canonical_version(path_id, 7))
        return error(400, "invalid_id", "path id must be a canonical lower-case UUIDv7");
    const ids::Uuid id = *ids::parse_canonical(path_id);
    return create_product(owner, body, &id);
}

bool ProductsService::resolve_path_id(std::string_view raw, ids::Uuid& out, Response& err) const {
    if (ids::is_canonical_version(raw, 7) ||
        (defects_.has(Defect::v4_ids) && ids::is_canonical_version(raw, 4))) {
        out = *ids::parse_canonical(raw);
        return true;
    }
    std::uint32_t tolerated = 0;
    if (defects_.has(Defect::accept_upper_path))
        tolerated |= static_cast<std::uint32_t>(ids::Defect::upper_case | ids::Defect::mixed_case);
    if (defects_.has(Defect::accept_braces_path))
        tolerated |= static_cast<std::uint32_t>(ids::Defect::braces | ids::Defect::urn_prefix);
    if (defects_.has(Defect::accept_no_hyphens_path)) tolerated |= static_cast<std::uint32_t>(ids::Defect::no_hyphens);
    if (tolerated != 0) {
        const ids::Recognition r = ids::recognize_uuid(raw);
        const auto found = static_cast<std::uint32_t>(r.defects);
        if (r.value && found != 0 && (found & ~tolerated) == 0) {
            out = *r.value;  // silently normalised: the violation
            return true;
        }
    }
    err = defects_.has(Defect::crash_on_bad_id) ? error(500, "internal_error", "unhandled id parse failure")
                                                : not_found();
    return false;
}

Response ProductsService::get_product(std::string_view owner, std::string_view path_id) {
    if ((path_id == nil_text && defects_.has(Defect::nil_path_200)) ||
        (path_id == max_text && defects_.has(Defect::max_path_200))) {
        Product placeholder;
        placeholder.id = path_id == nil_text ? ids::nil_uuid : ids::max_uuid;
        placeholder.owner = owner;
        placeholder.name = "placeholder";
        placeholder.tracking_id = ids::generate_v4();
        placeholder.created_at = placeholder.updated_at = now_text();
        return product_response(200, placeholder);
    }
    ids::Uuid id;
    Response err;
    if (!resolve_path_id(path_id, id, err)) return err;
    std::shared_lock lock(mutex_);
    const auto it = products_.find(id);
    if (it == products_.end()) {
        if (defects_.has(Defect::reject_foreign_v7) && ids::is_canonical_version(path_id, 7))
            return error(400, "invalid_id", "malformed id");
        return not_found();
    }
    if (it->second.owner != owner && !defects_.has(Defect::no_ownership_read)) return not_found();
    return product_response(200, it->second);
}

// The caller's products as an NDJSON file in export_dir_, rendered like
// API answers (so the output defects show in exports too); answers 201
// {"id": ..., "path": ..., "records": N}.
Response ProductsService::export_products(std::string_view owner) {
    const ids::Uuid export_id = v7_.next();
    const std::string id = ids::format(export_id);
    const std::string path = export_dir_ + "/products-" + id + ".ndjson";
    std::string text;
    std::size_t records = 0;
    {
        std::shared_lock lock(mutex_);
        if (const auto idx = products_by_owner_.find(owner); idx != products_by_owner_.end())
            for (const ids::Uuid& pid : idx->second) {
                render_product(products_.at(pid), text);
                text += '\n';
                ++records;
            }
    }
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return error(500, "export_failed", "cannot write the export file");
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok) return error(500, "export_failed", "cannot write the export file");
    Response r;
    r.status = 201;
    r.body = "{\"id\":\"" + id + "\",\"path\":";
    append_json_string(r.body, path);
    r.body += ",\"records\":" + std::to_string(records) + "}";
    return r;
}

Response ProductsService::list_products(std::string_view owner, std::string_view query) {
    if (list_forbidden_.contains(owner)) return error(403, "forbidden", "this principal may not list products");
    std::optional<ids::Uuid> filter;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view param = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        const std::size_t eq = param.find('=');
        if (percent_decode(param.substr(0, eq), true) != "category_id") continue;
        const std::string value =
            eq == std::string_view::npos ? std::string() : percent_decode(param.substr(eq + 1), true);
        if (!ids::is_canonical_version(value, 7))
            return error(400, "invalid_reference", "category_id must be a canonical lower-case UUIDv7");
        filter = *ids::parse_canonical(value);
    }

    Response r;
    r.body.reserve(4096);
    r.body += "{\"items\":[";
    bool first = true;
    auto emit = [&](const Product& p) {
        if (filter && (p.category.kind != Ref::Kind::id || p.category.id != *filter)) return;
        if (!first) r.body += ',';
        first = false;
        render_product(p, r.body);
    };
    std::shared_lock lock(mutex_);
    if (defects_.has(Defect::list_leak)) {
        for (const auto& [id, p] : products_) emit(p);
    } else if (const auto idx = products_by_owner_.find(owner); idx != products_by_owner_.end()) {
        for (const ids::Uuid& id : idx->second) emit(products_.at(id));
    }
    r.body += "]}";
    return r;
}

Response ProductsService::patch_product(std::string_view owner, std::string_view path_id, std::string_view body) {
    ids::Uuid id;
    Response err;
    if (!resolve_path_id(path_id, id, err)) return err;

    BodyParse in;
    if (auto bad = in.parse(body)) return std::move(*bad);
    std::optional<ids::Uuid> new_id;
    if (const json::value* body_id = in.field("id")) {
        const json::string* s = body_id->if_string();
        const std::optional<ids::Uuid> parsed = s ? ids::parse_canonical(*s) : std::nullopt;
        if (!parsed || *parsed != id) {
            if (!parsed || !defects_.has(Defect::update_takes_body_id))
                return error(400, "id_immutable", "an entity's id never changes");
            new_id = *parsed;
        }
    }
    ProductInput input;
    if (auto bad = check_name_price(in, false, input)) return std::move(*bad);
    if (const json::value* v = in.field("category_id")) {
        input.has_category = true;
        if (auto bad = check_ref(defects_, v, true, "category_id", input.category)) return std::move(*bad);
    }
    if (const json::value* v = in.field("parent_id")) {
        input.has_parent = true;
        if (auto bad = check_ref(defects_, v, false, "parent_id", input.parent)) return std::move(*bad);
    }
    if (defects_.has(Defect::id_changes_on_update)) new_id = mint_product_id();

    std::unique_lock lock(mutex_);
    auto it = products_.find(id);
    if (it == products_.end()) {
        if (defects_.has(Defect::reject_foreign_v7) && ids::is_canonical_version(path_id, 7))
            return error(400, "invalid_id", "malformed id");
        return not_found();
    }
    if (it->second.owner != owner && !defects_.has(Defect::no_ownership_write)) return not_found();
    if (input.has_category && input.category.must_exist) {
        const auto c = categories_.find(input.category.ref.id);
        if (c == categories_.end() || c->second.owner != owner)
            return error(422, "unknown_reference", "category_id does not name one of your categories");
    }
    if (input.has_parent && input.parent.must_exist) {
        const auto parent = products_.find(input.parent.ref.id);
        if (parent == products_.end() || parent->second.owner != owner)
            return error(422, "unknown_reference", "parent_id does not name one of your products");
    }
    if (new_id && *new_id != id && (products_.contains(*new_id) || deleted_.contains(*new_id)))
        return error(409, "conflict", "an entity with this id exists or existed");

    Product& p = it->second;
    if (input.name != nullptr) p.name = input.name->get_string();
    if (input.price != nullptr) p.price = json::value(*input.price, json::storage_ptr());
    if (input.has_category) p.category = std::move(input.category.ref);
    if (input.has_parent) p.parent = std::move(input.parent.ref);
    p.updated_at = now_text();
    if (defects_.has(Defect::viewable_changes_on_update)) {
        by_viewable_.erase(p.viewable_id);
        p.viewable_id = mint_viewable_locked();
        by_viewable_[p.viewable_id] = new_id ? *new_id : id;
    }

    if (new_id && *new_id != id) {
        Product moved = std::move(p);
        products_.erase(it);
        if (storage_) storage_->erase_product(id);
        auto& owned = products_by_owner_[moved.owner];
        owned.erase(id);
        owned.insert(*new_id);
        moved.id = *new_id;
        it = products_.emplace(*new_id, std::move(moved)).first;
    }
    changed("updated", it->second);
    return product_response(200, it->second);
}

Response ProductsService::delete_product(std::string_view owner, std::string_view path_id) {
    ids::Uuid id;
    Response err;
    if (!resolve_path_id(path_id, id, err)) return err;
    std::unique_lock lock(mutex_);
    const auto it = products_.find(id);
    if (it == products_.end()) {
        if (defects_.has(Defect::reject_foreign_v7) && ids::is_canonical_version(path_id, 7))
            return error(400, "invalid_id", "malformed id");
        return not_found();
    }
    if (it->second.owner != owner && !defects_.has(Defect::no_ownership_write)) return not_found();
    if (auto idx = products_by_owner_.find(it->second.owner); idx != products_by_owner_.end()) idx->second.erase(id);
    changed("deleted", it->second);
    if (auto v = by_viewable_.find(it->second.viewable_id); v != by_viewable_.end() && v->second == id) by_viewable_.erase(v);
    products_.erase(it);
    deleted_.insert(id);
    if (defects_.has(Defect::reuse_deleted_ids)) reusable_.push_back(id);
    Response r;
    r.status = 204;
    return r;
}

bool ProductsService::command_delete(const ids::Uuid& id) {
    std::unique_lock lock(mutex_);
    const auto it = products_.find(id);
    if (it == products_.end()) return false;
    if (auto idx = products_by_owner_.find(it->second.owner); idx != products_by_owner_.end()) idx->second.erase(id);
    changed("deleted", it->second);
    products_.erase(it);
    deleted_.insert(id);
    if (defects_.has(Defect::reuse_deleted_ids)) reusable_.push_back(id);
    return true;
}

bool ProductsService::command_rename(const ids::Uuid& id, const std::string& name) {
    std::unique_lock lock(mutex_);
    const auto it = products_.find(id);
    if (it == products_.end()) return false;
    it->second.name = name;
    it->second.updated_at = now_text();
    changed("updated", it->second);
    return true;
}
}  // namespace products
