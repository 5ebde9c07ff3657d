"""Score the pairs of build_pairs.py with corefud-scorer v1.2 itself and write what it gives as JSON.

Not run by the test suite (corefud-scorer is not a dependency). How expected.json was made:

    git --git-dir=<mirror of ufal/corefud-scorer> archive 4fd7b0e | tar -x -C /tmp/cs
    python3 -m venv /tmp/csvenv && /tmp/csvenv/bin/pip install udapi==0.5.2 scipy numpy
    python3 tests/data/corefud_repeats/build_pairs.py /tmp/crep
    /tmp/csvenv/bin/python tests/data/corefud_repeats/run_corefud_scorer.py /tmp/cs /tmp/crep \
        | gzip -9n > tests/data/corefud_repeats/expected.json.gz

(gzip: 1,920 runs × 25 printed numbers and 36 counts are 1 MB of JSON, 120 KB compressed.)

For every pair × match (exact, head, partial) × singletons (kept: ``-s``; dropped: default) it
records what ``python corefud-scorer.py [-s] -a MATCH KEY RESPONSE`` prints — run in this process
(``corefud-scorer.py``'s own ``main`` with those arguments, its stdout captured; the first pairs are
also run as that command in a subprocess and must print the same) — as the numbers it prints, in
its order (``printed``: R, P, F1 of muc, bcub, ceafe, ceafm, blanc, lea, mor, zero, then the CoNLL
score, as strings; ``stdout_template`` is the rest of the text, the same for every run of a mode),
and through the scorer's own classes, as that command builds them (``CorefUDReader`` with
corefud-scorer.py's arguments, ``scorer.eval.evaluator.Evaluator`` per metric updated over the
documents), the summed numerators and denominators ``get_counts()`` returns — (pn, pd, rn, rd) —
of muc, bcub, ceafe, ceafm, lea, blancc, blancn, mor and zero, rounded to 9 decimals.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import logging
import re
import subprocess
import sys
from pathlib import Path

CS, DATA = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(CS))
sys.path.insert(0, str(Path(__file__).parent))
uascorer = importlib.import_module("ua-scorer")
corefud_scorer = importlib.import_module("corefud-scorer")
from scorer.corefud.reader import CorefUDReader  # noqa: E402
from scorer.eval import evaluator as E  # noqa: E402

from build_pairs import digest, pairs  # noqa: E402

METRICS = {"muc": E.muc, "bcub": E.b_cubed, "ceafe": E.ceafe, "ceafm": E.ceafm, "lea": E.lea,
           "blancc": E.blancc, "blancn": E.blancn, "mor": E.mention_overlap, "zero": E.als_zeros}
MODES = [(match, keep) for match in ("exact", "head", "partial") for keep in (False, True)]
NUMBER = re.compile(r"\d+\.\d\d")


def command(match: str, keep: bool, key: str, resp: str) -> list[str]:
    return ["python", "corefud-scorer.py"] + (["-s"] if keep else []) + ["-a", match, key, resp]


def printed_in_process(cmd: list[str]) -> str:
    """corefud-scorer.py's main() on the command's arguments, its stdout captured."""
    out = io.StringIO()
    argv = sys.argv
    sys.argv = cmd[1:]
    try:
        with contextlib.redirect_stdout(out):
            corefud_scorer.main()
    finally:
        sys.argv = argv
    return out.getvalue()


def counts(key: str, resp: str, match: str, keep: bool) -> dict[str, list[float]]:
    args = dict(key_file=key, sys_file=resp, metrics=["all"], keep_singletons=keep, zero_match_method="dependent",
                match="partial-corefud" if match == "partial" else match, format="corefud",
                keep_split_antecedents=False, keep_zeros=True, evaluate_discourse_deixis=False,
                only_split_antecedent=False, allow_boundary_crossing=False, np_only=False,
                remove_nested_mentions=False, shared_task=None)
    reader = CorefUDReader(**args)
    reader.get_coref_infos(key, resp)
    infos = reader.doc_coref_infos
    out = {}
    for name, metric in METRICS.items():  # the order corefud-scorer.py evaluates them in (zero sorts clusters)
        ev = E.Evaluator(metric)
        for doc in infos:
            ev.update(infos[doc])
        out[name] = [round(float(x), 9) for x in ev.get_counts()]
    return out


def main() -> None:
    logging.disable(logging.WARNING)  # "Mention span … has been already indexed" goes to stderr
    all_pairs = pairs()
    templates: dict[str, str] = {}
    cases = []
    for n, (name, kinds, _, _) in enumerate(all_pairs):
        key, resp = str(DATA / f"{name}.key.conllu"), str(DATA / f"{name}.response.conllu")
        for match, keep in MODES:
            cmd = command(match, keep, key, resp)
            text = printed_in_process(cmd)
            if n < 5:
                real = subprocess.run([sys.executable] + cmd[1:], cwd=CS, capture_output=True, text=True,
                                      check=True).stdout
                assert real == text, (name, match, keep)
            mode = f"{match}-{'keep' if keep else 'drop'}"
            template = NUMBER.sub("{}", text)
            assert templates.setdefault(mode, template) == template, (name, mode)
            cases.append({"pair": name, "match": match, "keep_singletons": keep,
                          "printed": NUMBER.findall(text), "counts_pn_pd_rn_rd": counts(key, resp, match, keep)})
    print(json.dumps({
        "source": "ufal/corefud-scorer 4fd7b0e0c661aeeff88bc60c19ef507b84d1b590 (v1.2), udapi "
                  + importlib.import_module("importlib.metadata").version("udapi"),
        "built_by": "tests/data/corefud_repeats/build_pairs.py", "sha256": digest(all_pairs),
        "command": " ".join(command("MATCH", False, "KEY", "RESPONSE")).replace("corefud-scorer.py", "corefud-scorer.py [-s]"),
        "stdout_template": templates,
        "kinds": {name: list(kinds) for name, kinds, _, _ in all_pairs},
        "cases": cases}, separators=(",", ":")))


if __name__ == "__main__":
    main()
