# The CI recipes of examples/ci/ (docs/ci.md), run as pasted:
#   ci_recipes.sh github|gitlab|jenkins
# tests/ci/recipes.py plays the CI system (jobs in order, a fresh workspace
# per job, matrix / parallel / axis variables, artifacts and stashes, the
# test-report step) and runs every shell step of the recipe as written, in
# three pipelines against the example server on loopback:
#   conformant  every job passes; the package job built the .deb, every job
#               that installs it asks apt for ca-certificates; the merged
#               report is the union of 3 shards and the published JUnit
#               validates (the flavor the recipe asks for)
#   defect      the shards exit 1 and still hand their reports on; the merge
#               runs, exits 1, and the published JUnit shows the failures
#   died        shard 2's job dies before writing its report; the merge still
#               runs and fails with exit 2, naming shard 2 missing
# The package job's cmake and cpack reuse the build tree ($BUILD); with
# IDCONFORM_CI_FULL_BUILD=1 they build the clone for real (slow).
source "$(dirname "$0")/lib.sh"
: "${BUILD:?}"
system=${1:?github, gitlab or jenkins}
py=python3
$py -c 'import yaml' 2>/dev/null || fail "needs python3-yaml (scripts/setup.sh tests)"
export PRODUCTS_LEGACY_SALT=e2e-legacy-salt

# The idconform repository the package job clones: this source tree's
# commit, under a tag.
git clone -q "$SRC" "$WORK/upstream" 2>"$WORK/clone.err" || { cat "$WORK/clone.err" >&2; fail "cannot clone $SRC"; }
git -C "$WORK/upstream" tag ci-recipes-test
# The user's repository: the profile the recipes name.
export CI_TEST_REPO="$WORK/repo"
mkdir "$CI_TEST_REPO"
cp "$SRC/examples/products.target.yaml" "$CI_TEST_REPO/api.target.yaml"

start_server
conformant_url=$BASE_URL
start_server --defect upper-case-out
defect_url=$BASE_URL
# start_server exported the last server's gRPC address; each pipeline
# below sets the one of its server.
grpc_of() { sed -n 's/^grpc listening on \([^ ]*\).*/\1/p' "$1" | head -n 1; }
servers=("$WORK"/server.*.out)

pipeline() {  # pipeline NAME URL [DIE_SHARD]
  local name=$1 url=$2 out
  out="$WORK/$name"
  mkdir "$out"
  for f in "${servers[@]}"; do
    grep -q "listening on $url" "$f" && export IDCONFORM_GRPC_ADDRESS=$(grpc_of "$f")
  done
  CI_TEST_VARS=$(printf '{"IDCONFORM_GIT": "file://%s", "IDCONFORM_REF": "ci-recipes-test", "IDCONFORM_BASE_URL": "%s", "IDCONFORM_TOKEN_A": "alice", "IDCONFORM_TOKEN_B": "bob", "idconform-token-a": "alice", "idconform-token-b": "bob"}' "$WORK/upstream" "$url") \
  CI_TEST_DIE_SHARD=${3:-} \
    $py "$SRC/tests/ci/recipes.py" run "$system" "$out" >"$out/result.json" 2>"$out/err" ||
    { cat "$out/err" >&2; fail "$name: recipes.py could not play the $system recipe"; }
}

check() {  # check NAME: the expectations of that pipeline
  $py - "$1" "$WORK/$1/result.json" "$system" "$SRC" <<'PY'
import glob, json, os, re, subprocess, sys, xml.etree.ElementTree as ET
scenario, path, system, src = sys.argv[1:]
r = json.load(open(path))
def fail(msg):
    for j in r["jobs"]:
        print(f"--- job {j['name']}: {j['result']}", file=sys.stderr)
        for s in j["steps"]:
            if s["kind"] == "shell":
                print(f"  exit {s['exit']}:\n" + s["tail"][-1500:], file=sys.stderr)
    sys.exit(f"FAIL ({system}, {scenario}): {msg}")
jobs = r["jobs"]
def shells(pred):  # shell steps of jobs whose name satisfies pred
    return [(j, s) for j in jobs if pred(j["name"]) for s in j["steps"] if s["kind"] == "shell"]
def log(s):
    return open(s["log"], encoding="utf-8", errors="replace").read()
package = [j for j in jobs if "package" in j["name"]]
shard_jobs = [j for j in jobs if re.match(r"(contract|idconform) ", j["name"])]
merge = [j for j in jobs if "merge" in j["name"]]
if len(package) != 1 or package[0]["result"] != "success":
    fail(f"the package job did not succeed: {[(j['name'], j['result']) for j in package]}")
if len(shard_jobs) != 3:
    fail(f"expected 3 shard jobs, got {[j['name'] for j in shard_jobs]}")
if len(merge) != 1 or merge[0]["result"] == "skipped":
    fail("the merge job did not run")
merge = merge[0]

# the package: built by cpack into dist/, handed on, installed with ca-certificates by every job that runs idconform
pkg_log = "".join(log(s) for _, s in shells(lambda n: "package" in n))
if not re.search(r"package: .*/dist/idconform_[0-9.]+_\w+\.deb generated", pkg_log):
    fail("the package job did not make dist/idconform_*.deb with cpack")
by_job = {}
for call in r["apt"]:
    by_job.setdefault(call["job"], []).append(call["args"])
for j in jobs:
    if j["result"] != "skipped":
        installs = [a for a in by_job.get(j["name"], []) if a and a[0] == "install"]
        if not any("ca-certificates" in a for a in installs):
            fail(f"job {j['name']} never asks apt-get for ca-certificates: {installs}")
        if "package" not in j["name"] and not any(x.endswith(".deb") and "dist/idconform_" in x and "ca-certificates" in a
                                                  for a in installs for x in a):
            fail(f"job {j['name']} does not install dist/idconform_*.deb with ca-certificates: {installs}")
runs = [(j, s) for j in shard_jobs for s in j["steps"] if s["kind"] == "shell" and "idconform run" in open(s["log"].replace(".log", ".sh")).read()]
merges = [s for s in merge["steps"] if s["kind"] == "shell" and "idconform merge" in open(s["log"].replace(".log", ".sh")).read()]
if len(runs) != 3 or len(merges) != 1:
    fail(f"expected 3 shard runs and 1 merge, got {len(runs)} and {len(merges)}")
run_codes = sorted(s["exit"] for _, s in runs)
merge_code = merges[0]["exit"]
report = r["report"]
if not report or report["job"] != merge["name"]:
    fail(f"no test report published by the merge job: {report}")

shards = sorted(glob.glob(os.path.join(merge["workspace"], "reports", "shard-*.json")))
def junit_valid(p, schema):
    res = subprocess.run(["xmllint", "--noout", "--schema", schema, p], capture_output=True, text=True)
    if res.returncode != 0:
        fail(f"{p} does not validate against {schema}: {res.stderr[-1500:]}")
def outcomes(p):
    cases = list(ET.parse(p).getroot().iter("testcase"))
    return len(cases), sum(1 for c in cases if c.find("failure") is not None), sum(1 for c in cases if c.find("error") is not None)

if scenario in ("conformant", "defect"):
    want = [0, 0, 0] if scenario == "conformant" else None
    if want and run_codes != want:
        fail(f"shard exit codes {run_codes}, expected {want}")
    if scenario == "defect" and (max(run_codes) != 1 or min(run_codes) < 0 or any(c not in (0, 1) for c in run_codes)):
        fail(f"shard exit codes {run_codes}: expected 1 where the defect showed, 0 elsewhere")
    if merge_code != (0 if scenario == "conformant" else 1):
        fail(f"merge exit code {merge_code}")
    if len(shards) != 3:
        fail(f"the merge job got {len(shards)} shard reports: {shards}")
    merged = json.load(open(os.path.join(merge["workspace"], "reports", "report.json")))
    md = {m["name"]: m["value"] for m in merged["run"]["metadata"]}
    if not md.get("merged from", "").startswith("3 shards: "):
        fail(f"the merged report is not made of 3 shards: {md.get('merged from')}")
    parts = [json.load(open(p)) for p in shards]
    units = sorted(set(u for p in parts for u in p["run"]["shard"]["units"]))  # the preflight is on every shard
    if units != list(range(parts[0]["run"]["shard"]["total_units"])):
        fail(f"the shards did not run every unit once: {units}")
    if report["path"] is None:
        fail("the published JUnit report does not exist")
    junit_valid(report["path"], os.path.join(src, "reporters/schema/junit.xsd"))
    n, failed, errors = outcomes(report["path"])
    if n != merged["summary"]["tests"] or n < 500:
        fail(f"the published JUnit holds {n} testcases, the merged report {merged['summary']['tests']}")
    # GitLab keeps only the first testcase of a (classname, name) pair: every case must be its own
    pairs = [(t.get("classname"), t.get("name")) for t in ET.parse(report["path"]).getroot().iter("testcase")]
    if len(set(pairs)) != len(pairs):
        fail(f"{len(pairs) - len(set(pairs))} testcases repeat another's classname and name")
    # the full flavor: testcases carry their file (GitHub annotations, GitLab's file column)
    if not list(ET.parse(report["path"]).getroot().iter("testcase"))[0].get("file"):
        fail("the published JUnit is not the full flavor (no file on testcases)")
    if scenario == "conformant" and (failed or errors):
        fail(f"{failed} failures, {errors} errors against the conformant server")
    if scenario == "defect" and (failed == 0 or failed != merged["summary"]["failed"]):
        fail(f"the published JUnit shows {failed} failures, the merged report {merged['summary']['failed']}")
    if system == "jenkins" and scenario == "defect":
        # the xUnit plugin's variant (docs/ci.md): the same merge with --junit-flavor strict
        cmd = open(merges[0]["log"].replace(".log", ".sh")).read().strip()
        strict = cmd.replace("--junit-flavor full", "--junit-flavor strict").replace("reports/junit.xml", "reports/strict.xml")
        if strict == cmd:
            fail("the Jenkins merge does not name --junit-flavor full")
        env = dict(os.environ, CI_TEST_SYSROOT=os.path.join(os.path.dirname(merge["workspace"]), "sysroot"),
                   PATH=os.path.join(src, "tests/ci/shims/sysroot") + ":" + os.environ["PATH"])
        if subprocess.call(["sh", "-c", strict], cwd=merge["workspace"], env=env, stdout=subprocess.DEVNULL) != 1:
            fail("the strict merge did not exit 1")
        xml = os.path.join(merge["workspace"], "reports", "strict.xml")
        for schema in ("jenkins-xunit-junit-10.xsd", "ant-junit.xsd"):
            junit_valid(xml, os.path.join(src, "tests/published_schemas/junit", schema))
        if outcomes(xml) != (n, failed, errors):
            fail("the strict JUnit does not hold the same cases")
    if scenario == "defect":
        if system == "jenkins":
            if merge["result"] != "failure":
                fail("the merge stage did not fail on a broken contract")
        elif not any(j["result"] == "failure" for j in shard_jobs) or merge["result"] != "failure":
            fail("the shard jobs and the merge job did not fail on a broken contract")
else:  # died: shard 2 wrote nothing
    if sorted(c for c in run_codes if c == 137) != [137]:
        fail(f"shard exit codes {run_codes}: expected one job to die")
    names = sorted(os.path.basename(p) for p in shards)
    if names != ["shard-1.json", "shard-3.json"]:
        fail(f"the merge job got {names}")
    if merge_code != 2:
        fail(f"merge exit code {merge_code}, expected 2 (a shard missing)")
    if "shard 2 of 3 missing" not in log(merges[0]):
        fail("the merge does not name shard 2 missing: " + log(merges[0])[-800:])
    if report["path"] is not None:
        fail("a JUnit report was published although the merge refused")
    if system == "jenkins" and not any(s["kind"] == "junit" for s in merge["steps"]):
        fail("the junit step did not run after the failed merge")
print(f"ok: {system} {scenario}: shards exited {run_codes}, merge exited {merge_code}")
PY
}

pipeline conformant "$conformant_url"
check conformant || exit 1
if [ "${IDCONFORM_CI_FULL_BUILD:-}" = 1 ]; then
  echo "ok: the $system recipe built idconform from the clone and runs as pasted"
  exit 0   # one real build is the point; the other pipelines do not depend on how the .deb was made
fi
pipeline defect "$defect_url"
check defect || exit 1
pipeline died "$conformant_url" 2
check died || exit 1
echo "ok: the $system recipe runs as pasted"
