#!/usr/bin/env bash
# Installs the Debian packages idconform needs, for one job:
#   scripts/setup.sh main    build idconform and the example server, run the demo (scripts/demo.sh)
#   scripts/setup.sh tests   main + what the tests use: JUnit schema checks, TLS, a browser for
#                            the HTML report, clang for fuzzing, debootstrap, the third-party
#                            npm servers (scripts/test.sh; the default)
#   scripts/setup.sh bench   main + the benchmarks' baselines (wrk, ripgrep, Google Benchmark)
#   scripts/setup.sh all     everything
#   scripts/setup.sh JOB --list   print the job's packages and install nothing
# Idempotent and non-interactive; run as root on Debian 12. Packages already
# present are not touched, and apt is not even called when nothing is missing.
set -euo pipefail

job="${1:-tests}"
case "$job" in
  main|tests|bench|all) ;;
  *) echo "setup: unknown job '$job' (main, tests, bench or all)" >&2; exit 2 ;;
esac

packages=(
  # build
  cmake ninja-build pkg-config ccache g++
  # libraries (Boost 1.81: Debian's default 1.74 has no Boost.JSON)
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libre2-dev doctest-dev libyaml-cpp-dev libcli11-dev libpugixml-dev libssl-dev
  # gRPC transport: dynamic messages, generated example service, reflection protos
  libgrpc++-dev libprotobuf-dev libprotoc-dev protobuf-compiler protobuf-compiler-grpc grpc-proto
  # Kafka transport (librdkafka, with its in-process mock cluster)
  librdkafka-dev
  # allocator of the idconform executable (cmake -DIDCONFORM_JEMALLOC=OFF to do without)
  libjemalloc-dev
  # idconform db: the PostgreSQL client library; the demo's database (the
  # example server's storage, audited next to the API run)
  libpq-dev postgresql-15
)
if [ "$job" = tests ] || [ "$job" = all ]; then
  packages+=(
    # tests: JUnit schema validation, TLS certificates, HTTP peers, a Kafka client
    libxml2-utils openssl curl kcat
    # tests: the man page checked by groff and man, the completions by their shells (tests/cli/help_docs.sh)
    groff-base man-db zsh fish
    # tests: the CI recipes against the published GitHub and GitLab schemas (tests/ci/recipes.py)
    python3-jsonschema python3-yaml
    # tests: the .deb installed into a clean Debian 12 root (tests/e2e/package_clean_root.sh)
    debootstrap
    # tests: the HTML report loaded in a real browser (headless)
    chromium
    # tests: idconform db against a real server the test starts (tests/e2e/db.sh)
    postgresql-15
    # fuzzing (scripts/fuzz.sh; the test command's smoke run): clang 14 with
    # libFuzzer and the ASan/UBSan runtimes
    clang-14 libclang-rt-14-dev
  )
fi
if [ "$job" = bench ] || [ "$job" = all ]; then
  packages+=(
    # benchmarks (run on demand) and their baselines
    libbenchmark-dev wrk ripgrep curl
    # bench/db_scan.sh: a server with a 10M-row table, and psql's \copy as the baseline
    postgresql-15
  )
fi

if [ "${2:-}" = --list ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm run the third-party API servers of the tests (json-server,
# Mockoon). A machine that has them from elsewhere keeps its own.
if [ "$job" = tests ] || [ "$job" = all ]; then
  command -v npm >/dev/null || missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup ($job): all ${#packages[@]} packages present"
elif [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing packages: ${missing[*]}; run this script as root to install them" >&2
  exit 1
else
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The third-party servers, pinned by tests/third_party/*/package-lock.json,
# from the npm registry (skipped when installed).
if [ "$job" = tests ] || [ "$job" = all ]; then
  bash "$(dirname "$0")/third_party.sh" install
fi
