#!/usr/bin/env python3
# A small API that needs the profile forms of issue #13 part B (resource_forms.sh,
# profile tests/e2e/resource_forms/target.yaml). Conformant unless --defect NAME:
#
#   /v1/countries   shared reference data: every principal reads it (and its
#                   list), only its creator may change it, nobody may delete
#                   it (DELETE answers 405)                   shared, cannot_delete
#   /v1/items       a create may carry the client's id in the body of the POST
#                   to the collection (no PUT); a required reference to a country
#                   put: {method: POST, path: /v1/items}
#   /v1/tags        a read of a missing tag answers 200 with []      not_found
#   /v1/me          the caller's own entity, read without an id      singleton
#   /v1/runs        ULID-keyed runs (profile resource_forms/ulid.yaml, the
#                   db-identifiers pack) that cannot be deleted (DELETE 405);
#                   each has a job (/v1/run-jobs/{id}); the form
#                   /v1/run-confirmations (R5.2) makes a confirmation of a run
#                   GET /v1/_counts (no profile names it) tells the e2e test how
#                   many runs, confirmations and tags exist
#
# Defects, each a violation one form lets the packs see:
#   shared-writable      another principal may change a country (DATA-ID-004)
#   post-id-overwrites   a POST with an existing id replaces that item (DATA-ID-006)
#   me-changes           /v1/me answers a fresh id on every read (DATA-ID-006)
#   delete-answers-404   a tag's DELETE deletes it but answers 404 (DATA-ID-006;
#                        the cleanup's read-back, 200 [], says it is gone)
#   reuses-ids           a new tag gets the id of the last deleted one (DATA-ID-006;
#                        the cleanup still deletes both creations)
#
# Ids are UUIDv7, checked strictly (lower-case canonical v7) wherever they
# come in. Principals: "Authorization: Bearer alice" / "Bearer bob".
# Loopback only. Usage: resource_forms_server.py [--defect NAME]; prints
# "listening on http://127.0.0.1:PORT".
import argparse
import json
import os
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit
from fixture_ids import uuid7  # this folder is on sys.path when run as a script

V7 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
DEFECTS = ["shared-writable", "post-id-overwrites", "me-changes", "delete-answers-404", "reuses-ids"]
ULID = re.compile(r"^[0-9a-hjkmnp-tv-z]{26}$")
CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz"




def ulid():
    n = (time.time_ns() // 1_000_000) << 80 | int.from_bytes(os.urandom(10), "big")
    return "".join(CROCKFORD[n >> (5 * i) & 31] for i in range(25, -1, -1))


class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.countries = {}  # id -> {"id", "name", "owner"}
        self.items = {}
        self.tags = {}
        self.me = {p: uuid7() for p in ("alice", "bob")}
        self.runs = {}  # id -> {"id", "job_id", "name", "owner"}
        self.jobs = {}  # job id -> run id
        self.confirmations = []
        self.freed_tags = []  # reuses-ids: (id, when) of deleted tags, handed out again


def public(entity):
    return {k: v for k, v in entity.items() if k != "owner"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    store = None
    defect = None

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

    def read_body(self):
        # Read whatever the answer: an unread body would be taken for the
        # next request on the kept-alive connection.
        n = int(self.headers.get("Content-Length") or 0)
        self.raw = self.rfile.read(n) if n else b""

    def body(self):
        raw = self.raw
        if not raw:
            return {}
        try:
            value = json.loads(raw)
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def route(self, method):
        self.read_body()
        who = self.principal()
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p != ""]
        query = parse_qs(url.query, keep_blank_values=True)
        if who is None:
            return self.error(401, "unauthenticated")
        if parts[:2] == ["v1", "me"] and len(parts) == 2:
            if method != "GET":
                return self.error(405, "read only")
            me = uuid7() if self.defect == "me-changes" else self.store.me[who]
            return self.answer(200, {"id": me, "name": who})
        if parts == ["v1", "_counts"]:
            with self.store.lock:
                return self.answer(200, {"runs": len(self.store.runs), "tags": len(self.store.tags),
                                         "confirmations": len(self.store.confirmations)})
        if parts[:2] in (["v1", "runs"], ["v1", "run-jobs"], ["v1", "run-confirmations"]):
            return self.runs(method, who, parts)
        if len(parts) < 2 or parts[0] != "v1" or parts[1] not in ("countries", "items", "tags"):
            return self.error(404, "no such route")
        kind = parts[1]
        table = getattr(self.store, kind)
        if len(parts) == 2:
            if method == "POST":
                return self.create(kind, table, who)
            if method == "GET" and kind != "tags":
                return self.list(kind, table, who, query)
            return self.error(405, "method not allowed")
        if len(parts) != 3:
            return self.error(404, "no such route")
        return self.one(kind, table, who, method, parts[2])

    # ------------------------------------------------------------ collection

    def create(self, kind, table, who):
        body = self.body()
        if body is None:
            return self.error(400, "the body is not a JSON object")
        name = body.get("name")
        if not isinstance(name, str) or not name:
            return self.error(400, "name is required")
        entity = {"name": name, "owner": who}
        if kind == "items":
            ref = body.get("country_id")
            if not isinstance(ref, str) or not V7.fullmatch(ref):
                return self.error(400, "country_id must be a canonical UUIDv7")
            with self.store.lock:
                if ref not in self.store.countries:
                    return self.error(422, "country_id names no country")
            entity["country_id"] = ref
        status = 201
        with self.store.lock:
            if kind == "items" and "id" in body:
                cid = body["id"]
                if not isinstance(cid, str) or not V7.fullmatch(cid):
                    return self.error(400, "id must be a canonical UUIDv7")
                if cid in table:
                    if self.defect != "post-id-overwrites":
                        return self.error(409, "an item with this id exists")
                    status = 200
                entity["id"] = cid
            elif "id" in body:
                return self.error(400, "the server assigns the id")
            elif kind == "tags" and self.defect == "reuses-ids" and self.reusable():
                entity["id"] = self.store.freed_tags.pop()[0]
            else:
                entity["id"] = uuid7()
            table[entity["id"]] = entity
        self.answer(status, public(entity), [("Location", "/v1/%s/%s" % (kind, entity["id"]))])

    def reusable(self):
        # Only an id freed a moment ago: an older one would fail DATA-ID-001's
        # time window first (the harness allows 5 s of clock skew).
        freed = self.store.freed_tags
        while freed and time.monotonic() - freed[-1][1] > 2:
            freed.pop()
        return bool(freed)

    def runs(self, method, who, parts):
        st = self.store
        if parts[1] == "run-confirmations" and len(parts) == 2:
            if method != "POST":
                return self.error(405, "method not allowed")
            body = self.body()
            rid = body.get("run_id") if body is not None else None
            if not isinstance(rid, str) or not ULID.fullmatch(rid):
                return self.error(400, "run_id must be a lower-case ULID")
            with st.lock:
                if rid not in st.runs or st.runs[rid]["owner"] != who:
                    return self.error(422, "run_id names no run of yours")
                confirmation = {"id": ulid(), "run_id": rid}
                st.confirmations.append(confirmation)
            return self.answer(201, confirmation)
        if parts[1] == "runs" and len(parts) == 2:
            if method != "POST":
                return self.error(405, "method not allowed")
            body = self.body()
            if body is None or not isinstance(body.get("name"), str):
                return self.error(400, "name is required")
            run = {"id": ulid(), "job_id": ulid(), "name": body["name"], "owner": who}
            with st.lock:
                st.runs[run["id"]] = run
                st.jobs[run["job_id"]] = run["id"]
            return self.answer(201, public(run), [("Location", "/v1/runs/%s" % run["id"])])
        if len(parts) != 3:
            return self.error(404, "no such route")
        with st.lock:
            if parts[1] == "run-jobs":
                rid = st.jobs.get(parts[2]) if ULID.fullmatch(parts[2]) else None
                run = st.runs.get(rid) if rid else None
                if run is None or run["owner"] != who:
                    return self.error(404, "not found")
                return self.answer(200, {"id": parts[2], "run_id": rid, "state": "done"})
            run = st.runs.get(parts[2]) if ULID.fullmatch(parts[2]) else None
        if run is None or run["owner"] != who:
            return self.error(404, "not found")
        if method == "GET":
            return self.answer(200, public(run))
        return self.error(405, "runs cannot be deleted or changed")

    def list(self, kind, table, who, query):
        with self.store.lock:
            rows = list(table.values())
        if kind == "countries":  # shared reference data: everybody's list
            return self.answer(200, {"items": [public(e) for e in rows]})
        rows = [e for e in rows if e["owner"] == who]
        if "country_id" in query:
            ref = query["country_id"][0]
            if not V7.fullmatch(ref):
                return self.error(400, "country_id must be a canonical UUIDv7")
            rows = [e for e in rows if e.get("country_id") == ref]
        self.answer(200, {"items": [public(e) for e in rows]})

    # ---------------------------------------------------------------- entity

    def one(self, kind, table, who, method, eid):
        with self.store.lock:
            entity = table.get(eid) if V7.fullmatch(eid) else None
        visible = entity is not None and (kind == "countries" or entity["owner"] == who)
        if not visible:
            if kind == "tags" and method == "GET":
                return self.answer(200, [])  # a read of nothing answers an empty array
            return self.error(404, "not found")
        if method == "GET":
            return self.answer(200, public(entity))
        if method == "PATCH":
            if entity["owner"] != who and self.defect != "shared-writable":
                return self.error(403, "only its creator may change it")
            body = self.body()
            if body is None:
                return self.error(400, "the body is not a JSON object")
            with self.store.lock:
                if isinstance(body.get("name"), str) and body["name"]:
                    entity["name"] = body["name"]
            return self.answer(200, public(entity))
        if method == "DELETE":
            if kind == "countries":
                return self.error(405, "reference data cannot be deleted")
            with self.store.lock:
                table.pop(eid, None)
                if kind == "tags":
                    self.store.freed_tags.append((eid, time.monotonic()))
            if kind == "tags" and self.defect == "delete-answers-404":
                return self.error(404, "not found")
            return self.answer(204)
        return self.error(405, "method not allowed")

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
    ap.add_argument("--defect", choices=DEFECTS)
    ap.add_argument("--list-defects", action="store_true")
    args = ap.parse_args()
    if args.list_defects:
        print("\n".join(DEFECTS))
        return
    Handler.store = Store()
    Handler.defect = args.defect
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
