#!/usr/bin/env python3
"""The dependencies allowed between the parts (docs/architecture.md,
"Dependencies between the parts"): every `#include "PART/..."` of a file in
harness/<part>/ or reporters/ must name the part itself or one it may depend
on. Fails naming the file, the line and the include that crosses a line the
map does not allow, so a new edge is a decision written here and in the doc,
never an accident."""
import pathlib
import re
import sys

ALLOWED = {
    "ids": set(),
    "core": set(),
    "scan": {"core", "ids"},
    "suite": {"core", "ids", "scan"},
    "transport": {"core", "ids"},
    "binding": {"core", "ids", "suite"},
    "reporters": {"core"},
    "profile": {"binding", "core", "ids", "suite"},
    "schema": {"core", "ids", "suite"},
    "shard": {"ids", "suite"},
    "audit": {"core", "reporters", "suite"},
    "db": {"core", "ids", "reporters", "suite"},
    "runner": {"binding", "core", "ids", "reporters", "scan", "suite", "transport"},
    "cli": {"audit", "binding", "core", "db", "ids", "profile", "reporters", "runner", "scan", "schema", "shard", "suite",
            "transport"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')


def main(root: pathlib.Path) -> int:
    bad = []
    parts = {p: root / "harness" / p for p in ALLOWED if p != "reporters"}
    parts["reporters"] = root / "reporters"
    for part, folder in parts.items():
        if not folder.is_dir():
            bad.append(f"{folder}: the part '{part}' is missing (update tests/architecture/check_deps.py)")
            continue
        for f in sorted(folder.rglob("*")):
            if f.suffix not in (".cpp", ".hpp", ".h", ".in"):
                continue
            for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                to = m.group(1)
                if to == part or to not in ALLOWED or to in ALLOWED[part]:
                    continue
                bad.append(f"{f.relative_to(root)}:{n}: {part} may not include {to}/ ({line.strip()})")
    for folder in (root / "harness").iterdir():
        if folder.is_dir() and folder.name not in ALLOWED:
            bad.append(f"harness/{folder.name}: a part the dependency map does not know: add it with its allowed "
                       "dependencies (tests/architecture/check_deps.py, docs/architecture.md)")
    for b in bad:
        print(b)
    if not bad:
        print(f"ok: {len(parts)} parts, every include within the allowed map")
    return 1 if bad else 0


def self_test() -> int:
    """The check can fail: a tree where ids/ includes runner/ is refused, and one without it passes."""
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for part in ALLOWED:
            (root / ("reporters" if part == "reporters" else f"harness/{part}")).mkdir(parents=True)
        (root / "harness/ids/ok.cpp").write_text('#include "ids/ids.hpp"\n')
        with contextlib.redirect_stdout(io.StringIO()):
            clean = main(root)
        (root / "harness/ids/bad.cpp").write_text('// x\n#include "runner/engine.hpp"\n')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            broken = main(root)
        if clean != 0 or broken != 1 or "harness/ids/bad.cpp:2: ids may not include runner/" not in out.getvalue():
            print("FAIL: the dependency check does not catch an include it must refuse:", out.getvalue())
            return 1
    print("ok: the dependency check refuses an include across the map")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()))
