// The products API: routing, authentication, categories, id minting and
// rendering (the products themselves are in products.cpp, orders, staff and
// viewable ids in files of their own). Socket-free; see service.hpp.
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
using detail::BodyParse;
using detail::nil_text;
using detail::now_unix_us;

// examples/openapi/products.openapi.yaml, compiled in (openapi_document.cpp.in)
extern const char* const openapi_document;

namespace {

constexpr std::string_view products_prefix = "/v1/products";
constexpr std::string_view categories_prefix = "/v1/categories";

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
    if (auto r = route_tickets(request, path)) return std::move(*r);

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
    if (storage_) storage_->put(c);
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
    if (storage_) storage_->erase_category(id);
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
std::int64_t now_unix_us() {
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}
}  // namespace detail

}  // namespace products
