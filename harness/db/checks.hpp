// The rules applied to a database, as pure functions of what a reader gave
// (catalog.hpp) and the optional config (config.hpp): which columns are
// judged and by which kind (declared, inherited from the key a foreign key
// references, or guessed, each guess said), the schema checks (R1 key kinds,
// R6 detail tables, id-generating defaults, reference types, unique ids) and
// the verdicts on one column's stored values (ValueTally). Every judgement
// of an id goes through harness/ids/. No I/O.
#pragma once

#include "db/catalog.hpp"
#include "db/config.hpp"
#include "ids/kind.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idconform::db {

// Stored values kept as evidence per finding (key values only).
inline constexpr std::size_t max_examples = 3;

enum class Verdict { passed, failed, warning, skipped, error };

struct Finding {
    std::string rule;    // "DATA-ID-001", "R1", ...
    std::string object;  // "public.orders.id", "public.orders", or "database NAME"
    std::string check;   // "key kind", "key default", "reference type", "unique", "values", "read"
    Verdict verdict = Verdict::passed;
    std::string expected, actual;             // what the rule wants, what the database has (failures, warnings)
    std::string message;                      // one line
    std::vector<std::string> examples;        // stored id values, or table names for R1
    std::string basis;                        // why this column is judged as it is ("declared ...", "guessed: ...")
    ErrorKind error_kind = ErrorKind::other;  // Verdict::error
    SourcePos pos;                            // the config line that declared it, when one did
};

// A column whose values the audit reads, with the kind to judge them by.
struct JudgedColumn {
    const Table* table = nullptr;
    const Column* column = nullptr;
    std::optional<ids::IdKind> kind;  // nullopt: judged by what it holds
    std::string basis;
    bool key = false;        // the table's one-column primary key
    bool reference = false;  // a foreign key column or a declared reference
    SourcePos pos;
    [[nodiscard]] std::string object() const { return table->qualified() + "." + column->name; }
};

struct Plan {
    std::vector<JudgedColumn> columns;
    std::vector<Finding> findings;  // columns said and skipped (unknown type), config names not found
};

// The columns to judge: declared ones, one-column keys, foreign key columns,
// uuid-typed and id-named ones (ids::data_id_named), in catalog order.
[[nodiscard]] Plan plan_columns(const Catalog& catalog, const Config& config);

// The schema checks: R1 over the tables' keys (R6 detail tables allowed),
// key defaults (DATA-ID-001 / DATA-ID-003 / R2), reference types, unique ids
// (DATA-ID-006).
[[nodiscard]] std::vector<Finding> schema_findings(const Catalog& catalog, const Config& config, const Plan& plan);

// One column's stored values, counted in bounded memory.
class ValueTally {
public:
    // `kind`: the column's declared (or inherited, guessed) kind; values
    // that are no id of it are counted (judged by ids::is_valid).
    ValueTally(TypeFamily family, std::optional<ids::IdKind> kind) : family_(family), kind_(kind) {}
    // v7 values whose unix_ts_ms lies after now_ms + skew_ms are in the
    // future (DATA-ID-001); without a clock (now_ms 0) that is not checked.
    void set_clock(std::int64_t now_ms, std::int64_t skew_ms) {
        now_ms_ = now_ms;
        skew_ms_ = skew_ms;
    }
    // uuidv8-legacy columns (the default layout): the salt that verifies
    // their hash bits (LEGACY-HASH); without one the hash is not checked.
    void set_legacy_salt(std::optional<std::string> salt, const ids::LegacyLayout& layout = {}) {
        salt_ = std::move(salt);
        layout_ = layout;
    }
    void add(const Value& v);
    // The verdicts on the values: DATA-ID-007 (dummies), and for UUIDs the
    // version check (DATA-ID-001 for a v7 kind, DATA-ID-003 otherwise), for
    // text DATA-ID-002 (non-canonical spellings) and R4 (ULID case).
    [[nodiscard]] std::vector<Finding> findings(const JudgedColumn& c) const;
    [[nodiscard]] std::uint64_t rows() const { return rows_; }

private:
    struct Examples {
        std::uint64_t count = 0;
        std::vector<std::string> kept;
        void add(std::string_view text);
    };
    void add_uuid(const ids::Uuid& u, std::string_view text);
    void legacy_findings(const JudgedColumn& c, const std::string& seen, std::vector<Finding>& out) const;
    void dummy_finding(const JudgedColumn& c, const std::string& seen, std::vector<Finding>& out) const;
    void version_findings(const JudgedColumn& c, const std::string& seen, std::vector<Finding>& out) const;
    TypeFamily family_;
    std::optional<ids::IdKind> kind_;
    std::int64_t now_ms_ = 0, skew_ms_ = 0;
    std::optional<std::string> salt_;
    ids::LegacyLayout layout_{};
    std::map<std::uint32_t, std::uint64_t> entity_types_;  // legacy: at most 2^15 entries
    std::uint64_t legacy_ok_ = 0;
    std::uint64_t rows_ = 0, nulls_ = 0;
    std::array<std::uint64_t, 16> versions_{};
    std::array<Examples, 16> version_examples_{};
    std::array<std::uint64_t, 4> variants_{};
    Examples nil_, max_, empty_, zero_, non_canonical_, ulid_upper_, ulid_lower_, other_, non_rfc_variant_, bad_kind_,
        future_, legacy_no_flag_, legacy_bad_hash_;
};

// DATA-ID-005 (advisory): a time column against the key's v7 timestamp,
// row by row. Equal on every row, to the microsecond: the time looks derived
// from the id. A clock read when the id was made shares its millisecond as
// a rule; only a derived time has nothing below it.
class TimeTally {
public:
    // row[0]: the id's 16 bytes, row[1]: the time as 8 big-endian bytes of µs.
    void add(const Value* row);
    [[nodiscard]] Finding finding(const JudgedColumn& key, const Column& time) const;

private:
    std::uint64_t compared_ = 0, equal_ = 0;
    std::vector<std::string> examples_;
};

}  // namespace idconform::db
