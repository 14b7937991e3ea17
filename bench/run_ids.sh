#!/usr/bin/env bash
# Builds bench/ids_bench in Release (build-bench/ unless BUILD_DIR is set),
# runs it, and prints the two figures the project tracks: strict check vs RE2
# (target >= 10x) and UUIDv7 generations per second on one core (target >= 10M/s).
# With BENCH_ROWS=FILE the ratio is appended to FILE (bench/run_all.sh).
# Extra CMake arguments may be passed in CMAKE_ARGS; benchmark arguments after --.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench}"
# shellcheck disable=SC2086  # CMAKE_ARGS is a list of words on purpose
cmake -S "$repo" -B "$build" -G Ninja -DIDCONFORM_BENCH=ON -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_TESTING=OFF ${CMAKE_ARGS:-} >/dev/null
ninja -C "$build" ids_bench
[[ "${1:-}" == "--" ]] && shift
json="$build/ids_bench.json"
"$build/bench/ids_bench" --benchmark_out="$json" --benchmark_out_format=json \
  --benchmark_repetitions="${REPETITIONS:-3}" --benchmark_report_aggregates_only=true "$@"
python3 - "$json" "${BENCH_ROWS:-/dev/null}" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
rate = {}
for b in data["benchmarks"]:
    # With repetitions, use the median; a single run has no aggregate rows.
    if b.get("aggregate_name", "median") == "median" and "items_per_second" in b:
        rate[b.get("run_name", b["name"])] = b["items_per_second"]
strict, re2 = rate["BM_strict_check_v7"], rate["BM_re2_fullmatch_v7"]
v7 = rate["BM_v7_generator_next"]
ratio = strict / re2
print()
print("strict check      %12.0f items/s" % strict)
print("RE2 FullMatch     %12.0f items/s" % re2)
print("recognize()       %12.0f items/s" % rate["BM_recognize"])
print("strict / RE2      %12.1fx   (target >= 10x: %s)" % (ratio, "met" if ratio >= 10 else "NOT met"))
print("v7 generation     %12.0f /s     (target >= 10M/s: %s)" % (v7, "met" if v7 >= 10e6 else "NOT met"))
print("v4 generation     %12.0f /s" % rate["BM_generate_v4"])
with open(sys.argv[2], "a") as rows:  # for bench/run_all.sh
    rows.write("ids\tstrict v7 check vs RE2 FullMatch\t%.1f M/s\tRE2 %.1f M/s\t%.2f\t10\n" % (strict / 1e6, re2 / 1e6, ratio))
PY
