# `run --dry-run`: the example profile's packs planned against a listener
# that records every connection: nothing connects; stdout names per suite
# the target (expanded, its credentials masked), the setup, the cases and the
# endpoints it would create at, change and delete at, with the cleanup's
# delete; --filter narrows it (suites with nothing selected are left out,
# their cases counted as filtered out); a selection of nothing exits 2.
source "$(dirname "$0")/lib.sh"
start_fixture connection_log_server.py "$WORK/connections"
port=${BASE_URL##*:}
dry() {
  set +e
  IDCONFORM_BASE_URL="http://user:s3cret-pw@127.0.0.1:$port" IDCONFORM_GRPC_ADDRESS="127.0.0.1:$port" \
    "$IDCONFORM_BIN" run --dry-run "$@" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}
expect_out() { grep -qF -- "$1" "$WORK/out" || { cat "$WORK/out" >&2; fail "stdout lacks: $1"; }; }

dry --target "$SRC/examples/products.target.yaml" --junit "$WORK/junit.xml"
expect_code 0
[ -s "$WORK/err" ] && fail "a dry run wrote to stderr: $(cat "$WORK/err")"
[ -e "$WORK/junit.xml" ] && fail "a dry run wrote a report"
expect_out "suite 'data-id-001 products' ("
expect_out "  target   http://user:[REDACTED]@127.0.0.1:$port, grpc 127.0.0.1:$port"
grep -q 's3cret-pw' "$WORK/out" && fail "the dry run shows a credential of the base URL"
expect_out "  setup    POST /v1/categories (create; deleted at the end by DELETE /v1/categories/{id})"
expect_out "  create   POST /v1/products x"
expect_out "  change   PATCH /v1/products/{id} x"
expect_out "  delete   grpc products.v1.Products/DeleteCategory x"
expect_out "(deleted at the end by grpc products.v1.Products/DeleteCategory)"
expect_out ", the preflight"
expect_out "Nothing was sent (--dry-run)."
# the packs' endpoints as the profile fills them in, never their templates
grep -n '\${res\.' "$WORK/out" >&2 && fail "the plan shows a pack's template instead of the profile's endpoint"
expect_out "  create   POST /v1/order-confirmations x"
expect_out "  setup    POST /v1/orders (create; deleted at the end by DELETE /v1/orders/{id})"
grep -q '^in all: [0-9,]* suites, [0-9,]* cases; requests, at most: [0-9,]* create' "$WORK/out" ||
  fail "no totals line: $(tail -1 "$WORK/out")"

dry --target "$SRC/examples/products.target.yaml" --filter 'another principal cannot read*'
expect_code 0
expect_out "suite 'data-id-004 products' ("
expect_out ", the preflight"
grep -q "suite 'data-id-001 " "$WORK/out" && fail "--filter left a suite in the plan that it selects nothing of"
grep -q '^in all: .* filtered out)' "$WORK/out" || fail "the filtered-out cases are not counted"

dry --target "$SRC/examples/products.target.yaml" --filter 'no case is called this'
expect_code 2
expect_stderr "--filter 'no case is called this' selects none of the"

dry "$SRC/suites/data-id-001.yaml" --base-url "https://ops:tok3n@127.0.0.1:$port/api"
expect_code 0
expect_out "target   https://ops:[REDACTED]@127.0.0.1:$port/api (--base-url)"
grep -q 'tok3n' "$WORK/out" && fail "the dry run shows a credential of --base-url"

# an unset variable every suite needs: one error each, at its `${env:`, before anything is sent
sed 's/\${env:IDCONFORM_TOKEN_A:-alice}/${env:IDCONFORM_E2E_UNSET_TOKEN}/' "$SRC/examples/products.target.yaml" \
  >"$WORK/unset.target.yaml"
unset IDCONFORM_E2E_UNSET_TOKEN
line=$(grep -n 'IDCONFORM_E2E_UNSET_TOKEN' "$WORK/unset.target.yaml" | cut -d: -f1)
col=$(awk -v l="$line" 'NR == l { print index($0, "${env:IDCONFORM_E2E_UNSET_TOKEN") }' "$WORK/unset.target.yaml")
IDCONFORM_GRPC_ADDRESS="127.0.0.1:$port" run_idconform --target "$WORK/unset.target.yaml"
expect_code 2
expect_stderr "$WORK/unset.target.yaml:$line:$col: error: environment variable IDCONFORM_E2E_UNSET_TOKEN is not set, and principal 'alice', header Authorization needs it"
expect_stderr "nothing was sent"
[ "$(grep -c 'IDCONFORM_E2E_UNSET_TOKEN is not set' "$WORK/err")" = 1 ] || fail "the unset variable is not told exactly once"
[ -e "$WORK/junit.xml" ] && fail "a run refused before it started wrote a report"
dry --target "$WORK/unset.target.yaml"
expect_code 2
expect_stderr "IDCONFORM_E2E_UNSET_TOKEN is not set"
expect_out "Nothing was sent (--dry-run)."

sleep 0.2
[ -s "$WORK/connections" ] && fail "a dry run connected to the target: $(cat "$WORK/connections")"
# list --target: what the packs check for this profile, as run would expand them; nothing sent either
"$IDCONFORM_BIN" list --target "$SRC/examples/products.target.yaml" >"$WORK/list" 2>"$WORK/err" || fail "list --target failed"
grep -qP '^DATA-ID-004\tdata-id-004 products\tanother principal cannot read the entity by its id\t' "$WORK/list" ||
  fail "list --target lacks the packs' cases: $(head -3 "$WORK/list")"
grep -qP '^-\tpreflight ' "$WORK/list" || fail "list --target lacks the preflight"
[ -s "$WORK/connections" ] && fail "list --target connected to the target"

# a real run's reports say the base URL it reached, expanded, its credentials masked
set +e
IDCONFORM_BASE_URL="http://user:s3cret-pw@127.0.0.1:$port" IDCONFORM_GRPC_ADDRESS="127.0.0.1:$port" \
  "$IDCONFORM_BIN" run --no-progress --target "$SRC/examples/products.target.yaml" --json "$WORK/run.json" \
  >/dev/null 2>&1
set -e
python3 - "$WORK/run.json" "$port" <<'PY'
import json, sys
meta = json.load(open(sys.argv[1]))["run"]["metadata"]
target = [m for m in meta if m["name"] == "target"] if isinstance(meta, list) else [{"value": meta.get("target")}]
assert target and target[0]["value"] == f"products-server http://user:[REDACTED]@127.0.0.1:{sys.argv[2]}", target
PY
grep -q 's3cret-pw' "$WORK/run.json" && fail "the JSON report holds the base URL's password"
echo "ok: dry run"
