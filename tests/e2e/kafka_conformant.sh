# Events against the conformant server and librdkafka's mock cluster: every
# events case passes (none skipped), the kafka steps are recorded with kcat
# reproduce commands; without IDCONFORM_KAFKA_BROKERS every case is skipped,
# saying why, and the run still succeeds.
source "$(dirname "$0")/lib.sh"
start_server --kafka-mock
[ -n "$KAFKA_BOOTSTRAP" ] || fail "the server printed no 'kafka bootstrap' line"
IDCONFORM_KAFKA_BROKERS="$KAFKA_BOOTSTRAP" run_idconform "$SRC/suites/events.yaml" --concurrency 8 --json "$WORK/r.json"
expect_code 0
junit_valid
[ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "failures in the report"
[ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors in the report"
[ "$(junit_xpath 'string(/testsuites/@skipped)')" = 0 ] || fail "skipped cases with a broker given"
tests=$(junit_xpath 'string(/testsuites/@tests)')
[ "$tests" -ge 40 ] || fail "only $tests testcases"
python3 - "$WORK/r.json" <<'PY' || fail "kafka steps not recorded as expected"
import json, sys
rep = json.load(open(sys.argv[1]))
steps = [s for c in rep["suites"][0]["cases"] for s in c.get("steps", [])]
kafka = [s for s in steps if s.get("request", {}).get("url", "").startswith("kafka://")]
assert kafka, "no kafka steps"
assert any(s["request"]["method"] == "consume" for s in kafka)
assert any(s["request"]["method"] == "produce" for s in kafka)
PY
# the same suite without a broker: skipped with the reason, exit 0
unset IDCONFORM_KAFKA_BROKERS
run_idconform "$SRC/suites/events.yaml"
expect_code 0
[ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "failures without a broker"
[ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors without a broker"
skipped=$(junit_xpath 'count(//testcase[skipped[contains(@message, "IDCONFORM_KAFKA_BROKERS")]])')
[ "${skipped%.*}" -ge 40 ] || fail "kafka cases not skipped with the reason (found $skipped)"
echo "ok: $tests event testcases passed against the mock cluster; skipped with the reason without one"
