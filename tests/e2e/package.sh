# The Debian package: `cpack -G DEB` from the build tree (no rebuild: it
# packs what the build made), its Depends are Debian 12 runtime libraries and
# never -dev packages, it holds the executable, packs, vectors, docs, man
# page and bash completion; extracted into a scratch root (`dpkg-deb -x`, no
# root needed), the packaged binary reports its version and commit, finds
# its packs beside itself (no --packs-dir, no source tree) and runs the demo
# (built-in suites + every pack of the example profile) against the example
# server with everything passing; the completion completes subcommands and
# flags from that binary.
source "$(dirname "$0")/lib.sh"
: "${BUILD:?}"
command -v dpkg-deb >/dev/null || fail "dpkg-deb is not installed"

(cd "$WORK" && cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1) ||
  { cat "$WORK/cpack.log" >&2; fail "cpack -G DEB failed"; }
debs=("$WORK"/pkg/idconform_*.deb)
[ "${#debs[@]}" = 1 ] && [ -f "${debs[0]}" ] || { ls -R "$WORK/pkg" >&2; fail "expected one idconform_*.deb"; }
deb=${debs[0]}

depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
[ -n "$depends" ] || fail "the package declares no dependencies"
grep -q -- "-dev" <<<"$depends" && fail "the package depends on -dev packages: $depends"
for lib in libc6 libstdc++6 libboost-json1.81.0 libre2-9 libyaml-cpp0.7; do
  grep -q "\b$lib\b" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
# every dependency is a package Debian 12 has (here: installed, since the binary runs)
for pkg in $(echo "$depends" | tr ',' '\n' | sed 's/(.*//; s/|.*//; s/ //g'); do
  dpkg -s "$pkg" >/dev/null 2>&1 || fail "dependency $pkg is not a known (installed) package"
done

grep -q "\bca-certificates\b" <<<"$depends" || fail "Depends lacks ca-certificates (no HTTPS target verifies without it)"
# control fields a distribution checks: no CMake list separators in the
# Description, no placeholder homepage, a Maintainer with an address
dpkg-deb -f "$deb" Description >"$WORK/description"
grep -q ';' "$WORK/description" && fail "the Description holds CMake list separators: $(cat "$WORK/description")"
[ "$(sed -n 2p "$WORK/description" | cut -c1)" = " " ] || fail "the Description has no indented long description"
[ "$(sed -n 1p "$WORK/description")" = "$(sed -n 2p "$WORK/description" | cut -c2-)" ] &&
  fail "the long description repeats the summary"
dpkg-deb -f "$deb" Maintainer | grep -E '^[^<]+ <[^@ ]+@[^> ]+>$' >/dev/null || fail "Maintainer is not 'Name <address>'"
dpkg-deb -f "$deb" Homepage | grep 'example' >/dev/null && fail "Homepage is a placeholder"
dpkg-deb -c "$deb" >"$WORK/contents"
for f in ./usr/bin/idconform ./usr/share/idconform/suites/packs/data-id/001-minting.yaml \
         ./usr/share/idconform/suites/data-id-001.yaml ./usr/share/idconform/vectors/rfc9562.yaml \
         ./usr/share/idconform/vectors/negative.yaml ./usr/share/idconform/examples/products.target.yaml \
         ./usr/share/man/man1/idconform.1.gz ./usr/share/bash-completion/completions/idconform \
         ./usr/share/zsh/vendor-completions/_idconform ./usr/share/fish/vendor_completions.d/idconform.fish \
         ./usr/share/doc/idconform/README.md ./usr/share/doc/idconform/ci.md ./usr/share/doc/idconform/lint.md \
         ./usr/share/doc/idconform/copyright ./usr/share/doc/idconform/LICENSE; do
  grep -q " $f\$" "$WORK/contents" || fail "the package lacks $f"
done
grep -q "vectors/tools" "$WORK/contents" && fail "the package ships the vector generator"

# a plain `cmake --install` of the build strips too
cmake --install "$BUILD" --prefix "$WORK/inst" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "cmake --install failed"; }
readelf -S "$WORK/inst/bin/idconform" | grep -E '\.(debug_info|symtab)' >/dev/null && fail "cmake --install installs an unstripped binary"
[ -f "$WORK/inst/share/doc/idconform/copyright" ] || fail "cmake --install installs no copyright file"

root="$WORK/root"
dpkg-deb -x "$deb" "$root"
bin="$root/usr/bin/idconform"
readelf -S "$bin" | grep -E '\.(debug_info|symtab)' >/dev/null && fail "the packaged binary is not stripped"
ldd "$bin" | grep "not found" >/dev/null && fail "the packaged binary misses libraries: $(ldd "$bin" | grep 'not found')"
gzip -t "$root/usr/share/man/man1/idconform.1.gz" || fail "the man page is not gzip"
version=$("$bin" --version)
commit=$(git -C "$SRC" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
grep -qE "^idconform [0-9]+\.[0-9]+\.[0-9]+ \(commit $commit(-dirty)?\)\$" <<<"$version" ||
  fail "--version does not give the version and the commit $commit: $version"

# the SARIF rules of the packaged binary link the docs unpacked beside it
"$bin" lint -q --sarif "$WORK/lint.sarif" "$SRC/examples/openapi/products.openapi.yaml" 2>/dev/null ||
  fail "the packaged binary does not lint the example document clean"
grep -q "\"helpUri\":\"file://$root/usr/share/doc/idconform/lint.md#format-only\"" "$WORK/lint.sarif" ||
  fail "the packaged binary's SARIF rules do not link its own docs/lint.md: $(grep -o '"helpUri":"[^"]*"' "$WORK/lint.sarif" | head -1)"

# the demo with the packaged binary, from outside the source tree, no --packs-dir
export PRODUCTS_LEGACY_SALT=e2e-legacy-salt
unset IDCONFORM_PACKS_DIR
start_server
share="$root/usr/share/idconform"
set +e
(cd "$WORK" && IDCONFORM_BASE_URL="$BASE_URL" "$bin" run --no-progress "$share/suites/" "$share/suites/grpc/" \
   --target "$share/examples/products.target.yaml" --junit "$WORK/junit.xml" --concurrency 8 >"$WORK/out" 2>"$WORK/err")
CODE=$?
set -e
expect_code 0
junit_valid
for suite in "data-id-001 products" "nil-max products" "data-id-002 products over grpc" "data-id-001"; do
  n=$(junit_xpath "count(//testsuite[@name='$suite']/testcase[not(skipped)])")
  [ "${n%.*}" -ge 1 ] || fail "the packaged binary did not run suite '$suite'"
done
grep -q "$share/suites/packs/" "$WORK/junit.xml" || fail "the packs did not come from the package"
grep -q "$SRC/suites/packs" "$WORK/junit.xml" && fail "the packaged binary used the source tree's packs"

# without packs beside it (a binary copied alone) it says where it looked
cp "$bin" "$WORK/lonely"
set +e
(cd "$WORK" && IDCONFORM_BASE_URL="$BASE_URL" ./lonely run --target "$share/examples/products.target.yaml" >"$WORK/out" 2>"$WORK/err")
CODE=$?
set -e
if [ -d /usr/local/share/idconform/suites/packs ] || [ -d /usr/share/idconform/suites/packs ]; then
  echo "note: an installed idconform exists; not checking the 'not installed' message"
else
  expect_code 2
  expect_stderr "the built-in packs are not installed; looked in:"
  expect_stderr "--packs-dir"
fi

# bash completion, driven by the packaged binary
PATH="$root/usr/bin:$PATH" bash -c '
  source "$1"
  COMP_WORDS=(idconform r); COMP_CWORD=1; _idconform; printf "%s\n" "${COMPREPLY[@]}" | grep -x run >/dev/null || exit 11
  COMP_WORDS=(idconform m); COMP_CWORD=1; _idconform; printf "%s\n" "${COMPREPLY[@]}" | grep -x merge >/dev/null || exit 12
  COMP_WORDS=(idconform run --sh); COMP_CWORD=2; _idconform; printf "%s\n" "${COMPREPLY[@]}" | grep -x -- --shard >/dev/null || exit 13
  COMP_WORDS=(idconform inspect --kind uuidv); COMP_CWORD=3; _idconform; printf "%s\n" "${COMPREPLY[@]}" | grep -x uuidv8-legacy >/dev/null || exit 14
  COMP_WORDS=(idconform merge -); COMP_CWORD=2; _idconform; printf "%s\n" "${COMPREPLY[@]}" | grep -x -- --junit >/dev/null || exit 15
' _ "$root/usr/share/bash-completion/completions/idconform" || fail "bash completion failed (step $?)"
echo "ok: the .deb installs, runs the demo and completes"
