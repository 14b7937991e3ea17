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

enum class Operation { create, read, update, del, list, put };

struct OperationTraits {
    Operation op;
    const char* name;         // the YAML key / `op:` value
    const char* http_method;  // a profile endpoint's default method
    bool needs_id;            // names an entity: the path holds {id}, a call has `id:`
    bool has_body;            // sends a body (`body:` in a profile, `json/set/unset` in a call)
    bool has_items;           // answers with a list (`items:`)
    bool creates;             // may create an entity the run must delete (create, and a PUT that creates)
};

inline constexpr std::array<OperationTraits, 6> operation_table = {{
    {Operation::create, "create", "POST", false, true, false, true},
    {Operation::read, "read", "GET", true, false, false, false},
    {Operation::update, "update", "PATCH", true, true, false, false},
    {Operation::del, "delete", "DELETE", true, false, false, false},
    {Operation::list, "list", "GET", false, false, true, false},
    {Operation::put, "put", "PUT", true, true, false, true},
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

}  // namespace idconform::suite
