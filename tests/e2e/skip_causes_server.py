#!/usr/bin/env python3
# A fixture API for skip_causes.sh (issue #22 section 6): two resources,
# /v1/orders and /v1/customers, that can be created, read and deleted (no
# update, no list), one principal. Every request it receives is appended to
# the --log file as "METHOD PATH", so the test can count what a run sent
# (a filter that selects nothing must send nothing, not even a setup create).
#
# Usage: skip_causes_server.py --log FILE   (prints "listening on URL")
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit
from fixture_ids import uuid7  # this folder is on sys.path when run as a script

CANON = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
RESOURCES = ("orders", "customers")
LOCK = threading.Lock()
ROWS = {}  # (resource, id) -> row
LOG = None


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
        path = urlsplit(self.path).path
        with LOCK:
            with open(LOG, "a") as f:
                f.write(method + " " + path + "\n")
        parts = path.split("/")
        if len(parts) < 3 or parts[1] != "v1" or parts[2] not in RESOURCES or len(parts) > 4:
            return self.send(404, {"error": "Not Found"})
        res = parts[2]
        if len(parts) == 3:
            if method != "POST":
                return self.send(405, {"error": "Method Not Allowed"})
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                return self.send(400, {"error": "invalid JSON"})
            if not isinstance(body, dict) or not isinstance(body.get("name"), str):
                return self.send(400, {"error": "name is required"})
            row = {"id": uuid7(), "name": body["name"]}
            with LOCK:
                ROWS[(res, row["id"])] = row
            return self.send(201, row, location="/v1/%s/%s" % (res, row["id"]))
        value = unquote(parts[3])
        if not CANON.fullmatch(value):
            return self.send(404, {"error": "Not Found"})
        with LOCK:
            row = ROWS.get((res, value))
            if row is None:
                return self.send(404, {"error": "Not Found"})
            if method == "GET":
                return self.send(200, dict(row))
            if method == "DELETE":
                del ROWS[(res, value)]
                return self.send(204)
        return self.send(405, {"error": "Method Not Allowed"})

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def do_PATCH(self):
        self.route("PATCH")

    def do_DELETE(self):
        self.route("DELETE")


def main():
    global LOG
    if len(sys.argv) != 3 or sys.argv[1] != "--log":
        sys.exit("usage: skip_causes_server.py --log FILE")
    LOG = sys.argv[2]
    open(LOG, "w").close()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
