// The run's notes about entities left behind by design (see left_behind.hpp).
#include "runner/left_behind.hpp"

#include <algorithm>

namespace idconform::runner {

std::vector<std::string> left_behind_notes(const std::vector<SuiteRun::LeftBehind>& left) {
    constexpr std::size_t shown = 20;  // ids named per note; a long run names the rest by count
    struct Group {
        std::string why;
        std::vector<std::string> ids;
        std::size_t unknown = 0;  // created, but no id in the answer
    };
    std::vector<Group> groups;
    for (const auto& l : left) {
        auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.why == l.why; });
        if (it == groups.end()) it = groups.insert(groups.end(), Group{l.why, {}, 0});
        if (l.id.empty()) ++it->unknown;
        else it->ids.push_back(l.id);
    }
    std::vector<std::string> out;
    for (const auto& g : groups) {
        const std::size_t n = g.ids.size() + g.unknown;
        std::string note = "left on the target: " + std::to_string(n) + (n == 1 ? " entity" : " entities") +
                           " this run created, because " + g.why;
        if (!g.ids.empty()) {
            note += "; ids ";
            for (std::size_t i = 0; i < g.ids.size() && i < shown; ++i) note += (i ? ", " : "") + g.ids[i];
            if (g.ids.size() > shown) note += " and " + std::to_string(g.ids.size() - shown) + " more";
        }
        if (g.unknown) note += "; " + std::to_string(g.unknown) + " whose id the create answer did not give";
        out.push_back(std::move(note));
    }
    return out;
}

}  // namespace idconform::runner
