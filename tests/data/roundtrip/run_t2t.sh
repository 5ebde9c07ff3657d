#!/bin/sh
# How key.json and key.txt were made (run from this folder). T2T: a checkout of
# github.com/ondfa/text2text-coref at commit 56d67ec (its src/ folder on PYTHONPATH), in a venv with
# udapi 0.5.2 and compact_json 1.8.2 from PyPI. Its code is not kept here.
set -e
PY=${PY:-python}
python3 build.py > key.conllu
PYTHONPATH=$T2T/src $PY -m text2text_coref conllu2json key.conllu -s -o key.json
PYTHONPATH=$T2T/src $PY -m text2text_coref conllu2text key.conllu -s -o key.txt
