// UUID value helpers: canonical formatting and strict parsing, version and
// variant, field decoding for v1/v6/v7/v8, ISO-8601 rendering of times.
#include "ids/ids.hpp"
#include "ids/canonical.hpp"
#include "ids/detail.hpp"

#include <cstdio>

namespace idconform::ids {

int version(const Uuid& u) noexcept { return u.bytes[6] >> 4; }

Variant variant(const Uuid& u) noexcept {
    const std::uint8_t b = u.bytes[8];
    if ((b & 0x80) == 0) return Variant::ncs;
    if ((b & 0xc0) == 0x80) return Variant::rfc9562;
    if ((b & 0xe0) == 0xc0) return Variant::microsoft;
    return Variant::reserved;
}

Special special(const Uuid& u) noexcept {
    if (u == nil_uuid) return Special::nil;
    if (u == max_uuid) return Special::max;
    return Special::none;
}

std::string_view to_string(Variant v) noexcept {
    switch (v) {
        case Variant::ncs: return "ncs";
        case Variant::rfc9562: return "rfc9562";
        case Variant::microsoft: return "microsoft";
        case Variant::reserved: return "reserved";
    }
    return "reserved";
}

std::string_view to_string(Special s) noexcept {
    switch (s) {
        case Special::none: return "";
        case Special::nil: return "nil";
        case Special::max: return "max";
    }
    return "";
}

void format_to(const Uuid& u, char out[36]) noexcept {
    static constexpr char digits[] = "0123456789abcdef";
    std::size_t o = 0;
    for (std::size_t i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out[o++] = '-';
        out[o++] = digits[u.bytes[i] >> 4];
        out[o++] = digits[u.bytes[i] & 0x0f];
    }
}

std::string format(const Uuid& u) {
    std::string s(36, '\0');
    format_to(u, s.data());
    return s;
}

bool is_canonical(std::string_view t) noexcept { return t.size() == 36 && detail::canonical36(t.data()); }

bool is_canonical_version(std::string_view t, int want_version) noexcept {
    if (want_version < 0 || want_version > 15 || !is_canonical(t)) return false;
    const char v = t[14];
    const int got = detail::lower_hex_value[static_cast<unsigned char>(v)];
    const char var = t[19];
    return got == want_version && (var == '8' || var == '9' || var == 'a' || var == 'b');
}

std::optional<Uuid> parse_canonical(std::string_view t) noexcept {
    if (!is_canonical(t)) return std::nullopt;
    Uuid u;
    std::size_t b = 0;
    for (std::size_t i = 0; i < 36;) {
        if (t[i] == '-') { ++i; continue; }
        const int hi = detail::lower_hex_value[static_cast<unsigned char>(t[i])];
        const int lo = detail::lower_hex_value[static_cast<unsigned char>(t[i + 1])];
        u.bytes[b++] = static_cast<std::uint8_t>((hi << 4) | lo);
        i += 2;
    }
    return u;
}

// ---------------------------------------------------------------- fields

namespace {
std::uint64_t be(const Uuid& u, std::size_t from, std::size_t n) noexcept {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | u.bytes[from + i];
    return v;
}
// 100 ns intervals from 1582-10-15T00:00Z (Gregorian reform) to the Unix epoch.
constexpr std::uint64_t gregorian_to_unix_100ns = 122192928000000000ULL;
}  // namespace

V7Fields decode_v7(const Uuid& u) noexcept {
    V7Fields f;
    f.unix_ts_ms = be(u, 0, 6);
    f.rand_a = static_cast<std::uint16_t>(((u.bytes[6] & 0x0f) << 8) | u.bytes[7]);
    f.rand_b = (static_cast<std::uint64_t>(u.bytes[8] & 0x3f) << 56) | be(u, 9, 7);
    return f;
}

GregorianFields decode_v1(const Uuid& u) noexcept {
    GregorianFields f;
    const std::uint64_t time_low = be(u, 0, 4);
    const std::uint64_t time_mid = be(u, 4, 2);
    const std::uint64_t time_hi = (static_cast<std::uint64_t>(u.bytes[6] & 0x0f) << 8) | u.bytes[7];
    f.timestamp_100ns = (time_hi << 48) | (time_mid << 32) | time_low;
    f.clock_seq = static_cast<std::uint16_t>(((u.bytes[8] & 0x3f) << 8) | u.bytes[9]);
    f.node = be(u, 10, 6);
    return f;
}

GregorianFields decode_v6(const Uuid& u) noexcept {
    GregorianFields f;
    const std::uint64_t time_high = be(u, 0, 4);
    const std::uint64_t time_mid = be(u, 4, 2);
    const std::uint64_t time_low = (static_cast<std::uint64_t>(u.bytes[6] & 0x0f) << 8) | u.bytes[7];
    f.timestamp_100ns = (time_high << 28) | (time_mid << 12) | time_low;
    f.clock_seq = static_cast<std::uint16_t>(((u.bytes[8] & 0x3f) << 8) | u.bytes[9]);
    f.node = be(u, 10, 6);
    return f;
}

V8Fields decode_v8(const Uuid& u) noexcept {
    V8Fields f;
    f.custom_a = be(u, 0, 6);
    f.custom_b = static_cast<std::uint16_t>(((u.bytes[6] & 0x0f) << 8) | u.bytes[7]);
    f.custom_c = (static_cast<std::uint64_t>(u.bytes[8] & 0x3f) << 56) | be(u, 9, 7);
    return f;
}

std::int64_t GregorianFields::unix_ns() const noexcept {
    return (static_cast<std::int64_t>(timestamp_100ns) - static_cast<std::int64_t>(gregorian_to_unix_100ns)) * 100;
}

// ------------------------------------------------------------- ISO-8601

namespace {
// Days since 1970-01-01 -> civil date (proleptic Gregorian), H. Hinnant's algorithm.
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) noexcept {
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2) ++y;
}

std::string iso(std::int64_t units, std::int64_t per_second, int frac_digits) {
    std::int64_t secs = units / per_second;
    std::int64_t frac = units % per_second;
    if (frac < 0) { frac += per_second; --secs; }
    std::int64_t days = secs / 86400;
    std::int64_t rem = secs % 86400;
    if (rem < 0) { rem += 86400; --days; }
    std::int64_t y;
    unsigned m, d;
    civil_from_days(days, y, m, d);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%0*lldZ", static_cast<long long>(y), m, d,
                  static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60),
                  static_cast<long long>(rem % 60), frac_digits, static_cast<long long>(frac));
    return buf;
}
}  // namespace

std::string iso8601_ms(std::int64_t unix_ms) { return iso(unix_ms, 1000, 3); }
std::string iso8601_100ns(std::int64_t unix_100ns) { return iso(unix_100ns, 10000000, 7); }

}  // namespace idconform::ids
