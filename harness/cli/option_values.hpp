// Numeric command-line values, range-checked: durations, rates and sizes.
// A value out of range (nan, inf, negative, zero where zero makes no sense,
// more than the program can represent) is a usage error (exit 2) with a
// message naming the accepted range, never a silently odd run.
#pragma once

#include "reporters/console_reporter.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace idconform::cli {

using std::chrono::milliseconds;

// "500ms", "2s", "1.5s", "1m", "3" (seconds) -> milliseconds, rounded down;
// nullopt when malformed, not finite, negative or above `max`.
[[nodiscard]] std::optional<milliseconds> parse_duration(std::string_view s, milliseconds max = std::chrono::hours(24));
// "" when `s` is a duration in [min, max], else why not (for CLI11).
[[nodiscard]] std::string check_duration(std::string_view s, milliseconds min, milliseconds max);
[[nodiscard]] CLI::Validator duration_validator(milliseconds min, milliseconds max = std::chrono::hours(24));

// "20/s", "600/m", "20" -> requests per second, within [1/m, 1,000,000/s];
// nullopt otherwise.
[[nodiscard]] std::optional<double> parse_rate(std::string_view s);
[[nodiscard]] std::string check_rate(std::string_view s);
[[nodiscard]] CLI::Validator rate_validator();

// A whole number of at most 20 digits within [min, max] (no sign, no
// fraction: CLI11 alone wraps "-1" into 2^64-1 for unsigned options).
[[nodiscard]] std::string check_count(std::string_view s, std::uint64_t min, std::uint64_t max);
[[nodiscard]] CLI::Validator count_validator(std::uint64_t min, std::uint64_t max);

// `--color auto|always|never` on a command that writes the console report,
// and the mode its value names (checked by the option).
void add_color_option(CLI::App* cmd, std::string& value);
[[nodiscard]] reporters::ColorMode color_mode(const std::string& value);

}  // namespace idconform::cli
