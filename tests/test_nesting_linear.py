"""Nesting depth costs linear time (the reliability review of 2026-11-29: 10,000 nested mentions
took 2.6 s to score, 10,000 in one cell 8.6 s, and the UA reader 32 s).

The quadratic steps were: the UA reader listing every word of every markable and finding a named
closer by a scan of the open markables (io/ua.py), the label warning's trace walking every word of
every mention (scoring/crossdoc.py ``label_trace``) and BLANC over repeated mentions enumerating
every pair of mention *copies* (scoring/metrics.py ``_link_sets``). Each test times a size and eight
times that size (10,000 or 20,000 nested mentions), best of two: linear work takes about 8 times as
long, quadratic 64 times; and the larger size must read and score in under 2 s (the review: 2.6 s,
8.6 s and 32 s for 10,000).
"""

from __future__ import annotations

import time

from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from


def conll_nested(n: int, one_cell: bool = False) -> str:
    """The review's ``make_big.py nested_N``: word i opens chain i mod 50, word 2n−1−i closes it
    (mentions nested n deep); ``one_cell``: all n opened in one cell and closed in the next."""
    if one_cell:
        cells = ["".join(f"({i % 50}" for i in range(n)), "".join(f"{i % 50})" for i in reversed(range(n)))]
    else:
        cells = [f"({i % 50}" for i in range(n)] + [f"{(n - 1 - i) % 50})" for i in range(n)]
    rows = "".join(f"deep\t0\t{i}\tw\t{c}\n" + ("\n" if i % 20 == 19 else "") for i, c in enumerate(cells))
    return f"#begin document (deep); part 000\n{rows}\n#end document\n"


def ua_nested(n: int, named: bool) -> str:
    """Markable i opens at word i and closes at word 2n−1−i, by name (``m7)``) or by ``)``."""
    lines = [f"{i + 1} w (EntityID={i % 50}|MarkableID=m{i}" for i in range(n)]
    lines += [f"{n + i + 1} w {f'm{n - 1 - i})' if named else ')'}" for i in range(n)]
    return "# global.columns = ID FORM IDENTITY\n# newdoc id = d\n" + "\n".join(lines) + "\n"


def conllu_nested(n: int) -> str:
    rows = [f"{i + 1}\tw\t_\t_\t_\t_\t0\t_\t_\tEntity=(e{i % 50}" for i in range(n)]
    rows += [f"{n + i + 1}\tw\t_\t_\t_\t_\t0\t_\t_\tEntity=e{(n - 1 - i) % 50})" for i in range(n)]
    return "# newdoc id = d\n# sent_id = 1\n# text = x\n" + "\n".join(rows) + "\n\n"


def best(f, repeat: int = 2) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def read_and_score(path) -> None:
    corpus = load_corpus(str(path))
    assert sum(len(d.mentions) for d in corpus) > 0
    evaluate(corpus, corpus, settings_from(metrics=["muc", "bcub", "ceafe", "blanc"]))


def linear(tmp_path, make, name: str, small: int = 1250, limit: float = 2.0) -> None:
    files = {}
    for n in (small, 8 * small):
        files[n] = tmp_path / f"{n}{name}"
        files[n].write_text(make(n))
    t_small = best(lambda: read_and_score(files[small]))
    t_large = best(lambda: read_and_score(files[8 * small]))
    assert t_large < 20 * t_small + 0.05, (name, t_small, t_large)  # linear ~8×, quadratic ~64×
    assert t_large < limit, (name, t_large)


def test_conll2012_nested(tmp_path) -> None:
    linear(tmp_path, conll_nested, ".conll", small=2500)  # 20,000 nested mentions


def test_conll2012_nested_in_one_cell(tmp_path) -> None:
    linear(tmp_path, lambda n: conll_nested(n, one_cell=True), ".conll", small=2500)


def test_ua_nested_closed_by_name(tmp_path) -> None:
    linear(tmp_path, lambda n: ua_nested(n, named=True), ".ua")


def test_ua_nested_closed_in_order(tmp_path) -> None:
    linear(tmp_path, lambda n: ua_nested(n, named=False), ".ua")


def test_conllu_nested(tmp_path) -> None:
    linear(tmp_path, conllu_nested, ".conllu")


def test_the_nested_file_is_read_right(tmp_path) -> None:
    """What is timed is read right: 6 nested mentions of chains 0..5 (spans i..11−i), each read
    once, and a key scored against itself is 100 % under every metric."""
    for name, text in (("a.conll", conll_nested(6)), ("a.ua", ua_nested(6, True)), ("b.ua", ua_nested(6, False)),
                       ("a.conllu", conllu_nested(6))):
        (tmp_path / name).write_text(text)
        doc = next(iter(load_corpus(str(tmp_path / name))))
        assert sorted(m.span for m in doc.mentions) == [(i, 11 - i) for i in range(6)], name
        ev = evaluate(load_corpus(str(tmp_path / name)), load_corpus(str(tmp_path / name)),
                      settings_from(metrics=["muc", "bcub", "ceafe", "blanc"]))
        assert all(ev.metrics[m].f1 == 1.0 for m in ("bcub", "ceafe", "blanc")), name
