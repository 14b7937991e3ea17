#!/usr/bin/env bash
# The main job: installs what is missing, builds idconform and the example
# products server, starts a PostgreSQL of its own (scripts/start_pg.sh) for
# the server's storage and the server on a free loopback port (with
# librdkafka's mock Kafka cluster inside it, so events are covered without a
# broker; 50 products already stored, as on a staging API), runs the
# hand-written suites (events included) and the built-in packs (via the
# example target profile) against it, writes reports/junit.xml (and
# report.json), then audits the database behind it with `idconform db`
# (reports/db.xml), prints both summaries and stops both servers. Exits with
# the run's exit code, or the audit's when the run passed.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh main
cmake -S . -B build -G Ninja >/dev/null
cmake --build build --target idconform products_server

workdir=$(mktemp -d)
server_pid=""
source scripts/start_pg.sh
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  stop_pg
  rm -rf "$workdir"
}
trap cleanup EXIT
pg_admin -d postgres -c "CREATE DATABASE shop"
db="host=$PGSOCK port=$PGPORT dbname=shop user=postgres"

# The example server's salt for its legacy UUIDv8 ids; idconform reads the
# same variable (profile legacy.salt_env) to verify their hash bits.
export PRODUCTS_LEGACY_SALT="${PRODUCTS_LEGACY_SALT:-demo-legacy-salt}"
build/examples/products_server/products_server --port 0 --grpc-port 0 --kafka-mock --store-pg "$db" --seed 50 >"$workdir/server.out" 2>"$workdir/server.err" &
server_pid=$!
base_url=""
for _ in $(seq 1 100); do
  base_url=$(sed -n 's/^listening on \(http[s]*:\/\/[^ ]*\).*/\1/p' "$workdir/server.out" | head -n 1)
  grpc_address=$(sed -n 's/^grpc listening on \([^ ]*\).*/\1/p' "$workdir/server.out" | head -n 1)
  [ -n "$base_url" ] && [ -n "$grpc_address" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "demo: the example server did not start:" >&2; cat "$workdir/server.err" >&2; exit 4
  fi
  sleep 0.1
done
[ -n "$base_url" ] || { echo "demo: the example server did not report its port" >&2; exit 4; }
kafka_bootstrap=$(sed -n 's/^kafka bootstrap \([^ ]*\).*/\1/p' "$workdir/server.out" | head -n 1)
[ -n "$kafka_bootstrap" ] || { echo "demo: the example server did not report its Kafka cluster" >&2; exit 4; }
[ -n "$grpc_address" ] || { echo "demo: the example server did not report its gRPC port" >&2; exit 4; }
echo "demo: example products server at $base_url, gRPC at $grpc_address, events on the mock Kafka cluster at $kafka_bootstrap"

mkdir -p reports
status=0
IDCONFORM_BASE_URL="$base_url" IDCONFORM_GRPC_ADDRESS="$grpc_address" IDCONFORM_KAFKA_BROKERS="$kafka_bootstrap" \
  build/harness/cli/idconform run suites/ suites/grpc/ --target examples/products.target.yaml \
  --junit reports/junit.xml --json reports/report.json --concurrency 8 || status=$?
echo "demo: JUnit report in reports/junit.xml (exit code $status)"

# The database behind the API: the tables the profile's resources name
# (stored_in:), judged by the kinds the profile gives their ids.
db_status=0
build/harness/cli/idconform db "$db" --target examples/products.target.yaml --junit reports/db.xml || db_status=$?
echo "demo: database audit in reports/db.xml (exit code $db_status)"
[ "$status" -ne 0 ] || status=$db_status
exit "$status"
