// Fuzz target: the target-profile loader (the same input boundary as suites,
// then profile/load.cpp). It must return a profile or diagnostics - never
// both - in bounded time and memory, for any bytes.
#include "profile/profile.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const profile::LoadResult r = profile::load_profile_text(text, "fuzz.target.yaml");
    if (r.profile.has_value() != r.diagnostics.empty()) std::abort();
    for (const auto& d : r.diagnostics) (void)render(d);
    return 0;
}
