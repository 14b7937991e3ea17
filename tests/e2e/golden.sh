# Golden test: the JUnit report and console summary of one suite against the
# conformant server, with times, timestamps, ports and generated ids
# normalised, equal the approved files in golden/. To approve a deliberate
# change: UPDATE_GOLDEN=1 ctest -R e2e.golden
source "$(dirname "$0")/lib.sh"
start_server
run_idconform "$SRC/suites/data-id-001.yaml"
expect_code 0
normalise() {
  sed -E -e 's/(time|timestamp)="[^"]*"/\1="*"/g' \
         -e 's#127\.0\.0\.1:[0-9]+#127.0.0.1:PORT#g' \
         -e 's/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/UUID/g' \
         -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/g' \
         -e 's/in [0-9.]+ s$/in * s/' \
         -e "s#$SRC/##g" "$1"
}
for f in junit.xml:data-id-001.junit.xml err:data-id-001.stderr.txt; do
  actual="$WORK/${f%%:*}" golden="$(dirname "$0")/golden/${f##*:}"
  if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then normalise "$actual" >"$golden"; continue; fi
  diff -u "$golden" <(normalise "$actual") || fail "${f##*:} differs from the approved file"
done
echo "ok: JUnit and console output match the approved files"
