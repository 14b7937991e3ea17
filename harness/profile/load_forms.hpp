// Readers of the resource forms real APIs need beyond CRUD with server ids
// (issue #13): `shared` reference data, `cannot_delete`, `singleton`
// resources read without an id, and the checks between them and the
// resource's endpoints. Called by the profile loader (load.cpp) with its
// reader, so positions and hints look like every other profile error.
#pragma once

#include "profile/profile.hpp"
#include "suite/yaml_reader.hpp"

namespace idconform::profile::forms {

// The resource keys these forms add.
[[nodiscard]] const std::vector<std::string>& resource_keys();

// Reads `shared`, `cannot_delete` and `singleton` of one resource mapping
// (endpoints already read) and checks them against its endpoints.
void read(suite::detail::Reader& r, const suite::detail::Mapping& m, Resource& res);

// Whether `read`'s path is read without an id: the resource mapping says
// `singleton: true` (read before the endpoints, which it changes).
[[nodiscard]] bool is_singleton(const suite::detail::Mapping& m);

}  // namespace idconform::profile::forms
