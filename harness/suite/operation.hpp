// The operations of a resource that pack suites call (`call: {op: ...}`)
// and target profiles bind (`resources: {products: {create: ...}}`): one
// enum and one table of what each operation is, read by the suite loader,
// the profile loader and the profile expander alike (before, each of them
// re-derived "takes an id" / "sends a body" from the names).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::suite {

// The entity operations, then the requests that name an entity another
// way: as an application's own pages do, a lookup by the id in a query
// parameter and an action (a form or button endpoint) taking the id in its
// body; and the lookup of a migrated entity by its legacy integer id.
enum class Operation { create, read, update, del, list, put, lookup, action, legacy_lookup };

struct OperationTraits {
    Operation op;
    const char* name;         // the YAML key / `op:` value
    const char* http_method;  // a profile endpoint's default method
    bool needs_id;            // names an entity: a call has `id:` (the path's {id}, a body member or a query parameter)
    bool has_body;            // sends a body (`body:` in a profile, `json/set/unset` in a call)
    bool has_items;           // answers with a list (`items:`)
    bool creates;             // may create an entity the run must delete (create, and a PUT that creates)
};

inline constexpr std::array<OperationTraits, 9> operation_table = {{
    {Operation::create, "create", "POST", false, true, false, true},
    {Operation::read, "read", "GET", true, false, false, false},
    {Operation::update, "update", "PATCH", true, true, false, false},
    {Operation::del, "delete", "DELETE", true, false, false, false},
    {Operation::list, "list", "GET", false, false, true, false},
    {Operation::put, "put", "PUT", true, true, false, true},
    {Operation::lookup, "lookup", "GET", true, false, false, false},
    {Operation::action, "action", "POST", true, true, false, false},
    {Operation::legacy_lookup, "legacy_lookup", "GET", true, false, false, false},
}};

[[nodiscard]] constexpr const OperationTraits& traits(Operation op) noexcept {
    return operation_table[static_cast<std::size_t>(op)];
}
[[nodiscard]] constexpr const char* name(Operation op) noexcept { return traits(op).name; }
[[nodiscard]] inline std::optional<Operation> operation_from_name(std::string_view s) noexcept {
    for (const auto& t : operation_table)
        if (s == t.name) return t.op;
    return std::nullopt;
}
// Every name, in table order (for "did you mean" hints).
[[nodiscard]] inline std::vector<std::string> operation_names() {
    std::vector<std::string> out;
    for (const auto& t : operation_table) out.emplace_back(t.name);
    return out;
}
// "read, update, delete and put": the names of the operations with `trait`.
[[nodiscard]] inline std::string operations_that(bool OperationTraits::*trait) {
    std::vector<std::string> names;
    for (const auto& t : operation_table)
        if (t.*trait) names.emplace_back(t.name);
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}

}  // namespace idconform::suite
