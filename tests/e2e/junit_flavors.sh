# JUnit for every consumer, through the CLI against the example server (with
# a defect, so there are failures): `file` relative to the working directory,
# a pack case (the packs are outside it) named by the profile without a
# line; each testsuite's `target` property is the JSON metadata's target,
# password masked; --junit-flavor strict from run, merge and lint validates
# against the Jenkins xUnit and the Apache Ant schemas
# (tests/published_schemas/junit/), which reject the full flavor; the full
# flavor validates against reporters/schema/junit.xsd.
source "$(dirname "$0")/lib.sh"
export PRODUCTS_LEGACY_SALT=e2e-legacy-salt
start_server --defect upper-case-out
port=${BASE_URL##*:}
port=${port%%/*}
xunit="$SRC/tests/published_schemas/junit/jenkins-xunit-junit-10.xsd"
ant="$SRC/tests/published_schemas/junit/ant-junit.xsd"
own="$SRC/reporters/schema/junit.xsd"
valid() {  # valid SCHEMA FILE
  xmllint --noout --schema "$1" "$2" 2>"$WORK/xmllint" || { cat "$WORK/xmllint" >&2; fail "$2 does not validate against $1"; }
}
xp() { xmllint --xpath "$1" "$2" 2>/dev/null || true; }

# A checkout: the profile and a suite file in it, the packs outside it.
repo="$WORK/repo"
mkdir -p "$repo/ci" "$repo/suites"
cp "$SRC/examples/products.target.yaml" "$repo/ci/api.target.yaml"
cp -r "$SRC/suites/data-id-001.yaml" "$SRC/suites/fragments" "$repo/suites/"
cp -r "$SRC/vectors" "$repo/"  # the suite includes ../vectors/
cd "$repo"
ic() {
  set +e
  IDCONFORM_BASE_URL="http://user:s3cret-pw@127.0.0.1:$port" "$IDCONFORM_BIN" "$@" >"$WORK/out" 2>"$WORK/err"
  CODE=$?
  set -e
}

ic run --no-progress --target ci/api.target.yaml "$repo/suites/data-id-001.yaml" --junit full.xml --json full.json
expect_code 1
valid "$own" full.xml
[ "$(xp 'count(//testcase[starts-with(@file,"/")])' full.xml)" = 0 ] || fail "an absolute file in the JUnit report"
[ "$(xp 'string(//testsuite[@name="data-id-001"]/testcase[1]/@file)' full.xml)" = suites/data-id-001.yaml ] ||
  fail "the suite file's testcases are not relative to the working directory"
[ -n "$(xp 'string(//testsuite[@name="data-id-001"]/testcase[1]/@line)' full.xml)" ] || fail "the suite file's testcase lost its line"
pack='//testsuite[starts-with(@name,"data-id-002 ")]'
[ "$(xp "count($pack)" full.xml)" != 0 ] || fail "no pack testsuite"
[ "$(xp "string($pack[1]/@file)" full.xml)" = ci/api.target.yaml ] || fail "a pack testsuite is not named by the profile"
[ "$(xp "count($pack/testcase[@file!='ci/api.target.yaml'])" full.xml)" = 0 ] || fail "a pack testcase is not named by the profile"
[ "$(xp "count($pack/testcase[@line])" full.xml)" = 0 ] || fail "a pack testcase has a line of the pack, not of the profile"

# The target: the same value the JSON metadata has, on every testsuite but the notes.
target=$(python3 -c 'import json,sys; print([m["value"] for m in json.load(open(sys.argv[1]))["run"]["metadata"] if m["name"]=="target"][0])' full.json)
[ "$target" = "products-server http://user:[REDACTED]@127.0.0.1:$port" ] || fail "JSON target: $target"
suites=$(xp 'count(//testsuite[@name!="idconform notes"])' full.xml)
with=$(xp "count(//testsuite[properties/property[1][@name='target'][@value='$target']])" full.xml)
[ "$suites" = "$with" ] && [ "$suites" != 0 ] || fail "$with of $suites testsuites carry the target"
grep -q s3cret-pw full.xml && fail "the JUnit report holds the base URL's password"

# The strict schemas reject the full flavor...
xmllint --noout --schema "$xunit" full.xml 2>/dev/null && fail "junit-10.xsd accepts the full flavor"
xmllint --noout --schema "$ant" full.xml 2>/dev/null && fail "the Ant schema accepts the full flavor"
# ...and accept the strict one, with the same cases and verdicts.
ic run --no-progress --target ci/api.target.yaml "$repo/suites/data-id-001.yaml" --junit strict.xml --junit-flavor strict
expect_code 1
for schema in "$xunit" "$ant" "$own"; do valid "$schema" strict.xml; done
for q in 'count(//testcase)' 'count(//testcase[failure])' 'count(//testcase[error])' 'count(//testcase[skipped])'; do
  [ "$(xp "$q" strict.xml)" = "$(xp "$q" full.xml)" ] || fail "$q differs between the flavors"
done
[ "$(xp 'count(//testcase[failure])' strict.xml)" != 0 ] || fail "the defect made no failure"
[ "$(xp 'count(//testcase/@file | //testcase/@line | //testcase/properties)' strict.xml)" = 0 ] ||
  fail "strict testcases carry file, line or properties"

# merge writes either flavor too
for k in 1 2; do
  ic run --no-progress --target ci/api.target.yaml --shard "$k/2" --json "s$k.json"
  [ "$CODE" -le 1 ] || { cat "$WORK/err" >&2; fail "shard $k exited $CODE"; }
done
ic merge -o merged.json --junit merged.xml --junit-flavor strict s1.json s2.json
expect_code 1
for schema in "$xunit" "$ant"; do valid "$schema" merged.xml; done
[ "$(xp 'count(//testsuite[properties/property[@name="target"]])' merged.xml)" != 0 ] || fail "merged JUnit lacks the target"

# lint's JUnit in the strict flavor
set +e
"$IDCONFORM_BIN" lint --junit lint.xml --junit-flavor strict "$SRC/tests/schema/documents/ory-kratos/api.json" >/dev/null 2>&1
set -e
for schema in "$xunit" "$ant"; do valid "$schema" lint.xml; done
[ "$(xp "count(//testcase[failure])" lint.xml)" != 0 ] || fail "the lint findings are no JUnit failures"

# a flavor that does not exist is a usage error
ic run --no-progress --target ci/api.target.yaml --junit x.xml --junit-flavor ant
expect_code 2
expect_stderr "--junit-flavor"
echo "ok: JUnit flavors, relative files and the target property"
