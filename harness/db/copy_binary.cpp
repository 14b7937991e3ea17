// Framing of a binary COPY stream (copy_binary.hpp).
#include "db/copy_binary.hpp"

#include <cstdint>
#include <cstring>

namespace idconform::db {

namespace {

std::uint32_t be32(const char* p) {
    const auto* u = reinterpret_cast<const unsigned char*>(p);
    return (std::uint32_t{u[0]} << 24) | (std::uint32_t{u[1]} << 16) | (std::uint32_t{u[2]} << 8) | u[3];
}
std::uint16_t be16(const char* p) {
    const auto* u = reinterpret_cast<const unsigned char*>(p);
    return static_cast<std::uint16_t>((u[0] << 8) | u[1]);
}

}  // namespace

bool BinaryCopy::feed(std::string_view chunk, const ValueSink& sink, bool& stop) {
    std::string_view in = chunk;
    if (!carry_.empty()) {
        carry_.append(chunk);
        in = carry_;
    }
    std::size_t pos = 0;
    while (!done) {
        if (!header_) {
            if (in.size() - pos < 19) break;
            if (std::memcmp(in.data() + pos, "PGCOPY\n\377\r\n\0", 11) != 0) return fail("not a binary COPY header");
            const std::uint32_t ext = be32(in.data() + pos + 15);
            if (in.size() - pos < 19 + std::size_t{ext}) break;
            pos += 19 + ext;
            header_ = true;
        }
        if (in.size() - pos < 2) break;
        const std::uint16_t fields = be16(in.data() + pos);
        if (fields == 0xffff) {
            done = true;
            pos += 2;
            break;
        }
        if (fields != 1) return fail("a row of " + std::to_string(fields) + " fields where one was asked");
        if (in.size() - pos < 6) break;
        const std::uint32_t len = be32(in.data() + pos + 2);
        if (len == 0xffffffffu) {
            pos += 6;
            if (!stop && !sink(Value{{}, true})) stop = true;
            continue;
        }
        if (in.size() - pos - 6 < len) break;
        if (!stop && !sink(Value{in.substr(pos + 6, len), false})) stop = true;
        pos += 6 + std::size_t{len};
    }
    std::string rest(in.substr(pos));
    carry_ = std::move(rest);
    return true;
}

}  // namespace idconform::db
