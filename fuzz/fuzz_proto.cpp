// Fuzz target: the .proto reader of `idconform lint` (harness/schema/
// proto_lint.cpp: protobuf's tokenizer, the token arena and the declaration
// walker), after the input guard's text check as lint_proto does. Any bytes
// give findings or errors in bounded time and memory, never a crash; every
// error renders.
#include "core/input_file.hpp"
#include "schema/lint.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (input::check_text(text, "fuzz.proto", ".proto")) return 0;  // lint_proto stops there
    const schema::LintResult r = schema::lint_proto_text(text, "fuzz.proto");
    if (r.files != 1) std::abort();
    for (const auto& d : r.errors) (void)render(d);
    for (const auto& f : r.findings)
        if (f.rule.empty()) std::abort();
    return 0;
}
