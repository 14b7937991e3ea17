# answer_forms.sh MODE [DEFECT]: idconform against a fixture API that needs one of
# the profile's answer forms (tests/e2e/answer_forms_server.py MODE, the profile
# tests/e2e/answer_forms/MODE.target.yaml): a registry's uploads (the id only in
# Docker-Upload-UUID and Location, everything at the Location URL), a
# PostgREST-style table (reads answering [row] or []), an API naming new
# entities only by an absolute Location with fields only in read answers, and
# one whose create answer names the new id at another member than reads, and
# one whose create answer lacks the time field only reads carry, and one that
# says "nothing there" in a 200 answer ({"found": false}), and an RPC-style
# gateway naming every entity by the id in a POST body, and one whose answers
# name a reference otherwise than the create body, documents a PUT creates
# or replaces, and orders whose line items carry ids the client chooses.
# Conforming: exit 0, nothing fails, the cases the form makes possible ran.
# With a defect: exactly the failures of the rule it breaks (each `must`
# line below at least once) and nothing else.
source "$(dirname "$0")/lib.sh"
mode=$1 defect=${2:-}
port_file="$WORK/port"
log="$WORK/server.log"
python3 "$(dirname "$0")/answer_forms_server.py" "$mode" ${defect:+--defect "$defect"} "$port_file" 2>"$log" &
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$port_file" ] && break; sleep 0.1; done
[ -s "$port_file" ] || { cat "$log" >&2; fail "answer_forms_server.py $mode did not start"; }
BASE_URL="http://127.0.0.1:$(cat "$port_file")"
run_idconform --target "$(dirname "$0")/answer_forms/$mode.target.yaml"

# must RULE GLOB: a failure of RULE whose name matches GLOB; ran RULE GLOB: a
# case that passed; skip RULE GLOB TEXT: skipped saying TEXT; error GLOB
# TEXT: an error whose message holds TEXT (nothing else may fail or err).
check() {
  python3 - "$WORK/junit.xml" "$@" <<'PY'
import sys, fnmatch, xml.etree.ElementTree as ET
junit, lines = sys.argv[1], [l.split("|") for l in sys.argv[2:]]
problems, hits = [], [0] * len(lines)
for tc in ET.parse(junit).iter("testcase"):
    cls, name = tc.get("classname"), tc.get("name")
    rule = cls.split(".", 1)[1] if "." in cls else cls
    bad = tc.find("failure") if tc.find("failure") is not None else tc.find("error")
    skipped = tc.find("skipped")
    for i, l in enumerate(lines):
        kind = l[0]
        if kind in ("must", "ran", "skip") and (l[1] != rule or not fnmatch.fnmatchcase(name, l[2])):
            continue
        if kind == "must" and bad is not None and bad.tag == "failure":
            hits[i] += 1
        elif kind == "ran" and bad is None and skipped is None:
            hits[i] += 1
        elif kind == "skip" and skipped is not None and l[3] in skipped.get("message", ""):
            hits[i] += 1
        elif kind == "error" and bad is not None and bad.tag == "error" and fnmatch.fnmatchcase(name, l[1]) \
                and l[2] in bad.get("message", ""):
            hits[i] += 1
    if bad is not None:
        allowed = any((l[0] == "must" and bad.tag == "failure" and l[1] == rule and fnmatch.fnmatchcase(name, l[2]))
                      or (l[0] == "error" and bad.tag == "error" and fnmatch.fnmatchcase(name, l[1])
                          and l[2] in bad.get("message", "")) for l in lines)
        if not allowed:
            problems.append("unexpected %s: %s > %s: %s" % (bad.tag, cls, name, bad.get("message")))
for l, n in zip(lines, hits):
    if n == 0:
        problems.append("not seen: " + " ".join(l))
for p in problems:
    print("FAIL: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
}

case "$mode/$defect" in
registry/)
  expect_code 0
  check "ran|DATA-ID-003|a create mints a v4 id for an entity declared uuidv4" \
        "ran|DATA-ID-003|the Location header of a create names a v4 id*" \
        "ran|DATA-ID-002|a mutated live id in a read path is rejected [[]upper-case]" \
        "ran|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "ran|DATA-ID-004|another principal cannot read the entity by its id" \
        "ran|DATA-ID-006|the id is unchanged after an update" \
        "ran|DATA-ID-006|the id of a deleted entity never comes back*" \
        "ran|nil-max|Nil and Max as read path ids are never answered with an entity*" \
        "skip|DATA-ID-006|the id is unchanged after an update whose body carries another id|only in the Docker-Upload-UUID header" ;;
registry/v1-ids)
  expect_code 1
  check "must|DATA-ID-003|a create mints a v4 id for an entity declared uuidv4" \
        "must|DATA-ID-003|the Location header of a create names a v4 id*" ;;
registry/case-insensitive)
  expect_code 1
  check "must|DATA-ID-002|a mutated live id in a read path is rejected [[]upper-case]" \
        "must|DATA-ID-002|a mutated live id in a read path is rejected [[]mixed-case]" \
        "must|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "must|DATA-ID-002|a mutated live id in a delete path deletes nothing*" ;;
postgrest/)
  expect_code 0
  check "ran|DATA-ID-002|reading the live entity returns its id unchanged and canonical" \
        "ran|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "ran|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "ran|DATA-ID-004|another principal cannot read the entity by its id" \
        "ran|DATA-ID-006|the id is unchanged after an update" \
        "ran|DATA-ID-007|an optional reference sent as null comes back null or omitted" \
        "ran|nil-max|Nil and Max as read path ids are never answered with an entity*" ;;
postgrest/lenient-uuid)
  # The mutated delete removes the live row: the read after it answers []
  # (not found), which the array form reports instead of passing on the 200.
  # The cleanup's own read-back of a row already gone answers 200 [], the
  # read's not-found answer: gone, so the cleanup reports nothing.
  expect_code 1
  check "must|DATA-ID-002|a mutated live id in a read path is rejected [[]upper-case]" \
        "must|DATA-ID-002|a mutated live id in a read path is rejected [[]braces]" \
        "must|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "must|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "must|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "must|DATA-ID-002|a mutated reference in a list query parameter is rejected*" \
        "must|DATA-ID-002|a mutated reference in a create body is rejected*" \
        "must|DATA-ID-002|a mutated optional reference in a create body is rejected*" ;;
postgrest204/)
  # not_found: {status: 204, empty: true} on delete and update: a 204 says
  # nothing either way, the read after it judges (without the form: every
  # delete and update a case expects refused fails on the 204; a successful
  # update's empty answer is judged by the read after it either way). An update of Nil or Max (no
  # entity has them) is judged by its answer alone: it changed nothing.
  expect_code 0
  check "ran|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "ran|DATA-ID-004|another principal cannot delete the entity by its id" \
        "ran|nil-max|Nil and Max as delete path ids are rejected*" \
        "ran|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "ran|DATA-ID-004|another principal cannot update the entity by its id" \
        "ran|DATA-ID-006|the id is unchanged after an update" \
        "ran|DATA-ID-006|the id is unchanged after an update whose body carries another id" \
        "ran|nil-max|Nil and Max as update path ids are rejected*"
  grep -q "read the entity after the refused update: the update was not applied" "$WORK/junit.xml" ||
    fail "no refused update is read back"
  sed 's|, not_found: {status: 204, empty: true}||' "$(dirname "$0")/answer_forms/$mode.target.yaml" >"$WORK/plain.target.yaml"
  run_idconform --target "$WORK/plain.target.yaml"
  expect_code 1
  check "must|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "must|DATA-ID-004|another principal cannot delete the entity by its id" \
        "must|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "must|DATA-ID-004|another principal cannot update the entity by its id"
  ;;
postgrest204/lenient-uuid)
  # the 204 of a mutated delete is accepted; the read after it finds the row
  # gone; the 204 of a mutated update too, and the read after it finds the
  # row renamed
  expect_code 1
  [ "$(junit_xpath "count(//testcase[contains(@name, 'a mutated live id in an update path is rejected')]/failure[contains(@message, 'the update was not applied')])")" != 0 ] ||
    fail "no mutated update is caught by the read after it"
  expect_code 1
  check "must|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "must|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "must|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "must|DATA-ID-002|a mutated reference in a list query parameter is rejected*" \
        "must|DATA-ID-002|a mutated reference in a create body is rejected*" \
        "must|DATA-ID-002|a mutated optional reference in a create body is rejected*" ;;
location/)
  expect_code 0
  check "ran|DATA-ID-001|a create mints a v7 id in the body, inside the request window" \
        "ran|DATA-ID-001|the Location header of a create names a v7 id minted now" \
        "ran|DATA-ID-003|a v4 field of a new entity holds a v4 id*" \
        "ran|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "ran|DATA-ID-004|another principal cannot delete the entity by its id" \
        "ran|DATA-ID-006|the id is unchanged after an update whose body carries another id" \
        "ran|nil-max|Nil and Max as delete path ids are rejected*" ;;
location/tracking-v7)
  expect_code 1
  check "must|DATA-ID-003|a v4 field of a new entity holds a v4 id*" ;;
location/location-other-origin)
  # Never followed: each request at the Location is an error saying why,
  # and the server never sees a request for the other origin.
  expect_code 2
  check "error|*|on another origin" "error|*|was not created by this run" "error|cleanup|could not delete"
  ! grep -q "request for another origin" "$log" || fail "a request went to the Location's other origin"
  ;;
renamed/)
  # create_at: the create answer's {"orderID": ...} is the new id; the rest
  # of the create's checks are judged on a read-back, where "id" is
  expect_code 0
  check "ran|DATA-ID-001|a create mints a v7 id in the body, inside the request window" \
        "ran|DATA-ID-003|a v4 field of a new entity holds a v4 id*" \
        "ran|DATA-ID-005|a new entity has an explicit time field not derived from its id*" \
        "ran|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "ran|DATA-ID-004|another principal cannot read the entity by its id" \
        "ran|DATA-ID-006|the id is unchanged after an update" \
        "ran|nil-max|Nil and Max as read path ids are never answered with an entity*"
  # the cleanup found every order it made at /orderID
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"orders": 0}' ] || fail "the run left orders behind: $left"
  ;;
renamed/create-v4)
  expect_code 1
  check "must|DATA-ID-001|a create mints a v7 id in the body, inside the request window" ;;
found/)
  # not_found: {status: 200, at: /found, equals: false} on read, update and
  # delete: the 200 that says "no such key" is the refusal the negative cases
  # want (the plain profile gives 90 false failures), and another principal's
  # 200 {"found": false} to a delete does not count as the entity deleted
  expect_code 0
  check "ran|DATA-ID-002|a mutated live id in a read path is rejected [[]upper-case]" \
        "ran|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "ran|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "ran|DATA-ID-004|another principal cannot delete the entity by its id" \
        "ran|DATA-ID-006|the id of a deleted entity never comes back*" \
        "ran|nil-max|Nil and Max as read path ids are never answered with an entity*"
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"keys": 0}' ] || fail "the run left keys behind: $left"
  ;;
found/case-insensitive)
  expect_code 1
  check "must|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "must|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "must|DATA-ID-002|a mutated live id in a delete path deletes nothing*" ;;
rpc/)
  # id_at on read, update and delete: every call a POST naming the order in
  # its body; the cleanup deletes through :delete (without the form: 228 cases
  # not described and every order left behind)
  expect_code 0
  check "ran|DATA-ID-002|a mutated live id in a read path is rejected [[]upper-case]" \
        "ran|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "ran|DATA-ID-002|a mutated live id in a delete path deletes nothing*" \
        "ran|DATA-ID-004|another principal cannot read the entity by its id" \
        "ran|DATA-ID-004|another principal cannot delete the entity by its id" \
        "ran|DATA-ID-006|the id is unchanged after an update" \
        "ran|DATA-ID-006|the id of a deleted entity never comes back*" \
        "ran|nil-max|Nil and Max as read path ids are never answered with an entity*" \
        "skip|DATA-ID-006|the id is unchanged after an update whose body carries another id|names the entity by the id in its body"
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"orders": 0}' ] || fail "the run left orders behind: $left"
  ;;
rpc/case-insensitive)
  expect_code 1
  check "must|DATA-ID-002|a mutated live id in a read path is rejected*" \
        "must|DATA-ID-002|a mutated live id in an update path is rejected*" \
        "must|DATA-ID-002|a mutated live id in a delete path deletes nothing*" ;;
refname/)
  # references: {parent: {at: /parent_series}}: sent as parent, judged where
  # answers name it (without `at`, "an optional reference that is set comes
  # back as that id" fails: nothing at /parent)
  expect_code 0
  check "ran|DATA-ID-007|an optional reference that is set comes back as that id" \
        "ran|DATA-ID-007|an optional reference sent as null comes back null or omitted" \
        "ran|DATA-ID-002|a mutated optional reference in a create body is rejected*" \
        "ran|nil-max|Nil and Max as an optional reference are rejected*"
  sed 's|, at: /parent_series||' "$(dirname "$0")/answer_forms/$mode.target.yaml" >"$WORK/plain.target.yaml"
  run_idconform --target "$WORK/plain.target.yaml"
  expect_code 1
  check "must|DATA-ID-007|an optional reference that is set comes back as that id"
  ;;
refname/nil-parent)
  expect_code 1
  check "must|DATA-ID-007|an optional reference sent as null comes back null or omitted" \
        "must|DATA-ID-007|an omitted optional reference comes back null or omitted" \
        "must|nil-max|*parent_series*" ;;
upsert/)
  # put: {replaces: true}: a PUT to a live id replaces it (without the form,
  # "a create with an existing id fails" fails on a conforming API)
  expect_code 0
  check "ran|DATA-ID-006|a PUT to a live id replaces that entity and keeps its id" \
        "ran|DATA-ID-006|a create with a fresh client-supplied id keeps that id" \
        "ran|nil-max|Nil and Max as a client-supplied id are rejected*" \
        "skip|DATA-ID-006|a create with an existing id fails and leaves the entity unchanged|creates or replaces (replaces: true)"
  sed 's|, replaces: true||' "$(dirname "$0")/answer_forms/$mode.target.yaml" >"$WORK/plain.target.yaml"
  run_idconform --target "$WORK/plain.target.yaml"
  expect_code 1
  check "must|DATA-ID-006|a create with an existing id fails and leaves the entity unchanged" \
        "skip|DATA-ID-006|a PUT to a live id replaces that entity and keeps its id|only creates"
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"docs": 0}' ] || fail "the run left documents behind: $left"
  ;;
upsert/rekey-on-replace)
  # the cleanup follows the moved document to its new id
  expect_code 1
  check "must|DATA-ID-006|a PUT to a live id replaces that entity and keeps its id"
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"docs": 0}' ] || fail "the run left documents behind: $left"
  ;;
lines/)
  # client_ids: a fresh v7 at /lines/0/id of every create; the dummies and
  # mutations the packs send there are refused
  expect_code 0
  check "ran|DATA-ID-007|a client-chosen sub-object id holding an absent-value placeholder is rejected [[]empty-string]" \
        "ran|DATA-ID-002|a mutated client-chosen sub-object id in a create body is rejected [[]upper-case]" \
        "ran|nil-max|Nil and Max as a client-chosen sub-object id are rejected [[]nil]" \
        "ran|DATA-ID-006|creates give distinct ids*"
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"orders": 0}' ] || fail "the run left orders behind: $left"
  ;;
lines/empty-line-id)
  expect_code 1
  check "must|DATA-ID-007|a client-chosen sub-object id holding an absent-value placeholder is rejected [[]empty-string]" ;;
notebooks/*)
  # made_by: a notebook exists only once a note's create made it; the run
  # creates a note, takes the notebook's id from its answer for the tasks'
  # required reference, and deletes the note before the notebook (which
  # refuses deletion while it holds notes): nothing is left.
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"notes": 0, "notebooks": 0, "tasks": 0}' ] || fail "the run left entities behind: $left"
  [ "$(junit_xpath "count(//testcase[@name='cleanup'])")" = 0 ] || { cat "$WORK/err" >&2; fail "the cleanup reports a problem"; }
  # Without the form the reference cannot be described (a required reference
  # needs a create), so the profile drops it: the API refuses every task
  # create without one, and no reference case of tasks runs.
  python3 - "$(dirname "$0")/answer_forms/$mode.target.yaml" "$WORK/plain.target.yaml" <<'PY'
import sys
src, dst = sys.argv[1:]
lines = open(src).read().split("\n")
out, skip = [], False
for l in lines:
    if l.startswith("  notebooks:"):
        skip = True
        continue
    if skip and l.startswith("    "):
        continue
    skip = False
    if l.strip().startswith("references:") or l.strip().startswith("notebook_id:"):
        continue
    out.append(l)
open(dst, "w").write("\n".join(out))
PY
  ! grep -qE '^  notebooks:|^ *notebook_id:' "$WORK/plain.target.yaml" || fail "the plain profile still describes notebooks"
  if [ -z "$defect" ]; then
    expect_code 0
    run_idconform --target "$WORK/plain.target.yaml"
    expect_code 1
    [ "$(junit_xpath "count(//testsuite[@name='data-id-007 tasks']/testcase[starts-with(@name, 'a required reference')][not(skipped)])")" = 0 ] ||
      fail "a required-reference case ran without the reference"
    [ "$(junit_xpath "count(//testsuite[starts-with(@name, 'data-id-00') and contains(@name, ' tasks')]//failure[contains(@message, 'got 400')])")" != 0 ] ||
      fail "without the reference the task creates did not fail"
    run_idconform --target "$(dirname "$0")/answer_forms/$mode.target.yaml"
    expect_code 0
    check "ran|DATA-ID-007|a required reference that is missing is rejected" \
          "ran|DATA-ID-007|a required reference holding an absent-value placeholder is rejected [[]empty-string]" \
          "ran|DATA-ID-002|a mutated reference in a create body is rejected*" \
          "ran|nil-max|Nil and Max as a required reference are rejected*"
  else
    expect_code 1
    check "must|DATA-ID-007|a required reference holding an absent-value placeholder is rejected [[]empty-string]" \
          "must|DATA-ID-007|a required reference holding an absent-value placeholder is rejected*" \
          "must|DATA-ID-002|RFC vectors of other versions are rejected in a v7 reference [[]nil]" \
          "must|nil-max|Nil and Max as a required reference are rejected [[]nil]"
  fi
  ;;
timeonread/*)
  # time_field: {in_create: false}: DATA-ID-005 judged on a read-back of the
  # new note (advisory: warnings, never failures, so exit 0 either way)
  expect_code 0
  check "ran|DATA-ID-005|a new entity has an explicit time field not derived from its id*" \
        "ran|DATA-ID-001|a create mints a v7 id in the body, inside the request window" \
        "ran|DATA-ID-006|the id is unchanged after an update"
  warnings() {  # warnings PROFILE: the DATA-ID-005 warnings of a run, one per line
    run_idconform --target "$1" --json "$WORK/r.json"
    python3 - "$WORK/r.json" <<'PY'
import json, sys
for s in json.load(open(sys.argv[1]))["suites"]:
    for c in s["cases"]:
        for st in c["steps"]:
            for ch in st.get("checks", []):
                if ch.get("warning") and ch.get("rule") == "DATA-ID-005":
                    print(ch["actual"])
PY
  }
  profile="$(dirname "$0")/answer_forms/$mode.target.yaml"
  warnings "$profile" >"$WORK/with-form"
  if [ -z "$defect" ]; then
    [ ! -s "$WORK/with-form" ] || { cat "$WORK/with-form" >&2; fail "DATA-ID-005 warned on a conforming API"; }
    # without the form, every create answer is said to have no time field: the noise it removes
    sed 's|time_field: {at: /created_at, in_create: false}|time_field: /created_at|' "$profile" >"$WORK/plain.target.yaml"
    warnings "$WORK/plain.target.yaml" >"$WORK/without-form"
    [ "$(grep -c 'no explicit time field' "$WORK/without-form")" = 3 ] || fail "the plain time_field did not warn on the create answers"
  else
    [ "$(grep -c 'derived from the id' "$WORK/with-form")" = 3 ] || { cat "$WORK/with-form" >&2; fail "the derived created_at was not seen on read"; }
  fi
  left=$(curl -sS "$BASE_URL/_state")
  [ "$left" = '{"notes": 0}' ] || fail "the run left notes behind: $left"
  ;;
*) fail "unknown scenario $mode/$defect" ;;
esac
junit_valid
echo "ok: answer forms $mode${defect:+ --defect $defect}: exit $CODE"
