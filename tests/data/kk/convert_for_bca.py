"""Convert corefreport's real CoNLL-2012 pairs into input the Berkeley Coreference Analyser reads.

Conversions (inputs only; the analyser is run unchanged):
1. gold: one file per document, ``<out>/gold/<doc>.gold_conll`` (it globs ``<doc>*gold*conll``);
2. gold parse column (6th) becomes a flat one-constituent tree per sentence, ``(S*`` … ``*)``
   (GUM's derived CoNLL has ``*`` only): every multi-token mention that is not the whole sentence
   then gets its last token as head;
3. ``(`` and ``)`` inside words and POS tags become ``-LRB-`` / ``-RRB-`` (the tree reader splits on them);
4. ``#end document`` lines are written after each document (the reader flushes a document on them);
5. with ``--drop-missed-key-singletons``: key singleton entities whose span the response lacks are
   removed from the key copy (the analyser crashes on them: KeyError 'introduce'); add
   ``--response-singletons-dropped`` for its mode T, where a span only a response singleton has
   counts as lacking.

Usage: python convert_for_bca.py KEY.conll RESPONSE.conll OUTDIR
"""
import re
import sys
from collections import defaultdict


def read(path):
    docs, cur, name = {}, None, None
    for line in open(path, encoding="utf-8"):
        if line.startswith("#begin"):
            name = line.split("(")[1].split(")")[0]
            cur = docs[name] = {"header": line, "sents": [[]]}
        elif line.startswith("#end"):
            continue
        elif not line.strip():
            if cur and cur["sents"][-1]:
                cur["sents"].append([])
        else:
            cur["sents"][-1].append(line.rstrip("\n").split("\t"))
    for d in docs.values():
        if not d["sents"][-1]:
            d["sents"].pop()
    return docs


def clean(tok):
    return tok.replace("(", "-LRB-").replace(")", "-RRB-")


def spans(sents):
    """(sentence, start, end) -> label for every mention of a document."""
    out = defaultdict(list)
    for si, s in enumerate(sents):
        open_ = defaultdict(list)
        for wi, f in enumerate(s):
            col = f[-1]
            if col in ("-", "_", ""):
                continue
            for part in col.split("|"):
                m = re.fullmatch(r"\((\d+)\)", part)
                if m:
                    out[(si, wi, wi)].append(m.group(1))
                elif part.startswith("("):
                    open_[part[1:]].append(wi)
                elif part.endswith(")"):
                    out[(si, open_[part[:-1]].pop(), wi)].append(part[:-1])
    return out


def write(d, path, gold, drop=frozenset()):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(d["header"])
        for si, s in enumerate(d["sents"]):
            n = len(s)
            cols = [[] for _ in range(n)]
            for (ssi, a, b), labels in spans(d["sents"]).items():
                if ssi != si:
                    continue
                for lab in labels:
                    if (si, a, b, lab) in drop:
                        continue
                    if a == b:
                        cols[a].append(f"({lab})")
                    else:
                        cols[a].append(f"({lab}")
                        cols[b].append(f"{lab})")
            for wi, f in enumerate(s):
                f = list(f)
                f[3], f[4] = clean(f[3]), clean(f[4])
                if gold:
                    f[5] = ("(S*" if wi == 0 else "*") + (")" if wi == n - 1 else "")
                f[-1] = "|".join(cols[wi]) or "-"
                fh.write("\t".join(f) + "\n")
            fh.write("\n")
        fh.write("#end document\n")


def main(key, response, out, drop_missed=False, nonsingleton_only=False):
    import os

    kd, rd = read(key), read(response)
    os.makedirs(os.path.join(out, "gold"), exist_ok=True)
    with open(os.path.join(out, "response.conll"), "w", encoding="utf-8"):
        pass
    dropped = 0
    for name, d in kd.items():
        drop = set()
        if drop_missed:
            ks = spans(d["sents"])
            rsp = spans(rd[name]["sents"]) if name in rd else {}
            if nonsingleton_only:  # mode T: the analyser drops response singletons first
                rsp = {sp: labels[:1] for sp, labels in rsp.items()}  # its reader keeps a repeated span once
                rc = defaultdict(int)
                for labels in rsp.values():
                    rc[labels[0]] += 1
                rsp = {sp: labels for sp, labels in rsp.items() if rc[labels[0]] > 1}
            rs = set(rsp)
            count = defaultdict(int)
            for labels in ks.values():
                for lab in labels:
                    count[lab] += 1
            for sp, labels in ks.items():
                for lab in labels:
                    if count[lab] == 1 and sp not in rs:
                        drop.add(sp + (lab,))
            dropped += len(drop)
        write(d, os.path.join(out, "gold", name + ".gold_conll"), True, drop)
    with open(os.path.join(out, "response.conll"), "a", encoding="utf-8") as fh:
        for name, d in rd.items():
            tmp = os.path.join(out, "_tmp")
            write(d, tmp, False)
            fh.write(open(tmp, encoding="utf-8").read())
            os.remove(tmp)
    print(f"{len(kd)} documents; dropped {dropped} missed key singleton(s)")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    main(*args, drop_missed="--drop-missed-key-singletons" in sys.argv,
         nonsingleton_only="--response-singletons-dropped" in sys.argv)
