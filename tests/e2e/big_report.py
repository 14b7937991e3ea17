# Writes a JSON report of N cases (every tenth one failed, with a step, a
# response body and a reproduce command), suites of 1,000 cases: the input
# of the streaming tests of `report --html` and `--baseline` (audit.sh stream).
# Usage: big_report.py N OUT.json
import json, sys
n = int(sys.argv[1]); out = open(sys.argv[2], "w")
per_suite = 1000
out.write('{\n  "tool": "idconform",\n  "version": "0.9.0",\n  "run": {"started": "2026-12-01T18:00:00.000Z", "finished": "2026-12-01T18:10:00.000Z", "metadata": [{"name": "target", "value": "shop http://127.0.0.1:8080"}]},\n')
failed = sum(1 for i in range(n) if i % 10 == 3)
out.write('  "summary": {"tests": %d, "passed": %d, "failed": %d, "errors": 0, "skipped": 0, "waived": 0, "time": 600.0},\n  "suites": [' % (n, n - failed, failed))
for s in range(0, n, per_suite):
    if s: out.write(",")
    out.write('\n    {"name": "data-id-%03d products", "file": "suites/packs/data-id/x.yaml", "time": 1.0, "timestamp": "2026-12-01T18:00:00.000Z", "cases": [' % (s // per_suite))
    for i in range(s, min(n, s + per_suite)):
        bad = i % 10 == 3
        rule = "DATA-ID-00%d" % (1 + i % 7)
        c = {"name": "case %d rejects a mutated id [upper-case]" % i, "classname": "data-id.%s" % rule, "rules": [rule],
             "outcome": "failed" if bad else "passed", "message": "status: expected 4xx, got 200" if bad else "",
             "detail": "", "properties": [{"name": "transport", "value": "http"}, {"name": "endpoint", "value": "GET /v1/products/{id}"}],
             "time": 0.012, "position": {"file": "suites/packs/data-id/x.yaml", "line": 10, "column": 5},
             "steps": [{"name": "read", "request": {"transport": "http", "method": "GET", "url": "http://127.0.0.1:8080/v1/products/017F22E2-79B0-7CC3-98C4-DC0C0C07398F",
                        "headers": [{"name": "Accept", "value": "application/json"}, {"name": "Authorization", "value": "[REDACTED]"}], "body": ""},
                        "response": {"status": 200 if bad else 400, "reason": "OK", "headers": [{"name": "Content-Type", "value": "application/json"}],
                                     "body": json.dumps({"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "name": "product %d" % i, "price": 12.5, "tags": ["a", "b"]}),
                                     "body_bytes": 100, "truncated": False} , "error": None, "attempts": 1, "time": 0.01,
                        "checks": [{"rule": rule, "what": "status", "expected": "4xx", "actual": "200" if bad else "400", "ok": not bad, "warning": False, "position": None}],
                        "reproduce": "curl -sS -X GET 'http://127.0.0.1:8080/v1/products/017F22E2-79B0-7CC3-98C4-DC0C0C07398F'" if bad else ""}]}
        out.write(("," if i > s else "") + "\n      " + json.dumps(c))
    out.write("\n    ]}")
out.write("\n  ]\n}\n")
