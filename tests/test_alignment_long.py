"""Alignment of long LLM outputs (issue 35): the markup's words aligned to the key's in a corridor
around anchors (:mod:`corefreport.io.wordalign`) give the same edit script — hence the same
mentions and numbers — as the cleaner's full edit-distance table, kept here as it was written
before (corefreport bf9833a, ``edit_script``: O(m·n) time and memory); a text unlike its key is
refused in one line, exit 2; a long repeated document aligns in bounded time and memory."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from corefreport import api
from corefreport.io import markup as markup_module
from corefreport.io.wordalign import DELETE, EMPTY, INSERT, MATCH, SUBSTITUTE, Step, edit_script, is_empty_node
from conftest import shared_path

ROOT = Path(__file__).resolve().parents[1]
MAKE_MARKUP = ROOT / "bench" / "make_markup.py"


def gum(name: str = "GUM_academic_discrimination") -> Path:
    """GUM's CoNLL-U document ``name`` in ../shared (the test skips, saying so, when it is absent)."""
    return shared_path("data", "gum", "dep", f"{name}.conllu")


def full_table_script(response: list[str], key: list[str]) -> list[Step]:
    """The cleaner's alignment over the whole table (bf9833a's ``edit_script``): the reference."""
    m, n = len(response), len(key)
    rows = [array("i", range(n + 1))]
    for i in range(1, m + 1):
        prev = rows[-1]
        w = response[i - 1]
        if is_empty_node(w):
            rows.append(array("i", prev))
            continue
        cur = array("i", [i]) * (n + 1)
        left = i
        for j in range(1, n + 1):
            if w == key[j - 1]:
                left = prev[j - 1]
            else:
                a, b, c = prev[j], prev[j - 1], left
                left = (a if a < b else b)
                if c < left:
                    left = c
                left += 1
            cur[j] = left
        rows.append(cur)
    steps: list[Step] = []
    i, j = m, n
    while i > 0 and j > 0:
        if is_empty_node(response[i - 1]):
            steps.append(Step(EMPTY, i - 1, -1))
            i -= 1
        elif response[i - 1] == key[j - 1]:
            steps.append(Step(MATCH, i - 1, j - 1))
            i -= 1
            j -= 1
        elif rows[i][j] == rows[i - 1][j - 1] + 1:
            steps.append(Step(SUBSTITUTE, i - 1, j - 1))
            i -= 1
            j -= 1
        elif rows[i][j] == rows[i - 1][j] + 1:
            steps.append(Step(DELETE, i - 1, -1))
            i -= 1
        else:
            steps.append(Step(INSERT, -1, j - 1))
            j -= 1
    while j > 0:
        steps.append(Step(INSERT, -1, j - 1))
        j -= 1
    while i > 0:
        steps.append(Step(DELETE, i - 1, -1))
        i -= 1
    steps.reverse()
    return steps


def _words(path: Path) -> list[str]:
    return [ln.split("\t")[1] for ln in path.read_text(encoding="utf-8").splitlines()
            if ln and not ln.startswith("#") and ln.split("\t")[0].isdigit()]


def perturbed(rng: random.Random, key: list[str], rate: float, blocks: int) -> list[str]:
    """``key`` as an LLM might give it back: words misspelt, left out, added, empty nodes, and
    ``blocks`` longer stretches (up to 40 words) left out, repeated or replaced by other words."""
    out: list[str] = []
    k = 0
    starts = set(rng.sample(range(len(key)), min(blocks, len(key))))
    while k < len(key):
        w = key[k]
        if k in starts:
            span = rng.randint(5, 40)
            kind = rng.choice(("drop", "repeat", "other"))
            if kind == "repeat":
                out.extend(key[k:k + span])
            elif kind == "other":
                out.extend(rng.choice(key) for _ in range(rng.randint(1, span)))
                k += span
                continue
            else:
                k += span
                continue
        r = rng.random()
        if r < rate:
            out.append(w[1] + w[0] + w[2:] if len(w) > 2 else w + "x")
        elif r < 2 * rate:
            pass  # left out
        elif r < 3 * rate:
            out.extend([w, rng.choice(key)])  # a word added
        elif r < 3.3 * rate:
            out.extend(["##", w])  # an empty node
        else:
            out.append(w)
        k += 1
    return out


def _ops(steps: list[Step]) -> list[tuple[str, int, int]]:
    return [(s.op, s.i, s.j) for s in steps]


@pytest.mark.parametrize("seed", range(40))
def test_small_responses_align_as_the_full_table(seed):
    rng = random.Random(seed)
    vocab = "the a of cat dog sat on mat and it was he she they said".split()
    key = [rng.choice(vocab) for _ in range(rng.randint(1, 120))]
    response = perturbed(rng, key, rate=rng.choice((0.0, 0.02, 0.1, 0.3)), blocks=rng.randint(0, 3))
    assert _ops(edit_script(response, key)) == _ops(full_table_script(response, key))


@pytest.mark.parametrize("name,repeat,seed", [("GUM_academic_discrimination", 1, 1), ("GUM_bio_byron", 1, 2),
                                              ("GUM_news_iodine", 2, 3), ("GUM_court_loan", 1, 4)])
def test_medium_documents_align_as_the_full_table(name, repeat, seed):
    key = _words(gum(name)) * repeat
    rng = random.Random(seed)
    response = perturbed(rng, key, rate=0.03, blocks=4)
    assert len(key) > 700
    assert _ops(edit_script(response, key)) == _ops(full_table_script(response, key))


def _markup_pair(tmp_path: Path, name: str, *args: str) -> tuple[Path, Path]:
    out = tmp_path / name
    subprocess.run([sys.executable, str(MAKE_MARKUP), "--out", str(out), *args], check=True, capture_output=True)
    return Path(f"{out}.conllu"), Path(f"{out}.txt")


@pytest.mark.parametrize("doc,repeat", [("GUM_academic_discrimination", 1), ("GUM_news_nasa", 1),
                                        ("GUM_interview_cyclone", 2)])
def test_markup_scores_equal_those_of_the_full_table(tmp_path, monkeypatch, doc, repeat):
    key, response = _markup_pair(tmp_path, doc, "--conllu", str(gum(doc)), "--repeat", str(repeat))
    anchored = api.score(str(key), str(response), metrics=["all"])
    monkeypatch.setattr(markup_module, "edit_script", full_table_script)
    table = api.score(str(key), str(response), metrics=["all"])
    assert anchored["metrics"] == table["metrics"]
    assert anchored["mentions"] == table["mentions"]
    assert json.dumps(anchored, sort_keys=True, default=str) == json.dumps(table, sort_keys=True, default=str)


def test_unrelated_text_is_refused_in_one_line(tmp_path):
    key, response = _markup_pair(tmp_path, "unrelated", "--conllu", str(gum()), "--repeat", "20", "--unrelated",
                                 "20000")
    p = subprocess.run([sys.executable, "-m", "corefreport", "score", str(key), str(response),
                        "--response-format", "text2text"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1
    m = re.search(r"the response's words match (\d+) % of the key's: not the same text$", lines[0])
    assert m and int(m.group(1)) < 10
    assert str(response) in lines[0]
    assert p.stdout == ""


def test_twenty_copies_align_in_bounded_time_and_memory(tmp_path):
    """The 20× repeated GUM document (21,000 words) scored whole: generous bounds (the full table
    took about a minute and 1.7 GB; the corridor under 2 s and 60 MB here)."""
    key, response = _markup_pair(tmp_path, "markup20", "--conllu", str(gum()), "--repeat", "20")
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            "p = subprocess.run([sys.executable, '-m', 'corefreport', 'score', sys.argv[1], sys.argv[2], '-q'], "
            "capture_output=True); "
            "print(p.returncode, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, str(key), str(response)], capture_output=True, text=True,
                         timeout=300).stdout.split()
    rc, seconds, kib = int(out[0]), float(out[1]), int(out[2])
    assert rc == 0
    assert seconds < 60
    assert kib < 400 * 1024


# -- BLANC of long documents with a repeated mention ----------------------------------------------

def _link_sets(chains):
    """BLANC's links as sets, listed one by one (the reference scorer's reading; quadratic)."""
    coref, non = set(), set()
    for i, a in enumerate(chains):
        for x in range(len(a)):
            for y in range(x + 1, len(a)):
                coref.add(frozenset((a[x], a[y])))
        for b in chains[i + 1:]:
            for u in a:
                for v in b:
                    non.add(frozenset((u, v)))
    return coref, non


@pytest.mark.parametrize("seed", range(60))
def test_blanc_with_repeated_mentions_counts_the_reference_link_sets(seed):
    """A markup read onto its key can put one span in two chains (an orphan close): BLANC then
    counts links as sets, as the reference does; counted here by listing every link."""
    from corefreport.scoring.metrics import blanc

    rng = random.Random(seed)
    pool = list(range(rng.randint(2, 40)))

    def side():
        chains = [[m for m in pool if rng.random() < 0.3] for _ in range(rng.randint(1, 6))]
        chains = [c for c in chains if c]
        if chains and rng.random() < 0.5:
            chains[0].append(chains[0][0])  # a mention twice in one chain
        return chains or [[0]]

    key, response = side(), side()
    kc, kn = _link_sets(key)
    rc, rn = _link_sets(response)
    b = blanc(key, response)
    assert (b.coref.recall_num, b.coref.recall_den, b.coref.precision_den) == (len(kc & rc), len(kc), len(rc))
    assert (b.noncoref.recall_num, b.noncoref.recall_den, b.noncoref.precision_den) == (len(kn & rn), len(kn),
                                                                                        len(rn))
