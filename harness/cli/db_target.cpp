// The db config columns of a target profile (db_target.hpp).
#include "cli/db_target.hpp"

namespace idconform::cli {

namespace {

db::ColumnName column(const profile::Resource::StoredIn& st, const std::string& pointer) {
    return db::ColumnName{st.schema, st.table, st.column_of(pointer)};
}

const profile::Resource* find(const profile::Profile& p, const std::string& name) {
    for (const auto& r : p.resources)
        if (r.name == name) return &r;
    return nullptr;
}

void add(TargetColumns& out, db::ColumnName name, ids::IdKind kind, const SourcePos& pos,
         std::optional<db::ColumnName> references = std::nullopt) {
    if (name.column.empty()) return;  // an id without a pointer (a header only): no column to name
    db::DeclaredColumn d;
    d.name = std::move(name);
    d.kind = kind;
    d.references = std::move(references);
    d.pos = pos;
    d.declared_by = "the target profile";
    out.columns.push_back(std::move(d));
}

}  // namespace

TargetColumns db_columns_of(const profile::Profile& p) {
    TargetColumns out;
    std::string unstored;
    for (const auto& r : p.resources) {
        if (!r.stored_in) {
            unstored += (unstored.empty() ? "" : ", ") + r.name;
            continue;
        }
        const auto& st = *r.stored_in;
        add(out, column(st, r.id.pointer), r.id.kind, r.id.pos);
        for (const auto& f : r.fields) add(out, column(st, f.pointer), f.kind, f.pos);
        if (r.viewable) add(out, column(st, r.viewable->pointer), ids::IdKind::viewable, r.viewable->pos);
        for (const auto& ref : r.references) {
            const profile::Resource* to = find(p, ref.resource);
            const ids::IdKind kind = ref.kind_written || to == nullptr ? ref.kind : to->id.kind;
            std::optional<db::ColumnName> key;
            if (to != nullptr && to->stored_in && !to->stored_in->column_of(to->id.pointer).empty())
                key = column(*to->stored_in, to->id.pointer);
            else
                out.notes.push_back("the target profile names no table of '" + ref.resource + "', so " + st.table +
                                    "." + st.column_of(ref.answer_at()) + " is judged as " +
                                    std::string(ids::kind_name(kind)) + " without the key it references (" +
                                    ref.pos.str() + ")");
            add(out, column(st, ref.answer_at()), kind, ref.pos, key);
        }
    }
    if (!unstored.empty())
        out.notes.push_back("resources without stored_in: in the target profile, not declared to the audit: " +
                            unstored);
    return out;
}

std::size_t add_declared(db::Config& config, const std::vector<db::DeclaredColumn>& from) {
    std::size_t n = 0;
    for (const auto& d : from) {
        const auto& c = d.name;
        bool declared = false;
        for (const auto& have : config.columns)
            if (have.name.table == c.table && have.name.column == c.column &&
                (have.name.schema.empty() || c.schema.empty() || have.name.schema == c.schema))
                declared = true;
        if (declared) continue;
        config.columns.push_back(d);
        ++n;
    }
    return n;
}

}  // namespace idconform::cli
