"""Missing POS: '_' or '-' in the POS column is no tag (LitBank's CoNLL files hold '_' everywhere).
LitBank's own annotation (coref/tsv/*.ann, mention type PRON / PROP / NOM) is the independent truth."""

from __future__ import annotations

from collections import Counter

import pytest

from corefreport.io import load_corpus
from corefreport.io.conll2012 import read_conll2012
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.features import lacks_pos, mention_features
from corefreport.scoring.settings import Settings

from conftest import SHARED

LITBANK = SHARED / "data" / "litbank" / "coref"
DOCS = sorted(p.stem for p in (LITBANK / "conll").glob("*.conll"))
needs_litbank = pytest.mark.skipif(not DOCS, reason=f"{LITBANK} not available (../shared is absent)")
TYPES = {"PRON": "PRONOUN", "PROP": "NAME", "NOM": "NOMINAL"}


def litbank_types(stem: str, sentence_starts: list[int]) -> dict[tuple[int, int], str]:
    """(start, end) document token span → LitBank mention type, from coref/tsv/STEM.ann."""
    out = {}
    for line in (LITBANK / "tsv" / f"{stem}.ann").read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if f[0] == "MENTION":
            s1, t1, s2, t2 = map(int, f[2:6])
            out[(sentence_starts[s1] + t1, sentence_starts[s2] + t2)] = f[-1]
    return out


@needs_litbank
def test_litbank_pronouns_come_out_pronoun():
    """Every LitBank mention annotated PRON is typed PRONOUN (1,592 of them: PRON_PER 1556, PRON_FAC 16,
    PRON_LOC 10, PRON_GPE 8, PRON_VEH 2 per the data README); before, '_' was read as a tag and
    every one of them came out NOMINAL."""
    assert len(DOCS) == 10
    agree: Counter = Counter()
    for stem in DOCS:
        doc = next(iter(load_corpus(str(LITBANK / "conll" / f"{stem}.conll"))))
        assert lacks_pos(doc)
        gold = litbank_types(stem, doc.sentence_starts)
        for m, f in zip(doc.mentions, mention_features(doc)):
            g = gold[m.span]
            agree[(g, f["mtype"])] += 1
    pron = {k: v for k, v in agree.items() if k[0] == "PRON"}
    assert sum(pron.values()) == 1592
    assert pron == {("PRON", "PRONOUN"): 1592}
    # the word-based fallback against LitBank's own types (2,913 mentions): one NOM one-word mention
    # is a pronoun word; capitalisation finds 313 of 336 PROP (and takes 103 capitalised NOM for names)
    assert sorted(agree.items()) == [
        (("NOM", "NAME"), 103), (("NOM", "NOMINAL"), 881), (("NOM", "PRONOUN"), 1),
        (("PRON", "PRONOUN"), 1592), (("PROP", "NAME"), 313), (("PROP", "NOMINAL"), 23)]


@needs_litbank
def test_missing_pos_is_warned_once_and_in_the_signature():
    path = LITBANK / "conll" / f"{DOCS[0]}.conll"
    key = load_corpus(str(path))
    ev = evaluate(key, key, Settings(metrics=("muc",), plink_by="mtype"))
    assert "|pos:missing|" in str(ev.signature)
    assert sum("without a POS tag" in w for w in ev.warnings) == 1
    # all links are correct; the PRONOUN category has as many links as the PRON annotation implies
    assert all(c.recall == 1.0 for c in ev.plink.categories.values())
    # standard metrics alone need no types: no warning, no signature field
    plain = evaluate(key, key, Settings(metrics=("muc",)))
    assert "pos:" not in str(plain.signature) and not plain.warnings


@pytest.mark.parametrize("tag", ["_", "-"])
def test_dash_or_underscore_pos_types_from_the_word(tag):
    text = (f"#begin document (d); part 0\nd 0 0 Mary {tag} (1)\nd 0 1 saw {tag} -\nd 0 2 her {tag} (1)\n"
            f"d 0 3 dog {tag} (2)\n#end document\n")
    doc = next(iter(read_conll2012("k.conll", text)))
    types = [f["mtype"] for f in mention_features(doc)]
    assert types == ["NOMINAL", "PRONOUN", "NOMINAL"] or types == ["NAME", "PRONOUN", "NOMINAL"]
    tagged = next(iter(read_conll2012("k.conll", text.replace(f" {tag} ", " NN ").replace("her NN", "her PRP"))))
    assert [f["mtype"] for f in mention_features(tagged)] == ["NOMINAL", "PRONOUN", "NOMINAL"]


def test_arcs_without_pos_tags_equals_arcs_with_them(tmp_path):
    """Before: a POS column of '_' made every one-token mention neither nominal nor pronoun in ARCS
    ("_" was taken for a tag), so 'John saw Mary and she laughed. He left.' had 0 ARCS links instead
    of the 2 pronoun links (she → Mary, He → John) that the tagged file has."""
    import json

    from typer.testing import CliRunner

    from corefreport.cli import app

    rows = [("John", "NNP", "(1)"), ("saw", "VBD", "-"), ("Mary", "NNP", "(2)"), ("and", "CC", "-"),
            ("she", "PRP", "(2)"), ("laughed", "VBD", "-"), (".", ".", "-"), None, ("He", "PRP", "(1)"),
            ("left", "VBD", "-")]

    def write(name: str, tagged: bool) -> str:
        lines, t = ["#begin document (d); part 0"], 0
        for r in rows:
            if r is None:
                lines.append("")
                t = 0
                continue
            lines.append(f"d\t0\t{t}\t{r[0]}\t{r[1] if tagged else '_'}\t{r[2]}")
            t += 1
        (tmp_path / name).write_text("\n".join(lines + ["#end document", ""]), encoding="utf-8")
        return str(tmp_path / name)

    out = {}
    for tagged in (True, False):
        f = write(f"{tagged}.conll", tagged)
        res = CliRunner().invoke(app, ["score", f, f, "-a", "arcs", "--by", "mtype", "-q", "-f", "json"])
        assert res.exit_code == 0, res.output
        out[tagged] = json.loads(res.stdout)["arcs"]["immediate"]
    assert out[True]["total"]["tp"] == 2 and out[False]["total"]["tp"] == 2
    assert out[False]["by"]["mtype"]["PRONOUN"]["tp"] == 2
