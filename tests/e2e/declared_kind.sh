# declared_kind.sh v4 | opaque: the declared kind drives every generated value
# (issue 22, section 5), against tests/e2e/declared_kind_server.py, a
# conforming API of each shape (profiles in tests/e2e/declared_kind/):
#   v4      UUIDv4 ids and client-chosen ids: the client-id checks send fresh
#           v4 ids (a v7 is what a v4 API must refuse), so the run passes,
#           the client-id checks of DATA-ID-006 and DATA-ID-002 among them.
#   opaque  11-character ids declared `existing` with their pattern: once
#           with ids that read as viewable ids ("xU4Kw_aif-Q"), once with ids
#           that do not ("xU4Kw_aifQq"). Both runs pass and list exactly the
#           same testcases (the mutations are kind existing's); the
#           client-chosen ids are fresh texts of the pattern.
source "$(dirname "$0")/lib.sh"
mode=$1


# passes PROFILE: the run against the fixture exits 0 with no failure, no error.
passes() {
  run_idconform --target "$1" --concurrency 4
  junit_valid
  python3 - "$WORK/junit.xml" <<'PY' || { cat "$WORK/err" >&2; fail "the conforming fixture does not pass"; }
import sys, xml.etree.ElementTree as ET
bad = []
for suite in ET.parse(sys.argv[1]).iter("testsuite"):
    for tc in suite.iter("testcase"):
        for tag in ("failure", "error"):
            e = tc.find(tag)
            if e is not None:
                bad.append("%s: %s > %s: %s" % (tag, suite.get("name"), tc.get("name"), e.get("message")))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
  expect_code 0
}

# ran_and_passed SUITE CASE-PREFIX: at least one testcase of SUITE whose name
# starts with CASE-PREFIX ran (not skipped) and passed.
ran_and_passed() {
  local n
  n=$(junit_xpath "count(//testsuite[@name='$1']/testcase[starts-with(@name, \"$2\")][not(skipped)][not(failure)][not(error)])")
  [ "${n%.*}" -ge 1 ] || fail "'$1 > $2' did not run and pass"
}

# testcases FILE: every testcase of the last run, "suite > name", sorted.
testcases() {
  python3 - "$WORK/junit.xml" >"$1" <<'PY'
import sys, xml.etree.ElementTree as ET
names = sorted("%s > %s" % (s.get("name"), t.get("name"))
               for s in ET.parse(sys.argv[1]).iter("testsuite") for t in s.iter("testcase"))
print("\n".join(names))
PY
}

case "$mode" in
v4)
  start_fixture declared_kind_server.py --ids v4
  passes "$SRC/tests/e2e/declared_kind/v4.target.yaml"
  ran_and_passed "data-id-006 things" "a create with a fresh client-supplied id keeps that id"
  ran_and_passed "data-id-006 things" "the id is unchanged after an update whose body carries another id"
  ran_and_passed "data-id-002 things" "a create with a client-chosen id that is a mutation of a fresh v4"
  ran_and_passed "data-id-003 things" "a create mints a v4 id for an entity declared uuidv4"
  echo "ok: a conforming v4 API with client-chosen ids passes; its client-id checks sent v4 ids"
  ;;
opaque)
  for style in viewable-like plain; do
    start_fixture declared_kind_server.py --ids opaque --style "$style"
    passes "$SRC/tests/e2e/declared_kind/opaque.target.yaml"
    ran_and_passed "data-id-006 things" "a create with a fresh client-supplied id keeps that id"
    ran_and_passed "data-id-002 things" "a mutated live id in a read path is rejected [upper-case]"
    testcases "$WORK/cases.$style"
  done
  diff -u "$WORK/cases.viewable-like" "$WORK/cases.plain" >&2 ||
    fail "the same profile gave other testcases against ids of another text"
  ! grep -q 'one-symbol-short\|excluded-letter' "$WORK/cases.plain" || fail "viewable-id mutations of ids declared existing"
  echo "ok: ids of kind existing give the same $(wc -l <"$WORK/cases.plain") testcases whatever their text; both runs pass"
  ;;
*) fail "unknown mode '$mode'" ;;
esac
