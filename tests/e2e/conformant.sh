# The conformant example server passes every built-in suite: exit 0, a valid
# JUnit report with no failure and no error, and secrets never in the report.
source "$(dirname "$0")/lib.sh"
start_server
IDCONFORM_TOKEN_A=alice-secret-token run_idconform "$SRC/suites"
expect_code 0
junit_valid
[ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "failures in the report"
[ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors in the report"
tests=$(junit_xpath 'string(/testsuites/@tests)')
[ "$tests" -gt 100 ] || fail "only $tests testcases"
if grep -q "alice-secret-token" "$WORK/junit.xml" "$WORK/err"; then fail "secret token leaked into a report"; fi
# the same run with concurrency gives the same testcases in the same order
cp "$WORK/junit.xml" "$WORK/serial.xml"
IDCONFORM_TOKEN_A=alice-secret-token run_idconform "$SRC/suites" --concurrency 16
expect_code 0
diff <(grep -o '<testcase name="[^"]*"' "$WORK/serial.xml") <(grep -o '<testcase name="[^"]*"' "$WORK/junit.xml") ||
  fail "testcase order depends on concurrency"
echo "ok: $tests testcases passed"
