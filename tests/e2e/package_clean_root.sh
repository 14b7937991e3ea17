# The .deb in a clean Debian 12: a `debootstrap --variant=minbase` root
# (cached in ~/.cache/idconform/debootstrap, made once, about 40 s), the
# package installed there with apt, which must resolve every dependency from
# Debian's archive; then, inside the root, `idconform --version`, `inspect`
# and a short run over HTTPS against the example server on loopback, whose
# certificate a test CA signed: refused (exit 3, with the hint to add the CA)
# until the CA is in the root's system store, verified through that store
# (no --cacert) once `update-ca-certificates` added it, which only works
# because the package depends on ca-certificates. Labelled slow; needs root.
source "$(dirname "$0")/lib.sh"
: "${BUILD:?}"
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || fail "debootstrap is not installed (scripts/setup.sh installs it)"

cache="${XDG_CACHE_HOME:-$HOME/.cache}/idconform/debootstrap"
mkdir -p "$cache/archives"
base="$cache/bookworm-minbase.tar"
mirror=http://deb.debian.org/debian
if [ ! -s "$base" ]; then
  echo "making the clean root (once): debootstrap --variant=minbase bookworm"
  debootstrap --variant=minbase bookworm "$WORK/boot" "$mirror" >"$WORK/debootstrap.log" 2>&1 ||
    { tail -20 "$WORK/debootstrap.log" >&2; fail "debootstrap failed"; }
  tar -C "$WORK/boot" -cf "$base.part" . && mv "$base.part" "$base"
  rm -rf "$WORK/boot"
fi

root="$WORK/root"
mkdir "$root"
tar -C "$root" -xpf "$base"
# /proc for maintainer scripts; unmounted before lib.sh removes $WORK
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true; cleanup' EXIT
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

(cd "$WORK" && cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1) ||
  { cat "$WORK/cpack.log" >&2; fail "cpack -G DEB failed"; }
cp "$WORK"/pkg/idconform_*.deb "$root/tmp/idconform.deb"
cp "$cache"/archives/*.deb "$root/var/cache/apt/archives/" 2>/dev/null || true
in_root ls /etc/ssl/certs/ca-certificates.crt >/dev/null 2>&1 && fail "the clean root already has a CA store"
in_root apt-get update -qq >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; fail "apt-get update in the clean root failed"; }
in_root apt-get install -y -qq --no-install-recommends /tmp/idconform.deb >>"$WORK/apt.log" 2>&1 ||
  { tail -30 "$WORK/apt.log" >&2; fail "apt-get could not install the package in a clean Debian 12"; }
cp "$root"/var/cache/apt/archives/*.deb "$cache/archives/" 2>/dev/null || true
in_root dpkg -s ca-certificates >/dev/null 2>&1 || fail "installing the package did not bring ca-certificates"

version=$(in_root idconform --version) || fail "idconform --version failed in the clean root"
grep -qE '^idconform [0-9]+\.[0-9]+\.[0-9]+ ' <<<"$version" || fail "unexpected --version: $version"
in_root idconform inspect 017f22e2-79b0-7cc3-98c4-dc0c0c073901 >"$WORK/inspect" 2>&1 ||
  { cat "$WORK/inspect" >&2; fail "idconform inspect failed in the clean root"; }
grep -q 'version: 7,' "$WORK/inspect" || fail "inspect does not say version 7: $(cat "$WORK/inspect")"

# a test CA and a server certificate it signed, for 127.0.0.1
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=idconform test CA" \
  -keyout "$WORK/ca.key" -out "$WORK/ca.pem" >/dev/null 2>&1
openssl req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout "$WORK/key.pem" -out "$WORK/server.csr" >/dev/null 2>&1
printf 'subjectAltName=IP:127.0.0.1\n' >"$WORK/san.ext"
openssl x509 -req -in "$WORK/server.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" -CAcreateserial -days 1 \
  -extfile "$WORK/san.ext" -out "$WORK/cert.pem" >/dev/null 2>&1
start_server --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem"
case "$BASE_URL" in https://*) ;; *) fail "server is not on https: $BASE_URL";; esac

run_in_root() {
  set +e
  in_root env IDCONFORM_BASE_URL="$BASE_URL" idconform run --no-progress /usr/share/idconform/suites/data-id-001.yaml \
    --junit /tmp/junit.xml >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
  cp "$root/tmp/junit.xml" "$WORK/junit.xml" 2>/dev/null || true
}
run_in_root
expect_code 3
grep -q 'not signed by a CA of the system store; for a private CA give its certificate with --cacert FILE' \
  "$WORK/junit.xml" || fail "an unknown CA does not point at --cacert: $(head -c 2000 "$WORK/junit.xml")"

cp "$WORK/ca.pem" "$root/usr/local/share/ca-certificates/idconform-test-ca.crt"
in_root update-ca-certificates >/dev/null 2>&1 || fail "update-ca-certificates failed in the clean root"
run_in_root
expect_code 0
junit_valid
n=$(junit_xpath "count(//testcase[not(skipped)])")
[ "${n%.*}" -ge 1 ] || fail "no case ran over HTTPS in the clean root"
echo "ok: the .deb installs with apt in a clean Debian 12 and verifies HTTPS through the system store"
