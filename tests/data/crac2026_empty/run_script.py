"""Run crac2026_empty_nodes_eval.py on every pair of this folder (and on the zero test files of
corefud-scorer and tests/data/corefud_zeros) and write what it printed as JSON (expected.json).

Not run by the test suite (the script is not a dependency, and its code is not copied here). How
expected.json was made (standard-library Python 3.11; the script needs nothing else):

    git --git-dir=<mirror of ufal/crac2026_empty_nodes_baseline> show \\
        bc167f20a54813e50713e914f005921f4dabc53d:crac2026_empty_nodes_eval.py > /tmp/crac26/eval.py
    python3 tests/data/crac2026_empty/run_script.py /tmp/crac26/eval.py tests/data/crac2026_empty \\
        ../shared/data/corefud/scorer-tests/zeros tests/data/corefud_zeros > tests/data/crac2026_empty/expected.json

Each case: the command (``python3 crac2026_empty_nodes_eval.py SYSTEM GOLD``: the system output
first), its stdout verbatim (``printed``) and exit status; where the script stops, the last line of
its traceback (``error``).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

SCRIPT, HERE, ZEROS, OURS = (Path(a).resolve() for a in sys.argv[1:5])
HANDMADE = [("key.conllu", f"response-{name}.conllu") for name in
            ("perfect", "missing", "extra", "attributes", "multiset", "blankline", "reordered")] + [
    ("nocoref-key.conllu", "nocoref-response.conllu"), ("nocoref-key.conllu", "response-attributes.conllu"),
    ("emptyhead-key.conllu", "emptyhead-response.conllu"), ("key.conllu", "split-response.conllu")]


def run(gold: Path, system: Path, name_gold: str, name_system: str) -> dict:
    p = subprocess.run([sys.executable, str(SCRIPT), str(system), str(gold)], capture_output=True, text=True)
    case = {"gold": name_gold, "system": name_system,
            "command": f"python3 crac2026_empty_nodes_eval.py {name_system} {name_gold}",
            "exit_status": p.returncode, "printed": p.stdout}
    if p.returncode:
        case["error"] = p.stderr.strip().splitlines()[-1]
    return case


def main() -> None:
    cases = []
    for gold, system in HANDMADE:
        cases.append(run(HERE / gold, HERE / system, gold, system))
    for k in sorted(HERE.glob("random/*.key.conllu")):
        r = k.with_name(k.name.replace(".key.", ".response."))
        cases.append(run(k, r, f"random/{k.name}", f"random/{r.name}"))
    for k in sorted(ZEROS.glob("TC-Z*.key")):
        for r in sorted(ZEROS.glob(k.stem + "-*.response")):
            cases.append(run(k, r, f"zeros/{k.name}", f"zeros/{r.name}"))
    for r in ("response-system.conllu", "response-nozeros.conllu", "key.conllu"):
        cases.append(run(OURS / "key.conllu", OURS / r, "corefud_zeros/key.conllu", f"corefud_zeros/{r}"))
    script = SCRIPT.read_bytes()
    json.dump({"script": "crac2026_empty_nodes_eval.py of ufal/crac2026_empty_nodes_baseline, commit "
                         "bc167f20a54813e50713e914f005921f4dabc53d (2026-02-03)",
               "script_sha256": hashlib.sha256(script).hexdigest(), "python": sys.version.split()[0],
               "cases": cases}, sys.stdout, indent=1, ensure_ascii=False)
    print()


if __name__ == "__main__":
    main()
