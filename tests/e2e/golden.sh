# Golden test: the JUnit report and console summary of one suite against the
# conformant server, and of the same suite failing against a defective one
# (what a user reads most: the failure message, the evidence, the reproduce
# line), with times, timestamps, ports and generated ids normalised, equal
# the approved files in golden/. To approve a deliberate change:
# UPDATE_GOLDEN=1 ctest -R e2e.golden
source "$(dirname "$0")/lib.sh"
start_server
run_idconform "$SRC/suites/data-id-001.yaml"
expect_code 0
normalise() {
  sed -E -e 's/(time|timestamp)="[^"]*"/\1="*"/g' \
         -e 's#127\.0\.0\.1:[0-9]+#127.0.0.1:PORT#g' \
         -e 's/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/UUID/g' \
         -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z/TIME/g' \
         -e 's/TR-[0-9A-Z]{7}/TR-VIEWABLE/g' \
         -e 's/in [0-9.]+ s$/in * s/' \
         -e "s#$SRC/##g" "$1"
}
approve() {  # JUNIT_GOLDEN STDERR_GOLDEN
  for f in "junit.xml:$1" "err:$2"; do
    actual="$WORK/${f%%:*}" golden="$(dirname "$0")/golden/${f##*:}"
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then normalise "$actual" >"$golden"; continue; fi
    diff -u "$golden" <(normalise "$actual") || fail "${f##*:} differs from the approved file"
  done
}
approve data-id-001.junit.xml data-id-001.stderr.txt
echo "ok: JUnit and console output match the approved files"

# A failing run: ids minted upper-case in the body (DATA-ID-001, the body's id not canonical).
start_server --defect upper-case-out
run_idconform "$SRC/suites/data-id-001.yaml"
expect_code 1
approve data-id-001.upper-case-out.junit.xml data-id-001.upper-case-out.stderr.txt
echo "ok: a failing run's JUnit and console output match the approved files"
