# defect.sh NAME RULE: the example server with one deliberate violation makes
# idconform exit 1 with at least one <failure> under RULE.
source "$(dirname "$0")/lib.sh"
defect=$1 rule=$2
start_server --defect "$defect"
run_idconform "$SRC/suites"
expect_code 1
junit_valid
n=$(failed_under "$rule")
[ "${n%.*}" -ge 1 ] || { grep -E "^(FAIL|ERROR)" "$WORK/err" >&2 || true; fail "no failure under $rule for --defect $defect"; }
echo "ok: --defect $defect caught by $n failing testcases under $rule"
