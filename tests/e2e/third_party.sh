# third_party.sh NAME [existing]: idconform against an API server nobody on
# this project wrote (json-server 0.17 / 1.0, json-server-auth, Mockoon CLI,
# PouchDB Server, LoopBack 4's Todo example; installed by scripts/third_party.sh), started on 127.0.0.1 on an ephemeral port with the
# profile and data of examples/third-party/NAME/. The run must report the
# server's real violations under their rules (the `must` lines of
# third_party/NAME.expect, each at least once) and no failure or error that
# no line of that file names: nothing fails that the server does not break
# (a line "existing: ..." holds for the `existing` variant only).
# With `existing`, the profile declares the resources' ids as an existing
# non-UUID format (DATA-ID-001's exception): DATA-ID-001 is not applicable,
# saying why, and the other rules still run.
source "$(dirname "$0")/lib.sh"
source "$SRC/scripts/third_party.sh"
name=$1 variant=${2:-}
dir=$(third_party_dir "$name")
[ -f "$dir/.installed" ] || fail "$name is not installed: run scripts/third_party.sh install (scripts/setup.sh does)"
ex="$SRC/examples/third-party/$name"
profile="$ex/target.yaml"
export NODE_OPTIONS="--require $SRC/tests/third_party/loopback.cjs"
log="$WORK/server.log"
case "$name" in
json-server-auth)   # before json-server-*, which its name matches too
  cp "$ex/db.json" "$WORK/db.json"   # json-server writes its database file
  # It writes its rewritten routes to the temporary folder: $WORK.
  (cd "$WORK" && TMPDIR="$WORK" exec "$dir/node_modules/.bin/json-server-auth" --port 0 -r "$ex/routes.json" "$WORK/db.json") >"$log" 2>&1 &
  ;;
json-server-*)
  cp "$ex/db.json" "$WORK/db.json"   # json-server writes its database file
  # NODE_ENV=production: json-server 1.0 otherwise watches its file and reloads
  # it after each of its own writes, losing an entity created in between (a
  # race of its development mode, not of its API: the live entity of a suite
  # vanished about one run in ten).
  # (Its production mode needs a ./public folder, so it starts in $WORK.)
  mkdir -p "$WORK/public"
  # json-server 1.0's two random bytes per id are made collision-free (see
  # tests/third_party/fixed_ids.cjs): a duplicate id would fail cases at random.
  [ "$name" = json-server-1 ] && export NODE_OPTIONS="$NODE_OPTIONS --require $SRC/tests/third_party/fixed_ids.cjs"
  (cd "$WORK" && NODE_ENV=production exec "$dir/node_modules/.bin/json-server" --port 0 "$WORK/db.json") >"$log" 2>&1 &
  ;;
mockoon)
  cp "$ex/environment.json" "$WORK/environment.json"
  "$dir/node_modules/.bin/mockoon-cli" start -d "$WORK/environment.json" -p 0 -X >"$log" 2>&1 &
  ;;
pouchdb-server)
  # Its --port 0 means "the configured default" (5984), so a free port is
  # picked here; it writes config.json and log.txt into its folder ($WORK).
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  (cd "$WORK" && exec "$dir/node_modules/.bin/pouchdb-server" --in-memory --host 127.0.0.1 --port "$port" --no-stdout-logs) >"$log" 2>&1 &
  ;;
loopback-todo)
  # PORT=0: an ephemeral port; its memory datastore writes ./data/db.json
  # (a copy of the four todos the example ships).
  mkdir -p "$WORK/data"
  cp "$dir/node_modules/@loopback/example-todo/data/db.json" "$WORK/data/db.json"
  (cd "$WORK" && PORT=0 HOST=127.0.0.1 exec node "$dir/node_modules/@loopback/example-todo/dist/index.js") >"$log" 2>&1 &
  ;;
*) fail "unknown third-party server '$name'" ;;
esac
pid=$!
PIDS+=("$pid")
port=
for _ in $(seq 1 300); do  # up to 30 s (Mockoon loads for a second or two)
  port=$(ss -ltnpH 2>/dev/null | sed -n "s/.*127\.0\.0\.1:\([0-9]*\) .*pid=$pid,.*/\1/p" | head -n 1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "$name exited"; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$log" >&2; fail "$name did not listen on 127.0.0.1"; }
BASE_URL="http://127.0.0.1:$port"
if [ "$name" = json-server-auth ]; then
  # Two users (the first gets id 1, the second id 2, who owns the entities of
  # db.json): their tokens and the owner's id go to the profile's variables.
  register() {
    curl -sf -X POST -H 'Content-Type: application/json' \
      -d "{\"email\": \"$1@example.com\", \"password\": \"$1-password\"}" "$BASE_URL/register" ||
      { cat "$log" >&2; fail "could not register $1"; }
  }
  field() { python3 -c 'import json, sys; a = json.load(sys.stdin); print(a["accessToken"] if sys.argv[1] == "token" else a["user"]["id"])' "$1"; }
  alice=$(register alice) bob=$(register bob)
  IDCONFORM_TOKEN_A=$(field token <<<"$alice") IDCONFORM_OWNER_ID=$(field id <<<"$alice")
  IDCONFORM_TOKEN_B=$(field token <<<"$bob")
  [ "$(field id <<<"$bob")" = 2 ] || fail "the second user is not user 2, the owner of db.json's entities"
  export IDCONFORM_TOKEN_A IDCONFORM_TOKEN_B IDCONFORM_OWNER_ID
fi
if [ "$name" = pouchdb-server ]; then
  # CouchDB keeps documents in databases, made by a PUT (as a deployment would).
  for db in categories products; do
    curl -sf -X PUT "$BASE_URL/$db" >/dev/null || { cat "$log" >&2; fail "could not create database $db"; }
  done
fi
expect_src="$(dirname "$0")/third_party/$name.expect"
# A line "existing: must|may ..." holds for the existing variant only.
expect="$WORK/default.expect"
grep -v '^existing: ' "$expect_src" >"$expect"
if [ "$variant" = existing ]; then
  # The same API described as one whose ids kept their format: kind existing
  # with the pattern of the server's ids.
  pattern=$(sed -n 's/^# existing-pattern: //p' "$expect_src")
  python3 - "$profile" "$WORK/existing.target.yaml" "$pattern" <<'PY'
import sys
src, dst, pattern = sys.argv[1:]
out = []
for line in open(src):
    out.append(line)
    if line.startswith("  ") and not line.startswith("   ") and line.rstrip().endswith(":") and "resources" not in line:
        out.append('    id: {at: /id, kind: existing, pattern: "%s"}\n' % pattern)
text = "".join(l for l in out if "kind: uuidv4}" not in l)
open(dst, "w").write(text)
PY
  profile="$WORK/existing.target.yaml"
  expect="$WORK/existing.expect"
  # DATA-ID-001 does not apply, and references to those ids are not v7 references
  sed 's/^existing: //' "$expect_src" | grep -v -e 'DATA-ID-001' -e 'v7 reference' -e 'v7 optional reference' >"$expect"
fi
start=$(date +%s%N)
run_idconform --target "$profile"   # one case at a time: the findings do not depend on timing
ms=$((($(date +%s%N) - start) / 1000000))
expect_code 1
junit_valid
python3 - "$WORK/junit.xml" "$expect" "$variant" "$profile" <<'PY'
import sys, fnmatch, xml.etree.ElementTree as ET
junit, expect, variant, profile = sys.argv[1:]
lines = []
for raw in open(expect):
    raw = raw.strip()
    if not raw or raw.startswith("#"):
        continue
    kind, rule, pattern = raw.split(None, 2)
    lines.append([kind, rule, pattern, 0])
problems = []
ran = {}
for tc in ET.parse(junit).iter("testcase"):
    cls, name = tc.get("classname"), tc.get("name")
    rule = cls.split(".", 1)[1] if "." in cls else cls
    if tc.find("skipped") is None:
        ran[rule] = ran.get(rule, 0) + 1
    for tag in ("failure", "error"):
        if tc.find(tag) is None:
            continue
        hit = [l for l in lines if l[1] == rule and fnmatch.fnmatchcase(name, l[2])]
        if not hit:
            problems.append("unexpected %s: %s > %s: %s" % (tag, cls, name, tc.find(tag).get("message")))
        for l in hit:
            l[3] += 1
for kind, rule, pattern, n in lines:
    if kind not in ("must", "may"):
        problems.append("%s: unknown kind '%s' (must or may)" % (expect, kind))
    if kind == "must" and n == 0:
        problems.append("not reported: %s %s" % (rule, pattern))
if variant == "existing":
    for tc in ET.parse(junit).iter("testcase"):
        if ".DATA-ID-001" in tc.get("classname"):
            s = tc.find("skipped")
            if s is None or "not applicable" not in s.get("message", "") or "kind existing" not in s.get("message", ""):
                problems.append("DATA-ID-001 is not reported as not applicable for kind existing: " + tc.get("name"))
    # DATA-ID-007's cases are about references: a profile without any has none.
    has_refs = any(l.strip() == "references:" for l in open(profile))
    for rule in ("DATA-ID-002", "DATA-ID-006") + (("DATA-ID-007",) if has_refs else ()) + ("nil-max",):
        if not ran.get(rule):
            problems.append("no %s testcase ran for ids of kind existing" % rule)
for p in problems:
    print("FAIL: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
n=$(junit_xpath 'string(/testsuites/@tests)')
f=$(junit_xpath 'string(/testsuites/@failures)')
e=$(junit_xpath 'string(/testsuites/@errors)')
echo "ok: $name${variant:+ ($variant)}: $f failing and $e in error of $n testcases, each as $name.expect says ($ms ms)"
