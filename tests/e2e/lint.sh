#!/usr/bin/env bash
# idconform lint end to end: the example server serves its own OpenAPI
# document at GET /openapi.yaml, the served document is the one in examples/
# and lints clean (exit 0, JUnit valid against the schema); a broken copy
# fails (exit 1, the finding line on stdout, the JUnit testcase failed); an
# unreadable document is exit 2.
source "$(dirname "$0")/lib.sh"

lint() {  # lint ARGS...: sets CODE; stdout in $WORK/out, stderr in $WORK/err
  set +e
  "$IDCONFORM_BIN" lint "$@" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}

start_server
curl -sf -D "$WORK/headers" "$BASE_URL/openapi.yaml" -o "$WORK/served.yaml" || fail "GET /openapi.yaml failed"
grep -qi '^content-type: application/yaml' "$WORK/headers" || { cat "$WORK/headers" >&2; fail "not served as application/yaml"; }
cmp -s "$WORK/served.yaml" "$SRC/examples/openapi/products.openapi.yaml" || fail "the served document is not examples/openapi/products.openapi.yaml"

lint "$WORK/served.yaml" --junit "$WORK/junit.xml" --json "$WORK/lint.json"
expect_code 0
[ ! -s "$WORK/out" ] || { cat "$WORK/out" >&2; fail "findings on the example's own document"; }
expect_stderr "OK linted 1 document"
junit_valid
grep -q '"findings":0' "$WORK/lint.json" || fail "JSON report does not say 0 findings"

cd "$WORK"
sed 's/^      required: \[name, price, category_id\]$/      required: [name, price]/; s/^        id: {\$ref: .#\/components\/schemas\/Uuid7.}$/        id: {type: string, format: uuid}/' \
  served.yaml >broken.yaml
lint broken.yaml --junit "$WORK/junit.xml"
expect_code 1
grep -q "^broken.yaml:[0-9]*:[0-9]*: DATA-ID-002: /components/schemas/Category/properties/id: id 'id': format: uuid alone" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "format-only finding missing"; }
junit_valid
grep -q '<failure' "$WORK/junit.xml" || fail "JUnit has no failure for the broken copy"

lint "$WORK/does-not-exist.yaml"
expect_code 2
echo "PASS lint"
