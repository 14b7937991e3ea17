// The products API of the example target server, free of sockets: one
// thread-safe object that maps a request to a response. The network layer
// (server.cpp) only converts Beast messages to and from these structs, so the
// whole API, including every deliberate defect, is testable without a network.
#pragma once

#include "defects.hpp"
#include "ids/ids.hpp"

#include <boost/json/value.hpp>

#include <atomic>
#include <functional>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace products {

// The parts of an HTTP request the API looks at. Views into the caller's
// message: valid for the duration of handle().
struct Request {
    std::string_view method;         // "GET", "POST", ...
    std::string_view target;         // origin-form: path and optional query
    std::string_view authorization;  // raw Authorization header value
    std::string_view body;
};

struct Response {
    unsigned status = 200;
    std::string body;          // JSON text; empty for 204
    std::string location;      // Location header, empty for none
    std::string_view allow;    // Allow header for 405, empty for none
    bool auth_challenge = false;  // 401: send WWW-Authenticate: Bearer
    std::string request_id;    // X-Request-Id header, empty for none (orders API)
    std::string_view content_type;  // empty: application/json
};

// A reference field's stored value. Conformant servers only ever hold
// `none` or `id`; `raw` exists for the defects that accept "" or 0.
struct Ref {
    enum class Kind { none, id, raw };
    Kind kind = Kind::none;
    idconform::ids::Uuid id{};
    boost::json::value raw;
};

struct Product {
    idconform::ids::Uuid id{};
    std::string owner;
    std::string name;
    Ref category;
    Ref parent;
    boost::json::value price;  // null when absent; kept as sent (int stays int)
    idconform::ids::Uuid tracking_id{};
    std::string created_at;
    std::string updated_at;
    std::string viewable_id;   // "TR-XXXXXXX", fixed at create (viewable-id pack)
};

struct Category {
    idconform::ids::Uuid id{};
    std::string owner;
    std::string name;
    std::string created_at;
};

// An order of the ULID-keyed orders API (orders.cpp, db-identifiers pack).
struct Order {
    idconform::ids::Ulid id{};
    std::string owner;
    std::string item;
    std::int64_t quantity = 1;
    std::string job_id;        // as rendered (a ULID; a UUID with job-id-not-ulid)
    std::string created_at;
    std::int64_t invoice_no = 0;  // only shown with integer-ids-beside-ulids
    std::string viewable_id;      // only with --order-viewable-ids: a TR-XXXXXXX beside the ULID key
};

// A support ticket (tickets.cpp, only with --tickets): an integer id.
struct Ticket {
    std::int64_t id = 0;
    std::string owner;
    std::string title;
    std::string created_at;
};

// Where the service also writes the categories and products it stores
// (pg_store.hpp: PostgreSQL tables, products_server --store-pg). Called under
// the store's lock, in the order of the changes; it must not throw, and its
// failures never change an answer.
class Storage {
public:
    virtual ~Storage() = default;
    virtual void put(const Category& c) = 0;
    virtual void erase_category(const idconform::ids::Uuid& id) = 0;
    virtual void put(const Product& p) = 0;
    virtual void erase_product(const idconform::ids::Uuid& id) = 0;
};

class ProductsService {
public:
    explicit ProductsService(DefectSet defects = {});
    ProductsService(const ProductsService&) = delete;
    ProductsService& operator=(const ProductsService&) = delete;

    // Thread-safe; never throws (an internal failure becomes a 500).
    [[nodiscard]] Response handle(const Request& request);

    [[nodiscard]] const DefectSet& defects() const noexcept { return defects_; }

    // Every change to a product ("created", "updated", "deleted") goes to
    // this sink (the event publisher, events.hpp), under the store's lock and
    // so in the order of the changes; it must not block. Set before serving.
    using ChangeSink = std::function<void(std::string_view type, const Product& product)>;
    void set_change_sink(ChangeSink sink) { change_sink_ = std::move(sink); }
    // The storage the categories and products are written to as well. Set before serving.
    void set_storage(std::shared_ptr<Storage> s) { storage_ = std::move(s); }

    // Commands from the message channel, already validated (events.cpp):
    // trusted, no owner check. False when there is no such product.
    bool command_delete(const idconform::ids::Uuid& id);
    bool command_rename(const idconform::ids::Uuid& id, const std::string& name);
    // Where POST /v1/exports writes the caller's products as NDJSON (one
    // file per export); empty: the route answers 404. Set before serving.
    void set_export_dir(std::string dir) { export_dir_ = std::move(dir); }
    // A conformant variation, not a defect: the product list answers 403 to
    // these principals (a role that may read what it is given but not list;
    // DATA-ID-004 must accept the refusal). Set before serving.
    void forbid_list(std::set<std::string, std::less<>> principals) { list_forbidden_ = std::move(principals); }
    // Conformant too: every order also carries a viewable id (TR-XXXXXXX) beside
    // its ULID key, a field the profile declares (`viewable:`), not R1's.
    void set_order_viewable_ids(bool on) { order_viewable_ids_ = on; }
    // Serve /v1/tickets (integer ids; tickets.cpp). Set before serving.
    void set_tickets(bool on) { tickets_on_ = on; }
    // The ticket whatever its owner: what GetTicket answers over gRPC with
    // the grpc-ticket-no-owner defect (the HTTP API always checks the owner).
    [[nodiscard]] Response ticket_of_any_owner(std::int64_t id) const { return get_ticket({}, id); }

private:
    Response dispatch(const Request& request);
    Response create_category(std::string_view owner, std::string_view body);
    Response get_category(std::string_view owner, std::string_view path_id);
    Response delete_category(std::string_view owner, std::string_view path_id);
    Response create_product(std::string_view owner, std::string_view body,
                            const idconform::ids::Uuid* client_id);
    Response put_product(std::string_view owner, std::string_view path_id, std::string_view body);
    Response get_product(std::string_view owner, std::string_view path_id);
    Response list_products(std::string_view owner, std::string_view query);
    Response patch_product(std::string_view owner, std::string_view path_id, std::string_view body);
    Response delete_product(std::string_view owner, std::string_view path_id);
    Response export_products(std::string_view owner);

    // Extra APIs in files of their own; each returns nullopt for a path it
    // does not serve. orders.cpp: /v1/orders, /v1/jobs, /v1/order-confirmations
    // (ULID ids); staff.cpp: /v1/staff (UUIDv8 legacy ids); viewable.cpp:
    // /v1/products/by-viewable/{vid} and the viewable id of products;
    // tickets.cpp: /v1/tickets (integer ids).
    std::optional<Response> route_orders(const Request& request, std::string_view path, std::string_view query);
    std::optional<Response> route_staff(const Request& request, std::string_view path);
    std::optional<Response> route_viewable(const Request& request, std::string_view path);
    std::optional<Response> route_tickets(const Request& request, std::string_view path);
    std::optional<std::int64_t> ticket_id(std::string_view text) const;
    Response create_ticket(std::string_view owner, std::string_view body);
    Response get_ticket(std::string_view owner, std::int64_t id) const;  // owner "": any
    Response list_tickets(std::string_view owner) const;
    Response patch_ticket(std::string_view owner, std::int64_t id, std::string_view body);
    Response delete_ticket(std::string_view owner, std::int64_t id);
    Response create_order(std::string_view owner, std::string_view body);
    Response get_order(std::string_view owner, std::string_view path_id);
    Response find_orders(std::string_view owner, std::string_view query);
    Response delete_order(std::string_view owner, std::string_view path_id);
    Response get_job(std::string_view owner, std::string_view path_id);
    Response confirm_order(std::string_view owner, std::string_view body);
    std::optional<idconform::ids::Ulid> parse_order_id(std::string_view text) const;
    std::string render_ulid(const idconform::ids::Ulid& u) const;
    void render_order(const Order& o, std::string& out) const;
    std::string next_request_id();
    Response staff_by_legacy(std::string_view legacy_text);
    Response staff_by_uuid(std::string_view uuid_text);
    idconform::ids::Uuid legacy_uuid(std::uint64_t legacy_id);
    // Mints the viewable id of a new product (called under the write lock).
    std::string mint_viewable_locked();
    Response product_by_viewable(std::string_view owner, std::string_view vid);

    // Path id -> stored key per the path rules (and path defects). On
    // failure `error` holds the response to send.
    bool resolve_path_id(std::string_view raw, idconform::ids::Uuid& out, Response& error) const;
    idconform::ids::Uuid mint_product_id();
    idconform::ids::Uuid mint_tracking_id();
    std::string now_text() const;
    void render_product(const Product& p, std::string& out) const;
    void render_id_field(const idconform::ids::Uuid& id, std::string& out) const;
    Response product_response(unsigned status, const Product& p) const;
    std::string location_for(const idconform::ids::Uuid& id) const;

    const DefectSet defects_;
    ChangeSink change_sink_;
    std::shared_ptr<Storage> storage_;
    void changed(std::string_view type, const Product& p) const {
        if (change_sink_) change_sink_(type, p);
        if (storage_) {
            if (type == "deleted") storage_->erase_product(p.id);
            else storage_->put(p);
        }
    }
    std::string export_dir_;
    std::set<std::string, std::less<>> list_forbidden_;
    bool order_viewable_ids_ = false;
    idconform::ids::V7Generator v7_;
    idconform::ids::V7Generator stale_v7_;  // clock one hour behind (stale-timestamp)
    std::atomic<std::uint64_t> tracking_counter_{0};

    mutable std::shared_mutex mutex_;
    std::map<idconform::ids::Uuid, Product> products_;
    std::map<std::string, std::set<idconform::ids::Uuid>, std::less<>> products_by_owner_;
    std::map<idconform::ids::Uuid, Category> categories_;
    std::set<idconform::ids::Uuid> deleted_;       // tombstones: ids never come back
    std::vector<idconform::ids::Uuid> reusable_;   // only with reuse-deleted-ids

    // viewable ids (viewable.cpp), guarded by mutex_
    std::map<std::string, idconform::ids::Uuid, std::less<>> by_viewable_;
    std::uint64_t viewable_counter_ = 0;           // viewable-sequential / viewable-reused
    std::string last_viewable_;                    // viewable-reused
    std::map<std::string, idconform::ids::Uuid, std::less<>> latest_product_;  // owner -> latest (lookup-mismatch)

    // orders (orders.cpp), guarded by orders_mutex_
    idconform::ids::UlidGenerator ulids_;
    idconform::ids::UlidGenerator stale_ulids_;    // clock one second behind (ulids-out-of-order)
    idconform::ids::UlidGenerator job_ulids_;
    idconform::ids::UlidGenerator request_ulids_;
    std::atomic<std::uint64_t> order_counter_{0};
    mutable std::shared_mutex orders_mutex_;
    std::map<idconform::ids::Ulid, Order> orders_;
    std::set<idconform::ids::Ulid> deleted_orders_;
    std::map<std::string, idconform::ids::Ulid, std::less<>> jobs_;  // job id text -> order

    // tickets (tickets.cpp), guarded by tickets_mutex_
    bool tickets_on_ = false;
    mutable std::shared_mutex tickets_mutex_;
    std::map<std::int64_t, Ticket> tickets_;
    std::int64_t last_ticket_id_ = 0;

    // legacy staff (staff.cpp)
    std::string legacy_salt_;                      // PRODUCTS_LEGACY_SALT, or a built-in example salt
    std::atomic<std::uint64_t> legacy_calls_{0};   // legacy-unstable
};

// ISO-8601 UTC with 6 fraction digits, e.g. 2024-05-01T12:00:00.123456Z.
[[nodiscard]] std::string iso8601_us(std::int64_t unix_us);

}  // namespace products
