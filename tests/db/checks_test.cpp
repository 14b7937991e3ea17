// The schema checks and the column plan on hand-made catalogs, and the
// audit over a fake reader (checks.hpp, audit.hpp).
#include "db/audit.hpp"
#include "db/checks.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

using namespace idconform;
using namespace idconform::db;

namespace {

Column col(std::string name, std::string type, TypeFamily f, std::string def = "") {
    Column c;
    c.name = std::move(name);
    c.type = std::move(type);
    c.family = f;
    c.default_expr = std::move(def);
    c.generator = generator_of_default(c.default_expr);
    return c;
}
Column uuid_col(std::string name, std::string def = "") {
    return col(std::move(name), "uuid", TypeFamily::uuid, std::move(def));
}

Table table(std::string name, std::vector<Column> cols, std::vector<std::string> pk) {
    Table t;
    t.schema = "app";
    t.name = std::move(name);
    t.columns = std::move(cols);
    t.primary_key = std::move(pk);
    t.primary_key_name = t.name + "_pkey";
    return t;
}

const Finding* find(const std::vector<Finding>& fs, std::string_view object, std::string_view check) {
    for (const auto& f : fs)
        if (f.object == object && f.check == check) return &f;
    return nullptr;
}

std::vector<std::string> failed_rules(const std::vector<Finding>& fs) {
    std::vector<std::string> out;
    for (const auto& f : fs)
        if (f.verdict == Verdict::failed) out.push_back(f.rule);
    return out;
}

std::vector<Finding> schema(const Catalog& c, const Config& cfg = {}) {
    const Plan p = plan_columns(c, cfg);
    return schema_findings(c, cfg, p);
}

}  // namespace

TEST_CASE("generator_of_default knows the uuid functions, sequences and schema-qualified names") {
    CHECK(generator_of_default("") == Generator::none);
    CHECK(generator_of_default("gen_random_uuid()") == Generator::uuid_v4);
    CHECK(generator_of_default("public.uuid_generate_v4()") == Generator::uuid_v4);
    CHECK(generator_of_default("uuid_generate_v1mc()") == Generator::uuid_v1);
    CHECK(generator_of_default("uuidv7()") == Generator::uuid_v7);
    CHECK(generator_of_default("fx.uuid_generate_v7()") == Generator::uuid_v7);
    CHECK(generator_of_default("uuidv4()") == Generator::uuid_v4);
    CHECK(generator_of_default("nextval('orders_id_seq'::regclass)") == Generator::sequence);
    CHECK(generator_of_default("app.make_id()") == Generator::other);
    CHECK(generator_of_default("'x'::text") == Generator::other);
}

TEST_CASE("a conforming catalog has no failed schema check, and a composite key is R6") {
    Catalog c;
    c.database = "shop";
    c.tables.push_back(table("customers", {uuid_col("id")}, {"id"}));
    Table orders = table("orders", {uuid_col("id"), uuid_col("customer_id")}, {"id"});
    orders.foreign_keys.push_back({"orders_customer_fk", {"customer_id"}, "app", "customers", {"id"}});
    c.tables.push_back(orders);
    Table lines = table("order_lines", {uuid_col("order_id"), col("line_no", "integer", TypeFamily::integer)},
                        {"order_id", "line_no"});
    c.tables.push_back(lines);
    const auto fs = schema(c);
    CHECK(failed_rules(fs).empty());
    const Finding* r6 = find(fs, "app.order_lines", "key kind");
    REQUIRE(r6);
    CHECK(r6->rule == "R6");
    CHECK(r6->message == "composite key (order_id, line_no): a detail table's key, allowed (R6)");
    const Finding* r1 = find(fs, "database shop", "key kinds");
    REQUIRE(r1);
    CHECK(r1->message == "one key kind: uuid in 2 tables");
    const Finding* ref = find(fs, "app.orders.customer_id", "reference type");
    REQUIRE(ref);
    CHECK(ref->verdict == Verdict::passed);
}

TEST_CASE("R1 names the tables whose key kind differs from most") {
    Catalog c;
    c.database = "shop";
    c.tables.push_back(table("a", {uuid_col("id")}, {"id"}));
    c.tables.push_back(table("b", {uuid_col("id")}, {"id"}));
    c.tables.push_back(table("legacy", {col("id", "bigint", TypeFamily::integer, "nextval('s'::regclass)")}, {"id"}));
    auto fs = schema(c);
    CHECK(failed_rules(fs) == std::vector<std::string>{"R1"});
    const Finding* r1 = find(fs, "database shop", "key kinds");
    REQUIRE(r1);
    CHECK(r1->examples == std::vector<std::string>{"app.legacy"});
    CHECK(r1->actual == "autoincrement in 1 table; uuid in 2 tables");
    // an R1 exception of the config is said and not counted
    Config cfg;
    cfg.path = "db.yaml";
    cfg.r1_exceptions = {"app.legacy"};
    fs = schema(c, cfg);
    CHECK(failed_rules(fs).empty());
    REQUIRE(find(fs, "app.legacy", "key kind"));
    CHECK(find(fs, "app.legacy", "key kind")->message.starts_with("an R1 exception (db.yaml)"));
}

TEST_CASE("key defaults: v4 where v7 is declared or defaulted, v1 where v4 is declared, any default of a ULID key") {
    Catalog c;
    c.database = "d";
    c.tables.push_back(table("t", {uuid_col("id", "gen_random_uuid()")}, {"id"}));
    // no kind declared: a v4 default is said as a warning, never a failure
    auto fs = schema(c);
    CHECK(failed_rules(fs).empty());
    const Finding* f = find(fs, "app.t.id", "key default");
    REQUIRE(f);
    CHECK(f->verdict == Verdict::warning);
    CHECK(f->rule == "DATA-ID-001");
    CHECK(f->basis.starts_with("guessed: the primary key, no kind declared: judged by what it holds"));
    CHECK(f->message.starts_with("DEFAULT gen_random_uuid() makes version 4 UUIDs; no kind is declared"));
    // declared v7: the same default fails
    Config v7;
    v7.columns.push_back({{"", "t", "id"}, ids::IdKind::uuidv7, std::nullopt, {"db.yaml", 2, 3}});
    fs = schema(c, v7);
    CHECK(failed_rules(fs) == std::vector<std::string>{"DATA-ID-001"});
    CHECK(find(fs, "app.t.id", "key default")->message ==
          "DEFAULT gen_random_uuid() makes version 4 UUIDs where the column holds uuidv7");
    // a v7 default makes the key a v7 one without a declaration, and is right
    c.tables[0].columns[0] = uuid_col("id", "uuidv7()");
    fs = schema(c);
    CHECK(failed_rules(fs).empty());
    REQUIRE(find(fs, "app.t.id", "key default"));
    CHECK(find(fs, "app.t.id", "key default")->verdict == Verdict::passed);
    CHECK(find(fs, "app.t.id", "key default")->basis ==
          "guessed: DEFAULT uuidv7() makes version 7 UUIDs, so the key holds uuidv7");
    CHECK(plan_columns(c, {}).columns.front().kind == ids::IdKind::uuidv7);
    c.tables[0].columns[0] = uuid_col("id", "public.uuid_generate_v7()");
    CHECK(plan_columns(c, {}).columns.front().kind == ids::IdKind::uuidv7);
    c.tables[0].columns[0] = uuid_col("id");  // no default, no declaration: no kind, no default finding
    CHECK(!plan_columns(c, {}).columns.front().kind);
    CHECK(!find(schema(c), "app.t.id", "key default"));
    c.tables[0].columns[0] = uuid_col("id", "gen_random_uuid()");

    Config v4;
    v4.columns.push_back({{"", "t", "id"}, ids::IdKind::uuidv4, std::nullopt, {"db.yaml", 3, 3}});
    CHECK(failed_rules(schema(c, v4)).empty());  // gen_random_uuid() makes v4: right
    c.tables[0].columns[0] = uuid_col("id", "uuid_generate_v1()");
    CHECK(failed_rules(schema(c, v4)) == std::vector<std::string>{"DATA-ID-003"});

    Catalog u;
    u.database = "d";
    u.tables.push_back(table("tickets", {col("id", "text", TypeFamily::text, "app.new_ulid()")}, {"id"}));
    Config ulid;
    ulid.columns.push_back({{"", "tickets", "id"}, ids::IdKind::ulid, std::nullopt, {"db.yaml", 2, 3}});
    fs = schema(u, ulid);
    CHECK(failed_rules(fs) == std::vector<std::string>{"R2"});
    CHECK(find(fs, "app.tickets.id", "key default")->pos.str() == "db.yaml:2:3");
    u.tables[0].columns[0] = col("id", "text", TypeFamily::text);
    CHECK(failed_rules(schema(u, ulid)).empty());
}

TEST_CASE("reference types and unique ids") {
    Catalog c;
    c.database = "d";
    c.tables.push_back(
        table("customers", {col("id", "bigint", TypeFamily::integer, "nextval('s'::regclass)")}, {"id"}));
    Table o = table("orders",
                    {col("id", "bigint", TypeFamily::integer, "nextval('t'::regclass)"),
                     col("customer_id", "integer", TypeFamily::integer)},
                    {"id"});
    o.foreign_keys.push_back({"orders_customer_fk", {"customer_id"}, "app", "customers", {"id"}});
    c.tables.push_back(o);
    auto fs = schema(c);
    CHECK(failed_rules(fs) == std::vector<std::string>{"DATA-ID-002"});
    CHECK(find(fs, "app.orders.customer_id", "reference type")->expected == "the type of app.customers.id (bigint)");

    Catalog p;
    p.database = "d";
    p.tables.push_back(
        table("products", {col("sku", "text", TypeFamily::text), uuid_col("id"), uuid_col("owner_id")}, {"sku"}));
    fs = schema(p);
    CHECK(failed_rules(fs) == std::vector<std::string>{"DATA-ID-006"});  // owner_id is no own id: not judged
    p.tables[0].uniques.push_back({"products_id_key", {"id"}, false});
    CHECK(failed_rules(schema(p)).empty());
    // a declared viewable id must be unique as well
    p.tables[0].columns.push_back(col("code", "text", TypeFamily::text));
    Config cfg;
    cfg.columns.push_back({{"app", "products", "code"}, ids::IdKind::viewable, std::nullopt, {"db.yaml", 2, 3}});
    CHECK(failed_rules(schema(p, cfg)) == std::vector<std::string>{"DATA-ID-006"});
}

TEST_CASE("the plan: keys, references with their key's kind, uuid-typed and id-named columns, each guess said") {
    Catalog c;
    c.database = "d";
    c.tables.push_back(table("customers", {uuid_col("id"), col("name", "text", TypeFamily::text)}, {"id"}));
    Table o = table("orders",
                    {uuid_col("id"), uuid_col("customer_id"), col("request_id", "text", TypeFamily::text),
                     col("legacy_id", "numeric", TypeFamily::unknown), uuid_col("token")},
                    {"id"});
    o.foreign_keys.push_back({"fk", {"customer_id"}, "app", "customers", {"id"}});
    c.tables.push_back(o);
    const Plan p = plan_columns(c, {});
    std::map<std::string, const JudgedColumn*> by;
    for (const auto& j : p.columns) by[j.object()] = &j;
    CHECK(by.size() == 4);  // customers.id, orders.id, orders.customer_id, orders.token
    REQUIRE(by.count("app.orders.customer_id"));
    CHECK(!by["app.orders.customer_id"]->kind);  // its key has no kind: judged by what it holds
    CHECK(by["app.orders.customer_id"]->basis == "guessed: a foreign key (fk) to app.customers");
    c.tables[0].columns[0] = uuid_col("id", "uuidv7()");  // a v7 default gives the key, and its references, a kind
    const Plan p7 = plan_columns(c, {});
    const auto ref = std::find_if(p7.columns.begin(), p7.columns.end(),
                                  [](const JudgedColumn& j) { return j.object() == "app.orders.customer_id"; });
    REQUIRE(ref != p7.columns.end());
    CHECK(ref->kind == ids::IdKind::uuidv7);
    CHECK(ref->basis == "guessed: a foreign key (fk) to app.customers, judged as its key id (uuidv7)");
    CHECK(by["app.orders.token"]->basis == "guessed: uuid-typed, judged by what it holds");
    CHECK(!by.count("app.orders.request_id"));  // out of the data-id scope
    REQUIRE(p.findings.size() == 1);
    CHECK(p.findings[0].verdict == Verdict::skipped);
    CHECK(p.findings[0].object == "app.orders.legacy_id");
}

namespace {

// A reader of a fixed catalog whose columns give fixed values or errors.
class FakeReader final : public CatalogReader {
public:
    Catalog catalog;
    std::map<std::string, std::vector<std::string>> values;  // object -> values ("\\N" = null)
    std::map<std::string, ReadError> errors;
    std::optional<ReadError> read_catalog(const std::vector<std::string>&, Catalog& out) override {
        out = catalog;
        return std::nullopt;
    }
    std::optional<ReadError> stream_column(const Table& t, const Column& c, std::uint64_t max_rows,
                                           const ValueSink& sink) override {
        const std::string object = t.qualified() + "." + c.name;
        if (auto it = errors.find(object); it != errors.end()) return it->second;
        std::uint64_t n = 0;
        for (const auto& v : values[object]) {
            if (max_rows && n++ >= max_rows) break;
            if (v == "\\N") sink(Value{{}, true});
            else if (c.family == TypeFamily::uuid) {
                const auto u = ids::parse_canonical(v);
                sink(Value{std::string_view(reinterpret_cast<const char*>(u->bytes.data()), 16), false});
            } else sink(Value{v, false});
        }
        return std::nullopt;
    }
    std::map<std::string, std::vector<std::int64_t>> times;  // time column object -> µs per row (key order)
    std::optional<ReadError> stream_times(const Table& t, const Column& id, const Column& time, std::uint64_t,
                                          const RowSink& sink) override {
        const auto& ids_ = values[t.qualified() + "." + id.name];
        const auto& us = times[t.qualified() + "." + time.name];
        for (std::size_t i = 0; i < ids_.size() && i < us.size(); ++i) {
            const auto u = ids::parse_canonical(ids_[i]);
            char be[8];
            for (int b = 0; b < 8; ++b) be[b] = static_cast<char>(static_cast<std::uint64_t>(us[i]) >> (56 - 8 * b));
            const Value row[2] = {Value{std::string_view(reinterpret_cast<const char*>(u->bytes.data()), 16), false},
                                  Value{std::string_view(be, 8), false}};
            sink(row, 2);
        }
        return std::nullopt;
    }
    std::optional<ReadError> duplicates(const Table& t, const Column& c, Duplicates& out) override {
        std::map<std::string, int> seen;
        for (const auto& v : values[t.qualified() + "." + c.name])
            if (v != "\\N" && ++seen[v] == 2) {
                ++out.values;
                out.examples.push_back(v);
            }
        return std::nullopt;
    }
};

}  // namespace

TEST_CASE("the audit goes on past a vanished table and stops at a lost connection") {
    FakeReader r;
    r.catalog.database = "d";
    r.catalog.tables.push_back(table("a", {uuid_col("id")}, {"id"}));
    r.catalog.tables.push_back(table("b", {uuid_col("id")}, {"id"}));
    r.catalog.tables.push_back(table("c", {uuid_col("id")}, {"id"}));
    r.values["app.a.id"] = {"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "919108f7-52d1-4320-9bac-f847db4148a8"};
    r.errors["app.b.id"] = {ErrorKind::vanished, "reading app.b.id: relation \"app.b\" does not exist"};
    Config v7;  // a.id declared v7, so its v4 value fails DATA-ID-001
    v7.columns.push_back({{"", "a", "id"}, ids::IdKind::uuidv7, std::nullopt, {"db.yaml", 2, 3}});
    AuditOutcome a = audit(r, v7, {});
    CHECK(!a.fatal);
    CHECK(a.columns_read == 2);
    const Finding* gone = find(a.findings, "app.b.id", "values");
    REQUIRE(gone);
    CHECK(gone->verdict == Verdict::error);
    CHECK(case_of(*gone, "db d").error_cause == ErrorCause::transport);
    const Finding* v = nullptr;
    for (const auto& f : a.findings)
        if (f.object == "app.a.id" && f.rule == "DATA-ID-001" && f.check == "values") v = &f;
    REQUIRE(v);
    CHECK(v->verdict == Verdict::failed);
    CHECK(v->examples == std::vector<std::string>{"919108f7-52d1-4320-9bac-f847db4148a8"});

    r.errors["app.b.id"] = {ErrorKind::unreachable, "server closed the connection unexpectedly"};
    a = audit(r, {}, {});
    REQUIRE(a.fatal);
    CHECK(a.fatal->kind == ErrorKind::unreachable);
    CHECK(a.columns_read == 1);  // c is not read
}

TEST_CASE("a finding's case: name, classname, rule, evidence with examples") {
    Finding f;
    f.rule = "DATA-ID-007";
    f.object = "app.t.owner_id";
    f.check = "values";
    f.verdict = Verdict::failed;
    f.expected = "an id, or null for absence";
    f.actual = "Nil UUID 1";
    f.message = "1 dummy value in 3 values: Nil UUID 1";
    f.examples = {"00000000-0000-0000-0000-000000000000"};
    f.basis = "guessed: uuid-typed, judged by what it holds";
    const CaseResult c = case_of(f, "db shop");
    CHECK(c.name == "app.t.owner_id values [DATA-ID-007]");
    CHECK(c.classname == "db.app.t.owner_id.DATA-ID-007");
    CHECK(c.outcome == Outcome::failed);
    REQUIRE(c.steps.size() == 1);
    REQUIRE(c.steps[0].checks.size() == 1);
    CHECK(c.steps[0].checks[0].actual == "Nil UUID 1 (e.g. 00000000-0000-0000-0000-000000000000)");
    CHECK(finding_line(f) ==
          "app.t.owner_id: DATA-ID-007: 1 dummy value in 3 values: Nil UUID 1 (e.g. "
          "00000000-0000-0000-0000-000000000000) [guessed: uuid-typed, judged by what it holds]");
}

TEST_CASE("an id stored as text without a CHECK on its form is an advisory warning") {
    Catalog c;
    c.database = "d";
    c.tables.push_back(table("tickets", {col("id", "text", TypeFamily::text)}, {"id"}));
    auto fs = schema(c);
    CHECK(failed_rules(fs).empty());
    const Finding* f = find(fs, "app.tickets.id", "text form");
    REQUIRE(f);
    CHECK(f->verdict == Verdict::warning);
    CHECK(f->rule == "DATA-ID-002");
    c.tables[0].checks.push_back({"tickets_id_check", {"id"}, "CHECK ((id ~ '^[0-9a-z]{26}$'::text))"});
    fs = schema(c);
    f = find(fs, "app.tickets.id", "text form");
    REQUIRE(f);
    CHECK(f->verdict == Verdict::passed);
    CHECK(f->message == "its form is constrained by tickets_id_check: CHECK ((id ~ '^[0-9a-z]{26}$'::text))");
    CHECK(find(schema(c), "app.tickets.id", "text form") != nullptr);
    // a uuid column needs none
    c.tables[0].columns[0] = uuid_col("id");
    CHECK(find(schema(c), "app.tickets.id", "text form") == nullptr);
}

TEST_CASE("an id without a unique constraint: the duplicates the database holds are counted") {
    FakeReader r;
    r.catalog.database = "d";
    r.catalog.tables.push_back(table("products", {col("sku", "text", TypeFamily::text), uuid_col("id")}, {"sku"}));
    const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
    r.values["app.products.id"] = {v7, v7, "017f22e2-79b0-7cc3-98c4-dc0c0c07398e"};
    AuditOutcome a = audit(r, {}, {});
    const Finding* d = find(a.findings, "app.products.id", "duplicates");
    REQUIRE(d);
    CHECK(d->rule == "DATA-ID-006");
    CHECK(d->verdict == Verdict::failed);
    CHECK(d->message == "1 value held by more than one row");
    CHECK(d->examples == std::vector<std::string>{v7});
    r.values["app.products.id"] = {v7};
    a = audit(r, {}, {});
    d = find(a.findings, "app.products.id", "duplicates");
    REQUIRE(d);
    CHECK(d->verdict == Verdict::passed);
}

TEST_CASE("DATA-ID-005: a time column equal to the key's v7 timestamp on every row is a warning") {
    FakeReader r;
    r.catalog.database = "d";
    r.catalog.tables.push_back(
        table("orders", {uuid_col("id"), col("created_at", "timestamp with time zone", TypeFamily::time)}, {"id"}));
    // the RFC vector's time: 1645557742000 ms
    r.values["app.orders.id"] = {"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "017f22e2-79b0-7cc3-98c4-dc0c0c07398e"};
    r.times["app.orders.created_at"] = {1645557742000000, 1645557742000000};
    AuditOutcome a = audit(r, {}, {});
    const Finding* f = find(a.findings, "app.orders.created_at", "time from id");
    REQUIRE(f);
    CHECK(f->verdict == Verdict::warning);
    CHECK(f->message == "created_at is equal to the v7 timestamp of id on every one of 2 rows: derived from the id?");
    CHECK(case_of(*f, "db d").outcome == Outcome::passed);  // a warning never fails
    r.times["app.orders.created_at"] = {1645557742000000, 1645557742123000};
    a = audit(r, {}, {});
    f = find(a.findings, "app.orders.created_at", "time from id");
    REQUIRE(f);
    CHECK(f->verdict == Verdict::passed);
    CHECK(f->message == "1 of 2 rows with a v7 key equal to id's timestamp");
    // a clock read when the id was made: the same millisecond, with microseconds below it
    r.times["app.orders.created_at"] = {1645557742000417, 1645557742000981};
    a = audit(r, {}, {});
    f = find(a.findings, "app.orders.created_at", "time from id");
    REQUIRE(f);
    CHECK(f->verdict == Verdict::passed);
    CHECK(f->message == "0 of 2 rows with a v7 key equal to id's timestamp");
    // a time column is no id: not in the plan
    for (const auto& j : plan_columns(r.catalog, {}).columns) CHECK(j.column->name != "created_at");
}
