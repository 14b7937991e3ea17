#!/usr/bin/env bash
# The third-party API servers the end-to-end tests run idconform against
# (servers nobody on this project wrote): json-server 0.17 and 1.0,
# json-server-auth (0.17 with users and guarded routes), the Mockoon CLI,
# PouchDB Server (CouchDB's HTTP API, in memory) and LoopBack 4's
# Todo example application. Each is pinned, with its whole dependency tree, by the
# package.json and package-lock.json in tests/third_party/<name>/, and
# installed with `npm ci` from the npm registry into a cache folder outside
# the work tree (one per name and lock file, so a new pin installs anew).
#
#   scripts/third_party.sh install   installs what is missing (idempotent)
#   scripts/third_party.sh dir NAME  prints where NAME is installed
#   source scripts/third_party.sh    defines third_party_dir NAME
# IDCONFORM_THIRD_PARTY_DIR overrides the cache folder.
set -euo pipefail

third_party_src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/third_party"
third_party_names=(json-server-0.17 json-server-1 mockoon json-server-auth pouchdb-server loopback-todo)

# The install folder of NAME: keyed by a hash of its lock file.
third_party_dir() {
  local name=$1 root=${IDCONFORM_THIRD_PARTY_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/idconform/third-party}
  local key
  key=$(sha256sum "$third_party_src/$name/package-lock.json" | cut -c1-12)
  echo "$root/$name-$key"
}

third_party_install() {
  if ! command -v npm >/dev/null; then
    echo "third-party: npm is missing (Debian: apt-get install nodejs npm)" >&2
    return 1
  fi
  local name dir
  for name in "${third_party_names[@]}"; do
    dir=$(third_party_dir "$name")
    if [ -f "$dir/.installed" ]; then
      echo "third-party: $name present"
      continue
    fi
    echo "third-party: installing $name into $dir"
    rm -rf "$dir.tmp"
    mkdir -p "$dir.tmp"
    cp "$third_party_src/$name/package.json" "$third_party_src/$name/package-lock.json" "$dir.tmp/"
    local flags=()
    # PouchDB Server's sqlite3 (for its --sqlite option, which the tests do not
    # use) would compile from source for a minute; the leveldown binaries it
    # loads ship prebuilt inside their package and need no install script.
    [ "$name" = pouchdb-server ] && flags+=(--ignore-scripts)
    (cd "$dir.tmp" && npm ci "${flags[@]}" --no-audit --no-fund --loglevel=error >/dev/null)
    rm -rf "$dir"
    mv "$dir.tmp" "$dir"
    touch "$dir/.installed"
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
  install) third_party_install ;;
  dir) third_party_dir "${2:?name}" ;;
  *) echo "usage: $0 install | dir NAME" >&2; exit 2 ;;
  esac
fi
