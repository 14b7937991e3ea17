#!/usr/bin/env bash
# The idconform executable itself under AddressSanitizer + UBSan (leak
# detection on), through the end-to-end tier: real sockets, the example
# server, the hostile peers (tests/e2e/hostile.sh: silent, stalling, endless,
# resetting and garbage answers, stray bytes, huge and deep bodies, echoed
# secrets), reports read back and written (tests/e2e/report_files.sh), bad
# inputs, interrupts, the database audit. The unit tests already run under the
# sanitizers in the test command; this is the whole program. On demand: a
# cold build is ~180 files (5-10 minutes on 2 cores), the whole tier about 7.
#
#   scripts/asan_e2e.sh                 every e2e test (ctest -L e2e) but the
#                                       package and CI-recipe ones
#   scripts/asan_e2e.sh SCRIPT:SCENARIO...   e.g. hostile:stray report_files:reader
#
# Builds build-asan-cli/ (Debug, -DIDCONFORM_SANITIZE=ON). The scripts run
# with SANITIZED=1 (tests/e2e/lib.sh): no `ulimit -v`, which the sanitizer's
# shadow memory cannot live under, and 5x their time and 12x their memory
# bounds; ASan's quarantine of freed memory is 64 MB (its 256 MB default alone
# is more than several memory bounds). A sanitizer report makes idconform exit
# 99 (ASan, leaks) or 98 (UBSan), which no test expects; the scenario form also
# fails on any report in its output, and keeps the log it names.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# exitcode: a sanitizer's report must never pass for idconform's own exit 1
# (a broken contract) or 2; 99 and 98 are codes idconform never uses.
export SANITIZED=1 ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64:exitcode=99 \
       UBSAN_OPTIONS=print_stacktrace=1:exitcode=98

echo "== idconform under ASan + UBSan (build-asan-cli/)"
cmake -S . -B build-asan-cli -G Ninja -DCMAKE_BUILD_TYPE=Debug -DIDCONFORM_WERROR=ON -DIDCONFORM_SANITIZE=ON >/dev/null
cmake --build build-asan-cli -j "$(nproc)" --target idconform products_server

if [ $# -eq 0 ]; then
    exec ctest --test-dir build-asan-cli -L e2e -E 'package|ci_recipes' -j "$(nproc)" --timeout 600 --output-on-failure
fi

logs=$(mktemp -d)
failed=0
for s in "$@"; do
    script=${s%%:*} scenario=${s#*:}
    [ -f "tests/e2e/$script.sh" ] || { echo "asan_e2e: no tests/e2e/$script.sh (SCRIPT:SCENARIO, e.g. hostile:stray)" >&2; exit 2; }
    log="$logs/$script.$scenario.log"
    if IDCONFORM_BIN="$PWD/build-asan-cli/harness/cli/idconform" \
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
