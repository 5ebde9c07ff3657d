"""The report's structure: a :class:`Report` of :class:`Section` s, each a list of blocks — neutral
tables (:class:`~corefreport.present.tables.Table`), charts (:class:`~.svg.Chart`) and paragraphs
(:class:`Para`) in reading order. :mod:`.model` and :mod:`.errors` build them; HTML, PDF and LaTeX
render them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..version import __version__
from ..present import tables as T
from . import svg


@dataclass(slots=True)
class Para:
    """A paragraph; ``kind``: "" (text), "note", "warning", "sig" (monospace), "ref" (a reference)."""

    text: str
    kind: str = ""


@dataclass(slots=True)
class Section:
    id: str
    title: str
    blocks: list = field(default_factory=list)  # T.Table | svg.Chart | Para, in reading order

    @property
    def tables(self) -> list[T.Table]:
        return [b for b in self.blocks if isinstance(b, T.Table)]

    @property
    def charts(self) -> list[svg.Chart]:
        return [b for b in self.blocks if isinstance(b, svg.Chart)]

    @property
    def text(self) -> list[str]:
        return [b.text for b in self.blocks if isinstance(b, Para)]


@dataclass(slots=True)
class Report:
    title: str
    subtitle: str
    signature: str
    sections: list[Section]
    notes: list[str] = field(default_factory=list)
    """What was left out, and why (an analysis not computed, documents cut from the PDF)."""
    date: str = ""
    version: str = __version__
    cites: list[str] = field(default_factory=list)
    """Every paper the report cites, as keys of the registry's references (its BibTeX: :attr:`bibtex`)."""

    @property
    def bibtex(self) -> str:
        """The BibTeX of every cited paper (the registry's entries)."""
        from ..scoring.registry import bibtex

        return bibtex(self.cites)

    def section(self, sid: str) -> Section | None:
        return next((s for s in self.sections if s.id == sid), None)
