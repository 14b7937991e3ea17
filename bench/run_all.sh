#!/usr/bin/env bash
# Every benchmark in one go, each against its baseline in the same run, then
# one table of ratios: ids (strict check vs RE2), HTTP (vs wrk), latency (-j N
# against the ideal N-fold speed-up over a delayed server), scan (vs rg -c),
# lint (vs python3's json.load / libyaml) and shards (2 shards vs 1 process).
# Run on demand, never in CI (it takes about 10 minutes). One Release build
# in BUILD_DIR (default build-bench/, with -DIDCONFORM_BENCH=ON) serves them all.
#
# Ratios are "x baseline", higher is better: baseline time / idconform time
# (or idconform rate / baseline rate); the target column is the least ratio
# asked for (bench/README.md says where each comes from). Nothing here fails
# on a missed target: the script exits non-zero only when a benchmark could
# not run. Knobs: ONLY="scan http" (a subset), BUILD_DIR, and each script's own
# (SIZE_MB, CASES, REPEAT, ...), passed through. Needs `scripts/setup.sh bench`.
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export BUILD_DIR="${BUILD_DIR:-$repo/build-bench}"
only="${ONLY:-ids http latency scan lint shard}"
log_dir=$(mktemp -d /tmp/idconform-bench-all.XXXXXX)
rows="$log_dir/rows.tsv"
: >"$rows"
export BENCH_ROWS="$rows"

cmake -S "$repo" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DIDCONFORM_BENCH=ON -DBUILD_TESTING=OFF \
  >"$log_dir/cmake.log" 2>&1 || { cat "$log_dir/cmake.log" >&2; exit 2; }
ninja -C "$BUILD_DIR" idconform products_server ids_bench >"$log_dir/build.log" 2>&1 ||
  { tail -n 30 "$log_dir/build.log" >&2; exit 2; }
bin="$BUILD_DIR/harness/cli/idconform"

failed=()
run() {  # name command...
  local name=$1
  shift
  echo "== $name: $*" >&2
  if "$@" >"$log_dir/$name.log" 2>&1; then
    tail -n 12 "$log_dir/$name.log" >&2
  else
    tail -n 20 "$log_dir/$name.log" >&2
    failed+=("$name")
  fi
}

for b in $only; do
  case "$b" in
    ids) run ids bash "$repo/bench/run_ids.sh" ;;
    http) run http env REPEAT="${REPEAT:-3}" bash "$repo/bench/run_http.sh" ;;
    latency) run latency bash "$repo/bench/run_latency.sh" ;;
    scan) run scan env IDCONFORM_BIN="$bin" bash "$repo/bench/run_scan.sh" ;;
    lint) run lint env SIZES="${SIZES:-1 5}" bash "$repo/bench/run_lint.sh" "$bin" ;;
    shard) run shard env REPEAT="${REPEAT:-3}" bash "$repo/bench/run_shard.sh" ;;
    *) echo "run_all: unknown benchmark '$b' (ids http latency scan lint shard)" >&2; exit 2 ;;
  esac
done

echo
echo "idconform benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
awk -F'\t' '
BEGIN {
  printf "| %-7s | %-38s | %-16s | %-24s | %-8s | %-7s |\n", "bench", "figure", "idconform", "baseline (same run)", "ratio", "target"
  print "|---------|----------------------------------------|------------------|--------------------------|----------|---------|"
}
{
  status = ($6 == "" ? "" : ($5 + 0 >= $6 + 0 ? "met" : "NOT met"))
  printf "| %-7s | %-38s | %-16s | %-24s | %7.2fx | %-7s |%s\n", $1, $2, $3, $4, $5, ($6 == "" ? "-" : ">= " $6 "x"), \
    (status == "" ? "" : " " status)
}' "$rows"
echo
echo "logs: $log_dir"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "run_all: these benchmarks did not run through: ${failed[*]}" >&2
  exit 1
fi
