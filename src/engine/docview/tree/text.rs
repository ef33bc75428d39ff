//! The text of the block tree's lines [L2216–L2237]: a text node's white space collapsed onto its
//! line while its counted characters (the metric's alphabet) and sentence punctuation are
//! counted, in one pass over the bytes; and the collapsing of titles, anchors and weighty text.

/// Sentence punctuation counted as a sign of running text (Chinese and Latin).
pub(crate) fn is_sentence_punct(c: char) -> bool {
    matches!(
        c,
        '，' | '。' | '！' | '？' | '；' | '：' | '、' | ',' | '.' | '!' | '?' | ';'
    )
}

/// Counted characters: letters and digits of any script, exactly the metric's alphabet
/// ([`crate::engine::text::metric::is_kept`], Python's `isalnum`).
pub(crate) use crate::engine::text::metric::is_kept as is_counted;

/// [`is_counted`] with the common cases first: ASCII, the CJK block, and the punctuation of
/// Chinese text (general punctuation, CJK symbols, full-width forms), none of which counts.
#[inline]
pub(super) fn counted_fast(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    match c {
        '\u{4E00}'..='\u{9FFF}' => true,
        '\u{2000}'..='\u{206F}'
        | '\u{3000}'..='\u{3004}'
        | '\u{3008}'..='\u{3020}'
        | '\u{FF01}'..='\u{FF0F}'
        | '\u{FF1A}'..='\u{FF20}'
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}' => false,
        _ => is_counted(c),
    }
}

/// `raw` onto `out` with every run of white space (`char::is_whitespace`) as one space; the
/// counted characters ([`is_counted`]) and the sentence punctuation of `raw`. Runs of other
/// characters are copied whole; the loop steps by bytes, taking ASCII and the CJK ideographs
/// U+4E00–U+9FFF (lead bytes E4 B8–E9, most of a Chinese page) without decoding them, and any
/// other character as `char` (a test checks it against the plain `char` loop).
pub(super) fn push_collapsed(out: &mut String, raw: &str) -> (usize, usize) {
    let b = raw.as_bytes();
    let (mut counted, mut punct) = (0usize, 0usize);
    let (mut run, mut i, mut last_space) = (0usize, 0usize, false);
    while let Some(&x) = b.get(i) {
        let class = ASCII_CLASS[usize::from(x)];
        if class & (SPACE | HIGH) == 0 {
            // A run of ASCII other than white space, counted in a tight loop (copied with the
            // run): letters and digits, sentence punctuation.
            let mut k = i;
            while let Some(&y) = b.get(k) {
                let class = ASCII_CLASS[usize::from(y)];
                if class & (SPACE | HIGH) != 0 {
                    break;
                }
                counted += usize::from(class & COUNTED);
                punct += usize::from((class & PUNCT) >> 1);
                k += 1;
            }
            last_space = false;
            i = k;
            continue;
        }
        let (space, len) = if x < 0x80 {
            // ASCII white space: every other ASCII byte ran above.
            (true, 1)
        } else if cjk_at(b, i) {
            // A run of ideographs, counted in a tight loop (copied with the run).
            let mut k = i + 3;
            while cjk_at(b, k) {
                k += 3;
            }
            counted += (k - i) / 3;
            (false, k - i)
        } else {
            let Some(c) = raw.get(i..).and_then(|r| r.chars().next()) else {
                break;
            };
            let space = c.is_whitespace();
            if !space {
                if counted_fast(c) {
                    counted += 1;
                } else if is_sentence_punct(c) {
                    punct += 1;
                }
            }
            (space, c.len_utf8())
        };
        if space {
            out.push_str(&raw[run..i]);
            run = i + len;
            if !last_space {
                out.push(' ');
            }
        }
        last_space = space;
        i += len;
    }
    out.push_str(&raw[run..]);
    (counted, punct)
}

/// Whether `raw` is all white space (`char::is_whitespace`): ASCII bytes without decoding
/// (the white space between tags), characters from the first byte of 0x80 or more.
#[inline]
pub(super) fn all_white(raw: &str) -> bool {
    for (i, &x) in raw.as_bytes().iter().enumerate() {
        if x >= 0x80 {
            // Only ASCII before it: `i` starts a character.
            return raw
                .get(i..)
                .is_some_and(|r| r.chars().all(char::is_whitespace));
        }
        if ASCII_CLASS[usize::from(x)] & SPACE == 0 {
            return false;
        }
    }
    true
}

/// [`ASCII_CLASS`] bits: a counted character (bit 0, so it adds as a count), sentence
/// punctuation, ASCII white space, a byte of 0x80 or more (not ASCII).
const COUNTED: u8 = 1;
const PUNCT: u8 = 2;
const SPACE: u8 = 4;
const HIGH: u8 = 8;

/// Each byte's class for the ASCII runs of [`push_collapsed`] (a test checks it against
/// `is_counted`, `is_sentence_punct` and `char::is_whitespace`).
static ASCII_CLASS: [u8; 256] = {
    let mut t = [HIGH; 256];
    let mut x = 0;
    while x < 0x80 {
        let b = x as u8;
        t[x] = if b.is_ascii_alphanumeric() {
            COUNTED
        } else if matches!(b, b',' | b'.' | b'!' | b'?' | b';') {
            PUNCT
        } else if matches!(b, b'\t'..=b'\r' | b' ') {
            SPACE
        } else {
            0
        };
        x += 1;
    }
    t
};

/// Whether a CJK ideograph U+4E00–U+9FFF (lead byte E4 with B8 or more after it, or E5–E9)
/// starts at `i` of valid UTF-8.
#[inline]
fn cjk_at(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(0xE5..=0xE9) => true,
        Some(0xE4) => b.get(i + 1) >= Some(&0xB8),
        _ => false,
    }
}

/// `s` with runs of white space as one space and none at the ends (`split_whitespace` joined
/// by spaces), reusing `s` when it is already so.
pub(super) fn collapse(s: String) -> String {
    if is_collapsed(&s) {
        return s;
    }
    let mut out = String::with_capacity(s.len());
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Whether `s` has no white space but single spaces between other characters, in one pass over
/// the bytes: a character of White_Space beyond ASCII starts with C2, E1, E2 or E3 (U+0085,
/// U+00A0, U+1680, U+2000–U+205F, U+3000), and only those are decoded.
fn is_collapsed(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let mut space = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b' ' if space => return false,
            b' ' => {
                space = true;
                continue;
            }
            b'\t'..=b'\r' => return false,
            0xC2 | 0xE1..=0xE3
                if s.get(i..)
                    .and_then(|r| r.chars().next())
                    .is_some_and(char::is_whitespace) =>
            {
                return false;
            }
            _ => {}
        }
        space = false;
    }
    true
}
