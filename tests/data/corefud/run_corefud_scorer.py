"""Run corefud-scorer v1.2 (ufal/corefud-scorer 4fd7b0e) through its own API and print full-precision
R, P, F1 per metric as JSON. Usage: run_cs.py KEY RESPONSE MATCH KEEP_SINGLETONS"""
import json, sys
sys.path.insert(0, '/tmp/cs')
import importlib
ua = importlib.import_module("ua-scorer")
from scorer.corefud.reader import CorefUDReader
from scorer.eval.evaluator import evaluate_documents as ev, muc, b_cubed, ceafe, ceafm, lea, blancc, blancn, mention_overlap
key, resp, match, keep = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
r = CorefUDReader(format="corefud", keep_singletons=keep, keep_zeros=True, match=match, zero_match_method="dependent")
r.get_coref_infos(key, resp)
d = r.doc_coref_infos
out = {n: list(map(float, ev(d, m))) for n, m in [("muc", muc), ("bcub", b_cubed), ("ceafe", ceafe), ("ceafm", ceafm),
       ("lea", lea), ("blanc_crac", [blancc, blancn]), ("mor", mention_overlap)]}
print(json.dumps(out))
