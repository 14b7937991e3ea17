# kcat and idconform on the same broker (librdkafka's mock cluster inside the
# example server): kcat consumes the event an idconform HTTP create caused,
# kcat produces a command with an upper-case id, and idconform finds it on the
# dead-letter topic with its reason and checks that nothing changed.
source "$(dirname "$0")/lib.sh"
command -v kcat >/dev/null || fail "kcat is not installed (scripts/setup.sh installs it)"
start_server --kafka-mock
export IDCONFORM_KAFKA_BROKERS="$KAFKA_BOOTSTRAP"
here="$(dirname "$0")/kafka"

id=$("$IDCONFORM_BIN" gen --kind v7)
run_idconform "$here/kcat_create.yaml" --var "product_id=$id"
expect_code 0

# kcat reads the created event: key and payload id are the API's id. The
# event is published asynchronously: read again until it is there (10 s).
found=0
for _ in $(seq 1 20); do
  timeout 20 kcat -b "$KAFKA_BOOTSTRAP" -C -t products.events -o beginning -e -J >"$WORK/events.jsonl" 2>"$WORK/kcat.err" ||
    { cat "$WORK/kcat.err" >&2; fail "kcat could not consume products.events"; }
  if python3 - "$WORK/events.jsonl" "$id" <<'PY'
import json, sys
want = sys.argv[2]
for line in open(sys.argv[1]):
    m = json.loads(line)
    p = json.loads(m["payload"])
    if m["key"] == want and p["id"] == want and p["type"] == "product.created":
        sys.exit(0)
sys.exit(1)
PY
  then found=1; break; fi
  sleep 0.5
done
[ "$found" = 1 ] || fail "kcat did not see the created event for $id"

# kcat sends a rename with the id upper-cased; the service must dead-letter it
probe="kcat-$RANDOM$RANDOM"
upper=$(echo "$id" | tr a-f A-F)
printf '%s\n' "{\"type\":\"rename_product\",\"id\":\"$upper\",\"name\":\"renamed-by-kcat\"}" |
  timeout 20 kcat -b "$KAFKA_BOOTSTRAP" -P -t products.commands -k kcat-command -H "probe=$probe" 2>"$WORK/kcat.err" ||
  { cat "$WORK/kcat.err" >&2; fail "kcat could not produce to products.commands"; }

run_idconform "$here/kcat_check.yaml" --var "probe=$probe" --var "product_id=$id"
expect_code 0
junit_valid
[ "$(junit_xpath 'string(/testsuites/@tests)')" = 1 ] || fail "expected one testcase"
echo "ok: kcat consumed the event of $id and its bad command was dead-lettered, as idconform checked"
