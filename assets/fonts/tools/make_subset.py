#!/usr/bin/env python3
"""Rebuild assets/fonts/NotoSansCJKsc-subset.otf from Debian's fonts-noto-cjk.

    apt-get install fonts-noto-cjk && pip install fonttools
    python3 assets/fonts/tools/make_subset.py

Keeps: ASCII/Latin-1, general and CJK punctuation, full-width forms, every GB2312 character
(simplified Chinese), every Big5 level-1 character (common traditional Chinese, 0xA440-0xC67E),
plus the characters of the UI string tables. Face: index 2 (SC) of NotoSansCJK-Regular.ttc.
"""
import pathlib, subprocess, sys

TTC = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
OUT = pathlib.Path(__file__).resolve().parent.parent / "NotoSansCJKsc-subset.otf"
ROOT = pathlib.Path(__file__).resolve().parents[3]

chars = set()
for cp in list(range(0x20, 0x7F)) + list(range(0xA0, 0x180)):
    chars.add(chr(cp))
for lo, hi in [(0x2000, 0x206F), (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2460, 0x24FF),
               (0x2500, 0x257F), (0x25A0, 0x25FF), (0x2600, 0x26FF), (0x3000, 0x303F),
               (0x3200, 0x32FF), (0xFF00, 0xFFEF)]:
    chars.update(chr(cp) for cp in range(lo, hi + 1))
# GB2312: rows 0xA1-0xF7, cells 0xA1-0xFE
for hi in range(0xA1, 0xF8):
    for lo in range(0xA1, 0xFF):
        try:
            chars.update(bytes([hi, lo]).decode("gb2312"))
        except UnicodeDecodeError:
            pass
# Big5 level 1 (frequent characters) and symbols: 0xA140-0xC67E
for hi in range(0xA1, 0xC7):
    for lo in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
        try:
            chars.update(bytes([hi, lo]).decode("big5"))
        except UnicodeDecodeError:
            pass
# UI strings, so the interface never depends on a system font
for p in (ROOT / "src").rglob("*.rs"):
    chars.update(c for c in p.read_text(encoding="utf-8") if ord(c) >= 0x80)
text = "".join(sorted(chars))
tmp = pathlib.Path("/tmp/subset_chars.txt")
tmp.write_text(text, encoding="utf-8")
subprocess.run([sys.executable, "-m", "fontTools.subset", TTC, "--font-number=2",
                f"--text-file={tmp}", f"--output-file={OUT}", "--layout-features=*",
                "--no-hinting", "--name-IDs=*", "--name-languages=*"], check=True)
print(f"{len(chars)} characters -> {OUT} ({OUT.stat().st_size} bytes)")
