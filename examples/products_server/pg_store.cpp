// PostgreSQL storage of the example server (pg_store.hpp), over libpq: one
// connection, one statement per change, under its own mutex.
#include "pg_store.hpp"

#include <boost/json/serialize.hpp>
#include <libpq-fe.h>

#include <cstdio>
#include <iostream>
#include <mutex>
#include <set>
#include <vector>

namespace products {

namespace ids = idconform::ids;

namespace {

// Keys made by the application (uuid, v7 for products and categories: no
// database default), references of the key's type, a unique viewable id of
// a fixed form, times of their own. Deleting a category or a product clears
// the references to it, as the API does not refuse those deletes.
constexpr const char* schema_sql = R"sql(
CREATE TABLE IF NOT EXISTS categories (
  id uuid PRIMARY KEY,
  owner text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL);
CREATE TABLE IF NOT EXISTS products (
  id uuid PRIMARY KEY,
  owner text NOT NULL,
  name text NOT NULL,
  category_id uuid REFERENCES categories (id) ON DELETE SET NULL,
  parent_id uuid REFERENCES products (id) ON DELETE SET NULL,
  price jsonb,
  tracking_id uuid NOT NULL UNIQUE,
  viewable_id text NOT NULL UNIQUE CHECK (viewable_id ~ '^TR-[0-9A-HJKMNP-TV-Z]{7}$'),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL);
)sql";

class PgStore final : public Storage {
public:
    explicit PgStore(PGconn* c) : conn_(c) {}
    ~PgStore() override { PQfinish(conn_); }
    PgStore(const PgStore&) = delete;
    PgStore& operator=(const PgStore&) = delete;

    void put(const Category& c) override {
        const std::string id = ids::format(c.id);
        exec("category",
             "INSERT INTO categories (id, owner, name, created_at) VALUES ($1, $2, $3, $4) "
             "ON CONFLICT (id) DO UPDATE SET owner = $2, name = $3, created_at = $4",
             {id.c_str(), c.owner.c_str(), c.name.c_str(), c.created_at.c_str()});
    }
    void erase_category(const ids::Uuid& id) override {
        const std::string text = ids::format(id);
        exec("category delete", "DELETE FROM categories WHERE id = $1", {text.c_str()});
    }
    void put(const Product& p) override {
        const std::string id = ids::format(p.id), tracking = ids::format(p.tracking_id);
        // Only ids go into uuid columns: a defect's raw reference ("", 0) is stored as no reference.
        const std::string category = ref_text(p.category), parent = ref_text(p.parent);
        const std::string price = p.price.is_null() ? "" : boost::json::serialize(p.price);
        exec("product",
             "INSERT INTO products (id, owner, name, category_id, parent_id, price, tracking_id, viewable_id, "
             "created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) "
             "ON CONFLICT (id) DO UPDATE SET owner = $2, name = $3, category_id = $4, parent_id = $5, price = $6, "
             "tracking_id = $7, viewable_id = $8, created_at = $9, updated_at = $10",
             {id.c_str(), p.owner.c_str(), p.name.c_str(), category.empty() ? nullptr : category.c_str(),
              parent.empty() ? nullptr : parent.c_str(), price.empty() ? nullptr : price.c_str(), tracking.c_str(),
              p.viewable_id.c_str(), p.created_at.c_str(), p.updated_at.c_str()});
    }
    void erase_product(const ids::Uuid& id) override {
        const std::string text = ids::format(id);
        exec("product delete", "DELETE FROM products WHERE id = $1", {text.c_str()});
    }

private:
    static std::string ref_text(const Ref& r) { return r.kind == Ref::Kind::id ? ids::format(r.id) : std::string(); }

    void exec(const char* what, const char* sql, std::initializer_list<const char*> params) {
        std::lock_guard lock(mutex_);
        const std::vector<const char*> values(params);
        PGresult* res = PQexecParams(conn_, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                                     nullptr, 0);
        if (PQresultStatus(res) != PGRES_COMMAND_OK && said_.insert(what).second)
            std::cerr << "products_server: storage: a " << what << " was not written (said once): "
                      << PQresultErrorMessage(res);
        PQclear(res);
    }

    PGconn* conn_;
    std::mutex mutex_;
    std::set<std::string> said_;
};

}  // namespace

std::shared_ptr<Storage> open_pg_store(const std::string& conninfo, std::string& why) {
    PGconn* c = PQconnectdb(conninfo.c_str());
    if (PQstatus(c) != CONNECTION_OK) {
        why = PQerrorMessage(c);
        PQfinish(c);
        return nullptr;
    }
    PGresult* res = PQexec(c, schema_sql);
    const bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok) why = PQresultErrorMessage(res);
    PQclear(res);
    if (!ok) {
        PQfinish(c);
        return nullptr;
    }
    return std::make_shared<PgStore>(c);
}

}  // namespace products
