// The db config's reading and its diagnostics (config.hpp).
#include "db/config.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::db;

namespace {

std::string first_error(const std::string& yaml) {
    const ConfigLoad l = load_config_text(yaml, "db.yaml");
    REQUIRE(!l.config);
    REQUIRE(!l.diagnostics.empty());
    return l.diagnostics.front().pos.str() + ": " + l.diagnostics.front().title + " | " + l.diagnostics.front().hint;
}

}  // namespace

TEST_CASE("a config with every key") {
    const ConfigLoad l = load_config_text(
        "schemas: [public, billing]\ncolumns:\n  orders.id: uuidv7\n"
        "  billing.invoices.customer_ref: {kind: uuidv7, references: customers.id}\n"
        "r1_exceptions: [legacy_users, billing.old]\n",
        "db.yaml");
    REQUIRE(l.config);
    const Config& c = *l.config;
    CHECK(c.schemas == std::vector<std::string>{"public", "billing"});
    REQUIRE(c.columns.size() == 2);
    CHECK(c.columns[0].kind == ids::IdKind::uuidv7);
    CHECK(c.columns[0].pos.str() == "db.yaml:3:3");
    CHECK(c.declared("public", "orders", "id") == &c.columns[0]);
    CHECK(c.declared("billing", "orders", "id") == &c.columns[0]);  // no schema: any
    CHECK(c.declared("public", "invoices", "customer_ref") == nullptr);
    REQUIRE(c.columns[1].references);
    CHECK(c.columns[1].references->text() == "customers.id");
    CHECK(c.r1_exception("x", "legacy_users"));
    CHECK(c.r1_exception("billing", "old"));
    CHECK(!c.r1_exception("public", "old"));
}

TEST_CASE("config errors at file:line:col with hints") {
    CHECK(
        first_error("columns:\n  orders.id: uuidv9\n") ==
        "db.yaml:2:14: unknown id kind 'uuidv9' | did you mean 'uuidv1'? kinds: uuid, uuidv1, uuidv3, uuidv4, uuidv5, "
        "uuidv6, uuidv7, uuidv8, ulid, viewable, uuidv8-legacy, existing, any");
    CHECK(first_error("columns:\n  orders: uuidv7\n").starts_with("db.yaml:2:3: 'orders' is not a column name"));
    CHECK(first_error("columns:\n  orders.id: any\n").starts_with("db.yaml:2:14: kind 'any' says nothing"));
    CHECK(first_error("columns:\n  orders.x: {kind: uuidv7, refs: a.b}\n").find("refs") != std::string::npos);
    CHECK(first_error("colums: {}\n").find("did you mean 'columns'") != std::string::npos);
    CHECK(first_error("columns:\n  o.x: {references: a.b}\n").starts_with("db.yaml:2:8: column 'o.x' without 'kind'"));
    CHECK(first_error("r1_exceptions: [a.b.c]\n").starts_with("db.yaml:1:17: 'a.b.c' is not a table name"));
}

TEST_CASE("legacy_layout: read by ids::parse_layout, errors at its line") {
    const ConfigLoad l = load_config_text("legacy_layout: \"id=1:31 type=32:16\"\n", "db.yaml");
    REQUIRE(l.config);
    CHECK(l.config->legacy_layout.id_bits == 31);
    CHECK(l.config->legacy_layout.type_offset == 32);
    CHECK(l.config->legacy_layout.type_bits == 16);
    CHECK(first_error("legacy_layout: \"flag=x\"\n").starts_with("db.yaml:1:16: legacy_layout: "));
}
