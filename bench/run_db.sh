#!/usr/bin/env bash
# `idconform db` value scan against psql's \copy on the same table, in the
# same run: starts a PostgreSQL 15 of its own (scripts/start_pg.sh, a
# temporary data directory), loads a table of ROWS uuid values (default 10
# million, gen_random_uuid(), the table's key), then times `idconform db --schema bench` (the
# catalog, then COPY of the one column through the value checks) and
# `psql -c "\copy (select id from bench.t) to /dev/null"` (best of RUNS each,
# default 3, interleaved) and prints seconds, the ratio psql/idconform (the
# target: >= 0.8) and the peak RSS of each (the target for idconform: under
# 100 MB).
# Uses the idconform binary in BUILD_DIR (default build-bench/, built if
# missing); IDCONFORM_BIN overrides. Needs postgresql-15 (scripts/setup.sh bench).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench}"
rows="${ROWS:-10000000}"
runs="${RUNS:-3}"
if [[ -z "${IDCONFORM_BIN:-}" ]]; then
  cmake -S "$repo" -B "$build" -G Ninja -DBUILD_TESTING=OFF >/dev/null
  ninja -C "$build" idconform >/dev/null
  IDCONFORM_BIN="$build/harness/cli/idconform"
fi
[ -x /usr/bin/time ] || { echo "GNU time (/usr/bin/time) is needed for the peak RSS: apt-get install time" >&2; exit 2; }
source "$repo/scripts/start_pg.sh"
trap stop_pg EXIT
pg_admin -d postgres -c "CREATE DATABASE bench"
echo "loading $rows rows ..."
pg_admin -d bench -c "CREATE SCHEMA bench" \
  -c "CREATE UNLOGGED TABLE bench.t (id uuid PRIMARY KEY)" \
  -c "INSERT INTO bench.t SELECT gen_random_uuid() FROM generate_series(1, $rows)" \
  -c "VACUUM ANALYZE bench.t"
size=$(pg_admin -d bench -At -c "SELECT pg_size_pretty(pg_total_relation_size('bench.t'))")
conn="host=$PGSOCK port=$PGPORT dbname=bench user=postgres"

# run_timed OUT CMD...: wall seconds and peak RSS (KiB) of CMD into OUT ("secs kib")
run_timed() {
  local out=$1
  shift
  local s e
  s=$(date +%s.%N)
  /usr/bin/time -f %M -o "$out.rss" "$@" >/dev/null 2>"$out.err" || true
  e=$(date +%s.%N)
  # (GNU time writes "Command exited with non-zero status N" first when it did)
  echo "$(echo "$e - $s" | bc -l) $(tail -n 1 "$out.rss")" >"$out"
}
tmp=$(mktemp -d)
# warm the cache once
"$PGBIN/psql" -X -q "$conn" -c "\\copy (select id from bench.t) to /dev/null"
ib="" pb="" irss=0 prss=0
for _ in $(seq "$runs"); do
  run_timed "$tmp/p" "$PGBIN/psql" -X -q "$conn" -c "\\copy (select id from bench.t) to /dev/null"
  read -r t r <"$tmp/p"
  if [[ -z "$pb" ]] || (( $(echo "$t < $pb" | bc -l) )); then pb=$t; fi
  (( r > prss )) && prss=$r
  run_timed "$tmp/i" "$IDCONFORM_BIN" db -q --schema bench "$conn"
  read -r t r <"$tmp/i"
  if [[ -z "$ib" ]] || (( $(echo "$t < $ib" | bc -l) )); then ib=$t; fi
  (( r > irss )) && irss=$r
done
# the audit read every row (its summary line says how many values)
grep -q "($rows values)" "$tmp/i.err" || { cat "$tmp/i.err" >&2; echo "idconform db did not read every row" >&2; exit 1; }
tail -n 1 "$tmp/i.err"
printf 'table bench.t: %s rows, %s\n' "$rows" "$size"
printf 'psql \\copy:   best %.2f s, peak RSS %d MiB\n' "$pb" $((prss / 1024))
printf 'idconform db: best %.2f s, peak RSS %d MiB\n' "$ib" $((irss / 1024))
printf 'ratio psql/idconform: %.2f (target >= 0.8)\n' "$(echo "$pb / $ib" | bc -l)"
rm -rf "$tmp"
