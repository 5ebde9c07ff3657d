"""The pure-Python assignment solver breaks ties exactly as ``scipy.optimize.linear_sum_assignment``.

Mention matching follows corefud-scorer, which takes scipy's answer among equally good matchings;
:mod:`corefreport.scoring.lsap` must give that same answer. Checked on random matrices made of a few
distinct values (so nearly every matrix has several optimal assignments), in the shapes and values
matching produces: square and rectangular both ways, the negated scores |K ∩ R| / |K| of mentions
and 10 × F1 + F1 of zeros' dependencies.
"""

from __future__ import annotations

import random

import pytest

from corefreport.scoring.lsap import linear_sum_assignment

np = pytest.importorskip("numpy")
scipy_optimize = pytest.importorskip("scipy.optimize")

VALUES = ([0.0, -1.0], [0.0, -1.0, -0.5], [0.0, -1.0, -0.5, -1 / 3, -2 / 3], [0.0, -10.0, -11.0, -1.0, -6.666666666666667],
          [-0.0, -0.25, -0.75, -1.0])


@pytest.mark.parametrize("seed", range(8))
def test_same_assignment_as_scipy_on_tied_matrices(seed):
    rng = random.Random(seed)
    for _ in range(1500):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        values = rng.choice(VALUES + ([rng.random() for _ in range(3)],))
        cost = [[rng.choice(values) for _ in range(cols)] for _ in range(rows)]
        r, c = scipy_optimize.linear_sum_assignment(np.array(cost, dtype=float))
        assert linear_sum_assignment(cost) == sorted(zip(r.tolist(), c.tolist())), cost


def test_a_larger_sparse_matrix_like_a_documents_leftover_mentions():
    rng = random.Random(42)
    for _ in range(20):
        rows, cols = rng.randint(30, 80), rng.randint(30, 80)
        cost = [[-rng.choice((1.0, 0.5, 1 / 3)) if rng.random() < 0.05 else 0.0 for _ in range(cols)]
                for _ in range(rows)]
        r, c = scipy_optimize.linear_sum_assignment(np.array(cost))
        assert linear_sum_assignment(cost) == sorted(zip(r.tolist(), c.tolist()))


def test_empty_matrix():
    assert linear_sum_assignment([]) == [] and linear_sum_assignment([[]]) == []


def test_matching_gives_the_same_numbers_with_scipys_solver(monkeypatch, tmp_path):
    """The fixtures with tied head and partial matchings (and the dependent zeros), scored once with
    the pure-Python solver and once with scipy's (every matrix sent to scipy): the same numbers."""
    from pathlib import Path

    from corefreport.io import load_corpus
    from corefreport.scoring import matching
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    data = Path(__file__).resolve().parent / "data"
    pairs = [(data / "corefud" / "crac.key.conllu", data / "corefud" / "crac.response.conllu"),
             (data / "corefud_zeros" / "key.conllu", data / "corefud_zeros" / "response-system.conllu"),
             (tmp_path / "tie.key", tmp_path / "tie.response")]
    # a tie across chains: key mention "dog" (head dog) and two response mentions with that head,
    # "dog barks" in the chain of "A" and "dog barks loudly" in another; either is worth 1
    rows = [("A", "NN"), ("saw", "VBD"), ("dog", "NN"), ("barks", "VBZ"), ("loudly", "RB"), (".", ".")]
    for path, marks in ((pairs[2][0], ["(1)", "-", "(1)", "-", "-", "-"]),
                        (pairs[2][1], ["(1)", "-", "(1|(2", "1)", "2)", "-"])):
        lines = [f"t\t0\t{i}\t{w}\t{p}\t*\t-\t-\t-\t-\t*\t{m}" for i, ((w, p), m) in enumerate(zip(rows, marks))]
        path.write_text("#begin document (t); part 000\n" + "\n".join(lines) + "\n\n#end document\n", encoding="utf-8")
    metrics = ("muc", "bcub", "ceafe", "ceafm", "lea", "zero")
    for key, resp in pairs:
        k, r = load_corpus(str(key)), load_corpus(str(resp))
        for match in ("head", "partial"):
            settings = Settings(metrics=metrics, match=match, zero_match="dependent")
            ours = evaluate(k, r, settings).metrics
            monkeypatch.setattr(matching, "SCIPY_CELLS", 0)
            theirs = evaluate(k, r, settings).metrics
            monkeypatch.setattr(matching, "SCIPY_CELLS", 100_000)
            assert {m: ours[m].stats() for m in metrics} == {m: theirs[m].stats() for m in metrics}, (key.name, match)
