#!/usr/bin/env python3
"""libCacheSim peer for `tianwang bench cache --peers`.

Runs libCacheSim (PyPI package `libcachesim`, pinned in requirements.txt) on a plain-text
trace (one object id per line, libCacheSim's PLAIN_TXT_TRACE) with the given policies and
object-count sizes; each (policy, size) run is timed around `process_trace` (its C loop over
its own reader), best of --repeat. stdout: exactly one JSON document
{policy: {"requests_per_s": float, "sizes": {size: {"miss_ratio", "byte_miss_ratio", "seconds"}}}}
with Tianwang's policy names. Logs go to stderr.
"""
import argparse
import json
import sys
import time

import libcachesim as lcs

NAMES = {
    "lru": "LRU", "fifo": "FIFO", "lfu": "LFU", "clock": "Clock", "arc": "ARC",
    "s3fifo": "S3FIFO", "sieve": "Sieve", "2q": "TwoQ", "slru": "SLRU", "lirs": "LIRS",
    "gdsf": "GDSF", "random": "Random",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace", required=True)
    ap.add_argument("--policies", default="lru,fifo,lfu,clock,arc,s3fifo,sieve,2q")
    ap.add_argument("--sizes", default="100,1000,5000,10000,20000")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    reader = lcs.TraceReader(a.trace, lcs.TraceType.PLAIN_TXT_TRACE, lcs.ReaderInitParam())
    sizes = [int(s) for s in a.sizes.split(",") if s]
    out = {}
    for name in a.policies.split(","):
        if name not in NAMES:
            print(f"cache_peers.py: libCacheSim has no `{name}` here; skipped", file=sys.stderr)
            continue
        cls = getattr(lcs, NAMES[name])
        total_s, runs = 0.0, {}
        for size in sizes:
            best, res = float("inf"), None
            for _ in range(max(1, a.repeat)):
                cache = cls(size)
                t0 = time.perf_counter()
                res = cache.process_trace(reader)
                best = min(best, time.perf_counter() - t0)
            runs[str(size)] = {"miss_ratio": res[0], "byte_miss_ratio": res[1], "seconds": best}
            total_s += best
        out[name] = {"sizes": runs, "seconds": total_s}
    # requests per run: the trace length
    n = 0
    for _ in reader:
        n += 1
    for v in out.values():
        v["requests"] = n
        v["requests_per_s"] = n * len(sizes) / v["seconds"] if v["seconds"] > 0 else None
    json.dump(out, sys.stdout)
    print()


if __name__ == "__main__":
    main()
