"""The examples in the scoring API's docstrings (formulas first, then a worked example) run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["corefreport.scoring.counts", "corefreport.scoring.metrics", "corefreport.scoring.outcomes",
           "corefreport.scoring.registry", "corefreport.scoring.settings", "corefreport.scoring.matching",
           "corefreport.scoring.zeros", "corefreport.scoring.errorclasses", "corefreport.scoring.options", "corefreport.scoring.presets", "corefreport.study.datasets", "corefreport.study.subsets", "corefreport.scoring.strata", "corefreport.study.strata", "corefreport.scoring.windows", "corefreport.study.windows", "corefreport.io.windows", "corefreport.study.runs", "corefreport.scoring.crossdoc", "corefreport.study.groupdeltas", "corefreport.scoring.groupscores",
           "corefreport.scoring.significance", "corefreport.tui.search", "corefreport.present.document_text", "corefreport.tui.document", "corefreport.tui.pairsearch",
           "corefreport.report.latex", "corefreport.report.doctext",
           "corefreport.present.numbers", "corefreport.present.labels", "corefreport.present.render",
           "corefreport.present.scoreview", "corefreport.present.plain", "corefreport.present.explain", "corefreport.report.examples",
           "corefreport.present.sampling", "corefreport.present.inert", "corefreport.present.latex", "corefreport.lsap", "corefreport.io.wordalign", "corefreport.io.ua", "corefreport.scoring.nonref",
           "corefreport.io.ua_layers", "corefreport.scoring.bridging", "corefreport.scoring.deixis", "corefreport.scoring.layers", "corefreport.present.tables", "corefreport.io.corefud_bridge",
           "corefreport.io.wec", "corefreport.io.corefud_splitante", "corefreport.scoring.mina",
           "corefreport.scoring.empty_nodes", "corefreport.scoring.errordiff", "corefreport.report.document"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0, result


def test_the_architecture_documents_examples_run():
    """docs/architecture.md's worked examples (a metric of four counts, a BLANC-shaped one, a layer
    score, registered and scored) run as written."""
    from pathlib import Path

    doc = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
    result = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE,
                              globs={"__file__": str(doc)})
    assert result.attempted >= 15 and result.failed == 0, result
