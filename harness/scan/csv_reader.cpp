// CSV reader (RFC 4180): a header row, then records of the same number of
// fields; fields separated by ',', records by CRLF or LF; a quoted field may
// hold ',', line breaks and "" (one quote). An unquoted empty field is null
// (absent); a quoted empty field ("") is an empty string - the distinction
// PostgreSQL's COPY ... CSV makes.
#include "scan/detail.hpp"

#include "core/diagnostic.hpp"
#include "ids/canonical.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace idconform::scan::detail {

namespace {

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at p ends or breaks an unquoted field:
// ',', '\n', '\r', '"', NUL or >= 0x80 (UTF-8, validated one by one).
inline std::uint32_t unquoted_specials(const char* p) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(',')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    const __m128i b = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    const __m128i z = _mm_cmpeq_epi8(v, _mm_setzero_si128());
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(a, b), z)) | _mm_movemask_epi8(v));
}
// Inside quotes: '"', '\n' (line count), NUL, >= 0x80.
inline std::uint32_t quoted_specials(const char* p) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i a = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
    const __m128i z = _mm_cmpeq_epi8(v, _mm_setzero_si128());
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(a, z)) | _mm_movemask_epi8(v));
}
#endif

class CsvReader final : public Scanner {
public:
    CsvReader(Input& in, const Options& o, const Sink& sink) : Scanner(in, o, sink) { line_limit_ = true; }

    Stats run() {
        if (!start("csv")) return st_;
        if (!header()) {
            st_.bytes = abs();
            return st_;
        }
        if (second_) jump(split_->at, split_->line);
        while (!done()) {
            if (at_split() && handoff()) break;
            if (cancelled()) break;
            const int c = peek();
            if (c < 0) break;
            if (c == '\n' || c == '\r') {  // a blank line carries no record
                if (c == '\r') {
                    ++pos_;
                    if (peek() != '\n') { error("carriage return without a line feed (records end with CRLF or LF)"); break; }
                }
                (void)newline();
                continue;
            }
            if (!record(false)) break;
        }
        if (!merged_) st_.bytes = abs();
        return st_;
    }

private:
    std::vector<std::string> names_;
    std::vector<int> declared_;     // per column: index in o_.fields, or -1
    std::vector<char> named_;       // per column: id-named
    std::vector<VersionSeen> versions_, saved_versions_;
    std::vector<std::string> wheres_;  // "column NAME"
    std::uint64_t record_line_ = 0;

    bool header() {
        if (!record(true)) return false;
        for (std::size_t i = 0; i < names_.size(); ++i) {
            if (names_[i].empty()) {
                error_at(1, 1, 0, "column " + std::to_string(i + 1) + " of the header row has no name");
                return false;
            }
        }
        declared_.assign(names_.size(), -1);
        named_.resize(names_.size());
        versions_.resize(names_.size());
        for (std::size_t i = 0; i < names_.size(); ++i) {
            named_[i] = id_named(names_[i]) ? 1 : 0;
            wheres_.push_back("column " + names_[i]);
        }
        for (std::size_t f = 0; f < o_.fields.size(); ++f) {
            bool found = false;
            for (std::size_t i = 0; i < names_.size(); ++i)
                if (names_[i] == o_.fields[f].name) {
                    declared_[i] = static_cast<int>(f);
                    found = true;
                }
            if (!found) {
                const std::string best = did_you_mean(o_.fields[f].name, names_);
                std::string all;
                for (const auto& n : names_) all += (all.empty() ? "" : ", ") + n;
                error_at(1, 1, 0, "declared column '" + o_.fields[f].name + "' is not in the header (" +
                                      (best.empty() ? "columns: " + all : "did you mean '" + best + "'?") + ")");
                return false;
            }
        }
        return true;
    }

    // One record at pos_; for the header, collects the names.
    bool record(bool is_header) {
        record_line_ = line_;
        std::size_t field = 0;
        for (;;) {
            const std::uint64_t fline = line_, fcol = col();
            if (!is_header && field >= names_.size()) {
                error("row has more fields than the header's " + std::to_string(names_.size()) +
                      " (field " + std::to_string(field + 1) + " starts here)");
                return false;
            }
            std::string_view text;
            bool quoted = false;
            if (peek() == '"') {
                quoted = true;
                if (!quoted_field(text)) return false;
            } else if (!unquoted_field(text)) {
                return false;
            }
            if (is_header) names_.emplace_back(text);
            else check(field, text, quoted, fline, fcol);
            if (done()) return false;
            ++field;
            const int c = peek();
            if (c == ',') { ++pos_; continue; }
            if (c == '\r') {
                ++pos_;
                if (peek() != '\n') {
                    error("carriage return without a line feed (records end with CRLF or LF)");
                    return false;
                }
            }
            if (c == '\r' || c == '\n') {
                if (!newline()) return false;
            } else if (c >= 0) {
                error("expected ',' or the end of the line after the closing quote, found " + describe_char(c));
                return false;
            }
            break;  // end of record (or of the file)
        }
        if (!is_header) {
            if (field != names_.size()) {
                error_at(record_line_, 1, 0, "row has " + std::to_string(field) + " field" + (field == 1 ? "" : "s") +
                                                  ", the header has " + std::to_string(names_.size()) +
                                                  " (a ragged row: every row needs one field per column)");
                return false;
            }
            ++st_.records;
        }
        return true;
    }

    void check(std::size_t column, std::string_view text, bool quoted, std::uint64_t fline, std::uint64_t fcol) {
        ++st_.values;
        const int decl = declared_[column];
        if (decl >= 0) {
            const FieldSpec& fs = o_.fields[static_cast<std::size_t>(decl)];
            Finding f = !quoted && text.empty() ? check_declared_missing(fs, true) : check_declared_string(fs, text);
            if (f) report(std::move(f), fline, fcol, wheres_[column]);
            else if (fs.kind == "uuid" && !text.empty()) track(column, text, fline, fcol);
            return;
        }
        if (!o_.shape || scratch_total_ > scratch_cap - 1) return;
        if (text.empty() && !quoted) return;  // null
        const bool named = named_[column] != 0;
        if (named && (text == "0" || text == "-0")) {
            report(shape_zero(true), fline, fcol, wheres_[column]);
            return;
        }
        // Cheap filters first, as the JSON readers do: a non-empty text of
        // fewer than 26 bytes is no id in any spelling (ids::looks_like_id),
        // and a canonical RFC 9562 UUID has nothing more to say than its version.
        if (text.size() < 26 && (!text.empty() || !named)) return;
        if (text.size() == 36 && ids::detail::canonical_rfc36(text.data())) {
            track(column, text, fline, fcol);
            return;
        }
        int version = -1;
        if (Finding f = shape_string(text, named, &version)) report(std::move(f), fline, fcol, wheres_[column]);
        else if (version >= 0) track(column, text, fline, fcol);
    }

    void track(std::size_t column, std::string_view s, std::uint64_t fline, std::uint64_t fcol) {
        const int version = s[14] <= '9' ? s[14] - '0' : s[14] - 'a' + 10;
        if (versions_[column].version == version) return;
        track_version(versions_[column], version, s, fline, fcol, wheres_[column], std::to_string(column));
    }

    VersionSeen* version_slot(const std::string& key) override {
        const std::size_t column = std::stoul(key);
        return column < versions_.size() ? &versions_[column] : nullptr;
    }
    void save_versions() override { saved_versions_ = versions_; }
    void restore_versions() override { versions_ = saved_versions_; }

    bool unquoted_field(std::string_view& out) {
        std::size_t s = pos_;
        bool copied = false;
        scratch_.clear();
        scratch_total_ = 0;
        for (;;) {
#if defined(__SSE2__)
            skip_plain(unquoted_specials);
#endif
            if (pos_ >= end_) {
                append_scratch(d_ + s, pos_ - s);
                copied = true;
                // Whatever more() did, the bytes up to pos_ are in scratch_
                // now: the final append below must not add them again (from
                // memory, where nothing moves, it did: the last field of a
                // file without a final newline came out doubled).
                const bool got = more();
                s = pos_;
                if (!got) {
                    if (st_.error) return false;
                    break;  // end of file ends the field
                }
                continue;
            }
            const unsigned char c = static_cast<unsigned char>(d_[pos_]);
            if (c == ',' || c == '\n' || c == '\r') break;
            if (c == '"') {
                error("a quote inside an unquoted field (quote the whole field and double the quote: \"a\"\"b\")");
                return false;
            }
            if (c == 0) {
                error("a NUL byte: this looks like a binary file, not CSV");
                return false;
            }
            if (c >= 0x80) {
                if (end_ - pos_ < 4) {
                    append_scratch(d_ + s, pos_ - s);
                    copied = true;
                    (void)more(pos_);
                    if (st_.error) return false;
                    s = pos_;
                }
                if (!utf8_step()) return false;
                continue;
            }
            ++pos_;
        }
        if (copied) {
            if (pos_ > s) append_scratch(d_ + s, pos_ - s);
            out = scratch_;
        } else {
            scratch_total_ = pos_ - s;
            out = std::string_view(d_ + s, std::min(pos_ - s, scratch_cap));
        }
        return true;
    }

    bool quoted_field(std::string_view& out) {
        const std::uint64_t qline = line_, qcol = col(), qoff = abs();
        ++pos_;
        std::size_t s = pos_;
        scratch_.clear();
        scratch_total_ = 0;
        for (;;) {
#if defined(__SSE2__)
            skip_plain(quoted_specials);
#endif
            if (pos_ >= end_) {
                append_scratch(d_ + s, pos_ - s);
                if (!more()) {
                    if (!st_.error)
                        error_at(qline, qcol, qoff, "unterminated quoted field: the file ends inside it (the quote opens here)");
                    return false;
                }
                s = pos_;
                continue;
            }
            const unsigned char c = static_cast<unsigned char>(d_[pos_]);
            if (c == '"') {
                append_scratch(d_ + s, pos_ - s);
                ++pos_;
                if (peek() == '"') {  // "" is one quote
                    append_scratch("\"", 1);
                        ++pos_;
                    s = pos_;
                    continue;
                }
                out = scratch_;  // copied always: the peek above may have refilled the buffer
                return !st_.error;
            }
            if (c == '\n') {
                append_scratch(d_ + s, pos_ - s + 1);
                if (!newline()) return false;
                s = pos_;
                continue;
            }
            if (c == 0) {
                error("a NUL byte: this looks like a binary file, not CSV");
                return false;
            }
            if (c >= 0x80) {
                if (end_ - pos_ < 4) {
                    append_scratch(d_ + s, pos_ - s);
                        (void)more(pos_);
                    if (st_.error) return false;
                    s = pos_;
                }
                if (!utf8_step()) return false;
                continue;
            }
            ++pos_;
        }
    }
};

}  // namespace

Stats scan_csv(Input& in, const Options& o, const Sink& sink, Split* split, bool second) {
    CsvReader r(in, o, sink);
    r.set_split(split, second);
    return r.run();
}

}  // namespace idconform::scan::detail
