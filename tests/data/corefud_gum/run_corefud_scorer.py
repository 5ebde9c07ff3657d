"""Score the pairs of build_pairs.py with corefud-scorer itself and write what it gives as JSON.

Not run by the test suite (corefud-scorer is not a dependency). How expected.json was made:

    git --git-dir=<mirror of ufal/corefud-scorer> archive 4fd7b0e | tar -x -C /tmp/cs
    python3 -m venv /tmp/csvenv && /tmp/csvenv/bin/pip install udapi==0.5.2 scipy numpy
    python3 tests/data/corefud_gum/build_pairs.py /tmp/cgum
    /tmp/csvenv/bin/python tests/data/corefud_gum/run_corefud_scorer.py /tmp/cs /tmp/cgum > tests/data/corefud_gum/expected.json

For every response × match (exact, head, partial) × singletons (kept: ``-s``; dropped: default) it
records (1) the stdout of ``python corefud-scorer.py [-s] -a MATCH key.conllu response-V.conllu``
verbatim (the command is stored with it), and (2) through the scorer's own classes, as that command
builds them (``CorefUDReader`` with corefud-scorer.py's arguments, ``scorer.eval.evaluator.Evaluator``
per metric updated over the documents), the summed numerators and denominators ``get_counts()``
returns — (pn, pd, rn, rd) — and ``evaluate_documents``'s (recall, precision, F1).
"""

from __future__ import annotations

import hashlib
import importlib
import json
import subprocess
import sys
from pathlib import Path

CS, DATA = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(CS))
sys.path.insert(0, str(Path(__file__).parent))
uascorer = importlib.import_module("ua-scorer")  # noqa: F841  (corefud-scorer.py imports it first)
from scorer.corefud.reader import CorefUDReader  # noqa: E402
from scorer.eval import evaluator as E  # noqa: E402

from build_pairs import VARIANTS  # noqa: E402

METRICS = {"muc": E.muc, "bcub": E.b_cubed, "ceafe": E.ceafe, "ceafm": E.ceafm, "lea": E.lea,
           "blancc": E.blancc, "blancn": E.blancn, "mor": E.mention_overlap}


def scorer_args(key: str, resp: str, match: str, keep: bool) -> dict:
    """What corefud-scorer.py's ``corefud_to_ua_args`` passes to the reader."""
    return dict(key_file=key, sys_file=resp, metrics=["all"], keep_singletons=keep, zero_match_method="dependent",
                match="partial-corefud" if match == "partial" else match, format="corefud",
                keep_split_antecedents=False, keep_zeros=True, evaluate_discourse_deixis=False,
                only_split_antecedent=False, allow_boundary_crossing=False, np_only=False,
                remove_nested_mentions=False, shared_task=None)


def main() -> None:
    cases = []
    key = DATA / "key.conllu"
    for v in VARIANTS:
        resp = DATA / f"response-{v}.conllu"
        for match in ("exact", "head", "partial"):
            for keep in (False, True):
                cmd = ["python", "corefud-scorer.py"] + (["-s"] if keep else []) + ["-a", match,
                                                                                    str(key), str(resp)]
                printed = subprocess.run([sys.executable] + cmd[1:], cwd=CS, capture_output=True, text=True,
                                         check=True).stdout
                reader = CorefUDReader(**scorer_args(str(key), str(resp), match, keep))
                reader.get_coref_infos(str(key), str(resp))
                infos = reader.doc_coref_infos
                counts, scores = {}, {}
                for name, metric in METRICS.items():
                    ev = E.Evaluator(metric)
                    for doc in infos:
                        ev.update(infos[doc])
                    counts[name] = [float(x) for x in ev.get_counts()]
                for name, metric in list(METRICS.items()) + [("blanc", [E.blancc, E.blancn])]:
                    if name in ("blancc", "blancn"):
                        continue
                    scores[name] = [float(x) for x in E.evaluate_documents(infos, metric)]
                cases.append({"response": resp.name, "match": match, "keep_singletons": keep,
                              "command": " ".join(cmd[:-2] + ["key.conllu", resp.name]),
                              "printed": printed, "counts_pn_pd_rn_rd": counts, "recall_precision_f1": scores})
    digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(DATA.glob("*.conllu"))}
    print(json.dumps({"source": "ufal/corefud-scorer 4fd7b0e0c661aeeff88bc60c19ef507b84d1b590 (v1.2), udapi "
                      + importlib.import_module("importlib.metadata").version("udapi"),
                      "built_by": "tests/data/corefud_gum/build_pairs.py", "sha256": digests, "cases": cases},
                     indent=1))


if __name__ == "__main__":
    main()
