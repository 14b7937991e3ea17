#!/usr/bin/env python3
"""A small CRUD API that answers every request after a fixed delay, the shape
of a slow staging API: POST /items creates (201, a v7 id), GET/DELETE
/items/{id} read and delete. GET /_live lists the ids still stored (the test's
view, not part of the API). Prints "listening on http://HOST:PORT" once bound.

slow_server.py [--delay-ms N] [--delete-delay-ms N]
"""
import argparse
import json
import secrets
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from fixture_ids import uuid7  # this folder is on sys.path when run as a script

LOCK = threading.Lock()
ITEMS = {}




class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, obj=None):
        body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def do_POST(self):
        self.body()
        time.sleep(ARGS.delay_ms / 1000)
        if self.path != "/items":
            return self.answer(404, {"error": "no route"})
        item = {"id": uuid7(), "name": "x"}
        with LOCK:
            ITEMS[item["id"]] = item
        self.answer(201, item)

    def do_GET(self):
        if self.path == "/_live":
            with LOCK:
                return self.answer(200, sorted(ITEMS))
        time.sleep(ARGS.delay_ms / 1000)
        key = self.path[len("/items/"):] if self.path.startswith("/items/") else None
        with LOCK:
            item = ITEMS.get(key)
        self.answer(200, item) if item else self.answer(404, {"error": "not found"})

    def do_DELETE(self):
        time.sleep(ARGS.delete_delay_ms / 1000)
        key = self.path[len("/items/"):] if self.path.startswith("/items/") else None
        with LOCK:
            found = ITEMS.pop(key, None)
        self.answer(204) if found else self.answer(404, {"error": "not found"})


p = argparse.ArgumentParser()
p.add_argument("--delay-ms", type=int, default=100)
p.add_argument("--delete-delay-ms", type=int, default=0)
ARGS = p.parse_args()
srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
srv.daemon_threads = True
print("listening on http://127.0.0.1:%d" % srv.server_address[1], flush=True)
srv.serve_forever()
