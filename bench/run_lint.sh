#!/usr/bin/env bash
# `idconform lint` on large documents, two tables:
# 1. throughput in MB of document per CPU second (user + system, start-up
#    included, best of REPEAT=3) on generated documents of 1, 5 and 10 MB
#    (bench/lint_gen.py, the same document as JSON and as YAML) and on the
#    largest real documents, against python3's json.load (JSON) and PyYAML's
#    libyaml loader (YAML) on the same files in the same run; with more
#    binaries (older builds), their MB/s beside (bench/lint_speed.py);
# 2. wall time (best of 5) and peak memory (GNU time) on the third-party
#    documents of tests/schema/documents/.
# Usage: bench/run_lint.sh [path/to/idconform] [path/to/other/idconform...]   (env SIZES="1 5 10", REPEAT=3)
set -euo pipefail
bin=$(readlink -f "${1:-build/harness/cli/idconform}")
shift || true
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/lint_speed.py" "$bin" "$@"
echo
shared=$(cd "$here/../tests/schema/documents" && pwd)
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
rm -f /tmp/idconform-lint-time.$$
