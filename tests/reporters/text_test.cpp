// Tests of the shared writers: UTF-8 repair, XML/terminal/JSON escaping,
// body excerpts, time formatting, atomic file writing and the report
// scratch file.
#include "reporters/atomic_file.hpp"
#include "reporters/spool.hpp"
#include "reporters/text.hpp"
#include "test_util.hpp"

#include <boost/json/parse.hpp>

#include <pugixml.hpp>

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {
std::string hex4(unsigned v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04X", v);
    return buf;
}
}  // namespace

TEST_CASE("valid_utf8 keeps valid text and replaces each invalid byte") {
    CHECK(valid_utf8("plain ascii") == "plain ascii");
    CHECK(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
    CHECK(valid_utf8(std::string("a\0b", 3)) == std::string("a\0b", 3));  // controls are valid UTF-8
    const std::string fffd = "\xEF\xBF\xBD";
    CHECK(valid_utf8("\xFF") == fffd);
    CHECK(valid_utf8("\x80") == fffd);                         // stray continuation
    CHECK(valid_utf8("\xC0\xAF") == fffd + fffd);              // overlong '/'
    CHECK(valid_utf8("\xE0\x80\xAF") == fffd + fffd + fffd);   // overlong 3-byte
    CHECK(valid_utf8("\xED\xA0\x80") == fffd + fffd + fffd);   // UTF-16 surrogate
    CHECK(valid_utf8("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // > U+10FFFF
    CHECK(valid_utf8("ab\xC3") == "ab" + fffd);                // cut-off sequence
    CHECK(valid_utf8("\xE2\x82") == fffd + fffd);
}

TEST_CASE("xml_text escapes every C0 control except TAB, LF and CR") {
    for (unsigned c = 0; c < 0x20; ++c) {
        CAPTURE(c);
        const std::string in = "a" + std::string(1, static_cast<char>(c)) + "b";
        const std::string out = xml_text(in);
        if (c == '\t' || c == '\n' || c == '\r') CHECK(out == in);
        else CHECK(out == "a" + hex4(c) + "b");
    }
    CHECK(xml_text("\x7F") == "\\u007F");
    // Plain ASCII with the whitespace each mode keeps comes back unchanged.
    CHECK(xml_text("a <b> & \"c\"\r\n\tz") == "a <b> & \"c\"\r\n\tz");
    CHECK(terminal_line("a\tb\nc") == "a\tb\\nc");
    CHECK(terminal_text("a\tb\nc\r") == "a\tb\nc\\r");
    CHECK(xml_text("\xC2\x85") == "\\u0085");  // C1 control NEL
    CHECK(xml_text("\xEF\xBF\xBE") == "\\uFFFE");
    CHECK(xml_text("\xEF\xBF\xBF") == "\\uFFFF");
    CHECK(xml_text("\xEF\xBF\xBD") == "\xEF\xBF\xBD");  // U+FFFD itself is fine
    CHECK(xml_text("\xFF") == "\xEF\xBF\xBD");
    CHECK(xml_text("<&>\"'") == "<&>\"'");  // markup is pugixml's job
}

TEST_CASE("terminal_line escapes line breaks and ESC, terminal_text keeps LF") {
    CHECK(terminal_line("a\nb\rc\td") == "a\\nb\\rc\td");
    CHECK(terminal_line("\x1b[31mred") == "\\u001B[31mred");
    CHECK(terminal_text("a\nb\rc") == "a\nb\\rc");
    CHECK(terminal_text("\x1b]0;title\x07") == "\\u001B]0;title\\u0007");
}

// Every character class an XML 1.0 parser rejects, in an attribute and in
// text, must come out as a document that xmllint (a strict parser) accepts.
TEST_CASE("xml_text output parses in xmllint, raw pugixml output does not") {
    std::string hostile;
    for (unsigned c = 0; c < 0x20; ++c) hostile += static_cast<char>(c == 0 ? 1 : c);  // NUL would end a C string
    hostile += "\x7F\xEF\xBF\xBE\xEF\xBF\xBF\xFF\xFE\xC3<&>\"]]>";
    const auto render = [&](bool sanitise) {
        pugi::xml_document doc;
        auto root = doc.append_child("r");
        const std::string v = sanitise ? xml_text(hostile) : hostile;
        root.append_attribute("a").set_value(v.c_str());
        root.append_child(pugi::node_pcdata).set_value(v.c_str());
        std::ostringstream out;
        doc.save(out);
        return out.str();
    };
    const fs::path dir = scratch_dir("xmltext");
    write_file(dir / "good.xml", render(true));
    write_file(dir / "bad.xml", render(false));
    const auto good = xmllint("--noout", dir / "good.xml");
    CHECK_MESSAGE(good.exit_code == 0, good.output);
    const auto bad = xmllint("--noout", dir / "bad.xml");
    CHECK(bad.exit_code != 0);  // the negative control: the check can fail

    // And the text reads back as the visible escapes.
    pugi::xml_document doc;
    REQUIRE(doc.load_string(render(true).c_str()));
    const std::string back = doc.child("r").attribute("a").value();
    CHECK(back.find("\\u0001") != std::string::npos);
    CHECK(back.find("\\u001F") != std::string::npos);
    CHECK(back.find("\\uFFFE") != std::string::npos);
    CHECK(back.find("<&>\"]]>") != std::string::npos);
}

TEST_CASE("json_quote escapes every U+0000-U+001F and round-trips") {
    for (unsigned c = 0; c < 0x20; ++c) {
        CAPTURE(c);
        const std::string in = "a" + std::string(1, static_cast<char>(c)) + "b";
        const std::string quoted = json_quote(in);
        for (char ch : quoted) CHECK(static_cast<unsigned char>(ch) >= 0x20);
        const auto v = boost::json::parse(quoted);
        REQUIRE(v.is_string());
        CHECK(std::string(v.get_string()) == in);
    }
    CHECK(json_quote("\"\\") == R"("\"\\")");
    // Invalid UTF-8 becomes U+FFFD, so the document stays parseable.
    const std::string q = json_quote("x\xFF\xC3");
    CHECK(q == "\"x\xEF\xBF\xBD\xEF\xBF\xBD\"");
    CHECK_NOTHROW(boost::json::parse(q));
}

TEST_CASE("body_excerpt cuts on a character boundary and tells what is missing") {
    CHECK(body_excerpt("", 10) == "");
    CHECK(body_excerpt("short", 10) == "short");
    CHECK(body_excerpt("0123456789", 10) == "0123456789");
    CHECK(body_excerpt("0123456789abc", 10) == "0123456789... (3 more bytes)");
    // "aa€b": the 3-byte euro sign straddles a 4-byte cut; it is left out whole.
    CHECK(body_excerpt("aa\xE2\x82\xAC" "b", 4) == "aa... (4 more bytes)");
    CHECK(body_excerpt("aa\xE2\x82\xAC" "b", 5) == "aa\xE2\x82\xAC... (1 more bytes)");
    // Transport truncation: the total received is named.
    CHECK(body_excerpt("0123456789", 4, 1000, true) ==
          "0123... (996 more bytes, 1000 received in total; body truncated by the transport)");
    CHECK(body_excerpt("0123456789", 100, 1000, true) ==
          "0123456789... (990 more bytes, 1000 received in total; body truncated by the transport)");
    // Not truncated: body_bytes alone does not add a suffix.
    CHECK(body_excerpt("0123", 100, 4, false) == "0123");
    // Garbage continuation bytes cannot make the excerpt vanish.
    CHECK(body_excerpt(std::string(10, '\x80'), 4).substr(0, 1) == "\x80");
}

TEST_CASE("format_seconds gives printf's %.3f digits for every magnitude") {
    for (double v : {0.0, 0.0005, 0.0015, 0.0025, 0.9995, 1.0005, 2.5e-4, 123.4565, 1e6 + 0.0005, 1e20, 1e300,
                     1.7976931348623157e308}) {
        CAPTURE(v);
        char want[400];
        std::snprintf(want, sizeof want, "%.3f", v);
        CHECK(format_seconds(v) == want);
    }
}

TEST_CASE("format_seconds prints exactly three decimals") {
    CHECK(format_seconds(0) == "0.000");
    CHECK(format_seconds(1.23456) == "1.235");
    CHECK(format_seconds(12) == "12.000");
    CHECK(format_seconds(0.0004) == "0.000");
    CHECK(format_seconds(-1) == "0.000");
    CHECK(format_seconds(std::numeric_limits<double>::quiet_NaN()) == "0.000");
    CHECK(format_seconds(std::numeric_limits<double>::infinity()) == "0.000");
}

TEST_CASE("iso8601_utc and seconds_between") {
    const auto t = Clock::time_point(std::chrono::milliseconds(1645557742123));
    CHECK(iso8601_utc(t) == "2022-02-22T19:22:22.123Z");
    CHECK(seconds_between(t, t + std::chrono::milliseconds(1500)) == doctest::Approx(1.5));
    CHECK(seconds_between(t + std::chrono::seconds(1), t) == 0.0);
    CHECK(seconds_between(Clock::time_point{}, t) == 0.0);
}

TEST_CASE("write_file_atomic writes, replaces and leaves no temp file") {
    const fs::path dir = scratch_dir("atomic");
    const std::string path = (dir / "report.xml").string();
    std::string error;
    REQUIRE(write_file_atomic(path, "first", "test report", error));
    CHECK(read_file(path) == "first");
    REQUIRE(write_file_atomic(path, "second", "test report", error));
    CHECK(read_file(path) == "second");
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
    CHECK(files == 1);
}

TEST_CASE("write_file_atomic reports an unwritable path without throwing") {
    std::string error;
    CHECK_FALSE(write_file_atomic("/nonexistent-idconform-dir/report.xml", "x", "JUnit report", error));
    CHECK(error.find("cannot write JUnit report '/nonexistent-idconform-dir/report.xml'") == 0);
    CHECK(error.find("No such file or directory") != std::string::npos);

    // The target is a directory: refused before any temp file is made.
    const fs::path dir = scratch_dir("atomic-dir");
    fs::create_directories(dir / "taken");
    error.clear();
    CHECK_FALSE(write_file_atomic((dir / "taken").string(), "x", "JSON report", error));
    CHECK(error.find("open: Is a directory") != std::string::npos);
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
    CHECK(files == 1);
}

TEST_CASE("AtomicFileWriter: pieces make one file, abandoned, it leaves the old file and no temp file") {
    const fs::path dir = scratch_dir("atomic-pieces");
    const std::string path = (dir / "report.json").string();
    std::string error;
    {
        AtomicFileWriter out(path, "JSON report");
        out.write("one ");
        out.write("");
        out.write("two");
        REQUIRE_MESSAGE(out.commit(error), error);
    }
    CHECK(read_file(path) == "one two");
    {
        AtomicFileWriter out(path, "JSON report");
        out.write("half a report");
    }  // destroyed without commit: a failed run must not replace the last good report
    CHECK(read_file(path) == "one two");
    int files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
    CHECK(files == 1);

    AtomicFileWriter bad("/nonexistent-idconform-dir/report.json", "JSON report");
    bad.write("x");
    CHECK_FALSE(bad.commit(error));
    CHECK(error.find("cannot write JSON report '/nonexistent-idconform-dir/report.json': create:") == 0);
}

TEST_CASE("Spool: ranges across the move from memory to the scratch file copy back exactly") {
    const fs::path dir = scratch_dir("spool-spill");
    const std::string path = (dir / "out.txt").string();
    Spool spool;
    // 3 MiB pieces with distinct bytes: the third one no longer fits in the
    // 8 MiB kept in memory, so it and everything before it go to the file.
    std::vector<std::size_t> at{0};
    std::string want;
    for (char c : {'a', 'b', 'c', 'd'}) {
        const std::string piece(3u << 20, c);
        spool.append(piece);
        want += piece;
        at.push_back(spool.size());
    }
    REQUIRE(spool.error().empty());
    AtomicFileWriter out(path, "test report");
    REQUIRE(spool.copy_to(at[1] - 5, at[3] + 5, out));  // spans the spill point
    REQUIRE(spool.copy_to(0, 5, out));
    std::string error;
    REQUIRE_MESSAGE(out.commit(error), error);
    CHECK(read_file(path) == want.substr(at[1] - 5, at[3] - at[1] + 10) + want.substr(0, 5));
}

TEST_CASE("Spool: appended ranges copy back exactly, appends after a copy go to the end") {
    const fs::path dir = scratch_dir("spool");
    const std::string path = (dir / "out.txt").string();
    Spool spool;
    CHECK(spool.size() == 0);
    spool.append("alpha|");
    const std::size_t mid = spool.size();
    // Larger than the copy buffer, so the copy loops.
    const std::string big(200000, 'b');
    spool.append(big);
    const std::size_t end = spool.size();
    REQUIRE(spool.error().empty());

    AtomicFileWriter out(path, "test report");
    REQUIRE(spool.copy_to(mid, end, out));
    REQUIRE(spool.copy_to(0, mid, out));
    spool.append("tail");
    REQUIRE(spool.copy_to(end, spool.size(), out));
    REQUIRE(spool.copy_to(3, 3, out));  // an empty range copies nothing
    std::string error;
    REQUIRE_MESSAGE(out.commit(error), error);
    CHECK(read_file(path) == big + "alpha|tail");
}

TEST_CASE("write_file_atomic writes devices in place, follows symlinks and keeps permission bits") {
    std::string error;
    const fs::path dir = scratch_dir("atomic-kinds");
    fs::create_directories(dir);
    // A null device stays a device (as root a rename made /dev/null a file).
    // A private one (mknod needs root): a build without the fix must not
    // break the machine's /dev/null.
    const fs::path null = dir / "null";
    if (::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) == 0) {
        CHECK(write_file_atomic(null.string(), "x", "JSON report", error));
        CHECK(fs::is_character_file(null));
    }
    {
        std::ofstream(dir / "real.json") << "old";
    }
    fs::permissions(dir / "real.json", fs::perms::owner_read | fs::perms::owner_write);
    fs::create_symlink("real.json", dir / "link.json");
    CHECK(write_file_atomic((dir / "link.json").string(), "new", "JSON report", error));
    CHECK(fs::is_symlink(dir / "link.json"));
    std::ifstream in(dir / "real.json");
    std::string text;
    std::getline(in, text);
    CHECK(text == "new");
    CHECK(fs::status(dir / "real.json").permissions() == (fs::perms::owner_read | fs::perms::owner_write));
    fs::create_symlink("missing/x.json", dir / "dangling.json");
    error.clear();
    CHECK_FALSE(write_file_atomic((dir / "dangling.json").string(), "x", "JSON report", error));
    CHECK(error.find("follow the symbolic link") != std::string::npos);
    // same_file: through a symlink and a hard link; devices never
    fs::create_hard_link(dir / "real.json", dir / "hard.json");
    CHECK(same_file((dir / "link.json").string(), (dir / "real.json").string()));
    CHECK(same_file((dir / "hard.json").string(), (dir / "real.json").string()));
    CHECK_FALSE(same_file((dir / "new.json").string(), (dir / "real.json").string()));
    CHECK_FALSE(same_file("/dev/null", "/dev/null"));
    CHECK(output_overwrites_input({"", (dir / "hard.json").string()}, {(dir / "link.json").string()})
              .find("is the input") != std::string::npos);
    CHECK(output_overwrites_input({(dir / "new.json").string()}, {(dir / "link.json").string()}).empty());
}
