# Hostile targets, kept (issue #14): idconform against a target that
# misbehaves on demand (hostile_server.py). Each scenario asserts bounded
# time and memory, the exit code, <error> vs <failure>, valid reports (JUnit
# against the schema with xmllint, JSON with a strict parser) and, for
# secrets, that none reaches any report (JUnit, JSON, console).
# Usage: hostile.sh SCENARIO
source "$(dirname "$0")/lib.sh"
SCENARIO=${1:?scenario}

python3 "$SRC/tests/e2e/hostile_server.py" "$WORK/ports" &
PIDS+=($!)
for _ in $(seq 1 200); do [ -s "$WORK/ports" ] && break; sleep 0.05; done
read -r PORT OTHER_PORT <"$WORK/ports" || fail "hostile server did not start"
BASE="http://127.0.0.1:$PORT"

# measure MAX_SECONDS MAX_RSS_MIB ARGS...: runs `idconform run ARGS` with a
# JUnit and a JSON report; sets CODE; fails when it takes longer or grows
# larger than allowed, or when a report is not valid.
measure() {
  local max_s=$1 max_mib=$2
  shift 2
  set +e
  python3 - "$((max_s * SLACK_TIME))" "$((max_mib * SLACK_MEM))" "$WORK" "$IDCONFORM_BIN" "$@" <<'PY'
import json, resource, subprocess, sys, time
max_s, max_mib, work, binary = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
args = [binary, "run", "--no-progress", "-v", "--junit", work + "/junit.xml", "--json", work + "/report.json"] + sys.argv[5:]
t0 = time.monotonic()
try:
    r = subprocess.run(args, stdout=open(work + "/out", "wb"), stderr=open(work + "/err", "wb"), timeout=max_s * 3)
except subprocess.TimeoutExpired:
    sys.exit("idconform still running after %.0f s" % (max_s * 3))
took = time.monotonic() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print("exit %d in %.2f s, peak RSS %d MiB" % (r.returncode, took, peak))
if took > max_s:
    sys.exit("took %.2f s, more than %.0f s" % (took, max_s))
if peak > max_mib:
    sys.exit("peak RSS %d MiB, more than %d MiB" % (peak, max_mib))
# Reports must be readable by strict parsers: UTF-8, valid JSON.
raw = open(work + "/report.json", "rb").read()
json.loads(raw.decode("utf-8"))
open(work + "/out", "rb").read().decode("utf-8")
sys.exit(100 + r.returncode)
PY
  CODE=$?
  set -e
  [ "$CODE" -ge 100 ] || { cat "$WORK/err" >&2 2>/dev/null || true; fail "measure failed"; }
  CODE=$((CODE - 100))
  junit_valid
}

# outcome NAME: "failure", "error", "skipped" or "passed" for the testcase NAME.
outcome() {
  local tc="//testcase[@name='$1']"
  if [ -n "$(junit_xpath "$tc/failure")" ]; then echo failure
  elif [ -n "$(junit_xpath "$tc/error")" ]; then echo error
  elif [ -n "$(junit_xpath "$tc/skipped")" ]; then echo skipped
  elif [ -n "$(junit_xpath "$tc")" ]; then echo passed
  else echo missing; fi
}
expect_outcome() {
  local got
  got=$(outcome "$1")
  [ "$got" = "$2" ] || { xmllint --format "$WORK/junit.xml" | head -80 >&2; fail "case '$1': $got, expected $2"; }
}

# suite NAME SCAN CASES_YAML: a suite file against the hostile server.
suite() {
  cat >"$WORK/$1.yaml" <<YAML
name: $1
scan: $2
target: {base_url: "$BASE"}
cases:
$3
YAML
}

get_case() {  # get_case NAME PATH [EXPECT_YAML]
  local expect=${3:-}
  [ -n "$expect" ] || expect='{status: 200}'
  printf '  - name: %s\n    rule: DATA-ID-002\n    steps:\n      - http: {method: GET, path: "%s"}\n        expect: %s\n' \
    "$1" "$2" "$expect"
}

case "$SCENARIO" in
timeouts)
  # Never answers, stalls after a header, endless chunked body, reset: each an
  # <error> in bounded time and memory.
  suite timeouts false "$(get_case silent /silent; get_case stall /stall; get_case endless /endless-chunked; get_case reset /reset; get_case fine /ok)"
  measure 20 64 "$WORK/timeouts.yaml" --timeout 700ms -j 4
  expect_code 3
  for c in silent stall endless reset; do expect_outcome "$c" error; done
  expect_outcome fine passed
  [ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "a transport error was reported as a failure"
  ;;
garbage)
  # Invalid UTF-8 and NUL in a header and the body, a 1 MiB header, a gzip
  # bomb, a redirect loop: reports stay valid, memory stays bounded.
  suite garbage true "$(get_case garbage /garbage; get_case nul /nul-header; get_case huge /huge-header
    get_case bomb /gzip-bomb; get_case loop /loop '{status: 200}')"
  measure 20 64 "$WORK/garbage.yaml" -L
  expect_code 3                   # errors only: the loop is one (no answer to check), not a failure
  expect_outcome garbage passed   # status 200 holds; the scan says the body is not JSON
  expect_outcome nul error
  expect_outcome huge error
  expect_outcome bomb passed      # not inflated: the body is what was sent
  expect_outcome loop error       # still redirected at the limit: an error that says it looped
  grep -q "redirect loop: 5 redirects followed" "$WORK/junit.xml" || fail "the loop is not said as one"
  grep -q -- "-L --max-redirs 5" "$WORK/report.json" || fail "the loop's curl line lacks -L"
  grep -q 'shape scan (not run)' "$WORK/report.json" || fail "the unscanned body is not said in the evidence"
  ;;
stray)
  # Bytes after a complete answer are never the answer to the next request.
  cases=""
  for i in 1 2 3 4 5 6; do
    cases+=$(get_case "stray $i" /stray '{status: 200, json: {/id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", /stray: {absent: true}}}')
    cases+=$'\n'
    cases+=$(get_case "after stray $i" /ok '{status: 200, json: {/id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", /stray: {absent: true}}}')
    cases+=$'\n'
  done
  suite stray true "$cases"
  measure 20 64 "$WORK/stray.yaml" -j 1
  expect_code 0
  # The stray "answer" in a write of its own: at once, 50 ms and 300 ms after
  # the answer. The rate limit makes the client wait past it before the next
  # request, so the bytes are there when the connection would be reused (a
  # reuse 100 ms later was not checked before: defect 5 on plain HTTP).
  for ms_rate in 0:10/s 50:10/s 300:2/s; do
    ms=${ms_rate%%:*} rate=${ms_rate#*:}
    cases=""
    for i in 1 2 3; do
      cases+=$(get_case "late stray $ms ms $i" "/stray-late?ms=$ms" '{status: 200, json: {/id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", /stray: {absent: true}}}')
      cases+=$'\n'
      cases+=$(get_case "after late stray $ms ms $i" /ok '{status: 200, json: {/id: "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", /stray: {absent: true}}}')
      cases+=$'\n'
    done
    suite "stray_$ms" true "$cases"
    measure 20 64 "$WORK/stray_$ms.yaml" -j 1 --rate-limit "$rate"
    expect_code 0
    expect_outcome "after late stray $ms ms 3" passed
  done
  ;;
limits)
  # Harness limits are <error>s, not broken contracts: more than 8 interim
  # answers, a body over --body-cap that an expectation needs. Within the
  # limits the same answers pass.
  suite limits false "$(get_case 'eight hints' '/hints?n=8' '{status: 200, json: {/id: {type: string}}}'
    get_case 'twenty hints' '/hints?n=20' '{status: 200}'
    get_case 'big body, status only' '/big?n=3000000' '{status: 200}'
    get_case 'big body, json' '/big?n=3000000' '{status: 200, json: {/id: {type: string}}}')"
  measure 20 64 "$WORK/limits.yaml" --body-cap 1048576
  expect_code 3
  expect_outcome 'eight hints' passed
  expect_outcome 'twenty hints' error
  expect_outcome 'big body, status only' passed
  expect_outcome 'big body, json' error
  grep -q 'raise --body-cap' "$WORK/junit.xml" || fail "the body-cap error does not say what to do"
  grep -q 'more than 8 interim' "$WORK/junit.xml" || fail "the 1xx flood error is not said"
  ;;
deep)
  # Deep but valid JSON is JSON (40 levels: past Boost.JSON's default 32);
  # the shape scan reads it; past the harness's bound (512) it is an <error>.
  ptr=$(printf '/a%.0s' $(seq 1 39))
  suite deep_checks false "$(get_case 'forty levels' '/deep?n=40' "{status: 200, json: {$ptr/id: {type: string}}}")"
  measure 20 64 "$WORK/deep_checks.yaml"
  expect_code 0
  expect_outcome 'forty levels' passed
  suite deep_scan true "$(get_case 'upper-case id forty levels down' '/deep?n=40')"
  measure 20 64 "$WORK/deep_scan.yaml"
  expect_code 1
  # the finding is a result of the shape scan; the case that read it passed its own checks
  expect_outcome 'upper-case id forty levels down' passed
  expect_outcome "DATA-ID-002 $ptr/id in GET /deep?n=40" failure
  suite deep_limit false "$(get_case 'six hundred levels' '/deep?n=600' '{status: 200, json: {/a: {present: true}}}')"
  measure 20 64 "$WORK/deep_limit.yaml"
  expect_code 3
  expect_outcome 'six hundred levels' error
  ;;
scan-cap)
  # 40 answers of 25,000 upper-case ids each: the first findings of each step
  # and a count of the rest, in small reports xmllint accepts.
  cases=""
  for i in $(seq 1 40); do cases+=$(get_case "ids $i" '/ids?n=25000'); cases+=$'\n'; done
  suite scan_cap true "$cases"
  measure 60 150 "$WORK/scan_cap.yaml" -j 4
  expect_code 1
  size_junit=$(stat -c %s "$WORK/junit.xml")
  size_json=$(stat -c %s "$WORK/report.json")
  echo "JUnit $size_junit bytes, JSON $size_json bytes"
  [ "$size_junit" -lt $((16 << 20)) ] || fail "JUnit report of $size_junit bytes"
  # The JSON report carries each failed step's stored body (40 x 975,001
  # bytes here, under --body-cap); the findings add little beside it.
  bodies=$((40 * (25000 * 39 + 1)))
  [ "$size_json" -lt $((bodies + (8 << 20))) ] || fail "JSON report of $size_json bytes (bodies: $bodies)"
  # one finding (one endpoint, one field) seen in 40 answers, 1,000,000 values
  grep -q 'seen in 40 answers of GET /ids?n=25000, 1000000 values' "$WORK/report.json" || fail "the findings are not folded into one with their count"
  grep -q '24990 more values at this field in this answer' "$WORK/report.json" || fail "no count of the unlisted values"
  ;;
secrets)
  # No secret reaches any report: values marked secret used in expectations,
  # in query strings (and so in curl lines), in transport error text;
  # credentials echoed back in headers and bodies; Set-Cookie; and with
  # --location a cross-origin redirect forwards neither X-Api-Key nor a
  # header holding a secret.
  export HOSTILE_TOKEN='tok-SECRET-4f1c9e'
  export HOSTILE_KEY='key-SECRET-8d2b7a'
  export HOSTILE_SIG='sig SECRET/77+q'
  cat >"$WORK/secrets.yaml" <<YAML
name: secrets
target:
  base_url: "$BASE"
vars:
  token: {value: "\${env:HOSTILE_TOKEN}", secret: true}
  key: {value: "\${env:HOSTILE_KEY}", secret: true}
  sig: {value: "\${env:HOSTILE_SIG}", secret: true}
principals:
  user: {headers: {Authorization: "Bearer \${token}", X-Api-Key: "\${key}", X-Signature: "v1 \${sig}"}}
cases:
  - name: a secret in an expectation
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /echo, principal: user}
        expect:
          status: 200
          headers: {X-Echo-Token: "Bearer \${token}-other"}
  - name: a secret in the query string
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /echo, query: {api_key: "\${key}", q: "\${sig}"}, principal: user}
        expect: {status: 201}
  - name: the cookie and the echoed token
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /echo, principal: user}
        expect:
          status: 200
          headers: {Set-Cookie: {present: true}, X-Echo-Token: {present: true}}
          json: {/missing: {present: true}}
  - name: a secret in a transport error
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: "http://[\${token}/x", principal: user}
        expect: {status: 200}
  - name: a cross-origin redirect
    rule: DATA-ID-002
    steps:
      - http: {method: GET, path: /cross, principal: user}
        expect:
          status: 200
          json:
            /headers/X-Api-Key: {absent: true}
            /headers/X-Signature: {absent: true}
            /headers/Authorization: {absent: true}
            /target: /echo
YAML
  measure 20 64 "$WORK/secrets.yaml" -L
  expect_code 1  # broken expectations outrank the transport error
  expect_outcome 'a secret in an expectation' failure
  expect_outcome 'a secret in the query string' failure
  expect_outcome 'the cookie and the echoed token' failure
  expect_outcome 'a secret in a transport error' error
  expect_outcome 'a cross-origin redirect' passed
  sig_encoded=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$HOSTILE_SIG")
  for f in junit.xml report.json out err; do
    for s in "$HOSTILE_TOKEN" "$HOSTILE_KEY" "$HOSTILE_SIG" "$sig_encoded" 'c00kie-9999'; do
      if grep -qF -- "$s" "$WORK/$f"; then
        grep -nF -- "$s" "$WORK/$f" | head -5 >&2
        fail "'$s' leaks into $f"
      fi
    done
  done
  grep -q 'REDACTED' "$WORK/junit.xml" || fail "nothing was masked (did the cases run?)"
  ;;
*)
  fail "unknown scenario $SCENARIO"
  ;;
esac
echo "ok: hostile $SCENARIO"
