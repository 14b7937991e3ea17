# skip_causes.sh: skips say why and add up, and --filter selects setups too
# (issue #22 section 6), against tests/e2e/skip_causes_server.py, which logs
# every request it receives.
# 1. A filter that matches nothing (profile and suites): exit 2, stderr says
#    so, the server saw no request at all (no setup create), the JSON report
#    has no test and counts the cases it left out.
# 2. A filter selecting one case of one suite runs only that suite's setup:
#    one POST /v1/customers, no POST /v1/orders.
# 3. The data-id pack for a profile without update, list or a second
#    principal: the JSON summary's skipped_by_cause adds up to skipped, the
#    totals add up, the reasons name the profile key to add (never a
#    ${res.*} template), JUnit carries idconform.skip_cause, and the HTML
#    rendered from the JSON report (idconform report) splits the skips too.
source "$(dirname "$0")/lib.sh"
PROFILE="$SRC/tests/e2e/skip_causes/target.yaml"
SUITES="$SRC/tests/e2e/skip_causes/suites"
LOG="$WORK/requests.log"

out="$WORK/server.out"
: >"$out"
python3 "$SRC/tests/e2e/skip_causes_server.py" --log "$LOG" >"$out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 200); do
  BASE_URL=$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$out" | head -n 1)
  [ -n "$BASE_URL" ] && break
  sleep 0.05
done
[ -n "$BASE_URL" ] || { cat "$out" >&2; fail "skip_causes_server.py did not start"; }

# 1. nothing selected
run_idconform --target "$PROFILE" "$SUITES" --filter 'no such case*' --json "$WORK/none.json"
expect_code 2
expect_stderr "idconform run: --filter 'no such case*' selects none of the"
expect_stderr "nothing was run and nothing was created on the target"
expect_stderr "NOTHING SELECTED 0 tests"
[ ! -s "$LOG" ] || { cat "$LOG" >&2; fail "a filter that matches nothing sent requests"; }
junit_valid
python3 - "$WORK/none.json" <<'PY' || fail "nothing selected: see above"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["tests"] == 0, s
assert s["filtered_out"] > 3, s
assert s["skipped_by_cause"] == {"not_applicable": 0, "not_described": 0, "precondition": 0, "stopped": 0}, s
PY

# 2. one case of one suite: only that suite's setup runs
: >"$LOG"
run_idconform "$SUITES" --filter 'read a customer' --json "$WORK/one.json"
expect_code 0
[ "$(grep -c '^POST /v1/customers$' "$LOG")" -eq 1 ] || { cat "$LOG" >&2; fail "expected one POST /v1/customers"; }
! grep -q '^POST /v1/orders' "$LOG" || { cat "$LOG" >&2; fail "the orders suite's setup ran though none of its cases was selected"; }
! grep -q '^GET /v1/customers$' "$LOG" || fail "a case the filter left out ran"
expect_stderr "1 tests: passed 1"
expect_stderr ", 2 filtered out"

# 3. the pack: skips by cause, in the profile's words
: >"$LOG"
run_idconform --target "$PROFILE" --json "$WORK/pack.json"
[ "$CODE" -eq 0 ] || [ "$CODE" -eq 1 ] || { cat "$WORK/err" >&2; fail "exit code $CODE"; }
junit_valid
grep -q 'name="idconform.skip_cause" value="not_described"' "$WORK/junit.xml" ||
  fail "JUnit lacks the idconform.skip_cause property"
expect_stderr "not described"
python3 - "$WORK/pack.json" <<'PY' || { cat "$WORK/err" >&2; fail "skip causes: see above"; }
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"]
problems = []
if s["passed"] + s["failed"] + s["errors"] + s["skipped"] + s["waived"] != s["tests"]:
    problems.append("outcomes do not add up to tests: %r" % s)
by = s["skipped_by_cause"]
if sum(by.values()) != s["skipped"]:
    problems.append("skipped_by_cause %r does not add up to skipped %d" % (by, s["skipped"]))
if s["filtered_out"] != 0:
    problems.append("filtered_out %d without a filter" % s["filtered_out"])
seen = {k: 0 for k in by}
want_update = "not described in the profile: add `update:` to resource `orders`"
has_update = False
for suite in r["suites"]:
    for c in suite["cases"]:
        if c["outcome"] != "skipped":
            if "skip_cause" in c:
                problems.append("%s: skip_cause on a %s case" % (c["name"], c["outcome"]))
            continue
        seen[c["skip_cause"]] += 1
        if "${" in c["message"] or "res." in c["message"]:
            problems.append("%s: template text in %r" % (c["name"], c["message"]))
        if c["message"] == want_update:
            has_update = c["skip_cause"] == "not_described"
if seen != by:
    problems.append("per-case causes %r differ from the summary %r" % (seen, by))
if not has_update:
    problems.append("no case says: " + want_update)
if by["not_described"] == 0:
    problems.append("nothing not described")
for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
"$IDCONFORM_BIN" report --html "$WORK/pack.html" "$WORK/pack.json" || fail "idconform report failed"
grep -q '<p class="skips">skipped: .*not described' "$WORK/pack.html" || fail "the HTML report does not split the skips by cause"
echo "ok"
