// Viewable ids of products (ADR-0032, viewable-id pack): "TR-" and 7
// upper-case Crockford symbols from 5 CSPRNG bytes, unique (retried on a
// clash), fixed at create, and a second key to read a product by:
//   GET /v1/products/by-viewable/{vid}
// Anything that is not exactly the format (lower case, I L O U, wrong length
// or prefix) is "not found", never normalised.
#include "service.hpp"
#include "service_detail.hpp"

#include <mutex>

namespace products {
namespace ids = idconform::ids;
using detail::not_found;

namespace {
constexpr std::string_view by_viewable_prefix = "/v1/products/by-viewable/";
}  // namespace

std::string ProductsService::mint_viewable_locked() {
    const ids::ViewableFormat format;
    // The low 35 bits of n as 7 symbols (viewable-sequential).
    auto counted = [&](std::uint64_t n) {
        const std::uint64_t v = n & ((std::uint64_t{1} << 35) - 1);
        std::string out = format.prefix;
        static constexpr char alphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        for (int i = 6; i >= 0; --i) out += alphabet[(v >> (5 * i)) & 31];
        return out;
    };
    if (defects_.has(Defect::viewable_reused) && viewable_counter_++ % 2 == 1 && !last_viewable_.empty())
        return last_viewable_;
    // ADR-0032: a clash with a stored viewable id is retried, three times.
    for (int attempt = 0; attempt < 4; ++attempt) {
        std::string v;
        if (defects_.has(Defect::viewable_sequential)) {
            if (viewable_counter_ == 0) {
                // A random start, so only the sequence gives it away.
                const ids::Uuid random = ids::generate_v4();
                viewable_counter_ = 1;
                for (int i = 0; i < 4; ++i) viewable_counter_ = viewable_counter_ << 8 | random.bytes[static_cast<std::size_t>(i)];
            }
            v = counted(++viewable_counter_);
        } else if (defects_.has(Defect::viewable_low_entropy)) {
            const std::string r = ids::generate_viewable();
            v = format.prefix + "00000" + r.substr(format.prefix.size(), 2);
        } else {
            v = ids::generate_viewable(format);
        }
        if (defects_.has(Defect::viewable_lower_case))
            for (char& c : v) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        if (!by_viewable_.contains(v)) {
            last_viewable_ = v;
            return v;
        }
    }
    return {};  // collisions exhausted
}

std::optional<Response> ProductsService::route_viewable(const Request& request, std::string_view path) {
    if (!path.starts_with(by_viewable_prefix)) return std::nullopt;
    const std::string_view rest = path.substr(by_viewable_prefix.size());
    if (rest.empty() || rest.find('/') != std::string_view::npos) return not_found();
    if (request.method != "GET") return detail::method_not_allowed("GET");
    const std::string_view owner = detail::bearer_principal(request.authorization);
    if (owner.empty()) {
        Response r = detail::error(401, "unauthorized", "missing or empty bearer token");
        r.auth_challenge = true;
        return r;
    }
    return product_by_viewable(owner, detail::percent_decode(rest, false));
}

Response ProductsService::product_by_viewable(std::string_view owner, std::string_view vid) {
    std::string key(vid);
    const ids::ViewableError e = ids::check_viewable(vid);
    if (e != ids::ViewableError::none) {
        if (defects_.has(Defect::viewable_malformed_400)) return detail::error(400, "invalid_id", "malformed viewable id");
        if (defects_.has(Defect::viewable_accepts_ilou) && e == ids::ViewableError::excluded_letter)
            return detail::error(500, "internal_error", "crockford decode failed");
        if (defects_.has(Defect::viewable_accepts_lowercase) && e == ids::ViewableError::lower_case) {
            for (char& c : key) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;  // the violation
        } else if (!defects_.has(Defect::viewable_lower_case)) {
            return not_found();
        }
    }
    std::shared_lock lock(mutex_);
    auto found = by_viewable_.find(key);
    if (found == by_viewable_.end()) return not_found();
    ids::Uuid id = found->second;
    if (defects_.has(Defect::viewable_lookup_mismatch))
        if (const auto latest = latest_product_.find(owner); latest != latest_product_.end()) id = latest->second;
    const auto it = products_.find(id);
    if (it == products_.end() || it->second.owner != owner) return not_found();
    return product_response(200, it->second);
}

}  // namespace products
