// The input boundary of the suite and profile loaders; see input_guard.hpp.
#include "suite/input_guard.hpp"

#include "suite/yaml_reader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

namespace idconform::suite::detail {

std::string size_text(std::size_t bytes) {
    if (bytes < 10000) return std::to_string(bytes) + " bytes";
    constexpr std::size_t mib = std::size_t{1} << 20;
    if (bytes % mib == 0) return std::to_string(bytes / mib) + " MiB";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / static_cast<double>(mib));
    return buf;
}

namespace {

Diagnostic file_diag(const std::string& path, std::string title, std::string hint) {
    Diagnostic d;
    d.pos.file = path;
    d.title = std::move(title);
    d.hint = std::move(hint);
    return d;
}

// Length of the valid UTF-8 sequence at s[i], 0 when it is invalid
// (overlong forms, surrogates and code points past U+10FFFF included).
std::size_t utf8_length(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const unsigned char c = b(0);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned lo = 0x80;
    unsigned hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    if (b(1) < lo || b(1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (b(k) < 0x80 || b(k) > 0xBF) return 0;
    return n;
}

// The line of `text` around `at`, with NUL bytes and invalid UTF-8 shown as
// '?' (byte for byte, so the caret stays in its column).
std::string shown_line(std::string_view text, std::size_t line_start) {
    std::size_t end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    if (end > line_start && text[end - 1] == '\r') --end;
    if (end - line_start > 400) end = line_start + 400;
    std::string out;
    for (std::size_t i = line_start; i < end;) {
        const std::size_t n = text[i] == '\0' ? 0 : utf8_length(text, i);
        if (n == 0 || i + n > end) {
            out += '?';
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

}  // namespace

std::optional<Diagnostic> check_text(std::string_view text, const std::string& path) {
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
    int line = 1;
    std::size_t line_start = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            ++line;
            line_start = ++i;
            continue;
        }
        if (c >= 0x01 && c < 0x80) {
            ++i;
            continue;
        }
        const std::size_t n = c == 0 ? 0 : utf8_length(text, i);
        if (n > 0) {
            i += n;
            continue;
        }
        Diagnostic d;
        d.pos = SourcePos{path, line, static_cast<int>(i - line_start) + 1};
        d.source_line = shown_line(text, line_start);
        if (c == 0) {
            d.title = "NUL byte in the file";
            d.hint = "a YAML file is text; this looks like a binary file, or text saved as UTF-16 (save it as UTF-8)";
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", c);
            d.title = std::string("invalid UTF-8 (byte ") + hex + ")";
            d.hint = "YAML files are read as UTF-8; save the file as UTF-8 (it may be Latin-1 or Windows-1252), "
                     "or write the character as an escape in a double-quoted string, e.g. \"\\u00e9\"";
        }
        return d;
    }
    return std::nullopt;
}

InputFile read_input_file(const std::string& path, std::string_view what) {
    InputFile out;
    const std::string w(what);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        const int err = errno;
        out.error = file_error(path, "cannot read " + w + (err == ENOENT ? ": no such file or directory" : ""));
        if (err != ENOENT && err != EACCES) out.error.hint = std::strerror(err);
        return out;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        const char* kind = S_ISDIR(st.st_mode)   ? "a directory"
                           : S_ISCHR(st.st_mode) ? "a character device"
                           : S_ISBLK(st.st_mode) ? "a block device"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not a regular file";
        ::close(fd);
        out.error = file_diag(path, "cannot read " + w + ": '" + path + "' is " + kind,
                              "pass a YAML file (a pipe such as <(...) works too)");
        return out;
    }
    const auto too_big = [&](const std::string& size) {
        return file_diag(path, "cannot read " + w + ": it is " + size + ", over the limit of " +
                                   size_text(InputLimits::max_file_bytes) + " for input files",
                         "split it into several files");
    };
    if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > InputLimits::max_file_bytes) {
        ::close(fd);
        out.error = too_big(size_text(static_cast<std::size_t>(st.st_size)));
        return out;
    }
    // Blocking reads from here on (a pipe's writer may be slow).
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    std::string text;
    if (S_ISREG(st.st_mode)) text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            out.error = file_diag(path, "cannot read " + w + ": " + std::strerror(err), "check the file");
            return out;
        }
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > InputLimits::max_file_bytes) {
            ::close(fd);
            out.error = too_big("more than " + size_text(InputLimits::max_file_bytes));
            return out;
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (auto d = check_text(text, path)) {
        out.error = std::move(*d);
        return out;
    }
    out.text = std::move(text);
    return out;
}

// ------------------------------------------------------------ pre-parse

namespace {

// A problem found inside an event callback; thrown through yaml-cpp's parser
// (which is exception-safe: it reports its own errors the same way).
struct Stop {
    YAML::Mark mark;
    std::string title;
    std::string hint;
};

bool same_mark(const YAML::Mark& a, const YAML::Mark& b) {
    return a.pos == b.pos && a.line == b.line && a.column == b.column;
}

// Counts nodes as if every alias were copied out (the cost the loader pays
// walking the tree), tracks nesting, and remembers per document what a stuck
// document looks like: one null node and nothing else.
class Counter : public YAML::EventHandler {
public:
    struct Doc {
        YAML::Mark start;
        YAML::Mark root;
        bool bare_null = false;  // one null node without an anchor, nothing else
        bool root_null = false;  // one null node, nothing else
    };
    std::vector<Doc> docs;

    void OnDocumentStart(const YAML::Mark& mark) override {
        docs.push_back(Doc{mark, mark, false, false});
        events_ = 0;
        alias_nodes_ = 0;
        names_.clear();
        sizes_.clear();
        open_.clear();
        frames_.clear();
    }
    void OnDocumentEnd() override {}

    void OnAnchor(const YAML::Mark& /*mark*/, const std::string& name) override { names_.push_back(name); }

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        first_event(mark, anchor == YAML::NullAnchor);
        if (events_ == 1) docs.back().root_null = true;
        leaf(anchor);
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string&) override {
        first_event(mark, false);
        leaf(anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        first_event(mark, false);
        if (anchor < open_.size() && open_[anchor])
            throw Stop{mark, "alias '*" + name(anchor) + "' refers to a node that contains it",
                       "an alias must not repeat a list or mapping from inside itself (the copy would never end)"};
        const std::size_t n = anchor < sizes_.size() ? sizes_[anchor] : 1;
        alias_nodes_ += n;
        if (alias_nodes_ > InputLimits::max_alias_nodes)
            throw Stop{mark,
                       "aliases repeat more than " + std::to_string(InputLimits::max_alias_nodes) +
                           " nodes (here '*" + name(anchor) + "' adds " + std::to_string(n) + ")",
                       "this looks like an alias bomb (\"billion laughs\"); write the values out, or alias "
                       "smaller parts"};
        add(n);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    struct Frame {
        YAML::anchor_t anchor;
        std::size_t size;
    };
    std::size_t events_ = 0;
    std::size_t alias_nodes_ = 0;
    std::vector<std::string> names_;  // anchor id - 1 -> name (ids are given in order)
    std::vector<std::size_t> sizes_;  // anchor id -> expanded size
    std::vector<bool> open_;          // anchor id -> its collection is still open
    std::vector<Frame> frames_;

    std::string name(YAML::anchor_t a) const { return a >= 1 && a <= names_.size() ? names_[a - 1] : "?"; }

    void first_event(const YAML::Mark& mark, bool bare_null) {
        if (events_++ == 0) {
            docs.back().root = mark;
            docs.back().bare_null = bare_null;
        } else {
            docs.back().bare_null = false;
            docs.back().root_null = false;
        }
    }
    void set_size(YAML::anchor_t a, std::size_t n) {
        if (a == YAML::NullAnchor) return;
        if (sizes_.size() <= a) sizes_.resize(a + 1, 1);
        sizes_[a] = n;
    }
    void add(std::size_t n) {
        if (!frames_.empty()) frames_.back().size += n;
    }
    void leaf(YAML::anchor_t anchor) {
        set_size(anchor, 1);
        add(1);
    }
    void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
        first_event(mark, false);
        if (frames_.size() >= static_cast<std::size_t>(InputLimits::max_depth))
            throw Stop{mark,
                       "lists and mappings nested deeper than " + std::to_string(InputLimits::max_depth) + " levels",
                       "flatten the structure; no suite or profile needs this depth"};
        frames_.push_back(Frame{anchor, 1});
        if (anchor != YAML::NullAnchor) {
            if (open_.size() <= anchor) open_.resize(anchor + 1, false);
            open_[anchor] = true;
        }
    }
    void close() {
        if (frames_.empty()) return;
        const Frame f = frames_.back();
        frames_.pop_back();
        set_size(f.anchor, f.size);
        if (f.anchor != YAML::NullAnchor && f.anchor < open_.size()) open_[f.anchor] = false;
        add(f.size);
    }
};

}  // namespace

std::optional<PreParse> pre_parse(Reader& r, const std::string& text) {
    Counter counter;
    try {
        std::istringstream in(text);
        YAML::Parser parser(in);
        // A third document is read only to tell a stuck document (the same
        // one again at the same mark) from a real second one.
        for (int n = 0; n < 3; ++n) {
            if (!parser.HandleNextDocument(counter)) break;
            const auto& d = counter.docs;
            if (d.size() >= 2 && d[d.size() - 2].bare_null && d.back().bare_null &&
                same_mark(d[d.size() - 2].start, d.back().start)) {
                const YAML::Mark m = d.back().start;
                std::string at;
                if (m.line >= 0 && static_cast<std::size_t>(m.line) < r.source().lines.size()) {
                    const std::string& line = r.source().lines[static_cast<std::size_t>(m.line)];
                    if (m.column >= 0 && static_cast<std::size_t>(m.column) < line.size())
                        at = line.substr(static_cast<std::size_t>(m.column), 1);
                }
                if (at == ",")
                    r.error(m, "YAML syntax error: ',' outside a [list] or {mapping}",
                            "a ',' separates entries only inside [a, b] or {a: 1, b: 2}; remove it, or quote a "
                            "value that holds one ('a, b')");
                else
                    r.error(m, "YAML syntax error: unexpected '" + at + "'", "check the YAML syntax near here");
                return std::nullopt;
            }
        }
    } catch (const Stop& s) {
        r.error(s.mark, s.title, s.hint);
        return std::nullopt;
    } catch (const YAML::DeepRecursion& e) {
        r.error(e.mark, "YAML nested too deeply", "flatten the structure; no suite or profile needs this depth");
        return std::nullopt;
    } catch (const YAML::ParserException& e) {
        r.error(e.mark, "YAML syntax error: " + e.msg, syntax_hint(e.msg));
        return std::nullopt;
    } catch (const YAML::Exception& e) {
        r.error(e.mark, std::string("YAML error: ") + e.what(), "check the YAML syntax near here");
        return std::nullopt;
    }
    PreParse p;
    p.documents = static_cast<int>(counter.docs.size());
    if (!counter.docs.empty()) p.first_is_null = counter.docs[0].root_null;
    if (counter.docs.size() >= 2) {
        p.second_line = counter.docs[1].root.line;
        p.second_column = counter.docs[1].root.column;
    }
    return p;
}

}  // namespace idconform::suite::detail
