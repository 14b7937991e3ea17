# interrupt.sh sigint | sigterm | twice: a run against a slow API
# (slow_server.py) is cancelled as CI cancels a job. On the first signal no
# new case starts, what the run created is deleted, every report is written
# and marked interrupted, and the exit code is 130 (SIGINT) or 143 (SIGTERM);
# a second signal exits at once, saying what it left on the target.
source "$(dirname "$0")/lib.sh"
mode=$1
delete_delay=0
[ "$mode" = twice ] && delete_delay=3000
out="$WORK/server.out"
: >"$out"
python3 "$(dirname "$0")/slow_server.py" --delay-ms 100 --delete-delay-ms "$delete_delay" >"$out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 200); do
  BASE_URL=$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$out")
  [ -n "$BASE_URL" ] && break
  sleep 0.05
done
[ -n "$BASE_URL" ] || fail "slow server did not start"
cat >"$WORK/slow.yaml" <<YAML
name: slow
target: {base_url: "$BASE_URL"}
setup:
  - http: {method: POST, path: /items}
    expect: {status: 201}
    capture: {shared: /id}
    cleanup: {path: "/items/{id}"}
cases:
  - name: a create mints a v7 id
    rule: DATA-ID-001
    for_each: {count: 200}
    steps:
      - http: {method: POST, path: /items}
        expect: {status: 201, id: {at: /id, kind: uuidv7}}
        capture: {id: /id}
        cleanup: {path: "/items/{id}"}
      - http: {path: "/items/\${id}"}
        expect: {status: 200}
YAML
# At -j 2 two suites run side by side: `later` beside `slow` (both in flight
# when the signal comes), while `never` waits for one of them to end.
cat >"$WORK/later.yaml" <<YAML
name: later
target: {base_url: "$BASE_URL"}
cases:
  - name: an unknown id is not found
    for_each: {count: 200}
    steps: [{http: {path: /items/x}, expect: {status: 404}}]
YAML
cat >"$WORK/never.yaml" <<YAML
name: never
target: {base_url: "$BASE_URL"}
cases:
  - name: never started
    steps: [{http: {path: /items/x}, expect: {status: 404}}]
YAML
set +e
"$IDCONFORM_BIN" run --no-progress -j 2 --junit "$WORK/junit.xml" --json "$WORK/report.json" --html "$WORK/report.html" \
  "$WORK/slow.yaml" "$WORK/later.yaml" "$WORK/never.yaml" >"$WORK/out" 2>"$WORK/err" &
pid=$!
set -e
sleep 1.5   # the setup and some cases are done, others in flight
case "$mode" in
sigint) kill -INT "$pid"; want=130; sig=SIGINT ;;
sigterm) kill -TERM "$pid"; want=143; sig=SIGTERM ;;
twice) kill -INT "$pid"; sleep 0.5; kill -INT "$pid"; want=130; sig=SIGINT ;;
esac
start=$(date +%s)
set +e
wait "$pid"
CODE=$?
set -e
took=$(( $(date +%s) - start ))
expect_code "$want"
[ "$took" -le 20 ] || fail "the interrupted run took $took s to stop"
if [ "$mode" = twice ]; then
  [ "$took" -le 3 ] || fail "the second signal took $took s to exit"
  grep -q "second signal: exiting now" "$WORK/err" || { cat "$WORK/err" >&2; fail "the second signal is not said"; }
  grep -q "may remain on the target" "$WORK/err" || fail "what was left on the target is not said"
  sleep 4  # a delete the server was still working on when the run exited
  live=$(curl -sS "$BASE_URL/_live")
  n=$(python3 -c 'import json,sys; print(len(json.loads(sys.argv[1])))' "$live")
  [ "$n" -ge 1 ] || fail "nothing was left, so the test proves nothing"
  # every entity really left is among those the run named
  for id in $(python3 -c 'import json,sys; print(" ".join(json.loads(sys.argv[1])))' "$live"); do
    grep -q "$id" "$WORK/err" || fail "$id is left on the target but not named"
  done
  echo "ok: a second SIGINT exits at once and lists what may remain ($n left)"
  exit 0
fi
live=$(curl -sS "$BASE_URL/_live")
[ "$live" = "[]" ] || fail "the interrupted run left entities on the target: $live"
grep -q "idconform: $sig: stopping" "$WORK/err" || { cat "$WORK/err" >&2; fail "the interrupt is not said on stderr"; }
junit_valid
python3 - "$WORK/report.json" "$sig" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["summary"]
assert s.get("interrupted") == sys.argv[2], s
names = [x["name"] for x in d["suites"]]
assert names == ["slow", "later"], names            # the suite after the two in flight never started
cases = d["suites"][0]["cases"]
ran = [c for c in cases if c["outcome"] == "passed"]
cut = [c for c in cases if c["outcome"] == "skipped" and "interrupted by" in c["message"]]
assert ran and cut, (len(ran), len(cut))
assert len(ran) + len(cut) == len(cases), [c for c in cases if c not in ran + cut][:2]
assert not [c for c in cases if c["outcome"] in ("failed", "error")]
note = d["notes"][0]
assert note.startswith("the run was interrupted by " + sys.argv[2]) and "1 suite not started" in note, note
PY
grep -q "interrupted by $sig" "$WORK/junit.xml" || fail "the JUnit report does not say the run was interrupted"
grep -q "INTERRUPTED ($sig)" "$WORK/report.html" || fail "the HTML report does not say the run was interrupted"
grep -q "INTERRUPTED ($sig)" "$WORK/err" || fail "the console summary does not say the run was interrupted"
echo "ok: $sig stops the run, cleans up what it created and writes every report marked interrupted (exit $want in $took s)"
