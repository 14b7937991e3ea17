#!/usr/bin/env bash
# Time and peak memory of `idconform lint` on the third-party documents of
# tests/schema/documents/ (best of 5 wall-clock runs each; max RSS from GNU time).
# Usage: bench/run_lint.sh [path/to/idconform]
set -euo pipefail
bin=$(readlink -f "${1:-build/harness/cli/idconform}")
shared=$(cd "$(dirname "$0")/../tests/schema/documents" && pwd)
cd "$shared"
for doc in hatchet/api-contracts/openapi/openapi.yaml outline/spec3.yml qdrant/openapi.json ory-kratos/api.json harbor/swagger.yaml; do
  best=
  for _ in 1 2 3 4 5; do
    s=$(date +%s.%N); "$bin" lint -q "$doc" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [[ -z $best ]] || (( $(echo "$t < $best" | bc) )); then best=$t; fi
  done
  rss=$( { /usr/bin/time -f %M "$bin" lint -q "$doc" >/dev/null 2>/tmp/idconform-lint-time.$$ || true; } ; tail -1 /tmp/idconform-lint-time.$$)
  printf '%-45s %6.3f s  %6d KiB max RSS\n' "$doc" "$best" "$rss"
done
