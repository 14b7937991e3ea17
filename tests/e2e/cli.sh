# The idconform CLI's own commands: inspect (text, JSON Lines, stdin, exit
# codes), gen (every kind, counts, the legacy salt from the environment),
# --help/--version on each, usage errors exit 2.
source "$(dirname "$0")/lib.sh"
ic() { set +e; "$IDCONFORM_BIN" "$@" >"$WORK/out" 2>"$WORK/err"; CODE=$?; set -e; }
out_has() { grep -qF -- "$1" "$WORK/out" || { cat "$WORK/out" >&2; fail "output lacks: $1"; }; }

ic inspect 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
expect_code 0
out_has "canonical valid UUIDv7"
out_has "2022-02-22T19:22:22.000Z (unix_ts_ms 1645557742000)"

ic inspect 017F22E2-79B0-7CC3-98C4-DC0C0C07398F
expect_code 1
out_has "upper-case form of a valid UUIDv7"
out_has "canonical form: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f"

ic inspect ffffffff-ffff-ffff-ffff-ffffffffffff
out_has "Max UUID (special value, not a v4 or v7 identifier)"
out_has "special value: max"

ic inspect --json c232ab00-9414-11ec-b3c8-9f6bdeced846 "{1ec9414c-232a-6b00-b3c8-9f6bdeced846}" 01ARZ3NDEKTSV4RRFFQ69G5FAV
expect_code 1
python3 - "$WORK/out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 3, rows
v1, v6, ulid = rows
assert v1["canonical"] is True and v1["version"] == 1 and v1["gregorian_100ns"] == 0x1EC9414C232AB00, v1
assert v1["node"] == 0x9F6BDECED846 and v1["clock_seq"] == 0x33C8 and v1["variant"] == "rfc9562", v1
assert v6["canonical"] is False and v6["defects"] == ["braces"] and v6["version"] == 6, v6
assert v6["canonical_form"] == "1ec9414c-232a-6b00-b3c8-9f6bdeced846", v6
assert ulid["kind"] == "ulid" and ulid["defects"] == ["upper_case"] and ulid["unix_ms"] == 1469922850259, ulid
for r in rows:
    assert set(["input", "kind", "canonical", "description", "defects"]) <= set(r), r
PY

# The verdict by the rules: canonical lower-case text alone is not enough.
ic inspect 017f22e2-79b0-7cc3-c8c4-dc0c0c07398f
expect_code 1
out_has "canonical: yes"    # the textual answer is kept...
out_has "verdict: not a valid uuid"   # ...and the verdict added
out_has "[variant]"
for bad in 017f22e2-79b0-0cc3-98c4-dc0c0c07398f 017f22e2-79b0-9cc3-98c4-dc0c0c07398f 017f22e2-79b0-fcc3-98c4-dc0c0c07398f \
           017f22e2-79b0-7cc3-08c4-dc0c0c07398f 00000000-0000-0000-0000-000000000000 ffffffff-ffff-ffff-ffff-ffffffffffff; do
  ic inspect "$bad"; expect_code 1
done
ic inspect 017f22e2-79b0-7cc3-98c4-dc0c0c07398f 01aryz6s41tsv4rrffq69g5fav TR-VPFD4XT
expect_code 0
ic inspect --kind v7 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
expect_code 0
out_has "verdict: valid uuidv7"
ic inspect --kind uuidv4 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
expect_code 1
ic inspect --kind ulid 01aryz6s41tsv4rrffq69g5fav
expect_code 0
ic inspect --kind ulid 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
expect_code 1
ic inspect --kind uuidv8-legacy 8000181c-8064-877b-93ed-4b4d43e4997b
expect_code 0
ic inspect --kind uuidv8-legacy 5c146b14-3c52-8afd-938a-375d0df1fbf6
expect_code 1
out_has "[legacy-flag]"
ic inspect --kind uuidv77 017f22e2-79b0-7cc3-98c4-dc0c0c07398f
expect_code 2
grep -qF "did you mean 'uuidv7'?" "$WORK/err" || fail "unknown --kind: no did-you-mean"
ic inspect --help
out_has "Nil and Max are named special values"
out_has "1 some id not valid"

# JSON: verdict and reasons; never invalid UTF-8, whatever the input bytes.
ic inspect --json 017F22E2-79B0-0CC3-C8C4-DC0C0C07398F "$(printf '017f22e2-79b0-7cc3-98c4-dc0c0c0739\xff\xfe')" \
   ffffffff-ffff-ffff-ffff-ffffffffffff 919108f7-52d1-4320-9bac-f847db4148a8
expect_code 1
python3 - "$WORK/out" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
rows = [json.loads(l) for l in raw.decode("utf-8", errors="strict").splitlines()]
assert len(rows) == 4, rows
many, broken, mx, v4 = rows
assert many["valid"] is False and many["verdict"] == "invalid" and many["checked_as"] == "uuid", many
assert {r["code"] for r in many["reasons"]} == {"upper-case", "variant", "version-undefined"}, many
assert all(r["text"] for r in many["reasons"]), many
assert broken["input_hex"].endswith("fffe") and "\ufffd" in broken["input"] and not broken["valid"], broken
assert [r["code"] for r in mx["reasons"]] == ["max"], mx
assert v4["valid"] is True and v4["verdict"] == "valid" and v4["reasons"] == [], v4
PY

printf '017f22e2-79b0-7cc3-98c4-dc0c0c07398f\r\n919108f7-52d1-4320-9bac-f847db4148a8\n' | "$IDCONFORM_BIN" inspect --json >"$WORK/out"
[ "$(wc -l <"$WORK/out")" = 2 ] || fail "stdin: expected 2 JSON lines"
grep -q '"version":4' "$WORK/out" || fail "stdin: v4 not decoded"

ic gen --kind v7 -n 1000
expect_code 0
[ "$(sort -u "$WORK/out" | wc -l)" = 1000 ] || fail "gen v7: ids not distinct"
sort -c "$WORK/out" || fail "gen v7: not monotonic"
"$IDCONFORM_BIN" inspect --json <"$WORK/out" | grep -vq '"version":7' && fail "gen v7 produced a non-v7 id"
ic gen --kind v4 -n 100
"$IDCONFORM_BIN" inspect <"$WORK/out" >/dev/null || fail "gen v4 produced a non-canonical id"
ic gen --kind ulid -n 5
grep -qvE '^[0-9a-hjkmnp-tv-z]{26}$' "$WORK/out" && fail "gen ulid: not lower-case ULIDs"
ic gen --kind viewable -n 50
grep -qvE '^TR-[0-9A-HJKMNP-TV-Z]{7}$' "$WORK/out" && fail "gen viewable: bad format"
ic gen --kind uuidv8-legacy --legacy-id 42
expect_code 2
grep -q "IDCONFORM_LEGACY_SALT" "$WORK/err" || fail "gen uuidv8-legacy without a salt does not say which variable"
IDCONFORM_LEGACY_SALT=idconform-test-salt ic gen --kind uuidv8-legacy --legacy-id 12345 --entity-type 500
expect_code 0
expected=$(python3 - "$SRC/vectors/uuidv8-legacy.yaml" <<'PY'
import sys, re
text = open(sys.argv[1]).read()
for block in text.split("\n  - ")[1:]:
    if re.search(r"\blegacy_id: 12345\b", block) and re.search(r"\bentity_type: 500\b", block):
        print(re.search(r"uuid: \"?([0-9a-f-]{36})", block).group(1)); break
PY
)
[ -n "$expected" ] || fail "no (12345, 500) entry in vectors/uuidv8-legacy.yaml"
[ "$(cat "$WORK/out")" = "$expected" ] || fail "gen uuidv8-legacy differs from the vector file"

ic gen --kind v9
expect_code 2
ic inspect --nope
expect_code 2
for sub in inspect gen run list; do
  ic "$sub" --help; expect_code 0
  ic "$sub" --version; expect_code 0; out_has "idconform "
done
ic --version; expect_code 0; out_has "idconform "

# help COMMAND, unknown commands and options say what they are
ic help; expect_code 0; out_has "Usage: idconform [OPTIONS] SUBCOMMAND"
ic help merge; expect_code 0; out_has "Usage: merge [OPTIONS] IN.json..."
ic help frobnicate; expect_code 2; expect_stderr "unknown command 'frobnicate'"
ic rn; expect_code 2; expect_stderr "unknown command 'rn'; did you mean 'run'?"
ic --bogus run; expect_code 2; expect_stderr "unknown option '--bogus' before the command"
ic; expect_code 2; expect_stderr "Usage: idconform"
ic run --bogus x; expect_code 2; expect_stderr "--bogus"

# --color: always colours a log, never and the default (not a terminal) do not, a bad value is refused
esc=$'\x1b['
IDCONFORM_BASE_URL=http://127.0.0.1:1 ic run --no-progress --color always "$SRC/suites/data-id-001.yaml"
expect_code 3
grep -qF "$esc" "$WORK/err" || fail "--color always wrote no ANSI colour"
for mode in never auto; do
  IDCONFORM_BASE_URL=http://127.0.0.1:1 ic run --no-progress --color "$mode" "$SRC/suites/data-id-001.yaml"
  expect_code 3
  grep -qF "$esc" "$WORK/err" && fail "--color $mode coloured a console that is not a terminal"
done
ic run --color sometimes "$SRC/suites/data-id-001.yaml"; expect_code 2; expect_stderr "--color: sometimes not in {auto,always,never}"
echo "ok: inspect, gen, help and usage errors"
