# known_state.sh conformant | pg-cast-delete: the data-id pack against
# tests/e2e/known_state_server.py (profile tests/e2e/known_state/target.yaml),
# an Express-style app over PostgreSQL (issue #22 section 2).
# conformant: exit 0, nothing fails or errs (the cleanup testcase included).
# pg-cast-delete: its DELETE casts the path segment to uuid, so upper-case,
#   mixed-case, hyphen-less and braced spellings of a live id delete it.
#   Each mutated DELETE gets an entity of its own (fresh:): exactly those
#   mutations fail, each naming the step that saw the entity gone; every
#   other mutation (urn:uuid:, padding, another version or variant) passes
#   on its own answer, and no other case of the run fails or is skipped
#   for lack of the live entity.
source "$(dirname "$0")/lib.sh"
PROFILE="$SRC/tests/e2e/known_state/target.yaml"
mode=$1

if [ "$mode" = conformant ]; then
  start_fixture known_state_server.py
else
  start_fixture known_state_server.py --defect "$mode"
fi

run_idconform --target "$PROFILE" --concurrency 4 --json "$WORK/report.json"
case "$mode" in
conformant) expect_code 0 ;;
pg-cast-delete) expect_code 1 ;;
*) fail "unknown mode $mode" ;;
esac
junit_valid

python3 - "$WORK/report.json" "$mode" <<'PY' || { cat "$WORK/err" >&2; fail "known state $mode: see above"; }
import json, sys
report, mode = json.load(open(sys.argv[1])), sys.argv[2]
DELETE = "a mutated live id in a delete path deletes nothing [%s]"
CAST = ["upper-case", "no-hyphens", "braces"]        # PostgreSQL reads these as the live id
MAYBE = ["mixed-case"]                              # too, when the live id has a letter to change
REFUSED = ["urn-uuid", "padded-spaces", "version-4", "variant-microsoft"]
STEP = "step 2, DELETE at the mutated id: it must be refused: status: expected 4xx, got 204"  # step 1: its fresh entity
problems = []
cases = {}
for s in report["suites"]:
    for c in s["cases"]:
        cases[(s["name"], c["name"])] = c
suite = "data-id-002 items"
def get(name):
    c = cases.get((suite, name))
    if c is None:
        problems.append("no case " + name)
    return c
allowed = set()
if mode == "pg-cast-delete":
    for m in CAST:
        c = get(DELETE % m)
        if c and (c["outcome"] != "failed" or c["message"] != STEP):
            problems.append("%s: %s (%s), expected failed with %r" % (m, c["outcome"], c["message"], STEP))
    for m in CAST + MAYBE:
        allowed.add((suite, DELETE % m))
for m in REFUSED + ([] if mode == "pg-cast-delete" else CAST + MAYBE):
    c = get(DELETE % m)
    if c and c["outcome"] != "passed":
        problems.append("%s: %s, expected passed (%s)" % (m, c["outcome"], c["message"]))
for key, c in cases.items():
    if c["outcome"] in ("failed", "error") and key not in allowed:
        problems.append("unexpected %s: %s > %s: %s" % (c["outcome"], key[0], key[1], c["message"]))
    if c["outcome"] == "skipped" and ("gone after" in c["message"] or "fresh state" in c["message"]):
        problems.append("skipped for a lost entity: %s > %s: %s" % (key[0], key[1], c["message"]))
for p in problems:
    print("FAIL: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
echo "ok: known state $mode: exit $CODE"
