#!/usr/bin/env bash
# Scan throughput against ripgrep on the same file, in the same run: generates
# a NDJSON export and a CSV export under /tmp (SIZE_MB each, default 256),
# warms the page cache, then times `rg -c` with the DATA-ID-002 v7 pattern and
# `idconform scan -q` on each file, RUNS times each (default 7), interleaved
# (rg, idconform, rg, ...), and prints the medians of wall and CPU time
# (user + system) with the ratios rg / idconform. Target: idconform >= 2x rg,
# wall and CPU. With BENCH_ROWS=FILE the ratios are also appended to FILE as
# rows for bench/run_all.sh.
# Uses the idconform binary in BUILD_DIR (default build-bench/, configured
# Release and built if missing); IDCONFORM_BIN overrides.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench}"
size_mb="${SIZE_MB:-256}"
runs="${RUNS:-7}"
dir="${SCAN_DIR:-/tmp/idconform-scan-bench}"
rows="${BENCH_ROWS:-/dev/null}"
if [[ -z "${IDCONFORM_BIN:-}" ]]; then
  [[ -f "$build/build.ninja" ]] || cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
  ninja -C "$build" idconform >/dev/null
  IDCONFORM_BIN="$build/harness/cli/idconform"
fi
command -v rg >/dev/null || { echo "ripgrep (rg) is needed: apt-get install ripgrep" >&2; exit 2; }
mkdir -p "$dir"
pattern='[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'

# "wall cpu" seconds of one run of a command; its output is discarded
time_of() {
  local t
  t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1 || true; } 2>&1 )
  awk '{ printf "%s %.3f\n", $1, $2 + $3 }' <<<"$t"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for fmt in ndjson csv; do
  file="$dir/export-$size_mb.$fmt"
  if [[ ! -f "$file" ]]; then
    echo "generating $file ($size_mb MiB)..." >&2
    python3 "$repo/bench/scan_gen.py" "$fmt" "$file" "$size_mb"
  fi
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null  # page cache: both tools read from memory
  : >"$dir/rg.$fmt" && : >"$dir/id.$fmt"
  for _ in $(seq "$runs"); do
    time_of rg -c "$pattern" "$file" >>"$dir/rg.$fmt"
    time_of "$IDCONFORM_BIN" scan -q "$file" >>"$dir/id.$fmt"
  done
  rg_wall=$(awk '{ print $1 }' "$dir/rg.$fmt" | median)
  rg_cpu=$(awk '{ print $2 }' "$dir/rg.$fmt" | median)
  id_wall=$(awk '{ print $1 }' "$dir/id.$fmt" | median)
  id_cpu=$(awk '{ print $2 }' "$dir/id.$fmt" | median)
  rg_count=$(rg -c "$pattern" "$file" || true)
  set +e
  "$IDCONFORM_BIN" scan -q "$file" 2>"$dir/scan.$fmt.err"
  code=$?
  set -e
  [[ $code -eq 1 ]] || { cat "$dir/scan.$fmt.err" >&2; echo "idconform scan exited $code, expected 1 (violations)" >&2; exit 1; }
  python3 - "$fmt" "$bytes" "$rg_wall" "$rg_cpu" "$id_wall" "$id_cpu" "$rg_count" "$(tail -n 1 "$dir/scan.$fmt.err")" "$runs" "$rows" <<'PY'
import sys
fmt, size = sys.argv[1], int(sys.argv[2])
rg_w, rg_c, id_w, id_c = map(float, sys.argv[3:7])
rg_count, summary, runs, rows = sys.argv[7], sys.argv[8], sys.argv[9], sys.argv[10]
mb = size / 1e6
print(f"{fmt}: {mb:.0f} MB, medians of {runs} interleaved runs")
print(f"  rg -c (v7 pattern)   wall {rg_w:6.3f} s {mb / rg_w:7.0f} MB/s   CPU {rg_c:6.3f} s   ({rg_count} matching lines)")
print(f"  idconform scan       wall {id_w:6.3f} s {mb / id_w:7.0f} MB/s   CPU {id_c:6.3f} s   ({summary})")
for what, r in (("wall", rg_w / id_w), ("CPU", rg_c / max(id_c, 1e-3))):
    print(f"  rg / idconform {what:<5} {r:6.2f}x  (target >= 2: {'met' if r >= 2 else 'NOT met'})")
with open(rows, "a") as out:
    out.write(f"scan\t{fmt} {mb:.0f} MB, wall\t{id_w:.3f} s\trg -c {rg_w:.3f} s\t{rg_w / id_w:.2f}\t2\n")
    out.write(f"scan\t{fmt} {mb:.0f} MB, CPU\t{id_c:.3f} s\trg -c {rg_c:.3f} s\t{rg_c / max(id_c, 1e-3):.2f}\t2\n")
PY
done
