#!/usr/bin/env python3
"""datasketch MinHash-LSH and the simhash package on a folder of NAME.txt (what
`tianwang bench dedup --peers` runs beside the workbench's methods, on the same texts).

Usage: dedup_peers.py --dir DIR [--repeat N]. Prints one JSON document:
{"rows":[{"tool","version","docs","features_s","match_s","total_s","docs_per_s","pairs":[[a,b],…]}]}
with the best of N timed runs; file reading is excluded, as on our side.

Settings are the peers' documented usage, as in the issue's reference figures:
- datasketch: MinHash(num_perm=128) over the set of character 5-shingles of the text (headline and
  body, whitespace removed), MinHashLSH(threshold=0.8, num_perm=128); every document is inserted
  and queried, and each (query, hit) pair is reported (LSH's candidates, as datasketch returns
  them: it has no exact re-check).
- simhash: Simhash(text) with the package's default features (3-character shingles of the
  lower-cased word characters), SimhashIndex(k=3); near-duplicates are what get_near_dups returns.
"""
import argparse
import json
import os
import re
import sys
import time
from importlib.metadata import version

from datasketch import MinHash, MinHashLSH
from simhash import Simhash, SimhashIndex


def read(d):
    docs = []
    for name in sorted(os.listdir(d)):
        if name.endswith(".txt"):
            with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
                docs.append((name[:-4], f.read()))
    return docs


def shingles(text, k=5):
    t = re.sub(r"\s+", "", text)
    if len(t) <= k:
        return {t}
    return {t[i : i + k] for i in range(len(t) - k + 1)}


def run_datasketch(docs):
    t0 = time.perf_counter()
    sigs = []
    for name, text in docs:
        m = MinHash(num_perm=128)
        m.update_batch([s.encode("utf-8") for s in shingles(text)])
        sigs.append((name, m))
    t1 = time.perf_counter()
    lsh = MinHashLSH(threshold=0.8, num_perm=128)
    for name, m in sigs:
        lsh.insert(name, m)
    pairs = set()
    for name, m in sigs:
        for other in lsh.query(m):
            if other != name:
                pairs.add(tuple(sorted((name, other))))
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, pairs


def run_simhash(docs):
    t0 = time.perf_counter()
    # The package's own features (its tokenizer: lower-cased word characters, 3-character
    # windows), passed as a list with repeats: the same sums as Simhash(text), which with
    # numpy 2 overflows a uint8 when a window occurs over 255 times.
    tok = Simhash("")
    objs = [(name, Simhash(tok._tokenize(text))) for name, text in docs]
    t1 = time.perf_counter()
    index = SimhashIndex(objs, k=3)
    pairs = set()
    for name, h in objs:
        for other in index.get_near_dups(h):
            if other != name:
                pairs.add(tuple(sorted((name, other))))
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, pairs


def best(fn, docs, repeat):
    out = None
    for _ in range(repeat):
        r = fn(docs)
        if out is None or r[0] + r[1] < out[0] + out[1]:
            out = r
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    docs = read(a.dir)
    if not docs:
        print(f"dedup_peers.py: no .txt files in {a.dir}", file=sys.stderr)
        sys.exit(2)
    rows = []
    for tool, pkg, fn in (
        ("datasketch-minhash-lsh", "datasketch", run_datasketch),
        ("simhash", "simhash", run_simhash),
    ):
        f, m, pairs = best(fn, docs, max(1, a.repeat))
        total = f + m
        rows.append(
            {
                "tool": tool,
                "version": version(pkg),
                "docs": len(docs),
                "features_s": f,
                "match_s": m,
                "total_s": total,
                "docs_per_s": len(docs) / total if total > 0 else 0.0,
                "pairs": sorted(pairs),
            }
        )
    json.dump({"rows": rows}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
