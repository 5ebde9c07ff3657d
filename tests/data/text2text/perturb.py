"""Deterministic perturbations of text2text markup (stdin → stdout), one document per line.

misspell: every 29th word (about 3.4 %) gets its first two letters swapped, or an 'x' appended;
delete: every 47th word is left out; closing: every 7th closing tag ('eN]') is lost;
truncate: each document's last 15 % of words are cut off; badid: every 5th entity id is written
'x' + digits instead of 'e' + digits; all: misspell, delete, closing and truncate together.
"""
import sys

KIND = sys.argv[1]


def misspell(w, k):
    form, bar, tags = w.partition("|")
    if k % 29 != 3:
        return w
    form = form[1] + form[0] + form[2:] if len(form) > 2 and form[0] != form[1] else form + "x"
    return form + bar + tags


def closing(w, counter):
    form, bar, tags = w.partition("|")
    if not bar:
        return w
    kept = []
    for t in tags.split(","):
        if t.endswith("]") and not t.startswith("["):
            counter[0] += 1
            if counter[0] % 7 == 0:
                continue
        kept.append(t)
    return form + ("|" + ",".join(kept) if kept else "")


def badid(w):
    form, bar, tags = w.partition("|")
    if not bar:
        return w
    out = []
    for t in tags.split(","):
        digits = t.strip("[]")[1:]
        if digits.isdigit() and int(digits) % 5 == 0:
            t = t.replace("e" + digits, "x" + digits)
        out.append(t)
    return form + bar + ",".join(out)


for line in sys.stdin:
    words = line.split()
    counter = [0]
    if KIND in ("misspell", "all"):
        words = [misspell(w, k) for k, w in enumerate(words)]
    if KIND in ("delete", "all"):
        words = [w for k, w in enumerate(words) if k % 47 != 11]
    if KIND in ("closing", "all"):
        words = [closing(w, counter) for w in words]
    if KIND in ("truncate", "all"):
        words = words[: len(words) * 85 // 100]
    if KIND == "badid":
        words = [badid(w) for w in words]
    print(" ".join(words))
