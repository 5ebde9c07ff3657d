#!/usr/bin/env python3
"""Record the error classes of generated books with big entities, as one version of corefreport
computes them (the version first on PYTHONPATH): the numbers tests/test_bookscale.py holds the
current code to.

    PYTHONPATH=/path/to/corefreport-bf9833a/src python tests/data/bookscale/record.py > tests/data/bookscale/errors-bf9833a.json

Each case is a book written by bench/make_book.py (its arguments below; the generator is seeded,
so the same arguments write the same files: the key's SHA-256 is recorded to show it) scored with
``corefreport score KEY RESPONSE -a errors -f json`` plus the case's options; recorded: the
``errors`` section whole (its SHA-256 over the canonical JSON) and, readable, its counts, costs and
leftover count.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CASES = [
    {"name": "three-hosts", "book": ["--tokens", "4000", "--hosts", "3", "--seed", "7"], "options": []},
    {"name": "two-hosts-folded", "book": ["--tokens", "6000", "--hosts", "2", "--fold", "0.8", "--seed", "11"],
     "options": []},
    {"name": "six-hosts-mode-t", "book": ["--tokens", "5000", "--seed", "2012"],
     "options": ["--errors-drop-response-singletons"]},
    {"name": "two-hosts-singletons-dropped", "book": ["--tokens", "6000", "--hosts", "2", "--fold", "0.8",
                                                       "--seed", "11"], "options": ["--drop-singletons"]},
]


def canonical(x: object) -> str:
    return json.dumps(x, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def errors_section(key: Path, response: Path, options: list[str]) -> dict:
    out = subprocess.run([sys.executable, "-m", "corefreport", "score", str(key), str(response), "-a", "errors",
                          "-f", "json", "-q", *options], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["errors"]


def write_book(args: list[str], prefix: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "bench" / "make_book.py"), *args, "--out", str(prefix)], check=True,
                   capture_output=True)


def main() -> None:
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            prefix = Path(tmp) / case["name"]
            write_book(case["book"], prefix)
            e = errors_section(Path(f"{prefix}.key"), Path(f"{prefix}.response"), case["options"])
            cases.append({**case, "key_sha256": hashlib.sha256(Path(f"{prefix}.key").read_bytes()).hexdigest(),
                          "errors_sha256": hashlib.sha256(canonical(e).encode()).hexdigest(),
                          "counts": e["counts"], "costs": e["costs"], "leftover_mentions": e["leftover_mentions"],
                          "rows": len(e["rows"])})
    json.dump({"cases": cases}, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
