// The PostgreSQL catalog reader (catalog.hpp) over libpq: connects with a
// libpq connection string or URI (the password from the string,
// PGPASSWORD or the password file, never printed), opens one read-only
// transaction (BEGIN ... READ ONLY, SET LOCAL statement_timeout), reads the
// catalog from pg_catalog and streams each column with
// COPY (SELECT col FROM t) TO STDOUT in the binary format (PQgetCopyData),
// one row in memory at a time. Nothing is written: no temporary table, no
// lock beyond what a SELECT takes.
#pragma once

#include "db/catalog.hpp"

#include <memory>
#include <string>

namespace idconform::db {

struct PgOptions {
    std::string conninfo;
    int connect_timeout_s = 10;
    int statement_timeout_s = 300;
};

class PgReader final : public CatalogReader {
public:
    // Connects and opens the transaction; nullptr with `error` set when that
    // fails (unreachable, authentication, other).
    [[nodiscard]] static std::unique_ptr<PgReader> connect(const PgOptions& o, ReadError& error);
    ~PgReader() override;
    PgReader(const PgReader&) = delete;
    PgReader& operator=(const PgReader&) = delete;

    [[nodiscard]] std::optional<ReadError> read_catalog(const std::vector<std::string>& schemas, Catalog& out) override;
    [[nodiscard]] std::optional<ReadError> stream_column(const Table& table, const Column& column,
                                                         std::uint64_t max_rows, const ValueSink& sink) override;
    [[nodiscard]] std::optional<ReadError> duplicates(const Table& table, const Column& column,
                                                      Duplicates& out) override;
    [[nodiscard]] std::optional<ReadError> stream_times(const Table& table, const Column& id, const Column& time,
                                                        std::uint64_t max_rows, const RowSink& sink) override;
    // "PostgreSQL 15.18", the server's version.
    [[nodiscard]] std::string server_version() const;

private:
    struct Conn;
    // COPY (SELECT `select` FROM table) in the binary format under a savepoint, `fields` per row.
    [[nodiscard]] std::optional<ReadError> copy(const Table& table, const std::string& select, std::size_t fields,
                                                std::uint64_t max_rows, const std::string& object, const RowSink& sink);
    explicit PgReader(std::unique_ptr<Conn> c);
    std::unique_ptr<Conn> conn_;
};

}  // namespace idconform::db

namespace idconform::db {

// Why libpq cannot read the connection string ("" when it can), with any
// password masked: a usage error, said before anything connects.
[[nodiscard]] std::string conninfo_error(const std::string& conninfo);

}  // namespace idconform::db
