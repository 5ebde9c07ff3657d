"""The PDF report: the text of every section, extracted with pypdf, carries the JSON's numbers;
bytes are reproducible; fonts are the report's own (TeX Gyre from fonts-texgyre, or DejaVu when it
is missing — never a mix of strays); pages render as images (poppler's pdftoppm) for a look by eye.

Set COREFREPORT_PAGES=DIR to keep the page images of the example report in DIR."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from test_report_model import example

from corefreport.present.labels import METRIC_LABELS
from corefreport.report.document import render

pypdf = pytest.importorskip("pypdf")


@lru_cache(maxsize=1)
def example_pdf() -> bytes:
    return render(example(), "pdf")


@lru_cache(maxsize=1)
def pdf_text() -> str:
    import io

    reader = pypdf.PdfReader(io.BytesIO(example_pdf()))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def pct(x: float) -> str:
    return f"{100 * x:.2f}"


def count(x) -> str:
    return f"{int(x)}" if float(x).is_integer() else f"{x:.2f}"


def rpf(d: dict) -> str:
    return f"{pct(d['recall'])} {pct(d['precision'])} {pct(d['f1'])}"


def test_corpus_section_matches_the_json():
    d = example().as_dict()
    text = pdf_text()
    for side in ("key", "response"):
        c = d["corpus"][side]
        assert f"{side} {c['documents']} {c['mentions']} {c['chains']} {c['singletons']}" in text


def test_standard_metrics_section_matches_the_json():
    d = example().as_dict()["metrics"]
    text = pdf_text()
    headline = " ".join(rpf(d[m]) for m in ("muc", "bcub", "ceafe")) + f" {pct(d['conll']['f1'])}"
    assert f"xrenner_response {headline}" in text
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        m = d[name]
        row = f"{METRIC_LABELS[name]} {rpf(m)} {count(m['recall_num'])} {m['recall_den']} " \
              f"{count(m['precision_num'])} {m['precision_den']}"
        assert row in text, row
    assert f"BLANC {rpf(d['blanc'])}" in text
    assert f"CoNLL {pct(d['conll']['f1'])}" in text


def test_linguistic_section_matches_the_json():
    d = example().as_dict()["metrics"]
    text = pdf_text()
    for name in ("lmuc", "lbcub", "lceafm", "lceafe"):
        assert f"{METRIC_LABELS[name]} {rpf(d[name])}" in text, name
    assert "W = (1, 0.75, 0.5, 1)" in text


def test_arcs_section_matches_the_json():
    d = example().as_dict()["arcs"]
    text = pdf_text()
    for name, label in (("immediate", "ARCS 1: immediate antecedent"),
                        ("inferred", "ARCS 2: closest preceding nominal antecedent"),
                        ("anchor", "ARCS 3: anchor (first nominal) mention")):
        x = d[name]["total"]
        acc = "" if name == "anchor" else " " + pct(x["accuracy"])  # EM has no WL: no accuracy
        assert f"{label} {x['tp']} {x['wl']} {x['fn']} {x['fp']} {rpf(x)}{acc}" in text, name
    for n, short in (("immediate", "ARCS 1"), ("inferred", "ARCS 2"), ("anchor", "ARCS 3")):
        x, t = d[n]["by"]["mtype"]["NOMINAL"], d[n]["total"]
        k = x["tp"] + x["wl"] + x["fn"]
        share = pct(k / (t["tp"] + t["wl"] + t["fn"]))
        assert f"NOMINAL {short} {x['tp']} {x['wl']} {x['fn']} {x['fp']} {k} {share} {rpf(x)}" in text, n
    assert f"total {rpf(d['anchor']['ed'])} {rpf(d['anchor']['em'])} {pct(d['anchor']['f_phi'])}" in text


def test_typed_section_matches_the_json():
    d = example().as_dict()["typed"]
    text = pdf_text()
    for c, v in d["classes"].items():
        counts = " ".join(str(v[h]) for h in ("tp", "wt", "wl", "wtl", "fn", "fp", "s_star"))
        assert f"{c} ({v['name']}) {counts} {pct(v['precision'])} {pct(v['recall'])} {pct(v['f1'])}" in text, c
    for t, v in d["types"].items():
        counts = " ".join(str(v[h]) for h in ("tp", "wt", "wl", "wtl", "fn", "fp", "s_star"))
        assert f"{t} {counts}" in text, t
    for key, label in (("micro", "micro"), ("macro", "macro"), ("scheme_coverage", "scheme coverage")):
        x = d[key]
        assert f"{label} {pct(x['precision'])} {pct(x['recall'])} {pct(x['f1'])}" in text, key


def test_documents_section_matches_the_json():
    pd = example().as_dict(per_doc=True)["per_document"]
    text = pdf_text()
    for doc, v in pd.items():
        m = v["metrics"]
        f1s = " ".join(pct(m[n]["f1"]) for n in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"))
        row = (f"{doc} {v['mentions']['recall_den']} {v['mentions']['precision_den']} {f1s} "
               f"{pct(m['conll']['f1'])} {pct(v['mentions']['f1'])}")
        # a long document id may be hyphenated across lines in its narrow column: compare without spaces
        assert row.replace(" ", "") in text.replace(" ", ""), row
    worst = min(pd, key=lambda k: pd[k]["metrics"]["conll"]["f1"])
    flat = text.replace(" ", "").split("Per-documentscores,worst", 1)[1]  # document ids also label the examples
    assert flat.index(worst.replace(" ", "")) < min(flat.index(k.replace(" ", "")) for k in pd if k != worst)


def test_methods_section_states_the_signature_and_references():
    ev = example()
    text = pdf_text()
    assert str(ev.signature) in text.replace(" ", "")
    for cite in ("Vilain", "Bagga", "Luo", "Moosavi", "Pradhan", "Chen", "Tuggener", "itkus"):
        assert cite in text.split("References", 1)[1], cite


def test_pdf_bytes_are_reproducible():
    assert render(example(), "pdf") == example_pdf()


def test_page_setup_a4_numbers_and_outline():
    import io

    reader = pypdf.PdfReader(io.BytesIO(example_pdf()))
    n = len(reader.pages)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    assert f"Page 1 of {n}" in reader.pages[0].extract_text()
    assert f"Page {n} of {n}" in reader.pages[-1].extract_text()
    title, sections = reader.outline[0], reader.outline[1]
    assert title.title == example_title()
    assert [o.title for o in sections if not isinstance(o, list)] == [
        "1 Summary", "2 Corpus", "3 Standard metrics", "4 Linguistically aware metrics",
        "5 Application scenarios (ARCS)", "6 Type-aware evaluation", "7 Error examples", "8 Per-document scores", "9 Methods"]


def example_title() -> str:
    from corefreport.report.document import build

    return build(example()).title


def embedded_fonts(pdf: Path) -> set[str]:
    out = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    return {line.split()[0].split("+", 1)[-1] for line in out.splitlines()[2:] if line.strip()}


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (poppler-utils) is not installed")
def test_only_the_reports_own_fonts_are_embedded(tmp_path):
    out = tmp_path / "r.pdf"
    out.write_bytes(example_pdf())
    fonts = embedded_fonts(out)
    texgyre = {"TeX-Gyre-Termes", "TeX-Gyre-Termes-Bold", "TeX-Gyre-Cursor"}
    dejavu = {"DejaVu-Serif", "DejaVu-Serif-Bold", "DejaVu-Sans-Mono"}
    assert fonts <= texgyre or fonts <= dejavu, fonts


FALLBACK = """import sys
from pathlib import Path
from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.report.document import write_report
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings
k, r = example_paths()
ev = evaluate(load_corpus(k), load_corpus(r), Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))
write_report(ev, Path(sys.argv[1]))
"""


@pytest.mark.skipif(shutil.which("pdffonts") is None or not Path("/usr/share/fonts/truetype/dejavu").is_dir(),
                    reason="needs pdffonts and Debian's DejaVu fonts")
def test_without_texgyre_everything_falls_back_to_dejavu(tmp_path):
    """A fontconfig that knows DejaVu only: the whole report is in DejaVu Serif (and Sans Mono)."""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>'
                    f"<dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{tmp_path / 'cache'}</cachedir>"
                    "</fontconfig>\n")
    out = tmp_path / "r.pdf"
    subprocess.run([sys.executable, "-c", FALLBACK, str(out)], check=True, timeout=300,
                   env=os.environ | {"FONTCONFIG_FILE": str(conf)})
    assert embedded_fonts(out) <= {"DejaVu-Serif", "DejaVu-Serif-Bold", "DejaVu-Sans-Mono"}


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
def test_pages_render_as_images(tmp_path):
    """One PNG per page at 60 dpi (look at them: COREFREPORT_PAGES=DIR keeps them)."""
    import io

    keep = os.environ.get("COREFREPORT_PAGES")
    where = Path(keep) if keep else tmp_path
    where.mkdir(parents=True, exist_ok=True)
    pdf = where / "example.pdf"
    pdf.write_bytes(example_pdf())
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf), str(where / "page")], check=True)
    pages = sorted(where.glob("page-*.png"))
    assert len(pages) == len(pypdf.PdfReader(io.BytesIO(example_pdf())).pages)
    for p in pages:
        head = p.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert abs(w - 496) <= 1 and abs(h - 702) <= 1  # A4 at 60 dpi


@pytest.mark.skipif(not os.environ.get("COREFREPORT_BENCH"), reason="set COREFREPORT_BENCH=1 (about a minute)")
def test_full_pdf_of_the_300_document_benchmark_in_under_10_s(tmp_path):
    """The speed goal: `corefreport report` on bench/make_pair.py's 300-document pair, whole process."""
    import time

    root = Path(__file__).resolve().parents[1]
    subprocess.run([sys.executable, str(root / "bench" / "make_pair.py"), "--docs", "300", "--tokens", "500",
                    "--out", str(tmp_path / "base")], check=True)
    key, resp = sorted(p for p in tmp_path.iterdir() if p.name.startswith("base"))
    exe = Path(sys.executable).with_name("corefreport")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "corefreport.cli"]
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        subprocess.run(cmd + ["report", str(key), str(resp), "-o", str(tmp_path / "r.pdf"), "--force", "-q"],
                       check=True)
        best = min(best, time.perf_counter() - t)
    assert best < 10, f"{best:.1f} s"


def test_trimmed_user_agent_stylesheet_lays_the_report_out_to_the_same_bytes(monkeypatch) -> None:
    """report/pdf.report_ua_stylesheet leaves out WeasyPrint's footnote and note pseudo-element rules
    and keeps ::marker for li only (a quarter of the layout time): the example report's PDF is
    the same file as with WeasyPrint's own user-agent stylesheet."""
    import corefreport.report.pdf as P
    from corefreport.report.html import to_html
    from corefreport.report.model import build

    # pinned (pyproject.toml: WeasyPrint 70.x): the trim must be active, else this fails loudly
    assert P.report_ua_stylesheet() is not None, "WeasyPrint's user-agent stylesheet moved: see docs/upstream.md"
    assert "_ua_stylesheets" in vars(P.report_html("<p>x</p>").__class__.__mro__[1]), \
        "WeasyPrint's HTML._ua_stylesheets moved: see docs/upstream.md"
    html = to_html(build(example(), pdf=True), pdf=True)
    assert "<ol" in html and "<li" in html  # list markers are drawn
    ours = P.render_pdf(html)
    monkeypatch.setattr(P, "report_ua_stylesheet", lambda: None)
    assert P.render_pdf(html) == ours


def test_report_css_uses_no_footnote_note_or_other_list_item() -> None:
    """What the trimmed user-agent stylesheet relies on: the stylesheet and templates never make a
    footnote, a note or a list item of anything but li."""
    from importlib import resources

    base = resources.files("corefreport") / "templates"
    text = "\n".join((base / f).read_text(encoding="utf-8") for f in ("report.css", "report.html.j2", "_macros.html.j2"))
    for needle in ("footnote", "list-item", "::marker", "note-call", "note-marker", "note-callback", "float: note"):
        assert needle not in text, needle


# the PDF's fixed table layout -------------------------------------------------------------------

def laid_out(html: str):
    """WeasyPrint's laid-out document of ``html`` (the report's own user-agent stylesheet)."""
    from corefreport.report.pdf import report_html

    return report_html(html).render()


def table_cells(doc):
    """(table box, [(cell box, [text boxes])]) for every table on every page of a laid-out document."""
    from weasyprint.formatting_structure import boxes

    for page in doc.pages:
        for table in page._page_box.descendants():
            if isinstance(table, boxes.TableBox):
                cells = [(c, [t for t in c.descendants() if isinstance(t, boxes.TextBox)])
                         for c in table.descendants() if isinstance(c, boxes.TableCellBox)]
                yield table, cells


def check_cells_fit(doc) -> int:
    """Every text of every table cell lies inside its cell's content box (WeasyPrint's own glyph
    widths, Pango and HarfBuzz, against the column widths the report computed), each number and
    header on one line, every table within the page's text width; the number of cells seen."""
    from weasyprint.formatting_structure import boxes

    from corefreport.report.html import TEXT_WIDTH_PT

    seen = 0
    for table, cells in table_cells(doc):
        assert table.width * 0.75 <= TEXT_WIDTH_PT + 0.05, f"table {table.width * 0.75:.1f} pt wide"
        for cell, texts in cells:
            seen += 1
            left, right = cell.content_box_x(), cell.content_box_x() + cell.width
            for t in texts:
                assert left - 0.01 <= t.position_x and t.position_x + t.width <= right + 0.01, \
                    f"{t.text!r} overflows its cell by {(t.position_x + t.width - right) * 0.75:.2f} pt"
            lines = [b for b in cell.descendants() if isinstance(b, boxes.LineBox)]
            if cell.element_tag == "th" or "n" in (cell.element.get("class") or "").split():
                assert len(lines) <= 1, f"{' '.join(t.text for t in texts)!r} wraps"
    return seen


def test_pdf_table_columns_hold_their_widest_cells():
    """The fixed layout's widths (report/html.column_widths) hold every cell as WeasyPrint sets it:
    the example report (every section) and a comparison report (a table per system)."""
    from test_report_paper import pair

    from corefreport.report.html import to_html
    from corefreport.report.model import build

    evs, cmp = pair()
    for report in (build(example(), pdf=True), build(evs["oracle"], comparison=cmp, systems=evs, pdf=True)):
        html = to_html(report, pdf=True)
        assert html.count('<table class="data fixed') == html.count("<table") > 5
        assert check_cells_fit(laid_out(html)) > 300


def check_wide_table(columns: int = 8) -> None:
    """Eight number columns and long labels: the first column gives way (its labels wrap) so that
    the table keeps within the text width; numbers and headers stay on one line (laid out by
    WeasyPrint); a group label wider than its columns widens them. Eight, not ten: ten columns of
    "1234.56" are wider than the page in DejaVu Serif (45.6 pt each) whatever the first column does."""
    from corefreport.present import tables as T
    from corefreport.report import svg
    from corefreport.report.html import TEXT_WIDTH_PT, environment, table_view

    assert svg.advances()[0] and svg.advances(True)[0], "no report face found: the widths are WeasyPrint's"
    long = "a rather long row label that names a group of mentions in some detail " * 2
    t = T.Table("wide", ["label"] + [f"c{i}" for i in range(columns)],
                [[f"{long} {i}"] + [1234.56 + i] * columns for i in range(3)],
                groups=[("Group label", 1), ("", columns - 1)])
    widths = table_view(t, pdf=True)["widths"]
    assert len(widths) == columns + 1
    assert sum(widths) <= TEXT_WIDTH_PT
    assert widths[1] > max(widths[2:])  # widened for its group label
    env = environment()
    css = env.get_template("report.css").render()
    body = env.get_template("_macros.html.j2").module.table(t, 1, True)
    doc = laid_out(f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}</style></head>'
                   f'<body class="paged">{body}</body></html>')
    assert check_cells_fit(doc) == (columns + 1) * 3 + 3 + columns
    from weasyprint.formatting_structure import boxes

    (_table, cells), = table_cells(doc)
    stub = [c for c, _ in cells if c.element_tag == "td" and "n" not in (c.element.get("class") or "")]
    assert all(len([b for b in c.descendants() if isinstance(b, boxes.LineBox)]) > 1 for c in stub)


def test_a_table_wider_than_the_page_wraps_its_labels_not_its_numbers():
    """In whatever face this machine's fontconfig finds first (TeX Gyre Termes, else DejaVu Serif)."""
    from corefreport.report import svg

    if not (svg.advances()[0] and svg.advances(True)[0]):
        pytest.skip("no report face (TeX Gyre Termes / DejaVu Serif) found by fontconfig")
    check_wide_table()


WIDE_WITH_DEJAVU = """import sys
sys.path.insert(0, sys.argv[1])
from test_report_pdf import check_wide_table
from corefreport.report.svg import advances
assert advances()[0] == advances(True)[0] == "DejaVu Serif", (advances()[0], advances(True)[0])
check_wide_table()
print("ok")
"""


def dejavu_only(tmp_path: Path) -> dict:
    """The environment of a process whose fontconfig knows Debian's DejaVu fonts only (a machine
    without TeX Gyre), its cache in ``tmp_path``."""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>'
                    f"<dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{tmp_path / 'cache'}</cachedir>"
                    "</fontconfig>\n")
    return os.environ | {"FONTCONFIG_FILE": str(conf)}


@pytest.mark.skipif(not Path("/usr/share/fonts/truetype/dejavu").is_dir(), reason="needs Debian's DejaVu fonts")
def test_the_wide_table_wraps_its_labels_with_dejavu_only(tmp_path):
    """The same check on a machine with only DejaVu fonts (wider than Termes), in a process whose
    fontconfig knows nothing else."""
    out = subprocess.run([sys.executable, "-c", WIDE_WITH_DEJAVU, str(Path(__file__).parent)],
                         capture_output=True, text=True, timeout=300, env=dejavu_only(tmp_path))
    assert out.returncode == 0 and out.stdout.split()[-1] == "ok", out.stderr[-2000:]


def test_the_font_widths_follow_the_fontconfig_setting(tmp_path, monkeypatch):
    """svg.advances() is cached per fontconfig setting, not once per process: a changed
    FONTCONFIG_FILE gives the face that setting finds, and the first setting's face again after;
    a failed fc-match (a timeout) is not remembered."""
    import subprocess as sp

    from corefreport.report import svg

    first = svg.advances()
    if not first[0] or not Path("/usr/share/fonts/truetype/dejavu").is_dir():
        pytest.skip("needs a report face and Debian's DejaVu fonts")
    monkeypatch.setenv("FONTCONFIG_FILE", dejavu_only(tmp_path)["FONTCONFIG_FILE"])
    assert svg.advances()[0] == "DejaVu Serif"
    monkeypatch.undo()
    assert svg.advances() == first
    path = os.environ.get("PATH", "") + os.pathsep
    monkeypatch.setenv("PATH", path)  # a setting not seen yet (the same fc-match): it runs again

    def timed_out(*args, **kw):
        raise sp.TimeoutExpired(args[0], 20)

    monkeypatch.setattr(sp, "run", timed_out)
    assert svg.advances() == ("", {})
    monkeypatch.undo()
    monkeypatch.setenv("PATH", path)
    assert svg.advances() == first  # asked again, not the failure remembered
    monkeypatch.undo()


def test_advance_widths_are_those_weasyprint_lays_out():
    """report/svg.advance_width (the font's hmtx advances, regular or bold) against the widths
    WeasyPrint gives the same texts in the example PDF's tables: never short by more than what
    html.FIT adds, and within 0.5 % for half of them (kerning only narrows a text)."""
    from corefreport.report.html import FIT, to_html
    from corefreport.report.model import build
    from corefreport.report.svg import advance_width, advances

    if not advances()[0] or not advances(True)[0]:
        pytest.skip("no report face (TeX Gyre Termes / DejaVu Serif) found by fontconfig")
    ratios = []
    for _table, cells in table_cells(laid_out(to_html(build(example(), pdf=True), pdf=True))):
        for _cell, texts in cells:
            for t in texts:
                if t.text.strip():
                    ours = advance_width(t.text, t.style["font_size"] * 0.75, t.style["font_weight"] >= 600)
                    ratios.append(t.width * 0.75 / ours)
    ratios.sort()
    assert len(ratios) > 300
    assert ratios[-1] <= FIT
    assert abs(ratios[len(ratios) // 2] - 1) < 0.005
    assert ratios[0] > 0.9


def test_without_a_face_found_the_pdf_tables_size_themselves(monkeypatch):
    """When fontconfig finds neither TeX Gyre Termes nor DejaVu Serif, no width is guessed (an
    estimate can fall short of the face WeasyPrint then uses): WeasyPrint's automatic layout."""
    from corefreport.report import svg
    from corefreport.report.html import to_html
    from corefreport.report.model import build

    monkeypatch.setattr(svg, "advances", lambda bold=False: ("", {}))
    html = to_html(build(example(), pdf=True), pdf=True)
    assert 'class="data fixed' not in html and "<colgroup>" not in html
    assert '<table class="data keep">' in html
    assert check_cells_fit(laid_out(html)) > 300


FIT_WITH_DEJAVU = """import sys
sys.path.insert(0, sys.argv[1])
from test_report_model import example
from test_report_pdf import check_cells_fit, laid_out
from corefreport.report.html import to_html
from corefreport.report.model import build
from corefreport.report.svg import advances
assert advances()[0] == advances(True)[0] == "DejaVu Serif", (advances()[0], advances(True)[0])
html = to_html(build(example(), pdf=True), pdf=True)
assert html.count('<table class="data fixed') == html.count("<table")
print(check_cells_fit(laid_out(html)))
"""


@pytest.mark.skipif(not Path("/usr/share/fonts/truetype/dejavu").is_dir(), reason="needs Debian's DejaVu fonts")
def test_pdf_table_columns_hold_their_cells_in_dejavu_too(tmp_path):
    """A fontconfig that knows DejaVu only: the widths come from DejaVu Serif's advances (wider than
    Termes') and still hold every cell as WeasyPrint lays it out in DejaVu."""
    conf = tmp_path / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>'
                    f"<dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>{tmp_path / 'cache'}</cachedir>"
                    "</fontconfig>\n")
    out = subprocess.run([sys.executable, "-c", FIT_WITH_DEJAVU, str(Path(__file__).parent)],
                         capture_output=True, text=True, timeout=300, env=os.environ | {"FONTCONFIG_FILE": str(conf)})
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.split()[-1]) > 300
