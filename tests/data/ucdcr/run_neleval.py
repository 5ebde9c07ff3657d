"""Run neleval --cross-doc on the CoNLL files of build.py; write neleval.json.

``python run_neleval.py NELEVAL_DIR PYTHON``: NELEVAL_DIR a checkout of wikilinks/neleval with its pull
request #46 applied (``np.bool``/``np.int`` → ``bool``/``int`` in ``neleval/munkres.py``: unmerged, and
needed by any numpy ≥ 1.24 when scipy is missing), installed in PYTHON's environment (with numpy and
scipy; neleval imports ``collections.Sequence``, so Python ≤ 3.9). For every group of build.py
(``all``, ``topic-T``, ``subtopic-T-S``, ``kind-K``):

    python -m neleval prepare-conll-coref --cross-doc conll/key.GROUP.conll > gold.tsv
    python -m neleval prepare-conll-coref --cross-doc conll/response.GROUP.conll > sys.tsv
    python -m neleval evaluate -m muc -m b_cubed -m entity_ceaf -m mention_ceaf -g gold.tsv sys.tsv
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
METRICS = ("muc", "b_cubed", "entity_ceaf", "mention_ceaf")


def main() -> None:
    neleval, python = Path(sys.argv[1]), sys.argv[2]
    commit = subprocess.run(["git", "-C", str(neleval), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    diff = subprocess.run(["git", "-C", str(neleval), "diff", "--shortstat"], capture_output=True, text=True).stdout
    version = subprocess.run([python, "-c", "import sys, numpy, scipy; print(sys.version.split()[0], numpy.__version__, "
                              "scipy.__version__)"], capture_output=True, text=True).stdout.split()
    out = {"program": f"wikilinks/neleval {commit.strip()} with pull request #46 applied (neleval/munkres.py:{diff.strip()}), Python "
                      f"{version[0]}, numpy {version[1]}, scipy {version[2]}",
           "commands": [line.strip() for line in __doc__.split("\n\n")[2].strip().splitlines()],
           "columns": ["ptp", "fp", "rtp", "fn"],
           "groups": {}}
    groups = sorted({f.name.split(".")[1] for f in (HERE / "conll").glob("key.*.conll")})
    with tempfile.TemporaryDirectory() as tmp:
        for group in groups:
            for side, name in (("key", "gold.tsv"), ("response", "sys.tsv")):
                with open(Path(tmp) / name, "w") as f:
                    subprocess.run([python, "-m", "neleval", "prepare-conll-coref", "--cross-doc",
                                    str(HERE / "conll" / f"{side}.{group}.conll")], stdout=f, check=True)
            done = subprocess.run([python, "-m", "neleval", "evaluate", *[a for m in METRICS for a in ("-m", m)], "-g",
                                   str(Path(tmp) / "gold.tsv"), str(Path(tmp) / "sys.tsv")], capture_output=True,
                                  text=True, check=True)
            rows = [line.split("\t") for line in done.stdout.strip().splitlines()]
            head = rows[0]
            out["groups"][group] = {r[head.index("measure")]: [float(r[head.index(c)]) for c in out["columns"]]
                                    for r in rows[1:]}
    (HERE / "neleval.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
