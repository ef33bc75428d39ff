#!/usr/bin/env python3
"""Make the traditional-script editions the Big5 site (文華日報) carries.

    pip install opencc-python-reimplemented   # OpenCC's dictionaries, Apache-2.0
    python3 sample_corpora/tools/make_hant.py

Converts articles/{culture,travel}/01..08.txt character by character (OpenCC 's2tw', Taiwan variant characters, no phrase conversion) into
articles_hant/, keeping the header keys; the output is committed, so building the sample web
needs no converter. Every character must be encodable in Big5: the script checks.
"""
import pathlib
from opencc import OpenCC

ROOT = pathlib.Path(__file__).resolve().parent.parent
cc = OpenCC("s2tw")
for cat in ("culture", "travel"):
    out_dir = ROOT / "articles_hant" / cat
    out_dir.mkdir(parents=True, exist_ok=True)
    for n in range(1, 9):
        src = (ROOT / "articles" / cat / f"{n:02}.txt").read_text(encoding="utf-8")
        lines = []
        for line in src.split("\n"):
            key, sep, value = line.partition(": ")
            if sep and key in ("date", "event"):
                lines.append(line)
            elif sep and key in ("title", "author", "category"):
                lines.append(f"{key}: {cc.convert(value)}")
            else:
                lines.append(cc.convert(line))
        text = "\n".join(lines)
        bad = []
        for c in set(text):
            try:
                c.encode("big5")
            except UnicodeEncodeError:
                bad.append(c)
        if bad:
            print(f"{cat}/{n:02}: not in Big5: {''.join(sorted(set(bad)))}")
        (out_dir / f"{n:02}.txt").write_text(text, encoding="utf-8")
print("done")
