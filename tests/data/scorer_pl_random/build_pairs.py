"""Random CoNLL-2012 key/response pairs and the reader's edge cases, scored by scorer.pl v8.01.

Run ``python build_pairs.py SCORER_DIR`` (a checkout of github:conll/reference-coreference-scorers,
commit :data:`SCORER_COMMIT`) to write ``expected.json``: for every pair its edge-case tags, the
SHA-256 of its key and response text, the exact commands and every number scorer.pl printed
(recall and precision numerator/denominator and F1 of the mentions and of each metric; BLANC's
coreference and non-coreference links). The pairs themselves are not stored: :func:`pairs`
regenerates them from :data:`SEED` (Python's ``random.Random``; the hashes catch any drift).
``tests/test_scorer_pl_random.py`` scores each pair with corefreport's defaults and asserts the
same numbers.

What the generator writes (scorer.pl's grammar: TAB-separated lines, the coreference annotation in
the last field, numeric chain labels; comment lines and space-separated files are deliberate
differences, README.md, and are not generated):

* several documents of one or two parts, 0-3 sentences of 1-9 tokens; mentions of one or several
  tokens, nested or disjoint (a few crossing ones of different chains), singletons, the same span
  twice in one chain or in two chains, on either side;
* the response: the key's chains with mentions dropped, moved, added, chains merged and split;
  at most :data:`MAX_REPEATS` repeated key spans per response file (scorer.pl refuses more);
* the edge cases, each a tag: ``tab_first`` / ``tab_other`` (a TAB, TABs or spaces after the
  coreference field on a document's first line / on other lines), ``space_tail`` (spaces after
  the field), ``tab_space_tail`` (a TAB then spaces: scorer.pl's last field is blank), ``columns``
  (lines of different widths), ``repeat_key`` / ``repeat_response`` (a document name written twice
  in one file), ``missing`` / ``extra`` (a response document missing or extra), ``empty`` (a
  document without tokens or without mentions), ``begin`` (``#begin document`` variations written
  alike on both sides), ``begin_mismatch`` (a response document's ``#begin document`` text written
  otherwise than the key's), ``crlf`` (CRLF line ends on one or both sides; ``crlf_tab``: and
  TABs after the coreference field, so that scorer.pl's last field is a lone CR), ``blank`` (blank
  lines of spaces, several blank lines), ``crossing`` (mentions of different chains crossing),
  ``key_span_repeated`` / ``response_span_repeated`` (a span written twice).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

SEED = 2026_11_27
N_PAIRS = 360
MAX_REPEATS = 2
"""Repeated key spans per response file: scorer.pl counts them across documents and across the
metrics of one ``all`` run and refuses to score past 10 (2 × 5 metrics)."""
SCORER_COMMIT = "f49f3f8a0e1cdc5ceba7c2a33013897369df5543"
"""github:conll/reference-coreference-scorers master, which prints 'version: 8.01'."""
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
ALL_COMMAND = "perl scorer.pl all {id}.key {id}.response none"
EACH_COMMAND = "perl scorer.pl {metric} {id}.key {id}.response none"
"""Run for each metric of :data:`METRICS` when the one ``all`` run refused (case ``"runs": "each"``)."""
HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected.json"

Span = tuple[int, int]
Chains = list[list[Span]]


@dataclass
class Doc:
    """One document as written: its ``#begin document`` text, its sentences' lengths, its chains
    (labels are the chain's index + an offset) and how its lines are written."""

    name: str
    sentences: list[int]
    chains: Chains
    label_base: int = 0
    layout: str = "conll12"
    tails: dict[int, str] = field(default_factory=dict)
    """Token index → text written after the coreference field."""
    widths: dict[int, int] = field(default_factory=dict)
    """Token index → number of columns before the coreference field (the layout's otherwise)."""
    blank: str = "\n"
    """A sentence break (one or more lines, possibly of spaces)."""
    begin: str = "#begin document {name}"
    end: str = "#end document"
    final_blank: bool = True
    """A blank line before ``#end document``."""
    alias: str | None = None
    """The key's name for this document, when it is written differently (``begin_mismatch``)."""

    @property
    def n_tokens(self) -> int:
        return sum(self.sentences)


@dataclass
class Pair:
    """One key/response pair; ``clean_key`` / ``clean_response``: the same files as corefreport
    reads them, in scorer.pl's grammar (no blank field after the coreference field; each response
    document named as the key document corefreport pairs it with)."""

    id: str
    tags: list[str]
    key: str
    response: str
    clean_key: str
    clean_response: str


# ------------------------------------------------------------------------------------------------
# spans and chains


def random_spans(rng: random.Random, n: int, count: int, crossing: bool) -> list[Span]:
    """``count`` distinct spans over ``n`` tokens, pairwise nested or disjoint (unless ``crossing``)."""
    spans: list[Span] = []
    for _ in range(count * 4):
        if len(spans) >= count:
            break
        length = rng.choice((1, 1, 1, 2, 2, 3, 4, n))
        length = max(1, min(length, n))
        s = rng.randrange(0, n - length + 1)
        sp = (s, s + length - 1)
        if sp in spans:
            continue
        if not crossing and any(a < sp[0] <= b < sp[1] or sp[0] < a <= sp[1] < b for a, b in spans):
            continue
        spans.append(sp)
    return spans


def random_chains(rng: random.Random, n: int, crossing: bool) -> Chains:
    """Chains over ``n`` tokens: singletons and larger chains, sometimes a span repeated."""
    if n == 0:
        return []
    spans = random_spans(rng, n, rng.randrange(0, min(2 * n, 9) + 1), crossing)
    rng.shuffle(spans)
    chains: Chains = []
    for sp in spans:
        if chains and rng.random() < 0.55:
            rng.choice(chains).append(sp)
        else:
            chains.append([sp])
    for ch in chains:
        ch.sort()
    return chains


def perturb(rng: random.Random, key: Chains, n: int, crossing: bool) -> Chains:
    """A response: the key's chains with mentions dropped, boundaries moved, chains split and
    merged, mentions added."""
    resp = [list(ch) for ch in key if rng.random() > 0.1]
    out: Chains = []
    for ch in resp:
        ch = [m for m in ch if rng.random() > 0.15]
        ch = [(max(0, a - 1), b) if rng.random() < 0.08 else (a, min(n - 1, b + 1)) if rng.random() < 0.08 else (a, b)
              for a, b in ch]
        if len(ch) > 2 and rng.random() < 0.25:
            k = rng.randrange(1, len(ch))
            out.extend([ch[:k], ch[k:]])
        elif ch:
            out.append(ch)
    if len(out) > 1 and rng.random() < 0.3:
        a = out.pop(rng.randrange(len(out)))
        rng.choice(out).extend(a)
    if n and rng.random() < 0.5:
        for sp in random_spans(rng, n, rng.randrange(1, 4), crossing):
            if out and rng.random() < 0.5:
                rng.choice(out).append(sp)
            else:
                out.append([sp])
    out = [sorted(set(ch)) for ch in out if ch]
    return drop_crossing(out) if not crossing else out


def drop_crossing(chains: Chains) -> Chains:
    """Mentions crossing an earlier one dropped (moved boundaries may cross)."""
    kept: list[Span] = []
    out: Chains = []
    for ch in chains:
        new = []
        for sp in ch:
            if any(a < sp[0] <= b < sp[1] or sp[0] < a <= sp[1] < b for a, b in kept):
                continue
            kept.append(sp)
            new.append(sp)
        if new:
            out.append(new)
    return out


def spans_of(chains: Chains) -> list[Span]:
    return [sp for ch in chains for sp in ch]


def add_repeats(rng: random.Random, chains: Chains, budget: int) -> int:
    """Write up to ``budget`` spans twice (in their chain or in another); returns how many."""
    done = 0
    for _ in range(budget):
        all_spans = spans_of(chains)
        if not all_spans or rng.random() < 0.5:
            continue
        sp = rng.choice(all_spans)
        target = rng.choice(chains)
        target.append(sp)
        target.sort()
        done += 1
    return done



# ------------------------------------------------------------------------------------------------
# writing


def cells(doc: Doc) -> list[str]:
    """The coreference field of each token, written as CoNLL-2012 writers do (one-token mentions,
    openings and closings joined by '|', or not joined, in varying orders)."""
    n = doc.n_tokens
    ops: list[list[str]] = [[] for _ in range(n)]
    for c, ch in enumerate(doc.chains):
        label = str(doc.label_base + c)
        for a, b in ch:
            if a == b:
                ops[a].append(f"({label})")
            else:
                ops[a].append(f"({label}")
                ops[b].append(f"{label})")
    out = []
    for t, o in enumerate(ops):
        if not o:
            out.append("-")
        elif (t + doc.label_base) % 7 == 3:  # not joined, as in scorer.pl's own test files ("(1(3", "3)1)"):
            # closings before openings, so that no "(1" meets a "3)" (which would read "(13)")
            out.append("".join(sorted(o, key=lambda x: (x[0] == "(" and x[-1] != ")"))))
        else:
            out.append("|".join(o))
    return out


def token_line(doc: Doc, part: str, t: int, word: str, cell: str, clean: bool = False) -> str:
    width = doc.widths.get(t)
    if doc.layout == "conll12":
        name = doc.name.split(";")[0].strip("() ") or "doc"
        cols = [name, part, str(t), word, "NN", "(NP*)", "-", "-", "-", "spk", "*", "*"]
    elif doc.layout == "five":
        cols = ["doc", "0", str(t), word, "NN"]
    else:  # "three"
        cols = [str(t + 1), word]
    if width is not None:
        cols = (cols + ["x"] * width)[:width]
    return "\t".join(cols + [cell]) + ("" if clean else doc.tails.get(t, ""))


WORDS = ("the", "cat", "Kim", "saw", "her", "it", "a", "dog", "which", "they", "ran", ".")


def write_doc(doc: Doc, clean: bool = False) -> list[str]:
    lines = [doc.begin.format(name=doc.alias if clean and doc.alias else doc.name)]
    part = re.search(r"part (\d+)", doc.name)
    part_s = str(int(part.group(1))) if part else "0"
    cs = cells(doc)
    t = 0
    for k, length in enumerate(doc.sentences):
        if k:
            lines.extend(doc.blank.split("\n")[:-1] or [""])
        for _ in range(length):
            lines.append(token_line(doc, part_s, t, WORDS[(t * 7 + len(doc.alias or doc.name)) % len(WORDS)], cs[t],
                                    clean))
            t += 1
    if doc.sentences and doc.final_blank:
        lines.append("")
    lines.append(doc.end)
    return lines


def write_file(docs: list[Doc], crlf: bool = False, clean: bool = False) -> str:
    lines = [line for d in docs for line in write_doc(d, clean)]
    nl = "\r\n" if crlf else "\n"
    return nl.join(lines) + nl


# ------------------------------------------------------------------------------------------------
# pairs


NAMES = ("(bc/cnn/00/cnn_0001)", "(nw/wsj/00/wsj_0002)", "(d3)", "(mz/sinorama/00/ectb_1003)", "(x)")
TAILS = ("\t", "\t\t", " ", "  ", " \t", "  \t\t")
"""Text after the coreference field that leaves it the last non-blank field for scorer.pl too."""


def make_pair(rng: random.Random, i: int) -> Pair:
    tags: set[str] = set()
    crossing = rng.random() < 0.1
    if crossing:
        tags.add("crossing")
    n_names = rng.randrange(1, 4)
    names = rng.sample(NAMES, n_names)
    keys: list[Doc] = []
    resps: list[Doc] = []
    repeats = 0
    for name in names:
        for p in range(rng.choice((1, 1, 2))):
            doc_name = f"{name}; part {p:03d}"
            sentences = [rng.randrange(1, 10) for _ in range(rng.choice((1, 2, 2, 3)))]
            n = sum(sentences)
            kc = random_chains(rng, n, crossing)
            if rng.random() < 0.2 and add_repeats(rng, kc, 1):
                tags.add("key_span_repeated")
            rc = perturb(rng, kc, n, crossing)
            r = add_repeats(rng, rc, MAX_REPEATS - repeats) if rng.random() < 0.2 else 0
            if r:
                tags.add("response_span_repeated")
            repeats += r
            layout = rng.choice(("conll12", "conll12", "five", "three"))
            keys.append(Doc(doc_name, sentences, kc, rng.randrange(0, 3), layout))
            resps.append(Doc(doc_name, list(sentences), rc, rng.randrange(0, 3), layout))
    # names rewritten first (while key and response still hold the same documents), and the one
    # response name written differently last (once every document is in place)
    edges = sorted(rng.sample(EDGES, rng.choice((0, 1, 1, 2, 3))),
                   key=lambda e: (e is not edge_begin) + (e is edge_begin_mismatch))
    crlf = {"key": False, "response": False}
    for edge in edges:
        edge(rng, keys, resps, tags, crlf)
    # corefreport refuses a key without mentions and a key and response sharing no document
    # (README.md): one more document then, the same on both sides
    scored = {d.name: d for d in keys}  # the last copy of each name
    if not any(spans_of(d.chains) for d in scored.values()) or not {d.name for d in resps} & set(scored):
        keys.append(Doc("(z); part 000", [2], [[(0, 1)], [(1, 1)]]))
        resps.append(Doc("(z); part 000", [2], [[(0, 1), (1, 1)]]))
    for d in keys + resps:
        d.final_blank = hash_str(d.name + str(len(d.chains))) % 4 != 0
    return Pair(f"p{i:03d}", sorted(tags), write_file(keys, crlf["key"]), write_file(resps, crlf["response"]),
                write_file(keys, crlf["key"], True), write_file(resps, crlf["response"], True))


def _side(rng, keys, resps):
    return rng.choice(((keys,), (resps,), (keys, resps)))


def edge_tab_first(rng, keys, resps, tags, crlf):
    for side in _side(rng, keys, resps):
        for d in side:
            if d.n_tokens and rng.random() < 0.7:
                d.tails[0] = rng.choice(TAILS)
    tags.add("tab_first")


def edge_tab_other(rng, keys, resps, tags, crlf):
    for side in _side(rng, keys, resps):
        for d in side:
            for t in range(1, d.n_tokens):
                if rng.random() < 0.4:
                    d.tails[t] = rng.choice(TAILS)
    tags.add("tab_other")


def edge_space_tail(rng, keys, resps, tags, crlf):
    for side in _side(rng, keys, resps):
        for d in side:
            for t in range(d.n_tokens):
                if rng.random() < 0.5:
                    d.tails[t] = " " * rng.randrange(1, 3)
    tags.add("space_tail")


def edge_tab_space_tail(rng, keys, resps, tags, crlf):
    """A TAB then only spaces after the coreference field: scorer.pl's last field is blank."""
    for side in _side(rng, keys, resps):
        for d in side:
            for t in range(d.n_tokens):
                if rng.random() < 0.3:
                    d.tails[t] = rng.choice(("\t ", "\t  ", "\t \t", "\t\t \t"))
    tags.add("tab_space_tail")


def edge_columns(rng, keys, resps, tags, crlf):
    for side in _side(rng, keys, resps):
        for d in side:
            for t in range(d.n_tokens):
                if rng.random() < 0.35:
                    d.widths[t] = rng.choice((0, 1, 2, 3, 4, 5, 13, 14))
    tags.add("columns")


def _repeat(rng, docs: list[Doc]) -> None:
    """A second document of an existing name (as many tokens, other chains) somewhere in the file."""
    src = rng.choice(docs)
    copy = Doc(src.name, list(src.sentences), random_chains(rng, src.n_tokens, False), 5, src.layout)
    docs.insert(rng.randrange(0, len(docs) + 1), copy)


def edge_repeat_key(rng, keys, resps, tags, crlf):
    _repeat(rng, keys)
    tags.add("repeat_key")


def edge_repeat_response(rng, keys, resps, tags, crlf):
    _repeat(rng, resps)
    tags.add("repeat_response")


def edge_missing(rng, keys, resps, tags, crlf):
    if len(resps) > 1:
        resps.pop(rng.randrange(len(resps)))
        tags.add("missing")


def edge_extra(rng, keys, resps, tags, crlf):
    sentences = [rng.randrange(1, 6)]
    resps.insert(rng.randrange(0, len(resps) + 1),
                 Doc("(extra_doc); part 000", sentences, random_chains(rng, sentences[0], False)))
    tags.add("extra")


def edge_empty(rng, keys, resps, tags, crlf):
    for side in (keys, resps):
        if rng.random() < 0.5:
            side.insert(rng.randrange(0, len(side) + 1), Doc("(empty_doc); part 000", [], []))
    if rng.random() < 0.5:
        d = rng.choice(keys)
        d.chains = []
        for r in resps:
            if r.name == d.name and rng.random() < 0.5:
                r.chains = []
    tags.add("empty")


BEGINS = ("# begin document {name}", "#  begin document {name}", "#begin document {name} ", "#\tbegin document {name}")


def edge_begin(rng, keys, resps, tags, crlf):
    """``#begin document`` written differently, the same way on both sides."""
    style = rng.choice(("begin", "bare", "nopart", "semicolon"))
    for d in keys + resps:
        if style == "begin":
            d.begin = BEGINS[hash_str(d.name) % len(BEGINS)]
        elif style == "bare":
            d.name = d.name.replace("(", "").replace(")", "").replace("; part ", "_part_")
        elif style == "nopart":
            d.name = d.name.split(";")[0]
        else:
            d.name = d.name.replace("; part", ";part")
    for side in (keys, resps):  # names made equal by the change: keep the file's names distinct
        seen: set[str] = set()
        side[:] = [d for d in side if not (d.name in seen or seen.add(d.name))]
    if rng.random() < 0.5:
        for d in keys + resps:
            d.end = rng.choice(("#end document", "# end document", "#end document " + d.name))
    tags.add("begin")


def edge_begin_mismatch(rng, keys, resps, tags, crlf):
    """One response document's ``#begin document`` text differs from the key's in spacing, the
    part number's digits or a bare name: scorer.pl pairs documents by the text as written."""
    once = [d for d in resps if sum(e.name == d.name for e in resps) == 1]
    if not once:
        return
    d = rng.choice(once)  # (of a repeated name, corefreport takes the copy whose id is the key's exactly)
    variants = [d.name.replace("; part", ";part"), d.name.replace("; part", ";  part"), d.name + " ",
                re.sub(r"part 0*(\d)", r"part \1", d.name)]
    if d.name.endswith("part 000"):  # a bare NAME is paired with NAME; part 000 (not with part 001)
        variants.append(d.name.split(";")[0])
    d.alias, d.name = d.name, rng.choice(variants)
    tags.add("begin_mismatch")


def edge_crlf(rng, keys, resps, tags, crlf):
    """CRLF line ends on one side or both; sometimes with TABs after the coreference field, where
    scorer.pl's last field is then the CR alone (blank)."""
    for side in rng.choice((("key",), ("response",), ("key", "response"))):
        crlf[side] = True
        if rng.random() < 0.5:
            for d in keys if side == "key" else resps:
                for t in range(d.n_tokens):
                    if rng.random() < 0.3:
                        d.tails[t] = rng.choice(("\t", "\t\t", " \t"))
            tags.add("crlf_tab")
    tags.add("crlf")


def edge_blank(rng, keys, resps, tags, crlf):
    for d in keys + resps:
        d.blank = rng.choice(("\n", "\n\n", " \n", "\t\n", " \n\n"))
    tags.add("blank")


EDGES = (edge_tab_first, edge_tab_other, edge_space_tail, edge_tab_space_tail, edge_columns, edge_repeat_key,
         edge_repeat_response, edge_missing, edge_extra, edge_empty, edge_begin, edge_begin_mismatch, edge_crlf, edge_blank)


def hash_str(s: str) -> int:
    return int(hashlib.sha256(s.encode()).hexdigest()[:8], 16)


def pairs() -> list[Pair]:
    """Every pair, the same on every run (:data:`SEED`)."""
    rng = random.Random(SEED)
    return [make_pair(rng, i) for i in range(N_PAIRS)]


def sha256(text: str) -> str:
    """The first 16 hex digits of the SHA-256 of ``text`` in UTF-8 (enough to catch a changed file)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# ------------------------------------------------------------------------------------------------
# scorer.pl


NUM = r"\(([-+0-9.e]+) / ([-+0-9.e]+)\)"
RPF_RE = re.compile(rf"Recall: {NUM} [^\t]*\tPrecision: {NUM} [^\t]*\tF1: ([-0-9.e]+)%")


def rpf(line: str) -> list[float]:
    m = RPF_RE.search(line)
    if m is None:
        raise ValueError(f"cannot read {line!r}")
    return [float(x) for x in m.groups()]


def parse(out: str) -> dict[str, dict[str, list[float]]]:
    """``{metric: {"mentions": [rn, rd, pn, pd, F1%], "coref": […]}}`` (BLANC: "coref_links",
    "noncoref_links", "blanc") from scorer.pl's output (one or several metrics)."""
    result: dict[str, dict[str, list[float]]] = {}
    metric = None
    for line in out.splitlines():
        m = re.match(r"METRIC (\w+):", line)
        if m:
            metric = m.group(1)
            continue
        if metric is None:
            continue
        head = line.split(":")[0]
        key = {"Identification of Mentions": "mentions", "Coreference": "coref", "Coreference links": "coref_links",
               "Non-coreference links": "noncoref_links", "BLANC": "blanc"}.get(head)
        if key and "Recall:" in line:
            result.setdefault(metric, {})[key] = rpf(line)
    return result


def compact(numbers: dict) -> dict:
    """scorer.pl's numbers as stored: the mentions once (every metric prints the same line), each
    metric's five numbers, integers written as such."""
    def short(xs: list[float]) -> list[float | int]:
        return [int(x) if x == int(x) else x for x in xs]

    if "error" in numbers:
        return numbers
    mentions = {tuple(v["mentions"]) for v in numbers.values()}
    assert len(mentions) == 1, mentions
    out: dict = {"mentions": short(numbers["muc"]["mentions"][:4])}
    for metric in METRICS:
        v = numbers[metric]
        out[metric] = ({k: short(v[k]) for k in ("coref_links", "noncoref_links", "blanc")} if metric == "blanc"
                       else short(v["coref"]))
    return out


def run_scorer(scorer: Path, key: Path, resp: Path) -> tuple[list[str], dict]:
    """scorer.pl ``all … none``; when it refuses (repeated response mentions are counted across the
    metrics of one run), each metric by itself. Returns the commands and the numbers (:func:`compact`)."""
    env = dict(os.environ, PERL_HASH_SEED="0")

    def run(metric: str) -> subprocess.CompletedProcess:
        return subprocess.run(["perl", "scorer.pl", metric, str(key), str(resp), "none"], cwd=scorer,
                              capture_output=True, text=True, env=env)

    done = run("all")
    if done.returncode == 0 and len(parse(done.stdout)) == len(METRICS):
        return [f"perl scorer.pl all {key.name} {resp.name} none"], compact(parse(done.stdout))
    cmds, out = [], {}
    for metric in METRICS:
        one = run(metric)
        cmds.append(f"perl scorer.pl {metric} {key.name} {resp.name} none")
        if one.returncode != 0 or "Recall:" not in one.stdout:
            return cmds, {"error": (one.stderr.strip() or one.stdout.strip()).splitlines()[-1]}
        out[metric] = parse(f"METRIC {metric}:\n" + one.stdout)[metric]
    return cmds, compact(out)


def build(scorer: Path, work: Path) -> dict:
    commit = subprocess.run(["git", "-C", str(scorer), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or SCORER_COMMIT
    work.mkdir(parents=True, exist_ok=True)
    cases = []
    for pair in pairs():
        case: dict = {"id": pair.id, "tags": pair.tags, "sha256": [sha256(pair.key), sha256(pair.response)]}
        k, r = work / f"{pair.id}.key", work / f"{pair.id}.response"
        k.write_bytes(pair.key.encode())
        r.write_bytes(pair.response.encode())
        cmds, numbers = run_scorer(scorer, k.resolve(), r.resolve())
        if len(cmds) > 1:
            case["runs"] = "each"
        case["scorer_pl"] = numbers
        if (pair.clean_key, pair.clean_response) != (pair.key, pair.response):
            ck, cr = work / f"{pair.id}.clean.key", work / f"{pair.id}.clean.response"
            ck.write_bytes(pair.clean_key.encode())
            cr.write_bytes(pair.clean_response.encode())
            ccmds, clean = run_scorer(scorer, ck.resolve(), cr.resolve())
            if clean != numbers:
                case["clean"] = {"sha256": [sha256(pair.clean_key), sha256(pair.clean_response)], "scorer_pl": clean}
                if len(ccmds) > 1:
                    case["clean"]["runs"] = "each"
        cases.append(case)
    return {
        "program": "scorer.pl v8.01 (github:conll/reference-coreference-scorers, master: 'version: 8.01')",
        "commit": commit,
        "command": ALL_COMMAND,
        "command_each": EACH_COMMAND,
        "environment": "perl 5.36, PERL_HASH_SEED=0, run in the checkout's top folder on the files "
                       "build_pairs.pairs() writes: ID.key, ID.response (and ID.clean.key, ID.clean.response: "
                       "Pair.clean_key, Pair.clean_response)",
        "numbers": "'mentions' and each metric: [recall num, recall den, precision num, precision den] and F1 % "
                   "as printed (truncated); blanc: 'coref_links', 'noncoref_links', 'blanc'. 'runs': 'each': "
                   "the one 'all' run refused (repeated response mentions), so command_each for each metric. "
                   "'sha256': the first 16 hex digits of the key's and the response's. 'clean': scorer.pl on "
                   "the pair as corefreport reads it, where those numbers differ (README: deliberate differences)",
        "seed": SEED,
        "cases": cases,
    }


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        sys.exit("usage: build_pairs.py SCORER_DIR [WORK_DIR]")
    work = Path(argv[2]) if len(argv) > 2 else Path("pairs")
    data = build(Path(argv[1]), work)
    EXPECTED.write_text(json.dumps(data, separators=(",", ":")).replace('{"id"', '\n{"id"') + "\n")


if __name__ == "__main__":
    main(sys.argv)
