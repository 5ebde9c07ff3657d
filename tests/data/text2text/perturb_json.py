"""A deterministic system-like response in text2text-coref's JSON (stdin → stdout, a JSON array):
every 4th mention of each cluster dropped, each document's clusters 2 and 3 merged, every 9th
mention's end moved one token left when it is longer than one token."""
import json
import sys

docs = json.load(sys.stdin)
for d in docs:
    clusters = []
    k = 0
    for c in d["clusters_token_offsets"]:
        kept = []
        for i, (a, b) in enumerate(c):
            k += 1
            if i % 4 == 3:
                continue
            kept.append([a, b - 1] if k % 9 == 0 and b > a else [a, b])
        clusters.append(kept)
    if len(clusters) > 3:
        clusters[2] = clusters[2] + clusters.pop(3)
    d["clusters_token_offsets"] = [c for c in clusters if c]
    del d["clusters_text_mentions"]
json.dump(docs, sys.stdout, ensure_ascii=False)
