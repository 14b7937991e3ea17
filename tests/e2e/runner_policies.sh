# Runner policies end to end: the rate limit holds across concurrent cases
# (checked as a lower bound on the run's duration, which load can only
# lengthen), a broken expectation is never retried, and redirects are not
# followed unless --location is given.
source "$(dirname "$0")/lib.sh"
start_server
cat >"$WORK/rate.yaml" <<'YAML'
name: rate
target: {base_url: "${env:IDCONFORM_BASE_URL}"}
cases:
  - name: health
    for_each: {count: 11, as: n}
    steps:
      - http: {method: GET, path: /healthz}
        expect: {status: 200}
  - name: a broken expectation
    steps:
      - http: {method: GET, path: /healthz}
        expect: {status: 418}
YAML
python3 - "$IDCONFORM_BIN" "$WORK" "$BASE_URL" <<'PY'
import json, os, subprocess, sys, time
binary, work, base = sys.argv[1:4]
env = dict(os.environ, IDCONFORM_BASE_URL=base)
t0 = time.monotonic()
r = subprocess.run([binary, "run", "--no-progress", "--concurrency", "8", "--rate-limit", "20/s", "--retries", "2",
                    "--json", work + "/r.json", work + "/rate.yaml"], env=env, capture_output=True, text=True)
elapsed = time.monotonic() - t0
assert r.returncode == 1, (r.returncode, r.stderr)
# 12 requests at 20/s: the last may not start before 11 intervals = 0.55 s
assert elapsed >= 0.5, "12 requests at --rate-limit 20/s took only %.3f s" % elapsed
cases = json.load(open(work + "/r.json"))["suites"][0]["cases"]
broken = [c for c in cases if c["name"] == "a broken expectation"][0]
assert broken["outcome"] == "failed", broken["outcome"]
assert broken["steps"][0]["attempts"] == 1, "a broken expectation was retried"
print("rate limit and retry policy ok (%.3f s)" % elapsed)
PY
# --max-failures: after the first failure no new case starts; the rest are
# skipped with the reason.
cat >"$WORK/broken.yaml" <<'YAML'
name: broken
target: {base_url: "${env:IDCONFORM_BASE_URL}"}
cases:
  - name: teapot
    for_each: {count: 3, as: n}
    steps:
      - http: {method: GET, path: /healthz}
        expect: {status: 418}
YAML
run_idconform "$WORK/broken.yaml" --max-failures 1
expect_code 1
[ "$(junit_xpath 'count(//testcase[failure])')" = 1 ] || fail "--max-failures 1 let more than one case fail"
[ "$(junit_xpath 'count(//testcase/skipped[contains(@message, "--max-failures 1 reached")])')" = 2 ] ||
  fail "cases after --max-failures are not skipped with the reason"

# A 3xx is the answer unless --location: a server answering 302 for /old.
python3 - "$WORK/port" <<'PY' &
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/old":
            self.send_response(302); self.send_header("Location", "/new"); self.send_header("Content-Length", "0"); self.end_headers()
        else:
            body = b'{"ok":true}'
            self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()
PY
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
cat >"$WORK/redirect.yaml" <<YAML
name: redirect
target: {base_url: "http://127.0.0.1:$(cat "$WORK/port")"}
cases:
  - name: old
    steps:
      - http: {method: GET, path: /old}
        expect: {status: 302}
YAML
run_idconform "$WORK/redirect.yaml"
expect_code 0
run_idconform "$WORK/redirect.yaml" --location
expect_code 1
echo "ok: rate limit, no retry of broken expectations, --max-failures, redirects only on request"
