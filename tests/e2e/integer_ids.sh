# integer_ids.sh MODE [RULE]: a resource whose ids are integers over HTTP and
# int64 over gRPC (`products_server --tickets`, profile
# tests/e2e/integer_ids/tickets.target.yaml; issue 23 section 3).
#   grpc-delete  the profile deletes over gRPC only: every gRPC case that can
#                be sent runs and passes, the only failures are the four
#                integer id fields of the methods it names (one testcase each, under
#                DATA-ID-002), a mutated id that protobuf would turn back into
#                the live one ("017" -> 17) is not applicable, and what HTTP
#                made is deleted over gRPC (said in the notes): nothing is left.
#   http-delete  the same API described with an HTTP delete only: what gRPC
#                made is deleted over HTTP, nothing is left.
#   protos       the schema from the .proto file instead of reflection: the
#                type findings name the field's line and column in it.
#   DEFECT RULE  with the server's defect DEFECT, RULE fails (and for a
#                grpc-* defect, only over gRPC).
source "$(dirname "$0")/lib.sh"
mode=$1
profile="$SRC/tests/e2e/integer_ids/tickets.target.yaml"
defect_args=()
case "$mode" in
grpc-delete | http-delete | protos) ;;
*) defect_args=(--defect "$mode") ;;
esac
start_server --tickets "${defect_args[@]}"

# left_on_server: every ticket alice or bob still has (the run made them all).
left_on_server() {
  for p in alice bob; do curl -fsS -H "Authorization: Bearer $p" "$BASE_URL/v1/tickets"; echo; done |
    python3 -c 'import json, sys; print(sum(len(json.loads(l)["items"]) for l in sys.stdin if l.strip()))'
}

# only_type_findings [FIELD...]: the failures are exactly the integer id
# fields of the methods the profile names (by default those of all four),
# one testcase per field, under DATA-ID-002; no error.
only_type_findings() {
  python3 - "$WORK/junit.xml" "$@" <<'PY' || { cat "$WORK/err" >&2; fail "failures other than the schema's integer id fields"; }
import sys, xml.etree.ElementTree as ET
want = set(sys.argv[2:]) or {"products.v1.Ticket.id", "products.v1.GetTicketRequest.id",
                             "products.v1.UpdateTicketRequest.id", "products.v1.DeleteTicketRequest.id"}
seen, bad = [], []
for s in ET.parse(sys.argv[1]).iter("testsuite"):
    for tc in s.iter("testcase"):
        name = "%s > %s" % (s.get("name"), tc.get("name"))
        if tc.find("error") is not None:
            bad.append("error: " + name + ": " + tc.find("error").get("message", ""))
        if tc.find("failure") is None:
            continue
        field = [f for f in want if (" %s " % f) in tc.get("name") + " "]
        rules = {p.get("value") for p in tc.iter("property") if p.get("name") == "failed_rule"}
        if s.get("name") == "shape scan" and len(field) == 1 and rules == {"DATA-ID-002"}:
            seen.append(field[0])
        else:
            bad.append("failure: " + name + ": " + tc.find("failure").get("message", ""))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
if sorted(seen) != sorted(want):
    print("FAIL: the integer id fields reported: %s, wanted each of %s once" % (sorted(seen), sorted(want)), file=sys.stderr)
    sys.exit(1)
sys.exit(1 if bad else 0)
PY
}

# grpc_ran N: at least N testcases of the gRPC instances ran (not skipped) and passed.
grpc_ran() {
  local n
  n=$(junit_xpath "count(//testsuite[contains(@name, 'over grpc')]/testcase[not(skipped)][not(failure)][not(error)])")
  [ "${n%.*}" -ge "$1" ] || fail "only ${n%.*} gRPC testcases ran and passed, expected at least $1"
  echo "$n"
}

case "$mode" in
grpc-delete)
  run_idconform --target "$profile"
  expect_code 1
  junit_valid
  only_type_findings
  n=$(grpc_ran 35)
  # the leading-zero mutation of a live id is not sent over gRPC: protobuf would send the live id
  reason=$(junit_xpath "string(//testsuite[@name='data-id-002 tickets over grpc']/testcase[contains(@name, 'read path is rejected [leading-zero]')]/skipped/@message)")
  case "$reason" in
  "not applicable: the value '0"*"' cannot be sent at /id of products.v1.Tickets/GetTicket: field id of products.v1.GetTicketRequest is int64: '0"*"' would arrive as "*", so the request would not carry what it means") ;;
  *) fail "the leading-zero read over gRPC is not 'not applicable' for the right reason: '$reason'" ;;
  esac
  # the same mutation over HTTP is sent (and refused: it passed)
  [ "$(junit_xpath "count(//testsuite[@name='data-id-002 tickets']/testcase[contains(@name, 'read path is rejected [leading-zero]')][not(skipped)][not(failure)])")" = 1 ] ||
    fail "the leading-zero read over HTTP did not run and pass"
  expect_stderr "the cleanup deleted "
  grep -qE "the cleanup deleted [0-9]+ entities made over HTTP with the gRPC method products.v1.Tickets/DeleteTicket, as the profile declares no HTTP delete for 'tickets' \(.*tickets.target.yaml:[0-9]+:[0-9]+\)" "$WORK/err" ||
    { cat "$WORK/err" >&2; fail "the notes do not say what HTTP made was deleted over gRPC"; }
  [ "$(left_on_server)" = 0 ] || fail "$(left_on_server) tickets left on the server"
  echo "ok: $n gRPC testcases ran and passed, only the 4 integer id fields failed, nothing left"
  ;;
http-delete)
  # the same API, its delete declared over HTTP only
  sed -e '/      delete: {method: products.v1.Tickets\/DeleteTicket}/d' \
      -e 's|^    list: {path: /v1/tickets, items: /items}$|&\n    delete: {path: "/v1/tickets/{id}"}|' "$profile" >"$WORK/http-delete.target.yaml"
  grep -q '^    delete: {path: "/v1/tickets/{id}"}$' "$WORK/http-delete.target.yaml" || fail "the variant has no HTTP delete"
  run_idconform --target "$WORK/http-delete.target.yaml"
  expect_code 1
  junit_valid
  # no gRPC delete, so DeleteTicketRequest is no schema this profile uses
  only_type_findings products.v1.Ticket.id products.v1.GetTicketRequest.id products.v1.UpdateTicketRequest.id
  grep -qE "the cleanup deleted [0-9]+ entities made over gRPC with the HTTP request DELETE /v1/tickets/\{id\}, as the profile declares no gRPC delete for 'tickets'" "$WORK/err" ||
    { cat "$WORK/err" >&2; fail "the notes do not say what gRPC made was deleted over HTTP"; }
  [ "$(left_on_server)" = 0 ] || fail "$(left_on_server) tickets left on the server"
  echo "ok: what gRPC made was deleted over HTTP, nothing left"
  ;;
protos)
  sed -e "s|^  reflection: true$|  protos: [$SRC/examples/proto/products/v1/tickets.proto]\n  import_paths: [$SRC/examples/proto, /usr/include]|" \
      "$profile" >"$WORK/protos.target.yaml"
  grep -q '^  protos: ' "$WORK/protos.target.yaml" || fail "the variant names no proto file"
  run_idconform --target "$WORK/protos.target.yaml"
  expect_code 1
  junit_valid
  only_type_findings
  line=$(grep -n '^  int64 id = 1;$' "$SRC/examples/proto/products/v1/tickets.proto" | head -n 1 | cut -d: -f1)
  grep -qE "tickets\.proto:$line:[0-9]+" "$WORK/err" "$WORK/junit.xml" ||
    { cat "$WORK/err" >&2; fail "no type finding names products/v1/tickets.proto:$line"; }
  grpc_ran 35 >/dev/null
  echo "ok: the type findings name their line in tickets.proto"
  ;;
*)
  rule=$2
  run_idconform --target "$profile"
  expect_code 1
  junit_valid
  n=$(failed_under "$rule")
  [ "${n%.*}" -ge 1 ] || { grep -E "^(FAIL|ERROR)" "$WORK/err" >&2 || true; fail "no failure under $rule for --defect $mode"; }
  if [ "${mode#grpc-}" != "$mode" ]; then
    http=$(junit_xpath "count(//testsuite[not(contains(@name, 'over grpc'))]/testcase[failure][properties/property[@name='failed_rule'][@value='$rule']])")
    [ "${http%.*}" = 0 ] || fail "--defect $mode is a gRPC defect, yet $http HTTP testcases failed under $rule"
  fi
  echo "ok: --defect $mode caught by $n failing testcases under $rule"
  ;;
esac
