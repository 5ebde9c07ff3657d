"""PDF by WeasyPrint from the report's HTML (CSS paged media: A4, page numbers, repeated table
headers, rows never split), with reproducible bytes: a fixed document identifier derived from the
HTML and a fixed timestamp for the font subsets.

Fonts come from Debian packages: ``fonts-texgyre`` (TeX Gyre Termes, Cursor); without it the
stylesheet falls back to DejaVu Serif / DejaVu Sans Mono (preinstalled). ``libharfbuzz-subset0``
makes font subsetting several times faster (WeasyPrint falls back to fontTools without it).

Speed, with the same bytes: WeasyPrint is imported in a child forked before scoring
(:class:`PdfChild`, :func:`_prepare`); its user-agent stylesheet is cascaded without the
pseudo-element rules the report never uses (:func:`report_ua_stylesheet`). The latter changes
WeasyPrint's private objects: ``pyproject.toml`` pins WeasyPrint 70.x, ``tests/test_report_pdf.py``
fails when they move, and docs/upstream.md proposes the fix to WeasyPrint.
"""

from __future__ import annotations

import gc
import hashlib
import os
import re
import signal
import weakref
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from . import svg
from .html import chart_svg, to_html
from .model import Report


UNUSED_UA_RULES = re.compile(r"^::(?:footnote|note)-(?:call|marker|callback) \{[^{}]*\}\n", re.M)
"""WeasyPrint's user-agent rules for footnote and note pseudo-elements: the report has neither."""
UNIVERSAL_MARKER = re.compile(r"^::marker \{", re.M)
"""WeasyPrint's user-agent rule for the ``::marker`` of every element: only ``li`` is a list item."""


@lru_cache(maxsize=1)
def report_ua_stylesheet():
    """WeasyPrint's user-agent stylesheet for the report's HTML, or None to keep WeasyPrint's own.

    Its universal rules ``::marker``, ``::footnote-call``, ``::footnote-marker``, ``::note-call``,
    ``::note-marker`` and ``::note-callback`` give every element six pseudo-element styles to
    cascade and compute (18,000 for the 300-document PDF, a quarter of its layout time); the report
    has no footnote or note and no list item but ``li`` (``report.css`` sets neither ``float:
    footnote`` nor ``display: list-item``, tested). The same stylesheet with the five footnote and
    note rules left out and the marker rule for ``li`` only lays the report out to the same bytes
    (tested). WeasyPrint's stylesheet is read where it is installed and changed here, never copied;
    when it does not hold exactly these rules, it is kept as it is."""
    from weasyprint import CSS
    from weasyprint import html as ua

    text = getattr(ua, "UA", None)
    if not isinstance(text, str) or getattr(ua, "UA_COUNTER_STYLE", None) is None:
        return None
    text, removed = UNUSED_UA_RULES.subn("", text)
    text, markers = UNIVERSAL_MARKER.subn("li::marker {", text)
    if removed != 5 or markers != 1:
        return None
    return CSS(string=text, counter_style=ua.UA_COUNTER_STYLE)


def report_html(html: str):
    """A ``weasyprint.HTML`` of the report's HTML that cascades :func:`report_ua_stylesheet`."""
    from weasyprint import HTML

    class ReportHTML(HTML):
        def _ua_stylesheets(self, *args, **kwargs):
            sheets = super()._ua_stylesheets(*args, **kwargs)
            from weasyprint import html as ua

            ours = report_ua_stylesheet()
            if ours is None or not isinstance(sheets, list):
                return sheets
            return [ours if sheet is getattr(ua, "UA_STYLESHEET", None) else sheet for sheet in sheets]

    return ReportHTML(string=html)


def render_pdf(html: str, progress: Callable[[str], None] | None = None) -> bytes:
    """The PDF bytes of an HTML report."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # "HarfBuzz-Subset will be required…"
        import weasyprint  # noqa: F401 - imported here with its warning silenced

    say = progress or (lambda _m: None)
    say("laying out the PDF pages…")
    doc = report_html(html).render()
    say(f"writing {len(doc.pages)} PDF pages…")
    ident = hashlib.sha256(html.encode("utf-8")).hexdigest()[:32].encode()
    # fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH is set
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = old or "1700000000"
    try:
        return doc.write_pdf(pdf_identifier=ident)
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]


class PdfChild:
    """WeasyPrint in a forked child, started before the corpora are read: importing it (~0.5 s, most
    of it cffi parsing Pango's declarations) then runs on a second core while this process reads
    and scores. :meth:`render` sends the HTML through a pipe and receives the PDF that
    :func:`render_pdf` made of it in the child — the same function on the same text, so the same
    bytes. Fork before any thread starts. A child that is not used (an error stopped the report)
    is killed by :meth:`cancel`, or when this object is collected."""

    def __init__(self) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the child (coverage does not follow it)
            os.close(to_child_w)
            os.close(from_child_r)
            # nothing of the parent's terminal or pipes: a child left waiting delays no one who
            # reads the parent's output to its end
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            try:
                _serve(to_child_r, from_child_w)
            finally:
                os._exit(0)
        os.close(to_child_r)
        os.close(from_child_w)
        self._fds = (to_child_w, from_child_r)
        self._end = weakref.finalize(self, _end_child, self.pid, self._fds)

    def render(self, html: str, progress: Callable[[str], None] | None = None) -> bytes:
        """The PDF of ``html``, laid out in the child (in this process if the child is gone)."""
        say = progress or (lambda _m: None)
        say("laying out the PDF pages…")
        if not self._end.detach():  # cancelled, or used already
            return render_pdf(html, progress)
        to_child, from_child = self._fds
        reply = b""
        try:
            with os.fdopen(to_child, "wb") as out:
                to_child = -1
                out.write(html.encode("utf-8"))
            with os.fdopen(from_child, "rb") as back:
                from_child = -1
                reply = back.read()
        except OSError:  # the child died: lay it out here
            reply = b""
        finally:
            _close(to_child, from_child)
            _reap(self.pid)
        if reply[:1] == b"0":
            return reply[1:]
        if reply[:1] == b"1":
            raise RuntimeError(f"PDF layout failed: {reply[1:].decode('utf-8', 'replace')}")
        return render_pdf(html, progress)

    def cancel(self) -> None:
        """Kill the child unless :meth:`render` used it (calling it again does nothing)."""
        self._end()


def _close(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            try:
                os.close(fd)
            except OSError:
                pass


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _end_child(pid: int, fds: tuple[int, int]) -> None:
    """Close the pipes of an unused child, kill it and collect its status."""
    _close(*fds)
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    _reap(pid)


def _prepare() -> None:  # pragma: no cover - runs in the child
    """Import WeasyPrint in a thread, while the child reads the HTML the parent sends when it has
    scored."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import weasyprint  # noqa: F401 - the import is the work done ahead


def _serve(html_fd: int, pdf_fd: int) -> None:  # pragma: no cover - runs in the child
    """The child: import WeasyPrint (:func:`_prepare`, in a thread) while it reads the HTML until
    the parent closes the pipe, then send back ``b"0" + PDF`` (or ``b"1" + the error``); nothing
    when the parent closed without HTML. The cyclic collector stays off for the child's short life
    (it ends by ``os._exit``): turned on after the layout, its first collection would walk every
    object WeasyPrint made (~30 ms) before the PDF is sent."""
    import threading

    gc.disable()
    preparing = threading.Thread(target=_prepare, name="corefreport-pdf-import", daemon=True)
    preparing.start()
    with os.fdopen(html_fd, "rb") as src:
        html = src.read()
    if not html:
        return
    preparing.join()
    try:
        reply = b"0" + render_pdf(html.decode("utf-8"))
    except BaseException as err:  # noqa: BLE001 - reported by the parent
        reply = b"1" + f"{type(err).__name__}: {err}".encode("utf-8")
    with os.fdopen(pdf_fd, "wb") as out:
        out.write(reply)


def pdf_child() -> PdfChild | None:
    """A :class:`PdfChild` when a second core can take WeasyPrint's import (:func:`os.fork` exists
    and a core besides this process's is idle now, :func:`corefreport.forking.idle_cores`), else None
    (render in-process; on an idle 2-core machine the child made the 300-document PDF 0.90× as long).
    ``COREFREPORT_PDF_CHILD=1`` / ``0`` forces it on / off."""
    force = os.environ.get("COREFREPORT_PDF_CHILD")
    if not hasattr(os, "fork") or force == "0":
        return None
    if force != "1":
        from ..forking import idle_cores

        if idle_cores() < 2:  # this process takes one of the idle cores
            return None
    return PdfChild()


def to_pdf(report: Report, path: Path | None = None, progress: Callable[[str], None] | None = None,
           child: PdfChild | None = None) -> bytes:
    """PDF bytes of ``report`` (the same HTML with paged-media rules); written to ``path`` if given.
    ``child``: a :class:`PdfChild` started earlier lays it out (the same bytes)."""
    html = to_html(report, pdf=True)
    data = child.render(html, progress) if child is not None else render_pdf(html, progress)
    if path is not None:
        Path(path).write_bytes(data)
    return data


def figure_files(report: Report, pdf: bool = True) -> dict[str, bytes]:
    """``figure-N.svg`` (and ``figure-N.pdf`` by WeasyPrint, page = the chart's size) for each chart
    of the report, numbered as in the report."""
    out: dict[str, bytes] = {}
    charts = [c for s in report.sections for c in s.charts]
    for i, c in enumerate(charts, 1):
        text = chart_svg(c)
        out[f"figure-{i}.svg"] = text.encode("utf-8")
        if pdf:
            full = svg.with_legend(c)
            page = (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>@page {{ size: {full.width}px '
                    f'{full.height}px; margin: 0 }} body {{ margin: 0 }} svg {{ display: block }}</style></head>'
                    f'<body>{text.split("?>", 1)[1]}</body></html>')
            out[f"figure-{i}.pdf"] = render_pdf(page)
    return out
