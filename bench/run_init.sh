#!/usr/bin/env bash
# `idconform init --from-openapi` and `idconform lint` on generated documents of
# growing size (bench/init_gen.py N: N resources, each a collection and an item
# path), best of 3 wall-clock runs each, against python3's json.load of the
# same document in the same run (the baseline: reading the text at all). Time
# per resource that stays flat as N grows is linear; the old drafter grew
# faster than the square (1,000 POST paths: 78-107 s).
# Usage: bench/run_init.sh [path/to/idconform] [N...]   (default N: 500 1000 2000 4000)
set -euo pipefail
bin=$(readlink -f "${1:-build/harness/cli/idconform}")
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(500 1000 2000 4000)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
best() {  # best of 3 runs of "$@", in seconds
  local b= t s e
  for _ in 1 2 3; do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [[ -z $b ]] || (( $(echo "$t < $b" | bc) )); then b=$t; fi
  done
  echo "$b"
}
printf '%8s %9s %10s %12s %10s %12s %10s\n' resources MB init_s us/resource lint_s json.load_s init/load
for n in "${sizes[@]}"; do
  doc="$work/doc-$n.json"
  python3 "$here/init_gen.py" "$n" >"$doc"
  mb=$(echo "scale=2; $(stat -c %s "$doc") / 1048576" | bc)
  init=$(best "$bin" init --from-openapi "$doc" -o "$work/draft-$n.yaml" --force)
  lint=$(best "$bin" lint -q "$doc")
  load=$(best python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$doc")
  printf '%8d %9s %10.3f %12.1f %10.3f %12.3f %10.1f\n' "$n" "$mb" "$init" "$(echo "$init * 1000000 / $n" | bc -l)" \
    "$lint" "$load" "$(echo "$init / $load" | bc -l)"
done
