"""Display labels: metric labels come from the registry (their one home); this module adds the
names of features, analyses and POS groups that tables and charts show.

>>> METRIC_LABELS["bcub"], LATEX_LABELS["bcub"], group_name("PRP")
('B³', 'B$^3$', 'personal pronouns (PRP)')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from ..scoring.registry import REGISTRY, RowNames


class MetricNames(Mapping):
    """One attribute of every :class:`~corefreport.scoring.registry.Metric` by key (``label``,
    ``latex``), and ``typed`` for the typed micro score: a live view of the registry, so a metric
    :func:`~corefreport.scoring.registry.register_metric` adds is named in every view."""

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute

    def __getitem__(self, key: str) -> str:
        if key == "typed":
            return "typed micro"
        return getattr(REGISTRY[key], self.attribute)

    def __iter__(self) -> Iterator[str]:
        return iter([*REGISTRY, "typed"])

    def __len__(self) -> int:
        return len(REGISTRY) + 1


METRIC_LABELS = MetricNames("label")
"""Plain labels by metric key (and ``typed`` for the typed micro score)."""
LATEX_LABELS = MetricNames("latex")

COUNT_COLUMNS = ("tp", "wt", "wl", "wtl", "fn", "fp", "s_star")
"""Table columns that hold outcome counts."""

SHORT_ANALYSIS = RowNames("short")
"""Short names of the outcome-row analyses (the registry's :class:`RowAnalysis`)."""
ROW_LABELS = RowNames("label")
"""Names of the outcome-row analyses that fit an 80-column table."""

FEATURES = {
    "mtype": ("Mention type", "mention type"), "pos_class": ("POS class", "POS class"),
    "pronoun": ("Pronoun lemma", "pronoun"), "ne": ("NE type", "NE type"), "genre": ("Genre", "genre"),
    "match": ("Matched by", "match"), "cls": ("class", "class"), "type": ("type", "type"),
    "doc_id": ("document", "document"), "head_pos": ("head POS", "head_pos"), "lemma": ("lemma", "lemma"),
    "sentence": ("sentence", "sentence"), "link_type": ("link type", "link_type"),
    "etype": ("entity type", "etype"), "spread": ("Entity spread (sentences)", "spread"),
}
"""Row columns and mention features: (title in tables and the report, name in a browser's crumb)."""
FEATURE_TITLES = {k: v[0] for k, v in FEATURES.items()}
COLUMN_TITLES = {k: v[1] for k, v in FEATURES.items()}

POS_LABELS = {"NOUN": "noun phrases", "PRP": "personal pronouns", "PRP$": "possessive pronouns",
              "DT": "demonstratives", "CD": "numerals", "WP": "wh-pronouns", "WDT": "wh-determiners",
              "EX": "existential there", "NAME": "names", "NOMINAL": "common noun phrases"}

ARROW = "→"


def metric_label(key: str) -> str:
    return METRIC_LABELS.get(key, key)


def group_name(value: str, label: str = "", analysis: str = "", by: str = "") -> str:
    """A group's display name: a typed class or type by its scheme name (``label``); a POS group
    by its description and tag ("personal pronouns (PRP)"); a word (a pronoun lemma) in quotes."""
    if analysis == "typed":
        return label or value
    desc = POS_LABELS.get(value)
    if desc is None:
        return value if by == "cls" or value in ("-", "") else f'"{value}"'
    return desc if len(value) > 5 else f"{desc} ({value})"


def short_path(path: str, width: int = 40) -> str:
    """A path short enough for an 80-column line: the file name when the whole path is too long."""
    if len(path) <= width:
        return path
    name = Path(path).name
    return name if len(name) <= width else "…" + name[-(width - 1):]


def short_doc(doc_id: str) -> str:
    """A document id without CoNLL-2012's ``; part 000`` suffix."""
    return doc_id.removesuffix("; part 000")


def header_label(h: str) -> str:
    """Display label of a table column key."""
    fixed = {"recall": "R", "precision": "P", "f1": "F1", "accuracy": "Acc.", "s_star": "S*", "f_phi": "Fφ",
             "recall_num": "num.", "recall_den": "den.", "precision_num": "num.", "precision_den": "den.",
             "n": "n", "best": "best", "delta": "Δ", "p": "p"}
    if h in fixed:
        return fixed[h]
    if h in COUNT_COLUMNS:
        return h.upper()
    if h in METRIC_LABELS:
        return METRIC_LABELS[h]
    for prefix, label in (("f1_", "F1 "), ("delta_", "Δ "), ("ci_", "95 % CI "), ("p_", "p ")):
        if h.startswith(prefix):
            return label + h[len(prefix):]
    return h.replace("_", " ")


def labels_of(t) -> list[str]:
    """The display labels of a table's columns: its own, else :func:`header_label` of each key."""
    return t.labels if t.labels is not None else [header_label(h) if i else h.capitalize()
                                                  for i, h in enumerate(t.header)]


def row_label(v) -> str:
    return METRIC_LABELS.get(v, v) if isinstance(v, str) else str(v)
