"""Run the Universal Anaphora scorer v1 on the pairs of build_pairs.py and write v1_printed.json.

``python run_v1.py V1_DIR PYTHON [N]``: V1_DIR a checkout of juntaoy/universal-anaphora-scorer (main,
f4adb45), PYTHON an interpreter with numpy and scipy. For every pair and every option set of
:data:`OPTIONS`, runs ``PYTHON ua-scorer.py KEY RESPONSE OPTIONS`` in V1_DIR and keeps every line it
printed, with the SHA-256 of both inputs (the test rebuilds them and checks); where v1 stops with
an exception, its last line as ``stopped``.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import build_pairs  # noqa: E402

OPTIONS = ("keep_non_referring", "remove_split_antecedent keep_non_referring",
           "remove_split_antecedent remove_singletons")


def main() -> None:
    v1, python = Path(sys.argv[1]), sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else build_pairs.PAIRS
    commit = subprocess.run(["git", "-C", str(v1), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    runs, sha = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(n):
            key, response = build_pairs.pair(k)
            name = f"pair-{k:03d}"
            for side, text in (("key", key), ("response", response)):
                (Path(tmp) / f"{name}.{side}").write_text(text, encoding="utf-8")
                sha[f"{name}.{side}"] = hashlib.sha256(text.encode()).hexdigest()
            for options in OPTIONS:
                cmd = [python, "ua-scorer.py", str(Path(tmp) / f"{name}.key"), str(Path(tmp) / f"{name}.response"),
                       *options.split()]
                done = subprocess.run(cmd, cwd=v1, capture_output=True, text=True, timeout=60)
                run = {"pair": name, "options": options,
                       "command": f"python ua-scorer.py {name}.key {name}.response {options}",
                       "printed": done.stdout.splitlines()}
                if done.returncode:  # v1 stopped: its last line (the exception)
                    run["stopped"] = done.stderr.strip().splitlines()[-1]
                runs.append(run)
    out = {"program": f"juntaoy/universal-anaphora-scorer main {commit} (v1), ua-scorer.py, Python 3 with numpy "
                      "and scipy",
           "inputs": "tests/data/ua_repeats/build_pairs.py: pair(k) for k < N", "sha256": sha, "runs": runs}
    (HERE / "v1_printed.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
