// The legacy staff lookup of the example server (uuidv8-legacy pack): staff
// migrated from a monolith keep their integer ids 1..1,000,000 and are
// addressed by deterministic UUIDv8 ids in the seed's layout (flag, 32-bit
// legacy id, entity type 500, salted SHA-256). The salt comes from
// PRODUCTS_LEGACY_SALT. Encoding and decoding are the identifier module's.
//   GET /v1/staff/{legacy_id}      -> {"id", "legacy_id", "entity_type", "name"}
//   GET /v1/staff/by-uuid/{uuid}   -> the same staff member
#include "service.hpp"
#include "service_detail.hpp"

namespace products {
namespace ids = idconform::ids;
using detail::not_found;

namespace {

constexpr std::string_view staff_prefix = "/v1/staff/";
constexpr std::string_view by_uuid_prefix = "/v1/staff/by-uuid/";
constexpr std::uint32_t staff_type = 500;
constexpr std::uint64_t last_migrated = 1'000'000;

// A decimal legacy id as the monolith wrote it: digits, no sign, no leading zero.
std::optional<std::uint64_t> legacy_number(std::string_view s) {
    if (s.empty() || s.size() > 10 || s[0] == '0') return std::nullopt;
    std::uint64_t n = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return n;
}

}  // namespace

std::optional<Response> ProductsService::route_staff(const Request& request, std::string_view path) {
    if (!path.starts_with(staff_prefix)) return std::nullopt;
    if (request.method != "GET") return detail::method_not_allowed("GET");
    if (detail::bearer_principal(request.authorization).empty()) {
        Response r = detail::error(401, "unauthorized", "missing or empty bearer token");
        r.auth_challenge = true;
        return r;
    }
    if (path.starts_with(by_uuid_prefix)) {
        const std::string_view rest = path.substr(by_uuid_prefix.size());
        if (rest.empty() || rest.find('/') != std::string_view::npos) return not_found();
        return staff_by_uuid(detail::percent_decode(rest, false));
    }
    const std::string_view rest = path.substr(staff_prefix.size());
    if (rest.empty() || rest.find('/') != std::string_view::npos) return not_found();
    return staff_by_legacy(detail::percent_decode(rest, false));
}

ids::Uuid ProductsService::legacy_uuid(std::uint64_t legacy_id) {
    std::uint64_t id = legacy_id;
    std::uint32_t type = staff_type;
    std::string salt = legacy_salt_;
    if (defects_.has(Defect::legacy_wrong_id)) ++id;
    if (defects_.has(Defect::legacy_wrong_entity_type)) type = 402;
    if (defects_.has(Defect::legacy_wrong_hash)) salt.clear();
    if (defects_.has(Defect::legacy_unstable))
        salt += "#" + std::to_string(legacy_calls_.fetch_add(1, std::memory_order_relaxed));
    ids::Uuid u = ids::encode_legacy(id, type, salt);
    if (defects_.has(Defect::legacy_wrong_version)) u.bytes[6] = static_cast<std::uint8_t>((u.bytes[6] & 0x0f) | 0x40);
    if (defects_.has(Defect::legacy_flag_clear)) u.bytes[0] &= 0x7f;
    return u;
}

Response ProductsService::staff_by_legacy(std::string_view legacy_text) {
    const auto n = legacy_number(legacy_text);
    if (!n || *n > last_migrated) return not_found();
    Response r;
    r.body = "{\"id\":\"" + ids::format(legacy_uuid(*n)) + "\",\"legacy_id\":" + std::to_string(*n) +
             ",\"entity_type\":" + std::to_string(staff_type) + ",\"name\":\"staff member " + std::to_string(*n) + "\"}";
    return r;
}

Response ProductsService::staff_by_uuid(std::string_view uuid_text) {
    // Any id this server hands out (defects included) is found again; nothing else is.
    const std::optional<ids::Uuid> u = ids::parse_canonical(uuid_text);
    if (!u) return not_found();
    std::uint64_t legacy_id = ids::decode_legacy(*u).legacy_id;
    if (defects_.has(Defect::legacy_wrong_id)) --legacy_id;
    if (legacy_id == 0 || legacy_id > last_migrated) return not_found();
    if (!defects_.has(Defect::legacy_unstable) && legacy_uuid(legacy_id) != *u) return not_found();
    return staff_by_legacy(std::to_string(legacy_id));
}

}  // namespace products
