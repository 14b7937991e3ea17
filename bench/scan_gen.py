#!/usr/bin/env python3
"""Writes a large export for bench/run_scan.sh: NDJSON or CSV records with
UUIDv7 ids and one violation every ~5000 records (upper-case id, Nil
reference, braces form). A 64 MiB block of distinct records is generated and
repeated until the size is reached (the scanner does not care that blocks
repeat; generating 1 GB of fresh random ids in Python would take minutes).
Usage: scan_gen.py ndjson|csv OUT SIZE_MB"""
import os, sys, time

def v7(ms, rnd):
    b = bytearray(ms.to_bytes(6, "big") + rnd)
    b[6] = 0x70 | (b[6] & 0x0F)
    b[8] = 0x80 | (b[8] & 0x3F)
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

def block(fmt, target):
    out, size, i = [], 0, 0
    ms = int(time.time() * 1000) - 10**9
    rnd = os.urandom(target // 8)
    if fmt == "csv":
        out.append("id,owner_id,category_id,name,price,created_at\n")
    while size < target:
        j = (i * 20) % (len(rnd) - 20)
        pid, owner, cat = v7(ms + i, rnd[j:j+10]), v7(ms + i, rnd[j+5:j+15]), v7(ms, rnd[j+10:j+20])
        if i % 5000 == 1234: pid = pid.upper()
        if i % 5000 == 2345: cat = "00000000-0000-0000-0000-000000000000"
        if i % 5000 == 3456: owner = "{" + owner + "}"
        if fmt == "csv":
            line = f'{pid},{owner},{cat},"product {i}, large",{i % 1000}.5,2024-05-01T12:00:00.000Z\n'
        else:
            line = (f'{{"id":"{pid}","owner_id":"{owner}","category_id":"{cat}","name":"product {i}",'
                    f'"price":{i % 1000}.5,"created_at":"2024-05-01T12:00:00.000Z","tags":["a","b"]}}\n')
        out.append(line)
        size += len(line)
        i += 1
    return "".join(out)

fmt, path, size_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
first = block(fmt, 64 << 20)
rest = first.split("\n", 1)[1] if fmt == "csv" else first  # the header once
with open(path, "w") as f:
    f.write(first)
    written = len(first)
    while written < size_mb << 20:
        f.write(rest)
        written += len(rest)
