#!/usr/bin/env bash
# idconform scan end to end: files with known violations (exact positions on
# stdout and in the JUnit report, validated against the schema), stdin, exit
# codes, malformed files beside good ones, constant memory on a ~100 MB file,
# and a suite whose file step scans an export the example server wrote.
source "$(dirname "$0")/lib.sh"
D="$SRC/tests/e2e/scan"

scan() {  # scan ARGS...: sets CODE; stdout in $WORK/out, stderr in $WORK/err
  set +e
  "$IDCONFORM_BIN" scan "$@" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}
expect_out() { grep -qxF -- "$1" "$WORK/out" || { cat "$WORK/out" >&2; fail "stdout lacks the line: $1"; }; }

# --- known violations, exact positions (run from the data dir: relative names)
cd "$D"
scan products.ndjson products.csv products.json --junit "$WORK/junit.xml" --json "$WORK/report.json"
expect_code 1
expect_out "products.ndjson:2:7: DATA-ID-002: /id: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F': upper-case form of a valid UUIDv7 (expected ids on the wire in canonical lower-case form)"
expect_out "products.ndjson:2:57: DATA-ID-007: /owner_id: '00000000-0000-0000-0000-000000000000': Nil UUID (special value, not a v4 or v7 identifier) used as a placeholder (expected a real id, or null/omitted when absent)"
expect_out "products.ndjson:3:80: DATA-ID-007: /tags/0/ref_id: \"\" (empty string as a dummy id) (expected null or an omitted field for an absent id)"
grep -q "^products.csv:3:1: DATA-ID-002: column id: '{017f22e2" "$WORK/out" || fail "csv braces id not reported at 3:1"
expect_out "products.csv:3:40: DATA-ID-007: column owner_id: 0 (a dummy id) (expected null or an omitted field for an absent id)"
grep -q "^products.json:3:10: DATA-ID-002: /1/id: '017f22e279b07cc398c4dc0c0c07398f': hyphen-less form" "$WORK/out" ||
  fail "json hyphen-less id not reported at 3:10"
[ "$(wc -l <"$WORK/out")" -eq 6 ] || { cat "$WORK/out" >&2; fail "expected exactly 6 violations"; }
expect_stderr "FAILED scanned 3 files"
junit_valid
[ "$(junit_xpath 'count(//testsuite)')" = 3 ] || fail "one testsuite per file"
[ "$(junit_xpath 'string(//testsuite[@name="products.ndjson"]/testcase[@name="DATA-ID-002"]/@line)')" = 2 ] ||
  fail "the DATA-ID-002 testcase points at the first violation's line"
junit_xpath '//testsuite[@name="products.ndjson"]/testcase[@name="DATA-ID-007"]/failure/text()' | grep -F \
  "(at products.ndjson:3:80)" >/dev/null || fail "JUnit evidence lacks file:line:col of the second DATA-ID-007 violation"
[ "$(junit_xpath 'count(//testsuite[@name="products.json"]/testcase[@name="DATA-ID-007"]/failure)')" = 0 ] ||
  fail "a clean rule must be a passed testcase"
python3 - "$WORK/report.json" <<'PY' || fail "JSON report content"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["summary"]["failed"] == 5, r["summary"]
s = [x for x in r["suites"] if x["name"] == "products.csv"][0]
c = [x for x in s["cases"] if x["name"] == "DATA-ID-007"][0]
chk = c["steps"][0]["checks"][0]
assert chk["position"] == {"file": "products.csv", "line": 3, "column": 40}, chk
PY

# --- declared fields
scan --field /id=uuidv7 --field /owner_id=uuidv4 products.ndjson
expect_code 1
expect_out "products.ndjson:3:57: DATA-ID-007: /owner_id: null (expected canonical uuidv4 (the field is required))"

# --- clean file, stdin, --format
scan clean.ndjson
expect_code 0
expect_stderr "OK scanned 1 file"
scan --format ndjson - <products.ndjson
expect_code 1
expect_out "-:2:7: DATA-ID-002: /id: '017F22E2-79B0-7CC3-98C4-DC0C0C07398F': upper-case form of a valid UUIDv7 (expected ids on the wire in canonical lower-case form)"
scan - <clean.ndjson
expect_code 2
expect_stderr "stdin has no extension: give --format"

# --- malformed and unreadable files: clear errors, the other files still scanned
scan broken.ndjson ragged.csv clean.ndjson /nonexistent.ndjson --junit "$WORK/junit.xml"
expect_code 2
expect_stderr "broken.ndjson:2:8: error: expected a value, found 'o'"
expect_stderr "ragged.csv:3:1: error: row has 1 field, the header has 2"
expect_stderr "/nonexistent.ndjson: error: cannot open: No such file or directory"
expect_stderr "3 files unreadable or malformed"
junit_valid
[ "$(junit_xpath 'string(/testsuites/@errors)')" = 3 ] || fail "malformed files are errors in JUnit"
scan broken.ndjson products.ndjson
expect_code 1  # a broken contract outranks a malformed file, as in `run`

# --- usage errors
scan --field id=uuidv7 clean.ndjson
expect_code 2
expect_stderr "the field is a JSON pointer starting with '/'"
scan --field /id=uuidv9 clean.ndjson
expect_code 2
expect_stderr "unknown id kind 'uuidv9'"
scan --column nope=uuidv7 products.csv
expect_code 2
expect_stderr "declared column 'nope' is not in the header"
scan --max-violations 1 products.ndjson products.csv
expect_code 1
[ "$(wc -l <"$WORK/out")" -eq 1 ] || fail "--max-violations 1 printed more than one violation"
expect_stderr "stopped at --max-violations 1"

# --- hostile input: binary, empty, a 10 MB line, deep nesting
# A fixed first byte that no JSON text starts with: random bytes alone began
# with whitespace or `{` now and then, and the error was then further on.
printf '\001' >"$WORK/random.ndjson"
head -c 20000 /dev/urandom >>"$WORK/random.ndjson"
: >"$WORK/empty.csv"
python3 -c "print('{\"a\":\"' + 'x' * (10 << 20) + '\"}')" >"$WORK/long.ndjson"
python3 -c "print('[' * 1000000)" >"$WORK/deep.json"
scan "$WORK/random.ndjson" "$WORK/empty.csv" "$WORK/long.ndjson" "$WORK/deep.json"
expect_code 2
expect_stderr "empty.csv:1:1: error: empty file"
expect_stderr "long.ndjson:1:8388609: error: line 1 is longer than 8388608 bytes"
expect_stderr "deep.json:1:2: error: element 0 is an array, not an object"
grep -q "random.ndjson:1:1: error:" "$WORK/err" || fail "random bytes not reported at 1:1"

# --- constant memory: ~100 MB scanned with a small peak RSS
python3 "$SRC/bench/scan_gen.py" ndjson "$WORK/big.ndjson" 100
set +e
/usr/bin/time -f "%M" -o "$WORK/rss" "$IDCONFORM_BIN" scan -q "$WORK/big.ndjson" >/dev/null 2>"$WORK/err"
set -e
rss_kb=$(tail -n 1 "$WORK/rss")
size_mb=$(( $(stat -c %s "$WORK/big.ndjson") >> 20 ))
echo "scanned ${size_mb} MiB with peak RSS ${rss_kb} KiB"
[ "$size_mb" -ge 100 ] || fail "the generated file is too small"
[ "$rss_kb" -lt $((51200 * SLACK_MEM)) ] || fail "peak RSS ${rss_kb} KiB >= 50 MiB"
expect_stderr "FAILED scanned 1 file"

# --- two halves on two threads: the same lines as one pass, also when stopped
# in the second half (the summary's time aside); a CSV copy as well
python3 "$SRC/bench/scan_gen.py" csv "$WORK/big.csv" 40
for f in big.ndjson big.csv; do
  total=$({ "$IDCONFORM_BIN" scan --threads 1 "$WORK/$f" 2>/dev/null || true; } | wc -l)
  [ "$total" -gt 10 ] || fail "$f: expected violations, got $total"
  for extra in "" "--max-violations $((total * 3 / 4))"; do
    set +e
    # shellcheck disable=SC2086
    "$IDCONFORM_BIN" scan --threads 1 $extra "$WORK/$f" >"$WORK/one.out" 2>"$WORK/one.err"; c1=$?
    # shellcheck disable=SC2086
    "$IDCONFORM_BIN" scan --threads 2 $extra "$WORK/$f" >"$WORK/two.out" 2>"$WORK/two.err"; c2=$?
    set -e
    [ "$c1" -eq "$c2" ] || fail "$f $extra: exit $c1 with one thread, $c2 with two"
    cmp -s "$WORK/one.out" "$WORK/two.out" || fail "$f $extra: violations differ between one and two threads"
    diff <(sed 's/ in [0-9.]* s:/ in T s:/' "$WORK/one.err") <(sed 's/ in [0-9.]* s:/ in T s:/' "$WORK/two.err") ||
      fail "$f $extra: summaries differ between one and two threads"
  done
done
rm -f "$WORK/big.ndjson" "$WORK/big.csv"

# --- a suite: create over HTTP, trigger an export, scan the file it wrote
mkdir -p "$WORK/exports"
start_server --export-dir "$WORK/exports"
run_idconform "$D/export_suite.yaml"
expect_code 0
junit_valid
junit_xpath '//testcase/system-out/text()' | grep "'scan the export': SCAN $WORK/exports/products-[0-9a-f-]*\.ndjson -\(>\|&gt;\) 2 records, [0-9]* bytes scanned" >/dev/null ||
  { junit_xpath '//testcase/system-out/text()' >&2; fail "the transcript lacks the file step and its record count"; }
start_server --export-dir "$WORK/exports" --defect upper-case-out
run_idconform "$D/export_suite.yaml"
expect_code 1
junit_valid
junit_xpath '//testcase/failure/text()' | grep "FAIL \[DATA-ID-002\] /id: expected canonical uuidv7, actual '[0-9A-F-]\{36\}'" >/dev/null ||
  { junit_xpath '//testcase/failure/text()' >&2; fail "the file step did not fail on upper-case ids in the export"; }
junit_xpath '//testcase/failure/text()' | grep "(at $WORK/exports/products-[0-9a-f-]*\.ndjson:1:7)" >/dev/null ||
  fail "the file step's evidence lacks file:line:col"
echo "scan e2e: ok"
