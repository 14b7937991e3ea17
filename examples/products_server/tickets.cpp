// The tickets API of the example server (only with --tickets): a resource
// whose ids are integers, minted by the server from 1 and never reused, as
// an autoincrement key is. The same store answers the gRPC front
// (products.v1.Tickets, grpc_front.cpp), where the id is an int64.
//   POST   /v1/tickets {"title"}  -> 201 {"id": 17, "title", "created_at"}
//   GET    /v1/tickets            -> {"items": [...]} (the caller's)
//   GET    /v1/tickets/{id}       -> the ticket, or 404
//   PATCH  /v1/tickets/{id} {"title"} -> the ticket; an "id" member must be the same id
//   DELETE /v1/tickets/{id}       -> 204
// The id in a URL is the decimal number as the server writes it: no sign,
// no leading zero, no padding; anything else is not found.
#include "service.hpp"
#include "service_detail.hpp"

#include <boost/json/parse.hpp>

#include <limits>
#include <mutex>

namespace products {
namespace json = boost::json;
using detail::error;
using detail::not_found;

namespace {

constexpr std::string_view tickets_prefix = "/v1/tickets";

std::optional<std::int64_t> canonical_number(std::string_view s) {
    if (s.empty() || s.size() > 19 || s[0] == '0') return std::nullopt;
    std::uint64_t n = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (n > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    return static_cast<std::int64_t>(n);
}

// ticket-id-lenient: what a lookup that converts the text to a number takes.
std::optional<std::int64_t> lenient_number(std::string_view s) {
    auto strip = [&](char open, char close) {
        if (s.size() >= 2 && s.front() == open && s.back() == close) s = s.substr(1, s.size() - 2);
    };
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    strip('{', '}');
    strip('"', '"');
    if (s.ends_with(".0")) s.remove_suffix(2);
    while (s.size() > 1 && s.front() == '0') s.remove_prefix(1);
    return canonical_number(s);
}

void render_ticket(const Ticket& t, std::string& out) {
    out += "{\"id\":";
    out += std::to_string(t.id);
    out += ",\"title\":";
    detail::append_json_string(out, t.title);
    out += ",\"created_at\":\"";
    out += t.created_at;
    out += "\"}";
}

Response ticket_response(unsigned status, const Ticket& t) {
    Response r;
    r.status = status;
    render_ticket(t, r.body);
    return r;
}

}  // namespace

std::optional<std::int64_t> ProductsService::ticket_id(std::string_view text) const {
    return defects_.has(Defect::ticket_id_lenient) ? lenient_number(text) : canonical_number(text);
}

std::optional<Response> ProductsService::route_tickets(const Request& request, std::string_view path) {
    if (!tickets_on_ || !path.starts_with(tickets_prefix)) return std::nullopt;
    const std::string_view rest = path.substr(tickets_prefix.size());
    if (!rest.empty() && rest[0] != '/') return std::nullopt;
    const std::string_view method = request.method;
    const bool collection = rest.empty() || rest == "/";
    if (!collection && rest.find('/', 1) != std::string_view::npos) return not_found();
    if (collection && method != "GET" && method != "POST") return detail::method_not_allowed("GET, POST");
    if (!collection && method != "GET" && method != "PATCH" && method != "DELETE")
        return detail::method_not_allowed("GET, PATCH, DELETE");
    const std::string_view owner = detail::bearer_principal(request.authorization);
    if (owner.empty()) {
        Response r = error(401, "unauthorized", "missing or empty bearer token");
        r.auth_challenge = true;
        return r;
    }
    if (collection) return method == "GET" ? list_tickets(owner) : create_ticket(owner, request.body);
    const auto id = ticket_id(detail::percent_decode(rest.substr(1), false));
    if (!id) return not_found();
    if (method == "GET") return get_ticket(owner, *id);
    if (method == "DELETE") return delete_ticket(owner, *id);
    return patch_ticket(owner, *id, request.body);
}

Response ProductsService::create_ticket(std::string_view owner, std::string_view body) {
    detail::BodyParse in;
    if (auto bad = in.parse(body)) return std::move(*bad);
    if (in.field("id")) return error(400, "id_not_allowed", "the server assigns ticket ids");
    const json::value* title = in.field("title");
    if (!title || !title->is_string() || title->get_string().empty())
        return error(400, "invalid_field", "title must be a non-empty string");
    Ticket t;
    t.owner = owner;
    t.title = title->get_string();
    t.created_at = detail::now_text();
    std::unique_lock lock(tickets_mutex_);
    if (defects_.has(Defect::ticket_ids_reused)) t.id = tickets_.empty() ? 1 : tickets_.rbegin()->first + 1;
    else t.id = ++last_ticket_id_;
    Response r = ticket_response(201, t);
    r.location = std::string(tickets_prefix) + "/" + std::to_string(t.id);
    tickets_[t.id] = std::move(t);
    return r;
}

Response ProductsService::get_ticket(std::string_view owner, std::int64_t id) const {
    std::shared_lock lock(tickets_mutex_);
    const auto it = tickets_.find(id);
    if (it == tickets_.end() || (!owner.empty() && it->second.owner != owner)) return not_found();
    return ticket_response(200, it->second);
}

Response ProductsService::list_tickets(std::string_view owner) const {
    Response r;
    r.body = "{\"items\":[";
    bool first = true;
    std::shared_lock lock(tickets_mutex_);
    for (const auto& [id, t] : tickets_) {
        if (t.owner != owner) continue;
        if (!first) r.body += ',';
        first = false;
        render_ticket(t, r.body);
    }
    r.body += "]}";
    return r;
}

Response ProductsService::patch_ticket(std::string_view owner, std::int64_t id, std::string_view body) {
    detail::BodyParse in;
    if (auto bad = in.parse(body)) return std::move(*bad);
    if (const json::value* given = in.field("id")) {
        const bool same = (given->is_int64() && given->get_int64() == id) ||
                          (given->is_uint64() && given->get_uint64() == static_cast<std::uint64_t>(id));
        if (!same) return error(400, "id_mismatch", "the body's id is not the ticket's id");
    }
    const json::value* title = in.field("title");
    if (title && (!title->is_string() || title->get_string().empty()))
        return error(400, "invalid_field", "title must be a non-empty string");
    std::unique_lock lock(tickets_mutex_);
    const auto it = tickets_.find(id);
    if (it == tickets_.end() || it->second.owner != owner) return not_found();
    if (title) it->second.title = title->get_string();
    return ticket_response(200, it->second);
}

Response ProductsService::delete_ticket(std::string_view owner, std::int64_t id) {
    std::unique_lock lock(tickets_mutex_);
    const auto it = tickets_.find(id);
    if (it == tickets_.end() || it->second.owner != owner) return not_found();
    tickets_.erase(it);
    Response r;
    r.status = 204;
    return r;
}

}  // namespace products
