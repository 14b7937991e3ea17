#!/usr/bin/env python3
# Fixture APIs shaped like real ones that the default profile form cannot
# describe, for the end-to-end tests of the answer forms (answer_forms.sh; profiles
# in tests/e2e/answer_forms/). Loopback only, standard library only. Each mode is a
# conforming API; --defect NAME adds one deliberate violation that the form
# lets the packs catch.
#
#   registry   uploads as in a container registry (OCI distribution): POST
#              /v2/probe/blobs/uploads/ answers 202 with an empty body, the new
#              id (UUIDv4) only in Docker-Upload-UUID and in Location
#              (/v2/probe/blobs/uploads/<id>?_state=<token>); GET, PATCH and
#              DELETE at that URL; GET answers 204 with the id in the header.
#              Owned by the principal that created them (Bearer alice / bob).
#              defects: v1-ids (time-based v1 ids: DATA-ID-003),
#                       case-insensitive (an upper-case id finds the upload: DATA-ID-002)
#   postgrest  a PostgREST-style table API: reads GET /products?id=eq.<id>
#              answer [row] or [] (row-level security: another principal's rows
#              are not there), create/update answer one object with
#              Accept: application/vnd.pgrst.object+json, a filter on
#              category_id=eq.<id>, strict uuid input (400 otherwise).
#              defects: lenient-uuid (PostgreSQL's uuid input: upper case,
#                       braces and no hyphens are read as the same id: DATA-ID-002)
#   postgrest204  the same, with PostgREST's own answers to a DELETE, and to a
#              PATCH without Prefer: return=representation, whose filter matches
#              nothing: 204, as for one that changed a row.
#   location   POST /v1/widgets answers 202 with an empty body and an
#              absolute Location (the only place of the new id); GET/PATCH/
#              DELETE at that URL; the widget's tracking_id (UUIDv4) is only in
#              read answers. Categories answer 201 with a relative Location and
#              a body without their audit_id (only in reads).
#              defects: tracking-v7 (a v7 tracking_id, seen only by reading
#                       back: DATA-ID-003), location-other-origin (Location on
#                       another origin: never followed)
#   renamed    POST /v1/orders answers 201 with only {"orderID": <id>} (no
#              Location); reads, updates and the list name it "id", with the
#              order's tracking_id (UUIDv4) and created_at. Non-canonical ids
#              find nothing (404). GET /_state says how many orders are left.
#              defects: create-v4 (new orders get UUIDv4 ids: DATA-ID-001)
#   found      a key-value API that tells "nothing there" in a 200 answer:
#              GET, PATCH and DELETE /v1/keys/<id> of an unknown (or
#              non-canonical) id answer 200 {"found": false}; a read of a
#              live key answers {"found": true, "id": ..., "value": ...}.
#              defects: case-insensitive (an upper-case id finds the key: DATA-ID-002)
#   timeonread POST /v1/notes answers 201 with the note but without its
#              created_at, which only reads and the list carry (an audit
#              column filled in by the database).
#              defects: time-from-id (created_at is the v7 id's timestamp,
#                       to the millisecond: DATA-ID-005, seen only on read)
#   rpc        an RPC-style JSON gateway (Twirp, AIP custom methods): every call
#              is a POST naming the entity by the id in its JSON body:
#              /v1/orders:create, :get {"id"}, :update {"id", "name"}, :delete
#              {"id"}, :list. An unknown id answers 404, a non-canonical one 400.
#              GET /_state says how many orders are left.
#              defects: case-insensitive (an upper-case id in a body finds the
#                       order: DATA-ID-002)
#   refname    a series API whose answers name a reference otherwise than the
#              create body: POST /v1/series {"title", "parent"} answers
#              {"id", "title", "parent_series"}; GET/PATCH/DELETE
#              /v1/series/<id>, GET /v1/series. A parent that is not the
#              canonical id of one of the principal's series is refused (400).
#              defects: nil-parent (no parent is answered as the Nil UUID, not
#                       null: DATA-ID-007)
#   upsert     documents a client may create or replace: PUT /v1/docs/<id>
#              answers 201 for a fresh canonical v7 id, 200 replacing the live
#              document of that id (the one profile form: put {replaces: true});
#              POST /v1/docs creates with a server id; GET, DELETE /v1/docs/<id>.
#              defects: rekey-on-replace (a replace moves the document to a new
#                       id and answers that: DATA-ID-006)
#   lines      orders with line items whose ids the client chooses: POST
#              /v1/orders {"lines": [{"id": <v7>, "sku"}]}; a line id that is not
#              a canonical UUIDv7 (or is Nil/Max) is refused (400), as is a
#              line id already used; GET, DELETE /v1/orders/<id>.
#              defects: empty-line-id (a line id "" is stored: DATA-ID-007)
#   notebooks  notebooks that only a note's create makes, and tasks that
#              reference them (answer_forms_made.py).
#              defects: empty-notebook (a task's notebook "" is stored: DATA-ID-007)
#
# Usage: answer_forms_server.py MODE [--defect NAME] PORT_FILE  (writes the port)
import json
import os
import re
import secrets
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit
from fixture_ids import uuid7  # this folder is on sys.path when run as a script
import answer_forms_made  # the notebooks mode

CANON = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
LOCK = threading.Lock()




def lenient(text):
    """PostgreSQL's uuid input: case, braces and missing hyphens are accepted."""
    t = text.strip()
    if t.startswith("{") and t.endswith("}"):
        t = t[1:-1]
    t = t.replace("-", "").lower()
    if not re.fullmatch(r"[0-9a-f]{32}", t):
        return None
    return str(uuid.UUID(t))


class Store:
    def __init__(self):
        self.rows = {}  # table -> id -> row (with "_owner")


STORE = Store()
MODE = "registry"
DEFECT = ""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in separate writes

    def log_message(self, *args):
        pass

    # -------------------------------------------------------------- helpers
    def principal(self):
        auth = self.headers.get("Authorization", "")
        return auth[len("Bearer "):] if auth.startswith("Bearer ") else ""

    def body_json(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return "bad"

    def answer(self, status, body=None, headers=None):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if data and self.command != "HEAD":
            self.wfile.write(data)

    def enter(self, table, route):
        """The prelude of a collection API at /v1/ROUTE: GET /_state counts
        TABLE, a request without a principal is 401, another path 404.
        Returns (rows, principal, path parts, body), or None once answered."""
        u = urlsplit(self.path)
        rows = STORE.rows.setdefault(table, {})
        if u.path == "/_state":
            with LOCK:
                self.answer(200, {table: len(rows)})
            return None
        who = self.principal()
        if not who:
            self.answer(401, {"error": "unauthorized"})
            return None
        parts = u.path.strip("/").split("/")
        if parts[:2] != ["v1", route] or len(parts) > 3:
            self.answer(404, {"error": "no such route"})
            return None
        return rows, who, parts, self.body_json()

    def origin(self):
        return "http://127.0.0.1:%d" % self.server.server_address[1]

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def do_PATCH(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def route(self):
        if not self.headers.get("Host", "").startswith("127.0.0.1"):
            print("request for another origin: Host " + self.headers.get("Host", ""), file=sys.stderr, flush=True)
        try:
            {"registry": self.registry, "postgrest": self.postgrest, "postgrest204": self.postgrest,
             "location": self.location,
             "renamed": self.renamed, "timeonread": self.timeonread, "found": self.found,
             "rpc": self.rpc, "refname": self.refname, "upsert": self.upsert,
             "lines": self.lines, "notebooks": self.notebooks}[MODE]()
        except BrokenPipeError:
            pass

    # ------------------------------------------------------------- registry
    def registry(self):
        u = urlsplit(self.path)
        base = "/v2/probe/blobs/uploads/"
        self.body_json()  # read first: an early answer must not leave it on the connection
        who = self.principal()
        if not who:
            return self.answer(401, {"errors": [{"code": "UNAUTHORIZED"}]})
        uploads = STORE.rows.setdefault("uploads", {})
        if u.path == base and self.command == "POST":
            new = str(uuid.uuid1()) if DEFECT == "v1-ids" else str(uuid.uuid4())
            with LOCK:
                uploads[new] = {"_owner": who, "offset": 0}
            return self.answer(202, None, {"Location": base + new + "?_state=" + secrets.token_urlsafe(12),
                                           "Docker-Upload-UUID": new, "Range": "0-0"})
        if not u.path.startswith(base):
            return self.answer(404, {"errors": [{"code": "NAME_UNKNOWN"}]})
        raw = unquote(u.path[len(base):])
        key = raw.lower() if DEFECT == "case-insensitive" else raw
        with LOCK:
            up = uploads.get(key)
            if up is None or up["_owner"] != who:
                return self.answer(404, {"errors": [{"code": "BLOB_UPLOAD_UNKNOWN"}]})
            if self.command == "GET":
                return self.answer(204, None, {"Docker-Upload-UUID": key, "Range": "0-%d" % up["offset"]})
            if self.command == "PATCH":
                up["offset"] += 1
                return self.answer(202, None, {"Location": base + key + "?_state=" + secrets.token_urlsafe(12),
                                               "Docker-Upload-UUID": key, "Range": "0-%d" % up["offset"]})
            if self.command == "DELETE":
                del uploads[key]
                return self.answer(204)
        return self.answer(405, {"errors": [{"code": "UNSUPPORTED"}]})

    # ------------------------------------------------------------ postgrest
    def pg_id(self, text):
        if DEFECT == "lenient-uuid":
            return lenient(text)
        return text if CANON.match(text) else None

    def pg_error(self, status, code, message):
        return self.answer(status, {"code": code, "message": message, "details": None, "hint": None})

    def postgrest(self):
        u = urlsplit(self.path)
        table = u.path.strip("/")
        if table not in ("products", "categories"):
            return self.pg_error(404, "PGRST205", "Could not find the table")
        who = self.principal()
        if not who:
            return self.pg_error(401, "PGRST302", "Anonymous access is disabled")
        rows = STORE.rows.setdefault(table, {})
        body = self.body_json()  # read first: an early answer must not leave it on the connection
        single = "vnd.pgrst.object" in self.headers.get("Accept", "")
        filters = {}
        for k, vs in parse_qs(u.query, keep_blank_values=True).items():
            v = vs[0]
            if not v.startswith("eq."):
                return self.pg_error(400, "PGRST100", "unknown operator in " + k)
            want = self.pg_id(v[3:]) if k in ("id", "category_id", "parent_id") else v[3:]
            if want is None:
                return self.pg_error(400, "22P02", "invalid input syntax for type uuid")
            filters[k] = want

        def visible():
            return [r for r in rows.values() if r["_owner"] == who and all(r.get(k) == v for k, v in filters.items())]

        def public(r):
            return {k: v for k, v in r.items() if not k.startswith("_")}

        if self.command == "GET":
            with LOCK:
                return self.answer(200, [public(r) for r in visible()])
        if self.command == "POST":
            if not isinstance(body, dict):
                return self.pg_error(400, "PGRST102", "Empty or invalid json")
            row = {"id": uuid7(), "name": body.get("name")}
            if table == "products":
                for ref, required, target in (("category_id", True, "categories"), ("parent_id", False, "products")):
                    v = body.get(ref)
                    if v is None:
                        if required:
                            return self.pg_error(400, "23502", 'null value in column "%s" violates not-null' % ref)
                        row[ref] = None
                        continue
                    canon = self.pg_id(v) if isinstance(v, str) else None
                    if canon is None:
                        return self.pg_error(400, "22P02", "invalid input syntax for type uuid")
                    if canon not in STORE.rows.get(target, {}):
                        return self.pg_error(409, "23503", "violates foreign key constraint")
                    row[ref] = canon
                row["price"] = body.get("price")
            with LOCK:
                row["_owner"] = who
                rows[row["id"]] = row
            out = public(row)
            return self.answer(201, out if single else [out])
        if self.command in ("PATCH", "DELETE"):
            if "id" not in filters:
                return self.pg_error(400, "21000", "UPDATE/DELETE requires a WHERE clause")
            with LOCK:
                hit = visible()
                minimal = "return=representation" not in self.headers.get("Prefer", "")
                if not hit and MODE == "postgrest204" and (self.command == "DELETE" or minimal):
                    return self.answer(204)  # PostgREST's own answer: a filter that matched nothing changed nothing
                if not hit:  # this API refuses to change nothing (a pre-request check)
                    return self.pg_error(404, "PGRST116", "The result contains 0 rows")
                row = hit[0]
                if self.command == "DELETE":
                    del rows[row["id"]]
                    return self.answer(204)
                if isinstance(body, dict):
                    for k, v in body.items():
                        if k in ("name", "price"):
                            row[k] = v
                if MODE == "postgrest204" and minimal:
                    return self.answer(204)  # Prefer: return=minimal, PostgREST's default
                out = public(row)
                return self.answer(200, out if single else [out])
        return self.pg_error(405, "PGRST117", "Unsupported HTTP method")

    # ------------------------------------------------------------- location
    def location(self):
        u = urlsplit(self.path)
        body = self.body_json()  # read first: an early answer must not leave it on the connection
        who = self.principal()
        if not who:
            return self.answer(401, {"error": "unauthorized"})
        parts = u.path.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "v1" or parts[1] not in ("widgets", "categories"):
            return self.answer(404, {"error": "no such route"})
        table = parts[1]
        rows = STORE.rows.setdefault(table, {})
        if len(parts) == 2:
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            if not isinstance(body, dict):
                return self.answer(400, {"error": "a JSON object is required"})
            row = {"id": uuid7(), "name": body.get("name"), "_owner": who}
            if table == "widgets":
                ref = body.get("category_id")
                if not isinstance(ref, str) or not CANON.match(ref) or ref not in STORE.rows.get("categories", {}):
                    return self.answer(400, {"error": "category_id must name a category"})
                row["category_id"] = ref
                row["tracking_id"] = uuid7() if DEFECT == "tracking-v7" else str(uuid.uuid4())
            else:
                row["audit_id"] = str(uuid.uuid4())
            with LOCK:
                rows[row["id"]] = row
            if table == "widgets":
                origin = "http://localhost:%d" % self.server.server_address[1] if DEFECT == "location-other-origin" \
                    else self.origin()
                return self.answer(202, None, {"Location": origin + "/v1/widgets/" + row["id"]})
            return self.answer(201, {"id": row["id"], "name": row["name"]},
                               {"Location": "/v1/categories/" + row["id"]})
        key = unquote("/".join(parts[2:]))
        with LOCK:
            row = rows.get(key)
            if row is None or row["_owner"] != who:
                return self.answer(404, {"error": "not found"})
            if self.command == "GET":
                return self.answer(200, {k: v for k, v in row.items() if not k.startswith("_")})
            if self.command == "PATCH":
                if isinstance(body, dict) and isinstance(body.get("name"), str):
                    row["name"] = body["name"]
                return self.answer(200, {k: v for k, v in row.items() if not k.startswith("_")})
            if self.command == "DELETE":
                del rows[key]
                return self.answer(204)
        return self.answer(405, {"error": "method not allowed"})

    # -------------------------------------------------------------- renamed
    def renamed(self):
        u = urlsplit(self.path)
        body = self.body_json()  # read first: an early answer must not leave it on the connection
        orders = STORE.rows.setdefault("orders", {})
        if u.path == "/_state":
            with LOCK:
                return self.answer(200, {"orders": len(orders)})
        who = self.principal()
        if not who:
            return self.answer(401, {"error": "unauthorized"})
        parts = u.path.strip("/").split("/")
        if parts[:2] != ["v1", "orders"] or len(parts) > 3:
            return self.answer(404, {"error": "no such route"})

        def public(row):
            return {k: v for k, v in row.items() if not k.startswith("_")}

        if len(parts) == 2:
            if self.command == "GET":
                with LOCK:
                    return self.answer(200, {"items": [public(r) for r in orders.values() if r["_owner"] == who]})
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            if not isinstance(body, dict) or not isinstance(body.get("name"), str):
                return self.answer(400, {"error": "name is required"})
            new = str(uuid.uuid4()) if DEFECT == "create-v4" else uuid7()
            row = {"id": new, "name": body["name"], "tracking_id": str(uuid.uuid4()),
                   "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "_owner": who}
            with LOCK:
                orders[new] = row
            return self.answer(201, {"orderID": new})
        key = unquote(parts[2])
        with LOCK:
            row = orders.get(key) if CANON.match(key) else None
            if row is None or row["_owner"] != who:
                return self.answer(404, {"error": "order not found"})
            if self.command == "GET":
                return self.answer(200, public(row))
            if self.command == "PATCH":
                if isinstance(body, dict) and isinstance(body.get("name"), str):
                    row["name"] = body["name"]
                return self.answer(200, public(row))
            if self.command == "DELETE":
                del orders[key]
                return self.answer(204)
        return self.answer(405, {"error": "method not allowed"})


    # ---------------------------------------------------------------- found
    def found(self):
        u = urlsplit(self.path)
        body = self.body_json()
        keys = STORE.rows.setdefault("keys", {})
        if u.path == "/_state":
            with LOCK:
                return self.answer(200, {"keys": len(keys)})
        who = self.principal()
        if not who:
            return self.answer(401, {"error": "unauthorized"})
        parts = u.path.strip("/").split("/")
        if parts[:2] != ["v1", "keys"] or len(parts) > 3:
            return self.answer(404, {"error": "no such route"})

        def public(row):
            return dict({k: v for k, v in row.items() if not k.startswith("_")}, found=True)

        if len(parts) == 2:
            if self.command == "GET":
                with LOCK:
                    return self.answer(200, {"items": [public(r) for r in keys.values() if r["_owner"] == who]})
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            if not isinstance(body, dict) or not isinstance(body.get("value"), str):
                return self.answer(400, {"error": "value is required"})
            new = uuid7()
            with LOCK:
                keys[new] = {"id": new, "value": body["value"], "_owner": who}
                return self.answer(201, public(keys[new]))
        key = unquote(parts[2])
        if DEFECT == "case-insensitive":
            key = key.lower()
        with LOCK:
            row = keys.get(key) if CANON.match(key) else None
            if row is None or row["_owner"] != who:
                return self.answer(200, {"found": False})  # what it says for every key it does not have
            if self.command == "GET":
                return self.answer(200, public(row))
            if self.command == "PATCH":
                if isinstance(body, dict) and isinstance(body.get("value"), str):
                    row["value"] = body["value"]
                return self.answer(200, public(row))
            if self.command == "DELETE":
                del keys[key]
                return self.answer(200, {"found": True})
        return self.answer(405, {"error": "method not allowed"})

    # ------------------------------------------------------------------ rpc
    def rpc(self):
        u = urlsplit(self.path)
        orders = STORE.rows.setdefault("orders", {})
        if u.path == "/_state" and self.command == "GET":
            with LOCK:
                return self.answer(200, {"orders": len(orders)})
        who = self.principal()
        if not who:
            return self.answer(401, {"code": "unauthenticated"})
        if self.command != "POST":
            return self.answer(405, {"code": "method_not_allowed"})
        call = u.path[len("/v1/orders:"):] if u.path.startswith("/v1/orders:") else None
        body = self.body_json()
        if body is None:
            body = {}
        if not isinstance(body, dict):
            return self.answer(400, {"code": "invalid_argument", "msg": "the body is not a JSON object"})
        if call == "create":
            if not isinstance(body.get("name"), str):
                return self.answer(400, {"code": "invalid_argument", "msg": "name is required"})
            new = uuid7()
            with LOCK:
                orders[new] = {"id": new, "name": body["name"], "_owner": who}
                return self.answer(200, {"id": new, "name": body["name"]})
        if call == "list":
            with LOCK:
                mine = [{"id": r["id"], "name": r["name"]} for r in orders.values() if r["_owner"] == who]
            return self.answer(200, {"orders": mine})
        if call not in ("get", "update", "delete"):
            return self.answer(404, {"code": "bad_route"})
        oid = body.get("id")
        if DEFECT == "case-insensitive" and isinstance(oid, str):
            oid = oid.lower()
        if not isinstance(oid, str) or not CANON.match(oid):
            return self.answer(400, {"code": "invalid_argument", "msg": "id must be a canonical UUID"})
        with LOCK:
            row = orders.get(oid)
            if row is None or row["_owner"] != who:
                return self.answer(404, {"code": "not_found"})
            if call == "update":
                if isinstance(body.get("name"), str):
                    row["name"] = body["name"]
            elif call == "delete":
                del orders[oid]
                return self.answer(200, {})
            return self.answer(200, {"id": row["id"], "name": row["name"]})

    # -------------------------------------------------------------- refname
    def refname(self):
        entered = self.enter("series", "series")
        if entered is None:
            return
        series, who, parts, body = entered

        def public(row):
            parent = row["parent"]
            if parent is None and DEFECT == "nil-parent":
                parent = "00000000-0000-0000-0000-000000000000"
            return {"id": row["id"], "title": row["title"], "parent_series": parent}

        def parent_of(b):  # (ok, value): a live series of the principal, or null/absent
            if "parent" not in b or b["parent"] is None:
                return True, None
            p = b["parent"]
            if not isinstance(p, str) or not CANON.match(p) or p not in series or series[p]["_owner"] != who:
                return False, None
            return True, p

        if len(parts) == 2:
            if self.command == "GET":
                with LOCK:
                    return self.answer(200, [public(r) for r in series.values() if r["_owner"] == who])
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            if not isinstance(body, dict) or not isinstance(body.get("title"), str):
                return self.answer(400, {"error": "title is required"})
            with LOCK:
                ok, parent = parent_of(body)
                if not ok:
                    return self.answer(400, {"error": "parent is not a series of yours"})
                new = uuid7()
                series[new] = {"id": new, "title": body["title"], "parent": parent, "_owner": who}
                return self.answer(201, public(series[new]))
        sid = unquote(parts[2])
        with LOCK:
            row = series.get(sid) if CANON.match(sid) else None
            if row is None or row["_owner"] != who:
                return self.answer(404, {"error": "series not found"})
            if self.command == "GET":
                return self.answer(200, public(row))
            if self.command == "PATCH":
                if not isinstance(body, dict):
                    return self.answer(400, {"error": "a JSON object is required"})
                if "parent" in body:
                    ok, parent = parent_of(body)
                    if not ok:
                        return self.answer(400, {"error": "parent is not a series of yours"})
                    row["parent"] = parent
                if isinstance(body.get("title"), str):
                    row["title"] = body["title"]
                return self.answer(200, public(row))
            if self.command == "DELETE":
                del series[sid]
                return self.answer(204)
        return self.answer(405, {"error": "method not allowed"})

    # --------------------------------------------------------------- upsert
    def upsert(self):
        entered = self.enter("docs", "docs")
        if entered is None:
            return
        docs, who, parts, body = entered

        def public(row):
            return {"id": row["id"], "text": row["text"]}

        if len(parts) == 2:
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            if not isinstance(body, dict) or not isinstance(body.get("text"), str):
                return self.answer(400, {"error": "text is required"})
            new = uuid7()
            with LOCK:
                docs[new] = {"id": new, "text": body["text"], "_owner": who}
                return self.answer(201, public(docs[new]))
        did = unquote(parts[2])
        canonical_v7 = CANON.fullmatch(did) is not None and did[14] == "7"
        with LOCK:
            row = docs.get(did) if CANON.fullmatch(did) else None
            if self.command == "PUT":
                if not isinstance(body, dict) or not isinstance(body.get("text"), str):
                    return self.answer(400, {"error": "text is required"})
                if row is None:
                    if not canonical_v7:
                        return self.answer(400, {"error": "a new document's id is a canonical UUIDv7"})
                    docs[did] = {"id": did, "text": body["text"], "_owner": who}
                    return self.answer(201, public(docs[did]))
                if row["_owner"] != who:
                    return self.answer(403, {"error": "not yours"})
                row["text"] = body["text"]
                if DEFECT == "rekey-on-replace":
                    del docs[did]
                    row["id"] = uuid7()
                    docs[row["id"]] = row
                return self.answer(200, public(row))
            if row is None or row["_owner"] != who:
                return self.answer(404, {"error": "document not found"})
            if self.command == "GET":
                return self.answer(200, public(row))
            if self.command == "DELETE":
                del docs[did]
                return self.answer(204)
        return self.answer(405, {"error": "method not allowed"})

    # ------------------------------------------------------------ notebooks
    def notebooks(self):
        answer_forms_made.serve(self, STORE, LOCK, CANON, uuid7, DEFECT)

    # ---------------------------------------------------------------- lines
    def lines(self):
        entered = self.enter("orders", "orders")
        if entered is None:
            return
        orders, who, parts, body = entered
        used = STORE.rows.setdefault("line_ids", {})
        if len(parts) == 2:
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            lines = body.get("lines") if isinstance(body, dict) else None
            if not isinstance(lines, list) or not lines:
                return self.answer(400, {"error": "lines are required"})
            for line in lines:
                lid = line.get("id") if isinstance(line, dict) else None
                empty_ok = DEFECT == "empty-line-id" and lid == ""
                if not empty_ok and (not isinstance(lid, str) or not CANON.fullmatch(lid) or lid[14] != "7"):
                    return self.answer(400, {"error": "a line id is a canonical UUIDv7 the client makes"})
                if lid in used and not empty_ok:
                    return self.answer(409, {"error": "line id already used"})
            new = uuid7()
            with LOCK:
                for line in lines:
                    used[line["id"]] = new
                orders[new] = {"id": new, "lines": lines, "_owner": who}
                return self.answer(201, {"id": new, "lines": lines})
        oid = unquote(parts[2])
        with LOCK:
            row = orders.get(oid) if CANON.fullmatch(oid) else None
            if row is None or row["_owner"] != who:
                return self.answer(404, {"error": "order not found"})
            if self.command == "GET":
                return self.answer(200, {"id": row["id"], "lines": row["lines"]})
            if self.command == "DELETE":
                del orders[oid]
                return self.answer(204)
        return self.answer(405, {"error": "method not allowed"})

    # ----------------------------------------------------------- timeonread
    def timeonread(self):
        u = urlsplit(self.path)
        body = self.body_json()
        notes = STORE.rows.setdefault("notes", {})
        if u.path == "/_state":
            with LOCK:
                return self.answer(200, {"notes": len(notes)})
        who = self.principal()
        if not who:
            return self.answer(401, {"error": "unauthorized"})
        parts = u.path.strip("/").split("/")
        if parts[:2] != ["v1", "notes"] or len(parts) > 3:
            return self.answer(404, {"error": "no such route"})

        def read(row):  # what reads answer: the audit column too
            return {k: v for k, v in row.items() if not k.startswith("_")}

        def written(row):  # what the create answers: the row as sent, no audit column
            return {k: v for k, v in read(row).items() if k != "created_at"}

        if len(parts) == 2:
            if self.command == "GET":
                with LOCK:
                    return self.answer(200, {"items": [read(r) for r in notes.values() if r["_owner"] == who]})
            if self.command != "POST":
                return self.answer(405, {"error": "method not allowed"})
            if not isinstance(body, dict) or not isinstance(body.get("title"), str):
                return self.answer(400, {"error": "title is required"})
            new = uuid7()
            if DEFECT == "time-from-id":
                ms = int(new.replace("-", "")[:12], 16)
                created = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms // 1000)) + ".%03dZ" % (ms % 1000)
            else:
                created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            row = {"id": new, "title": body["title"], "created_at": created, "_owner": who}
            with LOCK:
                notes[new] = row
            return self.answer(201, written(row))
        key = unquote(parts[2])
        with LOCK:
            row = notes.get(key) if CANON.match(key) else None
            if row is None or row["_owner"] != who:
                return self.answer(404, {"error": "note not found"})
            if self.command == "GET":
                return self.answer(200, read(row))
            if self.command == "PATCH":
                if isinstance(body, dict) and isinstance(body.get("title"), str):
                    row["title"] = body["title"]
                return self.answer(200, written(row))
            if self.command == "DELETE":
                del notes[key]
                return self.answer(204)
        return self.answer(405, {"error": "method not allowed"})


def main():
    global MODE, DEFECT
    args = sys.argv[1:]
    MODE = args.pop(0)
    if args and args[0] == "--defect":
        DEFECT = args[1]
        args = args[2:]
    port_file = args[0]
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    tmp = port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.replace(tmp, port_file)
    srv.serve_forever()


if __name__ == "__main__":
    main()
