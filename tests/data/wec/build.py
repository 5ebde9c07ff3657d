"""Builds gold.json and predicted.json — hand-made in WEC-Eng's format (huggingface.co/datasets/Intel/WEC-Eng,
"Data Instances"): a JSON array of mentions, each with its own paragraph (mention_context) and token numbers,
three Wikipedia articles, clusters global over the split — and the same clusters as one CoNLL-2012 document
(gold.conll, predicted.conll: each distinct paragraph a sentence, ordered by article title then text) for the
reference scorer. Run: python build.py (scorer.pl's output is recorded in scorer_output.txt)."""
import json

P1 = "In 1998 , the band joined the Family Values Tour 1998 and toured with Korn .".split()
P2 = "The Family Values Tour was a concert tour ; its 1998 edition made the band famous .".split()
P3 = "Korn headlined the tour in 1998 , and played Woodstock 1999 the next summer .".split()
P4 = "After Woodstock 1999 the festival was not held again ; the 1999 festival ended in riots .".split()


def m(mid, doc, ctx, nums, chain, pred=None):
    return {"coref_chain": chain, "coref_link": "x", "doc_id": doc, "mention_context": ctx,
            "mention_head": ctx[nums[-1]], "mention_head_lemma": ctx[nums[-1]], "mention_head_pos": "PROPN",
            "mention_id": str(mid), "mention_index": mid, "mention_ner": "UNK", "mention_type": 8,
            "predicted_coref_chain": pred, "sent_id": 0, "tokens_number": nums,
            "tokens_str": " ".join(ctx[i] for i in nums), "topic_id": -1}


gold = [
    m(1, "House of Pain", P1, [7, 8, 9, 10], 100),    # Family Values Tour 1998
    m(2, "Family Values Tour", P2, [1, 2, 3], 100),   # Family Values Tour
    m(3, "Family Values Tour", P2, [10, 11], 100),    # 1998 edition
    m(4, "Korn", P3, [2, 3], 100),                    # the tour
    m(5, "Korn", P3, [9, 10], 200),                   # Woodstock 1999
    m(6, "Woodstock", P4, [1, 2], 200),               # Woodstock 1999
    m(7, "Woodstock", P4, [10, 11, 12], 200),         # the 1999 festival
]
pred = [100, 100, 200, 100, 200, 200, 300]            # a system's clusters
resp = [dict(x, predicted_coref_chain=p) for x, p in zip(gold, pred)]
json.dump(gold, open("gold.json", "w"), indent=1)
json.dump(resp[::-1], open("predicted.json", "w"), indent=1)  # the system wrote its mentions in another order

order = sorted({(x["doc_id"], tuple(x["mention_context"])) for x in gold}, key=lambda k: (k[0], " ".join(k[1])))


def conll(chains):
    out = ["#begin document (WEC); part 000"]
    for doc, ctx in order:
        for i, w in enumerate(ctx):
            tags = []
            for x, c in zip(gold, chains):
                if x["doc_id"] != doc or tuple(x["mention_context"]) != ctx:
                    continue
                a, b = min(x["tokens_number"]), max(x["tokens_number"])
                if a == b == i:
                    tags.append(f"({c})")
                elif a == i:
                    tags.append(f"({c}")
                elif b == i:
                    tags.append(f"{c})")
            out.append(f"WEC\t0\t{i}\t{w}\t-\t-\t-\t-\t-\t-\t{'|'.join(tags) or '-'}")
        out.append("")
    out.append("#end document")
    return "\n".join(out) + "\n"


open("gold.conll", "w").write(conll([x["coref_chain"] for x in gold]))
open("predicted.conll", "w").write(conll(pred))
