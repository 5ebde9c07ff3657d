"""Write the hand-made zero fixtures: two Spanish news documents whose dropped subjects are empty
nodes carrying Entity= (as CorefUD writes zeros), and two responses. Usage: build_files.py OUT_DIR

Rows: ID FORM LEMMA UPOS HEAD DEPREL DEPS MISC (XPOS and FEATS are "_"). ``SYSTEM`` lists what a
system got wrong, each on its line; ``NOZEROS`` drops every empty node."""
import sys
DOC1 = ("es-news-1", [
 ("María Pérez llegó a Madrid el lunes .", [
  "1 María María PROPN 3 nsubj 3:nsubj Entity=(e1-person-1-",
  "2 Pérez Pérez PROPN 1 flat 1:flat Entity=e1)",
  "3 llegó llegar VERB 0 root 0:root _",
  "4 a a ADP 5 case 5:case _",
  "5 Madrid Madrid PROPN 3 obl 3:obl Entity=(e2-place-1-)",
  "6 el el DET 7 det 7:det Entity=(e6-time-2-",
  "7 lunes lunes NOUN 3 obl 3:obl Entity=e6)",
  "8 . . PUNCT 3 punct 3:punct _"]),
 ("Dijo que visitaría el museo con su hermano .", [
  "1 Dijo decir VERB 0 root 0:root _",
  "1.1 _ _ PRON _ _ 1:nsubj Entity=(e1-person-1-)",
  "2 que que SCONJ 3 mark 3:mark _",
  "3 visitaría visitar VERB 1 ccomp 1:ccomp _",
  "3.1 _ _ PRON _ _ 3:nsubj Entity=(e1-person-1-)",
  "4 el el DET 5 det 5:det Entity=(e3-place-2-",
  "5 museo museo NOUN 3 obj 3:obj Entity=e3)",
  "6 con con ADP 8 case 8:case _",
  "7 su su DET 8 det 8:det Entity=(e4-person-2-(e1-person-1-)",
  "8 hermano hermano NOUN 3 obl 3:obl Entity=e4)",
  "9 . . PUNCT 1 punct 1:punct _"]),
 ("El museo abrió sus puertas a las diez .", [
  "1 El el DET 2 det 2:det Entity=(e3-place-2-",
  "2 museo museo NOUN 3 nsubj 3:nsubj Entity=e3)",
  "3 abrió abrir VERB 0 root 0:root _",
  "4 sus su DET 5 det 5:det Entity=(e5-object-2-(e3-place-1-)",
  "5 puertas puerta NOUN 3 obj 3:obj Entity=e5)",
  "6 a a ADP 8 case 8:case _",
  "7 las el DET 8 det 8:det Entity=(e7-time-2-",
  "8 diez diez NUM 3 obl 3:obl Entity=e7)",
  "9 . . PUNCT 3 punct 3:punct _"]),
 ("Estaba lleno de turistas .", [
  "1 Estaba estar AUX 2 cop 2:cop _",
  "1.1 _ _ PRON _ _ 2:nsubj Entity=(e3-place-1-)",
  "2 lleno lleno ADJ 0 root 0:root _",
  "3 de de ADP 4 case 4:case _",
  "4 turistas turista NOUN 2 obl 2:obl Entity=(e8-person-1-)",
  "5 . . PUNCT 2 punct 2:punct _"]),
 ("Su hermano llegó tarde y no pudo entrar .", [
  "1 Su su DET 2 det 2:det Entity=(e4-person-2-(e1-person-1-)",
  "2 hermano hermano NOUN 3 nsubj 3:nsubj Entity=e4)",
  "3 llegó llegar VERB 0 root 0:root _",
  "4 tarde tarde ADV 3 advmod 3:advmod _",
  "5 y y CCONJ 7 cc 7:cc _",
  "6 no no ADV 7 advmod 7:advmod _",
  "7 pudo poder VERB 3 conj 3:conj _",
  "7.1 _ _ PRON _ _ 7:nsubj|8:nsubj:xsubj Entity=(e4-person-1-)",
  "8 entrar entrar VERB 7 xcomp 7:xcomp _",
  "9 . . PUNCT 3 punct 3:punct _"]),
 ("María lo esperó una hora .", [
  "1 María María PROPN 3 nsubj 3:nsubj Entity=(e1-person-1-)",
  "2 lo él PRON 3 obj 3:obj Entity=(e4-person-1-)",
  "3 esperó esperar VERB 0 root 0:root _",
  "4 una uno DET 5 det 5:det Entity=(e9-time-2-",
  "5 hora hora NOUN 3 obl 3:obl Entity=e9)",
  "6 . . PUNCT 3 punct 3:punct _"]),
])
DOC2 = ("es-news-2", [
 ("El Gobierno aprobó ayer la nueva ley .", [
  "1 El el DET 2 det 2:det Entity=(e11-organization-2-",
  "2 Gobierno Gobierno PROPN 3 nsubj 3:nsubj Entity=e11)",
  "3 aprobó aprobar VERB 0 root 0:root _",
  "4 ayer ayer ADV 3 advmod 3:advmod _",
  "5 la el DET 7 det 7:det Entity=(e12-abstract-3-",
  "6 nueva nuevo ADJ 7 amod 7:amod _",
  "7 ley ley NOUN 3 obj 3:obj Entity=e12)",
  "8 . . PUNCT 3 punct 3:punct _"]),
 ("Anunció que la ley entrará en vigor en enero .", [
  "1 Anunció anunciar VERB 0 root 0:root _",
  "1.1 _ _ PRON _ _ 1:nsubj Entity=(e11-organization-1-)",
  "2 que que SCONJ 5 mark 5:mark _",
  "3 la el DET 4 det 4:det Entity=(e12-abstract-2-",
  "4 ley ley NOUN 5 nsubj 5:nsubj Entity=e12)",
  "5 entrará entrar VERB 1 ccomp 1:ccomp _",
  "6 en en ADP 7 case 7:case _",
  "7 vigor vigor NOUN 5 obl 5:obl _",
  "8 en en ADP 9 case 9:case _",
  "9 enero enero PROPN 5 obl 5:obl Entity=(e13-time-1-)",
  "10 . . PUNCT 1 punct 1:punct _"]),
 ("Los sindicatos critican la medida porque consideran que es insuficiente .", [
  "1 Los el DET 2 det 2:det Entity=(e14-organization-2-",
  "2 sindicatos sindicato NOUN 3 nsubj 3:nsubj Entity=e14)",
  "3 critican criticar VERB 0 root 0:root _",
  "4 la el DET 5 det 5:det Entity=(e12-abstract-2-",
  "5 medida medida NOUN 3 obj 3:obj Entity=e12)",
  "6 porque porque SCONJ 7 mark 7:mark _",
  "7 consideran considerar VERB 3 advcl 3:advcl _",
  "7.1 _ _ PRON _ _ 7:nsubj Entity=(e14-organization-1-)",
  "8 que que SCONJ 10 mark 10:mark _",
  "9 es ser AUX 10 cop 10:cop _",
  "9.1 _ _ PRON _ _ 10:nsubj Entity=(e12-abstract-1-)",
  "10 insuficiente insuficiente ADJ 7 ccomp 7:ccomp _",
  "11 . . PUNCT 3 punct 3:punct _"]),
 ("El ministro defendió la ley ante la prensa .", [
  "1 El el DET 2 det 2:det Entity=(e15-person-2-",
  "2 ministro ministro NOUN 3 nsubj 3:nsubj Entity=e15)",
  "3 defendió defender VERB 0 root 0:root _",
  "4 la el DET 5 det 5:det Entity=(e12-abstract-2-",
  "5 ley ley NOUN 3 obj 3:obj Entity=e12)",
  "6 ante ante ADP 8 case 8:case _",
  "7 la el DET 8 det 8:det Entity=(e16-organization-2-",
  "8 prensa prensa NOUN 3 obl 3:obl Entity=e16)",
  "9 . . PUNCT 3 punct 3:punct _"]),
 ("Afirmó que protege a los trabajadores .", [
  "1 Afirmó afirmar VERB 0 root 0:root _",
  "1.1 _ _ PRON _ _ 1:nsubj Entity=(e15-person-1-)",
  "2 que que SCONJ 3 mark 3:mark _",
  "3 protege proteger VERB 1 ccomp 1:ccomp _",
  "3.1 _ _ PRON _ _ 3:nsubj Entity=(e12-abstract-1-)",
  "4 a a ADP 6 case 6:case _",
  "5 los el DET 6 det 6:det Entity=(e17-person-2-",
  "6 trabajadores trabajador NOUN 3 obj 3:obj Entity=e17)",
  "7 . . PUNCT 1 punct 1:punct _"]),
])

def order(rid):
    w, _, s = rid.partition(".")
    return (int(w), int(s or 0))

def render(docs, edits=None):
    """edits: {(doc, sent, id): None (drop the line) | "MISC" | "full row"}; ids not in the key are added."""
    edits = edits or {}
    out = []
    for d, (doc_id, sents) in enumerate(docs, 1):
        for s, (text, rows) in enumerate(sents, 1):
            if s == 1:
                out.append(f"# newdoc id = {doc_id}")
                out.append("# global.Entity = eid-etype-head-other")
            out.append(f"# sent_id = {doc_id}-s{s}")
            out.append(f"# text = {text}")
            table = {r.split(" ")[0]: r for r in rows}
            for (dd, ss, rid), e in edits.items():
                if (dd, ss) != (d, s):
                    continue
                if e is None:
                    table.pop(rid)
                elif " " in e:
                    table[rid] = e
                else:
                    f = table[rid].split(" ")
                    table[rid] = " ".join(f[:7] + [e])
            for rid in sorted(table, key=order):
                rid_, form, lemma, upos, head, deprel, deps, misc = table[rid].split(" ")
                out.append("\t".join([rid, form, lemma, upos, "_", "_", head, deprel, deps, misc]))
            out.append("")
    return "\n".join(out) + "\n"

DOCS = [DOC1, DOC2]
SYSTEM = {
    (1, 1, "1"): "Entity=(e1-person-1-)", (1, 1, "2"): "_",          # "María" for "María Pérez"
    (1, 1, "6"): "_", (1, 1, "7"): "_",                             # singleton "el lunes" not found
    (1, 2, "1.1"): None,                                            # the zero of "Dijo" written before it
    (1, 2, "0.1"): "0.1 _ _ PRON _ _ 1:nsubj Entity=(e1-person-1-)",
    (1, 3, "3.1"): "3.1 _ _ PRON _ _ 3:nsubj Entity=(e3-place-1-)",  # a spurious zero (overt subject)
    (1, 4, "1.1"): None,                                            # a missed zero
    (1, 5, "7.1"): "7.1 _ _ PRON _ _ 7:nsubj Entity=(e1-person-1-)", # fewer DEPS, wrong entity
    (1, 6, "2"): "Entity=(e1-person-1-)",                          # "lo" -> María
    (2, 3, "9.1"): None,                                            # the zero of "es" after the adjective
    (2, 3, "10.1"): "10.1 _ _ PRON _ _ 10:nsubj Entity=(e12-abstract-1-)",
    (2, 5, "1.1"): "1.1 _ _ PRON _ _ 3:nsubj Entity=(e17-person-1-)",  # the two zeros swapped
    (2, 5, "3.1"): "3.1 _ _ PRON _ _ 1:nsubj Entity=(e15-person-1-)",
}
NOZEROS = {(d, s, r.split(" ")[0]): None for d, (_, sents) in enumerate(DOCS, 1) for s, (_, rows) in enumerate(sents, 1)
           for r in rows if "." in r.split(" ")[0]}

if __name__ == "__main__":
    from pathlib import Path
    out = Path(sys.argv[1])
    (out / "key.conllu").write_text(render(DOCS), encoding="utf-8")
    (out / "response-system.conllu").write_text(render(DOCS, SYSTEM), encoding="utf-8")
    (out / "response-nozeros.conllu").write_text(render(DOCS, NOZEROS), encoding="utf-8")
