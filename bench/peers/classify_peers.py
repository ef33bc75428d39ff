#!/usr/bin/env python3
"""scikit-learn peers for `tianwang bench classify`: the reference pipelines on the THUCNews titles.

usage: classify_peers.py DIR [REPEAT]   (DIR holds dev.txt, test.txt: title<TAB>label-id)
Prints one JSON document on stdout: {"rows": [...], "meta": {...}}.
Tokens: jieba.lcut (HMM on, Python jieba's default), whitespace tokens dropped, no lower-casing
(the reference's 25,129 features). Timing: train_s = vectoriser fit + selection + model fit,
test_s = transform + predict, on pre-tokenised text (jieba timed apart); best of REPEAT.
"""
import json
import logging
import re
import sys
import time

import jieba
import sklearn
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.feature_selection import SelectKBest, chi2
from sklearn.metrics import accuracy_score, f1_score
from sklearn.naive_bayes import MultinomialNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier


def read(path):
    texts, labels = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if not line.strip():
                continue
            text, label = line.rsplit("\t", 1)
            texts.append(text.strip())
            labels.append(int(label))
    return texts, labels


def ident(x):
    return x


def bigrams(text):
    """Character bigrams of each run of alphanumerics, prefixed `_` (as ours)."""
    out = []
    for run in re.split(r"[^\w]|_", text):
        out.extend("_" + run[i:i + 2] for i in range(len(run) - 1))
    return out


def pipelines():
    tfidf = lambda: TfidfVectorizer(analyzer=ident)
    return {
        "nb": lambda: make_pipeline(CountVectorizer(analyzer=ident), MultinomialNB(alpha=1.0)),
        "knn": lambda: make_pipeline(tfidf(), KNeighborsClassifier(n_neighbors=10, metric="cosine")),
        "rocchio": lambda: make_pipeline(tfidf(), NearestCentroid()),
        "tree": lambda: make_pipeline(tfidf(), SelectKBest(chi2, k=5000), DecisionTreeClassifier(random_state=0)),
        "svm": lambda: make_pipeline(tfidf(), LinearSVC(random_state=0)),
        "svm+bigrams": lambda: make_pipeline(tfidf(), LinearSVC(random_state=0)),
    }


def main():
    d = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    xtr, ytr = read(f"{d}/dev.txt")
    xte, yte = read(f"{d}/test.txt")
    t0 = time.perf_counter()
    ttr = [[w for w in jieba.lcut(s) if w.strip()] for s in xtr]
    tte = [[w for w in jieba.lcut(s) if w.strip()] for s in xte]
    tok_s = time.perf_counter() - t0
    btr = [t + bigrams(s) for t, s in zip(ttr, xtr)]
    bte = [t + bigrams(s) for t, s in zip(tte, xte)]
    rows = []
    for name, make in pipelines().items():
        xa, xb = (btr, bte) if name.endswith("+bigrams") else (ttr, tte)
        best = None
        for _ in range(max(1, repeat)):
            p = make()
            a = time.perf_counter()
            p.fit(xa, ytr)
            b = time.perf_counter()
            pred = p.predict(xb)
            c = time.perf_counter()
            if best is None or (c - a) < best[0] + best[1]:
                best = (b - a, c - b, pred, p)
        tr, te, pred, p = best
        nfeat = len(p[0].vocabulary_)
        if name == "tree":
            nfeat = 5000
        rows.append({
            "tool": "scikit-learn", "corpus": "thucnews_titles", "model": name,
            "train_s": tr, "test_s": te, "total_s": tr + te,
            "accuracy": accuracy_score(yte, pred), "macro_f1": f1_score(yte, pred, average="macro"),
            "features": nfeat,
        })
    meta = {"sklearn": sklearn.__version__, "jieba": jieba.__version__, "tokenize_s": tok_s, "repeat": repeat}
    print(json.dumps({"rows": rows, "meta": meta}))


if __name__ == "__main__":
    main()
