// UUIDv8 "legacy" layout (seed 003): a deterministic UUIDv8 carrying a flag,
// a 32-bit legacy integer id and a 15-bit entity type, the remaining bits
// filled from a salted SHA-256. The layout is configurable; version and
// variant positions are fixed by RFC 9562.
#include "ids/ids.hpp"
#include "ids/detail.hpp"

#include <openssl/sha.h>

namespace idconform::ids {

std::string LegacyLayout::validate() const {
    struct Field { const char* name; int offset; int bits; int max_bits; };
    const Field fields[] = {{"flag", flag_bit, 1, 1},
                            {"id", id_offset, id_bits, 64},
                            {"type", type_offset, type_bits, 32},
                            {"hash1", hash1_offset, hash1_bits, 64},
                            {"hash2", hash2_offset, hash2_bits, 64},
                            {"version", 48, 4, 4},
                            {"variant", 64, 2, 2}};
    std::array<const char*, 128> owner{};
    for (const auto& f : fields) {
        if (f.bits < 0 || f.bits > f.max_bits)
            return std::string(f.name) + " width " + std::to_string(f.bits) + " is outside 0.." + std::to_string(f.max_bits);
        if (f.offset < 0 || f.offset + f.bits > 128)
            return std::string(f.name) + " bits " + std::to_string(f.offset) + ".." + std::to_string(f.offset + f.bits - 1) +
                   " fall outside the 128 bits";
        for (int b = f.offset; b < f.offset + f.bits; ++b) {
            if (owner[static_cast<std::size_t>(b)])
                return std::string(f.name) + " overlaps " + owner[static_cast<std::size_t>(b)] + " at bit " + std::to_string(b);
            owner[static_cast<std::size_t>(b)] = f.name;
        }
    }
    if (hash1_bits + hash2_bits > 256) return "hash parts take more than the 256 bits of SHA-256";
    return {};
}

namespace {
std::array<std::uint8_t, 32> legacy_digest(std::uint64_t legacy_id, std::uint32_t entity_type, std::string_view salt) {
    std::string input = std::to_string(legacy_id) + std::to_string(entity_type);
    input.append(salt);
    std::array<std::uint8_t, 32> d{};
    SHA256(reinterpret_cast<const unsigned char*>(input.data()), input.size(), d.data());
    return d;
}
}  // namespace

Uuid encode_legacy(std::uint64_t legacy_id, std::uint32_t entity_type, std::string_view salt, const LegacyLayout& l) {
    Uuid u;
    auto* b = u.bytes.data();
    const auto digest = legacy_digest(legacy_id, entity_type, salt);
    detail::set_bits(b, l.flag_bit, 1, 1);
    detail::set_bits(b, l.id_offset, l.id_bits, legacy_id);
    detail::set_bits(b, l.type_offset, l.type_bits, entity_type);
    detail::set_bits(b, 48, 4, 0x8);
    detail::set_bits(b, 64, 2, 0x2);
    detail::set_bits(b, l.hash1_offset, l.hash1_bits, detail::get_bits(digest.data(), 0, l.hash1_bits));
    detail::set_bits(b, l.hash2_offset, l.hash2_bits, detail::get_bits(digest.data(), l.hash1_bits, l.hash2_bits));
    return u;
}

LegacyFields decode_legacy(const Uuid& u, const LegacyLayout& l) noexcept {
    LegacyFields f;
    const auto* b = u.bytes.data();
    f.legacy_flag = detail::get_bits(b, l.flag_bit, 1) == 1;
    f.legacy_id = detail::get_bits(b, l.id_offset, l.id_bits);
    f.entity_type = static_cast<std::uint32_t>(detail::get_bits(b, l.type_offset, l.type_bits));
    return f;
}

bool verify_legacy_hash(const Uuid& u, std::string_view salt, const LegacyLayout& l) {
    const LegacyFields f = decode_legacy(u, l);
    return f.legacy_flag && encode_legacy(f.legacy_id, f.entity_type, salt, l) == u;
}

std::string format_layout(const LegacyLayout& l) {
    auto f = [](int offset, int bits) { return std::to_string(offset) + ":" + std::to_string(bits); };
    return "flag=" + std::to_string(l.flag_bit) + " id=" + f(l.id_offset, l.id_bits) + " type=" +
           f(l.type_offset, l.type_bits) + " hash1=" + f(l.hash1_offset, l.hash1_bits) + " hash2=" +
           f(l.hash2_offset, l.hash2_bits);
}

std::optional<LegacyLayout> parse_layout(std::string_view text, std::string* error) {
    LegacyLayout l;
    auto fail = [&](std::string why) -> std::optional<LegacyLayout> {
        if (error) *error = std::move(why);
        return std::nullopt;
    };
    auto number = [](std::string_view s, int& out) {
        if (s.empty() || s.size() > 3) return false;
        out = 0;
        for (char c : s) {
            if (c < '0' || c > '9') return false;
            out = out * 10 + (c - '0');
        }
        return true;
    };
    while (!text.empty()) {
        const std::size_t sp = text.find(' ');
        const std::string_view item = text.substr(0, sp);
        text = sp == std::string_view::npos ? std::string_view{} : text.substr(sp + 1);
        if (item.empty()) continue;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos) return fail("'" + std::string(item) + "' is not name=value");
        const std::string_view name = item.substr(0, eq), value = item.substr(eq + 1);
        if (name == "flag") {
            if (!number(value, l.flag_bit)) return fail("flag=" + std::string(value) + " is not a bit number");
            continue;
        }
        int* slots[2] = {nullptr, nullptr};
        if (name == "id") slots[0] = &l.id_offset, slots[1] = &l.id_bits;
        else if (name == "type") slots[0] = &l.type_offset, slots[1] = &l.type_bits;
        else if (name == "hash1") slots[0] = &l.hash1_offset, slots[1] = &l.hash1_bits;
        else if (name == "hash2") slots[0] = &l.hash2_offset, slots[1] = &l.hash2_bits;
        else return fail("unknown layout field '" + std::string(name) + "' (flag, id, type, hash1, hash2)");
        const std::size_t colon = value.find(':');
        if (colon == std::string_view::npos || !number(value.substr(0, colon), *slots[0]) ||
            !number(value.substr(colon + 1), *slots[1]))
            return fail(std::string(name) + "=" + std::string(value) + " is not offset:bits");
    }
    if (std::string why = l.validate(); !why.empty()) return fail(why);
    return l;
}

}  // namespace idconform::ids
