#!/usr/bin/env python3
"""Runs `idconform lint --sarif` on the example document, a broken copy and
the third-party documents, validates each SARIF file against the official
SARIF 2.1.0 schema (tests/published_schemas/sarif/) and the stricter subset
beside this script (no property the standard does not define; python3-jsonschema),
and checks that every stdout finding line is one SARIF result at the same line
and column, and that every rule has its help and a helpUri at its section of
docs/lint.md (the installed copy: a build-tree binary links the source tree's;
--docs-url links the published one)."""
import json, os, re, subprocess, sys, tempfile
import urllib.parse
import jsonschema

idconform, src = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
schema = json.load(open(os.path.join(here, "sarif-2.1.0-subset.schema.json")))
official = json.load(open(os.path.join(src, "tests", "published_schemas", "sarif", "sarif-2.1.0-rtm.5.json")))
lint_doc = os.path.join(src, "docs", "lint.md")
sections = set(re.findall(r"^### (\S+)$", open(lint_doc).read(), re.M))


def check_rules(sarif, doc, base):
    """Each rule's help (text, markdown) and helpUri = base#kind, a section of docs/lint.md."""
    bad = 0
    driver = sarif["runs"][0]["tool"]["driver"]
    if driver.get("informationUri") != base:
        print(f"FAIL {doc}: informationUri {driver.get('informationUri')}, expected {base}")
        bad += 1
    for rule in driver["rules"]:
        kind = rule["id"].split("/", 1)[1]
        help_ = rule.get("help", {})
        if not help_.get("text") or not help_.get("markdown"):
            print(f"FAIL {doc}: rule {rule['id']} has no help text and markdown")
            bad += 1
        uri = rule.get("helpUri", "")
        if uri != base + "#" + kind or kind not in sections:
            print(f"FAIL {doc}: rule {rule['id']}: helpUri {uri!r}, expected {base}#{kind}, a section of docs/lint.md")
            bad += 1
    return bad


# a build-tree binary links the source tree's docs/lint.md
local_doc = "file://" + urllib.parse.quote(lint_doc)
third_party = os.path.join(src, "tests", "schema", "documents")
docs = [os.path.join(src, "examples/openapi/products.openapi.yaml"), os.path.join(src, "examples/proto")]
for rel in ["ory-kratos/api.json", "svix/openapi.json", "hatchet/api-contracts/openapi/openapi.yaml", "harbor/swagger.yaml"]:
    docs.append(os.path.join(third_party, rel))
failures = 0
# the schema rejects what it should (a test of the test)
for bad in [{"runs": []}, {"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]},
            {"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}]:
    try:
        jsonschema.validate(bad, schema)
        print(f"FAIL the schema accepts {bad}")
        failures += 1
    except jsonschema.ValidationError:
        pass
with tempfile.TemporaryDirectory() as tmp:
    broken = os.path.join(tmp, "broken.yaml")
    text = open(docs[0]).read().replace("      example: 017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "      example: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
    open(broken, "w").write(text)
    docs.append(broken)
    docs.append(os.path.join(tmp, "missing.yaml"))  # an error: a toolExecutionNotification
    for doc in docs:
        out = os.path.join(tmp, "out.sarif")
        p = subprocess.run([idconform, "lint", "--sarif", out, doc], capture_output=True, text=True)
        sarif = json.load(open(out))
        try:
            jsonschema.validate(sarif, official)
        except jsonschema.ValidationError as e:
            print(f"FAIL {doc}: SARIF does not validate against the official schema: {e.message} at {list(e.path)}")
            failures += 1
            continue
        try:
            jsonschema.validate(sarif, schema)
        except jsonschema.ValidationError as e:
            print(f"FAIL {doc}: SARIF does not validate: {e.message} at {list(e.path)}")
            failures += 1
            continue
        failures += check_rules(sarif, doc, local_doc)
        results = sarif["runs"][0]["results"]
        lines = [l for l in p.stdout.splitlines() if l]
        if len(lines) != len(results):
            print(f"FAIL {doc}: {len(lines)} finding lines but {len(results)} SARIF results")
            failures += 1
        for line, r in zip(lines, results):
            region = r["locations"][0]["physicalLocation"]["region"]
            pos = line.split(": ", 1)[0].rsplit(":", 2)
            if [int(pos[1]), int(pos[2])] != [region["startLine"], region["startColumn"]]:
                print(f"FAIL {doc}: {line[:80]} vs region {region}")
                failures += 1
                break
        rule_ids = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
        for r in results:
            if r["ruleId"] not in rule_ids:
                print(f"FAIL {doc}: result rule {r['ruleId']} not among the driver's rules")
                failures += 1
        want = 0 if doc == docs[0] else 2 if doc.endswith("missing.yaml") else 1
        if p.returncode != want:
            print(f"FAIL {doc}: exit code {p.returncode}, expected {want}")
            failures += 1
        print(f"ok {os.path.relpath(doc, src) if doc.startswith(src) else doc}: {len(results)} results, exit {p.returncode}")
    # --docs-url: the links point at the published docs
    out = os.path.join(tmp, "out.sarif")
    subprocess.run([idconform, "lint", "--sarif", out, "--docs-url", "https://docs.example/idconform/docs", docs[0]], capture_output=True)
    failures += check_rules(json.load(open(out)), "--docs-url", "https://docs.example/idconform/docs/lint.md")
sys.exit(1 if failures else 0)
