// The orders API of the example server: a ULID-keyed repository for the
// db-identifiers pack. Orders (/v1/orders), their jobs (/v1/jobs/{id}) and
// the confirmation form (/v1/order-confirmations). Every id is minted and
// parsed by the identifier module, lower-case on the wire; every answer
// carries a ULID X-Request-Id. A malformed id from a URL is "not found"
// (R5.1); one from the application's own form is "invalid input" (R5.2).
#include "service.hpp"
#include "service_detail.hpp"

#include <boost/json/parse.hpp>

#include <mutex>

namespace products {
namespace ids = idconform::ids;
namespace json = boost::json;
using detail::error;
using detail::not_found;

namespace {

constexpr std::string_view orders_prefix = "/v1/orders";
constexpr std::string_view jobs_prefix = "/v1/jobs";
constexpr std::string_view confirmations_path = "/v1/order-confirmations";

// "/v1/orders/<id>" -> "<id>" (percent-decoded); nullopt when `path` is not one segment below `prefix`.
std::optional<std::string> segment_below(std::string_view path, std::string_view prefix) {
    if (path.size() <= prefix.size() + 1 || !path.starts_with(prefix) || path[prefix.size()] != '/') return std::nullopt;
    const std::string_view raw = path.substr(prefix.size() + 1);
    if (raw.find('/') != std::string_view::npos) return std::nullopt;
    return detail::percent_decode(raw, false);
}

}  // namespace

std::optional<Response> ProductsService::route_orders(const Request& request, std::string_view path,
                                                      std::string_view query) {
    const std::string_view method = request.method;
    enum class Route { orders, order, job, confirm } route;
    std::optional<std::string> id;
    if (path == orders_prefix) {
        route = Route::orders;
        if (method != "GET" && method != "POST") return detail::method_not_allowed("GET, POST");
    } else if ((id = segment_below(path, orders_prefix))) {
        route = Route::order;
        if (method != "GET" && method != "DELETE") return detail::method_not_allowed("GET, DELETE");
    } else if ((id = segment_below(path, jobs_prefix))) {
        route = Route::job;
        if (method != "GET") return detail::method_not_allowed("GET");
    } else if (path == confirmations_path) {
        route = Route::confirm;
        if (method != "POST") return detail::method_not_allowed("POST");
    } else if (path.starts_with(orders_prefix) || path.starts_with(jobs_prefix)) {
        return not_found();
    } else {
        return std::nullopt;
    }
    const std::string_view owner = detail::bearer_principal(request.authorization);
    Response r;
    if (owner.empty()) {
        r = error(401, "unauthorized", "missing or empty bearer token");
        r.auth_challenge = true;
    } else {
        switch (route) {
        case Route::orders: r = method == "GET" ? find_orders(owner, query) : create_order(owner, request.body); break;
        case Route::order: r = method == "GET" ? get_order(owner, *id) : delete_order(owner, *id); break;
        case Route::job: r = get_job(owner, *id); break;
        case Route::confirm: r = confirm_order(owner, request.body); break;
        }
    }
    r.request_id = next_request_id();
    return r;
}

std::string ProductsService::next_request_id() {
    if (defects_.has(Defect::request_id_not_ulid)) return ids::format(ids::generate_v4());
    return ids::format_ulid(request_ulids_.next(), true);
}

std::string ProductsService::render_ulid(const ids::Ulid& u) const {
    return ids::format_ulid(u, !defects_.has(Defect::upper_case_ulids));
}

// The wire form is lower-case; a server that follows the ULID spec's
// upper-case form (upper-case-ulids) reads both.
std::optional<ids::Ulid> ProductsService::parse_order_id(std::string_view text) const {
    const auto policy = defects_.has(Defect::upper_case_ulids) ? ids::CasePolicy::any : ids::CasePolicy::lower_only;
    return ids::parse_ulid(text, policy).value;
}

void ProductsService::render_order(const Order& o, std::string& out) const {
    out += "{\"id\":\"";
    out += render_ulid(o.id);
    out += "\",\"item\":";
    detail::append_json_string(out, o.item);
    out += ",\"quantity\":";
    out += std::to_string(o.quantity);
    out += ",\"job_id\":\"";
    out += o.job_id;
    out += '"';
    if (defects_.has(Defect::integer_ids_beside_ulids)) out += ",\"invoice_id\":" + std::to_string(o.invoice_no);
    if (!o.viewable_id.empty()) {
        out += ",\"viewable_id\":";
        detail::append_json_string(out, o.viewable_id);
    }
    out += ",\"created_at\":\"";
    out += o.created_at;
    out += "\"}";
}

Response ProductsService::create_order(std::string_view owner, std::string_view body) {
    boost::system::error_code ec;
    const json::value in = json::parse(body, ec);
    if (ec) return error(400, "invalid_json", "request body is not valid JSON");
    const json::object* o = in.if_object();
    if (!o) return error(400, "invalid_body", "request body must be a JSON object");
    if (o->contains("id")) return error(400, "id_not_allowed", "the server assigns ids");
    const json::value* item = o->if_contains("item");
    if (!item || !item->is_string() || item->get_string().empty())
        return error(400, "invalid_field", "item must be a non-empty string");
    Order order;
    order.owner = owner;
    order.item = item->get_string();
    if (const json::value* q = o->if_contains("quantity")) {
        if (!q->is_int64() || q->get_int64() < 1) return error(400, "invalid_field", "quantity must be a positive integer");
        order.quantity = q->get_int64();
    }
    const std::uint64_t n = order_counter_.fetch_add(1, std::memory_order_relaxed);
    order.invoice_no = static_cast<std::int64_t>(1000 + n);
    if (order_viewable_ids_) order.viewable_id = ids::generate_viewable();
    // The application mints the id before anything is stored (R2).
    order.id = defects_.has(Defect::ulids_out_of_order) && n % 2 == 1 ? stale_ulids_.next() : ulids_.next();
    order.job_id = defects_.has(Defect::job_id_not_ulid) ? ids::format(ids::generate_v4())
                                                         : ids::format_ulid(job_ulids_.next(), true);
    if (defects_.has(Defect::upper_case_ulids) && !defects_.has(Defect::job_id_not_ulid))
        for (char& c : order.job_id) c = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    order.created_at = detail::now_text();

    Response r;
    if (defects_.has(Defect::no_id_on_create)) {
        r.status = 202;
        r.body = R"({"status":"accepted"})";
    } else {
        r.status = 201;
        render_order(order, r.body);
        r.location = std::string(orders_prefix) + "/" + render_ulid(order.id);
    }
    std::unique_lock lock(orders_mutex_);
    jobs_[order.job_id] = order.id;
    const ids::Ulid key = order.id;
    orders_[key] = std::move(order);
    return r;
}

Response ProductsService::get_order(std::string_view owner, std::string_view path_id) {
    const auto id = parse_order_id(path_id);
    // R5.1: an unparsable id from a URL is "not found", without touching the store.
    if (!id) return defects_.has(Defect::ulid_path_400) ? error(400, "invalid_id", "malformed order id") : not_found();
    std::shared_lock lock(orders_mutex_);
    const auto it = orders_.find(*id);
    if (it == orders_.end() || it->second.owner != owner) return not_found();
    Response r;
    render_order(it->second, r.body);
    return r;
}

Response ProductsService::find_orders(std::string_view owner, std::string_view query) {
    std::optional<std::string> wanted;
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view param = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        const std::size_t eq = param.find('=');
        if (detail::percent_decode(param.substr(0, eq), true) != "id") continue;
        wanted = eq == std::string_view::npos ? std::string() : detail::percent_decode(param.substr(eq + 1), true);
    }
    if (wanted) {
        const auto id = parse_order_id(*wanted);
        if (!id)
            return defects_.has(Defect::ulid_query_400) ? error(400, "invalid_id", "malformed order id") : not_found();
        return get_order(owner, render_ulid(*id));
    }
    Response r;
    r.body = "{\"items\":[";
    bool first = true;
    std::shared_lock lock(orders_mutex_);
    for (const auto& [id, o] : orders_) {
        if (o.owner != owner) continue;
        if (!first) r.body += ',';
        first = false;
        render_order(o, r.body);
    }
    r.body += "]}";
    return r;
}

Response ProductsService::delete_order(std::string_view owner, std::string_view path_id) {
    const auto id = parse_order_id(path_id);
    if (!id) return defects_.has(Defect::ulid_path_400) ? error(400, "invalid_id", "malformed order id") : not_found();
    std::unique_lock lock(orders_mutex_);
    const auto it = orders_.find(*id);
    if (it == orders_.end() || it->second.owner != owner) return not_found();
    jobs_.erase(it->second.job_id);
    orders_.erase(it);
    deleted_orders_.insert(*id);
    Response r;
    r.status = 204;
    return r;
}

Response ProductsService::get_job(std::string_view owner, std::string_view path_id) {
    std::string key(path_id);
    if (!defects_.has(Defect::job_id_not_ulid)) {
        const auto id = parse_order_id(path_id);
        if (!id) return defects_.has(Defect::ulid_path_400) ? error(400, "invalid_id", "malformed job id") : not_found();
    }
    std::shared_lock lock(orders_mutex_);
    const auto job = jobs_.find(key);
    if (job == jobs_.end()) return not_found();
    const auto order = orders_.find(job->second);
    if (order == orders_.end() || order->second.owner != owner) return not_found();
    Response r;
    r.body = "{\"id\":\"" + job->first + "\",\"order_id\":\"" + render_ulid(order->first) + "\",\"status\":\"queued\"}";
    return r;
}

Response ProductsService::confirm_order(std::string_view owner, std::string_view body) {
    boost::system::error_code ec;
    const json::value in = json::parse(body, ec);
    if (ec) return error(400, "invalid_json", "request body is not valid JSON");
    const json::object* o = in.if_object();
    if (!o) return error(400, "invalid_body", "request body must be a JSON object");
    const json::value* v = o->if_contains("order_id");
    const std::optional<ids::Ulid> id =
        v && v->is_string() ? parse_order_id(v->get_string()) : std::optional<ids::Ulid>{};
    // R5.2: garbage in the application's own form is a bug to report, not "not found".
    if (!id)
        return defects_.has(Defect::ulid_body_404) ? not_found()
                                                   : error(422, "invalid_input", "order_id is not an order id");
    std::shared_lock lock(orders_mutex_);
    const auto it = orders_.find(*id);
    if (it == orders_.end() || it->second.owner != owner)
        return error(409, "stale_item", "the order no longer exists; reload the page");
    Response r;
    r.body = "{\"order_id\":\"" + render_ulid(*id) + "\",\"status\":\"confirmed\"}";
    return r;
}

}  // namespace products
