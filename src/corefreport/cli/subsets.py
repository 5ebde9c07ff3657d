"""The groupings of documents ``score`` asks for: ``--subsets`` values (``genre``,
``length[:EDGES]``, or a TSV file read by :func:`corefreport.io.groups.read_groups`) and the
document groupings among ``--by`` when no analysis takes them."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError, SettingsError
from ..scoring.options import document_grouping
from ..scoring.settings import Settings
from .build import fail


def groupings_of(specs: list[str], settings: Settings) -> list:
    """The :class:`~corefreport.scoring.subsets.Grouping` of each spec, then of ``--by genre`` /
    ``--by length`` (each once); a bad spec is an error (exit 2)."""
    from ..scoring.subsets import DOCUMENT_GROUPINGS, grouping

    names = list(dict.fromkeys([*specs, *(f for f in settings.by if document_grouping(f))]))
    out = []
    for spec in names:
        try:
            if spec.partition(":")[0] in DOCUMENT_GROUPINGS:
                out.append(grouping(spec))
            elif Path(spec).is_file():
                from ..io.groups import read_groups

                out.append(grouping(Path(spec).stem, read_groups(spec)))
            else:
                fail(f"--subsets takes genre, length[:EDGES] or a file of DOC_ID<TAB>GROUP lines; {spec!r} is none "
                     "of them")
        except (InputError, SettingsError) as err:
            fail(str(err))
    return out
