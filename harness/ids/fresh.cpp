// Fresh ids of a declared kind (see of_kind.hpp). Randomness comes only from
// the OpenSSL CSPRNG (detail::secure_random), hashes from OpenSSL's EVP.
#include "ids/detail.hpp"
#include "ids/of_kind.hpp"

#include <openssl/evp.h>

#include <chrono>
#include <cstring>

namespace idconform::ids {

namespace {

Uuid random_uuid() {
    Uuid u;
    detail::secure_random(u.bytes.data(), u.bytes.size());
    return u;
}

Uuid with_version_variant(Uuid u, int v) {
    u.bytes[6] = static_cast<std::uint8_t>((u.bytes[6] & 0x0f) | (v << 4));
    u.bytes[8] = static_cast<std::uint8_t>((u.bytes[8] & 0x3f) | 0x80);
    return u;
}

// v1 and v6: 100 ns since 1582-10-15, a random 14-bit clock sequence and a
// random node with the multicast bit set (RFC 9562 6.10: not a MAC address).
Uuid gregorian(int v) {
    using namespace std::chrono;
    constexpr std::uint64_t gregorian_offset = 0x01B21DD213814000ULL;  // 100 ns from 1582-10-15 to 1970-01-01
    const auto unix_100ns =
        static_cast<std::uint64_t>(duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count() / 100);
    const std::uint64_t ts = (unix_100ns + gregorian_offset) & ((1ULL << 60) - 1);
    Uuid u = random_uuid();  // bytes 8-15: clock sequence and node
    auto& b = u.bytes;
    if (v == 1) {
        const auto low = static_cast<std::uint32_t>(ts);
        const auto mid = static_cast<std::uint16_t>(ts >> 32);
        const auto high = static_cast<std::uint16_t>(ts >> 48);
        b[0] = static_cast<std::uint8_t>(low >> 24);
        b[1] = static_cast<std::uint8_t>(low >> 16);
        b[2] = static_cast<std::uint8_t>(low >> 8);
        b[3] = static_cast<std::uint8_t>(low);
        b[4] = static_cast<std::uint8_t>(mid >> 8);
        b[5] = static_cast<std::uint8_t>(mid);
        b[6] = static_cast<std::uint8_t>(high >> 8);
        b[7] = static_cast<std::uint8_t>(high);
    } else {
        const std::uint64_t high = ts >> 12;  // 48 bits
        for (int i = 0; i < 6; ++i) b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(high >> (40 - 8 * i));
        b[6] = static_cast<std::uint8_t>((ts >> 8) & 0x0f);
        b[7] = static_cast<std::uint8_t>(ts);
    }
    b[10] = static_cast<std::uint8_t>(b[10] | 0x01);  // the node's multicast bit
    return with_version_variant(u, v);
}

// v3 (MD5) and v5 (SHA-1): the hash of a random name in the URL namespace.
Uuid name_based(int v) {
    static constexpr std::uint8_t url_namespace[16] = {0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1,
                                                       0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};
    const std::string name = "urn:idconform:fresh:" + format(random_uuid());
    std::string input(reinterpret_cast<const char*>(url_namespace), sizeof url_namespace);
    input += name;
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(input.data(), input.size(), digest, &n, v == 3 ? EVP_md5() : EVP_sha1(), nullptr) != 1 || n < 16)
        return with_version_variant(random_uuid(),
                                    v);  // no digest (a FIPS build without MD5): a random value of the form
    Uuid u;
    std::memcpy(u.bytes.data(), digest, 16);
    return with_version_variant(u, v);
}

V7Generator& v7_generator() {
    static V7Generator g;
    return g;
}
UlidGenerator& ulid_generator() {
    static UlidGenerator g;
    return g;
}

}  // namespace

std::string no_fresh_id(IdKind kind, const FreshOptions& options) {
    switch (kind) {
        case IdKind::uuidv8_legacy:
            return "its ids encode a legacy integer id and entity type with the target's salt: a client cannot "
                   "choose a fresh one";
        case IdKind::viewable:
            return "a viewable id's format is said by a profile's viewable: section, not by the kind";
        case IdKind::any: return "it says nothing of the ids' form";
        case IdKind::existing: {
            if (options.pattern.empty())
                return "without a pattern it says nothing of the ids' form; add pattern: (an RE2 expression of the "
                       "ids) to the id";
            std::string why;
            if (!text_matching(options.pattern, &why))
                return "idconform cannot make a text matching its pattern '" + options.pattern + "': " + why;
            // A pattern that admits a dummy ("0") admits others: a few tries find one.
            for (int attempt = 0; attempt < 32; ++attempt)
                if (auto t = text_matching(options.pattern); t && is_valid(*t, IdKind::existing)) return {};
            return "its pattern '" + options.pattern + "' matches no text but the absent-value dummies (\"\", \"0\")";
        }
        default: return {};
    }
}

std::optional<std::string> fresh_id(IdKind kind, const FreshOptions& options) {
    switch (kind) {
        case IdKind::uuid:
        case IdKind::uuidv7: return format(v7_generator().next());
        case IdKind::uuidv4: return format(generate_v4());
        case IdKind::uuidv8: return format(with_version_variant(random_uuid(), 8));
        case IdKind::uuidv1: return format(gregorian(1));
        case IdKind::uuidv6: return format(gregorian(6));
        case IdKind::uuidv3: return format(name_based(3));
        case IdKind::uuidv5: return format(name_based(5));
        case IdKind::ulid: return format_ulid(ulid_generator().next(), true);
        case IdKind::existing: {
            if (options.pattern.empty()) return std::nullopt;
            for (int attempt = 0; attempt < 32; ++attempt)
                if (auto t = text_matching(options.pattern); t && is_valid(*t, IdKind::existing)) return t;
            return std::nullopt;
        }
        case IdKind::uuidv8_legacy:
        case IdKind::viewable:
        case IdKind::any: return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace idconform::ids
