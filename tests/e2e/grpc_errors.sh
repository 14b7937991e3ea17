# grpc_errors.sh: bad requests name what exists (unknown method, service,
# field; wrong type) and are <error>s; a call past its deadline is a timeout
# <error>; an unreachable server a connect <error>; a schema carrying ids as
# bytes/int64 is a DATA-ID-002 <failure>; a failing call shows a grpcurl line.
source "$(dirname "$0")/lib.sh"
start_grpc_server --grpc-legacy

run_idconform "$SRC/tests/e2e/grpc/errors.yaml"
expect_code 3
junit_valid
[ "$(junit_xpath 'count(//testcase[error])')" = 4 ] || fail "expected 4 <error> testcases"
expect_stderr "no method 'GetProdct' in products.v1.Products; it has CreateProduct, GetProduct, UpdateProduct, DeleteProduct, ListProducts, CreateCategory, GetCategory, DeleteCategory (did you mean 'GetProduct'?)"
expect_stderr "no service 'products.v1.Prodcts' in the server (reflection); it has products.v1.Products, products.v1.LegacyProducts (did you mean 'products.v1.Products'?)"
expect_stderr "unknown field 'nmae' in products.v1.CreateProductRequest (did you mean 'name'?)"
expect_stderr "the message does not fit products.v1.CreateProductRequest"
# Not retried: another attempt cannot make the method exist.
run_idconform --retries 2 "$SRC/tests/e2e/grpc/errors.yaml"
expect_stderr "GetProdct grpc://$GRPC_ADDRESS, 1 attempt)"

run_idconform "$SRC/tests/e2e/grpc/legacy.yaml"
expect_code 1
junit_valid
# one finding per field, filed apart from the case (which passes: the
# schema is no reason to fail a setup or a case), at the field's line
n=$(failed_under "DATA-ID-002")
[ "$n" = 3 ] || fail "the bytes and int64 id fields are not 3 DATA-ID-002 failures ($n)"
[ "$(junit_xpath 'count(//testcase[@name="legacy read of an unknown id"][failure or error])')" = 0 ] ||
  fail "the schema's findings failed the case that called the method"
case_line() { junit_xpath "string(//testcase[@name='DATA-ID-002 $1 in legacy.proto']/@line)"; }
[ "$(case_line products.v1.LegacyGetProductRequest.id)" = 14 ] || fail "request id finding not at legacy.proto:14"
[ "$(case_line products.v1.LegacyProduct.category_id)" = 20 ] || fail "int64 id finding not at legacy.proto:20"
[ "$(case_line products.v1.LegacyProduct.id)" = 18 ] || fail "response id finding not at legacy.proto:18"
grep -q "grpcurl -plaintext" "$WORK/junit.xml" || fail "no grpcurl reproduce line"
# two cases call the method: still one finding per field, seen in both answers
grep -q 'got int64 (seen in 2 answers of legacy.proto)' "$WORK/junit.xml" || fail "not one finding per field over 2 calls"

# Deadline: the server stalls 3 s, the suite allows 300 ms.
start_grpc_server --grpc-delay-ms 3000
run_idconform "$SRC/tests/e2e/grpc/slow.yaml"
expect_code 3
junit_valid
[ "$(junit_xpath 'count(//testcase[error])')" = 1 ] || fail "a deadline must be an <error>"
expect_stderr "timeout: no answer within 300 ms"

# Nobody listening: a connect error.
IDCONFORM_GRPC_ADDRESS=127.0.0.1:1 run_idconform "$SRC/tests/e2e/grpc/slow.yaml"
expect_code 3
expect_stderr "connect: UNAVAILABLE"
echo "ok: gRPC errors are clear <error>s; DATA-ID-002 schema finding reported"
