#!/usr/bin/env python3
"""Throughput of `idconform lint` in MB of document per second of CPU (user +
system of the whole process, start-up included), best of REPEAT runs, on
generated documents of 1, 5 and 10 MB (bench/lint_gen.py, the same document as
JSON and as YAML) and on the largest real documents of tests/schema/documents/.
The baseline, timed in the same run on the same files: python3's json.load for
JSON and PyYAML's libyaml loader (CSafeLoader) for YAML, CPU time of the load
call alone. Further binaries (an older build) are timed beside the first, a
column of MB/s each, named by the file.
With BENCH_ROWS=FILE, the largest generated documents' ratios are appended to
FILE (bench/run_all.sh).
Usage: bench/lint_speed.py BIN [OTHER...] (env SIZES="1 5 10", REPEAT=3)"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
docs = os.path.join(root, "tests", "schema", "documents")
real = ["qdrant/openapi.json", "ory-kratos/api.json", "harbor/swagger.yaml", "outline/spec3.yml"]


def cpu_of(cmd):
    """CPU seconds (user + system) of one run of cmd, and its exit code."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=docs).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), rc


def best(f, n):
    return min(f() for _ in range(n))


def lint_cpu(binary, path, n):
    times = []
    for _ in range(n):
        t, rc = cpu_of([binary, "lint", "-q", path])
        if rc not in (0, 1):  # 0 clean, 1 findings; anything else (the old 8 MiB cap: 2) is no measurement
            return None
        times.append(t)
    return min(times)


def baseline_cpu(path, n):
    if path.endswith(".json"):
        load = lambda f: json.load(f)
    else:
        import yaml
        load = lambda f: yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))

    def one():
        with open(path, "rb") as f:
            t = time.process_time()
            load(f)
            return time.process_time() - t
    return best(one, n)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binaries = [os.path.abspath(b) for b in sys.argv[1:]]
    sizes = os.environ.get("SIZES", "1 5 10").split()
    n = int(os.environ.get("REPEAT", "3"))
    rows = os.environ.get("BENCH_ROWS", "")
    names = ["MB/s " + os.path.basename(b) for b in binaries]
    widths = [max(10, len(n)) for n in names]
    cols = "".join(f" {n:>{w}}" for n, w in zip(names, widths))
    print(f"{'document':<34} {'MB':>6} {'lint s':>8}{cols} {'baseline s':>10} {'lint/base':>9}")
    with tempfile.TemporaryDirectory() as work:
        files = []
        for size in sizes:
            for form in ("json", "yaml"):
                p = os.path.join(work, f"gen-{size}mb.{form}")
                with open(p, "w") as out:
                    subprocess.run([sys.executable, os.path.join(here, "lint_gen.py"), size, form], stdout=out, check=True)
                files.append((f"generated {size} MB {form}", p))
        files += [(r, os.path.join(docs, r)) for r in real]
        for name, path in files:
            mb = os.path.getsize(path) / 1e6
            times = [lint_cpu(b, path, n) for b in binaries]
            base = baseline_cpu(path, n)
            rates = "".join(f" {mb / t:>{w}.1f}" if t else f" {'refused':>{w}}" for t, w in zip(times, widths))
            if not times[0]:
                sys.exit(f"{binaries[0]} lint {path}: no result")
            print(f"{name:<34} {mb:>6.2f} {times[0]:>8.3f}{rates} {base:>10.3f} {times[0] / base:>9.2f}", flush=True)
            if rows and name.startswith(f"generated {sizes[-1]} MB"):
                with open(rows, "a") as out:  # bench/run_all.sh: baseline time / lint time
                    what = "json.load" if path.endswith(".json") else "libyaml"
                    out.write(f"lint\t{name} (CPU)\t{times[0]:.3f} s\t{what} {base:.3f} s\t{base / times[0]:.2f}\t\n")


if __name__ == "__main__":
    main()
