#!/usr/bin/env bash
# Sharding benchmark, run on demand (never in CI): the full pack run over the
# example server (built-in suites + every pack of examples/products.target.yaml,
# HTTP and gRPC) as one process and as 2 shards in two processes side by side
# (then `idconform merge`), wall time of each (median of REPEAT), and a check
# that the merged report equals the unsharded one case for case (ids and times
# the server minted aside). Uses the build in BUILD_DIR (default build/; builds
# idconform and products_server there). Exits non-zero when a run failed or the
# merged result differs.
#
# With BENCH_ROWS=FILE the ratio is appended to FILE (bench/run_all.sh).
# Knobs: REPEAT (5), CONCURRENCY (4, per process), BUILD_DIR (build), KEEP_TMP (0),
# GRPC_DELAY_MS (0: every gRPC call of the example server waits this long
# first, a stand-in for an API whose answers take milliseconds).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build}"
repeat="${REPEAT:-5}"
conc="${CONCURRENCY:-4}"
grpc_delay="${GRPC_DELAY_MS:-0}"
die() { echo "run_shard: $*" >&2; exit 1; }
command -v python3 >/dev/null || die "python3 is not installed"
[ -f "$build/build.ninja" ] || cmake -S "$repo" -B "$build" -G Ninja >/dev/null
cmake --build "$build" --target idconform products_server >/dev/null
idconform="$build/harness/cli/idconform"
server="$build/examples/products_server/products_server"

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  [ "${KEEP_TMP:-0}" = 1 ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

export PRODUCTS_LEGACY_SALT=bench-legacy-salt
"$server" --port 0 --grpc-port 0 --threads 2 --grpc-delay-ms "$grpc_delay" >"$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do
  base=$(sed -n 's/^listening on \(http[s]*:\/\/[^ ]*\).*/\1/p' "$work/server.out" | head -n 1)
  grpc=$(sed -n 's/^grpc listening on \([^ ]*\).*/\1/p' "$work/server.out" | head -n 1)
  [ -n "$base" ] && [ -n "$grpc" ] && break
  sleep 0.05
done
[ -n "${base:-}" ] || die "the example server did not start: $(cat "$work/server.out")"
export IDCONFORM_BASE_URL="$base" IDCONFORM_GRPC_ADDRESS="$grpc"
run() { "$idconform" run --no-progress "$repo/suites/" --target "$repo/examples/products.target.yaml" -j "$conc" "$@"; }
now() { date +%s.%N; }

one=() two=()
for i in $(seq 1 "$repeat"); do
  t0=$(now)
  run --json "$work/full.json" 2>"$work/full.err" || [ $? = 1 ] || die "unsharded run failed: $(tail -3 "$work/full.err")"
  t1=$(now)
  run --shard 1/2 --json "$work/s1.json" 2>"$work/s1.err" & p1=$!
  run --shard 2/2 --json "$work/s2.json" 2>"$work/s2.err" & p2=$!
  wait "$p1" || [ $? = 1 ] || die "shard 1/2 failed: $(tail -3 "$work/s1.err")"
  wait "$p2" || [ $? = 1 ] || die "shard 2/2 failed: $(tail -3 "$work/s2.err")"
  "$idconform" merge -o "$work/merged.json" "$work/s1.json" "$work/s2.json" 2>"$work/merge.err" || [ $? = 1 ] ||
    die "merge failed: $(tail -3 "$work/merge.err")"
  t2=$(now)
  one+=("$(python3 -c "print($t1 - $t0)")")
  two+=("$(python3 -c "print($t2 - $t1)")")
  python3 - "$work/full.json" "$work/merged.json" <<'PY' || die "run $i: the merged report differs from the unsharded one"
import json, re, sys
minted = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}|\b[0-9A-Za-z]{26}\b|TR-[0-9A-Z]{7}|\d{4}-\d\d-\d\dT[\d:.]+Z")
def cases(p):
    d = json.load(open(p))
    return [(s["name"], c["name"], c["classname"], c["outcome"], minted.sub("ID", c["message"])) for s in d["suites"] for c in s["cases"]]
a, b = cases(sys.argv[1]), cases(sys.argv[2])
sys.exit(0 if a == b else 1)
PY
done
cases=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["tests"])' "$work/full.json")
shards=$(grep -h "^idconform: shard" "$work/s1.err" "$work/s2.err" | sed 's/^idconform: //' | paste -sd';' -)
python3 - "$cases" "$shards" "${one[*]}" "${two[*]}" "$grpc_delay" "${BENCH_ROWS:-/dev/null}" <<'PY'
import statistics, sys
cases, shards = sys.argv[1], sys.argv[2]
one = [float(x) for x in sys.argv[3].split()]
two = [float(x) for x in sys.argv[4].split()]
m1, m2 = statistics.median(one), statistics.median(two)
print(f"cases: {cases} ({shards}); gRPC delay {sys.argv[5]} ms")
print(f"| run | wall time (median of {len(one)}) |")
print("|---|---|")
print(f"| 1 process | {m1:.3f} s |")
print(f"| 2 shards side by side + merge | {m2:.3f} s ({m1 / m2:.2f}x) |")
print("merged report = unsharded report, case for case: yes")
with open(sys.argv[6], "a") as rows:  # bench/run_all.sh
    rows.write(f"shard\t{cases} cases, 2 shards + merge, wall\t{m2:.3f} s\t1 process {m1:.3f} s\t{m1 / m2:.2f}\t\n")
PY
