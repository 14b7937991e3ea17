// The one guard every input file crosses (core/input_file.hpp).
#include "core/input_file.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace idconform;
using namespace idconform::input;

namespace {

namespace fs = std::filesystem;

struct TempDir {
    fs::path dir;
    TempDir() {
        dir = fs::temp_directory_path() / ("idconform-input-" + std::to_string(::getpid()));
        fs::create_directories(dir);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string file(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name, std::ios::binary) << text;
        return (dir / name).string();
    }
    std::string path(const std::string& name) const { return (dir / name).string(); }
};

Policy document(NamedBy by = NamedBy::user) {
    Policy p;
    p.what = "test file";
    p.named_by = by;
    return p;
}

}  // namespace

TEST_CASE("a regular file is read and checked") {
    TempDir t;
    const auto r = read_input(t.file("a.yaml", "name: x\n"), document());
    REQUIRE(r.text);
    CHECK(*r.text == "name: x\n");
}

TEST_CASE("a FIFO never blocks: one with no writer reads as empty, one named by a file is refused") {
    TempDir t;
    const std::string fifo = t.path("p");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const auto start = std::chrono::steady_clock::now();
    const auto r = read_input(fifo, document());
    REQUIRE(r.text);
    CHECK(r.text->empty());
    const auto by_file = read_input(fifo, document(NamedBy::file));
    CHECK_FALSE(by_file.text);
    CHECK(by_file.error.title == "cannot read test file: '" + fifo + "' is a pipe (FIFO)");
    Policy no_pipes = document();
    no_pipes.pipes = false;
    CHECK(read_input(fifo, no_pipes).error.title.find("is a pipe (FIFO)") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("a pipe whose writer sends nothing is given up after the idle time") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    Policy p = document();
    p.pipe_idle_ms = 200;
    const auto start = std::chrono::steady_clock::now();
    const auto r = read_input("/dev/fd/" + std::to_string(fds[0]), p);
    ::close(fds[0]);
    ::close(fds[1]);
    CHECK_FALSE(r.text);
    CHECK(r.error.title.find("the pipe sent nothing for") != std::string::npos);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("a symlink to /dev/zero is a device, never read") {
    TempDir t;
    const std::string link = t.path("zero.proto");
    fs::create_symlink("/dev/zero", link);
    const auto r = read_input(link, document());
    CHECK_FALSE(r.text);
    CHECK(r.error.title == "cannot read test file: '" + link + "' is a character device (a symlink to /dev/zero)");
    // Named inside another file, it is refused before it is opened.
    const auto by_file = read_input(link, document(NamedBy::file));
    CHECK(by_file.error.title.find("is a character device under /dev (it resolves to /dev/zero)") != std::string::npos);
}

TEST_CASE("a directory says it is one") {
    TempDir t;
    const auto r = read_input(t.dir.string(), document());
    CHECK_FALSE(r.text);
    CHECK(r.error.title == "cannot read test file: '" + t.dir.string() + "' is a directory");
}

TEST_CASE("/proc and /sys are refused, also through a symlink and by the opened file") {
    TempDir t;
    for (const char* p : {"/proc/self/environ", "/proc/self/fd/0", "/sys/kernel/mm/transparent_hugepage/enabled"}) {
        CAPTURE(p);
        const auto r = read_input(p, document());
        CHECK_FALSE(r.text);
        CHECK(r.error.title.find(" under /") != std::string::npos);
        CHECK(r.error.title.find("a system file, not an input") != std::string::npos);
    }
    const std::string link = t.path("env.proto");
    fs::create_symlink("/proc/self/environ", link);
    const auto r = read_input(link, document());
    CHECK_FALSE(r.text);
    CHECK(r.error.title.find("is under /proc (it resolves to /proc/") != std::string::npos);
    CHECK(system_path("/dev/../proc/1/environ") == "/proc");
    CHECK(system_path(link) == "/proc");
    CHECK_FALSE(system_path(t.dir.string()));
}

TEST_CASE("the size cap refuses before reading (regular) and while reading (pipe)") {
    TempDir t;
    Policy p = document();
    p.max_bytes = 16;
    const auto big = read_input(t.file("big.yaml", std::string(17, 'a')), p);
    CHECK_FALSE(big.text);
    CHECK(big.error.title == "cannot read test file: it is 17 bytes, over the limit of 16 bytes for input files");
    CHECK(read_input(t.file("ok.yaml", std::string(16, 'a')), p).text);
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::write(fds[1], "0123456789abcdefXYZ", 19) == 19);
    ::close(fds[1]);
    const auto piped = read_input("/dev/fd/" + std::to_string(fds[0]), p);
    ::close(fds[0]);
    CHECK_FALSE(piped.text);
    CHECK(piped.error.title.find("more than 16 bytes") != std::string::npos);
}

TEST_CASE("the text check: UTF-16, NUL and invalid UTF-8 at line:col, never the bytes") {
    TempDir t;
    const auto u16 = read_input(t.file("u16.yaml", std::string("\xFF\xFEn\0a\0", 6)), document());
    CHECK_FALSE(u16.text);
    CHECK(u16.error.pos.str() == t.path("u16.yaml") + ":1:1");
    CHECK(u16.error.title == "the file is UTF-16 (byte order mark 0xFF 0xFE), not UTF-8 text");
    CHECK(check_text("\xFE\xFF", "x")->title.find("0xFE 0xFF") != std::string::npos);
    const auto nul = check_text(std::string("SECRET=abc\0TOKEN=def", 20), "env");
    REQUIRE(nul);
    CHECK(nul->pos.str() == "env:1:11");
    CHECK(nul->source_line.empty());
    CHECK(render(*nul).find("SECRET") == std::string::npos);
    const auto bad = check_text("ok: 1\nname: caf\xE9\n", "x.yaml", ".proto");
    REQUIRE(bad);
    CHECK(bad->pos.str() == "x.yaml:2:10");
    CHECK(bad->title == "invalid UTF-8 (byte 0xE9): the file is not UTF-8 text");
    CHECK(bad->hint.rfind(".proto files are read as UTF-8", 0) == 0);
    CHECK_FALSE(check_text("\xEF\xBB\xBFname: caf\xC3\xA9\n", "x"));
}

TEST_CASE("the text check: positions stay exact after long runs of plain text, wherever the bad byte falls") {
    const std::string line(37, 'a');
    for (std::size_t col = 0; col < 17; ++col) {
        std::string text = line + "\n" + line + "\n" + line;
        text[2 * (line.size() + 1) + col] = '\xFF';
        const auto d = check_text(text, "f");
        REQUIRE(d);
        CHECK(d->pos.str() == "f:3:" + std::to_string(col + 1));
    }
    const auto nul = check_text(std::string(16, 'x') + std::string(1, '\0'), "n");
    REQUIRE(nul);
    CHECK(nul->pos.str() == "n:1:17");
    CHECK_FALSE(check_text(std::string(4096, 'x') + "\n\xC3\xA9" + std::string(9, 'y'), "ok"));
    const auto cut = check_text(std::string(23, 'x') + "\xC3", "c");  // a sequence cut at the end
    REQUIRE(cut);
    CHECK(cut->pos.str() == "c:1:24");
}

TEST_CASE("render never quotes a line of a file that is not text") {
    TempDir t;
    const std::string f = t.file("bin.yaml", std::string("a: 1\nPASSWORD=hunter2\0x\n", 22));
    Diagnostic d;
    d.pos = SourcePos{f, 2, 1};
    d.title = "t";
    CHECK(render(d).find("hunter2") == std::string::npos);
    d.pos = SourcePos{f, 1, 1};
    CHECK(render(d).find("a: 1") != std::string::npos);
}
