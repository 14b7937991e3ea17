#!/usr/bin/env python3
"""docs/architecture.md's table of the parts stays a map that is true: each row's
file count (`.cpp + .hpp` under its folder) is what the folder holds, every part
folder under harness/ has a README.md for its details, and no cell grows into
the details again (400 characters at most). A README that says "N source files
and M headers" is held to the same count. Fails naming the row or file."""
import pathlib
import re
import sys

MAX_CELL = 400
COUNT = re.compile(r"^(\d+) \+ (\d+)$")
README_COUNT = re.compile(r"(\d+) source files and (\d+) headers")


def counts(folder: pathlib.Path) -> tuple[int, int]:
    return (sum(1 for _ in folder.rglob("*.cpp")), sum(1 for _ in folder.rglob("*.hpp")))


def check(root: pathlib.Path) -> list[str]:
    bad = []
    doc = root / "docs" / "architecture.md"
    lines = doc.read_text(encoding="utf-8").split("\n")
    start = lines.index("## The parts")
    rows = []
    for n, line in enumerate(lines[start:], start + 1):
        if line.startswith("## ") and rows:
            break
        if line.startswith("| ") and not line.startswith("| part |"):
            rows.append((n, [c.strip() for c in line.split("|")[1:-1]]))
    if not rows:
        return [f"{doc}: no table of the parts under '## The parts'"]
    for n, cells in rows:
        if len(cells) != 5:
            bad.append(f"{doc}:{n}: expected 5 cells (part, folder, target, files, what), got {len(cells)}")
            continue
        for c in cells:
            if len(c) > MAX_CELL:
                bad.append(f"{doc}:{n}: a cell of {len(c)} characters (at most {MAX_CELL}): "
                           "move the details into the part's README.md")
        m = COUNT.match(cells[3])
        if not m:
            continue
        folder = root / re.match(r"`([^`]+)`", cells[1]).group(1)
        have = counts(folder)
        said = (int(m.group(1)), int(m.group(2)))
        if have != said:
            bad.append(f"{doc}:{n}: '{cells[0]}' says {said[0]} + {said[1]} files, "
                       f"{folder.relative_to(root)} holds {have[0]} + {have[1]}")
    for part in sorted((root / "harness").iterdir()):
        if part.is_dir() and not (part / "README.md").is_file():
            bad.append(f"{part.relative_to(root)}: no README.md (what each of its files holds)")
    for readme in sorted(root.glob("harness/**/README.md")):
        for m in README_COUNT.finditer(readme.read_text(encoding="utf-8")):
            have = counts(readme.parent)
            if (int(m.group(1)), int(m.group(2))) != have:
                bad.append(f"{readme.relative_to(root)}: says '{m.group(0)}', the folder holds "
                           f"{have[0]} source files and {have[1]} headers")
    return bad


def self_test() -> int:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "docs").mkdir()
        (root / "harness" / "x").mkdir(parents=True)
        (root / "harness" / "x" / "a.cpp").write_text("")
        (root / "docs" / "architecture.md").write_text(
            "## The parts\n\n| part | folder | target | files | what |\n|---|---|---|---|---|\n"
            "| x | `harness/x/` | - | 2 + 0 | " + "y" * 401 + " |\n\n## Next\n")
        found = check(root)
        wanted = ["says 2 + 0 files", "a cell of 401 characters", "no README.md"]
        missing = [w for w in wanted if not any(w in f for f in found)]
        if missing:
            print("self-test: not refused:", missing, found)
            return 1
    print("self-test: a wrong count, a long cell and a missing README are refused")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    bad = check(root)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
