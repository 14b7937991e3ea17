#!/usr/bin/env bash
# Latency-bound runs, run on demand (never in CI): the example server answers
# every HTTP request and every gRPC call DELAY_MS (20) after it came in
# (products_server --delay-ms / --grpc-delay-ms; the server's threads serve
# other connections meanwhile), and the full packs of the example profile
# (examples/products.target.yaml, HTTP and gRPC) run against it at -j 1, 4
# and 16 (JOBS), REPEAT times each (median). Prints the wall time, the
# speed-up over -j 1 and that speed-up as a share of the ideal (N-fold), and
# fails when a run's results differ from the -j 1 run's (case for case,
# minted ids and times aside) or a run does not finish.
# With BENCH_ROWS=FILE the speed-ups are appended to FILE (bench/run_all.sh).
# Knobs: DELAY_MS (20), JOBS ("1 4 16"), REPEAT_LATENCY (1), BUILD_DIR (build-bench), KEEP_TMP (0).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench}"
delay="${DELAY_MS:-20}"
jobs="${JOBS:-1 4 16}"
repeat="${REPEAT_LATENCY:-1}"
die() { echo "run_latency: $*" >&2; exit 1; }
command -v python3 >/dev/null || die "python3 is not installed"
[ -f "$build/build.ninja" ] || cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
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
"$server" --port 0 --grpc-port 0 --threads 2 --delay-ms "$delay" --grpc-delay-ms "$delay" >"$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 200); do
  base=$(sed -n 's/^listening on \(http[s]*:\/\/[^ ]*\).*/\1/p' "$work/server.out" | head -n 1)
  grpc=$(sed -n 's/^grpc listening on \([^ ]*\).*/\1/p' "$work/server.out" | head -n 1)
  [ -n "$base" ] && [ -n "$grpc" ] && break
  sleep 0.05
done
[ -n "${base:-}" ] || die "the example server did not start: $(cat "$work/server.out")"
export IDCONFORM_BASE_URL="$base" IDCONFORM_GRPC_ADDRESS="$grpc"

: >"$work/times"
for j in $jobs; do
  for i in $(seq 1 "$repeat"); do
    t0=$(date +%s.%N)
    # bounded: 20 ms x a few thousand requests at -j 1 is well under the limit
    timeout 900 "$idconform" run --no-progress --target "$repo/examples/products.target.yaml" -j "$j" \
      --json "$work/j$j.json" >"$work/j$j.out" 2>"$work/j$j.err" || [ $? = 1 ] || die "-j $j failed: $(tail -3 "$work/j$j.err")"
    t1=$(date +%s.%N)
    echo "$j $(python3 -c "print($t1 - $t0)")" >>"$work/times"
  done
done

python3 - "$work" "$delay" "$jobs" "${BENCH_ROWS:-/dev/null}" <<'PY'
import json, re, statistics, sys
work, delay, jobs, rows = sys.argv[1], sys.argv[2], [int(j) for j in sys.argv[3].split()], sys.argv[4]
minted = re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}|\b[0-9A-Za-z]{26}\b|TR-[0-9A-Z]{7}|\d{4}-\d\d-\d\dT[\d:.]+Z|\d+(\.\d+)? ?m?s\b")
def cases(j):
    d = json.load(open(f"{work}/j{j}.json"))
    return d["summary"]["tests"], sorted((s["name"], c["name"], c["outcome"], minted.sub("X", c.get("message", ""))) for s in d["suites"] for c in s["cases"])
times = {}
for line in open(f"{work}/times"):
    j, t = line.split()
    times.setdefault(int(j), []).append(float(t))
n1, ref = cases(jobs[0])
differ = []
for j in jobs[1:]:
    n, got = cases(j)
    if got != ref:
        differ.append(j)
        for a, b in zip(ref, got):
            if a != b:
                print(f"-j {j} differs from -j {jobs[0]}: {a} vs {b}", file=sys.stderr)
                break
t1 = statistics.median(times[jobs[0]])
print(f"full packs of examples/products.target.yaml, {n1} cases, every answer {delay} ms late")
print(f"| -j | wall (median of {len(times[jobs[0]])}) | speed-up over -j {jobs[0]} | share of the ideal |")
print("|---|---|---|---|")
with open(rows, "a") as out:
    for j in jobs:
        t = statistics.median(times[j])
        up = t1 / t
        share = up / (j / jobs[0])
        print(f"| {j} | {t:.2f} s | {up:.2f}x | {share:.2f} |")
        if j != jobs[0]:
            out.write(f"latency\t-j {j}, {n1} cases, {delay} ms answers, wall\t{t:.2f} s\t-j {jobs[0]} {t1:.2f} s / {j}\t{share:.2f}\t0.7\n")
print("same results at every -j (case for case): " + ("yes" if not differ else "NO: " + " ".join(map(str, differ))))
sys.exit(1 if differ else 0)
PY
