"""Run scorer.pl v8.01 and corefud-scorer v1.2 on the files of build.py; write originals.json.

``python run_originals.py SCORER_PL_DIR COREFUD_DIR PYTHON``: SCORER_PL_DIR a checkout of
conll/reference-coreference-scorers, COREFUD_DIR one of ufal/corefud-scorer, PYTHON an interpreter
with numpy, scipy and udapi. Every command's printed lines are kept with the commits.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
RUNS = [  # (program, arguments)
    *[("scorer.pl", [m, "key.conll", r, "none"]) for r in ("response-spaced.conll", "response-names.conll",
                                                          "response-tabbed.conll")
      for m in ("muc", "bcub", "ceafe", "ceafm", "blanc")],
    *[("corefud-scorer", ["key.conllu", r, *opts]) for r in ("response.conllu", "response-misc-tab.conllu")
      for opts in (["-a", "exact", "-s"], ["-a", "head"])],
]


def commit(repo: Path) -> str:
    return subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    perl_dir, corefud_dir, python = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    out = {"scorer.pl": f"conll/reference-coreference-scorers {commit(perl_dir)} (v8.01)",
           "corefud-scorer": f"ufal/corefud-scorer {commit(corefud_dir)} (v1.2), udapi "
                             + subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('udapi'))"],
                                              capture_output=True, text=True).stdout.strip(),
           "runs": []}
    for program, args in RUNS:
        if program == "scorer.pl":
            cmd = ["perl", str(perl_dir / "scorer.pl"), *args]
        else:
            cmd = [python, str(corefud_dir / "corefud-scorer.py"), *args]
        done = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, check=True)
        out["runs"].append({"program": program, "command": f"{program} {' '.join(args)}",
                            "printed": [l for l in done.stdout.splitlines() if l.strip()]})
    (HERE / "originals.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
