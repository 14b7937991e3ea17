# A closed port gives exit 3 and <error>s (over a profile, one: the
# preflight's, and no contract result); a server that accepts and never
# answers gives a timeout <error>; retries are counted in the report.
source "$(dirname "$0")/lib.sh"
BASE_URL=http://127.0.0.1:1
run_idconform "$SRC/suites/data-id-001.yaml" --retries 1
expect_code 3
junit_valid
[ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "a transport error was reported as a failure"
grep -q '<error' "$WORK/junit.xml" || fail "no <error> for a closed port"
expect_stderr "connection refused"
expect_stderr "2 attempts"

# The packs over a closed port: the preflight finds the target unreachable
# and stops the run before any contract case; one <error>, said once, and
# the note says why nothing else ran.
IDCONFORM_GRPC_ADDRESS=127.0.0.1:1 run_idconform --target "$SRC/examples/products.target.yaml"
expect_code 3
junit_valid
refused=$(grep -c "connection refused to 127.0.0.1:1" "$WORK/err" || true)
[ "$refused" -le 3 ] || { cat "$WORK/err" >&2; fail "the unreachable cause was said $refused times"; }
expect_stderr "NOTE the run stopped before any contract case: step 'the owner is let in to create': connect: connection refused to 127.0.0.1:1"
[ "$(junit_xpath 'count(//testcase/error)')" = 1 ] || fail "expected exactly one <error> (the preflight's)"
[ "$(junit_xpath 'count(//testcase/failure)')" = 0 ] || fail "an unreachable target gave failures"
[ "$(junit_xpath "count(//testsuite[@name!='idconform notes'])")" = 1 ] || fail "suites ran after the preflight stopped the run"

# a peer that accepts connections and never answers
python3 - "$WORK/port" <<'PY' &
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(64)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
PY
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
BASE_URL="http://127.0.0.1:$(cat "$WORK/port")"
run_idconform "$SRC/suites/data-id-001.yaml" --timeout 300ms
expect_code 3
junit_valid
grep -q '<error message="[^"]*timeout' "$WORK/junit.xml" || fail "no timeout <error>"
echo "ok: closed port and silent peer are transport errors"
