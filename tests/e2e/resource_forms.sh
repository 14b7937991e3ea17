# resource_forms.sh conformant | cannot-delete-ulid | DEFECT RULE CASE: the profile forms of issue #13 part B
# against tests/e2e/resource_forms_server.py (profile tests/e2e/resource_forms/target.yaml):
# shared reference data, a create with the client's id in a POST body, a
# singleton, a resource the API cannot delete, a read answering 200 [] for
# nothing. Conformant: exit 0, nothing fails, the one note says what was left
# behind (console, JSON, JUnit, HTML). A defect: exit 1, and every failure is
# under RULE, with one in a case named CASE (a glob, "suite > case").
source "$(dirname "$0")/lib.sh"
PROFILE="$SRC/tests/e2e/resource_forms/target.yaml"
mode=$1

start_forms() { start_fixture resource_forms_server.py "$@"; }
api() { curl -sS -H "Authorization: Bearer $1" "${@:2}"; }
count() { python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))'; }

case "$mode" in
conformant)
  start_forms
  run_idconform --target "$PROFILE" --concurrency 4 --json "$WORK/report.json" --html "$WORK/report.html"
  expect_code 0
  junit_valid
  [ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "failures against the conformant fixture"
  [ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors against the conformant fixture"
  [ "$(junit_xpath "count(//testcase[@name='cleanup'])")" = 0 ] || fail "the cleanup reports a problem"
  # shared reference data: another principal's read and list are not applicable, saying why; its writes are checked
  for c in 'another principal cannot read the entity by its id' "another principal's list does not show the owner's ids"; do
    n=$(junit_xpath "count(//testsuite[@name='data-id-004 countries']/testcase[@name=\"$c\"]/skipped[contains(@message, 'shared reference data (') and contains(@message, 'resource_forms/target.yaml:19:5')])")
    [ "${n%.*}" = 1 ] || fail "'$c' is not reported as not applicable to shared reference data"
  done
  n=$(junit_xpath "count(//testsuite[@name='data-id-004 countries']/testcase[@name='another principal cannot update the entity by its id'][not(skipped)][not(failure)])")
  [ "${n%.*}" = 1 ] || fail "another principal's update of shared reference data is not checked"
  # the create with the client's id in a POST body: the client-id checks ran through it
  for c in 'a create with a fresh client-supplied id keeps that id' 'a create with an existing id fails and leaves the entity unchanged'; do
    n=$(junit_xpath "count(//testsuite[@name='data-id-006 items']/testcase[@name='$c'][not(skipped)][not(failure)])")
    [ "${n%.*}" = 1 ] || fail "'$c' did not run and pass on the POST form"
  done
  # the singleton: its suite only, run and passed
  n=$(junit_xpath "count(//testsuite[@name='data-id-006-singleton me']/testcase[contains(@classname, 'DATA-ID-006')][not(skipped)][not(failure)])")
  [ "${n%.*}" = 2 ] || fail "the singleton checks did not run and pass ($n)"
  [ "$(junit_xpath "count(//testsuite[contains(@name, ' me') and not(starts-with(@name, 'data-id-006-singleton'))])")" = 0 ] ||
    fail "other pack suites were instantiated for the singleton"
  # cannot_delete: one note, in every report, naming the reason and the profile line; never an error
  left=$(api alice "$BASE_URL/v1/countries" | count)
  [ "$left" -ge 1 ] || fail "no country was created"
  note="left on the target: $left entities this run created, because the profile says 'countries' cannot be deleted (countries are reference data; the API has no delete for them, $PROFILE:20:5)"
  [ "$(grep -c '^NOTE ' "$WORK/err")" = 1 ] || { cat "$WORK/err" >&2; fail "the console does not say the note once"; }
  grep -qF "NOTE $note" "$WORK/err" || { grep NOTE "$WORK/err" >&2; fail "the console note is not: $note"; }
  python3 - "$WORK/report.json" "$note" <<'PY' || fail "the JSON report's notes are wrong"
import json, sys
notes = json.load(open(sys.argv[1]))["notes"]
assert len(notes) == 1 and notes[0].startswith(sys.argv[2]), notes
PY
  [ "$(junit_xpath "count(//testsuite[@name='idconform notes'][@tests='0']/properties/property[@name='note'])")" = 1 ] || fail "JUnit has not one note"
  junit_xpath "string(//testsuite[@name='idconform notes']/properties/property/@value)" | grep -F "$note" >/dev/null || fail "the JUnit note is wrong"
  [ "$(grep -c '<section id="notes">' "$WORK/report.html")" = 1 ] || fail "the HTML report has no notes section"
  grep -qF "because the profile says &#39;countries&#39; cannot be deleted" "$WORK/report.html" ||
    grep -qF "because the profile says 'countries' cannot be deleted" "$WORK/report.html" || fail "the HTML note is wrong"
  # creates of a resource that cannot be deleted are kept to the fewest: a repeated create runs twice, not 24 times
  n=$(junit_xpath "count(//testsuite[@name='data-id-006 countries']/testcase[starts-with(@name, 'creates give distinct ids')])")
  [ "${n%.*}" = 2 ] || fail "the repeated create of countries ran $n times, not 2"
  # everything else the run created is gone
  [ "$(api alice "$BASE_URL/v1/items" | count)" = 0 ] || fail "items were left behind"
  echo "ok: the forms fixture passes; $left countries left behind, said once in every report"
  ;;
cannot-delete-ulid)
  # a ULID API that cannot delete runs, through the db-identifiers pack's own
  # plain-http creates: nothing is a cleanup error, the notes name every run
  # and confirmation left (R5.2's form), and "ULID order" creates two, not 20
  start_forms
  run_idconform --target "$SRC/tests/e2e/resource_forms/ulid.yaml" --concurrency 4 --json "$WORK/report.json"
  expect_code 0
  junit_valid
  [ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "failures against the conformant fixture"
  [ "$(junit_xpath 'string(/testsuites/@errors)')" = 0 ] || fail "errors against the conformant fixture"
  [ "$(junit_xpath "count(//testcase[@name='cleanup'])")" = 0 ] || fail "the cleanup reports a problem"
  ! grep -q 'undefined variable' "$WORK/junit.xml" || fail "a cleanup still books \${res.delete}"
  counts=$(api alice "$BASE_URL/v1/_counts")
  python3 - "$WORK/report.json" "$counts" <<'PY' || fail "the notes do not account for what was left"
import json, re, sys
notes = json.load(open(sys.argv[1]))["notes"]
counts = json.loads(sys.argv[2])
def left(why):
    hits = [n for n in notes if why in n]
    assert len(hits) == 1, (why, notes)
    return int(re.match(r"left on the target: (\d+) entit", hits[0]).group(1))
assert len(notes) == 2, notes
assert left("the profile says 'runs' cannot be deleted (runs are the audit trail") == counts["runs"], (notes, counts)
assert left("the profile gives no delete for what the action of 'runs' makes") == counts["confirmations"] == 1, (notes, counts)
assert counts["runs"] <= 16, counts  # the pack's creates, fewest: not 20 for ULID order alone
PY
  n=$(junit_xpath "count(//testsuite[@name='db-identifiers-order runs']/testcase[contains(@classname, 'ULID order')][not(skipped)][not(failure)])")
  [ "${n%.*}" = 1 ] || fail "ULID order did not run and pass"
  echo "ok: $counts left on the ULID fixture, every one in the notes, no cleanup error"
  ;;
*)
  defect=$1 rule=$2 case_glob=$3
  start_forms --defect "$defect"
  run_idconform --target "$PROFILE" --concurrency 4
  expect_code 1
  junit_valid
  python3 - "$WORK/junit.xml" "$rule" "$case_glob" <<'PY'
import fnmatch, sys, xml.etree.ElementTree as ET
junit, rule, glob = sys.argv[1:]
hit, problems = 0, []
for suite in ET.parse(junit).iter("testsuite"):
    for tc in suite.iter("testcase"):
        bad = tc.find("failure") if tc.find("failure") is not None else tc.find("error")
        if bad is None:
            continue
        where = "%s > %s" % (suite.get("name"), tc.get("name"))
        if not tc.get("classname").endswith("." + rule):
            problems.append("unexpected %s under %s: %s: %s" % (bad.tag, tc.get("classname"), where, bad.get("message")))
        elif fnmatch.fnmatchcase(where, glob):
            hit += 1
if not hit:
    problems.append("no failure in a case matching '%s' under %s" % (glob, rule))
for p in problems:
    print("FAIL: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
  if [ "$defect" = reuses-ids ]; then
    # a create answered a deleted tag's id: that creation is deleted too, and nothing is left
    [ "$(junit_xpath "count(//testcase[@name='cleanup'])")" = 0 ] || fail "the cleanup reports a problem"
    [ "$(api alice "$BASE_URL/v1/_counts" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tags"])')" = 0 ] ||
      fail "tags were left behind: $(api alice "$BASE_URL/v1/_counts")"
  fi
  if [ "$defect" = delete-answers-404 ]; then
    # the DELETEs answered 404, the read-back answered 200 []: gone, not "remains"
    [ "$(junit_xpath "count(//testcase[@name='cleanup'])")" = 0 ] || fail "the cleanup claims entities remain"
    [ "$(api alice "$BASE_URL/v1/tags/none")" = "[]" ] || fail "fixture"
  fi
  echo "ok: --defect $defect caught under $rule ($case_glob), nothing else fails"
  ;;
esac
