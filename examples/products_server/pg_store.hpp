// The example server's PostgreSQL storage (products_server --store-pg
// CONNINFO): every category and product the service stores is also written
// to tables of that database, in the order of the changes, so that
// `idconform db` can audit the storage behind the API it ran against
// (scripts/demo.sh). The service's own maps stay what it answers from: a
// write that fails is said once per kind on stderr and never changes an
// answer. The tables are made when missing (pg_store.cpp has their schema).
#pragma once

#include "service.hpp"

#include <memory>
#include <string>

namespace products {

// Connects and makes the tables; nullptr with `why` when it cannot.
[[nodiscard]] std::shared_ptr<Storage> open_pg_store(const std::string& conninfo, std::string& why);

}  // namespace products
