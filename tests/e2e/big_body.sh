# A 50 MB response body does not grow idconform's memory past the body cap:
# the body is counted, not kept.
source "$(dirname "$0")/lib.sh"
python3 - "$WORK/port" <<'PY' &
import socket, sys, threading
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(16)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
chunk = b'{"pad":"' + b"x" * (1 << 20)
def serve(c):
    try:
        c.recv(65536)
        size = 50 * (1 << 20)
        c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % size)
        sent = 0
        while sent < size:
            part = chunk[: min(len(chunk), size - sent)]
            c.sendall(part); sent += len(part)
    except OSError:
        pass
    c.close()
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
PIDS+=($!)
for _ in $(seq 1 100); do [ -s "$WORK/port" ] && break; sleep 0.05; done
cat >"$WORK/big.yaml" <<YAML
name: big-body
target: {base_url: "http://127.0.0.1:$(cat "$WORK/port")"}
cases:
  - name: fifty megabytes
    steps:
      - http: {method: GET, path: /big}
        expect: {status: 200}
YAML
python3 - "$IDCONFORM_BIN" "$WORK" "$SLACK_MEM" <<'PY'
import resource, subprocess, sys
binary, work, slack = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = subprocess.run([binary, "run", "--no-progress", "--body-cap", "1048576", "--json", work + "/report.json",
                    work + "/big.yaml"], capture_output=True, text=True)
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("exit", r.returncode, "peak RSS", peak_kb, "KiB")
if r.returncode != 0:
    sys.exit("idconform failed: " + r.stderr)
if peak_kb > 40 * 1024 * slack:
    sys.exit("peak RSS %d KiB: the 50 MB body was kept" % peak_kb)
import json
rep = json.load(open(work + "/report.json"))
resp = rep["suites"][0]["cases"][0]["steps"][0]["response"]
assert resp["truncated"] is True, resp.keys()
assert resp["body_bytes"] == 50 * (1 << 20), resp["body_bytes"]
PY
echo "ok: 50 MB body counted, not kept"
