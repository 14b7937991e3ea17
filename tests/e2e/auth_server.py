#!/usr/bin/env python3
# A fixture API of a common shape (auth.sh, profiles tests/e2e/auth/,
# issue #22 section 4): a REST framework app behind Bearer-token
# authentication, as Django REST framework or FastAPI apps are. Every
# request is authenticated first: no Authorization header, an empty token
# or an unknown one is 401 with a `WWW-Authenticate: Bearer` challenge,
# whatever the path. A known token with a read-only scope is let in but gets
# 403 on writes. Orders belong to who created them; another user's order is
# answered --foreign (404 by default: "not found" hides that it exists; 401
# as some gateways do; or 403). A malformed id is 422 (a validation error).
#
# Tokens: tok-alice, tok-bob (read and write), tok-alice-ro (alice, read only).
# GET /__stats (no token) answers {"requests": N, "creates": N, "live": N}.
#
# Usage: auth_server.py [--foreign 401|403|404]   (prints "listening on URL")
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit
from fixture_ids import uuid7  # this folder is on sys.path when run as a script

TOKENS = {"tok-alice": ("alice", True), "tok-bob": ("bob", True), "tok-alice-ro": ("alice", False)}
CANON = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
LOCK = threading.Lock()
ORDERS = {}  # id -> {"row": ..., "owner": ...}
STATS = {"requests": 0, "creates": 0}
FOREIGN = 404


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=None, headers=()):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if data:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def refuse(self, status):
        if status == 401:
            return self.send(401, {"detail": "Invalid token."}, [("WWW-Authenticate", 'Bearer realm="api"')])
        if status == 403:
            return self.send(403, {"detail": "You do not have permission to perform this action."})
        return self.send(404, {"detail": "Not found."})

    def route(self, method):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        path = urlsplit(self.path).path
        if path == "/__stats":
            with LOCK:
                return self.send(200, dict(STATS, live=len(ORDERS)))
        with LOCK:
            STATS["requests"] += 1
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("Bearer ") or not auth[7:].strip():
            return self.send(401, {"detail": "Authentication credentials were not provided."},
                             [("WWW-Authenticate", 'Bearer realm="api"')])
        if auth[7:] not in TOKENS:
            return self.refuse(401)
        who, can_write = TOKENS[auth[7:]]
        if method != "GET" and not can_write:
            return self.refuse(403)
        parts = path.rstrip("/").split("/")
        if parts[1:3] != ["v2", "orders"] or len(parts) > 4:
            return self.refuse(404)
        if len(parts) == 3:
            if method == "GET":
                with LOCK:
                    mine = [dict(e["row"]) for e in ORDERS.values() if e["owner"] == who]
                return self.send(200, {"count": len(mine), "results": mine})
            if method != "POST":
                return self.send(405, {"detail": 'Method "%s" not allowed.' % method})
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return self.send(400, {"detail": "JSON parse error"})
            if not isinstance(body, dict) or not isinstance(body.get("item"), str):
                return self.send(400, {"item": ["This field is required."]})
            row = {"id": uuid7(), "item": body["item"], "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
            with LOCK:
                ORDERS[row["id"]] = {"row": row, "owner": who}
                STATS["creates"] += 1
            return self.send(201, row, [("Location", "/v2/orders/" + row["id"])])
        oid = parts[3]
        if not CANON.fullmatch(oid):
            return self.send(422, {"detail": [{"loc": ["path", "order_id"], "msg": "value is not a valid uuid"}]})
        with LOCK:
            e = ORDERS.get(oid)
            if e is None:
                return self.refuse(404)
            if e["owner"] != who:
                return self.refuse(FOREIGN)
            if method == "GET":
                return self.send(200, dict(e["row"]))
            if method == "PATCH":
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self.send(400, {"detail": "JSON parse error"})
                if isinstance(body, dict) and isinstance(body.get("item"), str):
                    e["row"]["item"] = body["item"]
                return self.send(200, dict(e["row"]))
            if method == "DELETE":
                del ORDERS[oid]
                return self.send(204)
        return self.send(405, {"detail": 'Method "%s" not allowed.' % method})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PATCH(self):
        self.route("PATCH")

    def do_PUT(self):
        self.route("PUT")

    def do_DELETE(self):
        self.route("DELETE")


def main():
    global FOREIGN
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--foreign" and args[1] in ("401", "403", "404"):
        FOREIGN = int(args[1])
    elif args:
        sys.exit("usage: auth_server.py [--foreign 401|403|404]")
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
