"""Files that the original scorers read in their own way, the inputs of tests/test_reader_originals.py.

``python build.py OUT_DIR`` writes (all committed here too):

* ``key.conll``: two CoNLL-2012 documents, TAB-separated, 7 columns (document, part, index, word,
  POS, parse bit, coreference);
* ``response-spaced.conll``: a system's response in which the coreference column of every third
  token line follows the parse bit after a **space** instead of a TAB (``…\t* (1)``, ``…\t* -``), and
  so does one line with two brackets (``* (4|(3)``) — scorer.pl v8.01 splits on TAB and finds the
  brackets in the last field;
* ``response-names.conll``: the same response with the first document named ``(d1);part 000`` and the
  second ``(d2); part  000`` (the key: ``(d1); part 000``, ``(d2); part 000``): scorer.pl pairs
  documents by the name as written and scores both key documents as missing;
* ``response-tabbed.conll``: the same response, every line TAB-separated (what corefreport reads
  ``response-spaced.conll`` and ``response-names.conll`` as);
* ``key.conllu``: the same two documents as CorefUD CoNLL-U; ``response-misc-tab.conllu``: the
  response, every word line with an Entity ending in a TAB after MISC, two of them with text after it
  (``\tjunk``) — Udapi strips the line and reads its first 10 columns; ``response.conllu``: the
  response as valid CoNLL-U.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = {  # document → sentences of (word, key coref, response coref)
    "d1": [[("John", "(1)", "(1)"), ("saw", "-", "-"), ("the", "(2", "(2"), ("old", "-", "-"), ("man", "2)", "2)"),
            ("and", "-", "-"), ("his", "(3)|(4", "(4|(3)"), ("dog", "4)", "4)")],
           [("He", "(1)", "(2)"), ("liked", "-", "-"), ("it", "(4)", "(4)"), (".", "-", "-")]],
    "d2": [[("Mary", "(5)", "(5)"), ("met", "-", "-"), ("Sue", "(6)", "(5)"), ("there", "-", "(7)")],
           [("She", "(5)", "(6)"), ("smiled", "-", "-"), ("at", "-", "-"), ("her", "(6)", "(6)")]],
}
NAMES = {"d1": "(d1);part 000", "d2": "(d2); part  000"}


def conll(side: int, spaced: bool = False, names: dict[str, str] | None = None) -> str:
    out = []
    k = 0
    for doc, sentences in DOCS.items():
        out.append(f"#begin document {(names or {}).get(doc, f'({doc}); part 000')}")
        i = 0
        for sentence in sentences:
            for token in sentence:
                coref = token[side]
                sep = " " if spaced and k % 3 == 0 else "\t"
                if spaced and doc == "d1" and i == 6:
                    sep = " "  # two brackets after the space ("his": "(4|(3)")
                out.append("\t".join([doc, "0", str(i), token[0], "NN", "*"]) + sep + coref)
                i += 1
                k += 1
            out.append("")
        out.append("#end document")
    return "\n".join(out) + "\n"


def entity(cell: str) -> str:
    """A CoNLL-2012 coreference cell as a CorefUD Entity value (ids e1 …): closings, then openings."""
    if cell == "-":
        return ""
    parts = cell.split("|")
    closes = [f"e{p[:-1]})" for p in parts if not p.startswith("(")]
    return "".join(closes + [f"(e{p[1:]}" for p in parts if p.startswith("(")])


def conllu(side: int, misc_tab: bool = False) -> str:
    out = ["# global.Entity = eid-etype-head-other"]
    extra = 0
    for doc, sentences in DOCS.items():
        out.append(f"# newdoc id = {doc}")
        for s, sentence in enumerate(sentences, 1):
            out.append(f"# sent_id = {doc}-{s}")
            for w, token in enumerate(sentence, 1):
                value = entity(token[side])
                misc = f"Entity={value}" if value else "_"
                line = "\t".join([str(w), token[0], "_", "_", "_", "_", "0" if w == 1 else "1",
                                  "root" if w == 1 else "dep", "_", misc])
                if misc_tab and value:
                    extra += 1
                    line += "\tjunk" if extra in (2, 5) else "\t"
                out.append(line)
            out.append("")
    return "\n".join(out) + "\n"


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    files = {
        "key.conll": conll(1),
        "response-spaced.conll": conll(2, spaced=True),
        "response-names.conll": conll(2, spaced=True, names=NAMES),
        "response-tabbed.conll": conll(2),
        "key.conllu": conllu(1),
        "response.conllu": conllu(2),
        "response-misc-tab.conllu": conllu(2, misc_tab=True),
    }
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
