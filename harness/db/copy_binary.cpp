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
    return feed_rows(
        chunk, [&](const Value* v, std::size_t) { return sink(v[0]); }, stop);
}

bool BinaryCopy::feed_rows(std::string_view chunk, const RowSink& sink, bool& stop) {
    std::string_view in = chunk;
    if (!carry_.empty()) {
        carry_.append(chunk);
        in = carry_;
    }
    std::size_t pos = 0;
    Value row[4];
    if (fields_ == 0 || fields_ > 4) return fail("rows of 1 to 4 fields only");
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
        if (fields != fields_)
            return fail("a row of " + std::to_string(fields) + " fields where " + std::to_string(fields_) +
                        (fields_ == 1 ? " was" : " were") + " asked");
        // the whole row must be here before any of it is used
        std::size_t at = pos + 2;
        bool complete = true;
        for (std::size_t f = 0; f < fields_; ++f) {
            if (in.size() - at < 4) {
                complete = false;
                break;
            }
            const std::uint32_t len = be32(in.data() + at);
            at += 4;
            if (len == 0xffffffffu) {
                row[f] = Value{{}, true};
                continue;
            }
            if (in.size() - at < len) {
                complete = false;
                break;
            }
            row[f] = Value{in.substr(at, len), false};
            at += len;
        }
        if (!complete) break;
        if (!stop && !sink(row, fields_)) stop = true;
        pos = at;
    }
    std::string rest(in.substr(pos));
    carry_ = std::move(rest);
    return true;
}

}  // namespace idconform::db
