// What idconform db knows of a database: its tables, their columns, keys,
// unique constraints and foreign keys (the catalog), and the reader
// interface one database system implements to give it and to stream one
// column's stored values. PostgreSQL is the one reader now (pg_reader.hpp);
// MySQL/MariaDB (information_schema, a streaming SELECT) and SQLite
// (sqlite_schema + pragma table_info/foreign_key_list, a stepped SELECT)
// would be other implementations of CatalogReader: the checks (checks.hpp)
// and the audit (audit.hpp) only see this file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::db {

// The types the audit judges values of; anything else is `unknown` (said
// and skipped). `time` (timestamp, timestamptz) is no id: DATA-ID-005
// compares it with the key's v7 timestamp.
enum class TypeFamily { uuid, text, integer, time, unknown };
[[nodiscard]] std::string_view to_string(TypeFamily f) noexcept;

// What a column's default or generation makes, as far as the catalog says.
enum class Generator {
    none,
    uuid_v4,   // gen_random_uuid(), uuid_generate_v4(), uuidv4() (PostgreSQL 18)
    uuid_v1,   // uuid_generate_v1(), uuid_generate_v1mc()
    uuid_v7,   // uuidv7() (PostgreSQL 18), uuid_generate_v7() (the pg_uuidv7 extension)
    sequence,  // nextval(...) (serial)
    identity,  // GENERATED ... AS IDENTITY
    other,     // another expression (a function the audit does not know, a constant)
};
[[nodiscard]] std::string_view to_string(Generator g) noexcept;
// The generator a default expression as the catalog prints it stands for.
[[nodiscard]] Generator generator_of_default(std::string_view expr) noexcept;

struct Column {
    std::string name;
    std::string type;  // as the database prints it: "uuid", "character varying(36)", "bigint"
    TypeFamily family = TypeFamily::unknown;
    Generator generator = Generator::none;
    std::string default_expr;  // "gen_random_uuid()", "" when none
    bool not_null = false;
    bool readable = true;  // the connected role may SELECT it
};

struct UniqueSet {
    std::string name;  // constraint or index name
    std::vector<std::string> columns;
    bool partial = false;  // a unique index with a WHERE clause
};

// A CHECK constraint and the columns it reads.
struct CheckConstraint {
    std::string name;
    std::vector<std::string> columns;
    std::string definition;  // "CHECK ((id ~ '^[0-9a-f]{8}-...$'::text))"
};

struct ForeignKey {
    std::string name;
    std::vector<std::string> columns;
    std::string ref_schema, ref_table;
    std::vector<std::string> ref_columns;
};

struct Table {
    std::string schema, name;
    std::vector<Column> columns;
    std::vector<std::string> primary_key;  // empty: none
    std::string primary_key_name;
    std::vector<UniqueSet> uniques;  // unique constraints and unique indexes (the key not among them)
    std::vector<ForeignKey> foreign_keys;
    std::vector<CheckConstraint> checks;

    [[nodiscard]] std::string qualified() const { return schema + "." + name; }
    [[nodiscard]] const Column* column(std::string_view n) const;
    // Whether some unique constraint or index (or the key) is exactly this one column.
    [[nodiscard]] const UniqueSet* unique_on(std::string_view column) const;
    // A CHECK constraint reading this column alone.
    [[nodiscard]] const CheckConstraint* check_on(std::string_view column) const;
    [[nodiscard]] bool key_is(std::string_view column) const {
        return primary_key.size() == 1 && primary_key.front() == column;
    }
};

struct Catalog {
    std::string system;    // "PostgreSQL 15.18"
    std::string database;  // the database's name
    std::vector<Table> tables;
    [[nodiscard]] const Table* table(std::string_view schema, std::string_view name) const;
};

// Why a reader could not do what was asked; the audit's exit code follows
// from `kind`, never from the message's words.
enum class ErrorKind {
    unreachable,     // no server answered at the address (refused, no route, timeout)
    authentication,  // the server answered and refused the login (wrong credentials, no pg_hba entry)
    privilege,       // the role may not read what is named
    vanished,        // a table or column is gone since the catalog was read
    timeout,         // the statement timeout cancelled a query
    other,           // anything else the server or the client library said
};
[[nodiscard]] std::string_view to_string(ErrorKind k) noexcept;

struct ReadError {
    ErrorKind kind = ErrorKind::other;
    std::string message;  // one line, no password in it
};

// One stored value of a streamed column: its text (for uuid columns the 16
// bytes, see ValueSink), or null.
struct Value {
    std::string_view bytes;
    bool null = false;
};

// Called per value in storage order; return false to stop the stream.
using ValueSink = std::function<bool(const Value&)>;
// Called per row of several values (stream_times: id, then time as 8
// big-endian bytes of microseconds).
using RowSink = std::function<bool(const Value* values, std::size_t fields)>;

// Values that more than one row of a column holds.
struct Duplicates {
    std::uint64_t values = 0;           // distinct values held more than once
    std::vector<std::string> examples;  // the most repeated few, as text
};

class CatalogReader {
public:
    virtual ~CatalogReader() = default;
    // The tables of `schemas` (all but the system's own when empty).
    [[nodiscard]] virtual std::optional<ReadError> read_catalog(const std::vector<std::string>& schemas,
                                                                Catalog& out) = 0;
    // Streams the values of one column, at most max_rows (0: all). uuid
    // columns give their 16 bytes in network order, every other family its
    // text. Memory stays bounded whatever the table's size. A failure of
    // one column (privilege, vanished) leaves the reader usable for the next.
    [[nodiscard]] virtual std::optional<ReadError> stream_column(const Table& table, const Column& column,
                                                                 std::uint64_t max_rows, const ValueSink& sink) = 0;
    // Streams a uuid column with a time column of the same rows, the time
    // as microseconds since the Unix epoch (floored): sink(id, time) with
    // the id's 16 bytes, nulls as Value::null; at most max_rows rows.
    [[nodiscard]] virtual std::optional<ReadError> stream_times(const Table& table, const Column& id,
                                                                const Column& time, std::uint64_t max_rows,
                                                                const RowSink& sink) = 0;
    // The values of a column held by more than one row (nulls aside),
    // counted by the database (GROUP BY ... HAVING count(*) > 1): asked only
    // for id columns no unique constraint protects.
    [[nodiscard]] virtual std::optional<ReadError> duplicates(const Table& table, const Column& column,
                                                              Duplicates& out) = 0;
};

}  // namespace idconform::db
