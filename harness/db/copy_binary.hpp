// The binary format of COPY ... TO STDOUT (FORMAT binary) for one column,
// read across the CopyData messages libpq hands over (PQgetCopyData): the
// 19-byte header (and its extension) in front of the first row, rows of one
// field (a 4-byte length, -1 for null, then the bytes), the -1 trailer. A
// message may end inside a row: at most one partial row is kept. Pure, so
// the framing is tested without a server.
#pragma once

#include "db/catalog.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace idconform::db {

class BinaryCopy {
public:
    explicit BinaryCopy(std::size_t fields = 1) : fields_(fields) {}
    // Feeds one message; calls sink per complete value (row) until it
    // returns false (`stop` then stays true and the rest is only framed).
    // false with `error` set on a malformed stream; `done` at the trailer.
    bool feed(std::string_view chunk, const ValueSink& sink, bool& stop);
    bool feed_rows(std::string_view chunk, const RowSink& sink, bool& stop);
    bool done = false;
    std::string error;

private:
    bool fail(std::string why) {
        error = std::move(why);
        return false;
    }
    std::size_t fields_;
    bool header_ = false;
    std::string carry_;
};

}  // namespace idconform::db
