# kafka_defect.sh NAME RULE: the example server with one event/command defect
# (on librdkafka's mock cluster) makes idconform exit 1 with at least one
# <failure> under RULE in the events suite; its HTTP answers stay conformant.
source "$(dirname "$0")/lib.sh"
defect=$1 rule=$2
start_server --kafka-mock --defect "$defect"
IDCONFORM_KAFKA_BROKERS="$KAFKA_BOOTSTRAP" run_idconform "$SRC/suites/events.yaml" --concurrency 8
expect_code 1
junit_valid
n=$(failed_under "$rule")
[ "${n%.*}" -ge 1 ] || { grep -E "^(FAIL|ERROR)" "$WORK/err" >&2 || true; fail "no failure under $rule for --defect $defect"; }
[ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors in the report (a defect is a failure, not an error)"
# the HTTP side alone stays clean: the defect is in the events only
run_idconform "$SRC/suites/data-id-002.yaml"
expect_code 0
echo "ok: --defect $defect caught by $n failing testcases under $rule"
