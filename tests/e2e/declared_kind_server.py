#!/usr/bin/env python3
# A small conforming API of a shape the example server does not have, for
# declared_kind.sh (issue 22, section 5: the declared kind drives every
# generated value). Two resources: /v1/groups and /v1/things, a thing has a
# required reference group_id; create (POST), read (GET), update (PATCH),
# delete (DELETE) and a create with the client's id (PUT to the item path).
# Ids, by --ids:
#
#   v4       UUIDv4 (its creation time must not be disclosed). A client-chosen
#            id must be a canonical v4: a v7 is refused (DATA-ID-003).
#   opaque   11 characters of [A-Za-z0-9_-], as json-server 1.x hands out
#            ("xU4Kw_aif-Q"). --style viewable-like: every id ends in "-" and
#            an upper-case letter, as a viewable id would ("xU4Kw_aif-Q");
#            --style plain: no "-" at all ("xU4Kw_aifQq"). A client-chosen
#            id must have that form.
#
# Whatever the kind, an id is looked up exactly as it was handed out (no case
# folding, no trimming, no parsing), an update never changes it (an id in the
# body is ignored), a reference must name an existing group, and an entity is
# its creator's: another principal gets 404. Principals: "Authorization:
# Bearer alice" / "Bearer bob". Loopback only. Prints "listening on
# http://127.0.0.1:PORT".
import argparse
import json
import os
import re
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote, urlsplit

V4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
OPAQUE = re.compile(r"^[A-Za-z0-9_-]{11}$")
WORD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
CROCKFORD_LETTERS = "ABCDEFGHJKMNPQRSTVWXYZ"


def uuid4():
    n = int.from_bytes(os.urandom(16), "big")
    n = (n & ~(0xF << 76)) | (0x4 << 76)
    n = (n & ~(0x3 << 62)) | (0x2 << 62)
    h = "%032x" % n
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


class Ids:
    def __init__(self, kind, style):
        self.kind, self.style = kind, style

    def valid(self, text):
        return bool((V4 if self.kind == "v4" else OPAQUE).fullmatch(text))

    def new(self):
        if self.kind == "v4":
            return uuid4()
        if self.style == "viewable-like":
            return "".join(secrets.choice(WORD) for _ in range(9)) + "-" + secrets.choice(CROCKFORD_LETTERS)
        return "".join(secrets.choice(WORD) for _ in range(11))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    ids = None
    lock = threading.Lock()
    tables = {"groups": {}, "things": {}}

    def log_message(self, *args):
        pass

    def answer(self, status, body=None, headers=()):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, text):
        self.answer(status, {"error": text})

    def principal(self):
        auth = self.headers.get("Authorization", "")
        name = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        return name if name in ("alice", "bob") else None

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    @staticmethod
    def public(entity):
        return {k: v for k, v in entity.items() if k != "owner"}

    def route(self, method):
        body = self.body()
        who = self.principal()
        parts = [unquote(p) for p in urlsplit(self.path).path.split("/") if p != ""]
        if who is None:
            return self.error(401, "unauthenticated")
        if len(parts) < 2 or parts[0] != "v1" or parts[1] not in self.tables:
            return self.error(404, "no such route")
        kind = parts[1]
        if body is None:
            return self.error(400, "the body is not a JSON object")
        if len(parts) == 2:
            if method != "POST":
                return self.error(405, "method not allowed")
            if "id" in body:
                return self.error(400, "the server assigns the id; PUT to the item path to choose it")
            return self.create(kind, who, body, self.ids.new())
        if len(parts) != 3:
            return self.error(404, "no such route")
        eid = parts[2]
        if method == "PUT":
            if not self.ids.valid(eid):
                return self.error(400, "not an id of this API")
            with self.lock:
                if eid in self.tables[kind]:
                    return self.error(409, "an entity with this id exists")
            return self.create(kind, who, body, eid)
        with self.lock:
            entity = self.tables[kind].get(eid)
        if entity is None or entity["owner"] != who:
            return self.error(404, "not found")
        if method == "GET":
            return self.answer(200, self.public(entity))
        if method == "PATCH":
            with self.lock:
                if isinstance(body.get("name"), str) and body["name"]:
                    entity["name"] = body["name"]
            return self.answer(200, self.public(entity))
        if method == "DELETE":
            with self.lock:
                self.tables[kind].pop(eid, None)
            return self.answer(204)
        return self.error(405, "method not allowed")

    def create(self, kind, who, body, eid):
        name = body.get("name")
        if not isinstance(name, str) or not name:
            return self.error(400, "name is required")
        entity = {"id": eid, "name": name, "owner": who}
        if kind == "things":
            ref = body.get("group_id")
            if not isinstance(ref, str) or not self.ids.valid(ref):
                return self.error(400, "group_id must be an id of this API")
            with self.lock:
                if ref not in self.tables["groups"]:
                    return self.error(422, "group_id names no group")
            entity["group_id"] = ref
        with self.lock:
            if eid in self.tables[kind]:
                return self.error(409, "an entity with this id exists")
            self.tables[kind][eid] = entity
        self.answer(201, self.public(entity), [("Location", "/v1/%s/%s" % (kind, eid))])

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
    ap = argparse.ArgumentParser()
    ap.add_argument("--ids", choices=["v4", "opaque"], required=True)
    ap.add_argument("--style", choices=["viewable-like", "plain"], default="plain")
    args = ap.parse_args()
    Handler.ids = Ids(args.ids, args.style)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
