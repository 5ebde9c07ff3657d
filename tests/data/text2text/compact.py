"""Compact CorefUD CoNLL-U: keep ID FORM UPOS XPOS HEAD DEPREL DEPS and MISC's Entity= only."""
import sys

for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            if line.startswith(("# newdoc id", "# sent_id", "# global.Entity")):
                print(line)
            continue
        if not line.strip():
            print()
            continue
        c = line.split("\t")
        misc = "|".join(x for x in c[9].split("|") if x.startswith("Entity=")) or "_"
        print("\t".join([c[0], c[1], "_", c[3], c[4], "_", c[6], c[7], c[8], misc]))
