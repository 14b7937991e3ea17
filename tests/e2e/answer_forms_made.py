# The `notebooks` mode of answer_forms_server.py (kept apart: that file is at
# its size limit): an API with a resource it has no create for, made as a side
# effect of another's create, and a third that references it.
#
#   POST /v1/notes {"title", "notebook": NAME} answers 201 {"id", "title",
#        "notebook_id", "created_at"}: the caller's notebook NAME, made by this
#        create when it has none (there is no POST /v1/notebooks). GET, DELETE
#        /v1/notes/<id>.
#   GET /v1/notebooks/<id> {"id", "name"}; DELETE answers 409 while notes are in
#        it, 204 once it is empty.
#   POST /v1/tasks {"title", "notebook_id"} needs the canonical id of one of the
#        caller's notebooks (400 otherwise); GET, DELETE /v1/tasks/<id>.
#   GET /_state: how many notes, notebooks and tasks are left.
#   defects: empty-notebook (a task's notebook_id "", 0 or Nil is stored and
#            answered: DATA-ID-007)
import time
from urllib.parse import unquote, urlsplit


def serve(h, store, lock, canon, uuid7, defect):
    """Answers the request of handler `h` (see the module comment)."""
    u = urlsplit(h.path)
    notes = store.rows.setdefault("notes", {})
    books = store.rows.setdefault("notebooks", {})
    tasks = store.rows.setdefault("tasks", {})
    if u.path == "/_state":
        with lock:
            return h.answer(200, {"notes": len(notes), "notebooks": len(books), "tasks": len(tasks)})
    body = h.body_json()  # read first: an early answer must not leave it on the connection
    who = h.principal()
    if not who:
        return h.answer(401, {"error": "unauthorized"})
    parts = u.path.strip("/").split("/")
    if len(parts) < 2 or parts[0] != "v1" or parts[1] not in ("notes", "notebooks", "tasks") or len(parts) > 3:
        return h.answer(404, {"error": "no such route"})
    table = {"notes": notes, "notebooks": books, "tasks": tasks}[parts[1]]
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    if len(parts) == 2:
        if parts[1] == "notebooks" or h.command != "POST":
            return h.answer(405, {"error": "method not allowed"})
        if not isinstance(body, dict) or not isinstance(body.get("title"), str):
            return h.answer(400, {"error": "title is required"})
        with lock:
            new = uuid7()
            if parts[1] == "notes":
                name = body.get("notebook")
                if not isinstance(name, str) or not name:
                    return h.answer(400, {"error": "notebook (a name) is required"})
                book = next((b for b in books.values() if b["_owner"] == who and b["name"] == name), None)
                if book is None:
                    book = {"id": uuid7(), "name": name, "_owner": who}
                    books[book["id"]] = book
                row = {"id": new, "title": body["title"], "notebook_id": book["id"], "created_at": now}
            else:
                ref = body.get("notebook_id")
                placeholder = ref in ("", 0, "0", "00000000-0000-0000-0000-000000000000")
                ok = isinstance(ref, str) and canon.match(ref) and ref in books and books[ref]["_owner"] == who
                if not ok and not (placeholder and defect == "empty-notebook"):
                    return h.answer(400, {"error": "notebook_id is not a notebook of yours"})
                row = {"id": new, "title": body["title"], "notebook_id": ref, "created_at": now}
            table[new] = dict(row, _owner=who)
            return h.answer(201, row, {"Location": "/v1/%s/%s" % (parts[1], new)})
    rid = unquote(parts[2])
    with lock:
        row = table.get(rid) if canon.match(rid) else None
        if row is None or row["_owner"] != who:
            return h.answer(404, {"error": "not found"})
        if h.command == "GET":
            return h.answer(200, {k: v for k, v in row.items() if not k.startswith("_")})
        if h.command == "DELETE":
            if parts[1] == "notebooks" and any(n["notebook_id"] == rid for n in notes.values()):
                return h.answer(409, {"error": "the notebook is not empty"})
            del table[rid]
            return h.answer(204)
    return h.answer(405, {"error": "method not allowed"})
