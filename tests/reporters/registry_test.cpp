// The file-reporter registry (reporters/registry.hpp): every file reporter the
// CLI offers is there once, and each name makes the reporter that writes the
// same file as the class itself (compared with the approved outputs' writers).
#include "reporters/json_reporter.hpp"
#include "reporters/junit_reporter.hpp"
#include "reporters/registry.hpp"
#include "sample_run.hpp"
#include "test_util.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace idconform;
using namespace idconform::reporters;
using namespace idconform::test;

namespace {

std::string write_with(Reporter& r, const fs::path& file) {
    RunInfo info;
    info.tool_version = "0.0.0-test";
    r.run_started(info);
    std::string error;
    REQUIRE_MESSAGE(replay(r, sample_run(), error), error);
    return read_file(file);
}

}  // namespace

TEST_CASE("reporter registry: junit, json and html, each once, in the order reports are fed") {
    std::vector<std::string> names;
    for (const auto& k : file_reporters()) {
        names.emplace_back(k.name);
        CHECK_FALSE(k.help.empty());
        CHECK(static_cast<bool>(k.make));
    }
    CHECK(names == std::vector<std::string>{"junit", "json", "html"});
    CHECK(find_file_reporter("json") == &file_reporters()[1]);
    CHECK(find_file_reporter("xml") == nullptr);
    CHECK(make_file_reporter("sarif", "x") == nullptr);
}

TEST_CASE("reporter registry: a name makes the reporter its class is") {
    const fs::path dir = scratch_dir("registry");
    {
        auto by_name = make_file_reporter("junit", (dir / "a.xml").string(), sample_options());
        REQUIRE(by_name);
        JunitReporter direct((dir / "b.xml").string(), sample_options());
        CHECK(normalise(write_with(*by_name, dir / "a.xml")) == normalise(write_with(direct, dir / "b.xml")));
    }
    {
        auto by_name = make_file_reporter("json", (dir / "a.json").string(), sample_options());
        REQUIRE(by_name);
        JsonReporter direct((dir / "b.json").string(), sample_options());
        CHECK(normalise(write_with(*by_name, dir / "a.json")) == normalise(write_with(direct, dir / "b.json")));
    }
    {
        auto by_name = make_file_reporter("html", (dir / "a.html").string());
        REQUIRE(by_name);
        CHECK(write_with(*by_name, dir / "a.html").find("<html") != std::string::npos);
    }
}
