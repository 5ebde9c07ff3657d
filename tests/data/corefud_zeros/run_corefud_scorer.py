"""Score the zero fixtures with corefud-scorer itself and write what it gives as JSON (expected.json).

Not run by the test suite (corefud-scorer is not a dependency). How expected.json was made:

    git --git-dir=<mirror of ufal/corefud-scorer> archive 4fd7b0e | tar -x -C /tmp/cs
    python3 -m venv /tmp/csvenv && /tmp/csvenv/bin/pip install udapi==0.5.2 scipy numpy
    /tmp/csvenv/bin/python tests/data/corefud_zeros/run_corefud_scorer.py /tmp/cs \
        tests/data/corefud_zeros ../shared/data/corefud/scorer-tests/zeros > tests/data/corefud_zeros/expected.json

Two sets of pairs:

* ``key.conllu`` (two Spanish news documents with pro-drop subjects as empty nodes, written by hand by
  ``build_files.py``) against ``response-system.conllu`` (zeros moved, missed, spurious, linked to
  the wrong entity, swapped), ``response-nozeros.conllu`` (no empty node at all) and itself;
* corefud-scorer's own zero test cases (``TC-Z*.key`` / ``TC-Z*-N.response``).

For every pair × match (exact, head, partial) × zero matching (linear, dependent) × singletons (kept:
``-s``; dropped: the default) it records (1) the stdout of ``python corefud-scorer.py [-s] -a MATCH
-z ZERO KEY RESPONSE`` verbatim, with that command (for the test cases: singletons kept only, the
setting they are written for), and (2) through the scorer's own classes as that command builds them
(``CorefUDReader`` with corefud-scorer.py's arguments, ``scorer.eval.evaluator.Evaluator`` per
metric updated over the documents) the summed numerators and denominators (pn, pd, rn, rd) of every
metric it prints, the zero score (``als_zeros``) included. Where corefud-scorer fails (``-z dependent``
on a test case whose key zero has no DEPS: ``ZeroDivisionError`` in ``_f_score``,
``scorer/corefud/mention.py`` 93) the case records ``error`` / ``exit_status`` instead.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import subprocess
import sys
from pathlib import Path

CS, DATA, TESTS = (Path(a).resolve() for a in sys.argv[1:4])
sys.path.insert(0, str(CS))
uascorer = importlib.import_module("ua-scorer")  # noqa: F841  (corefud-scorer.py imports it first)
from scorer.corefud.reader import CorefUDReader  # noqa: E402
from scorer.eval import evaluator as E  # noqa: E402

METRICS = {"muc": E.muc, "bcub": E.b_cubed, "ceafe": E.ceafe, "ceafm": E.ceafm, "lea": E.lea,
           "blancc": E.blancc, "blancn": E.blancn, "mor": E.mention_overlap, "zero": E.als_zeros}


def scorer_args(key: str, resp: str, match: str, zero: str, keep: bool) -> dict:
    """What corefud-scorer.py's ``corefud_to_ua_args`` passes to the reader."""
    return dict(key_file=key, sys_file=resp, metrics=["all"], keep_singletons=keep, zero_match_method=zero,
                match="partial-corefud" if match == "partial" else match, format="corefud",
                keep_split_antecedents=False, keep_zeros=True, evaluate_discourse_deixis=False,
                only_split_antecedent=False, allow_boundary_crossing=False, np_only=False,
                remove_nested_mentions=False, shared_task=None)


def case(key: Path, resp: Path, match: str, zero: str, keep: bool, printed: bool) -> dict:
    cmd = ["python", "corefud-scorer.py"] + (["-s"] if keep else []) + ["-a", match, "-z", zero]
    out = {"key": key.name, "response": resp.name, "match": match, "zero_match": zero, "keep_singletons": keep,
           "command": " ".join(cmd + [key.name, resp.name])}
    if printed:
        run = subprocess.run([sys.executable] + cmd[1:] + [str(key), str(resp)], cwd=CS, capture_output=True,
                             text=True)
        out["printed"] = run.stdout
        if run.returncode:
            out["exit_status"] = run.returncode
    reader = CorefUDReader(**scorer_args(str(key), str(resp), match, zero, keep))
    try:
        reader.get_coref_infos(str(key), str(resp))
    except ZeroDivisionError as err:  # a key zero without DEPS under -z dependent (scorer/corefud/mention.py 93)
        out["error"] = f"ZeroDivisionError: {err}"
        return out
    infos = reader.doc_coref_infos
    counts = {}
    for name, metric in METRICS.items():
        ev = E.Evaluator(metric)
        for doc in infos:
            ev.update(infos[doc])
        counts[name] = [float(x) for x in ev.get_counts()]
    out["counts_pn_pd_rn_rd"] = counts
    return out


def main() -> None:
    cases = []
    own = [DATA / "key.conllu", DATA / "response-system.conllu", DATA / "response-nozeros.conllu"]
    tests = []
    for k in sorted(TESTS.glob("TC-Z*.key")):
        tests += [(k, r) for r in sorted(TESTS.glob(k.stem + "-*.response"))]
    for match in ("exact", "head", "partial"):
        for zero in ("linear", "dependent"):
            for keep in (False, True):
                for resp in own:
                    cases.append(case(own[0], resp, match, zero, keep, True))
                for k, r in tests:
                    cases.append(case(k, r, match, zero, keep, keep))
    digests = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in own}
    print(json.dumps({"source": "ufal/corefud-scorer 4fd7b0e0c661aeeff88bc60c19ef507b84d1b590 (v1.2), udapi "
                      + importlib.import_module("importlib.metadata").version("udapi"),
                      "built_by": "tests/data/corefud_zeros/build_files.py", "sha256": digests, "cases": cases},
                     indent=1))


if __name__ == "__main__":
    main()
