// `idconform db --target PROFILE`: the columns a target profile declares
// through its resources' `stored_in:` (profile.hpp), as db config columns,
// so one file says what the API's ids are and where the database keeps
// them. Kept in the CLI, the one part that sees both the profile and db.
#pragma once

#include "db/config.hpp"
#include "profile/profile.hpp"

#include <string>
#include <vector>

namespace idconform::cli {

struct TargetColumns {
    std::vector<db::DeclaredColumn> columns;
    // What the profile leaves unsaid, for stderr: resources without
    // stored_in, references to a resource whose table is not named.
    std::vector<std::string> notes;
};

// Per resource with stored_in: its id, fields and viewable id as columns of
// their kind; each reference as a column of the referenced resource's id
// kind, referencing that resource's key column when it names its table.
[[nodiscard]] TargetColumns db_columns_of(const profile::Profile& p);

// Adds `from` to `config`, except columns the config declares itself (its
// declarations win). Returns how many were added.
std::size_t add_declared(db::Config& config, const std::vector<db::DeclaredColumn>& from);

}  // namespace idconform::cli
