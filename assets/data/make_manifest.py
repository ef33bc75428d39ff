#!/usr/bin/env python3
"""Write assets/data/manifest.json: every data set a lab or a book experiment reads, with its
purpose, licence, upstream repository and commit, and the size and SHA-256 of every file.

    python3 assets/data/make_manifest.py ../shared/data > assets/data/manifest.json
    python3 assets/data/make_manifest.py ../shared/data --mirrors DIR   # also check upstream

DATA is a folder laid out as `../shared/data` (each set's files under its `dir`). With
`--mirrors DIR` (clones named `owner+name/repo`, as the project's mirror tool lays them out) the
script also checks that every file with an upstream source is byte-identical to the upstream
blob at the pinned commit, so `tianwang data fetch` will verify (a repository with no clone
there is reported as not checked; a clone without the file, or another blob, is a mismatch and
the exit status is 1). The binary embeds the result
(`src/engine/data/manifest.rs`); run this again when a set changes.

A set marked `from_upstream` (aeb, the article-extraction benchmark) need not be in DATA: its
files are the upstream tree at the pinned commit (`html/*.html.gz` listed by `git ls-tree`), and
each file's size and SHA-256 come from the blob in `--mirrors DIR`; without a mirror, from DATA
when the set is installed there; else they are carried over from the current manifest.json
beside this script (same commit, so the same bytes). Such a set is never a reason to fail.
"""

import hashlib
import json
import os
import subprocess
import sys

RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"

THUC = ("649453932/Chinese-Text-Classification-Pytorch", "6cb26819af7b646275aff8a4693676f2849e67f6")
CCWE = ("immortal-autumn/Chinese-Web-Content-Extraction-Dataset", "99d0ef08419109b5489b12e38f771f25b952d774")
READ = ("mozilla/readability", "ab4027a8b37669745016869a37a504727992b2ba")
SOGOU_GB = ("liaozp1/textsum", "585f08fe1b5587fd51d3ddbf95025292a6ff7b5f")
SOGOU_U8 = ("NICE-FUTURE/tfidf-cosine-text-recommendation", "c4ae9d10ea9720b938eefe94f538d797465a1abd")
HOLLINS = ("kanakagrawal/pagerank", "d9c289b5d5b1212174be0eb019b70832eaa20dd7")
LCS = ("1a1a11a/libCacheSim", "aa0fc40914b2b786f4b9f4dafb099f8f332b216a")
AEB = ("scrapinghub/article-extraction-benchmark", "4a3bc979f76c0df73cb95fe272e2fc1b96f9f010")

# Each set: name, its folder under the data root, what it is for, its licence and terms, and
# its files as (path in the set, upstream (repo, commit) or None, path upstream).
SETS = [
    {
        "name": "thucnews_titles",
        "dir": "classification/thucnews_titles",
        "title": "THUCNews news titles, 10 classes",
        "purpose": "The classifier lab's stand-in for the book's pages (Tables 11-2, 11-5, "
        "Figs 11-6..11-12) and the search lab's evaluation (titles as documents and queries): "
        "dev.txt and test.txt, 10,000 titles each, 1,000 per class.",
        "licence": "MIT (the repository); THUCNews itself: free for academic research only",
        "terms": "THUCNews (thuctc.thunlp.org) may be used for academic research only; the "
        "titles were sampled from it by the upstream repository, whose code is MIT-licensed. "
        "Do not redistribute them commercially.",
        "files": [("class.txt", THUC, "THUCNews/data/class.txt"),
                  ("dev.txt", THUC, "THUCNews/data/dev.txt"),
                  ("test.txt", THUC, "THUCNews/data/test.txt"),
                  ("LICENSE_repo", THUC, "LICENSE"),
                  ("README_repo.md", THUC, "README.md")],
    },
    {
        "name": "ccwe",
        "dir": "extraction/ccwe",
        "title": "Chinese Web Content Extraction pages with hand-extracted text",
        "purpose": "Page cleaning (DocView) against ground truth, the dedup lab's real articles "
        "and page templates: 69 real Chinese pages (original/*.html, 47 in GBK/GB18030) with "
        "their main text, author and date.",
        "licence": "MIT",
        "terms": "MIT licence (Copyright (c) 2022 Elwin). Some pages hold politically "
        "sensitive text: keep them out of demos.",
        "files": "ccwe",
    },
    {
        "name": "readability_zh",
        "dir": "extraction/readability_zh",
        "title": "Mozilla Readability's four Chinese test pages",
        "purpose": "Page cleaning out of sample: gmw, qq, youth and pixnet with their expected "
        "main content and metadata.",
        "licence": "Apache-2.0",
        "terms": "Apache License 2.0 (Mozilla Readability's test suite).",
        "files": [(f"test/test-pages/{p}/{f}", READ, f"test/test-pages/{p}/{f}")
                  for p in ["gmw", "pixnet", "qq", "youth"]
                  for f in ["expected-metadata.json", "expected.html", "source.html"]]
        + [("LICENSE.md", READ, "LICENSE.md")],
    },
    {
        "name": "sogoucs_smarty",
        "dir": "classification/sogoucs_smarty",
        "title": "200 SogouCS news records (GB18030 and UTF-8)",
        "purpose": "The SogouCS XML reader and its encodings, and real news articles for the "
        "dedup lab's development sets.",
        "licence": "Sogou Lab data licence (SogouCS): research use",
        "terms": "SogouCS is Sogou Lab's corpus, free for research; the two repositories that "
        "carry this 200-record sample state no licence of their own.",
        "files": [("news_sohusite_xml.smarty.gb18030.dat", SOGOU_GB, "data/news_sohusite_xml.smarty.dat"),
                  ("news_sohusite_xml.smarty.utf8.dat", SOGOU_U8, "news_sohusite_xml.smarty.dat")],
    },
    {
        "name": "hollins",
        "dir": "graph/hollins",
        "title": "The hollins.edu web graph (6,012 pages, 23,875 links)",
        "purpose": "PageRank and HITS on a real crawl's link graph (the rank lab and its "
        "book experiments).",
        "licence": "no licence stated upstream; a standard teaching data set",
        "terms": "The Hollins University crawl of January 2004, widely used to teach "
        "PageRank; the repository carrying it states no licence. Use it for study and research.",
        "files": [("hollins.dat", HOLLINS, "data/cuda_data/hollins.dat")],
    },
    {
        "name": "cloudphysics",
        "dir": "cache/cloudphysics",
        "title": "libCacheSim's cloudPhysics block trace (113,872 requests)",
        "purpose": "Cache policies on a real trace (the cache lab and its benchmark), beside "
        "libCacheSim's own miss ratios.",
        "licence": "GPL-3.0",
        "terms": "Distributed with libCacheSim under the GNU GPL v3 (LICENSE_libCacheSim).",
        "files": [("cloudPhysicsIO.txt", LCS, "data/cloudPhysicsIO.txt"),
                  ("cloudPhysicsIO.csv", LCS, "data/cloudPhysicsIO.csv"),
                  ("LICENSE_libCacheSim", LCS, "LICENSE")],
    },
    {
        "name": "aeb",
        "dir": "extraction/aeb",
        "title": "Article extraction benchmark (Zyte), 181 English news pages",
        "purpose": "DocView's out-of-domain check: 181 English news pages it was never tuned "
        "on (html/SHA256.html.gz, gzip, UTF-8) with a hand-made article body each "
        "(ground-truth.json); `clean --aeb` and `bench clean` score them. Tune half: names "
        "starting 0-7; check half: 8-f.",
        "licence": "MIT",
        "terms": "MIT licence (Copyright (c) 2020 Scrapinghub): Zyte's article-extraction-"
        "benchmark. The pages are news articles of their publishers, kept for evaluation.",
        "from_upstream": True,
        "files": "aeb",
    },
    {
        "name": "references",
        "dir": "",
        "title": "Peer tools' reference figures on the sets above",
        "purpose": "What scikit-learn, networkx, libCacheSim, readability-lxml, trafilatura and "
        "rank_bm25 measured on these sets (the benchmarks' and tests' peer numbers).",
        "licence": "measurements made for this project (MIT OR Apache-2.0)",
        "terms": "Figures computed for this project; use them freely.",
        "import_only": "computed on this project's machines by peer tools from the other sets; "
        "no upstream repository holds them, so they come only with `tianwang data import`",
        "files": [(f"references/{f}", None, None) for f in [
            "bm25_reference.json", "cache_reference_miss_ratios.json", "ccwe_peer_scores.json",
            "hollins_reference.json", "peer_tools_pip_freeze.txt",
            "thucnews_titles_sklearn_baselines.json"]]
        + [("graph/hollins/hollins_pagerank_networkx_a0.85.json", None, None),
           ("cache/cloudphysics/libCacheSim_test_evictionAlgo_expected_excerpt.txt", None, None)],
    },
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def ccwe_files(data):
    out = []
    for sub, ext in [("original", ".html"), ("cleaned", ".txt"), ("author", ".txt"), ("date", ".txt")]:
        for f in sorted(os.listdir(os.path.join(data, "extraction/ccwe", sub))):
            if f.endswith(ext):
                out.append((f"{sub}/{f}", CCWE, f"{sub}/{f}"))
    return out + [("LICENSE", CCWE, "LICENSE"), ("README.md", CCWE, "README.md")]


def aeb_files(data, mirrors, previous):
    """The upstream tree's html/*.html.gz, ground-truth.json and LICENSE: listed from the
    mirror at the pinned commit, else from DATA, else from the previous manifest."""
    repo, commit = AEB
    names = None
    if mirrors:
        git = mirror_git(mirrors, repo)
        r = subprocess.run(["git", "--git-dir", git, "ls-tree", "--name-only", commit, "html/"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            names = [n for n in r.stdout.split() if n.endswith(".html.gz")]
    if names is None and os.path.isdir(os.path.join(data, "extraction/aeb/html")):
        names = [f"html/{f}" for f in os.listdir(os.path.join(data, "extraction/aeb/html"))
                 if f.endswith(".html.gz")]
    if names is None:
        names = [f["path"] for f in previous.get("aeb", {}) if f["path"].startswith("html/")]
    if not names:
        sys.exit("aeb: no file list (give --mirrors DIR with a clone of " + repo + ")")
    return [(n, AEB, n) for n in sorted(names)] + [("ground-truth.json", AEB, "ground-truth.json"),
                                                  ("LICENSE", AEB, "LICENSE")]


def previous_manifest():
    """Set name -> its files in the manifest.json beside this script (if any)."""
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "manifest.json")
    try:
        with open(p, encoding="utf-8") as f:
            return {s["name"]: s["files"] for s in json.load(f)["sets"]}
    except (OSError, ValueError, KeyError):
        return {}


def mirror_git(mirrors, repo):
    d = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    return os.path.join(d, ".git") if os.path.isdir(os.path.join(d, ".git")) else d


def upstream_blob(mirrors, repo, commit, path):
    git = mirror_git(mirrors, repo)
    r = subprocess.run(["git", "--git-dir", git, "show", f"{commit}:{path}"], capture_output=True)
    return r.stdout if r.returncode == 0 else None


def pinned_entry(name, rel, up, src, mirrors, previous):
    """Size and SHA-256 of a file of a `from_upstream` set absent from DATA: the mirror's blob
    at the pinned commit, else the previous manifest's entry."""
    blob = upstream_blob(mirrors, up[0], up[1], src) if mirrors else None
    if blob is not None:
        return {"path": rel, "bytes": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
    old = next((f for f in previous.get(name, []) if f["path"] == rel), None)
    if old is None:
        sys.exit(f"{name}/{rel}: not in DATA, not in the mirror, not in manifest.json")
    return {"path": rel, "bytes": old["bytes"], "sha256": old["sha256"]}


def main():
    args = sys.argv[1:]
    mirrors = None
    if "--mirrors" in args:
        i = args.index("--mirrors")
        mirrors = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__)
    data = args[0]
    sets = []
    bad = checked = 0
    unchecked = {}  # repo -> files not checked: no clone of it in the mirrors folder
    previous = previous_manifest()
    for s in SETS:
        if s["files"] == "ccwe":
            files = ccwe_files(data)
        elif s["files"] == "aeb":
            files = aeb_files(data, mirrors, previous)
        else:
            files = s["files"]
        entries = []
        upstreams = []
        for rel, up, src in files:
            p = os.path.join(data, s["dir"], rel)
            if s.get("from_upstream") and not os.path.isfile(p):
                e = pinned_entry(s["name"], rel, up, src, mirrors, previous)
            else:
                e = {"path": rel, "bytes": os.path.getsize(p), "sha256": sha256(p)}
            if up:
                repo, commit = up
                e["url"] = RAW.format(repo=repo, commit=commit, path=src)
                if {"repo": repo, "commit": commit} not in upstreams:
                    upstreams.append({"repo": repo, "commit": commit})
                if mirrors and not os.path.isdir(mirror_git(mirrors, repo)):
                    unchecked[repo] = unchecked.get(repo, 0) + 1
                elif mirrors:
                    blob = upstream_blob(mirrors, repo, commit, src)
                    if blob is None or hashlib.sha256(blob).hexdigest() != e["sha256"]:
                        print(f"MISMATCH {s['name']}/{rel} <- {repo}@{commit}:{src}", file=sys.stderr)
                        bad += 1
                    else:
                        checked += 1
            entries.append(e)
        out = {k: s[k] for k in ["name", "dir", "title", "purpose", "licence", "terms"]}
        out["upstream"] = upstreams
        out["import_only"] = s.get("import_only")
        out["files"] = entries
        sets.append(out)
    json.dump({"version": 1, "sets": sets}, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")
    if mirrors:
        for repo, n in unchecked.items():
            print(f"not checked: {n} files of {repo} (no clone in {mirrors})", file=sys.stderr)
        print(f"checked against upstream: {checked} files match, {bad} mismatches",
              file=sys.stderr)
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
