// The file readers: violations at exact positions for NDJSON, JSON arrays and
// CSV, declared fields, version-per-field, and every kind of malformed input
// (with its line:col). Each input is scanned twice: from memory, and from a
// file through a 64-byte buffer so that every token crosses refills.
#include "scan/scan.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace idconform::scan;

namespace {

const std::string v7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f";
const std::string v7u = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F";
const std::string v4 = "919108f7-52d1-4320-9bac-f847db4148a8";
const std::string nil = "00000000-0000-0000-0000-000000000000";

struct Out {
    std::vector<Violation> v;
    Stats st;
    // "line:col RULE where" per violation
    [[nodiscard]] std::vector<std::string> brief() const {
        std::vector<std::string> b;
        for (const auto& x : v) b.push_back(std::to_string(x.line) + ":" + std::to_string(x.column) + " " + x.rule + " " + x.where);
        return b;
    }
    [[nodiscard]] std::string err() const {
        return st.error ? std::to_string(st.error->line) + ":" + std::to_string(st.error->column) + " " + st.error->message : "";
    }
};

// via_file: through a 64-byte buffer, as one pass unless `split` (two halves on two threads).
Out scan_once(const std::string& text, Options o, bool via_file, std::size_t stop_after = 0, bool split = false) {
    Out out;
    auto sink = [&](const Violation& v) {
        out.v.push_back(v);
        return stop_after == 0 || out.v.size() < stop_after;
    };
    if (!via_file) {
        out.st = scan_text(text, o, sink);
        return out;
    }
    std::FILE* f = std::tmpfile();
    REQUIRE(f);
    REQUIRE(std::fwrite(text.data(), 1, text.size(), f) == text.size());
    std::fflush(f);
    std::rewind(f);
    o.buffer_bytes = 64;
    o.threads = split ? 2 : 1;
    o.split_min_bytes = 0;
    out.st = scan_fd(fileno(f), o, sink);
    std::fclose(f);
    return out;
}

// Scans from memory and through a tiny buffer; both must agree.
Out scan(const std::string& text, Format fmt, std::vector<FieldSpec> fields = {}) {
    Options o;
    o.format = fmt;
    o.fields = std::move(fields);
    Out a = scan_once(text, o, false);
    Out b = scan_once(text, o, true);
    CHECK(a.brief() == b.brief());
    CHECK(a.err() == b.err());
    CHECK(a.st.records == b.st.records);
    if (fmt != Format::json) {
        Out c = scan_once(text, o, true, 0, true);
        CHECK(a.brief() == c.brief());
        CHECK(a.err() == c.err());
        CHECK(a.st.records == c.st.records);
        CHECK(a.st.bytes == c.st.bytes);
        CHECK(a.st.values == c.st.values);
    }
    return a;
}

std::string q(const std::string& s) { return "\"" + s + "\""; }

}  // namespace

// ------------------------------------------------------------------ NDJSON

TEST_CASE("ndjson: violations at exact line, column and pointer") {
    const std::string text =
        "{\"id\":" + q(v7) + ",\"name\":\"a\"}\n" +                              // line 1: clean
        "{\"id\":" + q(v7u) + ",\"category_id\":" + q(nil) + "}\n" +             // line 2
        "{\"id\":" + q(v7) + ",\"tags\":[{\"owner_id\":0},{\"x\":\"{" + v7 + "}\"}]}\n" +  // line 3
        "\n" +                                                                    // blank line: skipped
        "{\"a/b~\":\"01ARZ3NDEKTSV4RRFFQ69G5FAV\",\"parent_id\":\"\"}\r\n";      // line 5, CRLF
    const Out o = scan(text, Format::ndjson);
    CHECK(o.err() == "");
    CHECK(o.st.records == 4);
    CHECK(o.brief() == std::vector<std::string>{
                           "2:7 DATA-ID-002 /id",
                           "2:60 DATA-ID-007 /category_id",
                           "3:66 DATA-ID-007 /tags/0/owner_id",
                           "3:74 DATA-ID-002 /tags/1/x",
                           "5:9 DATA-ID-002 /a~1b~0",
                           "5:50 DATA-ID-007 /parent_id",
                       });
    CHECK(o.v[0].actual.find(v7u) != std::string::npos);
    CHECK(o.v[0].actual.find("upper-case") != std::string::npos);
}

TEST_CASE("ndjson: escapes are decoded before the check, long strings are not ids") {
    const std::string esc = "017F22E2\\u002d79B0-7CC3-98C4-DC0C0C07398F";
    const std::string text = "{\"id\":\"" + esc + "\",\"blob\":\"" + std::string(5000, 'a') + "\",\"n\":\"\\u00e9\\ud83d\\ude00\"}\n";
    const Out o = scan(text, Format::ndjson);
    CHECK(o.err() == "");
    REQUIRE(o.v.size() == 1);
    CHECK(o.v[0].actual.find("'" + v7u + "'") != std::string::npos);
}

TEST_CASE("ndjson: a second UUID version in one field is DATA-ID-003, reported once") {
    std::string text;
    for (const auto& id : {v7, v7, v4, v4, v7}) text += "{\"ref\":" + q(id) + "}\n";
    const Out o = scan(text, Format::ndjson);
    CHECK(o.brief() == std::vector<std::string>{"3:8 DATA-ID-003 /ref"});
    CHECK(o.v[0].expected.find("v7 first, at line 1") != std::string::npos);
}

TEST_CASE("declared fields: kind, null, absence, wildcards") {
    const std::vector<FieldSpec> fields = {{"/id", "uuidv7", false}, {"/parent_id", "uuidv7", true},
                                           {"/items/*/sku_id", "uuidv4", false}};
    const std::string text =
        "{\"id\":" + q(v7) + ",\"parent_id\":null,\"items\":[{\"sku_id\":" + q(v4) + "}]}\n" +  // clean
        "{\"id\":" + q(v4) + ",\"items\":[{\"sku_id\":" + q(v7) + "},{\"sku_id\":null}]}\n" +
        "{\"name\":\"no id\",\"parent_id\":" + q(nil) + "}\n" +
        "{\"id\":42}\n";
    const Out o = scan(text, Format::ndjson, fields);
    CHECK(o.err() == "");
    CHECK(o.brief() == std::vector<std::string>{
                           "2:7 DATA-ID-002 /id",
                           "2:65 DATA-ID-003 /items/0/sku_id",
                           "2:115 DATA-ID-007 /items/1/sku_id",
                           "3:29 DATA-ID-007 /parent_id",
                           "3:1 DATA-ID-007 /id",
                           "4:7 DATA-ID-002 /id",
                       });
    CHECK(o.v[4].actual == "(absent)");
}

TEST_CASE("the sink can stop the scan") {
    std::string text;
    for (int i = 0; i < 10; ++i) text += "{\"id\":" + q(v7u) + "}\n";
    Options opt;
    const Out o = scan_once(text, opt, false, 3);
    CHECK(o.v.size() == 3);
    CHECK(o.st.stopped);
}

// -------------------------------------------------------------- JSON array

TEST_CASE("json array: pretty-printed, pointers include the element index") {
    const std::string text = "[\n  {\"id\": " + q(v7) + "},\n  {\"id\": " + q(v7u) + ",\n   \"nested\": {\"parent_id\": \"\"}}\n]\n";
    const Out o = scan(text, Format::json);
    CHECK(o.err() == "");
    CHECK(o.st.records == 2);
    CHECK(o.brief() == std::vector<std::string>{"3:10 DATA-ID-002 /1/id", "4:28 DATA-ID-007 /1/nested/parent_id"});
}

TEST_CASE("json array: empty array is zero records") {
    const Out o = scan("[ ]", Format::json);
    CHECK(o.err() == "");
    CHECK(o.st.records == 0);
}

// --------------------------------------------------------------------- CSV

TEST_CASE("csv: quoting, CRLF, multi-line fields, null vs empty string") {
    const std::string text = "id,owner_id,name\r\n" +
                             v7 + ",,\"a, \"\"b\"\"\"\r\n" +           // line 2: owner null: fine
                             v7u + ",0,x\r\n" +                          // line 3
                             "\"" + v7 + "\",\"\",\"multi\nline\"\r\n" + // lines 4-5: "" is an empty string
                             "x," + v7 + ",{" + v7 + "}\r\n";            // line 6
    const Out o = scan(text, Format::csv);
    CHECK(o.err() == "");
    CHECK(o.st.records == 4);
    CHECK(o.brief() == std::vector<std::string>{
                           "3:1 DATA-ID-002 column id",
                           "3:38 DATA-ID-007 column owner_id",
                           "4:40 DATA-ID-007 column owner_id",
                           "6:40 DATA-ID-002 column name",
                       });
}

TEST_CASE("csv: declared columns") {
    const std::string text = "id,owner_id\n" + v7 + ",\n" + v4 + "," + v7 + "\n";
    const Out o = scan(text, Format::csv, {{"id", "uuidv7", false}, {"owner_id", "uuidv7", false}});
    CHECK(o.brief() == std::vector<std::string>{"2:38 DATA-ID-007 column owner_id", "3:1 DATA-ID-002 column id"});
    const Out missing = scan(text, Format::csv, {{"ownerid", "uuidv7", false}});
    CHECK(missing.err() == "1:1 declared column 'ownerid' is not in the header (did you mean 'owner_id'?)");
}

TEST_CASE("csv: the last field of a file without a final newline is read once (found by fuzz_scan)") {
    // From memory the field's bytes were appended twice at the end of the
    // file: the header "\\" read as "\\\\", an id in the last column doubled.
    const Out header = scan("\\", Format::csv, {{"id", "uuidv7", true}});
    CHECK(header.err() == "1:1 declared column 'id' is not in the header (columns: \\)");
    const Out last = scan("name,id\nabc," + v7, Format::csv, {{"id", "uuidv7", false}});
    CHECK(last.v.empty());
    CHECK(last.err().empty());
    CHECK(last.st.records == 1);
}

// --------------------------------------------------------------- malformed

TEST_CASE("malformed input: clear errors at exact positions") {
    struct Case {
        Format fmt;
        std::string text;
        std::string want;  // "line:col message-prefix"
    };
    const std::vector<Case> cases = {
        {Format::ndjson, "{\"a\":1,}\n", "1:8 expected a member name in double quotes, found '}'"},
        {Format::ndjson, "{\"a\":1}\n{\"a\" 2}\n", "2:6 expected ':' after the member name, found '2'"},
        {Format::ndjson, "{\"a\":tru}\n", "1:9 invalid literal: expected 'true', found '}'"},
        {Format::ndjson, "{\"a\":01}\n", "1:7 invalid number: leading zeros"},
        {Format::ndjson, "{\"a\":\"x\\q\"}\n", "1:9 invalid escape '\\q'"},
        {Format::ndjson, "{\"a\":1,\n\"b\":2}\n", "1:8 the record is not closed at the end of the line"},
        {Format::ndjson, "{\"a\":1}{\"b\":2}\n", "1:8 expected the end of the line after the record, found '{'"},
        {Format::ndjson, "[{\"a\":1}]\n", "1:1 expected a JSON object at the start of a record, found '['"},
        {Format::ndjson, "{\"a\":\"\xff\"}\n", "1:7 invalid UTF-8: byte 0xff cannot start a character"},
        {Format::ndjson, "{\"a\":\"\xc3(\"}\n", "1:7 invalid UTF-8: a 2-byte sequence starting with byte 0xc3 continues with '('"},
        {Format::ndjson, "{\"a\":\"\xed\xa0\x80\"}\n", "1:7 invalid UTF-8"},
        {Format::ndjson, "{\"a\":\"x", "1:6 unterminated string: the file ends inside it"},
        {Format::ndjson, "{\"a\":\"x\ny\"}", "1:8 unterminated string: the line ends inside it"},
        {Format::ndjson, "{\"a\":[1,2", "1:1 the record is not closed: the file ends inside it"},
        {Format::ndjson, "", "1:1 empty file"},
        {Format::ndjson, "\n \n", "3:1 no records"},
        {Format::ndjson, std::string("\x7f" "ELF\x02\x01\x01\x00", 8), "1:1 expected a JSON object at the start of a record, found byte 0x7f"},
        {Format::ndjson, std::string("{\"a\":\"b\x00\"}", 10), "1:8 a NUL byte inside a string: this looks like a binary file"},
        {Format::ndjson, std::string("\x1f\x8b\x08\x00", 4), "1:1 gzip-compressed file"},
        {Format::json, "{\"a\":1}", "1:1 expected '[' at the start: a JSON export is an array of objects, found '{'"},
        {Format::json, "[{\"a\":1}, 2]", "1:11 element 1 is a number, not an object"},
        {Format::json, "[\"x\"]", "1:2 element 0 is a string, not an object"},
        {Format::json, "[{\"a\":1},]", "1:10 trailing ',' before ']'"},
        {Format::json, "[{\"a\":1}] x", "1:11 unexpected 'x' after the end of the array"},
        {Format::json, "[{\"a\":1}", "1:9 expected ',' or ']' after element 0, found end of file"},
        {Format::json, "   ", "1:4 no records"},
        {Format::json, "[" + std::string(100000, '[') , "1:2 element 0 is an array, not an object"},
        {Format::json, "[{\"a\":" + std::string(100000, '[') , "1:518 nesting deeper than 512 levels"},
        {Format::csv, "a,b\n1,\"unterminated\n2,3\n", "2:3 unterminated quoted field: the file ends inside it"},
        {Format::csv, "a,b\n1,2\n1,2,3\n", "3:5 row has more fields than the header's 2"},
        {Format::csv, "a,b\n1,2\n1\n", "3:1 row has 1 field, the header has 2"},
        {Format::csv, "a,b\n1,x\"y\n", "2:4 a quote inside an unquoted field"},
        {Format::csv, "a,b\n1,\"x\"y\n", "2:6 expected ',' or the end of the line after the closing quote, found 'y'"},
        {Format::csv, "a,b\r1,2\n", "1:5 carriage return without a line feed"},
        {Format::csv, "a,\n", "1:1 column 2 of the header row has no name"},
        {Format::csv, "a,b\n1,\xff\n", "2:3 invalid UTF-8"},
        {Format::csv, std::string("a,b\n1,\x00\n", 8), "2:3 a NUL byte: this looks like a binary file"},
        {Format::csv, "", "1:1 empty file: no csv records"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.text.substr(0, 40));
        const Out o = scan(c.text, c.fmt);
        REQUIRE(o.st.error.has_value());
        CHECK(o.err().substr(0, c.want.size()) == c.want);
    }
}

TEST_CASE("a line longer than the limit is an error, violations before it are kept") {
    Options o;
    o.format = Format::ndjson;
    o.max_line_bytes = 1000;
    const std::string text = "{\"id\":" + q(v7u) + "}\n{\"blob\":\"" + std::string(10u << 20, 'a') + "\"}\n";
    for (bool via_file : {false, true}) {
        const Out r = scan_once(text, o, via_file);
        REQUIRE(r.st.error.has_value());
        CHECK(r.err().substr(0, 44) == "2:1001 line 2 is longer than 1000 bytes (rai");
        CHECK(r.v.size() == 1);
    }
}

TEST_CASE("a too-long line gives the same answer whatever the buffer size") {
    // Before, the length was only checked at refills and newlines: from
    // memory the reader met the bad token (or the bad id) first, through a
    // small buffer the line length. Now whatever lies past the limit is the
    // line-too-long error, and what lies before it is reported as found.
    Options o;
    o.max_line_bytes = 100;
    const std::string pad(150, 'a');
    const std::string upper = "0190A2B3-C4D5-7E6F-8A9B-0C1D2E3F4A5B";
    struct Case {
        const char* what;
        Format fmt;
        std::string text;
        std::string want_error;  // prefix of Out::err()
        std::size_t violations;
    };
    const Case cases[] = {
        {"ndjson: syntax error past the limit", Format::ndjson,
         "{\"a\":\"" + pad + "\",\"b\":tru}\n", "1:101 line 1 is longer than 100 bytes", 0},
        {"ndjson: violation past the limit", Format::ndjson,
         "{\"a\":\"" + pad + "\",\"id\":\"" + upper + "\"}\n", "1:101 line 1 is longer than 100 bytes", 0},
        {"ndjson: violation before the limit, error after", Format::ndjson,
         "{\"id\":\"" + upper + "\",\"a\":\"" + pad + "\",\"b\":x}\n", "1:101 line 1 is longer than 100 bytes", 1},
        {"ndjson: syntax error before the limit", Format::ndjson, "{\"b\":x,\"a\":\"" + pad + "\"}\n", "1:6 ", 0},
        {"csv: violation past the limit", Format::csv,
         "a,id\n" + pad + "," + upper + "\n", "2:101 line 2 is longer than 100 bytes", 0},
    };
    for (const auto& c : cases) {
        CAPTURE(c.what);
        o.format = c.fmt;
        for (bool via_file : {false, true}) {
            CAPTURE(via_file);
            const Out r = scan_once(c.text, o, via_file);
            CHECK(r.err().substr(0, c.want_error.size()) == c.want_error);
            CHECK(r.v.size() == c.violations);
        }
    }
}

TEST_CASE("formats from names and extensions") {
    CHECK(format_from_path("a/b/export.NDJSON") == Format::ndjson);
    CHECK(format_from_path("x.jsonl") == Format::ndjson);
    CHECK(format_from_path("x.json") == Format::json);
    CHECK(format_from_path("x.csv") == Format::csv);
    CHECK_FALSE(format_from_path("x.txt").has_value());
    CHECK_FALSE(format_from_path("-").has_value());
    CHECK(format_from_name("jsonl") == Format::ndjson);
    CHECK_FALSE(format_from_name("xml").has_value());
}

TEST_CASE("an unreadable path is an error without a position") {
    const Stats s = scan_path("/nonexistent/x.ndjson", Options{}, [](const Violation&) { return true; });
    REQUIRE(s.error.has_value());
    CHECK(s.error->line == 0);
    CHECK(format_error("/nonexistent/x.ndjson", *s.error) == "/nonexistent/x.ndjson: error: cannot open: No such file or directory");
}

// ------------------------------------------------------------ two halves

namespace {
// One pass from memory against two halves from a file, stopping after every
// possible number of violations: identical violations, error and counts.
void same_in_halves(const std::string& text, Format fmt, bool expect_halves, std::vector<FieldSpec> fields = {}) {
    Options o;
    o.format = fmt;
    o.fields = std::move(fields);
    const Out a = scan_once(text, o, false);
    for (std::size_t stop = 0; stop <= a.v.size(); ++stop) {
        CAPTURE(stop);
        const Out one = scan_once(text, o, false, stop);
        const Out two = scan_once(text, o, true, stop, true);
        CHECK(one.brief() == two.brief());
        for (std::size_t i = 0; i < one.v.size() && i < two.v.size(); ++i) {
            CHECK(one.v[i].expected == two.v[i].expected);
            CHECK(one.v[i].actual == two.v[i].actual);
        }
        CHECK(one.err() == two.err());
        CHECK(one.st.records == two.st.records);
        CHECK(one.st.values == two.st.values);
        CHECK(one.st.bytes == two.st.bytes);
        CHECK(one.st.violations == two.st.violations);
        CHECK(one.st.stopped == two.st.stopped);
        if (stop == 0) CHECK(two.st.halves == expect_halves);
    }
}
}  // namespace

TEST_CASE("two halves: violations and versions in both halves, in file order, at every stop") {
    const std::string v4b = "2c5ea4c0-4067-41e0-a4ea-2bd8c1b2dd8a";
    const std::string v1 = "c232ab00-9414-11ec-b3c8-9f6bdeced846";
    std::string nd;
    for (int i = 0; i < 40; ++i) {
        std::string id = i == 3 || i == 30 ? v7u : i == 25 ? v4 : i == 33 ? v1 : v7;
        std::string rec = "{\"id\":" + q(id) + ",\"n\":" + std::to_string(i);
        if (i >= 22) rec += ",\"late_id\":" + q(i == 36 ? v4b : v7);  // a field first seen after the split
        if (i == 10 || i == 28) rec += ",\"owner_id\":" + q(nil);
        nd += rec + "}\n";
    }
    same_in_halves(nd, Format::ndjson, true);
    same_in_halves(nd, Format::ndjson, true, {FieldSpec{"/id", "uuid", false}});
    // an error in the second half, after violations in both
    same_in_halves(nd + "{\"id\":" + q(v7u) + "}\n{\"id\": 1,}\n", Format::ndjson, true);

    std::string csv = "id,name,owner_id\n";
    for (int i = 0; i < 40; ++i) {
        std::string id = i == 3 || i == 30 ? v7u : i == 25 ? v4 : i == 33 ? v1 : v7;
        csv += id + ",n" + std::to_string(i) + "," + (i == 10 || i == 28 ? nil : i == 35 ? "\"\"" : "") + "\r\n";
    }
    same_in_halves(csv, Format::csv, true);
    same_in_halves(csv + "1,2\n", Format::csv, true);  // a ragged row at the end
}

TEST_CASE("two halves: a split that is not a record boundary falls back to one pass") {
    // a quoted CSV field spanning the middle of the file
    std::string csv = "id,note\n" + v7u + ",x\n" + v7 + ",\"";
    for (int i = 0; i < 30; ++i) csv += "line " + std::to_string(i) + ",\n";
    csv += "\"\n" + v7u + ",y\n";
    same_in_halves(csv, Format::csv, false);
    // NDJSON with a blank line just before the split point, then records
    std::string nd = "{\"id\":" + q(v7u) + "}\n";
    nd += std::string(200, ' ') + "\n\n";
    nd += "{\"id\":" + q(v7u) + "}\n";
    same_in_halves(nd, Format::ndjson, false);
    // only blank lines after the first half's records, and a file of blank lines
    same_in_halves("{\"id\":" + q(v7u) + "}\n" + std::string(100, '\n'), Format::ndjson, false);
    same_in_halves(std::string(100, '\n'), Format::ndjson, false);
}
