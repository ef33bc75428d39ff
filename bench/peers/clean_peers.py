#!/usr/bin/env python3
"""Measure peer main-text extractors (readability-lxml, trafilatura) on a page set.

For every NAME.html in --html-dir with a NAME.txt in --truth-dir, run each tool,
score its text against the truth with char-bigram multiset P/R/F1 over alnum chars
(macro-averaged), and time the extraction calls only (best of --repeat runs).
Called by `tianwang bench clean`; see README.md.
"""
import argparse
import json
import logging
import platform
import sys
import time
from collections import Counter
from importlib.metadata import version
from pathlib import Path

TOOLS = ("readability-lxml", "trafilatura")


def decode(raw: bytes) -> tuple[str, str]:
    """Strict UTF-8, else GB18030, else UTF-8 with replacement (as the reference run)."""
    for enc in ("utf-8", "gb18030"):
        try:
            return raw.decode(enc), enc
        except UnicodeDecodeError:
            pass
    return raw.decode("utf-8", errors="replace"), "utf-8-replace"


def make_extractor(tool: str):
    if tool == "readability-lxml":
        import lxml.html
        from readability import Document

        def run(html: str) -> str:
            summary = Document(html).summary()
            return "\n".join(lxml.html.fromstring(summary).itertext())
        return run
    if tool == "trafilatura":
        import trafilatura

        # include_comments=False is what reproduces the reference scores
        # (ccwe_peer_scores.json, macro F1 0.8471); the default (True) gives 0.8428.
        return lambda html: trafilatura.extract(html, include_comments=False) or ""
    raise ValueError(tool)


def grams(text: str) -> Counter:
    chars = [c for c in text if c.isalnum()]
    if len(chars) == 1:
        return Counter(chars)
    return Counter(a + b for a, b in zip(chars, chars[1:]))


def prf(pred: str, truth: str) -> tuple[float, float, float]:
    p_g, t_g = grams(pred), grams(truth)
    if not p_g and not t_g:
        return 1.0, 1.0, 1.0
    if not p_g or not t_g:
        return 0.0, 0.0, 0.0
    hit = sum((p_g & t_g).values())
    p, r = hit / sum(p_g.values()), hit / sum(t_g.values())
    return p, r, (2 * p * r / (p + r) if hit else 0.0)


def bench_tool(tool: str, pages: list, repeat: int) -> dict:
    extract = make_extractor(tool)
    best, texts, errors = float("inf"), {}, {}
    for i in range(repeat):
        logging.disable(logging.CRITICAL if i else logging.NOTSET)  # tool log noise: first pass only
        total = 0.0
        for name, html, _truth in pages:
            t0 = time.perf_counter()
            try:
                text = extract(html)
            except Exception as e:  # a failing page scores 0, the run goes on
                text = None
                errors[name] = f"{type(e).__name__}: {e}"
            total += time.perf_counter() - t0
            texts[name] = text
        best = min(best, total)
    logging.disable(logging.NOTSET)
    for name, err in errors.items():
        print(f"[{tool}] {name}: {err}", file=sys.stderr)
    scores = {name: prf(texts[name], truth) if texts[name] is not None else (0.0, 0.0, 0.0)
              for name, _html, truth in pages}
    macro = [sum(v[i] for v in scores.values()) / len(scores) for i in range(3)]
    return {
        "version": version(tool),
        "pages": len(pages),
        "seconds": round(best, 4),
        "pages_per_s": round(len(pages) / best, 2) if best > 0 else None,
        "macro_p": round(macro[0], 4),
        "macro_r": round(macro[1], 4),
        "macro_f1": round(macro[2], 4),
        "errors": len(errors),
        "per_page": {name: [round(x, 4) for x in v] for name, v in scores.items()},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--html-dir", required=True, type=Path)
    ap.add_argument("--truth-dir", required=True, type=Path)
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()

    tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    if not tools or set(tools) - set(TOOLS):
        ap.error(f"--tools: choose from {', '.join(TOOLS)}")

    out, sys.stdout = sys.stdout, sys.stderr  # keep stdout clean: only our result goes there
    logging.basicConfig(level=logging.ERROR, stream=sys.stderr)

    pages, decoded = [], Counter()
    for html_path in sorted(args.html_dir.glob("*.html")):
        truth_path = args.truth_dir / (html_path.stem + ".txt")
        if truth_path.is_file():
            html, enc = decode(html_path.read_bytes())
            decoded[enc] += 1
            pages.append((html_path.name, html, truth_path.read_text(encoding="utf-8", errors="replace")))
    if not pages:
        raise SystemExit(f"no NAME.html in {args.html_dir} with NAME.txt in {args.truth_dir}")
    print(f"{len(pages)} pages, decoded as {dict(decoded)}", file=sys.stderr)

    result = {"tools": {t: bench_tool(t, pages, max(1, args.repeat)) for t in tools},
              "python": platform.python_version()}
    if args.json:
        json.dump(result, out, ensure_ascii=False)
        out.write("\n")
        return
    out.write(f"{'tool':<18}{'version':>9}{'pages':>7}{'pages/s':>10}{'P':>8}{'R':>8}{'F1':>8}{'errors':>8}\n")
    for t, r in result["tools"].items():
        out.write(f"{t:<18}{r['version']:>9}{r['pages']:>7}{r['pages_per_s']:>10}"
                  f"{r['macro_p']:>8.4f}{r['macro_r']:>8.4f}{r['macro_f1']:>8.4f}{r['errors']:>8}\n")


if __name__ == "__main__":
    main()
