// Rendering of diagnostics (file:line:col, source excerpt with a caret, hint)
// and the "did you mean" helper every unknown-name error uses.
#include "core/diagnostic.hpp"

#include "core/input_file.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <memory>
#include <vector>

namespace idconform {

namespace {

// Reads line `line` (1-based) of `file`; "" when the file or line is
// missing, when the file is not a regular file the input guard lets through
// (never a pipe, a device or a file under /proc, /sys or /dev), and when the
// line is not text (a NUL byte, invalid UTF-8, a control character): the
// bytes of a file that is not text are never shown.
std::string read_line(const std::string& file, int line) {
    if (file.empty() || line <= 0) return {};
    input::Opened f = input::open_input(file, {.what = "file", .named_by = input::NamedBy::file, .pipes = false});
    if (f.error) return {};
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(::fdopen(f.fd.get(), "rb"), &std::fclose);
    if (!in) return {};
    (void)f.fd.release();
    std::string text;
    int at = 1;
    for (int c; (c = std::getc(in.get())) != EOF;) {
        if (c == '\n') {
            if (at == line) break;
            ++at;
            continue;
        }
        if (at == line) {
            if (text.size() > 4096) return {};
            text += static_cast<char>(c);
        }
    }
    if (at != line) return {};
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (input::check_text(text, file)) return {};
    for (const char ch : text)
        if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7F) return {};
    return text;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Optimal string alignment distance: Levenshtein plus adjacent
// transpositions, the most common typo ("stauts", "GTE"). Three rows of the
// table (the two before and this one), not n + 1 rows of it: a word of a
// hostile file can be megabytes long.
std::size_t typo_distance(std::string_view a, std::string_view b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::size_t> rows(3 * (m + 1));  // one allocation: this runs for every candidate of every unknown key
    std::size_t* before = rows.data();
    std::size_t* prev = before + (m + 1);
    std::size_t* row = prev + (m + 1);
    for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
    for (std::size_t i = 1; i <= n; ++i) {
        row[0] = i;
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                row[j] = std::min(row[j], before[j - 2] + 1);
        }
        std::swap(before, prev);  // before: row i - 1, prev: row i
        std::swap(prev, row);
    }
    return prev[m];
}

// Text of an input file shown on a terminal: C0 controls but TAB, DEL, C1
// controls (U+0080-U+009F) and bytes that are not UTF-8 become visible
// escapes (\u001B, \x9B), so a file cannot move the cursor, retitle the
// window or recolour what follows.
std::string terminal_safe(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    char buf[8];
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if ((c < 0x20 && c != '\t') || c == 0x7F) {
            std::snprintf(buf, sizeof buf, "\\u%04X", c);
            out += buf;
        } else if (c < 0x80) {
            out += static_cast<char>(c);
        } else {
            // one UTF-8 sequence, checked; C1 (C2 80-9F) escaped
            const std::size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
            bool ok = len > 0 && i + len <= s.size();
            for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
            if (ok && len == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
                std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned char>(s[i + 1]));
                out += buf;
                ++i;
            } else if (ok) {
                out.append(s.substr(i, len));
                i += len - 1;
            } else {
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                out += buf;
            }
        }
    }
    return out;
}

}  // namespace

std::string render(const Diagnostic& d) {
    std::string out;
    const std::string where = d.pos.str();
    if (!where.empty()) out += where + ": ";
    out += "error: " + terminal_safe(d.title) + "\n";

    std::string source = d.source_line;
    if (source.empty() && d.pos.line > 0) source = read_line(d.pos.file, d.pos.line);
    if (!source.empty() && d.pos.line > 0) {
        // The gutter is at least five wide so excerpts of nearby lines align.
        const std::string number = std::to_string(d.pos.line);
        const std::size_t width = std::max<std::size_t>(5, number.size() + 1);
        out += std::string(width - number.size(), ' ') + number + " | " + terminal_safe(source) + "\n";
        // Copy tabs from the source so the caret lands under the right byte
        // whatever the terminal's tab width is (under the escaped text).
        std::string pad;
        const auto col = static_cast<std::size_t>(std::max(1, d.pos.column) - 1);
        for (const char ch : terminal_safe(std::string_view(source).substr(0, std::min(col, source.size()))))
            pad += ch == '\t' ? '\t' : ' ';
        out += std::string(width, ' ') + " | " + pad + "^\n";
    }
    // A hint may hold lines (an example to paste): each is shown on a line
    // of its own under the first, indented past "hint: ", and made terminal-safe.
    if (!d.hint.empty()) {
        out += "hint: ";
        std::string_view rest = d.hint;
        for (;;) {
            const std::size_t nl = rest.find('\n');
            out += terminal_safe(rest.substr(0, nl)) + "\n";
            if (nl == std::string_view::npos) break;
            rest.remove_prefix(nl + 1);
            out += "      ";
        }
    }
    return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
    if (word.empty()) return {};
    const std::string w = lower(word);
    // A case-only difference ("post" for "POST") is always the answer.
    for (const auto& c : candidates)
        if (lower(c) == w) return c;
    // Allow more edits for longer words; short words only one, so "id" does
    // not suggest "at".
    const std::size_t limit = w.size() <= 3 ? 1 : (w.size() <= 6 ? 2 : 3);
    std::string best;
    std::size_t best_distance = limit + 1;
    for (const auto& c : candidates) {
        // the distance is at least the difference in length: no table for
        // a candidate that cannot beat the best
        if ((w.size() > c.size() ? w.size() - c.size() : c.size() - w.size()) >= best_distance) continue;
        const std::size_t d = typo_distance(w, lower(c));
        // A suggestion must share something with the word, not replace it.
        if (d < best_distance && d < std::max(w.size(), c.size()) && d < c.size()) {
            best = c;
            best_distance = d;
        }
    }
    return best;
}

}  // namespace idconform
