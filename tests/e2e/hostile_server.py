#!/usr/bin/env python3
# A target that misbehaves on demand, for the end-to-end robustness tests
# (hostile.sh). Raw sockets on loopback only (no HTTP library: it must be able
# to send what no library would), one thread per connection, keep-alive.
# The path of each request picks the misbehaviour:
#
#   /ok                    {"id": <v7>} (200)
#   /silent                reads the request, never answers
#   /stall                 sends the status line and a header, then nothing
#   /endless-chunked       a chunked body that never ends
#   /reset                 closes with a TCP reset after reading the request
#   /stray                 an answer and, in the same write, a second "answer" nobody asked for
#   /stray-late?ms=N       an answer, then (in a write of its own) N ms later (default 20; 0: at
#                          once) a second "answer"
#   /garbage               invalid UTF-8 in a header, invalid UTF-8 and NUL in the body (200)
#   /nul-header            a NUL byte in a header value (not HTTP)
#   /deep?n=N              a JSON body nested N levels, an upper-case id at the bottom
#   /ids?n=N               a JSON array of N upper-case ids
#   /big?n=N               a valid JSON body of N bytes
#   /hints?n=N             N interim 103 answers (each its own write), then 200
#   /huge-header           a 1 MiB header
#   /gzip-bomb             Content-Encoding: gzip, 10 KiB that inflate to 10 MiB
#   /switch                101 Switching Protocols to a request that asked for no upgrade
#   /loop                  302 to itself, forever
#   /cross                 307 to the other origin's /echo
#   /echo                  200 echoing the request (line, headers) as JSON, with
#                          Set-Cookie and X-Echo-Token answer headers
#
# Usage: hostile_server.py PORT_FILE   (writes "<port> <other-origin-port>")
import gzip
import json
import socket
import sys
import threading
import time
from urllib.parse import parse_qs, urlsplit

V7 = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
UPPER = V7.upper()


def answer(status, body=b"", headers=(), reason=b"X"):
    if isinstance(body, str):
        body = body.encode()
    head = b"HTTP/1.1 %d %s\r\nContent-Length: %d\r\n" % (status, reason, len(body))
    for h in headers:
        head += h + b"\r\n"
    return head + b"\r\n" + body


def json_answer(value, headers=()):
    return answer(200, json.dumps(value), (b"Content-Type: application/json",) + tuple(headers))


def read_request(conn, pending):
    """One request (Content-Length bodies only), or None at EOF."""
    while b"\r\n\r\n" not in pending[0]:
        data = conn.recv(65536)
        if not data:
            return None
        pending[0] += data
    head, rest = pending[0].split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = (lines[0].split(" ") + ["", ""])[:3]
    headers = []
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
        if name.strip().lower() == "content-length":
            length = int(value.strip() or 0)
    while len(rest) < length:
        data = conn.recv(65536)
        if not data:
            return None
        rest += data
    pending[0] = rest[length:]
    return method, target, headers


def serve(conn, other_port):
    pending = [b""]
    try:
        while True:
            req = read_request(conn, pending)
            if req is None:
                return
            method, target, headers = req
            url = urlsplit(target)
            q = {k: v[0] for k, v in parse_qs(url.query).items()}
            n = int(q.get("n", "0") or 0)
            path = url.path
            if path == "/ok":
                conn.sendall(json_answer({"id": V7}))
            elif path == "/silent":
                time.sleep(3600)
            elif path == "/stall":
                conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
                time.sleep(3600)
            elif path == "/endless-chunked":
                conn.sendall(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
                chunk = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
                while True:
                    conn.sendall(chunk)
            elif path == "/reset":
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                conn.close()
                return
            elif path == "/stray":
                conn.sendall(json_answer({"id": V7}) + json_answer({"id": UPPER, "stray": True}))
            elif path == "/stray-late":
                conn.sendall(json_answer({"id": V7}))
                time.sleep(int(q.get("ms", "20") or 0) / 1000.0)
                conn.sendall(json_answer({"id": UPPER, "stray": True}))
            elif path == "/garbage":
                body = b'{"id":"' + V7.encode() + b'","note":"\xff\xfe bad \x00 nul \xc3"}'
                conn.sendall(answer(200, body, (b"Content-Type: application/json", b"X-Odd: \xff\xfe\xc3end")))
            elif path == "/nul-header":
                conn.sendall(answer(200, b"{}", (b"Content-Type: application/json", b"X-Nul: a\x00b")))
            elif path == "/deep":
                body = '{"a":' * (n - 1) + '{"id":"' + UPPER + '"}' + "}" * (n - 1)
                conn.sendall(answer(200, body, (b"Content-Type: application/json",)))
            elif path == "/ids":
                conn.sendall(answer(200, "[" + ",".join('"' + UPPER + '"' for _ in range(n)) + "]",
                                    (b"Content-Type: application/json",)))
            elif path == "/big":
                pad = max(0, n - len('{"id":"","pad":""}') - len(V7))
                conn.sendall(answer(200, '{"id":"' + V7 + '","pad":"' + "x" * pad + '"}',
                                    (b"Content-Type: application/json",)))
            elif path == "/hints":
                for _ in range(n):
                    conn.sendall(b"HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n")
                conn.sendall(json_answer({"id": V7}))
            elif path == "/huge-header":
                conn.sendall(b"HTTP/1.1 200 OK\r\nX-Huge: " + b"h" * (1 << 20) + b"\r\nContent-Length: 2\r\n\r\n{}")
            elif path == "/gzip-bomb":
                bomb = gzip.compress(b"\0" * (10 << 20), compresslevel=9)
                conn.sendall(answer(200, bomb, (b"Content-Type: application/json", b"Content-Encoding: gzip")))
            elif path == "/switch":
                conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
            elif path == "/loop":
                conn.sendall(answer(302, b"", (b"Location: /loop",)))
            elif path == "/cross":
                conn.sendall(answer(307, b"", (b"Location: http://127.0.0.1:%d/echo" % other_port,)))
            elif path == "/echo":
                seen = {"target": target, "headers": {k: v for k, v in headers}}
                token = dict((k.lower(), v) for k, v in headers).get("authorization", "")
                conn.sendall(json_answer(seen, (b"Set-Cookie: session=" + b"c00kie-" + b"9" * 16 + b"; HttpOnly",
                                                b"X-Echo-Token: " + token.encode("latin-1"))))
            else:
                conn.sendall(answer(404, b"{}", (b"Content-Type: application/json",)))
    except OSError:
        pass
    finally:
        try:
            conn.close()
        except OSError:
            pass


def listen():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(64)
    return s


def accept_loop(s, other_port):
    while True:
        c, _ = s.accept()
        threading.Thread(target=serve, args=(c, other_port), daemon=True).start()


def main():
    main_socket, other_socket = listen(), listen()
    main_port, other_port = main_socket.getsockname()[1], other_socket.getsockname()[1]
    threading.Thread(target=accept_loop, args=(other_socket, main_port), daemon=True).start()
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write("%d %d\n" % (main_port, other_port))
    import os
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    accept_loop(main_socket, other_port)


if __name__ == "__main__":
    main()
