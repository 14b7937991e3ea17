# HTTPS against a certificate made at test time: verified with --cacert,
# refused without it (a transport error, exit 3), accepted with --insecure
# and a loud warning.
source "$(dirname "$0")/lib.sh"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" >/dev/null 2>&1
start_server --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem"
case "$BASE_URL" in https://*) ;; *) fail "server is not on https: $BASE_URL";; esac
run_idconform "$SRC/suites/data-id-001.yaml" --cacert "$WORK/cert.pem"
expect_code 0
run_idconform "$SRC/suites/data-id-001.yaml"
expect_code 3
grep -q 'tls' "$WORK/junit.xml" || fail "no tls error in the report"
grep -q 'not signed by a CA of the system store; for a private CA give its certificate with --cacert FILE' \
  "$WORK/junit.xml" || fail "an unknown issuer does not point at --cacert"
# a machine without a CA store (a minimal container) is told so, and what to install
SSL_CERT_FILE=$WORK/none.pem SSL_CERT_DIR=$WORK/no-certs run_idconform "$SRC/suites/data-id-001.yaml"
expect_code 3
grep -q "no system CA store was found: nothing in $WORK/none.pem or $WORK/no-certs; install the ca-certificates package" \
  "$WORK/junit.xml" || fail "no CA store is not named as the cause"
run_idconform "$SRC/suites/data-id-001.yaml" --insecure
expect_code 0
expect_stderr "WARNING: --insecure"
echo "ok: https verified, refused and insecure"
