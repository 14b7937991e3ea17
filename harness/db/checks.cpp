// Which columns the audit judges, and the schema checks (checks.hpp).
#include "db/checks.hpp"

#include "ids/ids.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace idconform::db {

namespace {

std::string decl_basis(const DeclaredColumn& d) {
    return "declared " + std::string(ids::kind_name(d.kind)) + " (" + d.pos.str() + ")";
}

const ForeignKey* fk_of(const Table& t, std::string_view column, std::size_t* index = nullptr) {
    for (const auto& fk : t.foreign_keys)
        for (std::size_t i = 0; i < fk.columns.size(); ++i)
            if (fk.columns[i] == column) {
                if (index) *index = i;
                return &fk;
            }
    return nullptr;
}

// The kind a one-column key is judged by without a declaration: a uuid key
// is a technical id, and new technical ids are v7 (DATA-ID-001).
// Only a default that makes v7 says what an undeclared key must hold; any
// other key is judged by what it holds (a v4 key table is no violation until
// somebody declares it v7).
std::optional<ids::IdKind> guessed_key_kind(const Column& c) {
    if (c.family == TypeFamily::uuid && c.generator == Generator::uuid_v7) return ids::IdKind::uuidv7;
    return std::nullopt;
}

// The kind a key column is judged by (declared, else guessed) and why.
std::optional<ids::IdKind> key_kind(const Config& config, const Table& t, const Column& c, std::string* basis) {
    if (const auto* d = config.declared(t.schema, t.name, c.name)) {
        if (basis) *basis = decl_basis(*d);
        return d->kind;
    }
    const auto k = guessed_key_kind(c);
    if (basis) {
        *basis = k ? "guessed: DEFAULT " + c.default_expr + " makes version 7 UUIDs, so the key holds uuidv7"
                   : "guessed: the primary key, no kind declared: judged by what it holds (declare its kind in "
                     "--config to judge it as uuidv7, uuidv4, ...)";
    }
    return k;
}

Finding finding(std::string rule, std::string object, std::string check) {
    Finding f;
    f.rule = std::move(rule);
    f.object = std::move(object);
    f.check = std::move(check);
    return f;
}

// R1's kind of a table's key; "" for a key R6 allows (composite, natural).
struct KeyKind {
    std::string kind;    // "uuid", "ulid", "autoincrement", "integer", "text", "none"; "" for R6
    std::string detail;  // "composite key (a, b)", "natural key code text"
};

KeyKind key_kind_of(const Config& config, const Table& t) {
    if (t.primary_key.empty()) return {"none", "no primary key"};
    if (t.primary_key.size() > 1) {
        std::string cols;
        for (const auto& c : t.primary_key) cols += (cols.empty() ? "" : ", ") + c;
        return {"", "composite key (" + cols + ")"};
    }
    const Column* c = t.column(t.primary_key.front());
    if (c == nullptr) return {"none", "no primary key"};
    if (const auto* d = config.declared(t.schema, t.name, c->name)) {
        if (d->kind == ids::IdKind::ulid) return {"ulid", c->name + " " + c->type + " (declared ulid)"};
        if (ids::is_uuid_kind(d->kind)) return {"uuid", c->name + " " + c->type};
    }
    if (c->family == TypeFamily::uuid) return {"uuid", c->name + " " + c->type};
    if (c->generator == Generator::sequence || c->generator == Generator::identity)
        return {"autoincrement", c->name + " " + c->type + " (" + std::string(to_string(c->generator)) + ")"};
    if (!ids::id_named_field(c->name)) return {"", "natural key " + c->name + " " + c->type};
    if (c->family == TypeFamily::integer) return {"integer", c->name + " " + c->type + " (no generator)"};
    return {"text", c->name + " " + c->type};
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

void r1_findings(const Catalog& catalog, const Config& config, std::vector<Finding>& out) {
    std::map<std::string, std::vector<std::string>> by_kind;  // kind -> "table (key)"
    std::map<std::string, std::vector<std::string>> names;    // kind -> table
    for (const auto& t : catalog.tables) {
        const KeyKind k = key_kind_of(config, t);
        if (config.r1_exception(t.schema, t.name)) {
            Finding f = finding("R1", t.qualified(), "key kind");
            f.message = "an R1 exception (" + config.path + "): " + k.detail + ", kept as it is";
            f.basis = "declared in r1_exceptions";
            out.push_back(std::move(f));
            continue;
        }
        if (k.kind.empty()) {
            Finding f = finding("R6", t.qualified(), "key kind");
            f.message = k.detail + ": a detail table's key, allowed (R6)";
            out.push_back(std::move(f));
            continue;
        }
        if (k.kind == "none") {
            Finding f = finding("R1", t.qualified(), "key kind");
            f.verdict = Verdict::warning;
            f.expected = "a primary key";
            f.actual = "none";
            f.message = "no primary key: the table is not counted for R1";
            out.push_back(std::move(f));
            continue;
        }
        by_kind[k.kind].push_back(t.qualified() + " (" + k.detail + ")");
        names[k.kind].push_back(t.qualified());
    }
    Finding f = finding("R1", "database " + catalog.database, "key kinds");
    std::string kinds;
    for (const auto& [kind, tables] : by_kind)
        kinds += (kinds.empty() ? "" : "; ") + kind + " in " + plural(tables.size(), "table", "tables");
    if (by_kind.size() <= 1) {
        f.message = by_kind.empty() ? "no table with a generated key" : "one key kind: " + kinds;
        out.push_back(std::move(f));
        return;
    }
    // The tables that differ are those not of the most common kind (ties: the first kind by name).
    auto most = by_kind.begin();
    for (auto it = by_kind.begin(); it != by_kind.end(); ++it)
        if (it->second.size() > most->second.size()) most = it;
    f.verdict = Verdict::failed;
    f.expected = "one generated key kind across the tables (" + most->first + ", as most tables)";
    f.actual = kinds;
    std::string differ;
    for (const auto& [kind, tables] : by_kind) {
        if (kind == most->first) continue;
        for (const auto& t : tables) differ += (differ.empty() ? "" : ", ") + t;
        for (const auto& n : names[kind]) f.examples.push_back(n);
    }
    f.message = "key kinds differ: " + kinds + "; not " + most->first + ": " + differ;
    out.push_back(std::move(f));
}

// The key default check of a column judged as `kind`.
void default_finding(const Table& t, const Column& c, ids::IdKind kind, const std::string& basis, SourcePos pos,
                     std::vector<Finding>& out) {
    std::string rule;
    bool bad = false;
    const Generator g = c.generator;
    const bool makes_ids = g == Generator::uuid_v4 || g == Generator::uuid_v1 || g == Generator::uuid_v7 ||
                           g == Generator::sequence || g == Generator::identity;
    if (kind == ids::IdKind::uuidv7) {
        rule = "DATA-ID-001";
        bad = makes_ids && g != Generator::uuid_v7;
    } else if (kind == ids::IdKind::uuidv4) {
        rule = "DATA-ID-003";
        bad = makes_ids && g != Generator::uuid_v4;
    } else if (kind == ids::IdKind::ulid) {
        rule = "R2";
        bad = g != Generator::none;
    } else {
        return;  // other kinds: who makes the id is not a rule of theirs
    }
    Finding f = finding(rule, t.qualified() + "." + c.name, "key default");
    f.basis = basis;
    f.pos = std::move(pos);
    const std::string what = c.generator == Generator::identity ? "GENERATED AS IDENTITY" : "DEFAULT " + c.default_expr;
    if (bad) {
        f.verdict = Verdict::failed;
        f.expected = rule == "R2" ? "the application makes the id before the insert (no database default)"
                                  : "ids of " + std::string(ids::kind_name(kind)) + " (or no database default)";
        const std::string made = g == Generator::other ? "the id" : std::string(to_string(g));
        f.actual = what + ": the database makes " + made;
        f.message = g == Generator::other
                        ? what + ": the database makes the id, not the application"
                        : what + " makes " + made + " where the column holds " + std::string(ids::kind_name(kind));
    } else if (g == Generator::other) {
        f.verdict = Verdict::warning;
        f.expected = "no database default, or one idconform knows";
        f.actual = what;
        f.message = what + ": not a generator idconform knows; what it makes is judged by the stored values";
    } else {
        f.message = g == Generator::none ? "no database default: the application makes the id"
                                         : what + " makes " + std::string(to_string(g));
    }
    out.push_back(std::move(f));
}

// A uuid key of no declared kind whose default makes v4 or v1: no verdict on
// the key (nobody said it must be v7), but an auditor wants to see it.
void undeclared_default_finding(const Table& t, const Column& c, const std::string& basis, SourcePos pos,
                                std::vector<Finding>& out) {
    if (c.family != TypeFamily::uuid || (c.generator != Generator::uuid_v4 && c.generator != Generator::uuid_v1))
        return;
    Finding f = finding("DATA-ID-001", t.qualified() + "." + c.name, "key default");
    f.basis = basis;
    f.pos = std::move(pos);
    f.verdict = Verdict::warning;
    f.expected = "new technical ids of version 7, made by the application or a v7 default";
    f.actual = "DEFAULT " + c.default_expr + ": the database makes " + std::string(to_string(c.generator));
    f.message = "DEFAULT " + c.default_expr + " makes " + std::string(to_string(c.generator)) +
                "; no kind is declared for this key, so it is no failure: declare it in --config (uuidv7 to hold "
                "it to DATA-ID-001, uuidv4 or existing to accept it)";
    out.push_back(std::move(f));
}

void reference_type_finding(const Table& t, const Column& c, const Table& rt, const Column& rc, std::string how,
                            SourcePos pos, std::vector<Finding>& out) {
    Finding f = finding("DATA-ID-002", t.qualified() + "." + c.name, "reference type");
    f.basis = std::move(how);
    f.pos = std::move(pos);
    const std::string target = rt.qualified() + "." + rc.name;
    if (c.type != rc.type) {
        f.verdict = Verdict::failed;
        f.expected = "the type of " + target + " (" + rc.type + ")";
        f.actual = c.type;
        f.message = "a reference of type " + c.type + " to " + target + " of type " + rc.type +
                    ": the two can hold one id in different forms, or one cannot hold every id of the other";
    } else {
        f.message = "same type as " + target + " (" + c.type + ")";
    }
    out.push_back(std::move(f));
}

// Whether an undeclared id-named column is guessed to be its table's own id
// (so it must be unique): named id/uuid, or after the table ("product_id" in
// "product" or "products"), and no part of the key.
bool guessed_own_id(const Table& t, const Column& c) {
    if (!ids::data_id_named(c.name)) return false;
    for (const auto& k : t.primary_key)
        if (k == c.name) return false;  // a part of a composite key (R6)
    const std::string stem(ids::id_name_stem(c.name));
    return stem.empty() || t.name == stem || t.name == stem + "s" || t.name == stem + "es";
}

void unique_finding(const Table& t, const Column& c, std::string basis, SourcePos pos, std::vector<Finding>& out) {
    Finding f = finding("DATA-ID-006", t.qualified() + "." + c.name, "unique");
    f.basis = std::move(basis);
    f.pos = std::move(pos);
    if (t.key_is(c.name)) {
        f.message = "the primary key " + t.primary_key_name;
    } else if (const UniqueSet* u = t.unique_on(c.name)) {
        f.message = "unique by " + u->name + (u->partial ? " (a partial unique index: only the rows it covers)" : "");
    } else {
        f.verdict = Verdict::failed;
        f.expected = "a primary key or unique constraint on the column alone";
        f.actual = "none: two rows can hold one id";
        f.message = "no unique constraint: the database does not keep two entities from sharing one id";
    }
    out.push_back(std::move(f));
}

// Advisory: an id stored as text keeps any spelling unless a CHECK fixes its form.
void text_form_finding(const Table& t, const Column& c, std::string basis, SourcePos pos, std::vector<Finding>& out) {
    Finding f = finding("DATA-ID-002", t.qualified() + "." + c.name, "text form");
    f.basis = std::move(basis);
    f.pos = std::move(pos);
    if (const CheckConstraint* k = t.check_on(c.name)) {
        f.message = "its form is constrained by " + k->name + ": " + k->definition;
    } else {
        f.verdict = Verdict::warning;
        f.expected = "a CHECK constraint fixing the id's form (e.g. the kind's pattern), or a uuid column";
        f.actual = c.type + " without one";
        f.message = "an id stored as " + c.type +
                    " without a CHECK constraint on its form: nothing keeps other "
                    "spellings out (advisory)";
    }
    out.push_back(std::move(f));
}

}  // namespace

Plan plan_columns(const Catalog& catalog, const Config& config) {
    Plan plan;
    for (const auto& t : catalog.tables) {
        for (const auto& c : t.columns) {
            JudgedColumn j;
            j.table = &t;
            j.column = &c;
            j.key = t.key_is(c.name);
            std::size_t fk_index = 0;
            const ForeignKey* fk = fk_of(t, c.name, &fk_index);
            const DeclaredColumn* d = config.declared(t.schema, t.name, c.name);
            j.reference = fk != nullptr || (d && d->references);
            if (d) {
                j.kind = d->kind;
                j.basis = decl_basis(*d);
                j.pos = d->pos;
            } else if (j.key) {
                j.kind = key_kind(config, t, c, &j.basis);
            } else if (fk) {
                j.basis = "guessed: a foreign key (" + fk->name + ") to " + fk->ref_schema + "." + fk->ref_table;
                const Table* rt = catalog.table(fk->ref_schema, fk->ref_table);
                const Column* rc = rt ? rt->column(fk->ref_columns[fk_index]) : nullptr;
                if (rt && rc && rt->key_is(rc->name)) {
                    std::string key_basis;
                    j.kind = key_kind(config, *rt, *rc, &key_basis);
                    if (j.kind)
                        j.basis +=
                            ", judged as its key " + rc->name + " (" + std::string(ids::kind_name(*j.kind)) + ")";
                }
            } else if (c.family == TypeFamily::uuid) {
                j.basis = "guessed: uuid-typed, judged by what it holds";
            } else if (ids::data_id_named(c.name)) {
                j.basis = "guessed: named like an id, judged by what it holds";
            } else {
                continue;
            }
            if (c.family == TypeFamily::unknown || c.family == TypeFamily::time) {
                Finding f;
                f.object = j.object();
                f.check = "values";
                f.verdict = Verdict::skipped;
                f.basis = j.basis;
                f.pos = j.pos;
                f.message = "type " + c.type +
                            " is not one idconform db reads (uuid, text, varchar, char, smallint, "
                            "integer, bigint): its values are not judged";
                plan.findings.push_back(std::move(f));
                continue;
            }
            plan.columns.push_back(std::move(j));
        }
    }
    for (const auto& d : config.columns) {
        bool found = false;
        for (const auto& t : catalog.tables)
            if (t.column(d.name.column) && d.name.matches(t.schema, t.name, d.name.column)) found = true;
        if (found) continue;
        // A mistake when the whole database was audited; with schemas chosen,
        // the column may be in another one (one config for several audits).
        Finding f;
        f.object = d.name.text();
        f.check = "declared column";
        f.verdict = config.schemas.empty() ? Verdict::error : Verdict::skipped;
        f.pos = d.pos;
        f.message = d.declared_by + " declares " + d.name.text() + ", which is not a column of the audited " +
                    (config.schemas.empty() ? "database" : "schemas: not checked");
        plan.findings.push_back(std::move(f));
    }
    return plan;
}

std::vector<Finding> schema_findings(const Catalog& catalog, const Config& config, const Plan& plan) {
    std::vector<Finding> out;
    r1_findings(catalog, config, out);
    for (const auto& j : plan.columns) {
        const Table& t = *j.table;
        const Column& c = *j.column;
        if ((j.key || (!j.reference && config.declared(t.schema, t.name, c.name))) && j.kind)
            default_finding(t, c, *j.kind, j.basis, j.pos, out);
        else if (j.key && !j.kind)
            undeclared_default_finding(t, c, j.basis, j.pos, out);
        // reference types: foreign keys, then declared references
        std::size_t i = 0;
        if (const ForeignKey* fk = fk_of(t, c.name, &i)) {
            const Table* rt = catalog.table(fk->ref_schema, fk->ref_table);
            if (const Column* rc = rt ? rt->column(fk->ref_columns[i]) : nullptr)
                reference_type_finding(t, c, *rt, *rc, "foreign key " + fk->name, j.pos, out);
        } else if (const auto* d = config.declared(t.schema, t.name, c.name); d && d->references) {
            const Table* rt = nullptr;
            for (const auto& cand : catalog.tables)
                if (d->references->matches(cand.schema, cand.name, d->references->column) &&
                    cand.column(d->references->column))
                    rt = &cand;
            if (rt) {
                reference_type_finding(t, c, *rt, *rt->column(d->references->column), decl_basis(*d), j.pos, out);
            } else {
                Finding f = finding("DATA-ID-002", j.object(), "reference type");
                f.verdict = Verdict::error;
                f.pos = j.pos;
                f.message = "the config says it references " + d->references->text() + ", which is not a column";
                out.push_back(std::move(f));
            }
        }
        if (c.family == TypeFamily::text) text_form_finding(t, c, j.basis, j.pos, out);
        // unique: keys, declared ids that are not references, guessed own ids
        const DeclaredColumn* d = config.declared(t.schema, t.name, c.name);
        if (j.key) unique_finding(t, c, j.basis, j.pos, out);
        else if (d && !d->references && !j.reference) unique_finding(t, c, j.basis, j.pos, out);
        else if (!d && !j.reference && guessed_own_id(t, c))
            unique_finding(t, c, "guessed: named as the table's own id (" + c.name + ")", j.pos, out);
    }
    return out;
}

}  // namespace idconform::db
