# Shared helpers of the end-to-end tests: start the example server (or a
# hostile peer) on a free loopback port, run idconform, assert on its exit
# code, stderr and JUnit report. Sourced by each e2e script; CTest passes the
# build and source directories in IDCONFORM_BIN, PRODUCTS_SERVER, SRC.
set -euo pipefail

: "${IDCONFORM_BIN:?}" "${PRODUCTS_SERVER:?}" "${SRC:?}"
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
# Under pipefail, `producer | grep -q` fails now and then although the text is
# there: grep -q exits at the first match and the producer, still writing,
# dies of SIGPIPE (1 run in ~750 of `echo "$list" | grep -qx NAME`). Tests
# write `grep -q PATTERN <<<"$text"`, or `producer | grep PATTERN >/dev/null`.

# SANITIZED=1: IDCONFORM_BIN is an AddressSanitizer build (scripts/asan_e2e.sh).
# Its shadow memory cannot live under `ulimit -v`, and it is slower and
# larger: the scripts' time and memory bounds are widened by these factors.
SANITIZED=${SANITIZED:-0}
if [ "$SANITIZED" = 1 ]; then SLACK_TIME=5 SLACK_MEM=12; else SLACK_TIME=1 SLACK_MEM=1; fi
# bounded_vm KIB: `ulimit -v KIB`, except under a sanitizer.
bounded_vm() { [ "$SANITIZED" = 1 ] || ulimit -v "$1"; }

# start_server [ARGS...]: starts products_server on port 0; sets BASE_URL (and
# KAFKA_BOOTSTRAP when the server was given --kafka-mock or --kafka-brokers).
start_server() {
  local out="$WORK/server.$RANDOM.out"
  : >"$out"  # exists before the server's redirection happens
  # Every server also speaks gRPC (the example profile runs the packs over
  # both); its address goes to the profile through IDCONFORM_GRPC_ADDRESS.
  "$PRODUCTS_SERVER" --port 0 --grpc-port 0 "$@" >"$out" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 600); do  # up to 30 s: a loaded CI runner starts slowly
    BASE_URL=$(sed -n 's/^listening on \(http[s]*:\/\/[^ ]*\).*/\1/p' "$out" | head -n 1)
    # with --kafka-mock / --kafka-brokers the server names its Kafka cluster first
    KAFKA_BOOTSTRAP=$(sed -n 's/^kafka bootstrap \([^ ]*\).*/\1/p' "$out" | head -n 1)
    GRPC_ADDRESS=$(sed -n 's/^grpc listening on \([^ ]*\).*/\1/p' "$out" | head -n 1)
    if [ -n "$BASE_URL" ] && [ -n "$GRPC_ADDRESS" ]; then
      export IDCONFORM_GRPC_ADDRESS="$GRPC_ADDRESS"
      return 0
    fi
    sleep 0.05
  done
  cat "$out" >&2
  fail "server did not start"
}

# start_fixture SCRIPT [ARGS...]: starts a Python fixture server of
# tests/e2e/ (it listens on a free loopback port and prints "listening on
# URL"); sets BASE_URL.
start_fixture() {
  local script=$1 out="$WORK/fixture.$RANDOM.out"
  shift
  : >"$out"
  python3 "$SRC/tests/e2e/$script" "$@" >"$out" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 1 600); do  # up to 30 s: a loaded CI runner starts slowly
    BASE_URL=$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$out" | head -n 1)
    [ -n "$BASE_URL" ] && return 0
    sleep 0.05
  done
  cat "$out" >&2
  fail "$script did not start"
}

# run_idconform ARGS...: runs idconform; sets CODE, and leaves stdout/stderr
# in $WORK/out and $WORK/err, the JUnit report in $WORK/junit.xml.
run_idconform() {
  set +e
  IDCONFORM_BASE_URL="${BASE_URL:-http://127.0.0.1:1}" "$IDCONFORM_BIN" run --no-progress \
    --junit "$WORK/junit.xml" "$@" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}

expect_code() {
  [ "$CODE" -eq "$1" ] || { cat "$WORK/err" >&2; fail "exit code $CODE, expected $1"; }
}

expect_stderr() {
  grep -qF -- "$1" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks: $1"; }
}

junit_valid() {
  xmllint --noout --schema "$SRC/reporters/schema/junit.xsd" "$WORK/junit.xml" 2>"$WORK/xmllint" ||
    { cat "$WORK/xmllint" >&2; fail "JUnit report does not validate"; }
}

# junit_attr XPATH: prints an XPath string result of the JUnit report.
junit_xpath() { xmllint --xpath "$1" "$WORK/junit.xml" 2>/dev/null || true; }

# failed_under RULE: how many failing testcases broke RULE (a failure is filed
# under the rules its failing checks broke: the `failed_rule` properties; the
# classname is the case's own and never changes with the outcome).
failed_under() {
  local n
  n=$(junit_xpath "count(//testcase[failure][properties/property[@name='failed_rule'][@value='$1']])")
  echo "${n%.*}"
}

# failed_rules_other_than RULE...: the distinct failed rules of the report
# that are none of RULE... (one per line; empty when every failure is one of them).
failed_rules_other_than() {
  local keep=" $* " r
  junit_xpath "//testcase[failure]/properties/property[@name='failed_rule']/@value" |
    sed -n 's/^ *value="\(.*\)"$/\1/p' | sort -u | while IFS= read -r r; do
      case "$keep" in *" $r "*) ;; *) echo "$r" ;; esac
    done
}

# start_grpc_server [ARGS...]: products_server with its gRPC front on a free
# port too; sets BASE_URL and GRPC_ADDRESS (exported as IDCONFORM_GRPC_ADDRESS).
start_grpc_server() { start_server "$@"; }  # every server speaks gRPC (start_server)
