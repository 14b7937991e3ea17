// The JSON reader's NDJSON fast path (json_reader_impl.hpp, the comment at
// "fast path" there): one line read in place, accepted whole with the scalar
// reader's effects or handed back untouched. Its small helpers (stage 1, the
// string end, the version cache) are inline in the header.
#include "scan/json_reader_impl.hpp"

#include <cstring>

namespace idconform::scan::detail {

bool JsonReader::fast_line() {
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
    fname_ord_ = 0;
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
        f->named = !k.empty() && (k.back() == 'd' || k.back() == 'D') && fast_named(k, readable16);
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
            if (sv.size() == 36 && ids::detail::canonical_rfc36(sv.data()))
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

const char* JsonReader::fast_decode(const char* s, const char* lim) noexcept {
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

// push() on the fast path's shape; nullptr when the shape would not fit.
inline JsonReader::Frame* JsonReader::fast_push(bool array, int declared, bool named) {
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
inline bool JsonReader::fast_key(const Frame& f, std::string_view k, bool readable16) noexcept {
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

}  // namespace idconform::scan::detail
