# packs.sh conformant | cleanup | DEFECT RULE: the built-in packs driven by
# the example target profile. Conformant: exit 0, nothing failed, every
# entity the run created is gone and data it did not create is untouched.
# A defect: exit 1 and a <failure> filed under the defect's rule.
source "$(dirname "$0")/lib.sh"
PROFILE="$SRC/examples/products.target.yaml"
mode=$1
api() { curl -sS -H "Authorization: Bearer $1" "${@:2}"; }

case "$mode" in
conformant)
  start_server
  # data the run did not create: it must be exactly the same afterwards
  cat_id=$(api alice -X POST -d '{"name":"pre-existing"}' "$BASE_URL/v1/categories" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  prod=$(api alice -X POST -d "{\"name\":\"pre-existing\",\"category_id\":\"$cat_id\"}" "$BASE_URL/v1/products")
  prod_id=$(echo "$prod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  api alice "$BASE_URL/v1/products/$prod_id" >"$WORK/before.json"
  run_idconform --target "$PROFILE" --concurrency 8
  expect_code 0
  junit_valid
  [ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "failures against the conformant server"
  [ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors against the conformant server"
  for rule in DATA-ID-001 DATA-ID-002 DATA-ID-003 DATA-ID-004 DATA-ID-005 DATA-ID-006 DATA-ID-007 nil-max; do
    n=$(junit_xpath "count(//testcase[contains(@classname, '.$rule')][not(skipped)])")
    [ "${n%.*}" -ge 1 ] || fail "no testcase ran for $rule"
  done
  grep -q 'not run: needs ${res.put}' "$WORK/junit.xml" || fail "a check without an endpoint is not reported as skipped with its reason"
  api alice "$BASE_URL/v1/products/$prod_id" >"$WORK/after.json"
  cmp -s "$WORK/before.json" "$WORK/after.json" || fail "the run changed an entity it did not create"
  left=$(api alice "$BASE_URL/v1/products" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')
  [ "$left" = 1 ] || fail "$((left - 1)) entities the run created were left behind"
  [ "$(api bob "$BASE_URL/v1/products" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')" = 0 ] || fail "bob has entities left"
  echo "ok: packs pass against the conformant server and clean up after themselves"
  ;;
cleanup)
  # A profile without a delete endpoint for categories: the run cannot
  # clean up what it created and must say so.
  start_server
  grep -v 'delete: {path: "/v1/categories/{id}"}' "$PROFILE" >"$WORK/no-delete.target.yaml"
  run_idconform --target "$WORK/no-delete.target.yaml" --filter 'a create mints*'
  junit_valid
  [ "$(junit_xpath "count(//testcase[@name='cleanup'][error])")" != 0 ] || fail "undeletable entities are not reported"
  grep -q "could not delete" "$WORK/junit.xml" || fail "cleanup error does not say what remains"
  echo "ok: entities that cannot be deleted are reported"
  ;;
*)
  defect=$1 rule=$2
  start_server --defect "$defect"
  extra=()
  [ "$rule" = DATA-ID-005 ] && extra=(--fail-on-warnings)
  run_idconform --target "$PROFILE" --concurrency 8 "${extra[@]}"
  expect_code 1
  junit_valid
  n=$(junit_xpath "count(//testcase[contains(@classname, '.$rule')][failure])")
  [ "${n%.*}" -ge 1 ] || { grep -E "^FAIL" "$WORK/err" | head >&2 || true; fail "no failure under $rule for --defect $defect"; }
  grep -q 'reproduce' "$WORK/junit.xml" || fail "failures carry no reproduction command"
  echo "ok: --defect $defect caught by $n failing testcases under $rule"
  ;;
esac
