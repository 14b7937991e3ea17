// Tests of the JSON reporter: approved output, that it parses, the
// documented field names, redaction and unwritable paths.
#include "reporters/json_report_reader.hpp"
#include "reporters/json_reporter.hpp"
#include "sample_run.hpp"
#include "reports.hpp"
#include "test_util.hpp"

#include <boost/json.hpp>

#include <doctest/doctest.h>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;
namespace json = boost::json;

namespace {

std::string write_sample(const fs::path& dir) {
    JsonReporter r((dir / "report.json").string(), sample_options());
    RunInfo info;
    info.tool_version = "0.0.0-test";
    r.run_started(info);
    std::string error;
    REQUIRE_MESSAGE(replay(r, sample_run(), error), error);
    return read_file(dir / "report.json");
}

std::vector<std::string> keys(const json::value& v) {
    std::vector<std::string> out;
    for (const auto& kv : v.as_object()) out.emplace_back(kv.key());
    return out;
}

using Keys = std::vector<std::string>;

}  // namespace

TEST_CASE("JSON output matches the approved file") {
    check_golden("run.json", write_sample(scratch_dir("json-golden")));
}

TEST_CASE("JSON output parses and carries the documented fields") {
    const std::string text = write_sample(scratch_dir("json-fields"));
    json::value doc;
    REQUIRE_NOTHROW(doc = json::parse(text));  // Boost.JSON rejects invalid UTF-8 and raw controls

    CHECK(keys(doc) == Keys{"tool", "version", "summary", "suites"});
    CHECK(doc.at("tool") == "idconform");
    CHECK(doc.at("version") == "0.0.0-test");
    const auto& summary = doc.at("summary");
    CHECK(keys(summary) == Keys{"tests", "passed", "failed", "errors", "skipped", "skipped_by_cause", "filtered_out",
                                "waived", "time", "rules"});
    CHECK(summary.at("skipped_by_cause").at("precondition").to_number<int>() == 1);  // adds up to skipped
    CHECK(summary.at("filtered_out").to_number<int>() == 0);
    CHECK(summary.at("tests").to_number<int>() == 5);
    CHECK(summary.at("passed").to_number<int>() == 1);
    CHECK(summary.at("failed").to_number<int>() == 2);
    CHECK(summary.at("errors").to_number<int>() == 1);
    CHECK(summary.at("skipped").to_number<int>() == 1);
    CHECK(summary.at("time").to_number<double>() == doctest::Approx(2.346));

    // Per rule: a failure under the rule of each failing check, so the
    // per-rule failures add up to the failing checks of the failed cases.
    std::int64_t per_rule = 0, failing_checks = 0;
    for (const auto& kv : summary.at("rules").as_object()) per_rule += kv.value().at("failed").to_number<std::int64_t>();
    for (const auto& s : doc.at("suites").as_array())
        for (const auto& k : s.at("cases").as_array()) {
            if (k.at("outcome") != "failed") continue;
            for (const auto& st : k.at("steps").as_array())
                for (const auto& chk : st.at("checks").as_array())
                    failing_checks += chk.at("ok") == false && chk.at("warning") == false;
        }
    CHECK(per_rule == failing_checks);
    CHECK(summary.at("rules").at("DATA-ID-002").at("failed") == 2);
    CHECK_FALSE(summary.at("rules").as_object().contains("NIL-MAX"));  // the nil-max case broke a DATA-ID-007 check

    const auto& suite = doc.at("suites").at(0);
    CHECK(keys(suite) == Keys{"name", "file", "time", "timestamp", "cases"});
    const auto& c = suite.at("cases").at(0);
    CHECK(keys(c) == Keys{"name", "classname", "rules", "outcome", "message", "detail", "properties", "time",
                          "position", "steps"});
    CHECK(c.at("outcome") == "passed");
    CHECK(c.at("position") == json::parse(R"({"file":"suites/data-id.yaml","line":10,"column":3})"));
    CHECK(c.at("properties").at(0) == json::parse(R"({"name":"target","value":"http://127.0.0.1:8080"})"));
    const auto& step = c.at("steps").at(0);
    CHECK(keys(step) == Keys{"name", "request", "response", "error", "attempts", "time", "checks", "reproduce"});
    CHECK(keys(step.at("request")) == Keys{"transport", "method", "url", "headers", "body"});
    CHECK(keys(step.at("response")) == Keys{"status", "reason", "headers", "body", "body_bytes", "truncated"});
    CHECK(step.at("error").is_null());
    CHECK(step.at("time").to_number<double>() == doctest::Approx(0.012));
    CHECK(keys(step.at("checks").at(0)) == Keys{"rule", "what", "expected", "actual", "ok", "warning", "position"});
    CHECK(step.at("checks").at(2).at("warning") == true);
    CHECK(step.at("checks").at(2).at("ok") == false);

    // Hostile body bytes: controls kept (escaped), invalid UTF-8 as U+FFFD.
    const auto& failed = suite.at("cases").at(1);
    CHECK(failed.at("outcome") == "failed");
    const std::string body(failed.at("steps").at(1).at("response").at("body").as_string());
    CHECK(body.substr(0, 9) == std::string("{\"id\":\"x\0", 9));
    CHECK(body.find("\x01\x1b[31mred\x7f\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\",\t") != std::string::npos);

    const auto& errored = suite.at("cases").at(2);
    CHECK(errored.at("outcome") == "error");
    CHECK(errored.at("steps").at(0).at("response").is_null());
    CHECK(errored.at("steps").at(0).at("error") == json::parse(R"({"kind":"connect","message":"connection refused"})"));
    CHECK(errored.at("steps").at(0).at("attempts") == 3);

    const auto& suite2 = doc.at("suites").at(1);
    CHECK(suite2.at("cases").at(0).at("outcome") == "skipped");
    const auto& resp = suite2.at("cases").at(1).at("steps").at(0).at("response");
    CHECK(resp.at("truncated") == true);
    CHECK(resp.at("body_bytes") == 100000);
    CHECK(resp.at("body").as_string().size() == 100);
}

TEST_CASE("JSON output never contains a secret") {
    const std::string text = json_text(sample_run(), "x", sample_options());
    for (const char* secret : {secret_token, secret_cookie, secret_api_key, secret_password, "YWRtaW46cGFzcw=="}) {
        CAPTURE(secret);
        CHECK(text.find(secret) == std::string::npos);
    }
}

TEST_CASE("pretty_json is deterministic and prints times with three decimals") {
    const json::value v = json::parse(R"({"a":[1,{"b":null}],"time":1.5,"e":{},"f":[]})");
    CHECK(pretty_json(v) == "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"time\": 1.500,\n"
                            "  \"e\": {},\n  \"f\": []\n}\n");
    CHECK(json::parse(pretty_json(v)) == v);
}

TEST_CASE("JSON reporter: an unwritable path fails cleanly") {
    JsonReporter r("/nonexistent-idconform-dir/report.json");
    std::string error;
    CHECK_FALSE(r.run_finished(sample_run(), error));
    CHECK(error.find("cannot write JSON report '/nonexistent-idconform-dir/report.json'") == 0);
}

TEST_CASE("a JSON report reads back into the same report (merge's reader), run object included") {
    for (const RunSummary& run : {sample_run(), wider_run()}) {
        const fs::path dir = scratch_dir("json-read");
        RunInfo info;
        info.tool_version = "0.0.0-test";
        info.profile = "api.target.yaml";
        info.plan = "0123456789abcdef";
        info.shard_index = 2;
        info.shard_count = 3;
        info.units = {1, 4};
        info.total_units = 6;
        auto write = [&](const RunSummary& r, const std::string& name) {
            JsonReporter rep((dir / name).string(), sample_options());
            rep.run_started(info);
            std::string error;
            REQUIRE_MESSAGE(replay(rep, r, error), error);
            return read_file(dir / name);
        };
        const std::string first = write(run, "a.json");
        ReadReport back;
        std::string error;
        REQUIRE_MESSAGE(read_json_report((dir / "a.json").string(), back, error), error);
        CHECK(back.has_run);
        CHECK(back.info.tool_version == "0.0.0-test");
        CHECK(back.info.plan == info.plan);
        CHECK(back.info.profile == info.profile);
        CHECK(back.info.shard_index == 2);
        CHECK(back.info.shard_count == 3);
        CHECK(back.info.units == info.units);
        CHECK(back.info.total_units == 6);
        back.summary.seconds = run.seconds;
        // Every field survives the round trip, except that a body with invalid
        // UTF-8 comes back repaired (U+FFFD is 3 bytes), so body_bytes, written
        // as at least the body's size, can grow: compare without those lines.
        auto without_body_bytes = [](const std::string& text) {
            std::string out;
            std::size_t at = 0;
            while (at < text.size()) {
                const std::size_t end = std::min(text.find('\n', at), text.size());
                const std::string_view line(text.data() + at, end - at);
                if (line.find("\"body_bytes\"") == std::string_view::npos) out.append(line).push_back('\n');
                at = end + 1;
            }
            return out;
        };
        const std::string second = write(back.summary, "b.json");
        CHECK(without_body_bytes(second) == without_body_bytes(first));
        ReadReport again;
        REQUIRE(read_json_report((dir / "b.json").string(), again, error));
        again.summary.seconds = run.seconds;
        CHECK(write(again.summary, "c.json") == second);  // and then exactly
    }
    const fs::path dir = scratch_dir("json-read-bad");
    ReadReport r;
    std::string error;
    CHECK_FALSE(read_json_report((dir / "missing.json").string(), r, error));
    CHECK(error.find("cannot read") != std::string::npos);
    write_file(dir / "x.json", "{\"tool\": \"other\", \"suites\": []}");
    CHECK_FALSE(read_json_report((dir / "x.json").string(), r, error));
    CHECK(error.find("not an idconform JSON report") != std::string::npos);
    write_file(dir / "y.json", "{\"tool\": \"idconform\", ");
    CHECK_FALSE(read_json_report((dir / "y.json").string(), r, error));
    CHECK(error.find("y.json:1:23: the report ends too early") != std::string::npos);
    write_file(dir / "z.json", "{\"tool\": \"idconform\",\n \"suites\": [}");
    CHECK_FALSE(read_json_report((dir / "z.json").string(), r, error));
    CHECK(error.find("z.json:2:13: not JSON (") != std::string::npos);
}
