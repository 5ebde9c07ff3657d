"""Split antecedents (``--split-antecedents``, scoring/split.py) and minimum spans (``--match min|craft``,
scoring/minspan.py) from the command line: what the options refuse, what the signature says, and
the UA scorer's plural test files (juntaoy/universal-anaphora-scorer plural-tests, the TC-PA key and
its fourth response, also case ua::test_PA4 of the vectors) scored under each mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.errors import SettingsError
from corefreport.io.ua import read_ua
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from

runner = CliRunner()
VECTORS = Path(__file__).resolve().parents[2] / "shared" / "spec" / "vectors" / "corefud_ua_testcases.json"


def _case(name: str) -> dict:
    if not VECTORS.exists():
        pytest.skip("../shared is absent")
    return next(c for c in json.loads(VECTORS.read_text(encoding="utf-8")) if c["id"] == name)


def test_split_antecedents_need_singletons() -> None:
    with pytest.raises(SettingsError, match="needs singletons kept"):
        settings_from(split_antecedents="keep", singletons="drop")
    with pytest.raises(SettingsError, match="drop', 'keep' or 'only'"):
        settings_from(split_antecedents="yes")


def test_presets_set_split_antecedents() -> None:
    assert settings_from(preset="codicrac22ar").split_antecedents == "keep"
    assert settings_from(preset="crac18").split_antecedents == "drop"
    assert settings_from(preset="codicrac22ar", split_antecedents="drop").split_antecedents == "drop"
    assert settings_from().split_antecedents == "drop"


def test_plural_case_under_each_mode(tmp_path: Path) -> None:
    case = _case("ua::test_PA4")
    key, resp = read_ua("key", case["key"]), read_ua("response", case["response"])
    got = {mode: evaluate(key, resp, settings_from(metrics="muc,bcub", split_antecedents=mode)).metrics
           for mode in ("drop", "keep", "only")}
    assert got["keep"]["muc"].recall == pytest.approx(0.75) and got["keep"]["bcub"].recall == pytest.approx(19 / 24)
    # drop: the plural entity is an ordinary one; the response loses no link of it
    assert got["drop"]["muc"].recall == pytest.approx(1.0)
    # only: the key's one split antecedent {1, 2} against the response's none (a dummy): 0
    assert got["only"]["muc"].recall == 0 and got["only"]["muc"].recall_den == 2
    (tmp_path / "k").write_text(case["key"])
    (tmp_path / "r").write_text(case["response"])
    out = runner.invoke(app, ["score", str(tmp_path / "k"), str(tmp_path / "r"), "--split-antecedents", "keep",
                              "-m", "muc"])
    assert out.exit_code == 0, out.output
    assert "split:keep" in out.output and "75.00" in out.output
    bad = runner.invoke(app, ["score", str(tmp_path / "k"), str(tmp_path / "r"), "--split-antecedents", "keep",
                              "--drop-singletons"])
    assert bad.exit_code == 2 and "needs singletons kept" in bad.output


def test_min_spans_from_the_command_line(tmp_path: Path) -> None:
    case = _case("ua::test_NCMA2")
    (tmp_path / "k").write_text(case["key"])
    (tmp_path / "r").write_text(case["response"])
    exact = runner.invoke(app, ["score", str(tmp_path / "k"), str(tmp_path / "r"), "-m", "muc", "-f", "json"])
    minimal = runner.invoke(app, ["score", str(tmp_path / "k"), str(tmp_path / "r"), "-m", "muc", "--match", "min",
                                  "-f", "json"])
    assert exact.exit_code == 0 and minimal.exit_code == 0, minimal.output
    assert json.loads(exact.output)["metrics"]["muc"]["recall"] < 1
    doc = json.loads(minimal.output)
    assert doc["metrics"]["muc"]["recall"] == 1 and "match:min" in doc["signature"] and "heads:rule" not in doc["signature"]
