// The defect registry: name, rule and description of every deliberate
// violation the example server can switch on.
#include "defects.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace products {
namespace {

constexpr std::array<DefectInfo, defect_count> registry{{
    {Defect::v4_ids, "v4-ids", "DATA-ID-001", "product ids are minted as UUIDv4 instead of v7"},
    {Defect::stale_timestamp, "stale-timestamp", "DATA-ID-001",
     "product ids are v7 but their unix_ts_ms lies one hour in the past"},
    {Defect::location_upper, "location-upper", "DATA-ID-001",
     "the Location header carries the new id upper-case (the body stays canonical)"},
    {Defect::reject_foreign_v7, "reject-foreign-v7", "DATA-ID-001",
     "a well-formed v7 path id that is not stored gets 400 (treated as malformed) instead of 404"},
    {Defect::upper_case_out, "upper-case-out", "DATA-ID-002",
     "product ids (id, parent_id) are written upper-case in response bodies"},
    {Defect::no_hyphens_out, "no-hyphens-out", "DATA-ID-002",
     "product ids (id, parent_id) are written as 32 hex digits without hyphens in bodies"},
    {Defect::accept_upper_path, "accept-upper-path", "DATA-ID-002",
     "an upper/mixed-case path id is normalised and answered with the entity"},
    {Defect::accept_braces_path, "accept-braces-path", "DATA-ID-002",
     "{uuid} and urn:uuid: path ids are unwrapped and answered with the entity"},
    {Defect::accept_no_hyphens_path, "accept-no-hyphens-path", "DATA-ID-002",
     "a 32-hex-digit path id is accepted and answered with the entity"},
    {Defect::lenient_ref, "lenient-ref", "DATA-ID-002",
     "reference fields accept any spelling a lenient parser reads (case, hyphens, braces, urn, "
     "whitespace) and normalise it"},
    {Defect::accept_any_version_ref, "accept-any-version-ref", "DATA-ID-002",
     "reference fields accept canonical UUIDs of any version/variant and store them"},
    {Defect::optional_ref_any_form, "optional-ref-any-form", "DATA-ID-002",
     "parent_id (an optional reference) accepts UUIDs of any version or variant, stored as sent, and any "
     "spelling a lenient parser reads, normalised (category_id stays strict)"},
    {Defect::put_accepts_any_id, "put-accepts-any-id", "DATA-ID-002",
     "PUT /v1/products/{id} creates with any id a lenient parser reads: other versions, wrong variants, "
     "upper-case, braces, no hyphens (normalised)"},
    {Defect::crash_on_bad_id, "crash-on-bad-id", "DATA-ID-002", "a malformed path id gives 500"},
    {Defect::v7_tracking_id, "v7-tracking-id", "DATA-ID-003",
     "tracking_id (a field that must not reveal creation time) is minted as v7"},
    {Defect::mixed_tracking_versions, "mixed-tracking-versions", "DATA-ID-003",
     "every second product gets a v7 tracking_id, the others v4"},
    {Defect::no_ownership_read, "no-ownership-read", "DATA-ID-004",
     "GET by id ignores the principal: any caller who knows the id reads the entity"},
    {Defect::no_ownership_write, "no-ownership-write", "DATA-ID-004",
     "PATCH and DELETE ignore the principal"},
    {Defect::list_leak, "list-leak", "DATA-ID-004", "the product list shows every principal's products"},
    {Defect::no_time_field, "no-time-field", "DATA-ID-005",
     "entities carry no created_at/updated_at: the id is the only time information"},
    {Defect::derived_time, "derived-time", "DATA-ID-005",
     "created_at is the id's unix_ts_ms formatted with milliseconds (derived from the id)"},
    {Defect::id_changes_on_update, "id-changes-on-update", "DATA-ID-006", "PATCH assigns a fresh id"},
    {Defect::update_takes_body_id, "update-takes-body-id", "DATA-ID-006",
     "an id in a PATCH body replaces the entity's id"},
    {Defect::put_overwrites, "put-overwrites", "DATA-ID-006",
     "PUT on an existing id of the caller replaces the entity (200) instead of 409"},
    {Defect::put_returns_existing, "put-returns-existing", "DATA-ID-006",
     "PUT on an existing id of the caller returns 200 with the existing entity instead of 409"},
    {Defect::reuse_deleted_ids, "reuse-deleted-ids", "DATA-ID-006",
     "the next create after a delete reuses the deleted id"},
    {Defect::same_ms_collision, "same-ms-collision", "DATA-ID-006",
     "ids are the ms timestamp with a zero random part: two creates in one ms share an id and the "
     "second overwrites the first"},
    {Defect::nil_for_absent_ref, "nil-for-absent-ref", "DATA-ID-007",
     "an absent parent_id is returned as the Nil UUID"},
    {Defect::empty_for_absent_ref, "empty-for-absent-ref", "DATA-ID-007",
     "an absent parent_id is returned as \"\""},
    {Defect::zero_for_absent_ref, "zero-for-absent-ref", "DATA-ID-007", "an absent parent_id is returned as 0"},
    {Defect::accept_missing_required_ref, "accept-missing-required-ref", "DATA-ID-007",
     "a missing or null category_id is accepted (201, category_id null)"},
    {Defect::accept_nil_ref, "accept-nil-ref", "DATA-ID-007", "the Nil UUID is accepted as a reference value"},
    {Defect::accept_empty_ref, "accept-empty-ref", "DATA-ID-007",
     "\"\" and 0 are accepted as reference values and echoed back"},
    {Defect::optional_ref_accepts_empty, "optional-ref-accepts-empty", "DATA-ID-007",
     "parent_id (an optional reference) accepts \"\", \"0\" and 0 and echoes them back (category_id stays strict)"},
    {Defect::nil_path_200, "nil-path-200", "nil-max",
     "GET /v1/products/<Nil> returns 200 with a placeholder entity"},
    {Defect::max_path_200, "max-path-200", "nil-max",
     "GET /v1/products/<Max> returns 200 with a placeholder entity"},
    {Defect::accept_max_ref, "accept-max-ref", "nil-max", "the Max UUID is accepted as a reference value"},
    {Defect::upper_id_in_nested, "upper-id-in-nested", "shape-scan",
     "entities gain links.category holding the category id upper-case (a field no profile names)"},
    {Defect::event_upper_case, "event-upper-case", "DATA-ID-002",
     "published events carry the product id (key, id, parent_id) and category_id upper-case"},
    {Defect::event_id_mismatch, "event-id-mismatch", "DATA-ID-002",
     "a published event's id differs from the id the API returned (the key stays the API id)"},
    {Defect::event_nil_for_absent_ref, "event-nil-for-absent-ref", "DATA-ID-007",
     "an absent parent_id is published in events as the Nil UUID"},
    {Defect::command_accepts_bad_id, "command-accepts-bad-id", "DATA-ID-002",
     "a command whose id is a non-canonical spelling (upper-case, braces, urn:uuid:, no hyphens) is normalised "
     "and applied instead of dead-lettered"},
    {Defect::integer_ids_beside_ulids, "integer-ids-beside-ulids", "R1",
     "orders carry an autoincrement invoice_id integer beside their ULID ids"},
    {Defect::no_id_on_create, "no-id-on-create", "R2",
     "an order create answers 202 without the new id (no id in the body, no Location)"},
    {Defect::upper_case_ulids, "upper-case-ulids", "R4",
     "order and job ULIDs are written upper-case (the ULID spec's form) in bodies and Location"},
    {Defect::ulid_path_400, "ulid-path-400", "R5.1", "a malformed order id in the path gets 400 instead of 404"},
    {Defect::ulid_query_400, "ulid-query-400", "R5.1",
     "a malformed order id in the ?id= query gets 400 instead of 404"},
    {Defect::ulid_body_404, "ulid-body-404", "R5.2",
     "a malformed order_id in a confirmation body gets 404 instead of 422 invalid input"},
    {Defect::job_id_not_ulid, "job-id-not-ulid", "R7", "job ids are UUIDv4 instead of ULIDs"},
    {Defect::request_id_not_ulid, "request-id-not-ulid", "R7", "X-Request-Id is a UUIDv4 instead of a ULID"},
    {Defect::ulids_out_of_order, "ulids-out-of-order", "ULID order",
     "every second order id carries a time one second in the past"},
    {Defect::legacy_wrong_version, "legacy-wrong-version", "LEGACY-VERSION",
     "staff ids carry version 4 instead of 8"},
    {Defect::legacy_flag_clear, "legacy-flag-clear", "LEGACY-FLAG",
     "staff ids of migrated entities have the legacy flag bit clear"},
    {Defect::legacy_wrong_id, "legacy-wrong-id", "LEGACY-DECODE",
     "staff ids encode the legacy id plus one"},
    {Defect::legacy_wrong_entity_type, "legacy-wrong-entity-type", "LEGACY-DECODE",
     "staff ids carry entity type 402 (client) instead of 500 (staff)"},
    {Defect::legacy_unstable, "legacy-unstable", "LEGACY-STABLE",
     "the hash part changes on every call: one legacy id, a new UUID each time"},
    {Defect::legacy_wrong_hash, "legacy-wrong-hash", "LEGACY-HASH",
     "the hash part is SHA-256 of the id and type without the salt"},
    {Defect::viewable_lower_case, "viewable-lower-case", "VIEWABLE-FORMAT", "viewable ids are minted lower-case"},
    {Defect::viewable_sequential, "viewable-sequential", "VIEWABLE-RANDOM",
     "viewable ids count up from a random start (TR-<start+1>, TR-<start+2>, ...)"},
    {Defect::viewable_low_entropy, "viewable-low-entropy", "VIEWABLE-RANDOM",
     "viewable ids take 10 random bits: TR-00000XX"},
    {Defect::viewable_reused, "viewable-reused", "VIEWABLE-DISTINCT",
     "every second product gets the previous product's viewable id"},
    {Defect::viewable_changes_on_update, "viewable-changes-on-update", "VIEWABLE-IMMUTABLE",
     "PATCH mints a new viewable id"},
    {Defect::viewable_lookup_mismatch, "viewable-lookup-mismatch", "VIEWABLE-LOOKUP",
     "GET by viewable id answers the caller's latest product, whatever the id"},
    {Defect::viewable_accepts_lowercase, "viewable-accepts-lowercase", "VIEWABLE-MALFORMED",
     "a lower-case viewable id is upper-cased and answered with the entity"},
    {Defect::viewable_accepts_ilou, "viewable-accepts-ilou", "VIEWABLE-MALFORMED",
     "viewable ids with I, L, O or U pass the format check and fail in the decoder: 500"},
    {Defect::viewable_malformed_400, "viewable-malformed-400", "VIEWABLE-MALFORMED",
     "a malformed viewable id gets 400 instead of 404"},
    {Defect::ticket_id_lenient, "ticket-id-lenient", "DATA-ID-002",
     "a ticket id in the URL is read as a number: 017, 17.0 and \" 17 \" find ticket 17"},
    {Defect::ticket_ids_reused, "ticket-ids-reused", "DATA-ID-006",
     "a new ticket takes the highest live id plus one, so a deleted newest ticket's id comes back"},
    {Defect::grpc_ticket_no_owner, "grpc-ticket-no-owner", "DATA-ID-004",
     "GetTicket over gRPC answers any caller's ticket (the HTTP API checks the owner)"},
}};

// The table is indexed by the enum: catch a reordering at compile time.
constexpr bool registry_in_enum_order() {
    for (std::size_t i = 0; i < registry.size(); ++i)
        if (static_cast<std::size_t>(registry[i].defect) != i) return false;
    return true;
}
static_assert(registry_in_enum_order(), "defect registry must follow the enum order");

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diag = up;
        }
    }
    return row[b.size()];
}

}  // namespace

std::span<const DefectInfo> all_defects() noexcept { return registry; }

const DefectInfo& info(Defect d) noexcept { return registry[static_cast<std::size_t>(d)]; }

std::optional<Defect> find_defect(std::string_view name) noexcept {
    for (const auto& entry : registry)
        if (entry.name == name) return entry.defect;
    return std::nullopt;
}

std::string_view suggest_defect(std::string_view name) {
    std::string_view best;
    std::size_t best_distance = 4;  // farther than this is a different word, not a typo
    for (const auto& entry : registry) {
        const std::size_t d = edit_distance(name, entry.name);
        if (d < best_distance) {
            best_distance = d;
            best = entry.name;
        }
    }
    return best;
}

std::string DefectSet::names() const {
    std::string out;
    for (const auto& entry : registry) {
        if (!has(entry.defect)) continue;
        if (!out.empty()) out += ',';
        out += entry.name;
    }
    return out;
}

}  // namespace products
