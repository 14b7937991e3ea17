#!/usr/bin/env bash
# Scan throughput against ripgrep on the same file, in the same run: generates
# a >= 1 GB NDJSON export and a CSV export under /tmp (SIZE_MB, default 1100),
# warms the page cache, then times `rg -c` with the DATA-ID-002 v7 pattern and
# `idconform scan` on each file (best of RUNS each, default 5, interleaved) and prints MB/s and
# the ratio. Target: idconform >= ripgrep.
# Uses the idconform binary in BUILD_DIR (default build-bench/, configured
# RelWithDebInfo like a normal build and built if missing); IDCONFORM_BIN overrides.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench}"
size_mb="${SIZE_MB:-1100}"
runs="${RUNS:-5}"
dir="${SCAN_DIR:-/tmp/idconform-scan-bench}"
if [[ -z "${IDCONFORM_BIN:-}" ]]; then
  cmake -S "$repo" -B "$build" -G Ninja -DBUILD_TESTING=OFF >/dev/null
  ninja -C "$build" idconform >/dev/null
  IDCONFORM_BIN="$build/harness/cli/idconform"
fi
command -v rg >/dev/null || { echo "ripgrep (rg) is needed: apt-get install ripgrep" >&2; exit 2; }
mkdir -p "$dir"
pattern='[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}'

# wall time (seconds) of one run of a command; its output is discarded
time_of() {
  local s e
  s=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  e=$(date +%s.%N)
  echo "$e - $s" | bc -l
}

# best wall times of $runs runs each of rg and idconform, interleaved (rg,
# idconform, rg, ...): on a shared machine whose speed drifts, both tools then
# sample the same stretches of time. Prints "rg_best id_best".
best_pair() {  # file
  local rb="" ib="" t
  for _ in $(seq "$runs"); do
    t=$(time_of rg -c "$pattern" "$1")
    if [[ -z "$rb" ]] || (( $(echo "$t < $rb" | bc -l) )); then rb=$t; fi
    t=$(time_of "$IDCONFORM_BIN" scan -q "$1")
    if [[ -z "$ib" ]] || (( $(echo "$t < $ib" | bc -l) )); then ib=$t; fi
  done
  echo "$rb $ib"
}

for fmt in ndjson csv; do
  file="$dir/export.$fmt"
  if [[ ! -f "$file" || $(stat -c %s "$file") -lt $((size_mb << 20)) ]]; then
    echo "generating $file ($size_mb MiB)..." >&2
    python3 "$repo/bench/scan_gen.py" "$fmt" "$file" "$size_mb"
  fi
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null  # page cache: both tools read from memory
  read -r rg_t id_t < <(best_pair "$file")
  rg_count=$(rg -c "$pattern" "$file" || true)
  set +e
  "$IDCONFORM_BIN" scan -q "$file" 2>"$dir/scan.$fmt.err"
  code=$?
  set -e
  [[ $code -eq 1 ]] || { cat "$dir/scan.$fmt.err" >&2; echo "idconform scan exited $code, expected 1 (violations)" >&2; exit 1; }
  python3 - "$fmt" "$bytes" "$rg_t" "$id_t" "$rg_count" "$(tail -n 1 "$dir/scan.$fmt.err")" <<'PY'
import sys
fmt, size, rg_t, id_t, rg_count, summary = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
mb = size / 1e6
print(f"{fmt}: {mb:.0f} MB")
print(f"  rg -c (v7 pattern)   {rg_t:7.2f} s  {mb / rg_t:8.0f} MB/s   ({rg_count} matching lines)")
print(f"  idconform scan       {id_t:7.2f} s  {mb / id_t:8.0f} MB/s   ({summary})")
ratio = rg_t / id_t
print(f"  idconform / rg       {ratio:7.2f}x  (target >= 1: {'met' if ratio >= 1 else 'NOT met'})")
PY
done
