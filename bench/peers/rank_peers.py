#!/usr/bin/env python3
"""networkx PageRank and HITS on a `n m` header + `id url` + `src dst` graph file (hollins.dat).

Usage: rank_peers.py GRAPH [REPEAT] [L1_TOL]. Prints one JSON document: best-of-REPEAT seconds,
PageRank iterations (counted by re-running with max_iter = k until it converges), and
the full PageRank and HITS vectors keyed by the file's node ids.
Settings match the reference: nx.pagerank(alpha=0.85) (dangling mass spread uniformly,
stop when L1 change < N·tol, tol = L1_TOL/N, default networkx's 1e-6), nx.hits() (scipy svds, normalised by sum). Needs networkx, scipy, numpy.
"""
import json
import sys
import time

import networkx as nx


def read(path):
    g = nx.DiGraph()
    with open(path) as f:
        n, m = (int(x) for x in f.readline().split()[:2])
        for _ in range(n):
            g.add_node(f.readline().split()[0])
        for line in f:
            p = line.split()
            if len(p) == 2:
                g.add_edge(p[0], p[1])
    return g


def best(fn, repeat):
    t_best, out = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        t_best = min(t_best, time.perf_counter() - t)
    return t_best, out


def main():
    path = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    g = read(path)
    # networkx stops when the L1 change < N * tol; tol = 1e-10 / N matches our --tol 1e-10.
    tol = float(sys.argv[3]) / len(g) if len(sys.argv) > 3 else 1e-6
    pr_s, pr = best(lambda: nx.pagerank(g, alpha=0.85, tol=tol, max_iter=1000), repeat)
    iters = None
    for k in range(1, 1000):
        try:
            nx.pagerank(g, alpha=0.85, max_iter=k, tol=tol)
            iters = k
            break
        except nx.PowerIterationFailedConvergence:
            continue
    hits_s, (hubs, auths) = best(lambda: nx.hits(g), repeat)
    json.dump(
        {
            "networkx": nx.__version__,
            "pagerank_tol": tol,
            "pagerank_seconds": pr_s,
            "pagerank_iterations": iters,
            "pagerank": pr,
            "hits_seconds": hits_s,
            "hubs": hubs,
            "authorities": auths,
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
