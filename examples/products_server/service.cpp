// The products API: routing, authentication, identifier validation, the
// in-memory store and every deliberate defect. Socket-free; see service.hpp.
#include "service.hpp"
#include "service_detail.hpp"

#include <boost/json/monotonic_resource.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>

namespace products {
namespace ids = idconform::ids;
namespace json = boost::json;

// examples/openapi/products.openapi.yaml, compiled in (openapi_document.cpp.in)
extern const char* const openapi_document;

namespace {

constexpr std::string_view products_prefix = "/v1/products";
constexpr std::string_view categories_prefix = "/v1/categories";
constexpr std::string_view nil_text = "00000000-0000-0000-0000-000000000000";
constexpr std::string_view max_text = "ffffffff-ffff-ffff-ffff-ffffffffffff";

void append_json_string(std::string& out, std::string_view s) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (u < 0x20) {
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 0xf];
        } else {
            out += c;
        }
    }
    out += '"';
}

Response error(unsigned status, std::string_view code, std::string_view message) {
    Response r;
    r.status = status;
    r.body.reserve(32 + code.size() + message.size());
    r.body += "{\"error\":";
    append_json_string(r.body, code);
    r.body += ",\"message\":";
    append_json_string(r.body, message);
    r.body += '}';
    return r;
}

Response not_found() { return error(404, "not_found", "no such resource"); }

Response method_not_allowed(std::string_view allow) {
    Response r = error(405, "method_not_allowed", "method not allowed on this resource");
    r.allow = allow;
    return r;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Percent-decodes one path segment or query component. A broken escape keeps
// the raw text: it then fails every id check, which is the right outcome.
std::string percent_decode(std::string_view in, bool plus_is_space) {
    std::string out;
    out.reserve(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (c == '%') {
            if (i + 2 >= in.size()) return std::string(in);
            const int hi = hex_value(in[i + 1]);
            const int lo = hex_value(in[i + 2]);
            if (hi < 0 || lo < 0) return std::string(in);
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (c == '+' && plus_is_space) {
            out += ' ';
        } else {
            out += c;
        }
    }
    return out;
}

// "Bearer <token>" -> token; empty when missing, another scheme or no token.
std::string_view bearer_principal(std::string_view header) {
    constexpr std::string_view scheme = "bearer";
    if (header.size() <= scheme.size()) return {};
    for (std::size_t i = 0; i < scheme.size(); ++i) {
        const char c = header[i];
        if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != scheme[i]) return {};
    }
    std::string_view rest = header.substr(scheme.size());
    if (rest.front() != ' ' && rest.front() != '\t') return {};
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
    return rest;
}

std::string to_upper(std::string s) {
    for (char& c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

std::int64_t now_unix_us() {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// Parses a JSON body into a stack-backed arena: no heap traffic for small
// bodies. Values that outlive the request are copied out explicitly.
struct BodyParse {
    std::array<unsigned char, 4096> buffer;
    json::monotonic_resource arena{buffer.data(), buffer.size()};
    json::value value;
    const json::object* object = nullptr;

    // Returns an error response when the body is not a JSON object.
    std::optional<Response> parse(std::string_view body) {
        boost::system::error_code ec;
        value = json::parse(body, ec, &arena);
        if (ec) return error(400, "invalid_json", "request body is not valid JSON");
        object = value.if_object();
        if (object == nullptr) return error(400, "invalid_body", "request body must be a JSON object");
        return std::nullopt;
    }
    [[nodiscard]] const json::value* field(std::string_view name) const { return object->if_contains(name); }
};

bool is_zero_number(const json::value& v) {
    if (v.is_int64()) return v.get_int64() == 0;
    if (v.is_uint64()) return v.get_uint64() == 0;
    if (v.is_double()) return v.get_double() == 0.0;
    return false;
}

}  // namespace

std::string iso8601_us(std::int64_t unix_us) {
    // Civil-from-days (H. Hinnant's algorithm): exact for the proleptic
    // Gregorian calendar, no locale or time-zone state involved.
    std::int64_t days = unix_us / 86'400'000'000;
    std::int64_t rem = unix_us % 86'400'000'000;
    if (rem < 0) {
        rem += 86'400'000'000;
        --days;
    }
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    const std::int64_t secs = rem / 1'000'000;
    char buf[96];  // roomy enough for any int64 field, so no truncation
    std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%06lldZ",
                  static_cast<long long>(year), static_cast<long long>(month), static_cast<long long>(day),
                  static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                  static_cast<long long>(secs % 60), static_cast<long long>(rem % 1'000'000));
    return buf;
}

ProductsService::ProductsService(DefectSet defects)
    : defects_(defects),
      stale_v7_([] { return ids::system_unix_ms() - 3'600'000; }),
      stale_ulids_([] { return ids::system_unix_ms() - 1'000; }) {
    // The legacy-id salt comes from the environment, never from a file.
    const char* salt = std::getenv("PRODUCTS_LEGACY_SALT");
    legacy_salt_ = salt && *salt ? salt : "products-example-salt";
}

Response ProductsService::handle(const Request& request) {
    try {
        return dispatch(request);
    } catch (const std::exception& e) {
        return error(500, "internal_error", e.what());
    }
}

Response ProductsService::dispatch(const Request& request) {
    const std::string_view target = request.target;
    const std::size_t qpos = target.find('?');
    const std::string_view path = target.substr(0, qpos);
    const std::string_view query = qpos == std::string_view::npos ? std::string_view{} : target.substr(qpos + 1);
    const std::string_view method = request.method;

    if (path == "/healthz") {
        if (method != "GET") return method_not_allowed("GET");
        Response r;
        r.body = R"({"status":"ok"})";
        return r;
    }
    if (path == "/openapi.yaml") {  // the API's own OpenAPI document (examples/openapi/), no token needed
        if (method != "GET") return method_not_allowed("GET");
        Response r;
        r.body = openapi_document;
        r.content_type = "application/yaml";
        return r;
    }
    if (auto r = route_orders(request, path, query)) return std::move(*r);
    if (auto r = route_staff(request, path)) return std::move(*r);
    if (auto r = route_viewable(request, path)) return std::move(*r);

    // Route first (unknown route 404, wrong method 405), then authenticate.
    enum class Route { categories, category, products, product, exports } route;
    std::string_view raw_id;
    if (path == "/v1/exports" && !export_dir_.empty()) {
        route = Route::exports;
        if (method != "POST") return method_not_allowed("POST");
    } else if (path == categories_prefix) {
        route = Route::categories;
        if (method != "POST") return method_not_allowed("POST");
    } else if (path == products_prefix) {
        route = Route::products;
        if (method != "GET" && method != "POST") return method_not_allowed("GET, POST");
    } else if (path.size() > categories_prefix.size() + 1 && path.starts_with(categories_prefix) &&
               path[categories_prefix.size()] == '/') {
        route = Route::category;
        raw_id = path.substr(categories_prefix.size() + 1);
        if (raw_id.find('/') != std::string_view::npos) return not_found();
        if (method != "GET" && method != "DELETE") return method_not_allowed("GET, DELETE");
    } else if (path.size() > products_prefix.size() + 1 && path.starts_with(products_prefix) &&
               path[products_prefix.size()] == '/') {
        route = Route::product;
        raw_id = path.substr(products_prefix.size() + 1);
        if (raw_id.find('/') != std::string_view::npos) return not_found();
        if (method != "GET" && method != "PUT" && method != "PATCH" && method != "DELETE")
            return method_not_allowed("GET, PUT, PATCH, DELETE");
    } else {
        return not_found();
    }

    const std::string_view owner = bearer_principal(request.authorization);
    if (owner.empty()) {
        Response r = error(401, "unauthorized", "missing or empty bearer token");
        r.auth_challenge = true;
        return r;
    }

    // Path ids are percent-decoded before any check, so %7B...%7D is seen
    // as the braces it stands for.
    const std::string id_text = raw_id.find('%') == std::string_view::npos
                                    ? std::string(raw_id)
                                    : percent_decode(raw_id, false);
    switch (route) {
    case Route::exports:
        return export_products(owner);
    case Route::categories:
        return create_category(owner, request.body);
    case Route::category:
        return method == "GET" ? get_category(owner, id_text) : delete_category(owner, id_text);
    case Route::products:
        return method == "GET" ? list_products(owner, query) : create_product(owner, request.body, nullptr);
    case Route::product:
        if (method == "GET") return get_product(owner, id_text);
        if (method == "PUT") return put_product(owner, id_text, request.body);
        if (method == "PATCH") return patch_product(owner, id_text, request.body);
        return delete_product(owner, id_text);
    }
    return not_found();
}

// ------------------------------------------------------------- categories

Response ProductsService::create_category(std::string_view owner, std::string_view body) {
    BodyParse in;
    if (auto bad = in.parse(body)) return std::move(*bad);
    if (in.field("id") != nullptr) return error(400, "id_not_allowed", "the server assigns ids");
    const json::value* name = in.field("name");
    if (name == nullptr || !name->is_string() || name->get_string().empty())
        return error(400, "invalid_field", "name must be a non-empty string");

    Category c;
    c.id = v7_.next();
    c.owner = owner;
    c.name = name->get_string();
    c.created_at = now_text();

    Response r;
    r.status = 201;
    const std::string id = ids::format(c.id);
    r.location.reserve(categories_prefix.size() + 37);
    r.location.append(categories_prefix).append("/").append(id);
    r.body.reserve(128 + c.name.size());
    r.body += "{\"id\":\"";
    r.body += id;
    r.body += "\",\"name\":";
    append_json_string(r.body, c.name);
    r.body += ",\"created_at\":\"";
    r.body += c.created_at;
    r.body += "\"}";

    std::unique_lock lock(mutex_);
    categories_.emplace(c.id, std::move(c));
    return r;
}

Response ProductsService::get_category(std::string_view owner, std::string_view path_id) {
    if (!ids::is_canonical_version(path_id, 7)) return not_found();
    const ids::Uuid id = *ids::parse_canonical(path_id);
    std::shared_lock lock(mutex_);
    const auto it = categories_.find(id);
    if (it == categories_.end() || it->second.owner != owner) return not_found();
    Response r;
    r.body += "{\"id\":\"";
    r.body += path_id;
    r.body += "\",\"name\":";
    append_json_string(r.body, it->second.name);
    r.body += ",\"created_at\":\"";
    r.body += it->second.created_at;
    r.body += "\"}";
    return r;
}

Response ProductsService::delete_category(std::string_view owner, std::string_view path_id) {
    if (!ids::is_canonical_version(path_id, 7)) return not_found();
    const ids::Uuid id = *ids::parse_canonical(path_id);
    std::unique_lock lock(mutex_);
    const auto it = categories_.find(id);
    if (it == categories_.end() || it->second.owner != owner) return not_found();
    categories_.erase(it);
    Response r;
    r.status = 204;
    return r;
}

// ------------------------------------------------------- id and time minting

ids::Uuid ProductsService::mint_product_id() {
    if (defects_.has(Defect::same_ms_collision)) {
        // The ms timestamp alone: version and variant set, random part zero.
        const std::int64_t ms = ids::system_unix_ms();
        ids::Uuid u;
        for (int i = 0; i < 6; ++i) u.bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(ms >> (8 * (5 - i)));
        u.bytes[6] = 0x70;
        u.bytes[8] = 0x80;
        return u;
    }
    if (defects_.has(Defect::v4_ids)) return ids::generate_v4();
    if (defects_.has(Defect::stale_timestamp)) return stale_v7_.next();
    return v7_.next();
}

ids::Uuid ProductsService::mint_tracking_id() {
    if (defects_.has(Defect::v7_tracking_id)) return v7_.next();
    if (defects_.has(Defect::mixed_tracking_versions) &&
        tracking_counter_.fetch_add(1, std::memory_order_relaxed) % 2 == 1)
        return v7_.next();
    return ids::generate_v4();
}

std::string ProductsService::now_text() const { return iso8601_us(now_unix_us()); }

// ----------------------------------------------------------------- rendering

void ProductsService::render_id_field(const ids::Uuid& id, std::string& out) const {
    char text[36];
    ids::format_to(id, text);
    out += '"';
    if (defects_.has(Defect::no_hyphens_out)) {
        for (char c : std::string_view(text, 36))
            if (c != '-') out += defects_.has(Defect::upper_case_out) && c >= 'a' ? static_cast<char>(c - 32) : c;
    } else if (defects_.has(Defect::upper_case_out)) {
        for (char c : std::string_view(text, 36)) out += c >= 'a' && c <= 'f' ? static_cast<char>(c - 32) : c;
    } else {
        out.append(text, 36);
    }
    out += '"';
}

void ProductsService::render_product(const Product& p, std::string& out) const {
    out += "{\"id\":";
    render_id_field(p.id, out);
    out += ",\"name\":";
    append_json_string(out, p.name);
    out += ",\"category_id\":";
    switch (p.category.kind) {
    case Ref::Kind::none: out += "null"; break;
    case Ref::Kind::raw: out += json::serialize(p.category.raw); break;
    case Ref::Kind::id:
        out += '"';
        out += ids::format(p.category.id);
        out += '"';
        break;
    }
    out += ",\"parent_id\":";
    switch (p.parent.kind) {
    case Ref::Kind::none:
        if (defects_.has(Defect::nil_for_absent_ref)) {
            out += '"';
            out += nil_text;
            out += '"';
        } else if (defects_.has(Defect::empty_for_absent_ref)) {
            out += "\"\"";
        } else if (defects_.has(Defect::zero_for_absent_ref)) {
            out += '0';
        } else {
            out += "null";
        }
        break;
    case Ref::Kind::raw: out += json::serialize(p.parent.raw); break;
    case Ref::Kind::id: render_id_field(p.parent.id, out); break;
    }
    out += ",\"price\":";
    out += json::serialize(p.price);
    out += ",\"tracking_id\":\"";
    out += ids::format(p.tracking_id);
    out += '"';
    if (!p.viewable_id.empty()) {
        out += ",\"viewable_id\":";
        append_json_string(out, p.viewable_id);
    }
    if (!defects_.has(Defect::no_time_field)) {
        out += ",\"created_at\":\"";
        out += p.created_at;
        out += "\",\"updated_at\":\"";
        out += p.updated_at;
        out += '"';
    }
    if (defects_.has(Defect::upper_id_in_nested) && p.category.kind == Ref::Kind::id) {
        out += ",\"links\":{\"category\":\"";
        out += to_upper(ids::format(p.category.id));
        out += "\"}";
    }
    out += '}';
}

Response ProductsService::product_response(unsigned status, const Product& p) const {
    Response r;
    r.status = status;
    r.body.reserve(320 + p.name.size());
    render_product(p, r.body);
    return r;
}

std::string ProductsService::location_for(const ids::Uuid& id) const {
    std::string location;
    location.reserve(products_prefix.size() + 37);
    location.append(products_prefix).append("/");
    location += defects_.has(Defect::location_upper) ? to_upper(ids::format(id)) : ids::format(id);
    return location;
}

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
// The helpers above, for the API parts in files of their own (service_detail.hpp).
namespace detail {
void append_json_string(std::string& out, std::string_view s) { products::append_json_string(out, s); }
Response error(unsigned status, std::string_view code, std::string_view message) {
    return products::error(status, code, message);
}
Response not_found() { return products::not_found(); }
Response method_not_allowed(std::string_view allow) { return products::method_not_allowed(allow); }
std::string percent_decode(std::string_view in, bool plus_is_space) { return products::percent_decode(in, plus_is_space); }
std::string_view bearer_principal(std::string_view header) { return products::bearer_principal(header); }
std::string now_text() { return iso8601_us(now_unix_us()); }
}  // namespace detail

}  // namespace products
