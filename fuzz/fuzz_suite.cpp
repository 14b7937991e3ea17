// Fuzz target: the suite loader. Any bytes go through load_text (the input
// boundary, yaml-cpp, the typed reader, every section): it must return, in
// bounded time and memory, a suite or diagnostics - never both, never a
// crash. The same bytes as a vector-set file are read by the fast simple
// reader and by yaml-cpp: when the fast reader accepts a file, both must give
// the same set (names, values, fields and positions).
#include "suite/input_guard.hpp"
#include "suite/loader.hpp"
#include "suite/simple_vectors.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <boost/json/serialize.hpp>

#include <fcntl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace idconform;
using namespace idconform::suite;

namespace {

void require(bool ok, const char* what = "") {
    if (ok) return;
    std::fprintf(stderr, "fuzz_suite: %s\n", what);
    std::abort();
}

bool same_pos(const SourcePos& a, const SourcePos& b) { return a.line == b.line && a.column == b.column; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);

    const LoadResult r = load_text(text, "fuzz.yaml");
    require(r.suite.has_value() == r.diagnostics.empty());
    for (const auto& d : r.diagnostics) (void)render(d);

    // The fast reader only ever sees text that passed the input boundary
    // (read_input_file checks NUL bytes and UTF-8 first).
    if (detail::check_text(text, "fuzz.vectors.yaml")) return 0;
    const auto fast = detail::read_simple_vector_set(text, "fuzz.vectors.yaml");
    if (fast) {
        // A regular file the input guard reads (it refuses /proc/self/fd/N of a memfd).
        // One per process, removed when it exits.
        struct Scratch {
            std::string path = "/dev/shm/idconform-fuzz-" + std::to_string(::getpid()) + ".vectors.yaml";
            ~Scratch() { ::unlink(path.c_str()); }
        };
        static const Scratch scratch;
        const std::string& path = scratch.path;
        static const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        require(fd >= 0);
        require(::ftruncate(fd, 0) == 0);
        require(::pwrite(fd, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()));
        const VectorLoadResult slow = load_vector_file(path, false);
        if (!slow.set)
            for (const auto& d : slow.diagnostics) std::fputs(render(d).c_str(), stderr);
        require(slow.set.has_value(), "the fast reader accepts a vector set that yaml-cpp's path rejects");
        const VectorSet& a = *fast;
        const VectorSet& b = *slow.set;
        require(a.name == b.name && a.description == b.description && same_pos(a.pos, b.pos), "set name/description/pos");
        require(a.vectors.size() == b.vectors.size(), "vector count");
        for (std::size_t i = 0; i < a.vectors.size(); ++i) {
            require(a.vectors[i].name == b.vectors[i].name, "vector name");
            if (!(a.vectors[i].value == b.vectors[i].value))
                std::fprintf(stderr, "fast: %s\nyaml-cpp: %s\n", boost::json::serialize(a.vectors[i].value).c_str(),
                             boost::json::serialize(b.vectors[i].value).c_str());
            require(a.vectors[i].value == b.vectors[i].value, "vector value");
            require(a.vectors[i].fields == b.vectors[i].fields, "vector fields");
            require(same_pos(a.vectors[i].pos, b.vectors[i].pos), "vector position");
        }
    }
    return 0;
}
