# A malformed suite: exit 2, every problem named with file:line:col and a
# hint, and nothing is run (no report written).
source "$(dirname "$0")/lib.sh"
cat >"$WORK/broken.yaml" <<'YAML'
name: broken
target: {base_url: "http://127.0.0.1:1"}
cases:
  - name: typo
    steps:
      - http: {method: GET, path: /x}
        expect: {stauts: 200}
YAML
run_idconform "$WORK/broken.yaml"
expect_code 2
expect_stderr "broken.yaml:7:18: error: unknown key 'stauts'"
expect_stderr "did you mean 'status'?"
expect_stderr "nothing was run"
[ ! -e "$WORK/junit.xml" ] || fail "a report was written for a suite that did not load"
expect_stderr "1 error in the suites; nothing was run"
# A mistake in a target profile is said to be in the profile (issue #13).
cat >"$WORK/broken.target.yaml" <<'YAML'
name: broken
base_url: http://127.0.0.1:1
principals: {alice: {}}
resources:
  things:
    create: {path: /things}
    rad: {path: "/things/{id}"}
YAML
run_idconform --target "$WORK/broken.target.yaml"
expect_code 2
expect_stderr "broken.target.yaml:7:5: error: unknown key 'rad'"
expect_stderr "1 error in the profile; nothing was run"
grep -q "in the suites" "$WORK/err" && fail "a profile error is said to be in the suites"
run_idconform "$WORK/does-not-exist.yaml"
expect_code 2
"$IDCONFORM_BIN" run --concurrency 0 x.yaml >/dev/null 2>&1 && fail "--concurrency 0 accepted" || [ $? -eq 2 ] || fail "usage error is not exit 2"
# A pack operation outside a profile has no request bound to it: the case is
# an error naming the step and the fix, and the run exits 2.
cat >"$WORK/call.yaml" <<'YAML'
name: unbound
target: {base_url: "http://127.0.0.1:1"}
cases:
  - name: c
    steps:
      - call: {op: read, id: x}
YAML
run_idconform "$WORK/call.yaml"
expect_code 2
grep -q "call.yaml:6:15: call read: no request is bound to this operation" "$WORK/junit.xml" ||
  fail "unbound call step not reported with its position"
echo "ok: broken suites exit 2 with positions"
