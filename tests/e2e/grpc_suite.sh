# grpc_suite.sh conformant | DEFECT RULE: the hand-written gRPC suite (proto
# files) and the reflection suite pass clean against the conformant example
# server; with one defect, idconform exits 1 with a <failure> under RULE.
source "$(dirname "$0")/lib.sh"
if [ "$1" = conformant ]; then
  start_grpc_server
  run_idconform "$SRC/suites/grpc/products.yaml" "$SRC/tests/e2e/grpc/reflection.yaml"
  expect_code 0
  junit_valid
  n=$(junit_xpath "count(//testcase)")
  [ "${n%.*}" -ge 40 ] || fail "expected at least 40 testcases, got $n"
  [ "$(junit_xpath 'count(//failure|//error)')" = 0 ] || fail "failures in a conformant run"
  grep -q '"grpc_status"\|grpcurl' "$WORK/junit.xml" || true
  echo "ok: $n gRPC testcases pass against the conformant server"
  exit 0
fi
defect=$1 rule=$2
start_grpc_server --defect "$defect"
run_idconform "$SRC/suites/grpc/products.yaml"
expect_code 1
junit_valid
n=$(failed_under "$rule")
[ "${n%.*}" -ge 1 ] || { grep -E "^(FAIL|ERROR)" "$WORK/err" >&2 || true; fail "no failure under $rule for --defect $defect over gRPC"; }
echo "ok: --defect $defect caught over gRPC by $n failing testcases under $rule"
