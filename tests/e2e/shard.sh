# run --shard K/N and merge: against the example server (with a defect, so
# there are failures to carry), the union of the shards equals one unsharded
# run case for case (suite, case, classname, rules, outcome, message), for
# N = 2 and 3; the split is the same on every run; the merged JUnit
# validates and has the unsharded run's testcases; merge refuses reports
# that do not belong together, naming why.
source "$(dirname "$0")/lib.sh"
PROFILE="$SRC/examples/products.target.yaml"
export PRODUCTS_LEGACY_SALT=e2e-legacy-salt
start_server --defect upper-case-out
ic() { set +e; IDCONFORM_BASE_URL="$BASE_URL" "$IDCONFORM_BIN" "$@" >"$WORK/out" 2>"$WORK/err"; CODE=$?; set -e; }

ic run --no-progress --target "$PROFILE" "$SRC/suites/data-id-001.yaml" --json "$WORK/full.json" --junit "$WORK/full.xml" -j 4
expect_code 1
for n in 2 3; do
  files=()
  for k in $(seq 1 "$n"); do
    ic run --no-progress --target "$PROFILE" "$SRC/suites/data-id-001.yaml" --shard "$k/$n" --json "$WORK/s$k-of-$n.json" -j 4
    grep -q "^idconform: shard $k/$n: " "$WORK/err" || { cat "$WORK/err" >&2; fail "no shard line for $k/$n"; }
    files+=("$WORK/s$k-of-$n.json")
  done
  ic merge -o "$WORK/merged$n.json" --junit "$WORK/merged$n.xml" "${files[@]}"
  expect_code 1   # the defect's failures survive the merge
  grep -q "FAILED" "$WORK/err" || fail "merge printed no summary"
  grep -q "^DATA-ID-001 " "$WORK/err" || fail "merge printed no per-rule table"
  xmllint --noout --schema "$SRC/reporters/schema/junit.xsd" "$WORK/merged$n.xml" || fail "merged JUnit does not validate"
  python3 - "$WORK/full.json" "$WORK/merged$n.json" "$WORK/full.xml" "$WORK/merged$n.xml" "${files[@]}" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
full, merged = (json.load(open(p)) for p in sys.argv[1:3])
# ids and times the server minted differ from run to run; the rest must not
minted = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}|\b[0-9A-Za-z]{26}\b|TR-[0-9A-Z]{7}|\d{4}-\d\d-\d\dT[\d:.]+Z")
# The shape scan's findings (one per rule x endpoint x field) are compared
# by identity and outcome: how many list answers of how many entities each
# saw depends on what ran beside it.
def message(s, c):
    return "" if s["name"] == "shape scan" else minted.sub("ID", c["message"])
def cases(d):
    return [(s["name"], s["file"], c["name"], c["classname"], tuple(c["rules"]), c["outcome"], message(s, c))
            for s in d["suites"] for c in s["cases"]]
a, b = cases(full), cases(merged)
assert any(x[0] == "shape scan" for x in a), "the defect's shape-scan findings are missing"
assert len(a) > 500, len(a)
assert a == b, [x for x in zip(a, b) if x[0] != x[1]][:3] or (len(a), len(b))
for k in ("tests", "passed", "failed", "errors", "skipped"):
    assert full["summary"][k] == merged["summary"][k], k
assert full["summary"]["failed"] > 0
assert full["run"]["plan"] == merged["run"]["plan"] and "shard" not in merged["run"]
# the run's metadata survives the merge (an HTML of the merged report says what was run)
md = {m["name"]: m["value"] for m in merged["run"]["metadata"]}
full_md = {m["name"]: m["value"] for m in full["run"]["metadata"]}
assert md["target"] == full_md["target"] and md["profile"] == full_md["profile"] and md["commit"] == full_md["commit"], md
assert "shard" not in md and md["merged from"].startswith("%d shards: " % (len(sys.argv) - 5)), md
assert md["shards started"] <= md["shards finished"], md
shards = [json.load(open(p)) for p in sys.argv[5:]]
def scan_cases(d):
    return sum(len(s["cases"]) for s in d["suites"] if s["name"] == "shape scan")
def preflight_cases(d):
    return sum(len(s["cases"]) for s in d["suites"] if s["name"].startswith("preflight "))
# each shard reports the findings it saw, and runs the preflight; merge
# folds the findings into one each and keeps one preflight
assert all(preflight_cases(s) > 0 for s in shards), "a shard did not run the preflight"
assert len({tuple(s["run"]["shard"]["every_shard"]) for s in shards}) == 1 and shards[0]["run"]["shard"]["every_shard"], [s["run"]["shard"].get("every_shard") for s in shards]
sizes = [s["summary"]["tests"] - scan_cases(s) - preflight_cases(s) for s in shards]
assert sum(sizes) == full["summary"]["tests"] - scan_cases(full) - preflight_cases(full), sizes
assert min(sizes) * 2 >= max(sizes), ("unbalanced", sizes)   # balanced by cases
units = sorted(set(u for s in shards for u in s["run"]["shard"]["units"]))
assert units == list(range(shards[0]["run"]["shard"]["total_units"])), units
def testcases(p):
    return sorted((ts.get("name"), tc.get("name"), tc.get("classname"), tuple(ch.tag for ch in tc if ch.tag in ("failure", "error", "skipped")))
                  for ts in ET.parse(p).getroot() for tc in ts.iter("testcase"))
assert testcases(sys.argv[3]) == testcases(sys.argv[4]), "JUnit testcases differ"
PY
done

# the same split every time
ic run --no-progress --target "$PROFILE" "$SRC/suites/data-id-001.yaml" --shard 2/3 --json "$WORK/again.json" -j 4
python3 -c 'import json,sys; a,b=(json.load(open(p))["run"]["shard"]["units"] for p in sys.argv[1:]); assert a==b,(a,b)' \
  "$WORK/s2-of-3.json" "$WORK/again.json" || fail "the split changed between runs"

# refusals: a shard twice, a missing shard, another run, another version, not a shard report
ic merge -o "$WORK/x.json" "$WORK/s1-of-2.json" "$WORK/s1-of-2.json"
expect_code 2; grep -q "shard 1/2 is given twice" "$WORK/err" || fail "no 'given twice': $(cat "$WORK/err")"
ic merge -o "$WORK/x.json" "$WORK/s1-of-3.json" "$WORK/s3-of-3.json"
expect_code 2; grep -q "shard 2 of 3 missing" "$WORK/err" || fail "no 'missing': $(cat "$WORK/err")"
ic merge -o "$WORK/x.json" "$WORK/s1-of-2.json" "$WORK/s2-of-3.json"
expect_code 2; grep -q "split the run differently" "$WORK/err" || fail "no 'split differently': $(cat "$WORK/err")"
ic run --no-progress --target "$PROFILE" --shard 2/2 --json "$WORK/other.json" -j 4   # other suites: another plan
ic merge -o "$WORK/x.json" "$WORK/s1-of-2.json" "$WORK/other.json"
expect_code 2; grep -q "come from different runs" "$WORK/err" || fail "no 'different runs': $(cat "$WORK/err")"
python3 - "$WORK/s2-of-2.json" "$WORK/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["version"] = "9.9.9"; json.dump(d, open(sys.argv[2], "w"))
PY
ic merge -o "$WORK/x.json" "$WORK/s1-of-2.json" "$WORK/v.json"
expect_code 2; grep -q "different idconform versions" "$WORK/err" || fail "no 'different versions': $(cat "$WORK/err")"
ic merge -o "$WORK/x.json" "$WORK/full.json"
expect_code 2; grep -q "is not a shard report" "$WORK/err" || fail "an unsharded report was merged"
[ ! -e "$WORK/x.json" ] || fail "a refused merge wrote a report"
ic run --no-progress --target "$PROFILE" --shard 3/2
expect_code 2; grep -q "1 <= K <= N" "$WORK/err" || fail "bad --shard accepted"
echo "ok: shards merge into the unsharded run"
