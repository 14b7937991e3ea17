// `run --shard K/N` and the run's plan metadata (run_plan.hpp).
#include "cli/run_plan.hpp"

#include "shard/shard.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

namespace idconform::cli {

bool plan_run(std::vector<suite::Suite>& suites, const std::string& shard_text, const std::string& profile_name,
              const std::string& profile_text, reporters::RunInfo& extras, std::string& error) {
    extras.profile = profile_name;
    extras.plan = shard::plan_digest(profile_text, suites);
    if (shard_text.empty()) return true;
    const auto spec = shard::parse_shard(shard_text, error);
    if (!spec) return false;
    extras.shard_index = spec->index;
    extras.shard_count = spec->count;
    extras.total_units = suites.size();
    extras.units = shard::select(suites, *spec);
    std::size_t cases = 0, all = 0;
    for (const auto& s : suites) all += shard::estimated_cases(s);
    std::vector<suite::Suite> mine;
    mine.reserve(extras.units.size());
    for (std::size_t u : extras.units) {
        if (suites[u].preflight) extras.every_shard.push_back(u);
        cases += shard::estimated_cases(suites[u]);
        mine.push_back(std::move(suites[u]));
    }
    suites = std::move(mine);
    std::cerr << "idconform: shard " << spec->index << "/" << spec->count << ": " << extras.units.size() << " of "
              << extras.total_units << " suites, about " << cases << " of " << all << " cases\n";
    return true;
}

void PlanReporter::run_started(const reporters::RunInfo& info) {
    reporters::RunInfo merged = info;
    merged.profile = extras_.profile;
    merged.plan = extras_.plan;
    merged.shard_index = extras_.shard_index;
    merged.shard_count = extras_.shard_count;
    merged.units = extras_.units;
    merged.every_shard = extras_.every_shard;
    merged.total_units = extras_.total_units;
    inner_.run_started(merged);
}

}  // namespace idconform::cli
