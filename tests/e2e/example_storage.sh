# The example server's PostgreSQL storage (products_server --store-pg, what
# scripts/demo.sh audits): the packs of the example profile run against the
# server, the run leaves nothing in its tables but the seeded rows, and
# `idconform db --target` with the same profile audits them clean; a defect
# of the stored ids is caught by the database audit under its rule, from the
# kinds the profile declares.
source "$(dirname "$0")/lib.sh"
source "$SRC/scripts/start_pg.sh"
trap 'stop_pg; cleanup' EXIT
PROFILE="$SRC/examples/products.target.yaml"

# serve DB [DEFECT]: a fresh database DB and the server storing into it, with 20 seeded products
serve() {
  pg_admin -d postgres -c "CREATE DATABASE $1"
  DB="host=$PGSOCK port=$PGPORT dbname=$1 user=postgres"
  start_server --store-pg "$DB" --seed 20 ${2:+--defect "$2"}
}
audit() {
  set +e
  "$IDCONFORM_BIN" db "$DB" --target "$PROFILE" --junit "$WORK/db.xml" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}
rows() { pg_admin -d "$1" -At -c "SELECT count(*) FROM $2"; }

# 1. The conforming server: the run passes and leaves only the seeded rows; the audit is clean.
serve shop
run_idconform --target "$PROFILE" --concurrency 4
expect_code 0
[ "$(rows shop products)" = 20 ] || fail "the run left $(rows shop products) products, not the 20 seeded"
[ "$(rows shop categories)" = 4 ] || fail "the run left $(rows shop categories) categories, not the 4 seeded"
audit
expect_code 0
[ ! -s "$WORK/out" ] || { cat "$WORK/out" >&2; fail "the conforming server's storage has findings"; }
expect_stderr "OK audited shop (PostgreSQL 15"
expect_stderr "2 tables, 6 columns read"
expect_stderr "resources without stored_in: in the target profile, not declared to the audit: orders, staff"
for want in "public.products.id values [DATA-ID-001]" "public.products.tracking_id values [DATA-ID-003]" \
    "public.products.viewable_id unique [DATA-ID-006]" "public.products.viewable_id values [DATA-ID-002]" "public.products.category_id reference type [DATA-ID-002]"; do
  [ "$(xmllint --xpath "count(//testcase[@name='$want'])" "$WORK/db.xml")" = 1 ] || fail "no case '$want'"
done
echo "ok: the conforming server's storage"

# 2. Defects of the stored ids, each caught by the audit under its rule.
check() {  # DEFECT RULE LINE
  serve "s_${1//-/_}" "$1"
  audit
  expect_code 1
  grep -qF -- "$3" "$WORK/out" || { cat "$WORK/out" >&2; fail "$1: the audit does not say: $3"; }
  local other
  other=$(xmllint --xpath '//testcase[failure]/@name' "$WORK/db.xml" 2>/dev/null | grep -o '\[[^]]*\]' | sort -u | grep -vxF "[$2]" || true)
  [ -z "$other" ] || fail "$1: failures under other rules than $2: $other"
  kill "${PIDS[-1]}"
  echo "ok: $1 caught under $2"
}
check v4-ids DATA-ID-001 "public.products.id: DATA-ID-001: 20 UUIDs not of version 7 in 20 values: v4 20"
check mixed-tracking-versions DATA-ID-003 "public.products.tracking_id: DATA-ID-003: 10 UUIDs not of version 4 in 20 values"
serve s_derived derived-time
audit
expect_code 0
grep -qF "public.products.created_at: DATA-ID-005: warning: created_at is equal to the v7 timestamp of id on every one of 20 rows" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "derived-time: no DATA-ID-005 warning"; }
echo "ok: derived-time warned under DATA-ID-005"
echo "ok: example storage"
