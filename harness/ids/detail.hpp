// Internal tables and bit helpers shared by the identifier module's sources.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace idconform::ids::detail {

constexpr std::array<std::int8_t, 256> make_hex_table(bool accept_upper) {
    std::array<std::int8_t, 256> t{};
    for (auto& v : t) v = -1;
    for (int c = '0'; c <= '9'; ++c) t[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c - '0');
    for (int c = 'a'; c <= 'f'; ++c) t[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c - 'a' + 10);
    if (accept_upper)
        for (int c = 'A'; c <= 'F'; ++c) t[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(c - 'A' + 10);
    return t;
}
inline constexpr auto lower_hex_value = make_hex_table(false);
inline constexpr auto any_hex_value = make_hex_table(true);

// Bits numbered from the most significant bit of byte 0.
inline std::uint64_t get_bits(const std::uint8_t* data, int offset, int count) noexcept {
    std::uint64_t v = 0;
    for (int i = 0; i < count; ++i) {
        const int bit = offset + i;
        v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1u);
    }
    return v;
}
inline void set_bits(std::uint8_t* data, int offset, int count, std::uint64_t value) noexcept {
    for (int i = 0; i < count; ++i) {
        const int bit = offset + i;
        const auto mask = static_cast<std::uint8_t>(1u << (7 - (bit & 7)));
        if ((value >> (count - 1 - i)) & 1u)
            data[bit >> 3] = static_cast<std::uint8_t>(data[bit >> 3] | mask);
        else
            data[bit >> 3] = static_cast<std::uint8_t>(data[bit >> 3] & ~mask);
    }
}

// Fills `out` with cryptographically secure random bytes (OpenSSL); aborts
// if the CSPRNG fails, since ids made from bad randomness must never go out.
void secure_random(std::uint8_t* out, std::size_t n);

// The same bytes from a per-thread 4 KiB buffer of them (one RAND_bytes call
// per 4 KiB, each byte handed out once): for the many small draws of v4 ids
// and of text made to match a pattern. n at most 4096.
void pooled_random(std::uint8_t* out, std::size_t n);

}  // namespace idconform::ids::detail
