// Report results of a file scan (scan/results.hpp), as `idconform scan` and
// the runner's file step build them: the step record, the per-rule tally, the
// cases of one file and the run's summary line, from scans of text in memory.
#include "scan/results.hpp"

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::scan;

namespace {

// Scans `text` as NDJSON into a tally of `file`.
Stats scan_into(const std::string& text, FileTally& tally, std::size_t stop_after = 0) {
    Options o;
    o.format = Format::ndjson;
    return scan_text(text, o, [&](const Violation& v) {
        tally.add(v);
        return stop_after == 0 || tally.violations() < stop_after;
    });
}

const char* const upper = R"({"id":"017F22E2-79B0-7CC3-98C4-DC0C0C07398F"})";
const char* const nil = R"({"owner_id":"00000000-0000-0000-0000-000000000000"})";

}  // namespace

TEST_CASE("scan results: a clean file is a passed read case and one passed case per base rule") {
    FileTally tally("a.ndjson");
    const Stats st = scan_into("{\"id\":\"017f22e2-79b0-7cc3-98c4-dc0c0c07398f\"}\n", tally);
    const FileCases cases = file_cases("a.ndjson", Format::ndjson, st, std::move(tally), "stopped");
    CHECK(cases.read.name == "read a.ndjson");
    CHECK(cases.read.classname == "a.ndjson.read");
    CHECK(cases.read.outcome == Outcome::passed);
    CHECK(cases.read.message == stats_text(st));
    REQUIRE(cases.read.steps.size() == 1);
    const Exchange& x = cases.read.steps[0].exchange;
    CHECK(x.request.transport == "file");
    CHECK(x.request.method == "SCAN");
    CHECK(x.request.url == "a.ndjson");
    REQUIRE(x.response);
    CHECK(x.response->reason == "1 records, " + std::to_string(st.bytes) + " bytes scanned");
    REQUIRE(cases.rules.size() == base_rules().size());
    for (std::size_t i = 0; i < cases.rules.size(); ++i) {
        CHECK(cases.rules[i].name == base_rules()[i]);
        CHECK(cases.rules[i].outcome == Outcome::passed);
        CHECK(cases.rules[i].message == "no violation in 1 records");
    }
}

TEST_CASE("scan results: violations fail their rule's case, positioned at the first one") {
    FileTally tally("b.ndjson");
    const Stats st = scan_into(std::string(nil) + "\n" + upper + "\n" + upper + "\n", tally);
    CHECK(tally.violations() == 3);
    RunTotals totals;
    totals.files = 1;
    totals.add(st, tally);
    const FileCases cases = file_cases("b.ndjson", Format::ndjson, st, std::move(tally), "stopped");
    const auto find = [&](const std::string& rule) -> const CaseResult& {
        for (const auto& c : cases.rules)
            if (c.name == rule) return c;
        FAIL("no case for " << rule);
        return cases.read;
    };
    const CaseResult& upper_case = find("DATA-ID-002");
    CHECK(upper_case.outcome == Outcome::failed);
    CHECK(upper_case.pos.line == 2);
    CHECK(upper_case.rules == std::vector<std::string>{"DATA-ID-002"});
    CHECK(upper_case.message.rfind("2 violations of DATA-ID-002; first at b.ndjson:2:7: /id: ", 0) == 0);
    CHECK(upper_case.detail.empty());
    REQUIRE(upper_case.steps.size() == 1);
    CHECK(upper_case.steps[0].checks.size() == 2);
    CHECK(find("DATA-ID-007").outcome == Outcome::failed);
    CHECK(find("DATA-ID-003").outcome == Outcome::passed);
    CHECK(totals.per_rule.at("DATA-ID-002") == 2);
    CHECK(totals.summary_line(0.5, 0).rfind("FAILED scanned 1 file (", 0) == 0);
    CHECK(totals.summary_line(0.5, 0).find("in 0.50 s: 3 violations (DATA-ID-002 2, DATA-ID-007 1)") !=
          std::string::npos);
}

TEST_CASE("scan results: past kept_per_rule violations are counted, not kept") {
    FileTally tally("c.ndjson", 2);
    std::string text;
    for (int i = 0; i < 5; ++i) text += std::string(upper) + "\n";
    const Stats st = scan_into(text, tally);
    const FileCases cases = file_cases("c.ndjson", Format::ndjson, st, std::move(tally), "stopped");
    const CaseResult& c = cases.rules[0];
    REQUIRE(c.name == "DATA-ID-002");
    CHECK(c.message.rfind("5 violations of DATA-ID-002", 0) == 0);
    CHECK(c.steps[0].checks.size() == 2);
    CHECK(c.detail ==
          "the first 2 are listed below; 3 more are in the console output (idconform scan prints every "
          "violation)");
}

TEST_CASE("scan results: a malformed file is an error read case, unchecked rules are skipped") {
    FileTally tally("d.ndjson");
    const Stats st = scan_into(std::string(upper) + "\n{oops}\n", tally);
    REQUIRE(st.error);
    RunTotals totals;
    totals.files = 1;
    totals.add(st, tally);
    CHECK(totals.bad_files == 1);
    const FileCases cases = file_cases("d.ndjson", Format::ndjson, st, std::move(tally), "stopped");
    CHECK(cases.read.outcome == Outcome::error);
    CHECK(cases.read.message == format_error("d.ndjson", *st.error));
    // the record says how far the scan got and holds the malformed-file check
    const StepRecord& rec = cases.read.steps[0];
    REQUIRE(rec.exchange.response);
    CHECK_FALSE(rec.exchange.error);
    REQUIRE(rec.checks.size() == 1);
    CHECK(rec.checks[0].what == "file d.ndjson");
    CHECK(rec.checks[0].expected == "a well-formed ndjson file");
    CHECK(rec.checks[0].pos.line == 2);
    CHECK_FALSE(rec.checks[0].ok);
    for (const auto& c : cases.rules) {
        if (c.name == "DATA-ID-002") {
            CHECK(c.outcome == Outcome::failed);
            CHECK(c.steps[0].checks.size() == 1);  // the violation only, not the malformed-file check
        } else {
            CHECK(c.outcome == Outcome::skipped);
            CHECK(c.message.rfind("not checked past 2:", 0) == 0);
        }
    }
    CHECK(totals.summary_line(0, 0).find("FAILED") == 0);
    CHECK(totals.summary_line(0, 0).find("; 1 file unreadable or malformed") != std::string::npos);
}

TEST_CASE("scan results: a stopped scan skips the rules it did not see with the caller's reason") {
    FileTally tally("e.ndjson");
    const Stats st = scan_into(std::string(upper) + "\n" + upper + "\n" + nil + "\n", tally, 1);
    CHECK(st.stopped);
    // stopped inside the first record: not "no records: the file holds only blank lines" (it did once)
    CHECK_FALSE(st.error);
    RunTotals totals;
    totals.add(st, tally);
    CHECK(totals.stopped);
    const FileCases cases = file_cases("e.ndjson", Format::ndjson, st, std::move(tally), "scan stopped: X");
    for (const auto& c : cases.rules)
        if (c.name != "DATA-ID-002") {
            CHECK(c.outcome == Outcome::skipped);
            CHECK(c.message == "scan stopped: X");
        }
    CHECK(totals.summary_line(0, 1).find("; stopped at --max-violations 1") != std::string::npos);
}

TEST_CASE("scan results: a file that cannot be opened is the record's error, as in the runner's file step") {
    Stats st;
    st.error = ScanError{0, 0, 0, "cannot open: No such file or directory"};
    const StepRecord rec = file_record("scan x", "/nope.ndjson", Format::ndjson, st, "DATA-ID-002");
    REQUIRE(rec.exchange.error);
    CHECK(rec.exchange.error->kind == TransportErrorKind::other);
    CHECK(rec.exchange.error->message == format_error("/nope.ndjson", *st.error));
    CHECK_FALSE(rec.exchange.response);
    CHECK(rec.checks.empty());
    const CaseResult skipped = unscanned_case("f.csv", Outcome::skipped, "not scanned");
    CHECK(skipped.name == "read f.csv");
    CHECK(skipped.outcome == Outcome::skipped);
    CHECK(skipped.steps.empty());
}

TEST_CASE("scan results: sizes in the summary line") {
    CHECK(human_bytes(0) == "0 bytes");
    CHECK(human_bytes(1023) == "1023 bytes");
    CHECK(human_bytes(3u << 19) == "1.5 MiB");
    CHECK(human_bytes(std::uint64_t{2} << 30) == "2.00 GiB");
    RunTotals none;
    none.files = 2;
    CHECK(none.summary_line(1.0, 0) == "OK scanned 2 files (0 bytes, 0 records) in 1.00 s: 0 violations");
    none.bad_files = 1;
    CHECK(none.summary_line(1.0, 0).rfind("ERROR scanned 2 files", 0) == 0);
}
