# idconform db against a real PostgreSQL 15 (one server for every case,
# started by scripts/start_pg.sh in a temporary directory, as a non-root user):
# the conforming schema audits clean, each defect schema fails under its one
# rule only, a role with nothing but SELECT is enough, and bad input
# (unreachable server, wrong or missing password, a missing privilege, a bad
# connection string or config) gets its exit code, said once, with no
# password in any output.
source "$(dirname "$0")/lib.sh"
source "$SRC/scripts/start_pg.sh"
trap 'stop_pg; cleanup' EXIT
pg_admin -d postgres -c "CREATE DATABASE shop"
pg_admin -d shop -f "$SRC/tests/e2e/db/schemas.sql" >/dev/null
SOCK="host=$PGSOCK port=$PGPORT dbname=shop"
TCP="host=127.0.0.1 port=$PGPORT dbname=shop"

# run_db ARGS...: idconform db with JUnit and JSON reports; CODE, $WORK/out, $WORK/err.
run_db() {
  rm -f "$WORK/junit.xml" "$WORK/report.json"
  set +e
  "$IDCONFORM_BIN" db --junit "$WORK/junit.xml" --json "$WORK/report.json" "$@" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}
expect_out() { grep -qF -- "$1" "$WORK/out" || { cat "$WORK/out" >&2; fail "stdout lacks: $1"; }; }
# no_secret TEXT: TEXT is in none of the outputs and reports
no_secret() {
  for f in "$WORK/out" "$WORK/err" "$WORK/junit.xml" "$WORK/report.json"; do
    [ -f "$f" ] || continue
    if grep -qF -- "$1" "$f"; then fail "the password is in $(basename "$f")"; fi
  done
}

# 1. The conforming schema: clean, every check passed, the R6 detail table said as allowed.
run_db "$SOCK user=postgres" --schema good
expect_code 0
[ ! -s "$WORK/out" ] || { cat "$WORK/out" >&2; fail "the conforming schema has findings"; }
junit_valid
[ "$(junit_xpath 'count(//testcase[failure or error])')" = 0 ] || fail "the conforming schema has failed cases"
for want in "good.orders.id v7 timestamps [DATA-ID-001]" "good.order_lines key kind [R6]" "good.orders.customer_id reference type [DATA-ID-002]" \
    "good.customers.id key default [DATA-ID-001]" "good.customers.id values [DATA-ID-001]" "good.orders.id values [DATA-ID-003]" "good.orders.customer_id values [DATA-ID-007]" "good.customers.id unique [DATA-ID-006]"; do
  [ "$(junit_xpath "count(//testcase[@name='$want'])")" = 1 ] || fail "no passed case '$want'"
done
grep -q "a detail table.s key, allowed (R6)" "$WORK/report.json" || fail "the composite key is not reported as allowed by R6"
expect_stderr "OK audited shop (PostgreSQL 15"
# the HTML report of the same audit (the reporters' registry, as for run and scan)
"$IDCONFORM_BIN" db "$SOCK user=postgres" --schema d_default --html "$WORK/db.html" >/dev/null 2>&1 || true
grep -q "d_default.customers.id key default" "$WORK/db.html" || fail "the HTML report lacks the finding"

# 2. One defect per schema, failing under its rule only.
check_defect() {  # SCHEMA RULE LINE [ARGS...]
  local schema=$1 rule=$2 line=$3
  shift 3
  run_db "$SOCK user=postgres" --schema "$schema" "$@"
  expect_code 1
  expect_out "$line"
  junit_valid
  [ "$(failed_under "$rule")" -ge 1 ] || fail "$schema: no failure under $rule"
  local other
  other=$(failed_rules_other_than "$rule")
  [ -z "$other" ] || fail "$schema: failures under other rules than $rule: $other"
  echo "ok: $schema fails under $rule"
}
check_defect d_r1 R1 "R1: key kinds differ: autoincrement in 1 table; uuid in 2 tables; not uuid: d_r1.invoices"
printf 'columns:\n  customers.id: uuidv7\n' >"$WORK/v7.yaml"
check_defect d_default DATA-ID-001 "d_default.customers.id: DATA-ID-001: DEFAULT gen_random_uuid() makes version 4 UUIDs" --config "$WORK/v7.yaml"
check_defect d_v4 DATA-ID-001 "d_v4.customers.id: DATA-ID-001: 10 UUIDs not of version 7 in 10 values: v4 10"
check_defect d_future DATA-ID-001 "d_future.customers.id: DATA-ID-001: 2 v7 timestamps in the future of 12 v7 values; the first at 2100-01-01T00:00:00.001Z"
check_defect d_mixed DATA-ID-003 "d_mixed.items.batch_uuid: DATA-ID-003: mixed UUID versions in 30 values: v4 10, v7 20"
check_defect d_dummy DATA-ID-007 "d_dummy.things.owner_id: DATA-ID-007: 2 dummy values in 12 values (and 1 null): Nil UUID 1, Max UUID 1"
expect_out "d_dummy.things.code_id: DATA-ID-007: 2 dummy values in 12 values (and 1 null): '' 1, '0' 1"
check_defect d_spelling DATA-ID-002 "d_spelling.customers.id: DATA-ID-002: 2 values in another spelling in 12 values; the first: upper-case form of a valid UUIDv7"
check_defect d_reftype DATA-ID-002 "d_reftype.orders.customer_id: DATA-ID-002: a reference of type integer to d_reftype.customers.id of type bigint"
check_defect d_unique DATA-ID-006 "d_unique.products.id: DATA-ID-006: no unique constraint"
expect_out "d_unique.products.id: DATA-ID-006: 1 value held by more than one row (e.g. "
check_defect d_r2 R2 "d_r2.tickets.id: R2: DEFAULT fx.ulid(): the database makes the id" --config "$SRC/tests/e2e/db/ulid.yaml"
check_defect d_r4 R4 "d_r4.tickets.id: R4: 2 ULIDs not in lower case in 12 values" --config "$SRC/tests/e2e/db/ulid.yaml"
# every guess is said
run_db "$SOCK user=postgres" --schema d_v4
expect_out "[guessed: DEFAULT fx.uuid_generate_v7() makes version 7 UUIDs, so the key holds uuidv7]"
run_db "$SOCK user=postgres" --schema w_v4
expect_code 0
expect_out "w_v4.sessions.id: DATA-ID-001: warning: DEFAULT gen_random_uuid() makes version 4 UUIDs; no kind is declared"
[ -z "$(failed_rules_other_than none)" ] || fail "an undeclared v4 key table has failures"

# the text-form advisory: a warning beside d_spelling's failure, the CHECK of good.customers.viewable_id said
run_db "$SOCK user=postgres" --schema d_spelling
expect_out "d_spelling.customers.id: DATA-ID-002: warning: an id stored as text without a CHECK constraint on its form"
run_db "$SOCK user=postgres" --schema good
grep -q 'its form is constrained by customers_viewable_id_check' "$WORK/report.json" || fail "the CHECK is not said"

# uuidv8-legacy keys (made by idconform gen with a salt): flag, entity type per table, hash
export LEGACY_SALT=Salt-Not-In-Any-Report-61
ids_of() { "$IDCONFORM_BIN" gen -k uuidv8-legacy -n "$1" --legacy-id "$2" --entity-type "$3" --salt-env LEGACY_SALT; }
{
  echo "CREATE SCHEMA d_legacy_ok; CREATE TABLE d_legacy_ok.locations (id uuid PRIMARY KEY);"
  echo "CREATE SCHEMA d_legacy_type; CREATE TABLE d_legacy_type.clients (id uuid PRIMARY KEY);"
  ids_of 5 100 200 | sed "s/.*/INSERT INTO d_legacy_ok.locations VALUES ('&');/"
  { ids_of 3 100 402; ids_of 1 900 500; } | sed "s/.*/INSERT INTO d_legacy_type.clients VALUES ('&');/"
  for s in d_legacy_ok d_legacy_type; do echo "GRANT USAGE ON SCHEMA $s TO auditor; GRANT SELECT ON ALL TABLES IN SCHEMA $s TO auditor;"; done
} | pg_admin -d shop >/dev/null
printf 'columns:\n  locations.id: uuidv8-legacy\n  clients.id: uuidv8-legacy\n' >"$WORK/legacy.yaml"
run_db "$SOCK user=postgres" --schema d_legacy_ok --config "$WORK/legacy.yaml" --legacy-salt-env LEGACY_SALT
expect_code 0
grep -q 'the hash bits of 5 legacy ids verify with the salt' "$WORK/report.json" || fail "the legacy hashes were not verified"
grep -q '"entity type 200 5"' "$WORK/report.json" || fail "the entity type is not said"
no_secret Salt-Not-In-Any-Report-61
check_defect d_legacy_type LEGACY-DECODE "d_legacy_type.clients.id: LEGACY-DECODE: the keys decode to 2 entity types: 402 3, 500 1" \
  --config "$WORK/legacy.yaml" --legacy-salt-env LEGACY_SALT
LEGACY_SALT=another-salt check_defect d_legacy_ok LEGACY-HASH "d_legacy_ok.locations.id: LEGACY-HASH: 5 legacy ids whose hash bits do not verify of 5" \
  --config "$WORK/legacy.yaml" --legacy-salt-env LEGACY_SALT
run_db "$SOCK user=postgres" --schema d_legacy_ok --config "$WORK/legacy.yaml"
expect_code 0
grep -q 'no salt given' "$WORK/report.json" || fail "the unchecked hash is not said"

# DATA-ID-005: a time derived from the id is a warning, not a failure
run_db "$SOCK user=postgres" --schema d_time
expect_code 0
expect_out "d_time.orders.created_at: DATA-ID-005: warning: created_at is equal to the v7 timestamp of id on every one of 10 rows: derived from the id?"
run_db "$SOCK user=postgres" --schema good
grep -q 'rows with a v7 key equal to id.s timestamp' "$WORK/report.json" || fail "good.orders.placed_at was not compared"

# 3. A column of a type it does not read: said and skipped.
run_db "$SOCK user=postgres" --schema d_type
expect_code 0
expect_out "d_type.things.legacy_id: skipped: type numeric is not one idconform db reads"
[ "$(junit_xpath 'count(//testcase[skipped])')" = 1 ] || fail "the numeric column is not a skipped case"

# --max-rows: each column read only so far
run_db "$SOCK user=postgres" --schema d_mixed --max-rows 5
grep -q 'no Nil, Max, .. or .0. in 5 values' "$WORK/report.json" || fail "--max-rows 5 did not stop at 5 values"
expect_stderr "2 columns read (10 values)"

# 4. A role with SELECT and nothing else is enough (the password from PGPASSWORD, over TCP).
PGPASSWORD=pw-Secret-4417 run_db "$TCP user=auditor"
expect_code 1  # every schema: the defects are found
[ "$(junit_xpath 'count(//testcase[error])')" = 0 ] || { cat "$WORK/err" >&2; fail "errors with a SELECT-only role"; }
no_secret pw-Secret-4417
PGPASSWORD=pw-Secret-4417 run_db "$TCP user=auditor" --schema good
expect_code 0
echo "ok: a SELECT-only role"

# 5. A password in a URI (and in key=value form) is masked in every output.
run_db "postgresql://auditor:pw-Secret-4417@127.0.0.1:$PGPORT/shop" --schema good
expect_code 0
no_secret pw-Secret-4417
grep -qF "postgresql://auditor:[REDACTED]@127.0.0.1:$PGPORT/shop" "$WORK/report.json" || fail "the URI is not shown masked"
run_db "$TCP user=auditor password=pw-Secret-4417" --schema good
expect_code 0
no_secret pw-Secret-4417
grep -qF "password=[REDACTED]" "$WORK/junit.xml" || fail "the key=value password is not shown masked"
echo "ok: passwords masked"

# 6. Wrong and missing credentials: exit 3, said once.
run_db "postgresql://auditor:wrong-Pw-5531@127.0.0.1:$PGPORT/shop"
expect_code 3
expect_stderr "the server refused the connection"
expect_stderr "password authentication failed for user \"auditor\""
[ "$(grep -c . "$WORK/err")" = 1 ] || { cat "$WORK/err" >&2; fail "the refusal is not said once"; }
no_secret wrong-Pw-5531
[ "$(junit_xpath 'count(//testcase[error])')" = 1 ] || fail "the refusal is not one error case"
PGPASSFILE=/dev/null run_db "$TCP user=auditor"
expect_code 3
expect_stderr "the server asks for a password and none was given"
echo "ok: credentials"

# 7. A missing privilege is named; what can be read still is.
PGPASSWORD=pw-Limited-9921 run_db "$SOCK user=limited" --schema good
expect_code 3
expect_stderr "good.orders.id: error: reading good.orders.id: the role may not SELECT the column (grant SELECT on good.orders)"
[ "$(junit_xpath 'count(//testcase[@name="good.customers.id values [DATA-ID-007]"][not(error)])')" = 1 ] ||
  fail "the readable table was not audited"
echo "ok: missing privilege"

# 7b. A table that vanishes during the run: a session holds d_vanish.b locked, the audit waits
# for it, the table is dropped: said, and the tables before and after it are still audited.
coproc LOCKER { "$PGBIN/psql" -X -q -At -h "$PGSOCK" -p "$PGPORT" -U postgres -d shop; }
echo "BEGIN; LOCK TABLE d_vanish.b IN ACCESS EXCLUSIVE MODE; SELECT 'locked';" >&"${LOCKER[1]}"
read -r -t 20 line <&"${LOCKER[0]}" && [ "$line" = locked ] || fail "could not lock d_vanish.b"
set +e
"$IDCONFORM_BIN" db "$SOCK user=postgres" --schema d_vanish --json "$WORK/report.json" >"$WORK/out" 2>"$WORK/err" &
audit_pid=$!
set -e
waiting=""
for _ in $(seq 1 200); do
  waiting=$(pg_admin -d shop -At -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'idconform db' AND wait_event_type = 'Lock'")
  [ "$waiting" = 1 ] && break
  sleep 0.05
done
[ "$waiting" = 1 ] || fail "the audit never waited for d_vanish.b"
echo "DROP TABLE d_vanish.b; COMMIT;" >&"${LOCKER[1]}"
exec {LOCKER[1]}>&-
set +e
wait "$audit_pid"
CODE=$?
set -e
expect_code 3
expect_stderr "d_vanish.b.id: error: reading d_vanish.b.id: ERROR:  relation \"d_vanish.b\" does not exist"
grep -q '"d_vanish.c.id values \[DATA-ID-007\]"' "$WORK/report.json" || fail "the table after the vanished one was not audited"
grep -q '"d_vanish.a.id values \[DATA-ID-007\]"' "$WORK/report.json" || fail "the table before the vanished one is missing"
echo "ok: a vanished table"

# 8. Unreachable: exit 3, said once.
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
run_db "host=127.0.0.1 port=$closed dbname=shop user=postgres connect_timeout=5"
expect_code 3
[ "$(grep -c . "$WORK/err")" = 1 ] || { cat "$WORK/err" >&2; fail "unreachable is not said once"; }
expect_stderr "Connection refused"
junit_valid
echo "ok: unreachable"

# 9. Bad input: a connection string libpq cannot read, a bad config (exit 2).
run_db "host=/tmp password=Zz-Secret-77 junk"
expect_code 2
expect_stderr "the connection string cannot be read"
no_secret Zz-Secret-77
printf 'columns:\n  orders.id: uuidv9\n' >"$WORK/bad.yaml"
run_db "$SOCK user=postgres" --config "$WORK/bad.yaml"
expect_code 2
expect_stderr "bad.yaml:2:14: error: unknown id kind 'uuidv9'"
printf 'colums: {}\n' >"$WORK/bad.yaml"
run_db "$SOCK user=postgres" --config "$WORK/bad.yaml"
expect_code 2
expect_stderr "did you mean 'columns'"
printf 'columns:\n  nowhere.id: uuidv7\n' >"$WORK/gone.yaml"
run_db "host=$PGSOCK port=$PGPORT dbname=postgres user=postgres" --config "$WORK/gone.yaml"
expect_code 2
expect_stderr "the config declares nowhere.id, which is not a column of the audited database"
run_db "$SOCK user=postgres" --schema good --config "$WORK/gone.yaml"
expect_code 0
expect_out "nowhere.id: skipped: the config declares nowhere.id, which is not a column of the audited schemas: not checked"
echo "ok: bad input"

# 10. A declared kind: the v4 keys of w_v4 declared uuidv4 pass without the warning; d_v4's v7 default
# where v4 is declared is DATA-ID-003.
printf 'columns:\n  sessions.id: uuidv4\n' >"$WORK/v4-sessions.yaml"
printf 'columns:\n  d_v4.customers.id: uuidv4\n' >"$WORK/v4.yaml"
run_db "$SOCK user=postgres" --schema w_v4 --config "$WORK/v4-sessions.yaml"
expect_code 0
[ ! -s "$WORK/out" ] || { cat "$WORK/out" >&2; fail "a declared v4 key with a v4 default is still said"; }
run_db "$SOCK user=postgres" --schema d_v4 --config "$WORK/v4.yaml"
expect_code 1
expect_out "d_v4.customers.id: DATA-ID-003: DEFAULT fx.uuid_generate_v7() makes version 7 UUIDs where the column holds uuidv4"
# 11. Waivers work as for run: the DATA-ID-001 default finding waived.
cat >"$WORK/waivers.yaml" <<YAML
waivers:
  - rule: DATA-ID-001
    case: "d_default.customers.id *"
    reason: legacy table, v7 default in TICKET-1
    owner: dba@example.com
    expires: 2999-12-31
YAML
run_db "$SOCK user=postgres" --schema d_default --config "$WORK/v7.yaml" --waivers "$WORK/waivers.yaml" --sarif "$WORK/db.sarif"
expect_code 0
grep -q '"waived"' "$WORK/report.json" || fail "the waived finding is not marked waived"
expect_out "d_default.customers.id: DATA-ID-001: DEFAULT gen_random_uuid() makes version 4 UUIDs"
grep "DATA-ID-001: DEFAULT gen_random_uuid()" "$WORK/out" | grep -F "[waived]" >/dev/null || fail "the waived finding's line does not say it is waived"
grep -E "DATA-ID-002" "$WORK/out" | grep -F "[waived]" >/dev/null && fail "a finding the waiver does not cover is marked waived"
expect_stderr "OK audited shop"
expect_stderr "1 failed check (DATA-ID-001 1), 1 of them waived"
# SARIF: the waived finding is a suppressed result at its logical location; a failure is an error
python3 - "$WORK/db.sarif" "$SRC/tests/schema/sarif-2.1.0-subset.schema.json" <<'PY' || fail "the SARIF report is not what it should be"
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))  # the lint test's SARIF 2.1.0 subset schema
assert doc["version"] == "2.1.0"
res = doc["runs"][0]["results"]
assert len(res) == 1, res
r = res[0]
assert r["ruleId"] == "DATA-ID-001" and r["level"] == "error"
assert r["locations"][0]["logicalLocations"][0] == {"fullyQualifiedName": "d_default.customers.id", "kind": "column"}
assert r["suppressions"][0]["kind"] == "external"
PY
run_db "$SOCK user=postgres" --schema d_r2 --config "$SRC/tests/e2e/db/ulid.yaml" --sarif "$WORK/db.sarif"
expect_code 1
python3 - "$WORK/db.sarif" "$SRC/tests/e2e/db/ulid.yaml" "$SRC/tests/schema/sarif-2.1.0-subset.schema.json" <<'PY' || fail "the SARIF report of d_r2 is not what it should be"
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[3])))
res = doc["runs"][0]["results"]
err = [r for r in res if r["level"] == "error"]
assert [r["ruleId"] for r in err] == ["R2"], res
loc = err[0]["locations"][0]
assert loc["physicalLocation"]["artifactLocation"]["uri"] == sys.argv[2] and loc["physicalLocation"]["region"]["startLine"] == 3
assert "suppressions" not in err[0]
assert any(r["level"] == "warning" and r["ruleId"] == "DATA-ID-002" for r in res)  # the text-form advisory
PY
echo "ok: declared kinds and waivers"

# 12. The target profile declares the columns (stored_in:): the kinds of its
# ids, references and viewable ids, with the profile's line as the basis.
PROFILE="$SRC/tests/e2e/db/shop.target.yaml"
run_db "$SOCK user=postgres" --schema good --target "$PROFILE"
expect_code 0
[ ! -s "$WORK/out" ] || { cat "$WORK/out" >&2; fail "the conforming schema has findings with the profile's declarations"; }
expect_stderr "resources without stored_in: in the target profile, not declared to the audit: sessions"
grep -q "declared uuidv7 (.*shop.target.yaml:21:" "$WORK/report.json" || fail "orders.id is not judged as the profile's uuidv7"
grep -q "declared viewable (.*shop.target.yaml:15:" "$WORK/report.json" || fail "the viewable id is not judged as the profile's"
check_defect d_default DATA-ID-001 "d_default.customers.id: DATA-ID-001: DEFAULT gen_random_uuid() makes version 4 UUIDs" --target "$PROFILE"
grep -q "declared uuidv7 (.*shop.target.yaml:14:" "$WORK/report.json" || fail "the d_default finding does not name the profile's line"
# a config's declaration wins over the profile's
printf 'columns:\n  customers.id: uuidv4\n' >"$WORK/v4c.yaml"
run_db "$SOCK user=postgres" --schema d_default --target "$PROFILE" --config "$WORK/v4c.yaml"
expect_code 1
[ "$(failed_rules_other_than DATA-ID-003)" = "" ] || fail "the profile's uuidv7 is used over the config's uuidv4"
# a profile that does not load: exit 2 at its line
printf 'name: x\nbase_url: http://127.0.0.1:9\nresources:\n  a:\n    create: {path: /a}\n    stored_in: a.b.c\n' >"$WORK/bad.target.yaml"
run_db "$SOCK user=postgres" --target "$WORK/bad.target.yaml"
expect_code 2
expect_stderr "bad.target.yaml:6:16"
expect_stderr "'a.b.c' is not a table name"
echo "ok: declarations from a target profile"
echo "ok: db"
