// The PostgreSQL reader over libpq (pg_reader.hpp).
#include "db/pg_reader.hpp"

#include "db/copy_binary.hpp"

#include <libpq-fe.h>
#include <poll.h>

#include <chrono>
#include <cstring>
#include <map>

namespace idconform::db {

namespace {

// libpq's messages end in a newline and may hold several lines; one line each.
std::string one_line(const char* msg) {
    std::string s = msg ? msg : "";
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    for (auto& ch : s)
        if (ch == '\n') ch = ' ';
    return s;
}

struct Result {
    PGresult* r = nullptr;
    explicit Result(PGresult* p) : r(p) {}
    ~Result() { PQclear(r); }
    Result(const Result&) = delete;
    Result& operator=(const Result&) = delete;
};

ErrorKind kind_of(PGconn* c, const PGresult* r) {
    if (PQstatus(c) == CONNECTION_BAD) return ErrorKind::unreachable;
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    if (state == nullptr) return ErrorKind::other;
    const std::string_view s = state;
    if (s == "42501") return ErrorKind::privilege;                                 // insufficient_privilege
    if (s == "42P01" || s == "42703" || s == "3F000") return ErrorKind::vanished;  // undefined table/column/schema
    if (s == "57014") return ErrorKind::timeout;                                   // query_canceled (statement_timeout)
    if (s.starts_with("08")) return ErrorKind::unreachable;                        // connection exception
    return ErrorKind::other;
}

ReadError error_of(PGconn* c, const PGresult* r, std::string_view doing) {
    std::string msg = r ? one_line(PQresultErrorMessage(r)) : "";
    if (msg.empty()) msg = one_line(PQerrorMessage(c));
    return ReadError{kind_of(c, r), std::string(doing) + ": " + msg};
}

TypeFamily family_of(std::string_view base_type) {
    if (base_type == "uuid") return TypeFamily::uuid;
    if (base_type == "text" || base_type == "varchar" || base_type == "bpchar" || base_type == "citext" ||
        base_type == "name")
        return TypeFamily::text;
    if (base_type == "int2" || base_type == "int4" || base_type == "int8") return TypeFamily::integer;
    if (base_type == "timestamp" || base_type == "timestamptz") return TypeFamily::time;
    return TypeFamily::unknown;
}

// "{1,2}" (int2[] as text) or "1 2" (int2vector) -> {1, 2}.
std::vector<int> attnums(std::string_view s) {
    std::vector<int> out;
    int cur = 0;
    bool in = false, neg = false;
    for (char ch : s) {
        if (ch >= '0' && ch <= '9') {
            cur = cur * 10 + (ch - '0');
            in = true;
        } else if (ch == '-') {
            neg = true;
        } else {
            if (in) out.push_back(neg ? -cur : cur);
            cur = 0;
            in = neg = false;
        }
    }
    if (in) out.push_back(neg ? -cur : cur);
    return out;
}

const char* get(const PGresult* r, int row, int col) { return PQgetvalue(r, row, col); }

constexpr const char* columns_sql = R"SQL(
SELECT n.nspname, c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod),
       CASE WHEN t.typtype = 'd' THEN bt.typname ELSE t.typname END,
       a.attnotnull, a.attidentity <> '', coalesce(pg_get_expr(d.adbin, d.adrelid), ''),
       has_column_privilege(c.oid, a.attnum, 'SELECT')
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
LEFT JOIN pg_catalog.pg_type bt ON bt.oid = t.typbasetype
LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
  AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\_%'
ORDER BY n.nspname, c.relname, a.attnum)SQL";

constexpr const char* constraints_sql = R"SQL(
SELECT n.nspname, c.relname, k.contype, k.conname, k.conkey::text,
       coalesce(fn.nspname, ''), coalesce(fc.relname, ''), coalesce(k.confkey::text, ''),
       CASE WHEN k.contype = 'c' THEN pg_get_constraintdef(k.oid) ELSE '' END
FROM pg_catalog.pg_constraint k
JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_catalog.pg_class fc ON fc.oid = k.confrelid
LEFT JOIN pg_catalog.pg_namespace fn ON fn.oid = fc.relnamespace
WHERE k.contype IN ('p', 'u', 'f', 'c') AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\_%'
ORDER BY n.nspname, c.relname, k.conname)SQL";

// Unique indexes that are no constraint's (CREATE UNIQUE INDEX).
constexpr const char* unique_indexes_sql = R"SQL(
SELECT n.nspname, c.relname, ic.relname, i.indkey::text, i.indpred IS NOT NULL
FROM pg_catalog.pg_index i
JOIN pg_catalog.pg_class c ON c.oid = i.indrelid
JOIN pg_catalog.pg_class ic ON ic.oid = i.indexrelid
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
WHERE i.indisunique AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\_%'
  AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint k WHERE k.conindid = i.indexrelid)
ORDER BY 1, 2, 3)SQL";

}  // namespace

struct PgReader::Conn {
    PGconn* c = nullptr;
    ~Conn() {
        if (c) PQfinish(c);
    }
    // attnum -> column name, per table, for the constraint queries
    std::map<std::pair<std::string, std::string>, std::map<int, std::string>> names;
    unsigned savepoint = 0;

    std::optional<ReadError> exec(const char* sql, std::string_view doing) {
        Result r(PQexec(c, sql));
        if (PQresultStatus(r.r) != PGRES_COMMAND_OK && PQresultStatus(r.r) != PGRES_TUPLES_OK)
            return error_of(c, r.r, doing);
        return std::nullopt;
    }
};

PgReader::PgReader(std::unique_ptr<Conn> c) : conn_(std::move(c)) {}
PgReader::~PgReader() = default;

std::unique_ptr<PgReader> PgReader::connect(const PgOptions& o, ReadError& error) {
    auto conn = std::make_unique<Conn>();
    // The connection string's own values come after these and override them.
    const std::string timeout = std::to_string(o.connect_timeout_s);
    const char* keys[] = {"connect_timeout", "application_name", "client_encoding", "dbname", nullptr};
    const char* vals[] = {timeout.c_str(), "idconform db", "UTF8", o.conninfo.c_str(), nullptr};
    conn->c = PQconnectStartParams(keys, vals, 1);
    if (conn->c == nullptr) {
        error = {ErrorKind::other, "libpq could not allocate a connection"};
        return nullptr;
    }
    bool reached = false;  // the server answered the startup: a refusal is not "unreachable"
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.connect_timeout_s);
    PostgresPollingStatusType st = PQstatus(conn->c) == CONNECTION_BAD ? PGRES_POLLING_FAILED : PGRES_POLLING_WRITING;
    while (st != PGRES_POLLING_OK && st != PGRES_POLLING_FAILED) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p{PQsocket(conn->c), static_cast<short>(st == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
        const int n = left.count() > 0 ? ::poll(&p, 1, static_cast<int>(left.count())) : 0;
        if (n == 0) {
            error = {reached ? ErrorKind::other : ErrorKind::unreachable,
                     "no answer from the server within " + std::to_string(o.connect_timeout_s) + " s"};
            return nullptr;
        }
        if (n < 0 && errno != EINTR) {
            error = {ErrorKind::other, std::string("poll: ") + std::strerror(errno)};
            return nullptr;
        }
        st = PQconnectPoll(conn->c);
        const ConnStatusType cs = PQstatus(conn->c);
        if (cs == CONNECTION_AWAITING_RESPONSE || cs == CONNECTION_AUTH_OK || cs == CONNECTION_SETENV ||
            cs == CONNECTION_CHECK_WRITABLE || cs == CONNECTION_CONSUME || cs == CONNECTION_OK)
            reached = true;
    }
    if (st == PGRES_POLLING_FAILED) {
        const std::string msg = one_line(PQerrorMessage(conn->c));
        if (PQconnectionNeedsPassword(conn->c))
            error = {ErrorKind::authentication,
                     "the server asks for a password and none was given (set PGPASSWORD, a password file "
                     "(~/.pgpass or PGPASSFILE), or write it in the connection string): " +
                         msg};
        else if (reached || msg.find("authentication failed") != std::string::npos)
            error = {ErrorKind::authentication, "the server refused the connection: " + msg};
        else error = {ErrorKind::unreachable, msg};
        return nullptr;
    }
    // One read-only transaction with a statement timeout for the whole audit.
    if (auto e = conn->exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "opening a read-only transaction")) {
        error = *e;
        return nullptr;
    }
    const std::string set =
        "SET LOCAL statement_timeout = " + std::to_string(std::int64_t{o.statement_timeout_s} * 1000);
    if (auto e = conn->exec(set.c_str(), "setting the statement timeout")) {
        error = *e;
        return nullptr;
    }
    return std::unique_ptr<PgReader>(new PgReader(std::move(conn)));
}

std::string PgReader::server_version() const {
    const int v = PQserverVersion(conn_->c);
    return "PostgreSQL " + std::to_string(v / 10000) + "." + std::to_string(v % 10000);
}

std::optional<ReadError> PgReader::read_catalog(const std::vector<std::string>& schemas, Catalog& out) {
    PGconn* c = conn_->c;
    auto wanted = [&](std::string_view s) {
        if (schemas.empty()) return true;
        for (const auto& w : schemas)
            if (w == s) return true;
        return false;
    };
    out.system = server_version();
    {
        Result r(PQexec(c, "SELECT current_database()"));
        if (PQresultStatus(r.r) != PGRES_TUPLES_OK) return error_of(c, r.r, "reading the database name");
        out.database = get(r.r, 0, 0);
    }
    std::map<std::pair<std::string, std::string>, std::size_t> index;
    {
        Result r(PQexec(c, columns_sql));
        if (PQresultStatus(r.r) != PGRES_TUPLES_OK) return error_of(c, r.r, "reading the columns (pg_attribute)");
        for (int i = 0; i < PQntuples(r.r); ++i) {
            const std::string schema = get(r.r, i, 0), table = get(r.r, i, 1);
            auto key = std::make_pair(schema, table);
            conn_->names[key][std::atoi(get(r.r, i, 2))] = get(r.r, i, 3);  // every table: foreign keys reach out
            if (!wanted(schema)) continue;
            auto it = index.find(key);
            if (it == index.end()) {
                it = index.emplace(key, out.tables.size()).first;
                out.tables.push_back(Table{schema, table, {}, {}, {}, {}, {}, {}});
            }
            Column col;
            col.name = get(r.r, i, 3);
            col.type = get(r.r, i, 4);
            col.family = family_of(get(r.r, i, 5));
            col.not_null = get(r.r, i, 6)[0] == 't';
            col.default_expr = get(r.r, i, 8);
            col.generator = get(r.r, i, 7)[0] == 't' ? Generator::identity : generator_of_default(col.default_expr);
            col.readable = get(r.r, i, 9)[0] == 't';
            out.tables[it->second].columns.push_back(std::move(col));
        }
    }
    auto names_of = [&](const std::pair<std::string, std::string>& key, std::string_view nums) {
        std::vector<std::string> cols;
        const auto& m = conn_->names[key];
        for (int n : attnums(nums)) {
            const auto it = m.find(n);
            cols.push_back(it == m.end() ? "(expression)" : it->second);
        }
        return cols;
    };
    {
        Result r(PQexec(c, constraints_sql));
        if (PQresultStatus(r.r) != PGRES_TUPLES_OK) return error_of(c, r.r, "reading the constraints (pg_constraint)");
        for (int i = 0; i < PQntuples(r.r); ++i) {
            const auto key = std::make_pair(std::string(get(r.r, i, 0)), std::string(get(r.r, i, 1)));
            const auto it = index.find(key);
            if (it == index.end()) continue;
            Table& t = out.tables[it->second];
            const char type = get(r.r, i, 2)[0];
            std::vector<std::string> cols = names_of(key, get(r.r, i, 4));
            if (type == 'p') {
                t.primary_key = std::move(cols);
                t.primary_key_name = get(r.r, i, 3);
            } else if (type == 'u') {
                t.uniques.push_back(UniqueSet{get(r.r, i, 3), std::move(cols), false});
            } else if (type == 'c') {
                t.checks.push_back(CheckConstraint{get(r.r, i, 3), std::move(cols), get(r.r, i, 8)});
            } else {
                ForeignKey fk;
                fk.name = get(r.r, i, 3);
                fk.columns = std::move(cols);
                fk.ref_schema = get(r.r, i, 5);
                fk.ref_table = get(r.r, i, 6);
                fk.ref_columns = names_of({fk.ref_schema, fk.ref_table}, get(r.r, i, 7));
                t.foreign_keys.push_back(std::move(fk));
            }
        }
    }
    {
        Result r(PQexec(c, unique_indexes_sql));
        if (PQresultStatus(r.r) != PGRES_TUPLES_OK) return error_of(c, r.r, "reading the unique indexes (pg_index)");
        for (int i = 0; i < PQntuples(r.r); ++i) {
            const auto key = std::make_pair(std::string(get(r.r, i, 0)), std::string(get(r.r, i, 1)));
            const auto it = index.find(key);
            if (it == index.end()) continue;
            out.tables[it->second].uniques.push_back(
                UniqueSet{get(r.r, i, 2), names_of(key, get(r.r, i, 3)), get(r.r, i, 4)[0] == 't'});
        }
    }
    return std::nullopt;
}

namespace {

std::string quoted(PGconn* c, const std::string& name) {
    char* q = PQescapeIdentifier(c, name.data(), name.size());
    std::string out = q ? q : "\"?\"";
    PQfreemem(q);
    return out;
}

}  // namespace

std::optional<ReadError> PgReader::stream_column(const Table& table, const Column& column, std::uint64_t max_rows,
                                                 const ValueSink& sink) {
    const std::string object = table.qualified() + "." + column.name;
    if (!column.readable)
        return ReadError{ErrorKind::privilege, "reading " + object +
                                                   ": the role may not SELECT the column (grant "
                                                   "SELECT on " +
                                                   table.qualified() + ")"};
    std::string select = quoted(conn_->c, column.name);
    if (column.family != TypeFamily::uuid) select += "::text";
    return copy(table, select, 1, max_rows, object, [&](const Value* v, std::size_t) { return sink(v[0]); });
}

std::optional<ReadError> PgReader::stream_times(const Table& table, const Column& id, const Column& time,
                                                std::uint64_t max_rows, const RowSink& sink) {
    const std::string object = table.qualified() + "." + time.name;
    if (!id.readable || !time.readable)
        return ReadError{ErrorKind::privilege, "reading " + object + ": the role may not SELECT it (grant SELECT on " +
                                                   table.qualified() + ")"};
    const std::string select =
        quoted(conn_->c, id.name) + ", floor(extract(epoch FROM " + quoted(conn_->c, time.name) + ") * 1000000)::int8";
    return copy(table, select, 2, max_rows, object, sink);
}

std::optional<ReadError> PgReader::copy(const Table& table, const std::string& select, std::size_t fields,
                                        std::uint64_t max_rows, const std::string& object, const RowSink& sink) {
    PGconn* c = conn_->c;
    // A savepoint per column: a failure (a table dropped since the catalog
    // was read) rolls back to it and the transaction goes on.
    const std::string sp = "idconform_" + std::to_string(++conn_->savepoint);
    if (auto e = conn_->exec(("SAVEPOINT " + sp).c_str(), "reading " + object)) return e;
    std::string sql = "COPY (SELECT " + select + " FROM " + quoted(c, table.schema) + "." + quoted(c, table.name);
    if (max_rows > 0) sql += " LIMIT " + std::to_string(max_rows);
    sql += ") TO STDOUT (FORMAT binary)";
    std::optional<ReadError> failure;
    {
        Result r(PQexec(c, sql.c_str()));
        if (PQresultStatus(r.r) != PGRES_COPY_OUT) failure = error_of(c, r.r, "reading " + object);
    }
    if (!failure) {
        BinaryCopy frame(fields);  // copy_binary.hpp
        bool stop = false;
        while (true) {
            char* buf = nullptr;
            const int n = PQgetCopyData(c, &buf, 0);
            if (n > 0) {
                const bool ok = frame.feed_rows(std::string_view(buf, static_cast<std::size_t>(n)), sink, stop);
                PQfreemem(buf);
                if (!ok && !failure) failure = ReadError{ErrorKind::other, "reading " + object + ": " + frame.error};
                continue;
            }
            if (buf) PQfreemem(buf);
            break;  // -1: done (the result follows), -2: error
        }
        while (PGresult* r = PQgetResult(c)) {
            Result res(r);
            if (PQresultStatus(r) != PGRES_COMMAND_OK && !failure) failure = error_of(c, r, "reading " + object);
        }
        if (!failure && !frame.done)
            failure = ReadError{ErrorKind::other, "reading " + object + ": the COPY stream ended early"};
    }
    if (failure) {
        if (PQstatus(c) == CONNECTION_BAD) return failure;
        if (auto e = conn_->exec(("ROLLBACK TO SAVEPOINT " + sp).c_str(), "reading " + object)) return e;
        return failure;
    }
    if (auto e = conn_->exec(("RELEASE SAVEPOINT " + sp).c_str(), "reading " + object)) return e;
    return std::nullopt;
}

std::optional<ReadError> PgReader::duplicates(const Table& table, const Column& column, Duplicates& out) {
    PGconn* c = conn_->c;
    const std::string object = table.qualified() + "." + column.name;
    if (!column.readable)
        return ReadError{ErrorKind::privilege,
                         "counting duplicates of " + object + ": the role may not SELECT the column"};
    const std::string sp = "idconform_" + std::to_string(++conn_->savepoint);
    if (auto e = conn_->exec(("SAVEPOINT " + sp).c_str(), "counting duplicates of " + object)) return e;
    const std::string col = quoted(c, column.name);
    const std::string groups = "SELECT " + col + "::text AS v, count(*) AS n FROM " + quoted(c, table.schema) + "." +
                               quoted(c, table.name) + " WHERE " + col + " IS NOT NULL GROUP BY " + col +
                               " HAVING count(*) > 1";
    const std::string sql = "SELECT (SELECT count(*) FROM (" + groups + ") d), v FROM (" + groups +
                            " ORDER BY n DESC, v LIMIT 3) e ORDER BY v";
    std::optional<ReadError> failure;
    {
        Result r(PQexec(c, sql.c_str()));
        if (PQresultStatus(r.r) != PGRES_TUPLES_OK) {
            failure = error_of(c, r.r, "counting duplicates of " + object);
        } else {
            for (int i = 0; i < PQntuples(r.r); ++i) {
                out.values = std::strtoull(get(r.r, i, 0), nullptr, 10);
                out.examples.emplace_back(get(r.r, i, 1));
            }
        }
    }
    if (failure) {
        if (PQstatus(c) == CONNECTION_BAD) return failure;
        if (auto e = conn_->exec(("ROLLBACK TO SAVEPOINT " + sp).c_str(), "counting duplicates of " + object)) return e;
        return failure;
    }
    if (auto e = conn_->exec(("RELEASE SAVEPOINT " + sp).c_str(), "counting duplicates of " + object)) return e;
    return std::nullopt;
}

}  // namespace idconform::db

#include "core/redact.hpp"
#include "db/conninfo.hpp"

namespace idconform::db {

std::string conninfo_error(const std::string& conninfo) {
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &err);
    if (opts) {
        PQconninfoFree(opts);
        return "";
    }
    std::string msg = err ? one_line(err) : "libpq could not read the connection string";
    if (err) PQfreemem(err);
    // libpq quotes the text it stopped at, which may be the password
    redact::Secrets s;
    if (const std::string pw = password_in(conninfo); !pw.empty()) s.add(pw);
    s.mask(msg);
    return redact_conninfo(msg);
}

}  // namespace idconform::db
