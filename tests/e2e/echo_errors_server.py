#!/usr/bin/env python3
# A fixture API whose error answers quote the id they refused, the way real
# frameworks do (issue #22 section 3; echo_errors.sh, profile
# tests/e2e/echo_errors/target.yaml). Three resources, one error style each,
# all strict about ids (canonical lower-case UUID text, RFC variant) and
# owned by the principal that created them (Bearer alice / bob):
#
#   notes  a Go service: 400 {"error":"invalid note id \"{...}\": ..."} from
#          json.Encoder over fmt's %q (so a newline is \\n in the body, and
#          <, >, & are \u003c, \u003e, \u0026); 404 {"error":"note not found"}
#   tags   an Express app: an id that does not match the route's pattern
#          falls through to Express's default 404 HTML page, "Cannot GET
#          /v1/tags/%7B...%7D" (the path as it came, percent-encoded, HTML
#          escaped); a well-formed unknown id is 404 {"message":"Not Found"}
#   files  a Flask app: 400 is werkzeug's HTML page quoting Python's repr of
#          the value, HTML-escaped ("&#x27;{...}&#x27;", a newline as \n);
#          404 is werkzeug's page, which names nothing
#
# Defects (one at a time, every resource):
#   lenient-read     GET normalises a malformed id (case, braces, urn:uuid:,
#                    whitespace, missing hyphens) and answers 200 with the entity
#   suggests-entity  the 400 (or fall-through 404) also carries the entity the
#                    malformed id normalises to ("did you mean"): the live id
#                    outside the quoted input
#
# Usage: echo_errors_server.py [--defect NAME]   (prints "listening on URL")
#        echo_errors_server.py --list-defects
import html
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

DEFECTS = ["lenient-read", "suggests-entity"]
CANON = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
RESOURCES = ("notes", "tags", "files")
LOCK = threading.Lock()
ROWS = {r: {} for r in RESOURCES}  # resource -> id -> {"row": ..., "owner": ...}
DEFECT = ""




def normalised(text):
    """What a lenient parser reads a malformed id as (None: nothing)."""
    t = text.strip()
    if t.lower().startswith("urn:uuid:"):
        t = t[9:]
    if t.startswith("{") and t.endswith("}"):
        t = t[1:-1]
    t = t.replace("-", "").lower()
    return str(uuid.UUID(t)) if re.fullmatch(r"[0-9a-f]{32}", t) else None


def go_quote(s):
    """Go's strconv.Quote (fmt %q) for the characters a mutation holds."""
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def go_json(obj):
    """Go's encoding/json: HTML-safe escapes, UTF-8 kept, a newline after the value."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026") + "\n").encode()


def express_404(method, raw_path):
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n'
            "<body>\n<pre>Cannot %s %s</pre>\n</body>\n</html>\n" % (method, html.escape(raw_path))).encode()


def werkzeug_page(code, title, description):
    return ("<!doctype html>\n<html lang=en>\n<title>%d %s</title>\n<h1>%s</h1>\n<p>%s</p>\n"
            % (code, title, title, description)).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go in separate writes

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", ctype="application/json", location=None):
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        self.send_response(status)
        if location:
            self.send_header("Location", location)
        if body:
            self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def principal(self):
        auth = self.headers.get("Authorization", "")
        return auth[len("Bearer "):] if auth.startswith("Bearer ") else None

    def body_json(self):
        try:
            return json.loads(self.raw_body) if self.raw_body else {}
        except ValueError:
            return None

    def owned(self, res, id_, who):
        with LOCK:
            e = ROWS[res].get(id_)
            return dict(e["row"]) if e and e["owner"] == who else None

    # The error answer for a malformed id, in the resource's framework's words.
    def malformed(self, res, method, raw_path, value, who):
        suggestion = None
        if DEFECT == "suggests-entity" and (n := normalised(value)):
            suggestion = self.owned(res, n, who)
        if res == "notes":
            doc = {"error": "invalid note id %s: invalid UUID format" % go_quote(value)}
            if suggestion:
                doc["did_you_mean"] = suggestion
            return self.send(400, go_json(doc))
        if res == "tags":
            page = express_404(method, raw_path)
            if suggestion:
                page = page.replace(b"</pre>", ("</pre>\n<p>Did you mean <a href=\"/v1/tags/%s\">%s</a> (%s)?</p>"
                                                % (suggestion["id"], suggestion["id"], html.escape(suggestion["title"]))).encode())
            return self.send(404, page, "text/html; charset=utf-8")
        text = html.escape("badly formed hexadecimal UUID string: %r" % value)
        if suggestion:
            text += " (did you mean %s, %s?)" % (suggestion["id"], html.escape(suggestion["title"]))
        return self.send(400, werkzeug_page(400, "Bad Request", text), "text/html; charset=utf-8")

    def not_found(self, res):
        if res == "notes":
            return self.send(404, go_json({"error": "note not found"}))
        if res == "tags":
            return self.send(404, {"message": "Not Found"})
        return self.send(404, werkzeug_page(404, "Not Found", "The requested URL was not found on the server. If you "
                                            "entered the URL manually please check your spelling and try again."),
                         "text/html; charset=utf-8")

    def route(self, method):
        n = int(self.headers.get("Content-Length") or 0)
        self.raw_body = self.rfile.read(n) if n else b""  # read always: the connection is kept alive
        who = self.principal()
        raw_path = urlsplit(self.path).path
        parts = raw_path.split("/")
        if who not in ("alice", "bob"):
            return self.send(401, {"error": "unauthenticated"})
        if len(parts) < 3 or parts[1] != "v1" or parts[2] not in RESOURCES or len(parts) > 4:
            return self.send(404, {"error": "no route"})
        res = parts[2]
        if len(parts) == 3:
            if method != "POST":
                return self.send(405, {"error": "method not allowed"})
            body = self.body_json()
            if not isinstance(body, dict) or not isinstance(body.get("title"), str):
                return self.send(400, {"error": "title is required"})
            row = {"id": uuid7(), "title": body["title"]}
            with LOCK:
                ROWS[res][row["id"]] = {"row": row, "owner": who}
            return self.send(201, row, location="/v1/%s/%s" % (res, row["id"]))
        value = unquote(parts[3])
        if not CANON.fullmatch(value):
            if method == "GET" and DEFECT == "lenient-read" and (n := normalised(value)):
                row = self.owned(res, n, who)
                if row:
                    return self.send(200, row)
            return self.malformed(res, method, raw_path, value, who)
        row = self.owned(res, value, who)
        if row is None:
            return self.not_found(res)
        if method == "GET":
            return self.send(200, row)
        if method == "PATCH":
            body = self.body_json()
            if not isinstance(body, dict):
                return self.send(400, {"error": "body is not a JSON object"})
            with LOCK:
                stored = ROWS[res][value]["row"]
                if isinstance(body.get("title"), str):
                    stored["title"] = body["title"]  # the id is never changed, whatever the body says
                row = dict(stored)
            return self.send(200, row)
        if method == "DELETE":
            with LOCK:
                ROWS[res].pop(value, None)
            return self.send(204)
        return self.send(405, {"error": "method not allowed"})

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
        sys.exit("usage: echo_errors_server.py [--defect %s] | --list-defects" % "|".join(DEFECTS))
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("listening on http://127.0.0.1:%d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
