// Options every file/console reporter shares.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace idconform::reporters {

// What a JUnit report holds beyond what every consumer reads
// (reporters/junit_reporter.hpp says what each leaves out).
//   full:   everything idconform knows: `file`/`line` on each testcase,
//           properties on testcases (rules, failed rules, skip causes), the
//           transcript in each testcase's system-out, totals and timestamp on
//           testsuites. What Jenkins' junit step, GitLab and the GitHub
//           test-report actions read. The default.
//   strict: only what the strict published schemas allow: the Jenkins xUnit
//           plugin's junit-10.xsd and the Apache Ant JUnit.xsd (both kept in
//           tests/published_schemas/junit/): no file/line or properties on testcases, no
//           attributes on the root <testsuites>, hostname/id/package/timestamp
//           (UTC, whole seconds) on each testsuite, at most one failure/error/skipped per
//           testcase, system-out and system-err per testsuite.
enum class JunitFlavor { full, strict };

struct ReportOptions {
    // Header names masked in addition to Authorization, Proxy-Authorization,
    // Cookie and Set-Cookie (case-insensitive), e.g. "X-Api-Key".
    std::vector<std::string> redact_headers;
    // Bytes of a request/response body quoted in human-readable evidence
    // (JUnit failure text, console verbose output). The JSON report carries
    // the whole stored body instead.
    std::size_t body_excerpt_bytes = 1024;
    // The JUnit report's flavor (`--junit-flavor`).
    JunitFlavor junit_flavor = JunitFlavor::full;
    // Strict JUnit's testsuite `hostname`; "" is this machine's name (tests
    // set it to keep approved files stable).
    std::string junit_hostname{};
    // The directory JUnit `file` attributes are written relative to; "" is
    // the working directory when the reporter is made.
    std::string junit_root{};
};

}  // namespace idconform::reporters
