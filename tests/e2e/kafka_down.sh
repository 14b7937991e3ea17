# A Kafka cluster that cannot be reached is a transport error (exit 3), for a
# consume and for a produce, never a failure; the message names the cluster.
source "$(dirname "$0")/lib.sh"
start_server
cat >"$WORK/down.yaml" <<'YAML'
name: kafka-down
target:
  base_url: ${env:IDCONFORM_BASE_URL}
  kafka: {brokers: "${env:IDCONFORM_KAFKA_BROKERS}"}
cases:
  - name: consume from a cluster that is down
    rule: DATA-ID-002
    steps:
      - kafka: {consume: {topic: products.events, match: {key: x}, timeout: 1s}}
  - name: produce to a cluster that is down
    rule: DATA-ID-002
    steps:
      - kafka: {produce: {topic: products.commands, key: x, json: {type: delete_product, id: x}}}
YAML
# a port nothing listens on
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
IDCONFORM_KAFKA_BROKERS="127.0.0.1:$port" run_idconform "$WORK/down.yaml" --timeout 2s --connect-timeout 1s
expect_code 3
junit_valid
[ "$(junit_xpath 'string(/testsuites/@failures)')" = 0 ] || fail "an unreachable cluster was reported as a failure"
[ "$(junit_xpath 'string(/testsuites/@errors)')" = 2 ] || { cat "$WORK/err" >&2; fail "expected 2 errors"; }
expect_stderr "127.0.0.1:$port"
echo "ok: an unreachable Kafka cluster is a transport error (exit 3)"
