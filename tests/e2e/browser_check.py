#!/usr/bin/env python3
"""Loads an HTML report in headless Chromium (Debian's `chromium`) and checks
that it rendered: no console message at all (errors, CSP violations, failed
loads all show up as console messages), the page's script ran (the filter bar
is shown), and a screenshot is not blank. Only the standard library: the PNG
is decoded with zlib.

usage: browser_check.py REPORT.html [SCREENSHOT.png]
       browser_check.py --self-test   (a page with a console error must fail)
exit 0 when the report passes, 1 with the reasons on stderr otherwise.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--enable-logging=stderr", "--v=0"]


def chromium(args, profile):
    cmd = ["chromium"] + FLAGS + ["--user-data-dir=" + profile] + args
    p = subprocess.run(cmd, capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def png_pixels(path):
    """(width, height, rows of RGB(A) tuples) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                raise ValueError("unexpected PNG format (depth %d, colour type %d)" % (depth, colour))
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def check(report, shot):
    problems = []
    url = "file://" + os.path.abspath(report)
    with tempfile.TemporaryDirectory() as profile:
        rc, dom, log = chromium(["--dump-dom", url], profile)
    if rc != 0:
        problems.append("chromium --dump-dom exited %d" % rc)
    console = [l for l in log.splitlines() if ":CONSOLE" in l]
    problems += ["console: " + l for l in console]
    if "<html" not in dom:
        problems.append("no DOM was dumped")
    # the script un-hides the filter bar: it ran without throwing before that
    if re.search(r'<div id="filter"[^>]*\bhidden\b', dom):
        problems.append("the filter bar is still hidden: the page's script did not run")
    with tempfile.TemporaryDirectory() as profile:
        rc, _, log = chromium(["--screenshot=" + shot, "--window-size=1280,900", url], profile)
    if rc != 0 or not os.path.exists(shot):
        problems.append("no screenshot (chromium exited %d)" % rc)
        return problems
    width, height, bpp, rows = png_pixels(shot)
    colours, ink = set(), 0
    for row in rows[::4]:
        for x in range(0, width * bpp, bpp * 4):
            px = row[x:x + 3]
            colours.add(px)
            if px != b"\xff\xff\xff":
                ink += 1
    samples = len(rows[::4]) * len(range(0, width * bpp, bpp * 4))
    # a rendered report has text and coloured verdict/count cells; a blank
    # or error page is (nearly) one colour
    if len(colours) < 8 or ink < samples * 0.01:
        problems.append("screenshot looks blank: %d colours, %.2f%% non-white" % (len(colours), 100.0 * ink / samples))
    return problems


def main():
    if sys.argv[1:] == ["--self-test"]:
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.html")
            open(bad, "w").write('<!DOCTYPE html><html><body><div id="filter" hidden>x</div>'
                                 '<script>console.error("boom")</script></body></html>')
            p = check(bad, os.path.join(d, "bad.png"))
            if not any("boom" in x for x in p) or not any("hidden" in x for x in p) or not any("blank" in x for x in p):
                print("self-test: the checker missed problems of a broken page: %r" % p, file=sys.stderr)
                return 1
        print("ok: the checker catches a console error, a script that did not run and a blank page")
        return 0
    report = sys.argv[1]
    shot = sys.argv[2] if len(sys.argv) > 2 else os.path.splitext(report)[0] + ".png"
    problems = check(report, shot)
    for p in problems:
        print("browser: " + p, file=sys.stderr)
    if not problems:
        print("ok: %s renders in Chromium without console messages (screenshot %s)" % (report, shot))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
