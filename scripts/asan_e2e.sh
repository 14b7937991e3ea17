#!/usr/bin/env bash
# The idconform executable itself under AddressSanitizer + UBSan (leak
# detection on), against the hostile peers of the end-to-end tier: every
# scenario of tests/e2e/hostile.sh (silent, stalling, endless, resetting,
# garbage, stray bytes, huge and deep answers, secrets echoed) and of
# tests/e2e/report_files.sh (reports written against a gzip bomb and garbage,
# cut and damaged copies read back by `report`, `merge` and `--baseline`,
# report writers on devices, FIFOs and links). The unit tests already run under
# the sanitizers in the test command; this is the whole program on real
# sockets. On demand (a cold build is ~180 files, 5-10 minutes on 2 cores):
#
#   scripts/asan_e2e.sh [SCENARIO...]   e.g. hostile:stray report_files:reader
#
# Builds build-asan-cli/ (Debug, -DIDCONFORM_SANITIZE=ON). The scripts run
# with SANITIZED=1 (tests/e2e/lib.sh): no `ulimit -v`, whose limit the
# sanitizer's shadow memory cannot live under, and 5x their time and 12x their
# memory bounds. A sanitizer report makes idconform exit with an unexpected
# code, which fails the scenario; its output is kept in the log named.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true

all=(hostile:timeouts hostile:garbage hostile:stray hostile:limits hostile:deep hostile:scan-cap hostile:secrets
     report_files:reader report_files:writers report_files:exits)
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=("${all[@]}")

echo "== idconform under ASan + UBSan (build-asan-cli/)"
cmake -S . -B build-asan-cli -G Ninja -DCMAKE_BUILD_TYPE=Debug -DIDCONFORM_WERROR=ON -DIDCONFORM_SANITIZE=ON >/dev/null
cmake --build build-asan-cli -j "$(nproc)" --target idconform products_server

logs=$(mktemp -d)
failed=0
for s in "${scenarios[@]}"; do
    script=${s%%:*} scenario=${s#*:}
    [ -f "tests/e2e/$script.sh" ] || { echo "asan_e2e: no tests/e2e/$script.sh (scenarios: ${all[*]})" >&2; exit 2; }
    log="$logs/$script.$scenario.log"
    if SANITIZED=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
       IDCONFORM_BIN="$PWD/build-asan-cli/harness/cli/idconform" \
       PRODUCTS_SERVER="$PWD/build-asan-cli/examples/products_server/products_server" SRC="$PWD" \
       bash "tests/e2e/$script.sh" "$scenario" >"$log" 2>&1 &&
       ! grep -q "AddressSanitizer\|LeakSanitizer\|runtime error:" "$log"; then
        echo "ok   $s"
    else
        echo "FAIL $s (log: $log)"; grep -m5 "FAIL\|Sanitizer\|runtime error:" "$log" || tail -5 "$log"
        failed=1
    fi
done
[ "$failed" = 0 ] && rm -rf "$logs"
exit "$failed"
