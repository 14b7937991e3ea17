// Fuzz target: the waivers reader (harness/audit/waivers.hpp), what
// `--waivers FILE` reads. The input is the file; a refused file must say
// why with a diagnostic, and an accepted one is applied to a few cases
// (scope globs against names built from the input).
#include "audit/waivers.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;
using namespace idconform::audit;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const WaiverLoad load = load_waivers_text(text, "w.yaml");
    if (!load.file) {
        if (load.diagnostics.empty()) std::abort();  // refused without saying why
        return 0;
    }
    if (!load.diagnostics.empty()) std::abort();
    CaseResult c;
    c.suite = "data-id products";
    c.name = text.substr(0, 32);
    c.rules = {"DATA-ID-002"};
    for (const auto& w : load.file->waivers) {
        (void)covers(w, c);
        (void)scope_text(w);
    }
    return 0;
}
