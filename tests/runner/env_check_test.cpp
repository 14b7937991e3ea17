// runner::missing_environment: the variables a run cannot do without, told
// once each at their first use, before anything is sent.
#include "runner/env_check.hpp"
#include "suite/loader.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

using namespace idconform;

namespace {

// Written to a file first: the check reads the line to point at the `${env:`.
// One folder per process: CTest runs the cases of this file side by side,
// and they write files of the same names.
struct ScratchDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("idconform_env_check_test." + std::to_string(::getpid()));
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

suite::Suite load(const std::string& yaml, const std::string& name) {
    static const ScratchDir scratch;
    const auto& dir = scratch.path;
    std::filesystem::create_directories(dir);
    const std::string file = (dir / name).string();
    std::ofstream(file) << yaml;
    auto r = suite::load_text(yaml, file);
    if (!r.ok())
        for (const auto& d : r.diagnostics) MESSAGE(std::string(d.pos.str() + ": " + d.title + " / " + d.hint));
    REQUIRE(r.ok());
    return std::move(*r.suite);
}

const std::string two_principals = R"(name: s
target: {base_url: "${env:IDCONFORM_ENV_TEST_URL}"}
principals:
  alice: {headers: {Authorization: "Bearer ${env:IDCONFORM_ENV_TEST_A}"}}
  bob:
    headers:
      Authorization: "Bearer ${env:IDCONFORM_ENV_TEST_B}"
cases:
  - name: alice reads
    steps:
      - http: {path: /x, principal: alice}
  - name: bob reads
    steps:
      - http: {path: /x, principal: bob}
  - name: carol is never used
    steps:
      - http: {path: /x}
)";

struct Unset {
    Unset() {
        for (const char* v : {"IDCONFORM_ENV_TEST_URL", "IDCONFORM_ENV_TEST_A", "IDCONFORM_ENV_TEST_B"}) ::unsetenv(v);
    }
};

}  // namespace

TEST_CASE("env check: one diagnostic per unset variable, at the ${env: of its first use") {
    Unset u;
    const auto d = runner::missing_environment({load(two_principals, "a.yaml"), load(two_principals, "b.yaml")}, {});
    REQUIRE(d.size() == 3);
    CHECK(d[0].pos.str().ends_with("a.yaml:2:21"));
    CHECK(d[0].title.find("IDCONFORM_ENV_TEST_URL is not set, and the target's base_url needs it (as do 1 more") !=
          std::string::npos);
    CHECK(d[1].pos.str().ends_with("a.yaml:4:44"));
    CHECK(d[1].title.find("principal 'alice', header Authorization") != std::string::npos);
    CHECK(d[2].pos.str().ends_with("a.yaml:7:30"));  // the header's own line, below the principal's name
    CHECK(d[2].hint.find("${env:IDCONFORM_ENV_TEST_B:-default}") != std::string::npos);
}

TEST_CASE("env check: set (even empty), a default, --base-url and --var satisfy it") {
    Unset u;
    ::setenv("IDCONFORM_ENV_TEST_A", "", 1);
    runner::RunOptions o;
    o.base_url = "http://127.0.0.1:1";
    auto d = runner::missing_environment({load(two_principals, "a.yaml")}, o);
    REQUIRE(d.size() == 1);
    CHECK(d[0].title.find("IDCONFORM_ENV_TEST_B") != std::string::npos);
    ::unsetenv("IDCONFORM_ENV_TEST_A");

    const std::string with_var = R"(name: s
vars: {token: "${env:IDCONFORM_ENV_TEST_A}", url: "${env:IDCONFORM_ENV_TEST_URL:-http://127.0.0.1:1}"}
target: {base_url: "${url}"}
cases:
  - name: c
    steps:
      - http: {path: /x}
)";
    CHECK(runner::missing_environment({load(with_var, "v.yaml")}, {}).size() == 1);
    o = {};
    o.vars = {{"token", "given"}};
    CHECK(runner::missing_environment({load(with_var, "v.yaml")}, o).empty());
}

TEST_CASE("env check: a principal only unselected cases send as needs nothing") {
    Unset u;
    runner::RunOptions o;
    o.base_url = "http://127.0.0.1:1";
    o.filter = "alice*";
    const auto d = runner::missing_environment({load(two_principals, "a.yaml")}, o);
    REQUIRE(d.size() == 1);
    CHECK(d[0].title.find("IDCONFORM_ENV_TEST_A") != std::string::npos);
    o.filter = "carol*";
    CHECK(runner::missing_environment({load(two_principals, "a.yaml")}, o).empty());
}
