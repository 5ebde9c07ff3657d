"""The UA form of a CorefUD file, made with Udapi's own reader (not corefreport's), for UA scorer
v1 to score in tests/test_corefud_split.py (run in a scratch venv with ``pip install udapi``; not
run by the tests):

    python to_ua.py NAME.VARIANT.conllu OUT.ua NAME

UA CoNLL-U Plus in v1's 13-column layout: one ``(EntityID=E|MarkableID=markable_K`` per mention
(openers outer first, LIFO closers), ``ElementOf=P1,P2`` on every markable of an entity that Udapi
lists in ``P1.split_ante`` and ``P2.split_ante``. Stops on a discontinuous or crossing mention
(v1 reads LIFO closers only).
"""
import sys

import udapi
from udapi.block.read.conllu import Conllu


def convert(path: str, out: str, name: str) -> None:
    doc = udapi.Document(path)
    words = [n for b in doc.bundles for n in b.get_tree().descendants]
    index = {id(n): k for k, n in enumerate(words)}
    element_of: dict[str, list[str]] = {}
    for e in doc.coref_entities:
        for a in e.split_ante:
            element_of.setdefault(a.eid, [])
            if e.eid not in element_of[a.eid]:
                element_of[a.eid].append(e.eid)
    marks = []
    n = 0
    for e in doc.coref_entities:
        for m in e.mentions:
            ws = sorted(index[id(w)] for w in m.words)
            if ws != list(range(ws[0], ws[-1] + 1)):
                raise SystemExit(f"{path}: discontinuous mention {m}")
            n += 1
            marks.append((ws[0], -ws[-1], n, ws[-1], e.eid))
    marks.sort()
    opens = [[] for _ in words]
    closes = [0] * len(words)
    singles = [[] for _ in words]
    for s, _, k, end, eid in marks:
        info = f"EntityID={eid}|MarkableID=markable_{k}"
        if eid in element_of:
            info += "|ElementOf=" + ",".join(element_of[eid])
        if s == end:
            singles[s].append(f"({info})")
        else:
            opens[s].append((f"({info}", end, k))
    cells = []
    stack = []
    for i in range(len(words)):
        cell = ""
        for text, end, k in opens[i]:
            cell += text
            stack.append((end, k))
        cell += "".join(singles[i])
        cells.append(cell)
    closing = [[] for _ in words]
    for s, negend, k, end, eid in marks:
        if s != end:
            closing[end].append((s, k))
    out_cells = []
    stack = []
    for i in range(len(words)):
        # close those ending here: must be on top of the stack
        need = sorted(closing[i], key=lambda x: (-x[0], -x[1]))
        for s, k in need:
            if not stack or stack[-1] != k:
                raise SystemExit(f"{path}: crossing mentions at word {i}")
            stack.pop()
        for text, end, k in opens[i]:
            stack.append(k)
        out_cells.append((")" * len(need) + cells[i]) or "_")
    with open(out, "w", encoding="utf-8") as f:
        f.write("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
                "DISCOURSE_DEIXIS\n")
        f.write(f"# newdoc id = {name}\n")
        k = 0
        for b in doc.bundles:
            for j, n in enumerate(b.get_tree().descendants, 1):
                f.write(f"{j} {n.form.replace(' ', '_') or '_'} _ _ _ _ _ _ _ _ {out_cells[k]} _ _\n")
                k += 1
            f.write("\n")


if __name__ == "__main__":
    convert(sys.argv[1], sys.argv[2], sys.argv[3])
