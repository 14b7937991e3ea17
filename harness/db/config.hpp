// The optional YAML file of `idconform db --config FILE`: which columns
// hold ids of which kind (the kinds of harness/ids/kind.hpp), which of them
// reference another table's id, the schemas to audit, and R1's exceptions
// (tables that keep the key kind they had: db-identifiers R1 keeps them as a
// permanent list). Read with the suite loader's YAML reader, so every error
// is a Diagnostic at file:line:col with a hint.
//
//   schemas: [public]
//   columns:
//     orders.id: uuidv7                      # table.column or schema.table.column
//     products.viewable_id: viewable         # a declared id: must be unique
//     orders.customer_ref: {kind: uuidv7, references: customers.id}
//   r1_exceptions: [legacy_users]
//   legacy_layout: "flag=0 id=1:32 type=33:15 hash1=52:12 hash2=66:62"   # uuidv8-legacy columns
#pragma once

#include "core/diagnostic.hpp"
#include "ids/kind.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::db {

// "orders.id" or "public.orders.id": a column named in the config.
struct ColumnName {
    std::string schema;  // "" = any schema holding the table
    std::string table, column;
    [[nodiscard]] std::string text() const { return (schema.empty() ? "" : schema + ".") + table + "." + column; }
    [[nodiscard]] bool matches(std::string_view s, std::string_view t, std::string_view c) const {
        return (schema.empty() || schema == s) && table == t && column == c;
    }
};

struct DeclaredColumn {
    ColumnName name;
    ids::IdKind kind = ids::IdKind::uuid;
    std::optional<ColumnName> references;  // a reference: not unique, its type is compared with the key's
    SourcePos pos;
    std::string declared_by = "the config";  // or "the target profile" (idconform db --target)
};

struct Config {
    std::string path;  // "" when no file was given
    std::vector<std::string> schemas;
    std::vector<DeclaredColumn> columns;
    std::vector<std::string> r1_exceptions;  // "table" or "schema.table"
    std::vector<SourcePos> r1_exception_pos;
    ids::LegacyLayout legacy_layout{};  // of uuidv8-legacy columns (ids::parse_layout's text)

    [[nodiscard]] const DeclaredColumn* declared(std::string_view schema, std::string_view table,
                                                 std::string_view column) const;
    [[nodiscard]] bool r1_exception(std::string_view schema, std::string_view table) const;
};

struct ConfigLoad {
    std::optional<Config> config;
    std::vector<Diagnostic> diagnostics;  // empty when config is set
};

[[nodiscard]] ConfigLoad load_config(const std::string& path);
[[nodiscard]] ConfigLoad load_config_text(const std::string& text, const std::string& path);

}  // namespace idconform::db
