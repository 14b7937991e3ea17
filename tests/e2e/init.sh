#!/usr/bin/env bash
# idconform init --from-openapi end to end: the draft of the example server's
# own document (as the server serves it) loads without edits and runs the
# packs with the same results as the hand-written examples/products.target.yaml:
# every testcase of the draft run is a testcase of the hand-written run with
# the same outcome (but the cross-transport read, which needs the gRPC the
# document cannot describe), and the hand-written run has no other testcases
# than those over gRPC and of the legacy staff lookups (not in an OpenAPI
# document).
source "$(dirname "$0")/lib.sh"
export PRODUCTS_LEGACY_SALT=e2e-legacy-salt

start_server
curl -sf "$BASE_URL/openapi.yaml" -o "$WORK/served.yaml" || fail "GET /openapi.yaml failed"
"$IDCONFORM_BIN" init --from-openapi "$WORK/served.yaml" -o "$WORK/draft.target.yaml" 2>"$WORK/init.err" ||
  { cat "$WORK/init.err" >&2; fail "init failed"; }
grep -q "drafted 3 resources" "$WORK/init.err" || { cat "$WORK/init.err" >&2; fail "init did not draft 3 resources"; }
# -o refuses to overwrite without --force
set +e
"$IDCONFORM_BIN" init --from-openapi "$WORK/served.yaml" -o "$WORK/draft.target.yaml" 2>/dev/null
[ $? -eq 2 ] || fail "init overwrote an existing file without --force"
set -e

IDCONFORM_TOKEN_A=alice IDCONFORM_TOKEN_B=bob run_idconform --target "$WORK/draft.target.yaml" --concurrency 8
expect_code 0
junit_valid
cp "$WORK/junit.xml" "$WORK/draft.xml"
run_idconform --target "$SRC/examples/products.target.yaml" --concurrency 8
expect_code 0
cp "$WORK/junit.xml" "$WORK/hand.xml"

python3 - "$WORK/draft.xml" "$WORK/hand.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
def outcomes(path):
    out = {}
    for s in ET.parse(path).getroot().iter("testsuite"):
        for c in s.iter("testcase"):
            o = next((t for t in ("failure", "error", "skipped") if c.find(t) is not None), "passed")
            out[(s.get("name"), c.get("name"))] = o
    return out
draft, hand = outcomes(sys.argv[1]), outcomes(sys.argv[2])
bad = []
for k, o in draft.items():
    if k not in hand:
        bad.append(f"only in the draft run: {k}")
    elif hand[k] != o and not ("other transport" in k[1] and o == "skipped"):
        bad.append(f"{k}: draft {o}, hand-written {hand[k]}")
for k in hand:
    if k not in draft and not (k[0].endswith(" over grpc") or k[0] == "uuidv8-legacy staff"):
        bad.append(f"only in the hand-written run: {k}")
ran = sum(1 for o in draft.values() if o != "skipped")
if ran < 300:
    bad.append(f"only {ran} testcases of the draft ran")
print(f"draft {len(draft)} testcases ({ran} ran), hand-written {len(hand)}")
for b in bad[:20]:
    print("MISMATCH", b)
sys.exit(1 if bad else 0)
PY
echo "PASS init"
