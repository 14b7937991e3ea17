"""A TCP listener on 127.0.0.1 that records every connection made to it (one
line per connection in the file given as its argument) and closes it: a
target for commands that must send nothing (`run --dry-run`). Prints
"listening on http://127.0.0.1:PORT" like the other fixtures."""
import socket
import sys


def main():
    log_path = sys.argv[1]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)
    print(f"listening on http://127.0.0.1:{srv.getsockname()[1]}", flush=True)
    while True:
        conn, peer = srv.accept()
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(f"connection from {peer[0]}:{peer[1]}\n")
        conn.close()


if __name__ == "__main__":
    main()
