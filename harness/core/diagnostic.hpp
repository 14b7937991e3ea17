// Errors as typed data, rendered once. A Diagnostic carries the position it
// is about, a one-line title and a hint on how to fix it; render() prints
//   file:line:col: error: title
//      12 |   stauts: 200
//         |   ^
//   hint: unknown key 'stauts'; did you mean 'status'?
// for the console, and the same text goes into JUnit and JSON reports.
#pragma once

#include "core/exchange.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace idconform {

struct Diagnostic {
    SourcePos pos;
    std::string title;
    std::string hint;
    std::string source_line;  // the line at pos, filled by whoever has the text
};

// Renders one diagnostic; reads the source line from pos.file when
// source_line is empty and the file is readable.
[[nodiscard]] std::string render(const Diagnostic& d);

// The closest candidate within a small edit distance, or "" if none.
[[nodiscard]] std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

// Levenshtein distance (bytes).
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace idconform
