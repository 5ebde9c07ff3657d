"""Write the concatenations the reference programs score (inputs of tests/test_crossdoc.py).

    python concatenate.py key.conll        # -> key.all.conll (one document), key.topics.conll
    python concatenate.py response.conll   #    (one document per topic: the id before '_'),
                                           #    key.topic-1.conll, key.topic-2.conll (one file each)

Blocks are copied line for line; only the #begin/#end lines change (a blank line stays a sentence
break, so the documents are concatenated in file order, as Cattan et al.'s conll.py writes them).
"""
import re
import sys
from collections import OrderedDict

path = sys.argv[1]
stem = path.rsplit(".", 1)[0]
docs = OrderedDict()
name = None
for line in open(path):
    m = re.match(r"#begin document \((.*)\); part 000", line)
    if m:
        name, body = m.group(1), []
        continue
    if line.startswith("#end document"):
        while body and not body[-1].strip():
            body.pop()
        docs[name] = body
        continue
    body.append(line)


def block(doc_id, names):
    out = [f"#begin document ({doc_id}); part 000\n"]
    for i, n in enumerate(names):
        out += docs[n] + ["\n"]
    return out + ["#end document\n"]


topics = OrderedDict()
for n in docs:
    topics.setdefault(n.split("_")[0], []).append(n)
open(f"{stem}.all.conll", "w").writelines(block("all", list(docs)))
open(f"{stem}.topics.conll", "w").writelines([x for t, ns in topics.items() for x in block(t, ns)])
for t, ns in topics.items():
    open(f"{stem}.topic-{t}.conll", "w").writelines([x for n in ns for x in block(n, [n])])

# The decoupled protocol's coreference input: the topics' concatenation without one-mention chains
# (a label opened once in a topic), as Cattan et al. (2021) score coreference.
def brackets(line):
    return [p for p in line.rstrip("\n").split("\t")[-1].split("|") if p != "-"]


lines = open(f"{stem}.topics.conll").read().splitlines(keepends=True)
opened, doc = {}, None
for line in lines:
    if line.startswith("#begin"):
        doc = line
    elif not line.startswith("#") and line.strip():
        for p in brackets(line):
            if p.startswith("("):
                key = (doc, re.search(r"\d+", p).group())
                opened[key] = opened.get(key, 0) + 1
out = []
for line in lines:
    if line.startswith("#begin"):
        doc = line
    elif not line.startswith("#") and line.strip():
        cols = line.rstrip("\n").split("\t")
        cols[-1] = "|".join(p for p in brackets(line) if opened[(doc, re.search(r"\d+", p).group())] > 1) or "-"
        line = "\t".join(cols) + "\n"
    out.append(line)
open(f"{stem}.topics.nosingletons.conll", "w").writelines(out)
