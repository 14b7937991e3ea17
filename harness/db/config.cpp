// Reading the YAML file of `idconform db --config` (config.hpp).
#include "db/config.hpp"

#include "suite/input_guard.hpp"
#include "suite/yaml_reader.hpp"

#include <exception>

namespace idconform::db {

namespace detail = suite::detail;

namespace {

const std::vector<std::string> top_keys = {"schemas", "columns", "r1_exceptions", "legacy_layout"};
const std::vector<std::string> column_keys = {"kind", "references"};
constexpr std::string_view example =
    "schemas: [public]\ncolumns:\n  orders.id: uuidv7\n  orders.customer_id: {kind: uuidv7, references: customers.id}\n"
    "r1_exceptions: [legacy_users]";

// "t.c" or "s.t.c", every part non-empty.
std::optional<ColumnName> column_name(std::string_view text) {
    std::vector<std::string> parts;
    std::size_t i = 0;
    while (true) {
        const std::size_t dot = text.find('.', i);
        parts.emplace_back(text.substr(i, dot == std::string_view::npos ? std::string_view::npos : dot - i));
        if (dot == std::string_view::npos) break;
        i = dot + 1;
    }
    for (const auto& p : parts)
        if (p.empty()) return std::nullopt;
    if (parts.size() == 2) return ColumnName{"", parts[0], parts[1]};
    if (parts.size() == 3) return ColumnName{parts[0], parts[1], parts[2]};
    return std::nullopt;
}

class Loader {
public:
    Loader(const detail::SourceText& src, std::vector<Diagnostic>& out) : r_(src, out), out_(&out) {}

    std::optional<Config> load(const std::string& text) {
        auto root = detail::parse_document(r_, text, "db config", "a mapping, e.g.\n" + std::string(example));
        if (!root) return std::nullopt;
        auto top = r_.mapping({*root, root->Mark()}, "db config", top_keys, example);
        if (!top) return std::nullopt;
        Config c;
        c.path = r_.source().path;
        if (const auto* e = top->find("schemas")) {
            if (auto s = r_.strings(e->val(), "schemas", "schemas: [public, billing]")) c.schemas = std::move(*s);
        }
        if (const auto* e = top->find("r1_exceptions")) {
            if (auto items = r_.sequence(e->val(), "r1_exceptions", "r1_exceptions: [legacy_users]"))
                for (const auto& item : *items)
                    if (auto s = r_.string(item, "r1_exceptions", "r1_exceptions: [legacy_users]")) {
                        if (s->empty() || s->find('.') != s->rfind('.') || s->front() == '.' || s->back() == '.') {
                            r_.error(item, "'" + *s + "' is not a table name", "write table or schema.table");
                            continue;
                        }
                        c.r1_exceptions.push_back(std::move(*s));
                        c.r1_exception_pos.push_back(r_.pos(item));
                    }
        }
        if (const auto* e = top->find("columns")) columns(e->val(), c);
        if (const auto* e = top->find("legacy_layout")) {
            const std::string example_layout = "legacy_layout: \"" + ids::format_layout(ids::LegacyLayout{}) + "\"";
            if (auto s = r_.string(e->val(), "legacy_layout", example_layout)) {
                std::string why;
                if (auto l = ids::parse_layout(*s, &why)) c.legacy_layout = *l;
                else r_.error(e->val(), "legacy_layout: " + why, "the default is " + example_layout);
            }
        }
        if (!out_->empty()) return std::nullopt;
        return c;
    }

private:
    void columns(const detail::Val& v, Config& c) {
        auto m = r_.mapping(v, "columns", {}, "columns:\n  orders.id: uuidv7");
        if (!m) return;
        for (const auto& e : m->entries) {
            const auto name = column_name(e.key);
            if (!name) {
                r_.error(e.key_val(), "'" + e.key + "' is not a column name",
                         "write table.column or schema.table.column, e.g. orders.id: uuidv7");
                continue;
            }
            DeclaredColumn d;
            d.name = *name;
            d.pos = r_.pos(e.key_val());
            const detail::Val val = e.val();
            if (val.node.IsMap()) {
                auto cm = r_.mapping(val, "column", column_keys,
                                     "orders.customer_id: {kind: uuidv7, references: customers.id}");
                if (!cm) continue;
                const auto* k = cm->find("kind");
                if (k == nullptr) {
                    r_.error(val, "column '" + e.key + "' without 'kind'",
                             "e.g. {kind: uuidv7, references: customers.id}");
                    continue;
                }
                if (!kind(k->val(), d)) continue;
                if (const auto* ref = cm->find("references")) {
                    auto s = r_.string(ref->val(), "references", "references: customers.id");
                    if (!s) continue;
                    const auto rn = column_name(*s);
                    if (!rn) {
                        r_.error(ref->val(), "'" + *s + "' is not a column name",
                                 "write table.column or schema.table.column");
                        continue;
                    }
                    d.references = *rn;
                }
            } else if (!kind(val, d)) {
                continue;
            }
            c.columns.push_back(std::move(d));
        }
    }

    bool kind(const detail::Val& v, DeclaredColumn& d) {
        auto s = r_.string(v, "kind", "uuidv7");
        if (!s) return false;
        const auto k = ids::parse_kind(*s);
        if (!k) {
            std::string hint = "kinds: " + ids::kind_list();
            if (const std::string near = did_you_mean(*s, ids::kind_names()); !near.empty())
                hint = "did you mean '" + near + "'? " + hint;
            r_.error(v, "unknown id kind '" + *s + "'", hint);
            return false;
        }
        if (*k == ids::IdKind::any) {
            r_.error(v, "kind 'any' says nothing a database audit can check",
                     "name the id's kind (uuidv7, ulid, ...) or `existing` for a format kept from before");
            return false;
        }
        d.kind = *k;
        return true;
    }

    detail::Reader r_;
    std::vector<Diagnostic>* out_;
};

}  // namespace

const DeclaredColumn* Config::declared(std::string_view schema, std::string_view table, std::string_view column) const {
    for (const auto& d : columns)
        if (d.name.matches(schema, table, column)) return &d;
    return nullptr;
}

bool Config::r1_exception(std::string_view schema, std::string_view table) const {
    for (const auto& e : r1_exceptions) {
        const std::size_t dot = e.find('.');
        if (dot == std::string::npos
                ? e == table
                : std::string_view(e).substr(0, dot) == schema && std::string_view(e).substr(dot + 1) == table)
            return true;
    }
    return false;
}

ConfigLoad load_config_text(const std::string& text, const std::string& path) {
    ConfigLoad out;
    const auto src = detail::SourceText::from(path, text);
    try {
        Loader loader(src, out.diagnostics);
        auto c = loader.load(text);
        if (out.diagnostics.empty() && c) out.config = std::move(*c);
    } catch (const std::exception& e) {  // yaml-cpp or the allocator: never across the boundary
        out.config.reset();
        out.diagnostics.push_back(Diagnostic{SourcePos{path, 0, 0},
                                             std::string("internal error while loading the db config: ") + e.what(),
                                             "please report this with the config file",
                                             {}});
    }
    return out;
}

ConfigLoad load_config(const std::string& path) {
    auto text = detail::read_input_file(path, "db config");
    if (!text.text) {
        ConfigLoad out;
        out.diagnostics.push_back(std::move(text.error));
        return out;
    }
    return load_config_text(*text.text, path);
}

}  // namespace idconform::db
