// The NDJSON and JSON-array reader's class, shared by its three files:
// json_reader.cpp (the record loops of both formats, JSON pointers, the entry
// point scan_json), json_scalar.cpp (the validating scalar tokenizer: records,
// values, numbers, strings, escapes; the reference for every result) and
// json_fast_path.cpp (the SSE2 fast path that accepts clean NDJSON lines or
// hands them back). Small members stay here so each file inlines them. Not
// installed; only harness/scan/ includes it.
//
// The reader itself: a validating, streaming JSON tokenizer with
// an explicit container stack (no recursion, so hostile nesting cannot
// overflow the stack). It keeps the position of every token, the record's
// JSON pointer (built only when a violation is reported) and the field's
// shape (indices as '*') for declared fields and the version-per-field rule.
#pragma once

#include "ids/canonical.hpp"
#include "scan/detail.hpp"

#include "ids/ids.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace idconform::scan::detail {

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at p is '"', '\\', a control char or >= 0x80
// (inline: stage 1 of the fast path calls it four times per 64 bytes).
inline std::uint32_t json_string_specials(const char* p) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    const __m128i bslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    // as signed bytes, 0x80..0xff are negative: one compare finds < 0x20 and >= 0x80
    const __m128i ctrl_or_high = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, bslash), ctrl_or_high)));
}
#endif

inline constexpr std::size_t max_depth = 512;

// Length of the valid UTF-8 sequence at p (lead byte >= 0x80) with `avail`
// bytes readable, 0 when invalid: the rules of Scanner::utf8_step.
inline std::size_t utf8_length(const unsigned char* p, std::size_t avail) noexcept {
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

    void run_ndjson();  // json_reader.cpp

    void run_array();  // json_reader.cpp

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

    bool record();  // json_scalar.cpp

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

    static void append_escaped(std::string& out, std::string_view key);  // json_reader.cpp

    std::string record_prefix() const { return ndjson_ ? std::string() : "/" + std::to_string(record_index_); }

    std::string pointer() const;  // json_reader.cpp


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

    bool fast_line();  // json_fast_path.cpp

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
    const char* fast_decode(const char* s, const char* lim) noexcept;  // json_fast_path.cpp

    [[nodiscard]] std::string_view fast_shape() const noexcept { return {fshape_, fsl_}; }

    [[gnu::always_inline]] inline Frame* fast_push(bool array, int declared, bool named);  // json_fast_path.cpp

    [[gnu::always_inline]] inline bool fast_key(const Frame& f, std::string_view k, bool readable16) noexcept;  // json_fast_path.cpp

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

    // The fast path's per-ordinal cache of id_named() (ids::data_id_named:
    // two name rules, the second by words): the n-th id-looking member name
    // of a record is almost always the previous record's n-th.
    struct NameSlot {
        char key[32];
        std::size_t len = SIZE_MAX;  // SIZE_MAX: empty
        bool named = false;
    };
    static constexpr std::size_t name_slots = 64;
    NameSlot fnames_[name_slots];
    std::size_t fname_ord_ = 0;  // reset per record by fast_line()
    // readable16: 16 bytes at k.data() may be read (a short name is then
    // compared with one SSE2 compare instead of a memcmp call).
    bool fast_named(std::string_view k, bool readable16) noexcept {
        const std::size_t n = fname_ord_++;
        if (n >= name_slots || k.size() > sizeof(NameSlot::key)) return id_named(k);
        NameSlot& slot = fnames_[n];
        if (slot.len == k.size() && (k.size() <= 16 && readable16 ? same_shape(slot.key, k.data(), k.size())
                                                                   : std::memcmp(slot.key, k.data(), k.size()) == 0))
            return slot.named;
        slot.named = id_named(k);
        std::memcpy(slot.key, k.data(), k.size());
        slot.len = k.size();
        return slot.named;
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

    bool value(int c, State& state);  // json_scalar.cpp

    void track(std::string_view s, std::uint64_t vline, std::uint64_t vcol);  // json_scalar.cpp

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

    bool number();  // json_scalar.cpp

    bool string(std::string_view& out);  // json_scalar.cpp

    bool escape();  // json_scalar.cpp

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


}  // namespace idconform::scan::detail
