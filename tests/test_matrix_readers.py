"""The readers added since the first matrix (tests/test_cli_matrix.py), on generated inputs (issue
37): Universal Anaphora CoNLL-U Plus, LLM markup (text2text, brackets), systems' JSON (text2text-coref
arrays, Maverick lines), ``--datasets`` manifests and ``--subsets FILE`` — harmless writings and
broken mutations of random key/response pairs (``generated_corpora.random_pair``).

Every run ends in one of two ways:

* exit 0 with a result checked against an invariant: the same chains written in CoNLL-2012 give the
  same numbers (every recall, precision and F1); a markup response equal to the key's own markup
  scores 100 and equals the alignment ceiling; a manifest's dataset scores what ``score KEY
  RESPONSE`` scores for its pair and ``avg`` is the datasets' mean; a group of ``--subsets FILE``
  scores what its documents alone score;
* exit 2 with exactly one ``corefreport: error:`` line naming the file (and the line where the
  problem has one) — never a traceback.

The runs are typer's CliRunner in-process; ``CLASSES`` counts how they ended.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app

from generated_corpora import Doc, random_pair, write_conll2012, write_jsonlines

runner = CliRunner()
CLASSES: Counter = Counter()
METRICS = "muc,bcub,ceafe,ceafm,blanc,lea"


# --- running and judging --------------------------------------------------------------------------

def run(*args) -> object:
    return runner.invoke(app, [str(a) for a in args])


def ok(res) -> str:
    assert res.exit_code == 0, (res.exit_code, res.output, repr(res.exception))
    assert "Traceback" not in res.output, res.output
    CLASSES["exit 0 correct"] += 1
    return res.stdout


def clear_error(res, names, line: int | None = None, says: str = "") -> str:
    """Exit 2, one ``corefreport: error:`` line (no traceback) naming ``names`` (``:line:`` after it)."""
    msg = one_error_line(res)
    where = f"{names}:{line}:" if line is not None else str(names)
    assert where in msg and says in msg, (where, says, msg)
    CLASSES["exit 2 clear"] += 1
    return msg


def numbers(data: dict) -> dict:
    return {k: (v.get("recall"), v.get("precision"), v["f1"]) for k, v in data["metrics"].items()}


def score(key: Path, resp: Path, *extra) -> dict:
    return json.loads(ok(run("score", key, resp, "-f", "json", "-q", "-m", METRICS, *extra)))


def reference(tmp_path: Path, keys: list[Doc], resps: list[Doc], name: str = "ref") -> dict:
    """The numbers of the pair written in CoNLL-2012 (the invariant every other writing must give)."""
    k, r = tmp_path / f"{name}-key.conll", tmp_path / f"{name}-response.conll"
    k.write_text(write_conll2012(keys), encoding="utf-8")
    r.write_text(write_conll2012(resps, offset=3), encoding="utf-8")
    return numbers(score(k, r))


# --- writers of the new formats -------------------------------------------------------------------

def _mentions(doc: Doc) -> list[tuple[tuple[int, int], int]]:
    return [(s, i) for i, c in enumerate(doc.chains) for s in c]


def write_ua(docs: list[Doc], mins: dict | None = None) -> str:
    """UA CoNLL-U Plus, space-aligned: markables opened longest first, closed by ``)`` innermost
    first (the generator's spans nest or are apart); ``mins``: (doc, span) → its ``Min=`` value
    (default: the markable's last word, 1-based in the document)."""
    out = ["# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
           "DISCOURSE_DEIXIS"]
    for doc in docs:
        out.append(f"# newdoc id = {doc.name}")
        ms = _mentions(doc)
        mid = {s: f"markable_{k}" for k, (s, _) in enumerate(sorted(ms))}
        t = 0
        for k, sent in enumerate(doc.sentences):
            out.append(f"# sent_id = {doc.name}-{k + 1}")
            for i, (word, _) in enumerate(sent):
                cell = ")" * sum(1 for s, _ in ms if s[1] == t and s[0] < t)
                for s, e in sorted(((s, e) for s, e in ms if s[0] == t), key=lambda x: -x[0][1]):
                    m = (mins or {}).get((doc.name, s), str(s[1] + 1))
                    cell += f"(EntityID={e + 1}|MarkableID={mid[s]}|Min={m}" + (")" if s[1] == t else "")
                out.append(f"{i + 1}  {word}  _ _ _ _ _ _ _ _  {cell or '_'}  _  _")
                t += 1
            out.append("")
    return "\n".join(out) + "\n"


def write_text2text(docs: list[Doc]) -> str:
    """text2text-coref markup, one document a line: ``word|[e1``, ``word|e1]``, ``word|[e1]``."""
    lines = []
    for doc in docs:
        ms = _mentions(doc)
        words, t = [], 0
        for sent in doc.sentences:
            for word, _ in sent:
                tags = [f"[e{e + 1}" for s, e in sorted(ms, key=lambda x: -x[0][1]) if s[0] == t < s[1]]
                tags += [f"[e{e + 1}]" for s, e in ms if s == (t, t)]
                tags += [f"e{e + 1}]" for s, e in sorted(ms, key=lambda x: -x[0][0]) if s[1] == t > s[0]]
                words.append(word + ("|" + ",".join(tags) if tags else ""))
                t += 1
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"


def write_brackets(docs: list[Doc]) -> str:
    """Seq2seqCoref's inline mentions, one document a line: ``<m> John | 1 </m>``."""
    lines = []
    for doc in docs:
        ms = _mentions(doc)
        parts, t = [], 0
        for sent in doc.sentences:
            for word, _ in sent:
                parts += ["<m>"] * sum(1 for s, _ in ms if s[0] == t)
                parts.append(word)
                for s, e in sorted(((s, e) for s, e in ms if s[1] == t), key=lambda x: -x[0][0]):
                    parts += ["|", str(e + 1), "</m>"]
                t += 1
        lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


def _offsets(doc: Doc) -> list[list[list[int]]]:
    return [[list(s) for s in c] for c in doc.chains]


def write_t2t_json(docs: list[Doc]) -> str:
    """text2text-coref's ``conllu2json``: one JSON array of documents."""
    return json.dumps([{"doc_id": d.name, "tokens": [[w for w, _ in s] for s in d.sentences],
                        "clusters_token_offsets": _offsets(d),
                        "clusters_text_mentions": [["x"] * len(c) for c in d.chains]} for d in docs], indent=1)


def write_maverick(docs: list[Doc]) -> str:
    """Maverick's ``predict()`` output saved one object a line, with a ``doc_id``."""
    return "".join(json.dumps({"doc_id": d.name, "tokens": [w for s in d.sentences for w, _ in s],
                               "clusters_token_offsets": _offsets(d)}) + "\n" for d in docs)


RESPONSE_WRITERS = {"text2text": (write_text2text, ".txt"), "brackets": (write_brackets, ".txt"),
                    "t2t-json": (write_t2t_json, ".json"), "maverick": (write_maverick, ".jsonl")}


# --- 1. harmless: the same chains in every new format give the CoNLL-2012 numbers ------------------

SEEDS = range(300, 308)


@pytest.mark.parametrize("seed", SEEDS)
def test_ua_pairs_score_as_conll2012(tmp_path, seed):
    keys, resps = random_pair(seed)
    want = reference(tmp_path, keys, resps)
    k, r = tmp_path / "key.ua", tmp_path / "response.ua"
    k.write_text(write_ua(keys), encoding="utf-8")
    r.write_text(write_ua(resps), encoding="utf-8")
    assert numbers(score(k, r)) == pytest.approx(want)
    if seed % 3 == 0:  # CRLF line ends and TABs between the fields read the same
        k.write_bytes(write_ua(keys).replace("  ", "\t").replace("\n", "\r\n").encode())
        assert numbers(score(k, r)) == pytest.approx(want)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fmt", sorted(RESPONSE_WRITERS))
def test_system_outputs_score_as_conll2012(tmp_path, seed, fmt):
    """A response in markup or systems' JSON, against a CoNLL-2012 key (markup: on the same words)."""
    keys, resps = random_pair(seed)
    want = reference(tmp_path, keys, resps)
    key = tmp_path / "key.conll"
    key.write_text(write_conll2012(keys), encoding="utf-8")
    write, suffix = RESPONSE_WRITERS[fmt]
    resp = tmp_path / f"response{suffix}"
    resp.write_text(write(resps), encoding="utf-8")
    data = score(key, resp)
    assert numbers(data) == pytest.approx(want), fmt
    if fmt in ("text2text", "brackets"):  # the same words: the ceiling is 100; the key's own markup scores it
        assert set(data["alignment"]["ceiling"].values()) == {1.0}, data["alignment"]["ceiling"]
        resp.write_text(write(keys), encoding="utf-8")
        data = score(key, resp)
        assert {m: f1 for m, (_, _, f1) in numbers(data).items()} == data["alignment"]["ceiling"]
        assert set(data["alignment"]["ceiling"].values()) == {1.0}


@pytest.mark.parametrize("seed", range(320, 324))
def test_a_manifest_scores_each_pair_as_score_does(tmp_path, seed):
    """Two datasets (one written as a glob over one file per document): each scores what its pair
    scores alone; ``avg`` is the unweighted mean of their F1."""
    pairs = [random_pair(seed), random_pair(seed + 100)]
    lines, want = [], []
    for n, (keys, resps) in enumerate(pairs):
        d = tmp_path / f"ds{n}"
        (d / "gold").mkdir(parents=True)
        (d / "pred").mkdir()
        for doc, rdoc in zip(keys, resps):
            (d / "gold" / f"{doc.name}.conll").write_text(write_conll2012([doc]))
            (d / "pred" / f"{doc.name}.conll").write_text(write_conll2012([rdoc], offset=3))
        want.append(reference(tmp_path, keys, resps, name=f"ref{n}"))
        lines.append(f"ds{n}\tds{n}/gold/*.conll\tds{n}/pred" if n else f"ds{n}\tds{n}/gold\tds{n}/pred")
    manifest = tmp_path / "datasets.tsv"
    manifest.write_text("# name\tkey\tresponse\n" + "\n".join(lines) + "\n")
    data = json.loads(ok(run("score", "--datasets", manifest, "-f", "json", "-q", "-m", METRICS)))
    for n in range(2):
        assert numbers(data["datasets"][f"ds{n}"]) == pytest.approx(want[n])
    for m in want[0]:
        assert data["macro"][m]["f1"] == pytest.approx((want[0][m][2] + want[1][m][2]) / 2), m


@pytest.mark.parametrize("seed", range(330, 334))
def test_subsets_file_groups_score_as_their_documents(tmp_path, seed):
    keys, resps = random_pair(seed, docs=3)
    key, resp = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(write_conll2012(keys))
    resp.write_text(write_conll2012(resps, offset=3))
    groups = tmp_path / "split.tsv"
    groups.write_text(f"# doc\tgroup\n{keys[0].name}; part 000\tA\n{keys[1].name}\tB\n{keys[2].name}\tB\n")
    data = score(key, resp, "--subsets", groups)["subsets"]["split"]
    assert numbers(data["groups"]["A"]) == pytest.approx(reference(tmp_path, keys[:1], resps[:1], "a"))
    assert numbers(data["groups"]["B"]) == pytest.approx(reference(tmp_path, keys[1:], resps[1:], "b"))
    assert numbers(data["micro"]) == pytest.approx(reference(tmp_path, keys, resps, "all"))


# --- 2. broken: one error line naming the file (and the line) ---------------------------------------

def _ua_text(seed: int) -> tuple[list[Doc], str]:
    keys, _ = random_pair(seed)
    return keys, write_ua(keys)


def _line_with(text: str, part: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if part in line)


def _unclose_last(text: str) -> str:
    """One ``)`` of the last closing cell dropped: a markable is never closed."""
    lines = text.split("\n")
    n = max(k for k, line in enumerate(lines) if line and not line.startswith("#") and line.split()[-3][:1] == ")")
    fields = lines[n].split()
    fields[-3] = fields[-3][1:] or "_"
    lines[n] = "  ".join(fields)
    return "\n".join(lines)


def _nan(text: str) -> str:
    docs = json.loads(text)
    docs[0]["clusters_token_offsets"][0][0][0] = float("nan")
    return json.dumps(docs)  # written NaN, which JSON does not have


UA_BROKEN = {
    # name: (mutation of the text, the line it names or None, what the message says)
    "closer without opener": (lambda t: t.replace("  _  _  _\n", "  )  _  _\n", 1), None, "closes no open markable"),
    "opener without EntityID": (lambda t: t.replace("(EntityID=", "(X=", 1), "(X=", "has no EntityID"),
    "never closed": (_unclose_last, None, "is never closed"),
    "Min=0": (lambda t: t.replace("|Min=", "|Min=0|X=", 1), "|Min=0|", "Min=0"),
    "Min reversed": (lambda t: t.replace("|Min=", "|Min=9999,", 1), "|Min=9999,", "reversed"),
    "Min past the document": (lambda t: t.replace("|Min=", "|Min=9999", 1), "|Min=9999", "the document has"),
    "Min text": (lambda t: t.replace("|Min=", "|Min=x", 1), "|Min=x", "Min='x"),
    # without its header a UA file is not detected as UA: read as CoNLL-U, whose reader names the line
    "no header": (lambda t: t.split("\n", 1)[1], 3, "a CoNLL-U word line has 10 TAB-separated columns"),
    "no newdoc": (lambda t: t.replace("# newdoc id", "# nodoc id", 1), None, "before the first '# newdoc"),
    "document twice": (lambda t: t + t.split("\n", 1)[1], None, "written twice"),
    "not UTF-8": (lambda t: t.replace("_ _ _ _", "\xe9 _ _ _", 1), None, "UTF-8"),
    "a space inside a field": (lambda t: t.replace("  _  _\n", "  _  _ x\n", 1), None, "more than the"),
    "IDENTITY twice in the header": (lambda t: t.replace("MISC IDENTITY", "MISC IDENTITY IDENTITY", 1), 1,
                                     "names a column twice"),
}


@pytest.mark.parametrize("name", sorted(UA_BROKEN))
@pytest.mark.parametrize("seed", range(340, 343))
def test_broken_ua_files(tmp_path, seed, name):
    keys, text = _ua_text(seed)
    mutate, line, says = UA_BROKEN[name]
    bad = mutate(text)
    assert bad != text, name
    f = tmp_path / "bad.ua"
    f.write_bytes(bad.encode("latin-1") if name == "not UTF-8" else bad.encode("utf-8"))
    good = tmp_path / "good.ua"
    good.write_text(text)
    line = _line_with(bad, line) if isinstance(line, str) else line
    clear_error(run("score", good, f, "-m", "muc"), f, line, says)
    clear_error(run("score", f, good, "-m", "muc"), f, line, says)


@pytest.mark.parametrize("seed", range(344, 348))
def test_a_min_outside_its_markable_is_read_with_a_warning(tmp_path, seed):
    """Min naming a word of the document outside the markable (the CODI-CRAC files have such):
    the numbers of exact matching do not change; the warning names the first."""
    keys, resps = random_pair(seed)
    want = reference(tmp_path, keys, resps)
    span = keys[0].chains[0][0]
    outside = 1 if span[0] > 0 else keys[0].n_tokens
    k, r = tmp_path / "key.ua", tmp_path / "response.ua"
    k.write_text(write_ua(keys, {(keys[0].name, span): str(outside)}))
    r.write_text(write_ua(resps))
    res = run("score", k, r, "-f", "json", "-m", METRICS)
    assert numbers(json.loads(ok(res))) == pytest.approx(want)
    assert f"names word {outside}, outside the markable" in res.stderr, res.stderr


MARKUP_BROKEN = {
    # name: (mutation, line named or None, message part) — exit 2
    "more lines than key documents": (lambda t: t + t, 3, "the markup response has 4 documents (lines), the key 2"),
    # an empty line is an empty document, as text2text-coref reads it (docs/formats.md)
    "a blank line at the end": (lambda t: t + "\n", 3, "the markup response has 3 documents (lines), the key 2"),
    "empty": (lambda t: "", None, ""),
    "not UTF-8": (lambda t: "\xe9" + t, None, "UTF-8"),
    "TABs between words": (lambda t: t.replace(" ", "\t"), 1, "looks like LLM markup"),
}
MARKUP_HARMLESS = {
    # name: mutation — exit 0; the numbers of the response as written (text2text read again)
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "a byte-order mark": lambda t: "\ufeff" + t,
    "a word dropped": lambda t: t.split(" ", 1)[1],
    "an unbalanced opener": lambda t: t.replace(" ", " x|[e9 ", 1),
    "an unknown id": lambda t: t.replace(" ", " x|[zz] ", 1),
}


@pytest.mark.parametrize("name", sorted(MARKUP_BROKEN))
@pytest.mark.parametrize("fmt", ["text2text", "brackets"])
def test_broken_markup(tmp_path, fmt, name):
    keys, resps = random_pair(350, docs=2)
    key = tmp_path / "key.conll"
    key.write_text(write_conll2012(keys))
    mutate, line, says = MARKUP_BROKEN[name]
    f = tmp_path / "r.txt"
    f.write_bytes(mutate(RESPONSE_WRITERS[fmt][0](resps)).encode("latin-1" if name == "not UTF-8" else "utf-8",
                                                                  errors="replace"))
    msg = clear_error(run("score", key, f, "-m", "muc"), f, line, says)
    if name == "TABs between words":
        assert f"--response-format {fmt}" in msg, msg


@pytest.mark.parametrize("name", sorted(MARKUP_HARMLESS))
@pytest.mark.parametrize("seed", range(352, 355))
def test_harmless_markup(tmp_path, seed, name):
    """Exit 0; CRLF and a BOM give the numbers of the text as written; a dropped word,
    an unclosed tag and an id the organisers refuse still score, at most the ceiling."""
    keys, resps = random_pair(seed)
    want = reference(tmp_path, keys, resps)
    key = tmp_path / "key.conll"
    key.write_text(write_conll2012(keys))
    f = tmp_path / "r.txt"
    f.write_bytes(MARKUP_HARMLESS[name](write_text2text(resps)).encode("utf-8"))
    data = score(key, f)
    if name in ("CRLF", "a byte-order mark"):
        assert numbers(data) == pytest.approx(want), name
    for m, (_, _, f1) in numbers(data).items():
        assert 0.0 <= f1 <= data["alignment"]["ceiling"][m] + 1e-12, (m, f1, data["alignment"]["ceiling"])


def _json_mutations() -> dict:
    def first(doc_list, f):
        doc_list[0] = f(doc_list[0]) if callable(f) else f
        return doc_list

    def offsets(f):
        def go(docs):
            d = docs[0]
            d["clusters_token_offsets"][0][0] = f(d["clusters_token_offsets"][0][0], len(
                [w for s in d["tokens"] for w in (s if isinstance(s, list) else [s])]))
            return docs
        return go

    return {
        "no doc_id": (lambda docs: first(docs, lambda d: {k: v for k, v in d.items() if k != "doc_id"}), "doc_id"),
        "no tokens": (lambda docs: first(docs, lambda d: {k: v for k, v in d.items() if k != "tokens"}), "tokens"),
        "tokens a string": (lambda docs: first(docs, lambda d: {**d, "tokens": "a b"}), "tokens"),
        "offset past the end": (offsets(lambda o, n: [o[0], n + 3]), "beyond"),
        "negative offset": (offsets(lambda o, n: [-1, o[1]]), ""),
        "reversed offsets": (offsets(lambda o, n: [o[0] + 1, o[0]] if o[0] + 1 < n else [o[0], o[0] - 1]), ""),
        "float offset": (offsets(lambda o, n: [o[0] + 0.5, o[1]]), ""),
        "bool offset": (offsets(lambda o, n: [True, o[1]]), ""),
        "three numbers": (offsets(lambda o, n: [o[0], o[1], o[1]]), ""),
        "a mention as an object": (offsets(lambda o, n: {"start": o[0]}), ""),
        "a document as a number": (lambda docs: first(docs, 5), ""),
        "doc_id twice": (lambda docs: docs + docs[:1], "doc"),
    }


JSON_BROKEN = _json_mutations()


@pytest.mark.parametrize("name", sorted(JSON_BROKEN))
@pytest.mark.parametrize("fmt", ["t2t-json", "maverick"])
def test_broken_system_json(tmp_path, fmt, name):
    keys, resps = random_pair(360, docs=2)
    key = tmp_path / "key.jsonlines"
    key.write_text(write_jsonlines(keys))
    docs = json.loads(write_t2t_json(resps))
    if fmt == "maverick":
        for d in docs:
            d["tokens"] = [w for s in d["tokens"] for w in s]
            d.pop("clusters_text_mentions")
    mutate, says = JSON_BROKEN[name]
    docs = mutate(docs)
    f = tmp_path / ("r.json" if fmt == "t2t-json" else "r.jsonl")
    f.write_text(json.dumps(docs) if fmt == "t2t-json" else "".join(json.dumps(d) + "\n" for d in docs))
    clear_error(run("score", key, f, "-m", "muc"), f, None, says)


@pytest.mark.parametrize("name, text", [
    ("unclosed array", lambda t: t.rstrip().rstrip("]")),
    ("trailing text", lambda t: t + "\nx"),
    ("NaN", _nan),
    ("an empty array", lambda t: "[]"),
    ("deep nesting", lambda t: "[" * 100_000 + "]" * 100_000),
])
def test_broken_json_text(tmp_path, name, text):
    keys, resps = random_pair(361)
    key = tmp_path / "key.jsonlines"
    key.write_text(write_jsonlines(keys))
    f = tmp_path / "r.json"
    f.write_text(text(write_t2t_json(resps)))
    clear_error(run("score", key, f, "-m", "muc"), f)


MANIFEST_BROKEN = {
    # name: (manifest text, line, message part)
    "missing file": ("a\tgold/nope.conll\tpred/a.conll\n", 1, "does not exist"),
    "a glob matching nothing": ("a\tgold/a.conll\tpred/*.nope\n", 1, "matches no file"),
    "a name twice": ("a\tgold/a.conll\tpred/a.conll\na\tgold/a.conll\tpred/a.conll\n", 2, "also on line 1"),
    "two fields": ("a\tgold/a.conll\n", 1, "got 2 field(s): ['a', 'gold/a.conll']"),
    "trailing TAB": ("a\tgold/a.conll\tpred/a.conll\t\n", 1, "got 4 field(s) (a TAB at the end of the line?)"),
    "CR inside a name": ("a\rb\tgold/a.conll\tpred/a.conll\n", 1, "a carriage return (CR) inside the line"),
    "spaces for TABs": ("a gold/a.conll pred/a.conll\n", 1, "got 1 field(s)"),
    "empty name": ("\tgold/a.conll\tpred/a.conll\n", 1, "(an empty field)"),
    "empty": ("", None, "names no dataset"),
    "comments only": ("# a\tb\tc\n", None, "names no dataset"),
}
MANIFEST_HARMLESS = {
    "CRLF": "a\tgold/a.conll\tpred/a.conll\r\n",
    "a byte-order mark": "\ufeffa\tgold/a.conll\tpred/a.conll\n",
    "comments and blank lines": "# x\n\na\tgold/a.conll\tpred/a.conll\n\n",
    "folders": "a\tgold\tpred\n",
    "globs": "a\tgold/*.conll\tpred/[a].conll\n",
    "spaces around fields": "a \t gold/a.conll \tpred/a.conll\n",
}


def _manifest_folder(tmp_path: Path) -> tuple[Path, dict]:
    keys, resps = random_pair(370)
    (tmp_path / "gold").mkdir()
    (tmp_path / "pred").mkdir()
    (tmp_path / "gold" / "a.conll").write_text(write_conll2012(keys))
    (tmp_path / "pred" / "a.conll").write_text(write_conll2012(resps, offset=3))
    return tmp_path, reference(tmp_path, keys, resps)


@pytest.mark.parametrize("name", sorted(MANIFEST_BROKEN))
def test_broken_manifests(tmp_path, name):
    folder, _ = _manifest_folder(tmp_path)
    text, line, says = MANIFEST_BROKEN[name]
    m = folder / "m.tsv"
    m.write_bytes(text.encode("utf-8"))
    clear_error(run("score", "--datasets", m, "-m", "muc"), m, line, says)


@pytest.mark.parametrize("name", sorted(MANIFEST_HARMLESS))
def test_harmless_manifests(tmp_path, name):
    folder, want = _manifest_folder(tmp_path)
    m = folder / "m.tsv"
    m.write_bytes(MANIFEST_HARMLESS[name].encode("utf-8"))
    data = json.loads(ok(run("score", "--datasets", m, "-f", "json", "-q", "-m", METRICS)))
    assert numbers(data["datasets"]["a"]) == pytest.approx(want), name


def test_a_latin1_manifest(tmp_path):
    folder, _ = _manifest_folder(tmp_path)
    m = folder / "m.tsv"
    m.write_bytes("\xe9\tgold/a.conll\tpred/a.conll\n".encode("latin-1"))
    clear_error(run("score", "--datasets", m, "-m", "muc"), m, None, "not UTF-8")


SUBSETS_BROKEN = {
    "one field": ("doc\n", 1, "got 1 field(s)"),
    "a document twice": ("d\tA\nd\tB\n", 2, "also on line 1"),
    "empty": ("", None, "names no document"),
    "three fields": ("d\tA\tB\n", 1, "got 3 field(s)"),
}


@pytest.mark.parametrize("name", sorted(SUBSETS_BROKEN))
def test_broken_subsets_files(tmp_path, name):
    keys, resps = random_pair(380)
    key, resp = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(write_conll2012(keys))
    resp.write_text(write_conll2012(resps))
    text, line, says = SUBSETS_BROKEN[name]
    g = tmp_path / "groups.tsv"
    g.write_text(text)
    clear_error(run("score", key, resp, "--subsets", g, "-m", "muc"), g, line, says)


def test_the_matrix_is_large_enough():
    """Runs after the cases above (file order): every run ended in one of the two ways."""
    if sum(CLASSES.values()) < 100:
        pytest.skip("run the whole file to count the cases")
    assert CLASSES["exit 0 correct"] >= 60 and CLASSES["exit 2 clear"] >= 100, CLASSES
