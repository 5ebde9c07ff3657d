"""PDF by WeasyPrint from the report's HTML (CSS paged media: A4, page numbers, repeated table
headers, rows never split), with reproducible bytes: a fixed document identifier derived from the
HTML and a fixed timestamp for the font subsets.

Fonts come from Debian packages: ``fonts-texgyre`` (TeX Gyre Termes, Cursor); without it the
stylesheet falls back to DejaVu Serif / DejaVu Sans Mono (preinstalled). ``libharfbuzz-subset0``
makes font subsetting several times faster (WeasyPrint falls back to fontTools without it).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from .html import to_html
from .model import Report


def render_pdf(html: str, progress: Callable[[str], None] | None = None) -> bytes:
    """The PDF bytes of an HTML report."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # "HarfBuzz-Subset will be required…"
        from weasyprint import HTML

    say = progress or (lambda _m: None)
    say("laying out the PDF pages…")
    doc = HTML(string=html).render()
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


def to_pdf(report: Report, path: Path | None = None, progress: Callable[[str], None] | None = None) -> bytes:
    """PDF bytes of ``report`` (the same HTML with paged-media rules); written to ``path`` if given."""
    data = render_pdf(to_html(report, pdf=True), progress)
    if path is not None:
        Path(path).write_bytes(data)
    return data
