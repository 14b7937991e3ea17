# Reports as input and output (issue 24 items 1, 5 and "Smaller"): JSON
# reports written against a hostile server (gzip bomb, invalid UTF-8, NUL)
# and damaged copies of them (cut, hostile strings, a claimed billion
# suites) are read back by `report --html`, `merge` and `--baseline` with a
# PATH:LINE:COL error or a report, never a crash or unbounded memory;
# report writers write devices and FIFOs in place, follow symlinks, and
# refuse to overwrite an input; merge of suite errors exits 2.
# Usage: report_files.sh SCENARIO (reader | writers | exits)
source "$(dirname "$0")/lib.sh"
SCENARIO=${1:?scenario}

python3 "$SRC/tests/e2e/hostile_server.py" "$WORK/ports" &
PIDS+=($!)
for _ in $(seq 1 200); do [ -s "$WORK/ports" ] && break; sleep 0.05; done
read -r PORT _ <"$WORK/ports" || fail "hostile server did not start"

cat >"$WORK/hostile.yaml" <<YAML
name: hostile
target: {base_url: "http://127.0.0.1:$PORT"}
cases:
  - name: bomb
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /gzip-bomb}
        expect: {status: 200}
  - name: garbage
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /garbage}
        expect: {status: 404}
YAML

ic() {  # ic ARGS...: idconform with a 20 s / 256 MiB bound; sets CODE
  set +e
  ( bounded_vm 1048576; timeout $((20 * SLACK_TIME)) "$IDCONFORM_BIN" "$@" ) >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
  [ "$CODE" -lt 124 ] || { cat "$WORK/err" >&2; fail "idconform $1 crashed or hung (exit $CODE)"; }
}

ic run --no-progress --shard 1/1 --json "$WORK/r.json" "$WORK/hostile.yaml"
expect_code 1
[ -s "$WORK/r.json" ] || fail "no shard report"

case "$SCENARIO" in
reader)
  # the report as written reads back in every command
  ic report --html "$WORK/r.html" "$WORK/r.json"; expect_code 0
  ic merge -o "$WORK/m.json" "$WORK/r.json"; expect_code 1
  ic run --no-progress --baseline "$WORK/r.json" "$WORK/hostile.yaml"; expect_code 1
  # damaged copies: cut at many places, hostile strings, a claimed total
  python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
raw = open(work + "/r.json", "rb").read()
for i, cut in enumerate(range(1, len(raw), max(1, len(raw) // 40))):
    open("%s/cut%02d.json" % (work, i), "wb").write(raw[:cut])
r = json.loads(raw)
r["run"]["shard"]["total_units"] = 1000000000
open(work + "/billion.json", "w").write(json.dumps(r))
r = json.loads(raw)
r["summary"]["tests"] = 1000000000
r["suites"][0]["cases"][0]["outcome"] = "\x1b]0;pwned\x07\x1b[2J"
open(work + "/esc.json", "w").write(json.dumps(r))
r = json.loads(raw)
st = r["suites"][0]["cases"][0]["steps"][0]
st["time"] = 1e308; st["attempts"] = 10**30; st["response"]["status"] = 2**63
st["checks"][0]["position"] = {"file": "x", "line": 2**64 - 1, "column": -5}
open(work + "/huge-numbers.json", "w").write(json.dumps(r))
open(work + "/deep.json", "w").write('{"tool": "idconform", "suites": [' + "[" * 100000 + "]" * 100000 + "]}")
open(work + "/nul.json", "wb").write(raw.replace(b'"bomb"', b'"bo\x00mb"', 1))
open(work + "/utf8.json", "wb").write(raw.replace(b'"bomb"', b'"bo\xff\xfemb"', 1))
PY
  for f in "$WORK"/cut*.json "$WORK"/esc.json "$WORK"/deep.json "$WORK"/nul.json "$WORK"/utf8.json; do
    for cmd in report merge baseline; do
      case $cmd in
        report) ic report --html "$WORK/x.html" "$f" ;;
        merge) ic merge -o "$WORK/x.json" "$f" ;;
        baseline) ic run --no-progress --baseline "$f" "$WORK/hostile.yaml" ;;
      esac
      expect_code 2
      grep -qE "$f:[0-9]+:[0-9]+: " "$WORK/err" || { cat "$WORK/err" >&2; fail "$cmd $f: no PATH:LINE:COL"; }
      if grep -q $'\x1b' "$WORK/err"; then fail "$cmd $f: a raw ESC reached the terminal"; fi
    done
  done
  ic merge -o "$WORK/x.json" "$WORK/billion.json"
  expect_code 2; expect_stderr "says the run had 1000000000 suites but the shard reports name only 1"
  ic report --html "$WORK/x.html" "$WORK/huge-numbers.json"; expect_code 0
  ic merge -o "$WORK/x.json" "$WORK/huge-numbers.json"; expect_code 1
  echo "ok: hostile, cut and damaged reports are read back or refused at PATH:LINE:COL"
  ;;
writers)
  # a device is written in place, never replaced (as root `--json /dev/null`
  # made /dev/null a file). A private null device of our own (mknod needs
  # root), so a build without the fix cannot break the machine's /dev/null.
  if mknod -m 666 "$WORK/null" c 1 3 2>/dev/null; then
    ic run --no-progress --json "$WORK/null" "$WORK/hostile.yaml"; expect_code 1
    [ -c "$WORK/null" ] || fail "the device was replaced by a regular file"
  fi
  # a FIFO: written in place (a reader takes the report)
  mkfifo "$WORK/fifo"
  cat "$WORK/fifo" >"$WORK/from-fifo" &
  ic report --html "$WORK/fifo" "$WORK/r.json"; expect_code 0
  wait $!
  [ -p "$WORK/fifo" ] || fail "the FIFO was replaced"
  grep -q "<html" "$WORK/from-fifo" || fail "nothing came through the FIFO"
  # a symlink is followed: the file it names gets the report, the link stays
  echo old >"$WORK/target.html"; chmod 600 "$WORK/target.html"
  ln -s target.html "$WORK/link.html"
  ic report --html "$WORK/link.html" "$WORK/r.json"; expect_code 0
  [ -L "$WORK/link.html" ] || fail "the symlink was replaced"
  grep -q "<html" "$WORK/target.html" || fail "the symlink's target was not written"
  [ "$(stat -c %a "$WORK/target.html")" = 600 ] || fail "the report lost its permission bits"
  ln -s nowhere/x.html "$WORK/dangling.html"
  ic report --html "$WORK/dangling.html" "$WORK/r.json"; expect_code 2
  expect_stderr "follow the symbolic link"
  # an output that is an input (same path, a symlink, a hard link) is refused before anything is written
  cp "$WORK/r.json" "$WORK/keep.json"
  ln -s r.json "$WORK/r-link.json"; ln "$WORK/r.json" "$WORK/r-hard.json"
  for out in "$WORK/r.json" "$WORK/r-link.json" "$WORK/r-hard.json"; do
    ic report --html "$out" "$WORK/r.json"; expect_code 2; expect_stderr "is the input"
    ic merge -o "$out" "$WORK/r.json"; expect_code 2; expect_stderr "is the input"
    ic merge -o "$WORK/m.json" --junit "$out" "$WORK/r.json"; expect_code 2
    ic run --no-progress --json "$out" --baseline "$WORK/r.json" "$WORK/hostile.yaml"; expect_code 2
    expect_stderr "is the input"
    cmp -s "$WORK/r.json" "$WORK/keep.json" || fail "an input was overwritten through $out"
  done
  [ ! -e "$WORK/m.json" ] || fail "a refused merge wrote a report"
  # scan: a report over a scanned file
  printf '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}\n' >"$WORK/ids.ndjson"; cp "$WORK/ids.ndjson" "$WORK/ids.keep"
  ic scan --json "$WORK/ids.ndjson" "$WORK/ids.ndjson"; expect_code 2; expect_stderr "is the input"
  cmp -s "$WORK/ids.ndjson" "$WORK/ids.keep" || fail "scan overwrote the file it scans"
  echo "ok: devices and FIFOs in place, symlinks followed, inputs never overwritten"
  ;;
exits)
  # --shard "" is a usage error, not "no sharding"
  ic run --no-progress --shard "" "$WORK/hostile.yaml"
  expect_code 2; expect_stderr "--shard is empty"
  # shards whose runs exited 2 (suite errors) merge to exit 2; transport errors to 3
  cat >"$WORK/suite-error.yaml" <<YAML
name: suite-error
target: {base_url: "http://127.0.0.1:$PORT"}
cases:
  - name: undefined variable
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: "/items/\${nothing_defines_this}"}
        expect: {status: 404}
YAML
  for k in 1 2; do
    ic run --no-progress --shard $k/2 --json "$WORK/se$k.json" "$WORK/suite-error.yaml" "$WORK/suite-error.yaml"
    [ "$CODE" = 2 ] || { cat "$WORK/err" >&2; fail "shard $k: exit $CODE, expected 2"; }
  done
  ic merge -o "$WORK/se.json" "$WORK/se1.json" "$WORK/se2.json"
  expect_code 2
  # the exit codes follow from each case's error_cause, kept through merge;
  # a report without causes (an older one) is judged as before
  python3 - "$WORK/se.json" <<'PY'
import json, sys
causes = [c.get("error_cause") for s in json.load(open(sys.argv[1]))["suites"] for c in s["cases"] if c["outcome"] == "error"]
assert causes and set(causes) == {"suite"}, causes
PY
  python3 - "$WORK/se1.json" "$WORK/se1-old.json" "transport" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for s in r["suites"]:
    for c in s["cases"]:
        c.pop("error_cause", None)
json.dump(r, open(sys.argv[2], "w"))
r = json.load(open(sys.argv[1]))
for s in r["suites"]:
    for c in s["cases"]:
        if c["outcome"] == "error": c["error_cause"] = sys.argv[3]
json.dump(r, open(sys.argv[2].replace("-old", "-transport"), "w"))
for s in r["suites"]:
    for c in s["cases"]:
        if c["outcome"] == "error": c["error_cause"] = "sunspots"
json.dump(r, open(sys.argv[2].replace("-old", "-bad"), "w"))
PY
  ic merge -o "$WORK/se-old-m.json" "$WORK/se1-old.json" "$WORK/se2.json"; expect_code 2
  ic merge -o "$WORK/se-tr-m.json" "$WORK/se1-transport.json" "$WORK/se2.json"; expect_code 3
  ic merge -o "$WORK/se-bad-m.json" "$WORK/se1-bad.json" "$WORK/se2.json"; expect_code 2
  expect_stderr "unknown error_cause"
  cat >"$WORK/down.yaml" <<YAML
name: down
target: {base_url: "http://127.0.0.1:1"}
cases:
  - name: unreachable
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /x}
        expect: {status: 404}
YAML
  ic run --no-progress --shard 1/1 --json "$WORK/down.json" "$WORK/down.yaml"; expect_code 3
  ic merge -o "$WORK/d.json" "$WORK/down.json"; expect_code 3
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["suites"][0]["cases"][0]; assert c["error_cause"] == "transport", c.get("error_cause")' "$WORK/down.json"
  # a 101 answer is an error (nothing to check), not a failure; a followed
  # redirect loop reproduces with curl -L
  cat >"$WORK/proto.yaml" <<YAML
name: proto
target: {base_url: "http://127.0.0.1:$PORT"}
cases:
  - name: switch
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /switch}
        expect: {status: 200}
  - name: loop
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /loop}
        expect: {status: 200}
YAML
  ic run --no-progress -L --junit "$WORK/junit.xml" --json "$WORK/p.json" "$WORK/proto.yaml"
  expect_code 3
  [ -n "$(junit_xpath "//testcase[@name='loop']/error")" ] || fail "a redirect loop is not an <error>"
  expect_stderr "redirect loop: 5 redirects followed (the limit)"
  [ -n "$(junit_xpath "//testcase[@name='switch']/error")" ] || fail "a 101 answer is not an <error>"
  expect_stderr "101 Switching Protocols"
  python3 - "$WORK/p.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
loop = [c for c in r["suites"][0]["cases"] if c["name"] == "loop"][0]
assert " -L --max-redirs 5 " in loop["steps"][0]["reproduce"], loop["steps"][0]["reproduce"]
PY
  echo "ok: --shard \"\" refused; merged suite errors exit 2, transport errors 3; 101 an error; curl -L"
  ;;
*) fail "unknown scenario $SCENARIO" ;;
esac
