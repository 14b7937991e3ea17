#!/usr/bin/env python3
# A fixture API of a common shape (known_state.sh, profile
# tests/e2e/known_state/target.yaml, issue #22 section 2): an Express-style
# app over PostgreSQL. Its GET and PATCH routes match the id with a strict
# pattern (canonical lower-case UUID text, else 400), but with --defect
# pg-cast-delete its DELETE route passes the path segment straight to
# `DELETE FROM items WHERE id = $1` on a uuid column. PostgreSQL's uuid
# input then reads upper- or mixed-case hex, a hyphen-less id, braces
# around it and hyphens after any group of four digits as the live id and
# deletes it (204); other text fails the cast (22P02 -> 400); a well-formed
# id that matches no row is 404. Owned by who created it (Bearer alice/bob).
#
# Usage: known_state_server.py [--defect pg-cast-delete]   (prints "listening on URL")
#        known_state_server.py --list-defects
import json
import re
import secrets
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit
from fixture_ids import uuid7  # this folder is on sys.path when run as a script

DEFECTS = ["pg-cast-delete"]
CANON = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
LOCK = threading.Lock()
ROWS = {}  # id -> {"row": ..., "owner": ...}
DEFECT = ""




def pg_uuid_in(text):
    """PostgreSQL's uuid_in: optional braces, hex of any case, a hyphen
    allowed after any group of four hex digits; None when the cast fails."""
    t = text
    if t.startswith("{"):
        if not t.endswith("}"):
            return None
        t = t[1:-1]
    digits = []
    i = 0
    while i < len(t):
        if not re.fullmatch(r"[0-9a-fA-F]", t[i]):
            return None
        digits.append(t[i].lower())
        i += 1
        if i < len(t) and t[i] == "-" and len(digits) % 4 == 0 and len(digits) < 32:
            i += 1
    if len(digits) != 32:
        return None
    return str(uuid.UUID("".join(digits)))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=None, location=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        if data:
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def route(self, method):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        auth = self.headers.get("Authorization", "")
        who = auth[7:] if auth.startswith("Bearer ") else None
        if who not in ("alice", "bob"):
            return self.send(401, {"error": "unauthenticated"})
        parts = urlsplit(self.path).path.split("/")
        if len(parts) < 3 or parts[1:3] != ["api", "items"] or len(parts) > 4:
            return self.send(404, {"error": "Not Found"})
        if len(parts) == 3:
            if method != "POST":
                return self.send(405, {"error": "Method Not Allowed"})
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return self.send(400, {"error": "invalid JSON"})
            if not isinstance(body, dict) or not isinstance(body.get("name"), str):
                return self.send(400, {"error": "name is required"})
            row = {"id": uuid7(), "name": body["name"], "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            with LOCK:
                ROWS[row["id"]] = {"row": row, "owner": who}
            return self.send(201, row, location="/api/items/" + row["id"])
        value = unquote(parts[3])
        if method == "DELETE" and DEFECT == "pg-cast-delete":
            key = pg_uuid_in(value)
            if key is None:
                return self.send(400, {"error": 'invalid input syntax for type uuid'})
        elif not CANON.fullmatch(value):
            return self.send(400, {"error": "id must be a lower-case UUID"})
        else:
            key = value
        with LOCK:
            e = ROWS.get(key)
            if e is None or e["owner"] != who:
                return self.send(404, {"error": "Not Found"})
            if method == "GET":
                return self.send(200, dict(e["row"]))
            if method == "PATCH":
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self.send(400, {"error": "invalid JSON"})
                if isinstance(body, dict) and isinstance(body.get("name"), str):
                    e["row"]["name"] = body["name"]
                return self.send(200, dict(e["row"]))
            if method == "DELETE":
                del ROWS[key]
                return self.send(204)
        return self.send(405, {"error": "Method Not Allowed"})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PATCH(self):
        self.route("PATCH")

    def do_DELETE(self):
        self.route("DELETE")


def main():
    global DEFECT
    args = sys.argv[1:]
    if args == ["--list-defects"]:
        print("\n".join(DEFECTS))
        return
    if len(args) == 2 and args[0] == "--defect" and args[1] in DEFECTS:
        DEFECT = args[1]
    elif args:
        sys.exit("usage: known_state_server.py [--defect %s] | --list-defects" % "|".join(DEFECTS))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
