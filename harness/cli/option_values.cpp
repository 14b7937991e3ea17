// Range-checked numeric option values; see option_values.hpp.
#include "cli/option_values.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace idconform::cli {

namespace {

std::string shown(milliseconds d) {
    const long long ms = d.count();
    if (ms % 3600000 == 0 && ms > 0) return std::to_string(ms / 3600000) + "h";
    if (ms % 60000 == 0 && ms > 0) return std::to_string(ms / 60000) + "m";
    if (ms % 1000 == 0 && ms > 0) return std::to_string(ms / 1000) + "s";
    return std::to_string(ms) + "ms";
}

// The value in milliseconds as a double (not yet range-checked), or nullopt
// when malformed; from_chars also reads "nan" and "inf", caught by callers.
std::optional<double> duration_ms(std::string_view s) {
    double v = 0;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, v);
    if (ec != std::errc() || p == s.data()) return std::nullopt;
    const std::string_view unit(p, static_cast<std::size_t>(end - p));
    if (unit.empty() || unit == "s") return v * 1000;
    if (unit == "ms") return v;
    if (unit == "m") return v * 60000;
    if (unit == "h") return v * 3600000;
    return std::nullopt;
}

}  // namespace

std::string check_duration(std::string_view s, milliseconds min, milliseconds max) {
    const std::string q = "'" + std::string(s) + "'";
    const auto ms = duration_ms(s);
    if (!ms) return q + " is not a duration (examples: 500ms, 2s, 1m)";
    if (!std::isfinite(*ms)) return q + " is not a finite duration (examples: 500ms, 2s, 1m)";
    const std::string range = "; the range is " + shown(min) + " to " + shown(max);
    if (*ms < static_cast<double>(min.count())) return q + " is too short" + range;
    if (*ms > static_cast<double>(max.count())) return q + " is too long" + range;
    return {};
}

std::optional<milliseconds> parse_duration(std::string_view s, milliseconds max) {
    if (!check_duration(s, milliseconds(0), max).empty()) return std::nullopt;
    return milliseconds(static_cast<long long>(*duration_ms(s)));
}

CLI::Validator duration_validator(milliseconds min, milliseconds max) {
    return CLI::Validator([min, max](std::string& s) { return check_duration(s, min, max); }, "DURATION");
}

std::string check_rate(std::string_view s) {
    const std::string q = "'" + std::string(s) + "'";
    double v = 0;
    const char* end = s.data() + s.size();
    auto [p, ec] = std::from_chars(s.data(), end, v);
    const std::string_view unit(p, static_cast<std::size_t>(end - p));
    if (ec != std::errc() || p == s.data() || !(unit.empty() || unit == "/s" || unit == "/m"))
        return q + " is not a rate (examples: 20/s, 600/m)";
    if (!std::isfinite(v)) return q + " is not a finite rate (examples: 20/s, 600/m)";
    const double per_s = unit == "/m" ? v / 60.0 : v;
    if (per_s < 1.0 / 60.0 - 1e-12 || per_s > 1e6)
        return q + " is out of range; the range is 1/m to 1000000/s";
    return {};
}

std::optional<double> parse_rate(std::string_view s) {
    if (!check_rate(s).empty()) return std::nullopt;
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    (void)ec;
    return std::string_view(p, static_cast<std::size_t>(s.data() + s.size() - p)) == "/m" ? v / 60.0 : v;
}

CLI::Validator rate_validator() {
    return CLI::Validator([](std::string& s) { return check_rate(s); }, "RATE");
}

std::string check_count(std::string_view s, std::uint64_t min, std::uint64_t max) {
    const std::string q = "'" + std::string(s) + "'";
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    const std::string range = "; the range is " + std::to_string(min) + " to " + std::to_string(max);
    if (ec == std::errc::result_out_of_range) return q + " is too large" + range;
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return q + " is not a whole number" + range;
    if (v < min || v > max) return q + " is out of range" + range;
    return {};
}

CLI::Validator count_validator(std::uint64_t min, std::uint64_t max) {
    return CLI::Validator([min, max](std::string& s) { return check_count(s, min, max); }, "N");
}

void add_color_option(CLI::App* cmd, std::string& value) {
    cmd->add_option("--color", value,
                    "Colour on the console: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always "
                    "(CI log viewers render ANSI) or never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->default_str("auto");
}

reporters::ColorMode color_mode(const std::string& value) {
    return reporters::parse_color_mode(value).value_or(reporters::ColorMode::automatic);
}

}  // namespace idconform::cli
