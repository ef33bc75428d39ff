#!/usr/bin/env python3
"""How often is an undeclared page's encoding guessed right? (engine::text::encoding)

Takes real pages from a data folder (ccwe, readability_zh, aeb when installed) and, optionally,
Mozilla Readability's test pages (a checkout's test/test-pages), removes every charset
declaration, re-encodes each page to the legacy encodings its script fits (GBK for Chinese,
EUC-KR, Shift_JIS/EUC-JP, windows-1251/KOI8-R, windows-1256, windows-1255, windows-1253,
windows-1252 for Latin text; skipped when more than 2 % of its non-ASCII characters do not fit)
and also cuts each to the page head plus 1.5 KB from its first non-ASCII byte (a truncated
fetch). Then runs `BIN clean FILE` on every variant and counts the decisions that name the
encoding it was written in.

    python3 bench/encoding/check.py --bin target/release/tianwang --data DATA_DIR [--moz DIR]
"""
import argparse, glob, gzip, os, re, subprocess, sys, tempfile

SAME = {'gbk': {'gbk', 'gb18030'}, 'euc_kr': {'euc-kr'}, 'shift_jis': {'shift_jis'},
        'euc_jp': {'euc-jp'}, 'cp1251': {'windows-1251'}, 'koi8_r': {'koi8-r', 'koi8-u'},
        'cp1252': {'windows-1252'}, 'cp1256': {'windows-1256'}, 'cp1255': {'windows-1255'},
        'cp1253': {'windows-1253'}}
DECL = re.compile(r'<meta[^>]*charset[^>]*>|<\?xml[^>]*\?>', re.I)


def read(raw):
    raw = raw[3:] if raw.startswith(b'\xef\xbb\xbf') else raw
    try:
        return raw.decode('utf-8')
    except UnicodeDecodeError:
        return raw.decode('gb18030', errors='replace')


def sources(data, moz):
    ex = os.path.join(data, 'extraction')
    for f in sorted(glob.glob(os.path.join(ex, 'ccwe/original/*.html'))):
        yield 'ccwe_' + os.path.basename(f), open(f, 'rb').read()
    for f in sorted(glob.glob(os.path.join(ex, 'readability_zh/test/test-pages/*/source.html'))):
        yield 'rzh_' + os.path.basename(os.path.dirname(f)), open(f, 'rb').read()
    for f in sorted(glob.glob(os.path.join(ex, 'aeb/html/*.html.gz'))):
        yield 'aeb_' + os.path.basename(f)[:16], gzip.open(f).read()
    if moz:
        for f in sorted(glob.glob(os.path.join(moz, '*/source.html'))):
            yield 'moz_' + os.path.basename(os.path.dirname(f)), open(f, 'rb').read()


def encodings(text):
    has = lambda a, b: any(a <= ord(c) <= b for c in text)
    if has(0xAC00, 0xD7A3): return ['euc_kr']
    if has(0x3040, 0x30FF): return ['shift_jis', 'euc_jp']
    if has(0x4E00, 0x9FFF): return ['gbk']
    if has(0x0400, 0x04FF): return ['cp1251', 'koi8_r']
    if has(0x0600, 0x06FF): return ['cp1256']
    if has(0x0590, 0x05FF): return ['cp1255']
    if has(0x0370, 0x03FF): return ['cp1253']
    if has(0xC0, 0x24F) or has(0x2010, 0x2027): return ['cp1252']
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--bin', required=True)
    ap.add_argument('--data', required=True)
    ap.add_argument('--moz', help="Mozilla Readability's test/test-pages folder")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='tw-enc-')
    variants = []
    for name, raw in sources(a.data, a.moz):
        text = DECL.sub('', read(raw))
        non_ascii = sum(1 for c in text if ord(c) >= 0x80)
        for enc in encodings(text):
            b = text.encode(enc, errors='xmlcharrefreplace')
            if non_ascii < 2 or b.count(b'&#') > 0.02 * non_ascii:
                continue
            variants.append((f'{name}.{enc}.html', enc, b))
            first = next((i for i, x in enumerate(b) if x >= 0x80), None)
            cut = b[:512] + b[first:first + 1536]
            if sum(1 for x in cut if x >= 0x80) >= 4:
                variants.append((f'{name}.{enc}.cut.html', enc, cut))
    right, wrong = 0, []
    for name, enc, b in variants:
        path = os.path.join(tmp, name)
        open(path, 'wb').write(b)
        out = subprocess.run([a.bin, 'clean', path], capture_output=True, text=True).stdout
        said = out.split('\n', 1)[0].split()[1] if out.startswith('encoding') else '?'
        if said in SAME[enc]:
            right += 1
        else:
            wrong.append(f'  {name}: written in {enc}, decided {said}')
    print(f'{right} of {len(variants)} undeclared variants decided right')
    print('\n'.join(wrong))
    return 0 if variants else 1


if __name__ == '__main__':
    sys.exit(main())
