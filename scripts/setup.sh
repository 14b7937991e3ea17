#!/usr/bin/env bash
# Installs the Debian packages idconform needs to build, test and benchmark.
# Idempotent and non-interactive; run as root on Debian 12. Packages already
# present are not touched, and apt is not even called when nothing is missing.
set -euo pipefail

packages=(
  # build
  cmake ninja-build pkg-config ccache g++
  # libraries (Boost 1.81: Debian's default 1.74 has no Boost.JSON)
  libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
  libre2-dev doctest-dev libyaml-cpp-dev libcli11-dev libpugixml-dev libssl-dev
  # gRPC transport: dynamic messages, generated example service, reflection protos
  libgrpc++-dev libprotobuf-dev libprotoc-dev protobuf-compiler protobuf-compiler-grpc grpc-proto
  # Kafka transport (librdkafka, with its in-process mock cluster) and kcat for tests
  librdkafka-dev kcat
  # allocator of the idconform executable (cmake -DIDCONFORM_JEMALLOC=OFF to do without)
  libjemalloc-dev
  # tests: JUnit schema validation, TLS certificates, HTTP peers
  libxml2-utils openssl curl
  # tests: the .deb installed into a clean Debian 12 root (tests/e2e/package_clean_root.sh)
  debootstrap
  # tests: the HTML report loaded in a real browser (headless)
  chromium
  # fuzzing (scripts/fuzz.sh; the test command's smoke run): clang 14 with
  # libFuzzer and the ASan/UBSan runtimes
  clang-14 libclang-rt-14-dev
  # benchmarks (run on demand)
  libbenchmark-dev wrk ripgrep
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Node.js and npm run the third-party API servers of the tests (json-server,
# Mockoon). A machine that has them from elsewhere keeps its own.
command -v npm >/dev/null || missing+=(nodejs npm)

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
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
bash "$(dirname "$0")/third_party.sh" install
