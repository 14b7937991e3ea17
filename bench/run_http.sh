#!/usr/bin/env bash
# HTTP runner benchmark, run on demand (never in CI): idconform's cases/s against
# the example products server compared with wrk on the same URL, at concurrency 1
# and 16, and idconform's peak RSS for a 100,000-case run with a JUnit report.
# Builds Release in build-bench-http/ (BUILD_DIR overrides). Prints a table; exits
# non-zero only when something failed to run, never on a missed target.
#
# Knobs (environment): CASES (10000), RSS_CASES (100000), REPEAT (5 wrk runs and 5
# idconform runs per level, interleaved, medians compared), WRK_SECONDS (2), WRK_THREADS (1; wrk threads for the
# 16-connection run), SHAPE (for_each | cases, see bench/http/gen_suite.py),
# SERVER_THREADS (1), PIN (0; 1 = server on CPU 0, clients on CPU 1), KEEP_TMP (0).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$repo/build-bench-http}"
cases="${CASES:-10000}"
rss_cases="${RSS_CASES:-100000}"
repeat="${REPEAT:-5}"
wrk_seconds="${WRK_SECONDS:-2}"
wrk_threads="${WRK_THREADS:-1}"
shape="${SHAPE:-for_each}"
server_threads="${SERVER_THREADS:-1}"
pin="${PIN:-0}"

die() { echo "run_http: $*" >&2; exit 1; }
for tool in cmake ninja curl wrk python3 taskset; do
  command -v "$tool" >/dev/null || die "'$tool' is not installed"
done

cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" idconform products_server
idconform="$build/harness/cli/idconform"
server="$build/examples/products_server/products_server"

# With PIN=1 the server and the clients (idconform, wrk) get a core each; by
# default the scheduler places them (see bench/README.md for what was fairer).
server_cpu=() client_cpu=()
if [ "$pin" = 1 ]; then server_cpu=(taskset -c 0); client_cpu=(taskset -c 1); fi

work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  if [ "${KEEP_TMP:-0}" = 1 ]; then echo "run_http: files kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

"${server_cpu[@]}" "$server" --port 0 --threads "$server_threads" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
base_url=""
for _ in $(seq 1 100); do
  base_url=$(sed -n 's/^listening on \(http:\/\/[^ ]*\).*/\1/p' "$work/server.out" | head -n 1)
  [ -n "$base_url" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; die "the products server did not start"; }
  sleep 0.1
done
[ -n "$base_url" ] || die "the products server did not report its port"

auth='Authorization: Bearer alice'
json_id() { python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])'; }
category_id=$(curl -sSf -X POST -H "$auth" -H 'Content-Type: application/json' \
  -d '{"name": "bench"}' "$base_url/v1/categories" | json_id) || die "cannot create a category"
product_id=$(curl -sSf -X POST -H "$auth" -H 'Content-Type: application/json' \
  -d "{\"name\": \"bench\", \"category_id\": \"$category_id\", \"price\": 12}" "$base_url/v1/products" | json_id) \
  || die "cannot create a product"
url="$base_url/v1/products/$product_id"
curl -sSf -o /dev/null -H "$auth" "$url" || die "GET $url does not answer 200"
echo "run_http: server at $base_url (threads $server_threads, pin $pin), product $product_id"

python3 "$repo/bench/http/gen_suite.py" --out "$work/s" --product-id "$product_id" --cases "$cases" --shape "$shape" >/dev/null
python3 "$repo/bench/http/gen_suite.py" --out "$work/rss" --product-id "$product_id" --cases "$rss_cases" --shape "$shape" >/dev/null

now_ns() { date +%s%N; }

# One idconform run; prints "wall_s run_s cpu_s". wall is the whole process; run
# is the runner's own "in X s" (the cases only: no suite loading, no JUnit
# writing); cpu is the process's user + system time (bash's time keyword).
run_idconform() {  # suite concurrency junit log
  local rc=0 n run_s
  { TIMEFORMAT='%R %U %S'; time IDCONFORM_BASE_URL="$base_url" "${client_cpu[@]}" "$idconform" run "$1" \
      --concurrency "$2" --junit "$3" --no-progress >"$4" 2>&1; } 2>"$4.time" || rc=$?
  n=$(sed -n 's/^OK \([0-9]*\) tests: passed \1,.*/\1/p' "$4")
  if [ "$rc" != 0 ] || [ -z "$n" ]; then tail -n 5 "$4" >&2; die "idconform run failed (exit $rc, see above)"; fi
  run_s=$(sed -n 's/^OK .* in \([0-9.]*\) s$/\1/p' "$4")
  awk -v r="$run_s" '{ printf "%s %s %.3f\n", $1, r, $2 + $3 }' "$4.time"
}

run_wrk() {  # threads connections -> "requests/s cpu_us_per_request"
  local out rc=0
  { TIMEFORMAT='%R %U %S'; time "${client_cpu[@]}" wrk -t"$1" -c"$2" -d"${wrk_seconds}s" -H "$auth" "$url" \
      >"$work/wrk.out"; } 2>"$work/wrk.time" || rc=$?
  out=$(cat "$work/wrk.out")
  [ "$rc" = 0 ] || { echo "$out" >&2; die "wrk failed (exit $rc)"; }
  if grep -q 'Non-2xx' <<<"$out"; then echo "$out" >&2; die "wrk got answers other than 200"; fi
  awk -v cpu="$(awk '{ print $2 + $3 }' "$work/wrk.time")" '
    / requests in / { n = $1 } /^Requests\/sec:/ { r = $2 } END { printf "%s %.1f\n", r, cpu * 1e6 / n }' <<<"$out"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A wall run cpu wrk_rps wrk_cpu
for level in 1 16; do
  threads=1; [ "$level" = 16 ] && threads="$wrk_threads"
  # wrk and idconform interleaved, REPEAT times each, medians compared: on a
  # shared machine whose speed drifts within seconds, both then sample the
  # same stretches of time.
  : >"$work/times-$level"
  : >"$work/wrk-$level"
  for i in $(seq 1 "$repeat"); do
    run_wrk "$threads" "$level" >>"$work/wrk-$level"
    run_idconform "$work/s/suite.yaml" "$level" "$work/junit-$level.xml" "$work/log-$level-$i" >>"$work/times-$level"
  done
  wrk_rps[$level]=$(awk '{ print $1 }' "$work/wrk-$level" | median)
  wrk_cpu[$level]=$(awk '{ print $2 }' "$work/wrk-$level" | median)
  wall[$level]=$(awk '{ print $1 }' "$work/times-$level" | median)
  run[$level]=$(awk '{ print $2 }' "$work/times-$level" | median)
  cpu[$level]=$(awk '{ print $3 }' "$work/times-$level" | median)
  echo "run_http: concurrency $level: wrk req/s: $(awk '{ printf "%s ", $1 }' "$work/wrk-$level"); idconform wall s: $(awk '{ printf "%s ", $1 }' "$work/times-$level")"
done

# Peak RSS of a big run with JUnit: GNU time when installed (Debian 'time'),
# else the kernel's high-water mark polled from /proc.
rss_kb=""
t0=$(now_ns)
if [ -x /usr/bin/time ]; then
  IDCONFORM_BASE_URL="$base_url" "${client_cpu[@]}" /usr/bin/time -f 'maxrss_kb %M' -o "$work/rss.time" \
    "$idconform" run "$work/rss/suite.yaml" --concurrency 16 --junit "$work/rss-junit.xml" --no-progress \
    >"$work/rss.log" 2>&1 || { tail -n 5 "$work/rss.log" >&2; die "the ${rss_cases}-case run failed"; }
  rss_kb=$(awk '/^maxrss_kb/ { print $2 }' "$work/rss.time")
else
  IDCONFORM_BASE_URL="$base_url" "${client_cpu[@]}" "$idconform" run "$work/rss/suite.yaml" --concurrency 16 \
    --junit "$work/rss-junit.xml" --no-progress >"$work/rss.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$hwm" ] && rss_kb=$hwm
    sleep 0.02
  done
  wait "$pid" || { tail -n 5 "$work/rss.log" >&2; die "the ${rss_cases}-case run failed"; }
fi
t1=$(now_ns)
grep -q "^OK $rss_cases tests: passed $rss_cases," "$work/rss.log" || { tail -n 5 "$work/rss.log" >&2; die "the ${rss_cases}-case run did not pass"; }
rss_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
junit_mb=$(awk -v b="$(stat -c %s "$work/rss-junit.xml")" 'BEGIN { printf "%.1f", b / 1048576 }')

echo
echo "idconform HTTP benchmark: $cases GET cases ($shape); medians of $repeat idconform runs and $repeat wrk runs of ${wrk_seconds} s, interleaved"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); server threads $server_threads, pin $pin"
awk -v n="$cases" -v wt="$wrk_threads" -v rss="$rss_kb" -v rn="$rss_cases" -v rw="$rss_wall" -v jm="$junit_mb" \
    -v w1="${wall[1]}" -v r1="${run[1]}" -v c1="${cpu[1]}" -v k1="${wrk_rps[1]}" -v kc1="${wrk_cpu[1]}" \
    -v w16="${wall[16]}" -v r16="${run[16]}" -v c16="${cpu[16]}" -v k16="${wrk_rps[16]}" -v kc16="${wrk_cpu[16]}" '
function row(level, wrkargs, wall, runs, cpu, wrk, wrkcpu,   a, b) {
  a = n / wall; b = n / runs
  printf "%-14s %9.0f %9.0f %9.0f %-9s %7.2fx %7.2fx %8.1f %8.1f   %s\n", "concurrency " level, a, b, wrk, wrkargs,
    a / wrk, b / wrk, cpu * 1e6 / n, wrkcpu, (a / wrk >= 0.5 ? "met" : "NOT met")
}
BEGIN {
  printf "%-14s %9s %9s %9s %-9s %8s %8s %8s %8s   %s\n", "", "cases/s", "cases/s", "wrk", "", "ratio", "ratio", "CPU us", "CPU us", "target"
  printf "%-14s %9s %9s %9s %-9s %8s %8s %8s %8s   %s\n", "", "(wall)", "(run)", "req/s", "(args)", "(wall)", "(run)", "/case", "/wrk req", ">= 0.5x wrk"
  row(1, "-t1 -c1", w1, r1, c1, k1, kc1)
  row(16, "-t" wt " -c16", w16, r16, c16, k16, kc16)
  printf "\npeak RSS, %d cases, --concurrency 16, --junit (%s MB): %.1f MB in %s s   target < 100 MB: %s\n",
    rn, jm, rss / 1024, rw, (rss / 1024 < 100 ? "met" : "NOT met")
  print "wall: whole idconform process (suite loading and JUnit writing included); run: the runner'"'"'s own"
  print "case time; CPU us: client user+system CPU per case / per wrk request (idconform: whole process)."
}'
# Rows for bench/run_all.sh: rates and CPU as "x wrk" (higher is better).
awk -v n="$cases" -v w1="${wall[1]}" -v c1="${cpu[1]}" -v k1="${wrk_rps[1]}" -v kc1="${wrk_cpu[1]}" \
    -v w16="${wall[16]}" -v c16="${cpu[16]}" -v k16="${wrk_rps[16]}" -v kc16="${wrk_cpu[16]}" '
function rows(level, wall, cpu, wrk, wrkcpu,   a, u) {
  a = n / wall; u = cpu * 1e6 / n
  printf "http\t-j %d, cases/s (wall)\t%.0f /s\twrk -c%d %.0f req/s\t%.2f\t0.8\n", level, a, level, wrk, a / wrk
  printf "http\t-j %d, client CPU per case\t%.1f us\twrk -c%d %.1f us/req\t%.2f\t0.5\n", level, u, level, wrkcpu, wrkcpu / u
}
BEGIN { rows(1, w1, c1, k1, kc1); rows(16, w16, c16, k16, kc16) }' >>"${BENCH_ROWS:-/dev/null}"
