# grpc_tls.sh: gRPC over TLS with a certificate made at test time: verified
# with the suite's CA; without it (system store) the handshake fails as a tls
# <error>; plaintext against the TLS port fails too.
source "$(dirname "$0")/lib.sh"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1,DNS:localhost \
  -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
start_grpc_server --tls-cert "$WORK/cert.pem" --tls-key "$WORK/key.pem"
write_suite() {  # write_suite FILE TLS_YAML
  cat >"$1" <<YAML
name: grpc-tls
target:
  grpc: {address: "\${env:IDCONFORM_GRPC_ADDRESS}", protos: [$SRC/examples/proto/products/v1/products.proto], tls: $2}
principals:
  alice: {headers: {Authorization: "Bearer alice"}}
cases:
  - name: create and read over TLS
    rule: DATA-ID-002
    steps:
      - grpc: {method: products.v1.Products/CreateCategory, message: {name: tls}, principal: alice}
        expect: {status: OK, id: {at: /id, kind: uuidv7, minted: true}}
        capture: {id: /id}
      - grpc: {method: products.v1.Products/GetCategory, message: {id: "\${id}"}, principal: alice}
        expect: {status: OK, json: {/id: "\${id}"}}
YAML
}
write_suite "$WORK/ok.yaml" "{cacert: $WORK/cert.pem}"
run_idconform "$WORK/ok.yaml"
expect_code 0
junit_valid

write_suite "$WORK/no_ca.yaml" "true"
run_idconform "$WORK/no_ca.yaml"
expect_code 3
expect_stderr "tls: UNAVAILABLE"

write_suite "$WORK/plain.yaml" "false"
run_idconform "$WORK/plain.yaml"
expect_code 3
echo "ok: gRPC over TLS verified with the suite's CA; unverified and plaintext fail as errors"
