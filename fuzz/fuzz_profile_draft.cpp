// Fuzz target: `idconform init --from-openapi` on a document in memory. The
// draft of any document that reads must load with the profile loader, or
// fail to load only because the document has no create (the draft says so);
// it never holds a placeholder the document wrote (a line that is not a
// comment with '${' other than the drafter's own ${env:IDCONFORM_...}).
#include "profile/profile.hpp"
#include "schema/profile_draft.hpp"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace idconform;

namespace {

// a '${' outside comments that is not one of the drafter's placeholders
bool foreign_placeholder(const std::string& y) {
    for (std::size_t at = y.find("${"); at != std::string::npos; at = y.find("${", at + 2)) {
        const std::size_t line = y.rfind('\n', at) == std::string::npos ? 0 : y.rfind('\n', at) + 1;
        const std::size_t hash = y.find('#', line);
        if (hash != std::string::npos && hash < at) continue;
        if (y.compare(at, 16, "${env:IDCONFORM_") != 0) return true;
        // the drafter's own: ${env:IDCONFORM_BASE_URL[:-url]}, _TOKEN_A/B, _BASIC_A/B
        const std::size_t close = y.find('}', at);
        const std::string name = y.substr(at + 6, y.find_first_of(":}", at + 6) - at - 6);
        if (close == std::string::npos ||
            !(name == "IDCONFORM_BASE_URL" || name == "IDCONFORM_TOKEN_A" || name == "IDCONFORM_TOKEN_B" ||
              name == "IDCONFORM_BASIC_A" || name == "IDCONFORM_BASIC_B"))
            return true;
    }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const schema::ProfileDraft d = schema::draft_profile_text("fuzz.openapi.yaml", text);
    for (const auto& e : d.errors) (void)render(e);
    if (!d.errors.empty()) return 0;
    if (foreign_placeholder(d.yaml)) std::abort();
    const profile::LoadResult r = profile::load_profile_text(d.yaml, "draft.target.yaml");
    if (!r.profile && !d.no_create) std::abort();
    return 0;
}
