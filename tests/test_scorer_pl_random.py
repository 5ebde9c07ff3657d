"""corefreport against scorer.pl v8.01 on random CoNLL-2012 pairs and the reader's edge cases
(issue 26): every numerator and denominator scorer.pl printed, for the mentions, MUC, B³, CEAF-m,
CEAF-e and BLANC's two link sets, on each of the pairs ``tests/data/scorer_pl_random/build_pairs.py``
generates (its docstring lists the edge cases; ``expected.json`` holds the numbers, the commands
and scorer.pl's commit). Each pair is scored as ``corefreport score KEY RESPONSE -m all`` scores
it: from files, with the default settings.

Where scorer.pl reads a blank field as a line's coreference annotation (a TAB then only spaces, or
a TAB before a CRLF line end), corefreport reads the last non-blank field (README.md, deliberate
differences): such a pair is compared with scorer.pl's numbers on the same pair with those blanks
removed (``clean``), which scorer.pl reads as corefreport does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefreport.study.plan import Policy, pair_plan
from corefreport.study.run import run
from corefreport.scoring.settings import Settings
from conftest import load_script

HERE = Path(__file__).resolve().parent / "data" / "scorer_pl_random"
build = load_script(HERE / "build_pairs.py", "scorer_pl_random_pairs")

EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
CASES = {c["id"]: c for c in EXPECTED["cases"]}
PAIRS = {p.id: p for p in build.pairs()}
SETTINGS = Settings(metrics=build.METRICS)


def test_the_pairs_are_the_ones_scorer_pl_scored():
    assert EXPECTED["commit"] == build.SCORER_COMMIT and len(CASES) == build.N_PAIRS >= 300
    for pid, case in CASES.items():
        pair = PAIRS[pid]
        assert [build.sha256(pair.key), build.sha256(pair.response)] == case["sha256"], pid
        if "clean" in case:
            assert [build.sha256(pair.clean_key), build.sha256(pair.clean_response)] == case["clean"]["sha256"], pid


def test_every_edge_case_is_generated_often():
    tags = [t for c in CASES.values() for t in c["tags"]]
    for tag in ("tab_first", "tab_other", "space_tail", "tab_space_tail", "columns", "repeat_key", "repeat_response",
                "missing", "extra", "empty", "begin", "begin_mismatch", "crlf", "crlf_tab", "blank", "key_span_repeated",
                "response_span_repeated", "crossing"):
        assert tags.count(tag) >= 20, tag


def blank_last_field(text: str) -> bool:
    """Whether a token line's last field, as scorer.pl splits it (on TAB, trailing empty fields
    dropped, the CR of a CRLF line end kept), is blank (a line of blanks alone is a sentence break)."""
    for line in text.split("\n"):
        fields = line.split("\t")
        while fields and fields[-1] == "":
            fields.pop()
        if line.strip() and not line.startswith("#") and len(fields) > 1 and not fields[-1].strip():
            return True
    return False


def test_scorer_pl_reads_otherwise_only_where_readme_says():
    """The pairs whose numbers corefreport takes from the cleaned files are those with a blank last
    field (a TAB then spaces, a TAB before CRLF) or a response name written otherwise: README's
    deliberate differences. There scorer.pl failed on the files as written, or gave other numbers."""
    clean = [c for c in CASES.values() if "clean" in c]
    assert len(clean) >= 30
    for case in clean:
        pair = PAIRS[case["id"]]
        assert (blank_last_field(pair.key) or blank_last_field(pair.response)
                or "begin_mismatch" in case["tags"]), case["id"]
        assert case["scorer_pl"] != case["clean"]["scorer_pl"]
    # scorer.pl died on some ("Detected the end of a mention … without begin", "… do not close")
    assert sum("error" in c["scorer_pl"] for c in clean) >= 10


def expected_numbers(case: dict) -> dict:
    return case["clean"]["scorer_pl"] if "clean" in case else case["scorer_pl"]


def scored(pair, tmp_path: Path):
    key, resp = tmp_path / f"{pair.id}.key", tmp_path / f"{pair.id}.response"
    key.write_bytes(pair.key.encode("utf-8"))
    resp.write_bytes(pair.response.encode("utf-8"))
    return run(pair_plan(str(key), str(resp), SETTINGS, policy=Policy(jobs=1))).evaluation


def mismatches(ev, numbers: dict) -> list[str]:
    """Every number of ``numbers`` (scorer.pl's) that ``ev`` (corefreport's) does not give."""
    out = []

    def check(what: str, got: tuple, exp: list) -> None:
        if any(abs(g - e) > 1e-9 * max(1.0, abs(e)) for g, e in zip(got, exp[:4])):
            out.append(f"{what}: corefreport {got}, scorer.pl {tuple(exp[:4])}")

    m = ev.mentions
    check("mentions", (m.recall_num, m.recall_den, m.precision_num, m.precision_den), numbers["mentions"])
    for metric in ("muc", "bcub", "ceafm", "ceafe"):
        s = ev.metrics[metric]
        check(metric, (s.recall_num, s.recall_den, s.precision_num, s.precision_den), numbers[metric])
    b = ev.metrics["blanc"]
    for part, name in ((b.coref, "coref_links"), (b.noncoref, "noncoref_links")):
        check(f"blanc {name}", (part.recall_num, part.recall_den, part.precision_num, part.precision_den),
              numbers["blanc"][name])
    return out


@pytest.mark.parametrize("pid", sorted(CASES))
def test_corefreport_gives_every_number_scorer_pl_gives(pid, tmp_path):
    case = CASES[pid]
    numbers = expected_numbers(case)
    assert "error" not in numbers, numbers
    ev = scored(PAIRS[pid], tmp_path)
    assert mismatches(ev, numbers) == [], case["tags"]
