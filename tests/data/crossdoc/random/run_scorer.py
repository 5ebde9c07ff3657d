"""Run scorer.pl v8.01 on the concatenations make_pairs.py writes; print expected.json.

    python run_scorer.py SCORER.pl OUT_DIR [N] > expected.json
"""
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

scorer, out = sys.argv[1], Path(sys.argv[2])
n = int(sys.argv[3]) if len(sys.argv) > 3 else 100
result = {"command": "perl scorer.pl METRIC {corpus,topics}.k.conll {corpus,topics}.r.conll none",
          "scorer": "conll/reference-coreference-scorers f49f3f8a0e1cdc5ceba7c2a33013897369df5543 (v8.01)",
          "columns": ["recall_num", "recall_den", "precision_num", "precision_den"], "pairs": {}}
for seed in range(n):
    d = out / str(seed)
    entry = {"sha256": {f.name: hashlib.sha256(f.read_bytes()).hexdigest() for f in sorted(d.glob("*.conll"))}}
    for mode in ("corpus", "topics"):
        entry[mode] = {}
        for m in ("muc", "bcub", "ceafe"):
            text = subprocess.run(["perl", scorer, m, str(d / f"{mode}.k.conll"), str(d / f"{mode}.r.conll"), "none"],
                                  capture_output=True, text=True, check=True).stdout
            line = [x for x in text.splitlines() if x.startswith("Coreference:")][-1]
            entry[mode][m] = [float(v) for p in re.findall(r"\(([\d.]+) / ([\d.]+)\)", line) for v in p]
    result["pairs"][str(seed)] = entry
json.dump(result, sys.stdout, indent=1)
