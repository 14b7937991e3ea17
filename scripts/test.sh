#!/usr/bin/env bash
# The test command: installs what is missing, configures, builds and runs
# every test (unit and end-to-end) with warnings as errors, then builds the
# unit tests again with AddressSanitizer + UBSan and runs them, and gives each
# libFuzzer target (fuzz/) a short run over its corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# ccache: share hits between clones and CI checkouts on this machine.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true

bash scripts/setup.sh tests

echo "== build (RelWithDebInfo, -Werror)"
cmake -S . -B build -G Ninja -DIDCONFORM_WERROR=ON >/dev/null
cmake --build build -j "$jobs"
echo "== tests"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 300

echo "== unit tests under AddressSanitizer + UBSan"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DIDCONFORM_WERROR=ON \
  -DIDCONFORM_SANITIZE=ON -DIDCONFORM_UNIT_ONLY=ON >/dev/null
cmake --build build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -L unit --output-on-failure -j "$jobs" --timeout 600
echo "== fuzz targets: replay of every corpus input, then a few seconds of fuzzing each"
bash scripts/fuzz.sh --smoke 3
echo "== all tests passed"
