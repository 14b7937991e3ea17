// `run --shard K/N`: a deterministic split of a run's work units (one loaded
// suite: a suite file, or a pack file x resource, with its own setup,
// teardown and cleanup) into N shards balanced by their number of cases.
// Every machine that loads the same suites and profile computes the same
// split, so N CI jobs each run one shard and together run everything once.
#pragma once

#include "suite/model.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idconform::shard {

struct ShardSpec {
    std::size_t index = 1;  // 1-based, K of K/N
    std::size_t count = 1;  // N
};
// "K/N" with 1 <= K <= N <= 1024; nullopt and `error` set otherwise.
[[nodiscard]] std::optional<ShardSpec> parse_shard(std::string_view text, std::string& error);

// The number of testcases a suite expands to: cases, for_each over vector
// sets (only/except applied), counts, and mutations of a captured id (the
// UUID mutation count, since the id is not known before the run), plus one
// for the suite's setup testcase when it has a setup.
[[nodiscard]] std::size_t estimated_cases(const suite::Suite& s);

// Shard of each unit (0-based), for units of the given weights: the largest
// unit first (ties: the earlier unit), each onto the least-loaded shard
// (ties: the lower shard). Pure and deterministic.
[[nodiscard]] std::vector<std::size_t> assign(const std::vector<std::size_t>& weights, std::size_t shards);

// Indices (in load order) of the suites shard `spec` runs: the preflight
// suites (every shard runs them), then the shard's share of the others.
[[nodiscard]] std::vector<std::size_t> select(const std::vector<suite::Suite>& suites, const ShardSpec& spec);

// A digest of what a run was asked to do (the profile's bytes and every
// unit's name and file, in order), FNV-1a 64 in hex: shard reports of the
// same run carry the same plan, and `merge` refuses reports whose plans
// differ.
[[nodiscard]] std::string plan_digest(const std::string& profile_text, const std::vector<suite::Suite>& suites);

}  // namespace idconform::shard
