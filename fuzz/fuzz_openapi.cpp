// Fuzz target: the OpenAPI side of `idconform lint` on a document in memory:
// the input boundary and yaml-cpp, the SpecSet ($ref resolution, JSON
// pointers, duplicate keys, shape checks), the walker and every check. It
// must finish in bounded time and memory for any bytes, and every finding,
// error and warning must carry a position in the document.
#include "schema/lint.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const schema::LintResult r = schema::lint_openapi_text("fuzz.openapi.yaml", text);
    for (const auto& f : r.findings) {
        if (f.pos.file != "fuzz.openapi.yaml" || f.pos.line < 1 || f.pos.column < 1) std::abort();
        (void)schema::format_finding(f);
    }
    for (const auto& d : r.errors) (void)render(d);
    for (const auto& d : r.warnings)
        if (d.pos.file != "fuzz.openapi.yaml") std::abort();
    return 0;
}
