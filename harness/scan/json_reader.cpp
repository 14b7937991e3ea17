// NDJSON and JSON-array reader (json_reader_impl.hpp): the record loop of
// each format (an NDJSON line goes to the fast path first, then to the scalar
// tokenizer), the JSON pointer of a violation, and scan_json().
#include "scan/json_reader_impl.hpp"

namespace idconform::scan::detail {

void JsonReader::run_ndjson() {
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

void JsonReader::run_array() {
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

void JsonReader::append_escaped(std::string& out, std::string_view key) {
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

// The JSON pointer of the current value, in the file's document: the
// shape (which holds every escaped member name) with each array's '*'
// replaced by its current index.
std::string JsonReader::pointer() const {
    std::string p = ndjson_ ? std::string() : "/" + std::to_string(record_index_);
    for (std::size_t i = 0; i < depth_; ++i) {
        const Frame& f = frames_[i];
        const std::size_t end = i + 1 < depth_ ? frames_[i + 1].base_len : shape_.size();
        if (f.array) p += "/" + std::to_string(f.index);
        else if (end > f.base_len) p.append(shape_, f.base_len, end - f.base_len);
    }
    return p.empty() ? "(record)" : p;
}

Stats scan_json(Input& in, const Options& o, const Sink& sink, bool ndjson, Split* split, bool second) {
    JsonReader r(in, o, sink, ndjson);
    r.set_split(split, second);
    return r.run();
}

}  // namespace idconform::scan::detail
