// NDJSON and JSON-array reader: a validating, streaming JSON tokenizer with
// an explicit container stack (no recursion, so hostile nesting cannot
// overflow the stack). It keeps the position of every token, the record's
// JSON pointer (built only when a violation is reported) and the field's
// shape (indices as '*') for declared fields and the version-per-field rule.
#include "ids/canonical.hpp"
#include "scan/detail.hpp"

#include "ids/ids.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace idconform::scan::detail {

#if defined(__SSE2__)
std::uint32_t json_string_specials(const char* p) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    const __m128i bslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    // as signed bytes, 0x80..0xff are negative: one compare finds < 0x20 and >= 0x80
    const __m128i ctrl_or_high = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, bslash), ctrl_or_high)));
}
#endif

namespace {

constexpr std::size_t max_depth = 512;

// Length of the valid UTF-8 sequence at p (lead byte >= 0x80) with `avail`
// bytes readable, 0 when invalid: the rules of Scanner::utf8_step.
std::size_t utf8_length(const unsigned char* p, std::size_t avail) noexcept {
    const unsigned char c = p[0];
    std::size_t n;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 2;
    else if (c == 0xe0) { n = 3; lo = 0xa0; }
    else if (c == 0xed) { n = 3; hi = 0x9f; }
    else if (c >= 0xe1 && c <= 0xef) n = 3;
    else if (c == 0xf0) { n = 4; lo = 0x90; }
    else if (c == 0xf4) { n = 4; hi = 0x8f; }
    else if (c >= 0xf1 && c <= 0xf3) n = 4;
    else return 0;
    if (avail < n) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (std::size_t i = 2; i < n; ++i)
        if (p[i] < 0x80 || p[i] > 0xbf) return 0;
    return n;
}

class JsonReader final : public Scanner {
public:
    JsonReader(Input& in, const Options& o, const Sink& sink, bool ndjson) : Scanner(in, o, sink), ndjson_(ndjson) {
        line_limit_ = ndjson;
        for (std::size_t i = 0; i < o.fields.size(); ++i) {
            const auto& f = o.fields[i];
            if (!f.nullable && f.name.find('*') == std::string::npos) required_ |= 1ull << i;
        }
    }

    Stats run() {
        if (second_) jump(split_->at, split_->line);  // NDJSON only; the file's start is the first half's
        else if (!start(ndjson_ ? "ndjson" : "json")) return st_;
        if (ndjson_) run_ndjson();
        else run_array();
        if (!merged_) st_.bytes = abs();
        if (second_) split_->tracked = versions_.size();
        return st_;
    }

private:
    struct Frame {
        bool array = false;
        std::uint64_t index = 0;    // array: current element
        std::size_t base_len = 0;   // shape_ length of the container itself
        bool named = false;         // the current member (or the array's member) is id-named
        int declared = -1;          // declared field index of the current member/element
    };
    enum class State { key_or_end, key, colon, value, value_or_end, after_value };

    const bool ndjson_;
    const bool fast_ = ndjson_ && o_.fast_path;
    std::vector<Frame> frames_;     // reused across records: no allocation once warm
    std::size_t depth_ = 0;
    std::string shape_;             // "/owner/id", "/items/*/id"
    std::uint64_t record_index_ = 0;
    std::uint64_t record_line_ = 0, record_col_ = 0;
    std::uint64_t seen_ = 0;        // declared fields seen in this record (bit per field)
    std::uint64_t required_ = 0;    // declared fields that must be present
    std::unordered_map<std::string, VersionSeen> versions_;
    std::unordered_map<std::string, VersionSeen> saved_versions_;
    std::string number_;
    std::vector<std::pair<std::string, VersionSeen*>> cache_;  // see track()
    std::size_t tracked_in_record_ = 0;
    bool string_long_ = false;

    // ------------------------------------------------------------ records

    void run_ndjson() {
        for (;;) {
            if (at_split() && handoff()) break;
            if (cancelled()) break;
            if (fast_ && pos_ < end_ && d_[pos_] == '{') {
                if (d_ != nl_data_ || end_ != nl_end_ || in_.base() != nl_base_) last_newline();
                if (pos_ < nl_last_ && fast_line()) continue;
            }
            int c = skip_ws();
            if (c < 0 || done()) break;
            if (c != '{') {
                error(std::string("expected a JSON object at the start of a record, found ") + describe_char(c) +
                      (c == '[' ? " (a JSON array: use --format json for a file holding one array)"
                                : " (NDJSON holds one JSON object per line)"));
                break;
            }
            if (!record()) break;
            // the rest of the line: blanks only
            for (;;) {
                c = peek();
                if (c == ' ' || c == '\t' || c == '\r') { ++pos_; continue; }
                if (c == '\n') { (void)newline(); break; }
                if (c >= 0)
                    error("expected the end of the line after the record, found " + describe_char(c) +
                          " (NDJSON holds one JSON object per line)");
                break;
            }
            if (done()) break;
        }
        if (!st_.error && !st_.stopped && st_.records == 0) {  // a sink that stopped in the first record: not empty
            if (second_) split_->no_records = true;
            else error_at(line_, col(), abs(), "no records: the file holds only blank lines");
        }
    }

    void run_array() {
        int c = skip_ws();
        if (c < 0) {
            error_at(line_, col(), abs(), "no records: the file holds only blank lines");
            return;
        }
        if (c != '[') {
            error(std::string("expected '[' at the start: a JSON export is an array of objects, found ") +
                  describe_char(c) + (c == '{' ? " (one object per line is NDJSON: use --format ndjson)" : ""));
            return;
        }
        ++pos_;
        c = skip_ws();
        if (c == ']') ++pos_;
        else {
            for (;;) {
                if (c != '{') {
                    error("element " + std::to_string(record_index_) + " is " + value_kind(c) +
                          ", not an object: a JSON export is an array of objects");
                    return;
                }
                if (!record()) return;
                c = skip_ws();
                if (c == ',') {
                    ++pos_;
                    c = skip_ws();
                    if (c == ']') {
                        error("trailing ',' before ']' (JSON allows none)");
                        return;
                    }
                    continue;
                }
                if (c == ']') {
                    ++pos_;
                    break;
                }
                error("expected ',' or ']' after element " + std::to_string(record_index_ - 1) + ", found " +
                      describe_char(c) + (c < 0 ? " (the array is not closed)" : ""));
                return;
            }
        }
        c = skip_ws();
        if (c >= 0 && !done()) error("unexpected " + describe_char(c) + " after the end of the array");
    }

    static std::string value_kind(int c) {
        if (c == '"') return "a string";
        if (c == '[') return "an array";
        if (c == 't' || c == 'f') return "a boolean";
        if (c == 'n') return "null";
        if (c == '-' || (c >= '0' && c <= '9')) return "a number";
        if (c < 0) return "missing (end of file)";
        return describe_char(c);
    }

    // Whitespace; -1 at EOF. In NDJSON a line break inside a record is an error.
    int skip_ws() {
        for (;;) {
            if (pos_ == end_ && !more()) return -1;
            const char c = d_[pos_];
            if (c == ' ' || c == '\t' || c == '\r') { ++pos_; continue; }
            if (c == '\n') {
                if (ndjson_ && depth_ > 0) {
                    error("the record is not closed at the end of the line (NDJSON holds one JSON object per line)");
                    return -1;
                }
                if (!newline()) return -1;
                continue;
            }
            return static_cast<unsigned char>(c);
        }
    }

    // One record: an object, at pos_. False on error or stop.
    bool record() {
        record_line_ = line_;
        record_col_ = col();
        seen_ = 0;
        tracked_in_record_ = 0;
        shape_.clear();
        depth_ = 0;
        push(false, -1, false);
        ++pos_;
        // Direct jumps between the grammar's places instead of a state
        // variable switched on per token: each branch site predicts well,
        // where one indirect jump for every token did not.
        int c;
        State state;
    object_begin:
        c = skip_ws();
        if (c == '}') goto close;
    member:
        if (c != '"') {
            if (c < 0) goto eof;
            error("expected a member name in double quotes, found " + describe_char(c) +
                  (c == '}' ? " (trailing ',' before '}')" : ""));
            return false;
        }
        {
            Frame& f = frames_[depth_ - 1];
            std::string_view k;
            if (!string(k)) return false;
            shape_.resize(f.base_len);
            shape_ += '/';
            append_escaped(shape_, k);
            f.named = id_named(k);
            f.declared = o_.fields.empty() ? -1 : declared_index();
        }
        c = skip_ws();
        if (c != ':') {
            if (c < 0) goto eof;
            error("expected ':' after the member name, found " + describe_char(c));
            return false;
        }
        ++pos_;
        c = skip_ws();
        goto value;
    array_begin:
        c = skip_ws();
        if (c == ']') goto close;
    value:
        if (c < 0) goto eof;
        if (!value(c, state)) return false;
        if (state == State::key_or_end) goto object_begin;
        if (state == State::value_or_end) goto array_begin;
    after_value:
        c = skip_ws();
        {
            Frame& f = frames_[depth_ - 1];
            if (c == ',') {
                ++pos_;
                c = skip_ws();
                if (f.array) {
                    ++f.index;
                    shape_.resize(f.base_len + 2);
                    goto value;
                }
                goto member;
            }
            if (c == (f.array ? ']' : '}')) goto close;
            if (c < 0) goto eof;
            error(std::string("expected ',' or '") + (f.array ? ']' : '}') + "' after a value, found " + describe_char(c));
            return false;
        }
    close:
        ++pos_;
        if (--depth_ > 0) goto after_value;
        ++st_.records;
        ++record_index_;
        if (const std::uint64_t missing = required_ & ~seen_; missing != 0) {
            for (std::size_t i = 0; i < o_.fields.size(); ++i)
                if ((missing >> i) & 1u) {
                    const FieldSpec& f = o_.fields[i];
                    report(check_declared_missing(f, false), record_line_, record_col_, record_prefix() + f.name);
                }
        }
        return !done();
    eof:
        if (!st_.error)
            error_at(record_line_, record_col_, 0, "the record is not closed: the file ends inside it (the object opened here)");
        return false;
    }

    void push(bool array, int declared, bool named) {
        if (depth_ == frames_.size()) frames_.emplace_back();
        Frame& f = frames_[depth_++];
        f.array = array;
        f.index = 0;
        f.base_len = shape_.size();
        f.named = named;
        f.declared = declared;
        if (array) {
            shape_ += "/*";
            f.declared = declared_index();
        }
    }

    State close() {
        ++pos_;
        --depth_;
        return State::after_value;
    }

    int declared_index() const { return declared_index(shape_); }
    int declared_index(std::string_view shape) const {
        for (std::size_t i = 0; i < o_.fields.size(); ++i)
            if (o_.fields[i].name == shape) return static_cast<int>(i);
        return -1;
    }

    static void append_escaped(std::string& out, std::string_view key) {
        bool plain = true;  // (find_first_of calls memchr per character: too slow for every key)
        for (char ch : key) plain = plain && ch != '~' && ch != '/';
        if (plain) {
            out.append(key);
            return;
        }
        for (char ch : key) {
            if (ch == '~') out += "~0";
            else if (ch == '/') out += "~1";
            else out += ch;
        }
    }

    std::string record_prefix() const { return ndjson_ ? std::string() : "/" + std::to_string(record_index_); }

    // The JSON pointer of the current value, in the file's document: the
    // shape (which holds every escaped member name) with each array's '*'
    // replaced by its current index.
    std::string pointer() const {
        std::string p = ndjson_ ? std::string() : "/" + std::to_string(record_index_);
        for (std::size_t i = 0; i < depth_; ++i) {
            const Frame& f = frames_[i];
            const std::size_t end = i + 1 < depth_ ? frames_[i + 1].base_len : shape_.size();
            if (f.array) p += "/" + std::to_string(f.index);
            else if (end > f.base_len) p.append(shape_, f.base_len, end - f.base_len);
        }
        return p.empty() ? "(record)" : p;
    }


    // ---------------------------------------------------------- fast path
    //
    // One NDJSON line whose record starts at pos_ ('{') is read in place,
    // with no refill, no error text and no report. Stage 1 classifies the
    // line 64 bytes at a time (SSE2: quote, backslash, control, non-ASCII ->
    // one bit per byte), so finding the end of a string is a shift and a
    // count of trailing zeros instead of a loop per string; the grammar walk
    // visits only the bytes between strings (a string with escapes is
    // decoded as the scalar reader decodes it). The line is either accepted
    // whole (a well-formed record without control characters in strings,
    // findings, first or new UUID versions, then blanks and '\n'), with
    // exactly the effects the scalar reader would have had, or fast_line()
    // returns false having changed nothing the scalar reader depends on (it
    // resets frames, shape and per-record state itself), and the scalar
    // reader reads the line again: every error and violation comes from
    // there, with its text and position. The JSON pointer shape is built in
    // a fixed buffer and copied to shape_ only for a version-map look-up.

    // ids' canonical test, inline (harness/ids/canonical.hpp): its constants
    // stay in registers across the loop. 36 bytes at p are 8-4-4-4-12
    // lower-case hex.
    static bool canonical36(const char* p) noexcept { return ids::detail::canonical36(p); }

    static constexpr std::size_t fast_shape_cap = 1024;
    char fshape_[fast_shape_cap + 16];  // +16: keys are copied 16 bytes at a time
    std::size_t fsl_ = 0;               // its length

    // Stage 1 state, kept in locals of fast_line() (registers, which members
    // are not: every char store could alias them).
    struct Block {
        const char* at;      // the current 64-byte block
        std::uint64_t mask;  // its bytes that may end or spoil a string: '"', '\\', < 0x20, >= 0x80
    };

    static void stage1(Block& blk, const char* at, const char* lim) noexcept {
        blk.at = at;
#if defined(__SSE2__)
        if (lim - at < 64) [[unlikely]] {
            stage1_tail(blk, at, lim);
            return;
        }
        blk.mask = static_cast<std::uint64_t>(json_string_specials(at)) |
                   static_cast<std::uint64_t>(json_string_specials(at + 16)) << 16 |
                   static_cast<std::uint64_t>(json_string_specials(at + 32)) << 32 |
                   static_cast<std::uint64_t>(json_string_specials(at + 48)) << 48;
#else
        blk.mask = 0;
        for (int i = 0; i < 64; ++i) {
            const bool past = at + i >= lim;  // as the zeros of the SSE2 path's copy
            const auto c = past ? 0 : static_cast<unsigned char>(at[i]);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) blk.mask |= 1ull << i;
        }
#endif
    }

#if defined(__SSE2__)
    // The buffer's last bytes: classify a copy (zeros count as control characters).
    [[gnu::noinline, gnu::cold]] static void stage1_tail(Block& blk, const char* at, const char* lim) noexcept {
        alignas(16) char pad[64] = {};
        std::memcpy(pad, at, static_cast<std::size_t>(lim - at));
        blk.mask = static_cast<std::uint64_t>(json_string_specials(pad)) |
                   static_cast<std::uint64_t>(json_string_specials(pad + 16)) << 16 |
                   static_cast<std::uint64_t>(json_string_specials(pad + 32)) << 32 |
                   static_cast<std::uint64_t>(json_string_specials(pad + 48)) << 48;
    }
#endif

    // The closing quote of a string whose body starts at s, or its first
    // backslash (the caller then decodes it with fast_decode()); nullptr for
    // a control character (the line's '\n' included) or invalid UTF-8. s only
    // moves forward within the line, so stage 1 runs once per block.
    static const char* fast_string_end(Block& blk, const char* s, const char* lim) noexcept {
        for (;;) {
            while (s >= blk.at + 64) stage1(blk, blk.at + 64, lim);
            const std::uint64_t m = blk.mask >> (s - blk.at);
            if (m == 0) {
                s = blk.at + 64;
                continue;
            }
            s += __builtin_ctzll(m);
            const unsigned char c = static_cast<unsigned char>(*s);
            if (c == '"' || c == '\\') return s;
            if (c < 0x80) return nullptr;
            const std::size_t n = utf8_length(reinterpret_cast<const unsigned char*>(s), static_cast<std::size_t>(lim - s));
            if (n == 0) return nullptr;
            s += n;
        }
    }

    // The buffer's last '\n' (nl_last_; 0: none after pos_), found from the
    // end when the buffer changed: a line that starts before it lies whole
    // in the buffer, and every step of fast_line() stops at its '\n' (a
    // string at a control character, a number or literal at a non-digit,
    // the grammar at an unexpected byte), so no step needs a bound of its own.
    const char* nl_data_ = nullptr;
    std::size_t nl_end_ = 0, nl_last_ = 0;
    std::uint64_t nl_base_ = UINT64_MAX;
    void last_newline() noexcept {
        nl_data_ = d_;
        nl_end_ = end_;
        nl_base_ = in_.base();
        const void* nl = pos_ < end_ ? ::memrchr(d_ + pos_, '\n', end_ - pos_) : nullptr;
        nl_last_ = nl != nullptr ? static_cast<std::size_t>(static_cast<const char*>(nl) - d_) : 0;
    }

    bool fast_line() {
        const char* const b = d_;
        const char* p = d_ + pos_;
        const char* const lim = d_ + end_;
        // options in locals: the shape buffer's char stores may alias any member
        const bool has_fields = !o_.fields.empty(), shape_on = o_.shape;
        Block blk;
        stage1(blk, p, lim);
        depth_ = 0;
        seen_ = 0;
        tracked_in_record_ = 0;
        fsl_ = 0;
        Frame* f = fast_push(false, -1, false);
        ++p;
        std::uint64_t values = 0;
        unsigned char c;
    object_begin:
        c = fast_ws(p);
        if (c == '}') goto close;
    member:
        if (c != '"') return false;
        {
            const char* q = fast_string_end(blk, p + 1, lim);
            if (q == nullptr) return false;
            std::string_view k(p + 1, static_cast<std::size_t>(q - p - 1));
            bool readable16 = k.data() + 16 <= lim;
            if (*q == '\\') {
                q = fast_decode(p + 1, lim);
                if (q == nullptr || fdec_total_ > scratch_cap - 1) return false;
                k = std::string_view(fdec_, fdec_size_);
                readable16 = true;
            }
            if (k.size() > scratch_cap - 1) return false;  // the scalar reader keeps a prefix of a longer name
            if (!fast_key(*f, k, readable16)) return false;
            // every id-named key ends in 'd' or 'D': most keys need no call
            f->named = !k.empty() && (k.back() == 'd' || k.back() == 'D') && id_named(k);
            f->declared = has_fields ? declared_index(fast_shape()) : -1;
            p = q + 1;
        }
        c = fast_ws(p);
        if (c != ':') return false;
        ++p;
        c = fast_ws(p);
        goto value;
    array_begin:
        c = fast_ws(p);
        if (c == ']') goto close;
    value: {
        const int decl = f->declared;
        if (decl >= 0) seen_ |= 1ull << decl;
        if (c == '"') {
            const char* q = fast_string_end(blk, p + 1, lim);
            if (q == nullptr) return false;
            std::string_view sv(p + 1, static_cast<std::size_t>(q - p - 1));
            std::size_t total = sv.size();  // decoded length (the scalar reader's string_long_)
            if (*q == '\\') {
                q = fast_decode(p + 1, lim);
                if (q == nullptr) return false;
                sv = std::string_view(fdec_, fdec_size_);
                total = fdec_total_;
            }
            p = q + 1;
            ++values;
            if (decl >= 0) {
                if (total > scratch_cap - 1) return false;  // the scalar reader checks a prefix
                const FieldSpec& fs = o_.fields[static_cast<std::size_t>(decl)];
                if (check_declared_string(fs, sv)) return false;
                if (fs.kind == "uuid" && !fast_track(sv)) return false;
            } else if (shape_on && total <= scratch_cap - 1 && may_be_id(sv, f->named)) {
                int version = -1;
                if (sv.size() == 36 && canonical36(sv.data()) && (sv[19] == '8' || sv[19] == '9' || sv[19] == 'a' || sv[19] == 'b'))
                    version = 1;  // any: fast_track reads it from the text
                else if (shape_string(sv, f->named, &version))
                    return false;
                if (version >= 0 && !fast_track(sv)) return false;
            }
        } else if (c == '{' || c == '[') {
            if (depth_ >= max_depth || decl >= 0) return false;
            ++p;
            f = fast_push(c == '[', -1, f->named);
            if (f == nullptr) return false;
            if (c == '[') goto array_begin;
            goto object_begin;
        } else if (c == 't' || c == 'f' || c == 'n') {
            const char* word = c == 't' ? "true" : c == 'f' ? "false" : "null";
            for (; *word != '\0'; ++word, ++p)  // byte by byte: stops at the line's end
                if (*p != *word) return false;
            if (!fast_delimiter(*p)) return false;
            if (decl >= 0 && (c != 'n' || !o_.fields[static_cast<std::size_t>(decl)].nullable)) return false;
        } else {
            const char* n0 = p;
            if (*p == '-') ++p;
            if (*p == '0') ++p;
            else if (*p >= '1' && *p <= '9') while (*p >= '0' && *p <= '9') ++p;
            else return false;
            if (*p >= '0' && *p <= '9') return false;
            if (*p == '.') {
                ++p;
                if (!(*p >= '0' && *p <= '9')) return false;
                while (*p >= '0' && *p <= '9') ++p;
            }
            if (*p == 'e' || *p == 'E') {
                ++p;
                if (*p == '+' || *p == '-') ++p;
                if (!(*p >= '0' && *p <= '9')) return false;
                while (*p >= '0' && *p <= '9') ++p;
            }
            if (!fast_delimiter(*p)) return false;
            if (decl >= 0) return false;  // a number in a declared field is always reported
            const std::size_t len = static_cast<std::size_t>(p - n0);
            const bool zero = (len == 1 && n0[0] == '0') || (len == 2 && n0[0] == '-' && n0[1] == '0');
            if (shape_on && zero && f->named) return false;
        }
    }
    after_value:
        c = fast_ws(p);
        if (c == ',') {
            ++p;
            c = fast_ws(p);
            if (f->array) {
                ++f->index;
                fsl_ = f->base_len + 2;
                goto value;
            }
            goto member;
        }
        if (c != (f->array ? ']' : '}')) return false;
    close:
        ++p;
        if (--depth_ > 0) {
            f = &frames_[depth_ - 1];
            goto after_value;
        }
        if ((required_ & ~seen_) != 0) return false;
        while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
        if (*p != '\n') return false;
        const char* const e = p;
        if (in_.base() + static_cast<std::uint64_t>(e - b) - line_start_ > o_.max_line_bytes) return false;
        // accepted: the scalar reader's effects for this line
        record_line_ = line_;
        record_col_ = col();
        ++st_.records;
        ++st_.fast_records;
        ++record_index_;
        st_.values += values;
        pos_ = static_cast<std::size_t>(e - b) + 1;
        ++line_;
        line_start_ = abs();
        return true;
    }

    // A string with escapes, decoded as the scalar reader decodes it (string()
    // and escape(): the same bytes, the same lone-surrogate rule, the same
    // 257-byte prefix and total) into fdec_. s is the body's first byte; the
    // closing quote, or nullptr where the scalar reader reports an error.
    char fdec_[scratch_cap + 16];  // +16: fast_key loads 16 bytes
    std::size_t fdec_size_ = 0, fdec_total_ = 0;

    void fast_put(const char* p, std::size_t n) noexcept {
        fdec_total_ += n;
        if (fdec_size_ < scratch_cap) {
            const std::size_t m = std::min(n, scratch_cap - fdec_size_);
            std::memcpy(fdec_ + fdec_size_, p, m);
            fdec_size_ += m;
        }
    }
    void fast_put_utf8(unsigned cp) noexcept {
        char b[4];
        fast_put(b, encode_utf8(cp, b));
    }
    // Four hex digits at p (stops at the first other byte: the line's '\n' at the latest).
    static bool fast_hex4(const char* p, unsigned& cp) noexcept {
        cp = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = p[i];
            int v;
            if (c >= '0' && c <= '9') v = c - '0';
            else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
            else return false;
            cp = cp * 16 + static_cast<unsigned>(v);
        }
        return true;
    }
    const char* fast_decode(const char* s, const char* lim) noexcept {
        fdec_size_ = fdec_total_ = 0;
        for (;;) {
            const unsigned char c = static_cast<unsigned char>(*s);
            if (c == '"') return s;
            if (c < 0x20) return nullptr;
            if (c >= 0x80) {
                const std::size_t n = utf8_length(reinterpret_cast<const unsigned char*>(s), static_cast<std::size_t>(lim - s));
                if (n == 0) return nullptr;
                fast_put(s, n);
                s += n;
                continue;
            }
            if (c != '\\') {
                fast_put(s, 1);
                ++s;
                continue;
            }
            const char plain = simple_escape(s[1]);
            if (plain < 0) return nullptr;
            if (plain != 0) {
                fast_put(&plain, 1);
                s += 2;
                continue;
            }
            unsigned cp = 0;
            if (!fast_hex4(s + 2, cp)) return nullptr;
            s += 6;
            if (cp >= 0xd800 && cp <= 0xdbff && *s == '\\') {
                if (s[1] == 'u') {  // a surrogate pair makes one code point
                    unsigned lo = 0;
                    if (!fast_hex4(s + 2, lo)) return nullptr;
                    s += 6;
                    if (lo >= 0xdc00 && lo <= 0xdfff) {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                    } else {
                        fast_put_utf8(0xfffd);
                        cp = lo;
                    }
                } else {
                    cp = 0xfffd;  // another escape follows; the lone surrogate becomes U+FFFD
                }
            }
            if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;  // lone surrogate
            fast_put_utf8(cp);
        }
    }

    [[nodiscard]] std::string_view fast_shape() const noexcept { return {fshape_, fsl_}; }

    // push() on the fast path's shape; nullptr when the shape would not fit.
    Frame* fast_push(bool array, int declared, bool named) {
        if (array && fsl_ + 2 > fast_shape_cap) return nullptr;
        if (depth_ == frames_.size()) frames_.emplace_back();
        Frame& f = frames_[depth_++];
        f.array = array;
        f.index = 0;
        f.base_len = fsl_;
        f.named = named;
        f.declared = declared;
        if (array) {
            fshape_[fsl_++] = '/';
            fshape_[fsl_++] = '*';
            f.declared = o_.fields.empty() ? -1 : declared_index(fast_shape());
        }
        return &f;
    }

    // The member name k replaces the last one in the shape (escaped as a JSON
    // pointer: '~' -> "~0", '/' -> "~1"); false when it would not fit.
    bool fast_key(const Frame& f, std::string_view k, bool readable16) noexcept {
        std::size_t n = f.base_len;
        if (n + 1 + 2 * k.size() > fast_shape_cap) return false;
        fshape_[n++] = '/';
#if !defined(__SSE2__)
        (void)readable16;
#else
        if (k.size() <= 16 && readable16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(k.data()));
            const unsigned m = static_cast<unsigned>(_mm_movemask_epi8(
                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('~')), _mm_cmpeq_epi8(v, _mm_set1_epi8('/')))));
            if ((m & ((1u << k.size()) - 1)) == 0) {
                _mm_storeu_si128(reinterpret_cast<__m128i*>(fshape_ + n), v);  // fshape_ has 16 spare bytes
                fsl_ = n + k.size();
                return true;
            }
        }
#endif
        for (const char ch : k) {
            if (ch == '~' || ch == '/') {
                fshape_[n++] = '~';
                fshape_[n++] = ch == '~' ? '0' : '1';
            } else {
                fshape_[n++] = ch;
            }
        }
        fsl_ = n;
        return true;
    }

    // Blanks inside the line ('\n' is not one: it ends the line and fails every expectation).
    static unsigned char fast_ws(const char*& p) noexcept {
        unsigned char c = static_cast<unsigned char>(*p);
        if (c > ' ') return c;  // compact JSON: the usual case, one compare
        while (c == ' ' || c == '\t' || c == '\r') c = static_cast<unsigned char>(*++p);
        return c;
    }

    static bool fast_delimiter(char c) noexcept {
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    // The fast path's per-ordinal cache (see track()): fixed-size shapes
    // compared 16 bytes at a time, no std::string.
    struct FastSlot {
        char shape[64];
        std::size_t len = SIZE_MAX;  // SIZE_MAX: empty
        VersionSeen* seen = nullptr;
    };
    std::vector<FastSlot> fcache_;

    // track() without effects the scalar reader would not repeat identically:
    // false when the value is a field's first UUID or a new version (the
    // scalar reader records or reports it).
    [[gnu::always_inline]] bool fast_track(std::string_view s) {
        const std::size_t k = tracked_in_record_;
        VersionSeen* seen = nullptr;
        if (k < fcache_.size() && fcache_[k].len == fsl_ && same_shape(fcache_[k].shape, fshape_, fsl_)) {
            seen = fcache_[k].seen;
        } else {
            shape_.assign(fshape_, fsl_);
            auto it = versions_.find(shape_);
            if (it == versions_.end()) return versions_.size() >= max_tracked_fields;  // untracked: nothing happens
            seen = &it->second;
            if (k < 64 && fsl_ <= sizeof(FastSlot::shape)) {
                if (k >= fcache_.size()) fcache_.resize(k + 1);
                std::memcpy(fcache_[k].shape, fshape_, fsl_);
                fcache_[k].len = fsl_;
                fcache_[k].seen = seen;
            }
        }
        tracked_in_record_ = k + 1;
        const int version = s[14] <= '9' ? s[14] - '0' : s[14] - 'a' + 10;
        return seen->version == version;
    }

    // n <= 64 bytes equal; both sides have 16 * ceil(n / 16) readable bytes.
    static bool same_shape(const char* a, const char* b, std::size_t n) noexcept {
#if defined(__SSE2__)
        for (std::size_t i = 0; i < n; i += 16) {
            const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
            const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
            unsigned diff = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y))) ^ 0xffffu;
            if (n - i < 16) diff &= (1u << (n - i)) - 1;
            if (diff != 0) return false;
        }
        return true;
#else
        return std::memcmp(a, b, n) == 0;
#endif
    }

    // ------------------------------------------------------------- values

    bool value(int c, State& state) {
        const std::uint64_t vline = line_, vcol = col();
        Frame& f = frames_[depth_ - 1];
        const int decl = f.declared;
        if (decl >= 0) seen_ |= 1ull << decl;
        switch (c) {
            case '{':
            case '[': {
                if (depth_ >= max_depth) {
                    error("nesting deeper than " + std::to_string(max_depth) + " levels");
                    return false;
                }
                if (decl >= 0)
                    report(check_declared_non_string(o_.fields[static_cast<std::size_t>(decl)], c == '{' ? "{...}" : "[...]", false),
                           vline, vcol, pointer());
                const bool named = f.named;
                ++pos_;
                push(c == '[', -1, named);
                state = c == '[' ? State::value_or_end : State::key_or_end;
                return true;
            }
            case '"': {
                std::string_view s;
                if (!string(s)) return false;
                ++st_.values;
                state = State::after_value;
                if (decl >= 0) {
                    const FieldSpec& fs = o_.fields[static_cast<std::size_t>(decl)];
                    if (auto fnd = check_declared_string(fs, s)) report(std::move(fnd), vline, vcol, pointer());
                    else if (fs.kind == "uuid") track(s, vline, vcol);
                    return !done();
                }
                if (!o_.shape || string_long_) return true;
                if (!may_be_id(s, f.named)) return true;
                int version = -1;
                if (auto fnd = shape_string(s, f.named, &version)) report(std::move(fnd), vline, vcol, pointer());
                else if (version >= 0) track(s, vline, vcol);
                return !done();
            }
            case 't': case 'f': case 'n': {
                const char* word = c == 't' ? "true" : c == 'f' ? "false" : "null";
                if (!literal(word)) return false;
                state = State::after_value;
                if (decl >= 0) {
                    const FieldSpec& fs = o_.fields[static_cast<std::size_t>(decl)];
                    if (c == 'n') {
                        if (auto fnd = check_declared_missing(fs, true)) report(std::move(fnd), vline, vcol, pointer());
                    } else {
                        report(check_declared_non_string(fs, word, false), vline, vcol, pointer());
                    }
                }
                return !done();
            }
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    if (!number()) return false;
                    state = State::after_value;
                    const bool zero = (number_.size() == 1 && number_[0] == '0') ||
                                      (number_.size() == 2 && number_[0] == '-' && number_[1] == '0');
                    if (decl >= 0)
                        report(check_declared_non_string(o_.fields[static_cast<std::size_t>(decl)], number_, zero), vline,
                               vcol, pointer());
                    else if (o_.shape && zero && f.named)
                        report(shape_zero(true), vline, vcol, pointer());
                    return !done();
                }
                error("expected a value, found " + describe_char(c) + (c == ']' || c == '}' ? " (trailing ',')" : ""));
                return false;
        }
    }

    void track(std::string_view s, std::uint64_t vline, std::uint64_t vcol) {
        // Records of an export share their layout: the k-th UUID of this
        // record usually sits in the same field as in the previous one, so
        // a per-ordinal cache avoids hashing the shape for every value.
        VersionSeen* seen = nullptr;
        if (tracked_in_record_ < cache_.size() && cache_[tracked_in_record_].first == shape_) {
            seen = cache_[tracked_in_record_].second;
        } else {
            auto it = versions_.find(shape_);
            if (it == versions_.end()) {
                if (versions_.size() >= max_tracked_fields) return;  // constant memory: stop tracking new fields
                it = versions_.emplace(shape_, VersionSeen{}).first;
            }
            seen = &it->second;
            if (tracked_in_record_ < 64) {
                if (tracked_in_record_ >= cache_.size()) cache_.resize(tracked_in_record_ + 1);
                cache_[tracked_in_record_] = {shape_, seen};
            }
        }
        ++tracked_in_record_;
        const int version = s[14] <= '9' ? s[14] - '0' : s[14] - 'a' + 10;
        if (seen->version == version) return;  // the common case: no pointer built
        track_version(*seen, version, s, vline, vcol, pointer(), shape_);
    }

    VersionSeen* version_slot(const std::string& key) override {
        auto it = versions_.find(key);
        if (it == versions_.end()) {
            if (versions_.size() >= max_tracked_fields) return nullptr;
            it = versions_.emplace(key, VersionSeen{}).first;
        }
        return &it->second;
    }
    void save_versions() override { saved_versions_ = versions_; }
    void restore_versions() override {
        versions_ = std::move(saved_versions_);
        cache_.clear();  // they point into the map
        fcache_.clear();
    }

    // Cheap filter before the shape rules: an id in any spelling has at
    // least 26 chars, unless padded; an empty string matters under an id-named key.
    static bool may_be_id(std::string_view s, bool named) noexcept {
        if (s.size() >= 26) return true;
        if (s.empty()) return named;
        const char a = s.front(), b = s.back();
        return a == ' ' || a == '\t' || a == '\n' || a == '\r' || b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    bool literal(const char* word) {
        const std::size_t n = std::strlen(word);
        for (std::size_t i = 0; i < n; ++i) {
            const int c = peek();
            if (c != word[i]) {
                error(std::string("invalid literal: expected '") + word + "', found " + describe_char(c));
                return false;
            }
            ++pos_;
        }
        return delimiter_follows();
    }

    bool delimiter_follows() {
        const int c = peek();
        if (c < 0 || c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n') return true;
        error("unexpected " + describe_char(c) + " after a value");
        return false;
    }

    // RFC 8259 number; its text (up to 64 bytes) in number_.
    bool number() {
        number_.clear();
        auto take = [this]() {
            if (number_.size() < 64) number_ += d_[pos_];
            ++pos_;
        };
        auto digits = [this, &take]() {
            int n = 0;
            for (int c = peek(); c >= '0' && c <= '9'; c = peek()) { take(); ++n; }
            return n;
        };
        if (peek() == '-') take();
        int c = peek();
        if (c == '0') {
            take();
        } else if (c >= '1' && c <= '9') {
            (void)digits();
        } else {
            error("invalid number: expected a digit after '-', found " + describe_char(c));
            return false;
        }
        c = peek();
        if (c >= '0' && c <= '9') {
            error("invalid number: leading zeros are not allowed");
            return false;
        }
        if (c == '.') {
            take();
            if (digits() == 0) {
                error("invalid number: expected a digit after '.', found " + describe_char(peek()));
                return false;
            }
            c = peek();
        }
        if (c == 'e' || c == 'E') {
            take();
            c = peek();
            if (c == '+' || c == '-') take();
            if (digits() == 0) {
                error("invalid number: expected a digit in the exponent, found " + describe_char(peek()));
                return false;
            }
        }
        return delimiter_follows();
    }

    // A string at pos_ (the opening quote). `out` views the text (escapes
    // decoded); only the first scratch_cap bytes of a longer string are kept
    // and string_long_ is set.
    bool string(std::string_view& out) {
        const std::uint64_t sline = line_, scol = col(), soff = abs();
        ++pos_;
        std::size_t s = pos_;
        bool copied = false;
        scratch_.clear();
        scratch_total_ = 0;
        auto save = [&]() {
            append_scratch(d_ + s, pos_ - s);
            copied = true;
        };
        for (;;) {
#if defined(__SSE2__)
            skip_plain(json_string_specials);
#endif
            if (pos_ >= end_) {
                save();
                if (!more()) {
                    if (!st_.error)
                        error_at(sline, scol, soff, "unterminated string: the file ends inside it (it starts here)");
                    return false;
                }
                s = pos_;
                continue;
            }
            const unsigned char c = static_cast<unsigned char>(d_[pos_]);
            if (c == '"') {
                if (copied) {
                    append_scratch(d_ + s, pos_ - s);
                    out = scratch_;
                    string_long_ = scratch_total_ > scratch_cap - 1;
                } else {
                    out = std::string_view(d_ + s, pos_ - s);
                    string_long_ = out.size() > scratch_cap - 1;
                    if (string_long_) out = out.substr(0, scratch_cap);
                }
                ++pos_;
                return true;
            }
            if (c == '\\') {
                save();
                if (!escape()) return false;
                s = pos_;
                continue;
            }
            if (c < 0x20) {
                if (c == '\n') error("unterminated string: the line ends inside it");
                else if (c == 0) error("a NUL byte inside a string: this looks like a binary file, not JSON");
                else error("control character " + describe_char(c) + " inside a string (JSON needs it escaped)");
                return false;
            }
            if (c >= 0x80) {
                if (end_ - pos_ < 4) {
                    save();
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

    bool escape() {
        ++pos_;  // the backslash
        int c = peek();
        const char plain = c < 0 ? -1 : simple_escape(static_cast<char>(c));
        if (plain < 0) {
            error("invalid escape '\\" + (c >= 0x21 && c < 0x7f ? std::string(1, static_cast<char>(c)) : describe_char(c)) +
                  "' in a string");
            return false;
        }
        ++pos_;
        if (plain) {
            append_scratch(&plain, 1);
            return true;
        }
        unsigned cp = 0;
        if (!hex4(cp)) return false;
        if (cp >= 0xd800 && cp <= 0xdbff && peek() == '\\') {
            // a surrogate pair makes one code point
            const std::size_t back = pos_;
            ++pos_;
            unsigned lo = 0;
            if (peek() == 'u') {
                ++pos_;
                if (!hex4(lo)) return false;
                if (lo >= 0xdc00 && lo <= 0xdfff) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                else cp = 0xfffd, append_utf8(cp), cp = lo;
            } else {
                pos_ = back;  // another escape follows; the lone surrogate becomes U+FFFD
                cp = 0xfffd;
            }
        }
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;  // lone surrogate
        append_utf8(cp);
        return true;
    }

    bool hex4(unsigned& cp) {
        for (int i = 0; i < 4; ++i) {
            const int c = peek();
            int v = -1;
            if (c >= '0' && c <= '9') v = c - '0';
            else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
            if (v < 0) {
                error("invalid \\u escape: expected a hex digit, found " + describe_char(c));
                return false;
            }
            cp = cp * 16 + static_cast<unsigned>(v);
            ++pos_;
        }
        return true;
    }

    void append_utf8(unsigned cp) {
        char b[4];
        append_scratch(b, encode_utf8(cp, b));
    }

    // What the escape "\\<c>" stands for: the character, 0 for \\u (four
    // hex digits follow), -1 for no valid escape. Shared by both readers.
    static char simple_escape(char c) noexcept {
        switch (c) {
            case '"': return '"';
            case '\\': return '\\';
            case '/': return '/';
            case 'b': return '\b';
            case 'f': return '\f';
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'u': return 0;
            default: return -1;
        }
    }

    // cp as UTF-8 into b (room for 4); returns the byte count. Shared by both
    // readers, so the fast path decodes escapes byte for byte as the scalar one.
    static std::size_t encode_utf8(unsigned cp, char* b) noexcept {
        if (cp < 0x80) {
            b[0] = static_cast<char>(cp);
            return 1;
        }
        if (cp < 0x800) {
            b[0] = static_cast<char>(0xc0 | (cp >> 6));
            b[1] = static_cast<char>(0x80 | (cp & 0x3f));
            return 2;
        }
        if (cp < 0x10000) {
            b[0] = static_cast<char>(0xe0 | (cp >> 12));
            b[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            b[2] = static_cast<char>(0x80 | (cp & 0x3f));
            return 3;
        }
        b[0] = static_cast<char>(0xf0 | (cp >> 18));
        b[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        b[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        b[3] = static_cast<char>(0x80 | (cp & 0x3f));
        return 4;
    }
};

}  // namespace

Stats scan_json(Input& in, const Options& o, const Sink& sink, bool ndjson, Split* split, bool second) {
    JsonReader r(in, o, sink, ndjson);
    r.set_split(split, second);
    return r.run();
}

}  // namespace idconform::scan::detail
