#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang + ASan + UBSan, in build-fuzz/)
# and runs them on their checked-in corpora (fuzz/corpus/TARGET).
#
#   scripts/fuzz.sh [--smoke] [--runs N] [SECONDS] [TARGET...]
#
#   SECONDS   fuzzing time per target (default 600); 0: only replay the corpus
#   --runs N  fuzz each target for N executions (libFuzzer -runs=N) instead;
#             SECONDS, when also given, caps the time (whichever comes first)
#   --smoke   the test command's run: replay every corpus input, then fuzz
#             each target for SECONDS (default 3)
#   TARGET    fuzz_ids fuzz_suite fuzz_profile fuzz_proto fuzz_scan fuzz_http_response
#             fuzz_json_pointer fuzz_json_report fuzz_waivers fuzz_openapi
#             fuzz_profile_draft fuzz_db (default: all)
#   FUZZ_JOBS=N    targets run at once (default 1; the machine is shared)
#   FUZZ_WORK=DIR  where new corpus entries, logs and crash files go
#                  (default: a fresh directory under /tmp)
#
# Each target has its own -max_len (max_len_of below): the size of input its
# reader needs to reach every limit it has (the HTTP answer: more than the
# 64 KiB header limit; an id or a JSON pointer: 4 KiB), since libFuzzer's
# inputs grow towards it and a larger input is a slower one. A dictionary
# fuzz/TARGET.dict, when there is one, is passed with -dict.
#
# A crash, hang (-timeout=10 s per input), leak, sanitizer report, a single
# allocation over 2 GB or a process over 3 GB fails the run. Never stop a
# running fuzzer (SIGSTOP): -timeout counts wall time, and the input it was on
# is then reported as a hang. The fuzzing step keeps ASan's quarantine of freed
# memory at 16 MB, not 256: over millions of inputs a larger one grows the
# process, not the target (fuzz_json_pointer on one corpus and binary: 1.7 GB
# after 380 k runs with 256 MB, 137 MB after 576 k with none; from the seeds,
# 677 MB after 2 M with 64 MB), and use after free is still caught for what
# was freed within the last 16 MB; for the same reason the process may reach
# 3 GB in all (-rss_limit_mb) while no allocation may pass 2 GB
# (-malloc_limit_mb). A failing input is kept in FUZZ_WORK. To make it a
# regression test, copy it into fuzz/corpus/TARGET/ as regress-WHAT and fix
# the bug: every later run (and scripts/test.sh) replays it. New corpus
# entries found by long runs can be merged in with
#   build-fuzz/fuzz/TARGET -merge=1 fuzz/corpus/TARGET FUZZ_WORK/TARGET/corpus
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true

smoke=0 runs=""
if [ "${1:-}" = "--smoke" ]; then smoke=1; shift; fi
if [ "${1:-}" = "--runs" ]; then
    runs=${2:?--runs needs a number of executions}; shift 2
    [[ "$runs" =~ ^[0-9]+$ ]] && [ "$runs" -gt 0 ] || { echo "fuzz.sh: --runs N: N must be a positive number" >&2; exit 2; }
fi
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then
    seconds=$1; shift
elif [ -n "$runs" ]; then
    seconds=""  # no time limit
else
    seconds=$([ $smoke = 1 ] && echo 3 || echo 600)
fi
all=(fuzz_ids fuzz_suite fuzz_profile fuzz_proto fuzz_scan fuzz_http_response fuzz_json_pointer fuzz_json_report
     fuzz_waivers fuzz_openapi fuzz_profile_draft fuzz_db)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
jobs=${FUZZ_JOBS:-1}
work=${FUZZ_WORK:-$(mktemp -d /tmp/idconform-fuzz.XXXXXX)}
mkdir -p "$work"

echo "== fuzz build (clang, ASan + UBSan, build-fuzz/)"
CC=clang-14 CXX=clang++-14 cmake -S . -B build-fuzz -G Ninja -DIDCONFORM_FUZZ=ON >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]}"

# max_len_of TARGET: the -max_len of its inputs (see the header)
max_len_of() {
    case $1 in
        fuzz_ids|fuzz_json_pointer|fuzz_db|fuzz_waivers) echo 4096 ;;
        fuzz_suite|fuzz_profile|fuzz_proto|fuzz_openapi|fuzz_profile_draft) echo 16384 ;;
        fuzz_http_response) echo 81920 ;;  # beyond the 64 KiB header limit (seed-huge-header: 70 KiB)
        *) echo 65536 ;;
    esac
}

run_one() {
    local t=$1 dir="$work/$1"
    mkdir -p "$dir/corpus"
    local opts=(-timeout=10 -rss_limit_mb=3072 -malloc_limit_mb=2048 -max_len="$(max_len_of "$t")" -print_final_stats=1
                -artifact_prefix="$dir/" -detect_leaks=1)
    [ -f "fuzz/$t.dict" ] && opts+=(-dict="fuzz/$t.dict")
    # 1. every checked-in input once (the regression tests)
    if ! ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
         "build-fuzz/fuzz/$t" "${opts[@]}" -runs=0 "fuzz/corpus/$t" >"$dir/replay.log" 2>&1; then
        echo "FAIL $t: a corpus input fails (log: $dir/replay.log)"; tail -30 "$dir/replay.log"; return 1
    fi
    [ -n "$runs" ] || [ "$seconds" -gt 0 ] || { echo "ok   $t: corpus replayed"; return 0; }
    # 2. fuzzing, new inputs into the work corpus (the checked-in one is read only)
    local limit=()
    [ -n "$runs" ] && limit+=(-runs="$runs")
    [ -n "$seconds" ] && [ "$seconds" -gt 0 ] && limit+=(-max_total_time="$seconds")
    local start=$SECONDS
    if ! ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 UBSAN_OPTIONS=print_stacktrace=1 \
         "build-fuzz/fuzz/$t" "${opts[@]}" "${limit[@]}" "$dir/corpus" "fuzz/corpus/$t" \
         >"$dir/fuzz.log" 2>&1; then
        echo "FAIL $t: see $dir/fuzz.log; the input is in $dir/"; grep -E "ERROR|SUMMARY|differ" "$dir/fuzz.log" | head -5
        return 1
    fi
    local execs load took=$(( SECONDS - start > 0 ? SECONDS - start : 1 ))
    load=$(cut -d' ' -f1-3 /proc/loadavg)  # exec/s depend on it: the machine is shared
    execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$dir/fuzz.log" | awk '{print $2}')
    echo "ok   $t: ${took}s, ${execs:-?} executions ($(( ${execs:-0} / took ))/s), corpus $(ls "$dir/corpus" | wc -l) new + $(ls "fuzz/corpus/$t" | wc -l) seeds, peak $(grep 'stat::peak_rss_mb:' "$dir/fuzz.log" | awk '{print $2}') MB, slowest input $(grep 'stat::slowest_unit_time_sec:' "$dir/fuzz.log" | awk '{print $2}') s, load average at the end $load"
}

echo "== fuzz $([ $smoke = 1 ] && echo smoke || echo run): $([ -n "$runs" ] && echo "$runs executions${seconds:+ or ${seconds}s}" || echo "${seconds}s") per target, $jobs at a time, work in $work"
status=0
pids=()
for t in "${targets[@]}"; do
    if [ "$jobs" -le 1 ]; then
        run_one "$t" || status=1
    else
        run_one "$t" & pids+=($!)
        if [ ${#pids[@]} -ge "$jobs" ]; then wait "${pids[0]}" || status=1; pids=("${pids[@]:1}"); fi
    fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
