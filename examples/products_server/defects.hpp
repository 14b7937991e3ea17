// Deliberate-violation switches of the example products server. Each defect
// breaks exactly one identifier rule so the idconform harness can be shown to
// catch it; the registry below is the single list the CLI, README and tests use.
#pragma once

#include <bitset>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace products {

enum class Defect : std::size_t {
    // DATA-ID-001
    v4_ids,
    stale_timestamp,
    location_upper,
    reject_foreign_v7,
    // DATA-ID-002
    upper_case_out,
    no_hyphens_out,
    accept_upper_path,
    accept_braces_path,
    accept_no_hyphens_path,
    lenient_ref,
    accept_any_version_ref,
    optional_ref_any_form,
    put_accepts_any_id,
    crash_on_bad_id,
    // DATA-ID-003
    v7_tracking_id,
    mixed_tracking_versions,
    // DATA-ID-004
    no_ownership_read,
    no_ownership_write,
    list_leak,
    // DATA-ID-005
    no_time_field,
    derived_time,
    // DATA-ID-006
    id_changes_on_update,
    update_takes_body_id,
    put_overwrites,
    put_returns_existing,
    reuse_deleted_ids,
    same_ms_collision,
    // DATA-ID-007
    nil_for_absent_ref,
    empty_for_absent_ref,
    zero_for_absent_ref,
    accept_missing_required_ref,
    accept_nil_ref,
    accept_empty_ref,
    optional_ref_accepts_empty,
    // nil-max
    nil_path_200,
    max_path_200,
    accept_max_ref,
    // shape-scan
    upper_id_in_nested,
    // events and commands (Kafka; events.cpp): the HTTP behaviour is unchanged
    event_upper_case,
    event_id_mismatch,
    event_nil_for_absent_ref,
    command_accepts_bad_id,
    // db-identifiers (orders API, ULID ids)
    integer_ids_beside_ulids,
    no_id_on_create,
    upper_case_ulids,
    ulid_path_400,
    ulid_query_400,
    ulid_body_404,
    job_id_not_ulid,
    request_id_not_ulid,
    ulids_out_of_order,
    // uuidv8-legacy (staff lookup)
    legacy_wrong_version,
    legacy_flag_clear,
    legacy_wrong_id,
    legacy_wrong_entity_type,
    legacy_unstable,
    legacy_wrong_hash,
    // viewable-id (products)
    viewable_lower_case,
    viewable_sequential,
    viewable_low_entropy,
    viewable_reused,
    viewable_changes_on_update,
    viewable_lookup_mismatch,
    viewable_accepts_lowercase,
    viewable_accepts_ilou,
    viewable_malformed_400,
    // tickets (--tickets: integer ids over HTTP and gRPC)
    ticket_id_lenient,
    ticket_ids_reused,
    grpc_ticket_no_owner,
    count_  // keep last
};

inline constexpr std::size_t defect_count = static_cast<std::size_t>(Defect::count_);

struct DefectInfo {
    Defect defect;
    std::string_view name;         // CLI name, e.g. "v4-ids"
    std::string_view rule;         // rule id the defect violates
    std::string_view description;  // what it breaks
};

// Every defect, in registry order (the order of the enum).
[[nodiscard]] std::span<const DefectInfo> all_defects() noexcept;
[[nodiscard]] const DefectInfo& info(Defect d) noexcept;
[[nodiscard]] std::optional<Defect> find_defect(std::string_view name) noexcept;
// Closest registered name for a misspelt one ("" when nothing is close).
[[nodiscard]] std::string_view suggest_defect(std::string_view name);

class DefectSet {
public:
    DefectSet() = default;
    DefectSet(std::initializer_list<Defect> list) {
        for (Defect d : list) add(d);
    }
    void add(Defect d) noexcept { bits_.set(static_cast<std::size_t>(d)); }
    [[nodiscard]] bool has(Defect d) const noexcept { return bits_.test(static_cast<std::size_t>(d)); }
    [[nodiscard]] bool empty() const noexcept { return bits_.none(); }
    // Comma-separated names, for the start-up banner.
    [[nodiscard]] std::string names() const;

private:
    std::bitset<defect_count> bits_;
};

}  // namespace products
