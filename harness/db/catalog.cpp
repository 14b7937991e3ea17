// Names of the catalog model's values and its look-ups (catalog.hpp).
#include "db/catalog.hpp"

namespace idconform::db {

std::string_view to_string(TypeFamily f) noexcept {
    switch (f) {
        case TypeFamily::uuid: return "uuid";
        case TypeFamily::text: return "text";
        case TypeFamily::integer: return "integer";
        case TypeFamily::time: return "time";
        case TypeFamily::unknown: break;
    }
    return "unknown";
}

std::string_view to_string(Generator g) noexcept {
    switch (g) {
        case Generator::none: return "none";
        case Generator::uuid_v4: return "version 4 UUIDs";
        case Generator::uuid_v1: return "version 1 UUIDs";
        case Generator::uuid_v7: return "version 7 UUIDs";
        case Generator::sequence: return "a sequence";
        case Generator::identity: return "an identity column";
        case Generator::other: break;
    }
    return "another expression";
}

std::string_view to_string(ErrorKind k) noexcept {
    switch (k) {
        case ErrorKind::unreachable: return "unreachable";
        case ErrorKind::authentication: return "authentication";
        case ErrorKind::privilege: return "privilege";
        case ErrorKind::vanished: return "vanished";
        case ErrorKind::timeout: return "timeout";
        case ErrorKind::other: break;
    }
    return "other";
}

Generator generator_of_default(std::string_view expr) noexcept {
    if (expr.empty()) return Generator::none;
    const std::size_t paren = expr.find('(');
    if (paren == std::string_view::npos) return Generator::other;
    std::string_view fn = expr.substr(0, paren);
    if (const std::size_t dot = fn.rfind('.'); dot != std::string_view::npos) fn.remove_prefix(dot + 1);
    if (fn.size() > 2 && fn.front() == '"' && fn.back() == '"') fn = fn.substr(1, fn.size() - 2);
    if (fn == "gen_random_uuid" || fn == "uuid_generate_v4" || fn == "uuidv4") return Generator::uuid_v4;
    if (fn == "uuidv7" || fn == "uuid_generate_v7") return Generator::uuid_v7;
    if (fn == "uuid_generate_v1" || fn == "uuid_generate_v1mc") return Generator::uuid_v1;
    if (fn == "nextval") return Generator::sequence;
    return Generator::other;
}

const Column* Table::column(std::string_view n) const {
    for (const auto& c : columns)
        if (c.name == n) return &c;
    return nullptr;
}

const UniqueSet* Table::unique_on(std::string_view column) const {
    for (const auto& u : uniques)
        if (u.columns.size() == 1 && u.columns.front() == column) return &u;
    return nullptr;
}

const CheckConstraint* Table::check_on(std::string_view column) const {
    for (const auto& c : checks)
        if (c.columns.size() == 1 && c.columns.front() == column) return &c;
    return nullptr;
}

const Table* Catalog::table(std::string_view schema, std::string_view name) const {
    for (const auto& t : tables)
        if (t.schema == schema && t.name == name) return &t;
    return nullptr;
}

}  // namespace idconform::db
