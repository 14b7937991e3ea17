# audit.sh waived | expired | baseline | html: waivers, baseline and the
# HTML report against the example server's defect modes.
#   waived    a waived defect passes the run (exit 0) and shows as waived in
#             the console, JUnit (<skipped> "waived until ...") and JSON
#   expired   the same waiver, expired, waives nothing: exit 1, and the waiver
#             is a failure of its own
#   baseline  a run with two defects is the baseline of a run with one: one
#             rule fixed, nothing new; --fail-on new passes, new defects fail
#   html      the HTML report of a full pack run with defects (and a waiver)
#             loads in headless Chromium without console messages and renders
#   stream    report --html and --baseline read a JSON report streaming: the
#             peak RSS at 100,000 cases is that at 10,000 plus what the HTML
#             spool and the baseline's failing-case keys must keep
source "$(dirname "$0")/lib.sh"
mode=$1
PROFILE="$SRC/examples/products.target.yaml"
export PRODUCTS_LEGACY_SALT=e2e-legacy-salt

waivers() {  # waivers FILE EXPIRES
  cat >"$1" <<YAML
waivers:
  - rule: DATA-ID-002
    suite: "data-id*"
    reason: legacy clients send upper-case ids; fix tracked in TICKET-12
    owner: alice@example.com
    expires: $2
YAML
}

json_field() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

case "$mode" in
waived)
  start_server --defect accept-upper-path
  waivers "$WORK/w.yaml" 2099-12-31
  run_idconform "$SRC/suites" --waivers "$WORK/w.yaml" --json "$WORK/r.json"
  expect_code 0
  junit_valid
  expect_stderr "WAIVED data-id-002"
  expect_stderr "waived until 2099-12-31 by alice@example.com: legacy clients send upper-case ids"
  n=$(junit_xpath "count(//testcase[contains(@classname, '.DATA-ID-002')][skipped[starts-with(@message, 'waived until 2099-12-31 by alice@example.com: ')]])")
  [ "${n%.*}" -ge 1 ] || fail "no waived <skipped> testcase in JUnit"
  [ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "waived failures still counted as failures in JUnit"
  [ "$(json_field "$WORK/r.json" 'r["summary"]["failed"]')" = 0 ] || fail "JSON counts waived failures as failed"
  [ "$(json_field "$WORK/r.json" 'r["summary"]["waived"]')" -ge 1 ] || fail "JSON has no waived count"
  n=$(junit_xpath "sum(//testsuite/properties/property[@name='waived']/@value)")
  [ "${n%.*}" = "$(json_field "$WORK/r.json" 'r["summary"]["waived"]')" ] || fail "JUnit's waived testsuite properties sum to $n, not JSON's count"
  [ "$(json_field "$WORK/r.json" 'r["audit"]["waivers"][0]["state"]')" = active ] || fail "waiver not active in JSON"
  grep -qE '^OK .* waived [0-9]+ in ' "$WORK/err" || fail "console total line lacks the waived count"
  # waived failures do not count toward --max-failures: the run is not cut
  waived=$(json_field "$WORK/r.json" 'r["summary"]["waived"]')
  run_idconform "$SRC/suites" --waivers "$WORK/w.yaml" --max-failures 1 --json "$WORK/r1.json"
  expect_code 0
  [ "$(json_field "$WORK/r1.json" 'r["summary"]["waived"]')" = "$waived" ] || fail "--max-failures 1 cut a run whose failures are all waived"
  [ "$(junit_xpath 'count(//skipped[contains(@message, "--max-failures")])')" = 0 ] || fail "cases skipped for --max-failures after waived failures"
  # ... while a failure that is not waived still stops it
  waivers "$WORK/w-other.yaml" 2099-12-31
  sed -i 's/DATA-ID-002/DATA-ID-007/' "$WORK/w-other.yaml"
  run_idconform "$SRC/suites" --waivers "$WORK/w-other.yaml" --max-failures 1
  expect_code 1
  [ "$(junit_xpath 'count(//testcase[failure][not(ancestor::testsuite[@name="waivers"])])')" = 1 ] || fail "--max-failures 1 let more than one failure through"
  n=$(junit_xpath 'count(//skipped[contains(@message, "--max-failures 1 reached")])')
  [ "${n%.*}" -ge 1 ] || fail "no case skipped for --max-failures 1"
  echo "ok: a waived defect passes the run and is reported as waived everywhere; waived failures do not count toward --max-failures"
  ;;
expired)
  start_server --defect accept-upper-path
  waivers "$WORK/w.yaml" 2020-01-31
  run_idconform "$SRC/suites" --waivers "$WORK/w.yaml"
  expect_code 1
  junit_valid
  expect_stderr "EXPIRED $WORK/w.yaml:2:5 DATA-ID-002"
  n=$(junit_xpath "count(//testsuite[@name='waivers']/testcase[failure[contains(@message, 'expired after 2020-01-31')]])")
  [ "${n%.*}" = 1 ] || fail "the expired waiver is not a failure of its own"
  # ... filed under the waiver's rule, naming the waiver's line
  n=$(junit_xpath "count(//testsuite[@name='waivers']/testcase[@classname='waivers.DATA-ID-002'][properties/property[@name='waiver'][@value='$WORK/w.yaml:2:5']][properties/property[@name='rule'][@value='DATA-ID-002']])")
  [ "${n%.*}" = 1 ] || fail "the expired waiver's case is not under DATA-ID-002 with its position"
  grep -q '^(no rule) ' "$WORK/err" && fail "the console lists the waiver under (no rule)"
  n=$(failed_under "DATA-ID-002")
  [ "${n%.*}" -ge 1 ] || fail "the defect is not failing under an expired waiver"
  [ "$(junit_xpath "count(//skipped[starts-with(@message, 'waived')])")" = 0 ] || fail "an expired waiver waived something"
  # a waiver that covers nothing is stale: reported, and failing with --strict-waivers
  cat >"$WORK/stale.yaml" <<YAML
waivers:
  - rule: DATA-ID-007
    reason: nothing of this rule fails
    owner: bob
    expires: 2099-12-31
YAML
  run_idconform "$SRC/suites" --waivers "$WORK/stale.yaml" --filter '*path*'
  expect_stderr "STALE $WORK/stale.yaml:2:5 DATA-ID-007"
  run_idconform "$SRC/suites" --waivers "$WORK/stale.yaml" --strict-waivers --filter '*path*'
  expect_code 1
  # a broken waivers file is a usage error with file:line:col
  printf 'waivers:\n  - rule: DATA-ID-002\n    reason: r\n    owner: o\n    expires: 2027-02-30\n' >"$WORK/bad.yaml"
  run_idconform "$SRC/suites" --waivers "$WORK/bad.yaml"
  expect_code 2
  expect_stderr "$WORK/bad.yaml:5:14: error: '2027-02-30' is not a date"
  echo "ok: an expired waiver fails the run and is reported; stale and broken waivers are said"
  ;;
baseline)
  start_server --defect accept-upper-path --defect nil-path-200
  run_idconform "$SRC/suites" --json "$WORK/before.json"
  expect_code 1
  kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null || true
  start_server --defect accept-upper-path
  run_idconform "$SRC/suites" --json "$WORK/after.json" --baseline "$WORK/before.json"
  expect_code 1
  junit_valid
  [ "$(json_field "$WORK/after.json" 'r["audit"]["baseline"]["new"]')" = 0 ] || fail "new failures against the baseline"
  fixed=$(json_field "$WORK/after.json" 'r["audit"]["baseline"]["fixed"]')
  [ "$fixed" -ge 1 ] || fail "nothing fixed against the baseline"
  rows=$(json_field "$WORK/after.json" '",".join(x["rule"] for x in r["audit"]["baseline"]["rules"] if x["fixed"])')
  case ",$rows," in *,DATA-ID-007,*) ;; *) fail "fixed rules are '$rows', expected DATA-ID-007 among them" ;; esac
  still=$(json_field "$WORK/after.json" '[x["still_failing"] for x in r["audit"]["baseline"]["rules"] if x["rule"]=="DATA-ID-002"][0]')
  [ "$still" -ge 1 ] || fail "DATA-ID-002 is not still failing"
  expect_stderr "baseline $WORK/before.json: 0 new, $fixed fixed"
  # the console lines are the diff
  expect_stderr "FAIL (still failing) data-id-002"
  expect_stderr "FIXED "
  grep -q "^FAIL (new) " "$WORK/err" && fail "a new failure against a baseline that has them all"
  n=$(junit_xpath "count(//testcase[properties/property[@name='baseline'][@value='fixed']])")
  [ "${n%.*}" = "$fixed" ] || fail "JUnit has $n fixed testcases, expected $fixed"
  # the baseline summary as testsuite properties: every testsuite has one, the sums are the run's
  n=$(junit_xpath "sum(//testsuite/properties/property[@name='baseline.fixed']/@value)")
  [ "${n%.*}" = "$fixed" ] || fail "JUnit testsuite properties sum to $n fixed, expected $fixed"
  n=$(junit_xpath "sum(//testsuite/properties/property[@name='baseline.DATA-ID-007.fixed']/@value)")
  [ "${n%.*}" -ge 1 ] || fail "no per-rule baseline property for DATA-ID-007 in JUnit"
  [ "$(junit_xpath "count(//testsuite[not(properties/property[@name='baseline'][@value='$WORK/before.json'])])")" = 0 ] ||
    fail "a testsuite without the baseline summary"
  # only new failures fail the run: none are new
  run_idconform "$SRC/suites" --baseline "$WORK/before.json" --fail-on new
  expect_code 0
  expect_stderr "OK (no new failures)"
  # against the one-defect run, the second defect is new
  kill "${PIDS[-1]}"; wait "${PIDS[-1]}" 2>/dev/null || true
  start_server --defect accept-upper-path --defect nil-path-200
  run_idconform "$SRC/suites" --baseline "$WORK/after.json" --fail-on new
  expect_code 1
  n=$(junit_xpath "count(//testcase[failure][properties/property[@name='baseline'][@value='new']])")
  [ "${n%.*}" -ge 1 ] || fail "no new failure marked in JUnit"
  # a file that is not a report is refused, not taken as an empty baseline
  echo '{}' >"$WORK/not-a-report.json"
  run_idconform "$SRC/suites" --baseline "$WORK/not-a-report.json"
  expect_code 2
  expect_stderr "baseline $WORK/not-a-report.json:1:2: not an idconform JSON report"
  echo "ok: against a two-defect baseline a one-defect run shows $fixed fixed (rules $rows), none new"
  ;;
html)
  command -v chromium >/dev/null || fail "chromium is not installed (scripts/setup.sh installs it)"
  start_server --defect upper-case-out --defect no-ownership-read --defect nil-path-200
  waivers "$WORK/w.yaml" 2099-12-31
  run_idconform --target "$PROFILE" --concurrency 4 --waivers "$WORK/w.yaml" --html "$WORK/report.html" \
    --json "$WORK/r.json"
  expect_code 1
  grep -q '<span class="verdict v-failed">FAILED</span>' "$WORK/report.html" || fail "HTML verdict is not FAILED"
  grep -q 'class="case o-waived"' "$WORK/report.html" || fail "HTML shows no waived case"
  grep -q '<section id="waivers">' "$WORK/report.html" || fail "HTML has no waivers section"
  grep -q "sha256 $(sha256sum "$PROFILE" | cut -c1-64)" "$WORK/report.html" || fail "HTML lacks the profile's SHA-256"
  grep -q '<dt>commit</dt><dd>[0-9a-f]' "$WORK/report.html" || grep '<dt>commit</dt><dd>unknown' "$WORK/report.html" >/dev/null ||
    fail "HTML lacks the build's commit"
  for rule in DATA-ID-002 DATA-ID-004 nil-max; do
    grep -q "<th>$rule</th>" "$WORK/report.html" || fail "HTML matrix has no column $rule"
  done
  grep -q 'Bearer' "$WORK/report.html" && grep -E 'Authorization: [^[]' "$WORK/report.html" && fail "a credential is in the HTML report"
  # the counts are those of the JSON report
  for o in passed failed errors skipped waived; do
    want=$(json_field "$WORK/r.json" "r['summary']['$o']")
    css=$o; [ "$o" = errors ] && css=error
    case_count=$(grep -c "class=\"case o-$css\"" "$WORK/report.html" || true)
    [ "$case_count" = "$want" ] || fail "HTML has $case_count $o cases, JSON $want"
  done
  # idconform report renders the run's JSON report to the same HTML (only
  # the times and the "rendered from" line differ)
  "$IDCONFORM_BIN" report --html "$WORK/again.html" "$WORK/r.json" || fail "idconform report failed"
  strip() { grep -vE '<dt>(started|finished|rendered from)</dt>' "$1" | sed -E 's#<dt>(started|finished|rendered from)</dt><dd>[^<]*</dd>##g'; }
  diff <(strip "$WORK/report.html") <(strip "$WORK/again.html") >"$WORK/html.diff" ||
    { head -20 "$WORK/html.diff" >&2; fail "report --html of the JSON differs from the run's HTML"; }
  set +e; "$IDCONFORM_BIN" report --html "$WORK/x.html" "$WORK/w.yaml" 2>"$WORK/err"; CODE=$?; set -e
  expect_code 2
  # scan --html: a file with a violation
  printf '{"id":"017F22E2-79B0-7CC3-98C4-DC0C0C07398F"}\n' >"$WORK/ids.ndjson"
  set +e; "$IDCONFORM_BIN" scan "$WORK/ids.ndjson" --html "$WORK/scan.html" >/dev/null 2>&1; CODE=$?; set -e
  expect_code 1
  grep -q 'class="case o-failed"' "$WORK/scan.html" || fail "scan --html shows no failed case"
  # lint --html: the example server's own OpenAPI document
  "$IDCONFORM_BIN" lint "$SRC"/examples/openapi/*.yaml --html "$WORK/lint.html" >/dev/null 2>&1 || fail "lint --html failed"
  grep -q 'class="case o-passed"' "$WORK/lint.html" || fail "lint --html shows no case"
  python3 "$SRC/tests/e2e/browser_check.py" --self-test
  python3 "$SRC/tests/e2e/browser_check.py" "$WORK/report.html" "$WORK/report.png"
  python3 "$SRC/tests/e2e/browser_check.py" "$WORK/scan.html" "$WORK/scan.png"
  echo "ok: the HTML report of a pack run with defects renders in Chromium; report --html and scan --html agree"
  ;;
stream)
  for n in 10000 100000; do
    python3 "$SRC/tests/e2e/big_report.py" "$n" "$WORK/r$n.json"
    /usr/bin/time -f "%M" -o "$WORK/html$n.rss" "$IDCONFORM_BIN" report --html "$WORK/r$n.html" "$WORK/r$n.json" 2>"$WORK/err" ||
      { cat "$WORK/err" >&2; fail "report --html of $n cases failed"; }
    [ "$(grep -c 'class="case o-' "$WORK/r$n.html")" = "$n" ] || fail "the HTML of $n cases does not show $n cases"
    [ "$(grep -c 'class="case o-failed"' "$WORK/r$n.html")" = "$((n / 10))" ] || fail "the HTML of $n cases lacks failures"
    printf '{"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}\n' >"$WORK/ids.ndjson"
    /usr/bin/time -f "%M" -o "$WORK/base$n.rss" "$IDCONFORM_BIN" scan "$WORK/ids.ndjson" --baseline "$WORK/r$n.json" \
      --json "$WORK/scan$n.json" >/dev/null 2>"$WORK/err" || { cat "$WORK/err" >&2; fail "scan --baseline of $n cases failed"; }
    # none of the baseline's failures ran: every one is "not run this time"
    [ "$(json_field "$WORK/scan$n.json" 'r["audit"]["baseline"]["gone"]')" = "$((n / 10))" ] ||
      fail "the baseline of $n cases did not yield its $((n / 10)) failures"
    rm "$WORK/r$n.html"
  done
  html10=$(tail -1 "$WORK/html10000.rss"); html100=$(tail -1 "$WORK/html100000.rss")
  base10=$(tail -1 "$WORK/base10000.rss"); base100=$(tail -1 "$WORK/base100000.rss")
  echo "peak RSS: report --html $html10 kB at 10k cases, $html100 kB at 100k (JSON $(stat -c %s "$WORK/r100000.json") bytes);" \
    "--baseline $base10 kB at 10k, $base100 kB at 100k"
  # The HTML spool keeps its first 8 MiB in memory, the baseline 9,000 more
  # failing-case keys (a few hundred bytes each): 16 MiB is room for both,
  # far below the 110 MiB report read whole.
  # (SLACK_MEM: a sanitizer's quarantine of freed memory fills as the report is read)
  [ "$html100" -lt $((html10 + 16384 * SLACK_MEM)) ] || fail "report --html grows with the report: $html10 kB -> $html100 kB"
  [ "$base100" -lt $((base10 + 16384 * SLACK_MEM)) ] || fail "--baseline grows with the report: $base10 kB -> $base100 kB"
  [ "$html100" -lt $((65536 * SLACK_MEM)) ] && [ "$base100" -lt $((65536 * SLACK_MEM)) ] || fail "peak RSS over 64 MiB at 100k cases"
  echo "ok: report --html and --baseline stream a 100,000-case report"
  ;;
*)
  fail "unknown mode $mode"
  ;;
esac
