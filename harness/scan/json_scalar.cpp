// The JSON reader's scalar tokenizer (json_reader_impl.hpp): one record with
// an explicit container stack (no recursion, so hostile nesting cannot
// overflow the stack), its values, numbers, strings and escapes, each with
// its position, and the version tracking of id values. The reference every
// fast-path result is tested against.
#include "scan/json_reader_impl.hpp"

#include <cstring>

namespace idconform::scan::detail {

// One record: an object, at pos_. False on error or stop.
bool JsonReader::record() {
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

bool JsonReader::value(int c, State& state) {
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

void JsonReader::track(std::string_view s, std::uint64_t vline, std::uint64_t vcol) {
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

// RFC 8259 number; its text (up to 64 bytes) in number_.
bool JsonReader::number() {
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
bool JsonReader::string(std::string_view& out) {
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

bool JsonReader::escape() {
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

}  // namespace idconform::scan::detail
