# scripts/setup.sh installs per job: the demo's job has the compiler and the
# libraries and none of the test or benchmark tools (a fresh machine gets the
# demo without a browser, clang or npm servers); the test job has those.
source "$(dirname "$0")/lib.sh"
main=$(bash "$SRC/scripts/setup.sh" main --list)
tests=$(bash "$SRC/scripts/setup.sh" tests --list)
bench=$(bash "$SRC/scripts/setup.sh" bench --list)
for p in cmake g++ libre2-dev libyaml-cpp-dev libgrpc++-dev librdkafka-dev libpq-dev postgresql-15; do
  grep -qx "$p" <<<"$main" || fail "the main job lacks $p"
done
# postgresql-15 is the demo's too: the example server's storage, audited by idconform db
for p in chromium clang-14 debootstrap kcat wrk ripgrep libbenchmark-dev; do
  grep -qx "$p" <<<"$main" && fail "the main job (the demo) installs $p, which only tests or benchmarks use"
done
for p in chromium clang-14 debootstrap kcat libxml2-utils postgresql-15; do
  grep -qx "$p" <<<"$tests" || fail "the tests job lacks $p"
done
for p in wrk ripgrep libbenchmark-dev; do
  grep -qx "$p" <<<"$bench" || fail "the bench job lacks $p"
done
grep -q 'scripts/setup.sh main' "$SRC/scripts/demo.sh" || fail "the demo does not install the main job"
grep -q 'scripts/setup.sh tests' "$SRC/scripts/test.sh" || fail "the test command does not install the tests job"
set +e
bash "$SRC/scripts/setup.sh" nope --list >/dev/null 2>"$WORK/err"
CODE=$?
set -e
expect_code 2
expect_stderr "unknown job 'nope'"
echo "ok: setup jobs"
