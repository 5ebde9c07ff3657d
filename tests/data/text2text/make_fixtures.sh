#!/bin/sh
# How the fixtures of tests/test_read_markup.py were made (run from this folder).
# T2T: a checkout of github.com/ondfa/text2text-coref at commit 56d67ec (its src/ folder on
# PYTHONPATH), in a venv with udapi 0.5.2 and compact_json 1.8.2 from PyPI. Its code is not kept here.
# GUM: ../shared/data/gum/dep/ (GUM CorefUD CoNLL-U).
set -e
PY=${PY:-python}
# 1. the key: three GUM documents, compacted (LEMMA, FEATS and MISC other than Entity= dropped;
#    comments other than newdoc id, sent_id and global.Entity dropped)
python3 compact.py $GUM/GUM_news_homeopathic.conllu $GUM/GUM_bio_dvorak.conllu $GUM/GUM_news_sensitive.conllu > key.conllu
# 2. the key as text2text markup (sequential ids e1, e2 …: GUM's ids are bare numbers, which the
#    cleaner would drop)
$PY -m text2text_coref conllu2text key.conllu -s -o key.txt
# 3. deterministic perturbations (perturb.py): one response per kind
for kind in misspell delete closing truncate badid all; do
  python3 perturb.py $kind < key.txt > $kind.txt
  # 4. the organisers' cleaner and text2conllu
  $PY -m text2text_coref clean $kind.txt key.conllu -o $kind-cleaned.txt 2> /dev/null
  $PY -m text2text_coref text2conllu $kind-cleaned.txt key.conllu -o $kind.conllu 2> /dev/null
  rm $kind-cleaned.txt
  python3 compact.py $kind.conllu > $kind.tmp && mv $kind.tmp $kind.conllu
  # 5. (compacted as the key, which changes no number) corefreport's CoNLL-U path on the result: the numbers the test expects from the text
  corefreport score key.conllu $kind.conllu -f json -q > $kind.expected.json
done
# 6. text2text-coref's JSON: the key converted, a system-like response made from it
#    (perturb_json.py), json2conllu back onto the key's words, scored by corefreport's CoNLL-U path
$PY -m text2text_coref conllu2json key.conllu -s -o key.json
python3 perturb_json.py < key.json > system.json
rm key.json
$PY -m text2text_coref json2conllu system.json key.conllu -o system.conllu 2> /dev/null
python3 compact.py system.conllu > system.tmp && mv system.tmp system.conllu
corefreport score key.conllu system.conllu -f json -q > system.expected.json
