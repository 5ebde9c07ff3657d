"""The generator of random_pairs.json (written for corefreport; run: python random_pairs.py SEED KEY RESPONSE):
random constituency trees as CoNLL-2012 parse bits, key mentions from constituents and random spans,
responses with shifted boundaries, dropped, added and merged mentions and chains."""
import random, sys
LABELS = ["NP","NP","NP","VP","PP","S","SBAR","ADJP","NML","QP","NX","ADVP"]
WORDS = [("the","DT"),("a","DT"),("man","NN"),("dogs","NNS"),("of","IN"),("in","IN"),("and","CC"),("he","PRP"),
         ("big","JJ"),("saw","VBD"),(",",","),("-LRB-","-LRB-"),("-RRB-","-RRB-"),("3","CD"),("'s","POS"),("%","NN"),
         ("U.S.","NNP"),("John","NNP"),("ran","VBD"),("``","``")]
def tree(rng, depth, n):
    # returns list of (word,pos,bits-prefix/suffix) via nested structure
    if n == 1 and (depth > 3 or rng.random() < 0.5):
        return ("w", rng.choice(WORDS))
    k = rng.randint(1, min(n, 4))
    cuts = sorted(rng.sample(range(1, n), k - 1)) if k > 1 else []
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [n])]
    kids = []
    for s in sizes:
        if s == 1 and rng.random() < 0.6:
            kids.append(("w", rng.choice(WORDS)))
        else:
            kids.append(tree(rng, depth + 1, s))
    return (rng.choice(LABELS), kids)
def flat(t, out, spans):
    if t[0] == "w":
        out.append([t[1][0], t[1][1], "", ""]); return
    start = len(out)
    for k in t[1]: flat(k, out, spans)
    out[start][2] = out[start][2] + "(" + t[0]
    out[-1][3] = out[-1][3] + ")"
    spans.append((start, len(out) - 1))
def sentence(rng):
    n = rng.randint(3, 12)
    t = ("TOP", [tree(rng, 0, n)])
    out, spans = [], []
    flat(t, out, spans)
    # parse bits: opens + '*' + closes (opens were prepended outer-last, fix order)
    rows = []
    for w, p, o, c in out:
        labs = [x for x in o.split("(") if x]
        rows.append((w, p, "".join("(" + x for x in reversed(labs)) + "*" + c))
    return rows, spans
def main(seed, path_key, path_resp):
    rng = random.Random(seed)
    docs = []
    for d in range(rng.randint(1, 3)):
        sents = [sentence(rng) for _ in range(rng.randint(1, 4))]
        cands = set()
        for s, (rows, spans) in enumerate(sents):
            for a, b in spans:
                cands.add((s, a, b))
            for _ in range(2):
                a = rng.randrange(len(rows)); b = rng.randint(a, min(len(rows)-1, a+3)); cands.add((s, a, b))
        cands = sorted(cands)
        km = rng.sample(cands, min(len(cands), rng.randint(2, 9)))
        nchain = rng.randint(1, max(1, len(km)//2 + 1))
        key = [[] for _ in range(nchain)]
        for m in km: key[rng.randrange(nchain)].append(m)
        key = [c for c in key if c]
        resp = []
        used = set()
        for c in key:
            rc = []
            for (s, a, b) in c:
                if rng.random() < 0.15: continue
                L = len(sents[s][0])
                if rng.random() < 0.6:
                    a2 = max(0, min(a + rng.choice([-2,-1,0,0,1]), b)); b2 = min(L-1, max(a2, b + rng.choice([-1,0,0,1,2])))
                else: a2, b2 = a, b
                if (s,a2,b2) in used: continue
                used.add((s,a2,b2)); rc.append((s,a2,b2))
            if rc: resp.append(rc)
        # merge / split
        if len(resp) > 1 and rng.random() < 0.3:
            resp[0] += resp.pop()
        for _ in range(rng.randint(0, 2)):
            m = rng.choice(cands)
            if m not in used: used.add(m); rng.choice(resp + [[]]).append(m) if resp else resp.append([m])
        resp = [c for c in resp if c]
        docs.append((f"d{d}", sents, key, resp))
    for path, side in ((path_key, 2), (path_resp, 3)):
        with open(path, "w") as f:
            for doc in docs:
                name, sents, chains = doc[0], doc[1], doc[side]
                f.write(f"#begin document ({name}); part 000\n")
                for s, (rows, _) in enumerate(sents):
                    opens = [[] for _ in rows]; closes = [[] for _ in rows]; singles = [[] for _ in rows]
                    for ci, c in enumerate(chains, 1):
                        for (ss, a, b) in c:
                            if ss != s: continue
                            if a == b: singles[a].append(f"({ci})")
                            else: opens[a].append(f"({ci}"); closes[b].append(f"{ci})")
                    for i, (w, p, bits) in enumerate(rows):
                        cell = "|".join(opens[i] + singles[i] + closes[i]) or "-"
                        f.write("\t".join([name, "0", str(i), w, p, bits, "-", "-", "-", "-", "*", cell]) + "\n")
                    f.write("\n")
                f.write("#end document\n")
main(int(sys.argv[1]), sys.argv[2], sys.argv[3])
