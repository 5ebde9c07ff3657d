"""Issue 12 item 7: output that can be trusted — the signature on one line, well-formed CSV,
--version / -h, closed pipes and full disks, Ctrl-C."""

from __future__ import annotations

import csv
import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport import __version__
from corefreport.cli import app

from conftest import SHARED

runner = CliRunner()
SRC = str(Path(__file__).resolve().parents[1] / "src")
GUM = [str(SHARED / "data" / "gum" / "derived" / "conll2012" / "gum.conll"),
       str(SHARED / "data" / "xrenner" / "conll2012" / "ml-gum.conll")]
needs_gum = pytest.mark.skipif(not all(Path(p).is_file() for p in GUM),
                               reason="needs ../shared's GUM key and xrenner response (../shared is absent)")


def cli(*args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "40"}
    return subprocess.Popen([sys.executable, "-m", "corefreport", *args], env=env, stderr=subprocess.PIPE, **kw)


def test_version_and_short_help():
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.strip() == f"corefreport {__version__}"
    res = runner.invoke(app, ["-h"])
    assert res.exit_code == 0 and "score" in res.stdout and "Usage" in res.stdout
    res = runner.invoke(app, ["score", "-h"])
    assert res.exit_code == 0 and "--key-duplicates" in res.stdout


def test_signature_is_printed_on_one_line_whatever_the_width():
    """Before: wrapped at 100 columns in pipes and files ('…|key:077' / 'ca511e3|version…')."""
    sig = runner.invoke(app, ["score", "--example", "-f", "json", "-q"])
    import json

    full = json.loads(sig.stdout)["signature"]
    assert len(full) > 100
    res = runner.invoke(app, ["score", "--example", "-q", "-a", "typed"])
    assert res.exit_code == 0
    sig_typed = next(x for x in res.stdout.splitlines() if x.startswith("metrics:"))
    assert sig_typed.endswith(f"version:{__version__}") and "|scheme:derived|" in sig_typed
    p = cli("score", "--example", "-q", stdout=subprocess.PIPE)
    out, _ = p.communicate(timeout=60)
    assert full in out.decode().splitlines()


def test_csv_per_doc_is_one_well_formed_table():
    """Before: two CSV tables of 8 and 8 columns separated by a blank line (ragged rows)."""
    res = runner.invoke(app, ["score", "--example", "-q", "-f", "csv", "--per-doc"])
    rows = list(csv.reader(io.StringIO(res.stdout)))
    assert len({len(r) for r in rows}) == 1
    head = rows[0]
    assert head[:2] == ["table", "metric"] and "document" in head
    docs = [r for r in rows[1:] if r[head.index("document")]]
    assert len(docs) == 3
    # the per-document CoNLL F1 of GUM_court_mitigation: (MUC + B³ + CEAF-e) / 3 of its own columns
    d = next(r for r in docs if r[head.index("document")].startswith("GUM_court_mitigation"))
    f = [float(d[head.index(m)]) for m in ("muc", "bcub", "ceafe", "conll")]
    assert abs(sum(f[:3]) / 3 - f[3]) < 1e-12


def test_dev_full_is_one_error_line():
    with open("/dev/full", "w") as full:
        p = cli("score", "--example", "-q", stdout=full)
        _, err = p.communicate(timeout=60)
    assert p.returncode == 2
    lines = err.decode().strip().splitlines()
    assert lines == ["corefreport: error: cannot write the output: No space left on device"]


@needs_gum
def test_closed_pipe_is_one_error_line():
    p = cli("score", *GUM, "-q", "--per-doc", stdout=subprocess.PIPE)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    assert p.returncode == 2
    assert err.strip().splitlines() == ["corefreport: error: cannot write the output: the reader closed the pipe"]


@needs_gum
def test_ctrl_c_exits_130_without_traceback():
    p = cli("compare", GUM[0], GUM[1], str(SHARED / "data" / "xrenner" / "conll2012" / "rules-gum.conll"),
            "--bootstrap", "100000", "-q", stdout=subprocess.DEVNULL)
    time.sleep(3)
    if p.poll() is None:
        p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err.decode()
    assert "Traceback" not in err.decode() and "interrupted" in err.decode()


def test_compare_refuses_a_bootstrap_that_cannot_fit_in_memory():
    """3 documents, 2 systems × 10 metrics × 3 columns: 10^8 resamples need 8·10^8·(3 + 60) B ≈ 46.9 GiB;
    2 GiB allow ⌊2^31 / (8 · 63)⌋ = 4,260,880. Before: numpy tried to allocate it (MemoryError)."""
    from corefreport.cli import example_paths

    key, resp = example_paths()
    res = runner.invoke(app, ["compare", key, f"a={resp}", f"b={resp}", "--bootstrap", "100000000", "-q"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert "100,000,000 resamples of 3 documents and 2 systems need about 46.9 GiB" in res.output
    assert "use at most 4,260,880" in res.output


def test_tui_without_a_terminal_exits_2():
    res = runner.invoke(app, ["tui", "--example"])
    assert res.exit_code == 2 and "interactive terminal" in res.output and "Traceback" not in res.output


def test_newline_in_title_stays_inside_the_latex_comment(tmp_path):
    out = tmp_path / "r.tex"
    res = runner.invoke(app, ["report", "--example", "-o", str(out), "--title", "My run\n\\input{/etc/passwd}", "-q"])
    assert res.exit_code == 0, res.output
    tex = out.read_text(encoding="utf-8")
    assert "% My run\\n\\input{/etc/passwd}" in tex  # the newline shown as \n, inside the comment
    main = (tmp_path / "r-main.tex").read_text(encoding="utf-8")
    for text in (tex, main):
        assert not any(line.startswith("\\input{/etc") for line in text.splitlines())


def _per_doc_output(columns: int | None, monkeypatch) -> tuple[str, dict]:
    """``score --example -m all --per-doc`` printed to a terminal of ``columns`` (None: a pipe)."""
    import json

    from corefreport.cli import example_paths
    from corefreport.io import load_corpus
    from corefreport.present.scoreview import print_evaluation
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.registry import ALL_METRICS
    from corefreport.scoring.settings import Settings

    data = json.loads(runner.invoke(app, ["score", "--example", "-m", "all", "--per-doc", "-f", "json", "-q"]).stdout)

    class Out(io.StringIO):
        def isatty(self) -> bool:
            return columns is not None

    if columns is not None:
        monkeypatch.setenv("COLUMNS", str(columns))
    key, response = example_paths()
    ev = evaluate(load_corpus(key, key=True), load_corpus(response), Settings(metrics=ALL_METRICS))
    out = Out()
    print_evaluation(ev, per_doc=True, file=out, color=False)
    return out.getvalue(), data


def test_per_doc_table_never_cuts_a_number_at_80_columns(monkeypatch):
    """Before: at 80 columns the 12-column per-document table showed 'LCEAF…', 'LCEA…' and folded
    document ids over three lines. Now the columns are printed in parts that fit, each repeating the
    document, and every per-document F1 of the JSON is on its document's line."""
    from corefreport.present.numbers import pct

    text, data = _per_doc_output(80, monkeypatch)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines() if not line.startswith("metrics:")) <= 80
    assert re.search(r"11 columns in [23] parts to fit 80 columns", text)
    for doc, scores in data["per_document"].items():
        lines = [line for line in text.splitlines() if line.strip().startswith(doc.split(";")[0])]
        shown = " ".join(lines)
        for m in ("muc", "bcub", "ceafe", "lceafm", "lceafe"):
            assert pct(scores["metrics"][m]["f1"]) in shown, (doc, m)


def test_per_doc_table_in_a_pipe_fits_100_columns(monkeypatch):
    """Issue 38: in a pipe or a file the table is cut into parts as on a 100-column terminal (it
    was one table at full width); -f csv gives one table."""
    from corefreport.present.numbers import pct

    text, data = _per_doc_output(None, monkeypatch)
    assert "…" not in text and re.search(r"11 columns in [23] parts to fit 100 columns", text)
    assert max(len(line) for line in text.splitlines() if not line.startswith("metrics:")) <= 100
    for doc, scores in data["per_document"].items():
        shown = " ".join(line for line in text.splitlines() if line.strip().startswith(doc.split(";")[0]))
        for m in ("muc", "bcub", "ceafe", "lceafm", "lceafe"):
            assert pct(scores["metrics"][m]["f1"]) in shown, (doc, m)


def test_markdown_escapes_user_strings(tmp_path):
    """Before: a document id 'a|b <i>' split its Markdown row into an extra cell and opened raw HTML."""
    doc = ("#begin document (a|b <i>); part 0\nx\t0\t0\tJohn\tNNP\t(1)\nx\t0\t1\tsaw\tVBD\t-\n"
           "x\t0\t2\thim\tPRP\t(1)\n#end document\n")
    key = tmp_path / "k.conll"
    key.write_text(doc, encoding="utf-8")
    res = runner.invoke(app, ["score", str(key), str(key), "-m", "muc", "-f", "markdown", "--per-doc", "-q"])
    assert res.exit_code == 0, res.output
    row = next(line for line in res.stdout.splitlines() if line.startswith("| a"))
    assert row.startswith(r"| a\|b &lt;i&gt;; part 0 |")
    cells = re.split(r"(?<!\\)\|", row)[1:-1]
    header = next(line for line in res.stdout.splitlines() if line.startswith("| document"))
    assert len(cells) == len(header.split("|")) - 2
    assert "100.00" in row


def test_an_interrupt_while_a_class_is_defined_still_exits_as_interrupted():
    """A SIGTERM that lands while a module defines a class (a dataclass field's ``__set_name__``,
    seen in a fresh clone, whose imports are slow) comes back from Python as a ``RuntimeError``
    whose cause is the handler's ``SystemExit(143)``: main reads the exit from the chain (exit 143,
    one line) instead of printing a traceback; any other error is not taken for an interrupt."""
    from corefreport.cli import _interrupted, interrupted_code

    class Field:
        def __set_name__(self, owner, name):
            _interrupted(15, None)

    with pytest.raises(Exception) as caught:
        type("Defined", (), {"x": Field()})
    assert not isinstance(caught.value, SystemExit)  # Python wraps it
    assert interrupted_code(caught.value) == 143
    assert interrupted_code(RuntimeError("no")) is None
    try:
        raise ValueError("other") from SystemExit(1)
    except ValueError as err:
        assert interrupted_code(err) is None
