// idconform identifier module: the one place that parses, classifies, formats
// and generates identifiers (UUID of every RFC 9562 version, ULID, Crockford
// base32, viewable ids, the UUIDv8 legacy layout) and derives negative forms.
// No other code in the project parses ids; everything asks this module.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::ids {

// ---------------------------------------------------------------- UUID value

struct Uuid {
    std::array<std::uint8_t, 16> bytes{};
    friend bool operator==(const Uuid&, const Uuid&) = default;
    friend auto operator<=>(const Uuid&, const Uuid&) = default;
};

enum class Variant { ncs, rfc9562, microsoft, reserved };
enum class Special { none, nil, max };

inline constexpr Uuid nil_uuid{};
inline constexpr Uuid max_uuid{{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};

[[nodiscard]] int version(const Uuid& u) noexcept;       // high nibble of byte 6
[[nodiscard]] Variant variant(const Uuid& u) noexcept;   // top bits of byte 8
[[nodiscard]] Special special(const Uuid& u) noexcept;
[[nodiscard]] std::string_view to_string(Variant v) noexcept;   // "ncs", "rfc9562", ...
[[nodiscard]] std::string_view to_string(Special s) noexcept;   // "", "nil", "max"

// Canonical text: 36 chars, lower-case hex, hyphens at 8, 13, 18, 23.
[[nodiscard]] std::string format(const Uuid& u);
void format_to(const Uuid& u, char out[36]) noexcept;

// Strict check: true only for the canonical lower-case 8-4-4-4-12 form.
// Says nothing about version or variant.
[[nodiscard]] bool is_canonical(std::string_view text) noexcept;
// Strict parse of the canonical form; nullopt for anything else.
[[nodiscard]] std::optional<Uuid> parse_canonical(std::string_view text) noexcept;
// Strict machine-contract check for one version: canonical, that version,
// RFC variant (the DATA-ID-002 pattern). Nil and Max never pass.
[[nodiscard]] bool is_canonical_version(std::string_view text, int want_version) noexcept;

// ----------------------------------------------------------- decoded fields

struct V7Fields {
    std::uint64_t unix_ts_ms = 0;  // 48 bits
    std::uint16_t rand_a = 0;      // 12 bits
    std::uint64_t rand_b = 0;      // 62 bits
};
struct GregorianFields {            // v1 and v6
    std::uint64_t timestamp_100ns = 0;  // 60 bits since 1582-10-15
    std::uint16_t clock_seq = 0;        // 14 bits
    std::uint64_t node = 0;             // 48 bits
    [[nodiscard]] std::int64_t unix_ns() const noexcept;
};
struct V8Fields {
    std::uint64_t custom_a = 0;  // 48 bits
    std::uint16_t custom_b = 0;  // 12 bits
    std::uint64_t custom_c = 0;  // 62 bits
};
[[nodiscard]] V7Fields decode_v7(const Uuid& u) noexcept;
[[nodiscard]] GregorianFields decode_v1(const Uuid& u) noexcept;
[[nodiscard]] GregorianFields decode_v6(const Uuid& u) noexcept;
[[nodiscard]] V8Fields decode_v8(const Uuid& u) noexcept;

// ISO-8601 UTC, e.g. "2022-02-22T19:22:22.000Z" (ms) or with 7 fraction
// digits for 100 ns resolution.
[[nodiscard]] std::string iso8601_ms(std::int64_t unix_ms);
[[nodiscard]] std::string iso8601_100ns(std::int64_t unix_100ns);

// ------------------------------------------------------------ recognition

// What is wrong with a text that is not the canonical form. Several can hold.
enum class Defect : std::uint32_t {
    none = 0,
    empty = 1u << 0,
    whitespace = 1u << 1,       // leading/trailing whitespace
    braces = 1u << 2,           // {...}
    urn_prefix = 1u << 3,       // urn:uuid:
    upper_case = 1u << 4,       // every letter upper-case
    mixed_case = 1u << 5,       // some letters upper-case
    no_hyphens = 1u << 6,       // 32 hex digits
    misplaced_hyphens = 1u << 7,
    wrong_length = 1u << 8,
    non_hex = 1u << 9,          // ASCII char outside hex
    unicode_lookalike = 1u << 10,  // full-width digit/letter, Cyrillic/Greek homoglyph
    non_ascii = 1u << 11,       // other non-ASCII bytes
};
[[nodiscard]] constexpr Defect operator|(Defect a, Defect b) noexcept {
    return static_cast<Defect>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}
[[nodiscard]] constexpr bool has(Defect set, Defect d) noexcept {
    return (static_cast<std::uint32_t>(set) & static_cast<std::uint32_t>(d)) != 0;
}
[[nodiscard]] std::string_view to_string(Defect single) noexcept;  // "upper_case", ...
[[nodiscard]] std::vector<std::string_view> defect_names(Defect set);

enum class Kind { uuid, ulid, viewable, integer, unknown };
[[nodiscard]] std::string_view to_string(Kind k) noexcept;

// Full classification of a text that may be meant as an identifier.
struct Recognition {
    Kind kind = Kind::unknown;
    bool canonical = false;           // exactly the canonical form of its kind
    Defect defects = Defect::none;    // why not canonical
    std::optional<Uuid> value;        // the 128 bits, when recoverable
    int version = -1;                 // UUID version when value is set
    Variant variant = Variant::ncs;
    Special special = Special::none;
    // "upper-case form of a valid UUIDv7", "canonical UUIDv4", "Nil UUID", ...
    [[nodiscard]] std::string describe() const;
};
// Classifies `text` as a UUID in any spelling. For ULID see parse_ulid.
[[nodiscard]] Recognition recognize_uuid(std::string_view text);
namespace detail {
// recognize_uuid without its canonical fast path: every spelling read digit
// by digit (the tests hold the two equal on canonical text).
[[nodiscard]] Recognition recognize_uuid_spelled(std::string_view text);
}  // namespace detail
// Tries UUID, then ULID (26 chars), then a plain integer.
[[nodiscard]] Recognition recognize(std::string_view text);

// Shape-based scan: true when a string looks like an identifier in any form
// (UUID in any spelling incl. braces/urn/no hyphens, or a ULID). Cheap: used
// on every string of every response.
[[nodiscard]] bool looks_like_id(std::string_view text) noexcept;

// Whether a field (JSON member, CSV column, protobuf field) is named like
// one that holds an id: id, ID, uuid, or ending in _id, Id, _uuid, Uuid
// ("_id" itself included), -id, -uuid (kebab case: x-tenant-id), or in ID,
// UUID after a lower-case letter or digit (Go style: orderID, ownerUUID).
// The one naming rule of every shape check.
[[nodiscard]] bool id_named_field(std::string_view name) noexcept;
// What an id-named field's name says it is the id of: the name without its
// id suffix ("category_id", "categoryId", "orderID", "owner-uuid" ->
// "category", "category", "order", "owner"); "" for a bare id/ID/uuid and
// for a name that is not id-named.
[[nodiscard]] std::string_view id_name_stem(std::string_view name) noexcept;

// Whether a name says its ids are out of the data-id scope (RULES.md: ids of
// requests, traces, events and messages, ids another system issues, keys of
// idempotency): one of its words (snake, kebab or camel case: x-request-id,
// traceID, externalIds, requestid) is request, correlation, trace, span,
// event, external or idempotency. Words, not substrings: preventionId and
// contractId are in scope. An id-named field that is not out of scope is a
// data id: what every shape check and lint judges.
[[nodiscard]] bool out_of_scope_id_name(std::string_view name) noexcept;
[[nodiscard]] inline bool data_id_named(std::string_view name) noexcept {
    return id_named_field(name) && !out_of_scope_id_name(name);
}

// -------------------------------------------------------------- generators

// A clock returning Unix milliseconds; injectable for tests.
using ms_clock = std::function<std::int64_t()>;
[[nodiscard]] std::int64_t system_unix_ms() noexcept;

[[nodiscard]] Uuid generate_v4();  // CSPRNG (OpenSSL RAND_bytes)

// UUIDv7 generator, RFC 9562 §6.2 Method 1 ("fixed bit-length dedicated
// counter"): rand_a (12 bits) plus the top 30 bits of rand_b form a 42-bit
// counter seeded randomly with its top bit clear at each new millisecond and
// incremented within the same millisecond. On counter overflow the timestamp
// is advanced by one ms. If the clock goes backwards, the last timestamp is
// kept, so output is strictly increasing. Thread-safe (one mutex; the random
// tail comes from a per-generator buffer refilled from the CSPRNG).
class V7Generator {
public:
    explicit V7Generator(ms_clock clock = {});
    [[nodiscard]] Uuid next();
private:
    std::mutex mutex_;
    ms_clock clock_;
    std::int64_t last_ms_ = -1;
    std::uint64_t counter_ = 0;  // 42 bits
    std::array<std::uint8_t, 4096> pool_{};
    std::size_t pool_pos_ = sizeof(pool_);
    void take_random(std::uint8_t* out, std::size_t n);
};

// ------------------------------------------------------ Crockford base32

// Encode `bits` bits from `data` (most significant first) as ceil(bits/5)
// symbols; leading pad bits are zero. Upper-case output.
[[nodiscard]] std::string crockford_encode(const std::uint8_t* data, std::size_t bytes);
// Value of one symbol (case-insensitive), -1 if not in the alphabet.
// Strict: I L O U are rejected (no aliasing to 1/0).
[[nodiscard]] int crockford_value(char c) noexcept;
// Decode into `out_bytes` bytes, right-aligned. False on a bad symbol or when
// the value does not fit.
[[nodiscard]] bool crockford_decode(std::string_view text, std::uint8_t* out, std::size_t out_bytes);

// --------------------------------------------------------------------- ULID

struct Ulid {
    std::array<std::uint8_t, 16> bytes{};
    [[nodiscard]] std::uint64_t unix_ms() const noexcept;
    friend bool operator==(const Ulid&, const Ulid&) = default;
    friend auto operator<=>(const Ulid&, const Ulid&) = default;
};
enum class CasePolicy { any, lower_only, upper_only };
enum class UlidError { none, wrong_length, bad_char, overflow, wrong_case };
[[nodiscard]] std::string_view to_string(UlidError e) noexcept;
struct UlidParse {
    std::optional<Ulid> value;
    UlidError error = UlidError::none;
    std::size_t position = 0;  // offending char index for bad_char / wrong_case
};
[[nodiscard]] UlidParse parse_ulid(std::string_view text, CasePolicy policy = CasePolicy::any) noexcept;
[[nodiscard]] std::string format_ulid(const Ulid& u, bool lower_case = true);

// Monotonic ULID generation (the ULID spec's method: same ms -> previous
// random part + 1; overflow of the 80-bit part advances the ms).
class UlidGenerator {
public:
    explicit UlidGenerator(ms_clock clock = {});
    [[nodiscard]] Ulid next();
private:
    std::mutex mutex_;
    ms_clock clock_;
    std::int64_t last_ms_ = -1;
    std::array<std::uint8_t, 10> last_rand_{};
};

// ------------------------------------------------------------ viewable ids

struct ViewableFormat {
    std::string prefix = "TR-";
    std::size_t length = 7;  // Crockford symbols after the prefix
};
enum class ViewableError { none, wrong_prefix, wrong_length, lower_case, excluded_letter, bad_char };
[[nodiscard]] std::string_view to_string(ViewableError e) noexcept;
[[nodiscard]] ViewableError check_viewable(std::string_view text, const ViewableFormat& f = {}) noexcept;
// Random viewable id from ceil(length*5/8) CSPRNG bytes (5 bytes for 7 chars).
[[nodiscard]] std::string generate_viewable(const ViewableFormat& f = {});
// The RE2 pattern equivalent to check_viewable, e.g. ^TR-[0-9A-HJKMNP-TV-Z]{7}$
[[nodiscard]] std::string viewable_pattern(const ViewableFormat& f = {});
// The format of a viewable id whose prefix ends at its last '-' ("TR-8F2K3P2"
// -> {"TR-", 7}); nullopt when the text has no '-' or a symbol after it is
// not upper-case Crockford. Lets mutations start from a live viewable id.
[[nodiscard]] std::optional<ViewableFormat> infer_viewable_format(std::string_view text);

// --------------------------------------------------------- UUIDv8 legacy

// Bit layout, most significant bit first (bit 0 = top bit of byte 0).
// Version (48-51) and variant (64-65) positions are fixed by RFC 9562.
struct LegacyLayout {
    int flag_bit = 0;
    int id_offset = 1, id_bits = 32;
    int type_offset = 33, type_bits = 15;
    int hash1_offset = 52, hash1_bits = 12;
    int hash2_offset = 66, hash2_bits = 62;
    // Empty when valid, else what is wrong (overlap, out of range, ...).
    [[nodiscard]] std::string validate() const;
    friend bool operator==(const LegacyLayout&, const LegacyLayout&) = default;
};
// A layout as one line of text, "flag=0 id=1:32 type=33:15 hash1=52:12
// hash2=66:62" (offset:bits), so a layout can travel in a suite variable.
[[nodiscard]] std::string format_layout(const LegacyLayout& l);
// Parses format_layout()'s text (fields in any order, missing ones keep the
// default); nullopt and `error` set when a field is unknown or malformed or
// the layout does not validate().
[[nodiscard]] std::optional<LegacyLayout> parse_layout(std::string_view text, std::string* error = nullptr);
struct LegacyFields {
    bool legacy_flag = false;
    std::uint64_t legacy_id = 0;
    std::uint32_t entity_type = 0;
};
// hash = SHA-256(decimal(legacy_id) + decimal(entity_type) + salt); its
// leading hash1_bits fill hash part 1, the next hash2_bits hash part 2.
[[nodiscard]] Uuid encode_legacy(std::uint64_t legacy_id, std::uint32_t entity_type,
                                 std::string_view salt, const LegacyLayout& l = {});
[[nodiscard]] LegacyFields decode_legacy(const Uuid& u, const LegacyLayout& l = {}) noexcept;
[[nodiscard]] bool verify_legacy_hash(const Uuid& u, std::string_view salt, const LegacyLayout& l = {});

// ---------------------------------------------------------------- mutations

// A negative form derived from one valid id. `name` is stable (it becomes a
// JUnit testcase name); `breaks` says which property it violates.
struct Mutation {
    std::string name;
    std::string text;
    std::string breaks;
};
// Every negative form of a canonical UUID: case, hyphens, wrappers, padding,
// each other version nibble, each invalid variant class, length +/-1, a
// non-hex char, a full-width digit, base32/base64/decimal encodings.
[[nodiscard]] std::vector<Mutation> mutations(const Uuid& u);
// Negative forms of a ULID (upper-case, overflow, bad char, length).
[[nodiscard]] std::vector<Mutation> ulid_mutations(const Ulid& u);
// Negative forms of a valid viewable id of format `f`: lower/mixed case,
// each excluded letter I L O U, one symbol short/long, wrong/no prefix.
[[nodiscard]] std::vector<Mutation> viewable_mutations(std::string_view text, const ViewableFormat& f);
// Negative forms of an id in a format this module does not know (an integer,
// nanoid, a hex hash): case, padding, wrapping, and one character short or
// long unless the id is numeric (opaque_mutations.cpp says why).
[[nodiscard]] std::vector<Mutation> opaque_mutations(std::string_view text);

}  // namespace idconform::ids
