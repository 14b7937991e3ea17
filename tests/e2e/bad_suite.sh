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
run_idconform "$WORK/does-not-exist.yaml"
expect_code 2
"$IDCONFORM_BIN" run --concurrency 0 x.yaml >/dev/null 2>&1 && fail "--concurrency 0 accepted" || [ $? -eq 2 ] || fail "usage error is not exit 2"
echo "ok: broken suites exit 2 with positions"
