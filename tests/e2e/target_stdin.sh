# `--target -`: the profile read from standard input, a pipe or a redirected
# file, by run (dry and real) and list; its errors at <stdin>:line:col; a
# terminal or a device refused with a hint; the report names "<stdin>" with
# the sha256 of what was read, and a shard plan is the same as from the file.
source "$(dirname "$0")/lib.sh"
start_server
profile="$SRC/examples/products.target.yaml"
cd "$SRC/examples"  # relative paths of a profile on stdin are relative to the working directory

# a pipe: the dry run plans the same as from the file
set +e
"$IDCONFORM_BIN" run --dry-run --target "$profile" >"$WORK/from_file" 2>&1
cat "$profile" | "$IDCONFORM_BIN" run --dry-run --target - >"$WORK/from_pipe" 2>&1
CODE=$?
set -e
expect_code 0
# the same plan, but for the name positions give the profile by
sed "s|$profile:|<stdin>:|g" "$WORK/from_file" | diff - "$WORK/from_pipe" >&2 || fail "a profile piped in plans otherwise than from its file"
grep -q "<stdin>:" "$WORK/from_pipe" || fail "the plan names no position in the piped profile"

# a redirected file: list sees the packs' cases
set +e
"$IDCONFORM_BIN" list --target - <"$profile" >"$WORK/out" 2>"$WORK/err"
CODE=$?
set -e
expect_code 0
grep -q "^DATA-ID-001	data-id-001 products	" "$WORK/out" || fail "list --target - lists no expanded case"

# a real run: the report names standard input and the sha256 of the bytes read
set +e
IDCONFORM_BASE_URL="$BASE_URL" "$IDCONFORM_BIN" run --no-progress --target - --filter 'a create mints a v7 id*' \
  --json "$WORK/run.json" --junit "$WORK/junit.xml" <"$profile" >"$WORK/out" 2>"$WORK/err"
CODE=$?
set -e
expect_code 0
sha=$(sha256sum "$profile" | cut -d' ' -f1)
python3 - "$WORK/run.json" "$sha" <<'PY' || fail "the JSON report does not name the profile read from stdin"
import json, sys
run = json.load(open(sys.argv[1]))["run"]
md = {m["name"]: m["value"] for m in run["metadata"]}
assert md["profile"] == "<stdin> (sha256 %s)" % sys.argv[2], md["profile"]
assert md["target"].startswith("products-server http://127.0.0.1:"), md["target"]
PY
[ "$(junit_xpath 'count(//testcase[not(failure) and not(error) and not(skipped)])')" -ge 1 ] ||
  fail "the run from stdin passed no case"

# sharding: the plan digest is over the text, the same from stdin as from the file
set +e
"$IDCONFORM_BIN" run --no-progress --target - --shard 1/2 --dry-run <"$profile" \
  >"$WORK/shard_pipe" 2>&1
"$IDCONFORM_BIN" run --no-progress --target "$profile" --shard 1/2 --dry-run >"$WORK/shard_file" 2>&1
set -e
sed "s|$profile:|<stdin>:|g" "$WORK/shard_file" | diff - "$WORK/shard_pipe" >&2 || fail "shard 1/2 of the piped profile differs from the file's"

# errors are at <stdin>:line:col, nothing is sent
set +e
printf 'name: x\nbase_url: http://127.0.0.1:1\nprincipals: {alice: {}}\nresources:\n  products: {create: {path: /p}, colour: red}\n' |
  "$IDCONFORM_BIN" run --target - >"$WORK/out" 2>"$WORK/err"
CODE=$?
set -e
expect_code 2
expect_stderr "<stdin>:5:"
expect_stderr "unknown key 'colour'"

# an empty pipe is an empty profile; a device and a closed stdin are refused with a hint
set +e
: | "$IDCONFORM_BIN" run --target - >"$WORK/out" 2>"$WORK/err"
CODE=$?
set -e
expect_code 2
expect_stderr "<stdin>:1:1: error: the profile file is empty"
for input in /dev/null closed; do
  set +e
  if [ "$input" = closed ]; then "$IDCONFORM_BIN" run --target - <&- >"$WORK/out" 2>"$WORK/err"
  else "$IDCONFORM_BIN" run --target - <"$input" >"$WORK/out" 2>"$WORK/err"; fi
  CODE=$?
  set -e
  expect_code 2
  expect_stderr "cannot read profile from standard input: it is"
  expect_stderr "hint: '-' reads a pipe or a redirected file"
done
# a terminal (script(1) gives the command a pseudo-terminal as stdin)
if command -v script >/dev/null; then
  set +e
  script -qec "$IDCONFORM_BIN run --target -" /dev/null </dev/null >"$WORK/err" 2>&1
  set -e
  expect_stderr "cannot read profile from standard input: it is a terminal"
fi
echo "ok"
