// Fuzz target, differential: the scan readers (NDJSON, JSON arrays, CSV).
// The first input byte picks the format and options, the rest is the file.
// The reference is the scalar reader over the text in memory; the same bytes
// must give identical violations, counts and errors with the NDJSON fast
// path, and through a memfd read with a tiny buffer (1-64 bytes, from the
// input) and a large one, each in one pass and as two halves on two threads.
#include "scan/scan.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace idconform::scan;

namespace {

// On a difference, both results go to stderr (the crash report shows them).
void same(const std::vector<std::string>& got, const std::vector<std::string>& want, const char* what) {
    if (got == want) return;
    std::fprintf(stderr, "scan results differ (%s):\n-- reference (scalar, memory):\n", what);
    for (const auto& l : want) std::fprintf(stderr, "  %s\n", l.c_str());
    std::fprintf(stderr, "-- %s:\n", what);
    for (const auto& l : got) std::fprintf(stderr, "  %s\n", l.c_str());
    std::abort();
}

void require(bool ok) {
    if (!ok) std::abort();
}

std::vector<std::string> run(std::string_view text, Options o, std::size_t buffer, bool halves) {
    std::vector<std::string> out;
    auto sink = [&](const Violation& v) {
        out.push_back(std::to_string(v.line) + ":" + std::to_string(v.column) + "|" + v.rule + "|" + v.where + "|" +
                      v.expected + "|" + v.actual);
        return true;
    };
    Stats st;
    if (buffer == 0) {
        // an exact-size heap copy, so ASan sees a read past the end
        const auto exact = std::make_unique<char[]>(text.size());
        if (!text.empty()) std::memcpy(exact.get(), text.data(), text.size());
        st = scan_text(std::string_view(exact.get(), text.size()), o, sink);
    } else {
        static const int fd = ::memfd_create("fuzz.scan", 0);
        require(fd >= 0);
        require(::ftruncate(fd, 0) == 0);
        if (!text.empty()) require(::pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()));
        require(::lseek(fd, 0, SEEK_SET) == 0);
        o.buffer_bytes = buffer;
        o.threads = halves ? 2 : 1;
        o.split_min_bytes = 0;
        st = scan_fd(fd, o, sink);
    }
    // Counts of a scan that ended in an error say how far it got, which
    // depends on the buffer (a too-long line is found at a refill): only
    // the violations and the error itself must agree then.
    if (!st.error)
        out.push_back("records=" + std::to_string(st.records) + " values=" + std::to_string(st.values) +
                      " violations=" + std::to_string(st.violations) + " bytes=" + std::to_string(st.bytes));
    if (st.error)
        out.push_back("error " + std::to_string(st.error->line) + ":" + std::to_string(st.error->column) + "@" +
                      std::to_string(st.error->offset) + " " + st.error->message);
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t sel = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

    Options o;
    o.format = sel % 3 == 0 ? Format::ndjson : sel % 3 == 1 ? Format::json : Format::csv;
    o.shape = (sel & 0x08) == 0;
    if (sel & 0x10) {
        if (o.format == Format::csv)
            o.fields.push_back(FieldSpec{"id", "uuidv7", (sel & 0x20) != 0});
        else
            o.fields.push_back(FieldSpec{"/id", "uuidv7", (sel & 0x20) != 0});
    }
    if (sel & 0x40) o.fields.push_back(FieldSpec{o.format == Format::csv ? "owner_id" : "/items/*/owner_id", "ulid"});
    if (sel & 0x80) o.max_line_bytes = 64;
    const std::size_t tiny = 1 + (size * 7 + sel) % 64;

    Options scalar = o;
    scalar.fast_path = false;
    const auto reference = run(text, scalar, 0, false);
    same(run(text, o, 0, false), reference, "fast path, memory");
    same(run(text, scalar, tiny, false), reference, "scalar, tiny buffer");
    same(run(text, o, tiny, false), reference, "fast path, tiny buffer");
    same(run(text, o, 1u << 16, false), reference, "fast path, 64 KiB buffer");
    if (o.format != Format::json) same(run(text, o, tiny, true), reference, "two halves, tiny buffer");
    return 0;
}
