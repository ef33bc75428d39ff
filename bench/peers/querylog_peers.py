#!/usr/bin/env python3
"""The query-log statistics of `tianwang querylog stats` in pandas, for `tianwang bench
querylog --peers`: the same definitions (engine::querylog), written the way a pandas user
would, vectorised where pandas allows.

Usage: querylog_peers.py FILE   (a SogouQ log in UTF-8: time, user, [query], "rank order", URL)
Prints one JSON document: seconds per phase and the figures to cross-check.
"""
import json
import sys
import time
import unicodedata  # noqa: F401  (kept: users swap in NFKC here)

import numpy as np
import pandas as pd


def normalise(q: pd.Series) -> pd.Series:
    # Full-width ASCII → half-width, U+3000 → space; trim; collapse; ASCII lower-case.
    table = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
    table[0x3000] = 0x20
    q = q.str.translate(table).str.strip().str.replace(r"\s+", " ", regex=True)
    return q.str.lower()


def rs_hurst(x: np.ndarray):
    pts = []
    n = 8
    while n <= len(x) // 2:
        k = len(x) // n
        b = x[: k * n].reshape(k, n)
        mu = b.mean(axis=1, keepdims=True)
        w = np.cumsum(b - mu, axis=1)
        r = np.maximum(w.max(axis=1), 0) - np.minimum(w.min(axis=1), 0)
        s = b.std(axis=1)
        ok = s > 0
        if ok.any():
            pts.append((np.log10(n), np.log10((r[ok] / s[ok]).mean())))
        n *= 2
    if len(pts) < 2:
        return None
    a = np.array(pts)
    return float(np.polyfit(a[:, 0], a[:, 1], 1)[0])


def main():
    path = sys.argv[1]
    t = {}
    t0 = time.perf_counter()
    df = pd.read_csv(
        path, sep="\t", header=None, names=["time", "user", "query", "ro", "url"],
        dtype=str, quoting=3, engine="c", keep_default_na=False, on_bad_lines="skip",
    )
    ro = df["ro"].str.partition(" ")
    df["rank"] = pd.to_numeric(ro[0], errors="coerce")
    df = df[df["rank"].notna()]
    df["rank"] = df["rank"].astype(np.int64)
    q = df["query"]
    q = q.where(~(q.str.startswith("[") & q.str.endswith("]")), q.str[1:-1])
    df["q"] = normalise(q)
    hms = df["time"].str.split(":", expand=True).astype(np.int64)
    df["t"] = hms[0] * 3600 + hms[1] * 60 + hms[2]
    t["read"] = time.perf_counter() - t0

    t1 = time.perf_counter()
    n = len(df)
    codes, uniques = pd.factorize(df["q"])
    counts = np.bincount(codes)
    m = len(uniques)
    vc = pd.Series(counts, index=uniques)
    # Top 100, ties by first appearance (factorize numbers queries in order of appearance).
    order = np.lexsort((np.arange(m), -counts))
    top = [{"query": uniques[i], "count": int(counts[i])} for i in order[:100]]
    sorted_counts = counts[order]
    ranks = np.arange(1, m + 1)
    slope, intercept = np.polyfit(np.log10(ranks), np.log10(sorted_counts), 1)
    r2 = float(np.corrcoef(np.log10(ranks), np.log10(sorted_counts))[0, 1] ** 2) if m > 1 else 1.0
    csum = np.concatenate([[0], np.cumsum(sorted_counts)])
    coverage = [float(csum[(m * k) // 100] / n) for k in range(1, 101)]
    users = df["user"].nunique()
    # Sessions: a user's requests in file order, a new one after > 30 min.
    g = df[["user", "t"]].copy()
    g["prev"] = g.groupby("user", sort=False)["t"].shift()
    sessions = int((g["prev"].isna() | ((g["t"] - g["prev"]).abs() > 1800)).sum())
    t["volume"] = time.perf_counter() - t1

    t2 = time.perf_counter()
    G = 1000
    groups = n // G
    grp = pd.DataFrame({"g": np.arange(groups * G) // G, "q": codes[: groups * G]})
    first = set(grp.loc[grp["g"] == 0, "q"])
    decay = grp.assign(hit=grp["q"].isin(first)).groupby("g")["hit"].sum().to_numpy()
    fc = grp.groupby(["g", "q"]).size().rename("f").reset_index()
    a = fc.assign(g=fc["g"] + 1)
    pairs = fc.merge(a, on=["g", "q"], how="outer", suffixes=("_b", "_a")).fillna(0)
    pairs = pairs[(pairs["g"] >= 1) & (pairs["g"] < groups)]
    s_dev = ((pairs["f_a"] - pairs["f_b"]) / G) ** 2
    S = s_dev.groupby(pairs["g"]).sum().to_numpy()
    t["decay_deviation"] = time.perf_counter() - t2

    t3 = time.perf_counter()
    page = (df["rank"] + 9) // 10
    pages = page.value_counts().sort_index()
    click_ranks = df["rank"].value_counts().sort_index()
    uq = pd.DataFrame({"u": df["user"].to_numpy(), "q": codes, "p": page.to_numpy()}).drop_duplicates()
    per_pair = uq.groupby(["u", "q"]).size()
    pages_per_query = float(len(uq) / len(per_pair))
    t["pages_clicks"] = time.perf_counter() - t3

    t4 = time.perf_counter()
    url_counts = df["url"].value_counts()
    clicked_once = int((url_counts == 1).sum())
    top_q = set(order[:10000])
    sub = pd.DataFrame({"q": codes, "url": df["url"].to_numpy()})
    sub = sub[sub["q"].isin(top_q)]
    w = sub.groupby(["q", "url"]).size().rename("w").reset_index()
    w["g"] = w["url"].map(url_counts).astype(np.float64)
    w["wg"] = w["w"] * w["g"]
    w["ww"] = w["w"].astype(np.float64) ** 2
    w["gg"] = w["g"] ** 2
    agg = w.groupby("q")[["wg", "ww", "gg"]].sum()
    cos = agg["wg"] / np.sqrt(agg["ww"] * agg["gg"])
    t["urls"] = time.perf_counter() - t4

    t5 = time.perf_counter()
    levels = {}
    for size in (500, 1000, 2000):
        k = n // size
        levels[size] = (
            pd.DataFrame({"g": np.arange(k * size) // size, "q": codes[: k * size]})
            .groupby("g")["q"].nunique().to_numpy()
        )
    hurst = rs_hurst(levels[500].astype(np.float64))
    t["selfsim"] = time.perf_counter() - t5

    t6 = time.perf_counter()
    import jieba

    jieba.setLogLevel(60)
    qs = pd.Series(uniques)
    chars = qs.str.len().to_numpy()
    words = qs.map(lambda s: sum(1 for w in jieba.cut(s, HMM=False) if w.strip())).to_numpy()
    mean_chars = float((chars * counts).sum() / n)
    mean_words = float((words * counts).sum() / n)
    hours = np.bincount((df["t"].to_numpy() % 86400) // 3600, minlength=24)
    t["lengths_time"] = time.perf_counter() - t6

    out = {
        "tool": "pandas",
        "pandas": pd.__version__,
        "phases_s": t,
        "stats_seconds": time.perf_counter() - t0,
        "lines": int(n),
        "requests": int(n),
        "distinct_queries": int(m),
        "distinct_users": int(users),
        "sessions": sessions,
        "queries_seen_once": int((counts == 1).sum()),
        "zipf_slope": float(slope),
        "zipf_intercept": float(intercept),
        "zipf_r2": r2,
        "coverage_at_20pct": coverage[19],
        "decay_groups": int(len(decay)),
        "deviation_mean": float(S.mean()) if len(S) else None,
        "result_pages": int(len(pages)),
        "page1_share": float(pages.iloc[0] / n) if len(pages) else None,
        "click_ranks": int(len(click_ranks)),
        "pages_per_query": pages_per_query,
        "urls_distinct": int(len(url_counts)),
        "urls_clicked_once": clicked_once,
        "cosine_share_above_08": float((cos > 0.8).mean()) if len(cos) else None,
        "hurst": hurst,
        "mean_chars": mean_chars,
        "mean_words": mean_words,
        "hours": hours.tolist(),
        "top_query": top[0] if top else None,
    }
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
