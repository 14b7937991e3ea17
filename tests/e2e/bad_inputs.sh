# Bad input files and option values (#14): each ends quickly with exit 2 and a
# message (file:line:col for files), never a hang, memory exhaustion or an
# odd run. Needs only the idconform binary.
source "$(dirname "$0")/lib.sh"
ic() { set +e; timeout 20 "$IDCONFORM_BIN" "$@" >"$WORK/out" 2>"$WORK/err"; CODE=$?; set -e; }
err_has() { grep -qF -- "$1" "$WORK/err" || { cat "$WORK/err" >&2; fail "stderr lacks: $1"; }; }

printf 'name: t\ncases: []\n' >"$WORK/ok.yaml"

# Numeric options out of range: exit 2, the option and the range named.
for bad in "--timeout nan" "--timeout inf" "--timeout 9223372036854775807ms" "--timeout 0" \
           "--connect-timeout 1e300s" "--clock-skew inf" "--clock-skew -1s" "--rate-limit nan/s" \
           "--rate-limit inf" "--rate-limit 0/s" "--body-cap -1" "--body-cap 0" "--body-cap 99999999999999999999"; do
  # shellcheck disable=SC2086
  ic run "$WORK/ok.yaml" $bad
  expect_code 2
  err_has "${bad%% *}: '"
done
ic run "$WORK/ok.yaml" --timeout 25h
err_has "the range is 1ms to 24h"
ic run "$WORK/ok.yaml" --timeout 2s --connect-timeout 500ms --clock-skew 0 --rate-limit 600/m --body-cap 1024
expect_code 0
printf '{}\n' >"$WORK/x.ndjson"
ic scan "$WORK/x.ndjson" --max-violations -1
expect_code 2
err_has "--max-violations: '-1' is not a whole number"
ic gen --kind uuidv8-legacy --legacy-id -1
expect_code 2
IDCONFORM_LEGACY_SALT=s ic gen --kind uuidv8-legacy --legacy-id 4294967295 -n 2
expect_code 2
err_has "past the largest 32-bit legacy id"

# Files that hung or exhausted memory, as suites and as profiles.
printf ',\n' >"$WORK/comma.yaml"
printf -- '- a\n,' >"$WORK/seq_comma.yaml"
for f in comma seq_comma; do
  ic run "$WORK/$f.yaml"
  expect_code 2
  err_has "error: YAML syntax error: ',' outside a [list] or {mapping}"
  ic run --target "$WORK/$f.yaml"
  expect_code 2
  err_has "',' outside a [list] or {mapping}"
done
ic run "$WORK/comma.yaml"
err_has "$WORK/comma.yaml:1:1:"

python3 - "$WORK/bomb.yaml" <<'PY'
import sys
lines = ["name: t", "vars:", '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
for prev, cur in zip("abcdefgh", "bcdefghi"):
    lines.append("  %s: &%s [%s]" % (cur, cur, ",".join(["*" + prev] * 9)))
lines.append("cases: []")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
ic run "$WORK/bomb.yaml"
expect_code 2
err_has "$WORK/bomb.yaml:8:10: error: aliases repeat more than 100000 nodes"

ic run /dev/zero
expect_code 2
err_has "'/dev/zero' is a character device"
ic run --target /dev/zero
expect_code 2

printf 'name: t\0x\ncases: []\n' >"$WORK/nul.yaml"
ic run "$WORK/nul.yaml"
expect_code 2
err_has "$WORK/nul.yaml:1:8: error: NUL byte in the file"

printf 'name: t\ncases:\n  - name: caf\xe9\n    steps: [{http: {path: /x}}]\n' >"$WORK/latin1.yaml"
ic run "$WORK/latin1.yaml" --base-url http://127.0.0.1:9
expect_code 2
err_has "$WORK/latin1.yaml:3:14: error: invalid UTF-8 (byte 0xE9)"

python3 -c "import sys; sys.stdout.write('name: t\nvars:\n  v: ' + '['*1000 + ']'*1000 + '\ncases: []\n')" >"$WORK/deep.yaml"
ic run "$WORK/deep.yaml"
expect_code 2
err_has "$WORK/deep.yaml:3:132: error: lists and mappings nested deeper than 128 levels"

# A 40 MB suite is refused at once with the way out, in bounded memory.
python3 - "$WORK/big.yaml" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("name: big\ncases:\n")
    case = "  - name: c%07d\n    steps:\n      - http: {path: /v1/x}\n        expect: {status: 200}\n"
    n = 0
    while f.tell() < 40_000_000:
        f.write(case % n)
        n += 1
PY
set +e
/usr/bin/time -f "%M" -o "$WORK/rss" timeout 20 "$IDCONFORM_BIN" run "$WORK/big.yaml" >"$WORK/out" 2>"$WORK/err"
CODE=$?
set -e
expect_code 2
err_has "error: the suite file is too large to load: 38.1 MiB (YAML files are limited to 8 MiB)"
rss=$(tail -1 "$WORK/rss")
[ "$rss" -lt $((200000 * SLACK_MEM)) ] || fail "a refused 40 MB suite took $rss KB"
echo "ok: bad inputs and option values"
