//! jieba's cut without HMM (`jieba.cut(text, HMM=False)`), token for token, on a double-array
//! trie: what [`super::Method::JiebaNoHmm`] runs on.
//!
//! jieba-rs 0.11 walks a character trie whose edges live in a hash table, stores every match
//! in a DAG, then runs the route DP over the DAG. Here the dictionary's 12,045 distinct
//! characters get dense codes (the most frequent first), the 498,113 prefixes sit in a
//! double-array trie over those codes (a step is `base[s] + code`, confirmed by `check`), and
//! the DP walks the trie itself, right to left, so no DAG is built. A slot is packed into eight
//! bytes (check, base and an index into the 5,087 distinct word scores), which halves the
//! trie's cache footprint, and the slots of every second step are loaded in one branch-free
//! pass before the walk, where their cache misses overlap. What it computes is jieba-rs's,
//! step by step:
//!
//! * **Blocks.** The text splits into maximal runs of `RE_HAN_DEFAULT` characters (CJK
//!   ideographs, ASCII letters and digits, `+#&._%-`) and the rest. Outside a block every
//!   character is a token of its own, `\r\n` one token.
//! * **Route** (jieba's `calc`). From the last character back, each dictionary word starting
//!   at `i` (shortest first) scores `(ln freq − ln total) + route[end]`; the best wins, a later
//!   (longer) word on a tie. A character where no word starts scores `(0 − ln total) +
//!   route[i+1]`. `ln freq − ln total` is stored per word, so the sum is the same f64
//!   operation in the same order: the routes are bit-identical.
//! * **Tokens** (`cut_route` without HMM). The route's words in order, consecutive single
//!   ASCII letters or digits joined into one token (`a`,`b`,`c` → `abc`).
//! * **Dictionary** (`load_default_dict`): jieba's `dict.txt`, vendored as
//!   `assets/jieba/dict.txt.gz` (MIT, see `assets/jieba/LICENSE`); the total is the sum of
//!   every line's frequency, a word listed twice keeps its last frequency.
//!
//! Scratch buffers are per thread and reused, as jieba-rs does; a cut allocates nothing.

use std::cell::RefCell;
use std::io::Read;
use std::sync::OnceLock;

use super::TokenKind;
use build::{Builder, char_codes};

/// jieba's `dict.txt`, gzipped.
static DICT_GZ: &[u8] = include_bytes!("../../../../assets/jieba/dict.txt.gz");

/// One double-array slot packed in eight bytes, so the trie's hot part takes half the cache
/// a plain struct would: bits 0–23 `check` (the parent node's slot, [`Node::FREE`] if the slot
/// holds no node), bits 24–47 `base` (children are at `base + code`), bits 48–63 the index of
/// the word's `ln(freq) − ln(total)` in [`NoHmm::lps`] (0: no word ends here). A route step
/// is one load of the child's slot.
#[derive(Clone, Copy)]
struct Node(u64);

impl Node {
    /// `check` of a free slot and of the root.
    const FREE: u32 = (1 << 24) - 1;
    /// The largest base and slot index a node holds.
    const MAX: usize = (1 << 24) - 1;
    /// A free slot.
    const EMPTY: Node = Node(Node::FREE as u64);
    const FIELD: u64 = 0xFF_FFFF;

    fn set_check(&mut self, check: u32) {
        self.0 = self.0 & !Node::FIELD | u64::from(check) & Node::FIELD;
    }

    fn set_base(&mut self, base: usize) {
        self.0 = self.0 & !(Node::FIELD << 24) | (base as u64 & Node::FIELD) << 24;
    }

    fn set_lp_index(&mut self, k: u16) {
        self.0 = self.0 & !(0xFFFF << 48) | u64::from(k) << 48;
    }

    #[inline(always)]
    fn check(self) -> u32 {
        (self.0 & 0xFF_FFFF) as u32
    }

    #[inline(always)]
    fn base(self) -> usize {
        (self.0 >> 24 & 0xFF_FFFF) as usize
    }

    #[inline(always)]
    fn lp_index(self) -> usize {
        (self.0 >> 48) as usize
    }
}

/// jieba's default dictionary as a double-array trie, and the cutter on it.
pub(crate) struct NoHmm {
    /// Dense code (1-based) of every character up to the largest in the dictionary; 0 for a
    /// character in no word.
    code: Box<[u16]>,
    /// Slot 0 is the root (base 0, so a word's first character sits at its own code).
    nodes: Box<[Node]>,
    /// The distinct `ln(freq) − ln(total)` of the words (jieba's has 5,087 distinct
    /// frequencies), NaN first: what [`Node::lp_index`] points into.
    lps: Box<[f64]>,
    /// Distinct words.
    words: usize,
    /// `0 − ln(total)`: the score of a character where no word starts.
    log1: f64,
}

/// Why a dictionary does not fit the packed trie.
#[derive(Debug, thiserror::Error)]
#[error("the dictionary needs {what} {got}, the packed trie holds at most {max}")]
pub(crate) struct TooBig {
    what: &'static str,
    got: usize,
    max: usize,
}

/// Per-thread buffers of [`NoHmm::cut`].
#[derive(Default)]
struct Scratch {
    /// The block's character codes and a 0 after the last.
    codes: Vec<u16>,
    /// Byte offset in the text of each of the block's characters, and of its end.
    offs: Vec<usize>,
    /// Per character: the best route's score from there, and where its first word ends.
    route: Vec<(f64, usize)>,
    /// Per character: the slot a word starting there reaches with its second character.
    second: Vec<Node>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Largest scratch (elements) kept between calls.
const SCRATCH_KEEP: usize = 1 << 20;

/// jieba's `RE_HAN_DEFAULT` character class (jieba-rs `is_han_default`).
#[inline(always)]
fn is_han_default(c: u32) -> bool {
    if c < 0x80 {
        let b = c as u8;
        b.is_ascii_alphanumeric() || matches!(b, b'+' | b'#' | b'&' | b'.' | b'_' | b'%' | b'-')
    } else {
        char::from_u32(c).is_some_and(super::is_han)
    }
}

/// [`is_han_default`] of each ASCII character.
static HAN_DEFAULT_ASCII: [bool; 128] = {
    let mut t = [false; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric()
            || matches!(b, b'+' | b'#' | b'&' | b'.' | b'_' | b'%' | b'-');
        c += 1;
    }
    t
};

/// The character at byte `i` of the valid UTF-8 `b` and its length if `i` is inside `b` and
/// the character is in [`is_han_default`]'s class. An ASCII character is one table load; a
/// character of the main CJK block (E4 B8 80 to E9 BF BF) is decided from its lead byte.
#[inline(always)]
fn han_default_at(b: &[u8], i: usize) -> Option<(u32, usize)> {
    let &b0 = b.get(i)?;
    if b0 < 0x80 {
        return HAN_DEFAULT_ASCII[usize::from(b0)].then_some((u32::from(b0), 1));
    }
    if let [0xE4..=0xE9, b1, b2, ..] = b[i..] {
        let c = three_byte(b0, b1, b2);
        if c >= 0x4E00 {
            return Some((c, 3));
        }
    }
    let (c, len) = decode(b, i);
    is_han_default(c).then_some((c, len))
}

/// The code point of a three-byte UTF-8 character (lead byte E0–EF) from its bytes.
#[inline(always)]
pub(super) fn three_byte(b0: u8, b1: u8, b2: u8) -> u32 {
    u32::from(b0 & 0x0F) << 12 | u32::from(b1 & 0x3F) << 6 | u32::from(b2 & 0x3F)
}

/// The character starting at byte `i` of the valid UTF-8 `b`, and its length.
#[inline(always)]
fn decode(b: &[u8], i: usize) -> (u32, usize) {
    let b0 = u32::from(b[i]);
    let cont = |k: usize| u32::from(b[i + k] & 0x3F);
    match b0 {
        0..=0x7F => (b0, 1),
        0xC0..=0xDF => ((b0 & 0x1F) << 6 | cont(1), 2),
        0xE0..=0xEF => ((b0 & 0x0F) << 12 | cont(1) << 6 | cont(2), 3),
        _ => (
            (b0 & 0x07) << 18 | cont(1) << 12 | cont(2) << 6 | cont(3),
            4,
        ),
    }
}

impl NoHmm {
    /// The process-wide instance on jieba's default dictionary, built on first use.
    pub(crate) fn shared() -> &'static NoHmm {
        static SHARED: OnceLock<NoHmm> = OnceLock::new();
        SHARED.get_or_init(|| {
            let mut text = String::with_capacity(5 << 20);
            flate2::read::GzDecoder::new(DICT_GZ)
                .read_to_string(&mut text)
                .expect("the embedded jieba dictionary gunzips to UTF-8");
            NoHmm::from_dict(&text).expect("jieba's dictionary fits the packed trie")
        })
    }

    /// The trie of a jieba dictionary text (`word [freq [tag]]` per line; a frequency that
    /// does not read counts 0); an error if it needs more than 16,777,215 trie slots or 65,535
    /// distinct frequencies.
    pub(crate) fn from_dict(text: &str) -> Result<NoHmm, TooBig> {
        let mut entries: Vec<(&str, usize)> = Vec::with_capacity(text.len() / 14);
        let mut total = 0usize;
        for line in text.lines() {
            let mut it = line.split_ascii_whitespace();
            let Some(word) = it.next() else { continue };
            let freq = it.next().and_then(|f| f.parse().ok()).unwrap_or(0);
            total += freq;
            entries.push((word, freq));
        }
        // Stable: of a word listed twice, the later entry comes last and wins.
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let log_total = (total as f64).ln();
        let code = char_codes(&entries);
        let mut flat = Vec::with_capacity(entries.len() * 4);
        let mut ends = Vec::with_capacity(entries.len());
        for (w, _) in &entries {
            flat.extend(w.chars().map(|c| code[c as usize]));
            ends.push(flat.len());
        }
        // Each word's score as an index into the table of distinct scores (NaN first: none).
        let mut lps = vec![f64::NAN];
        let mut index = std::collections::HashMap::new();
        let score_of: Vec<usize> = entries
            .iter()
            .map(|&(_, f)| {
                let lp = (f as f64).ln() - log_total;
                *index.entry(lp.to_bits()).or_insert_with(|| {
                    lps.push(lp);
                    lps.len() - 1
                })
            })
            .collect();
        fits("distinct frequencies", lps.len() - 1, usize::from(u16::MAX))?;
        let score_of: Vec<u16> = score_of.into_iter().map(|k| k as u16).collect();
        let mut b = Builder::new(&flat, &ends, &score_of);
        b.build();
        let max_code = code.iter().copied().max().map_or(0, usize::from);
        let top = b
            .slots
            .iter()
            .rposition(|s| s.check() != Node::FREE)
            .unwrap_or(0);
        // Room for `base + code` of any node and code, so a step never leaves the array.
        b.slots.resize(top + max_code + 2, Node::EMPTY);
        fits("trie slots", b.slots.len(), Node::MAX)?;
        fits("a base", b.max_base, Node::MAX)?;
        Ok(NoHmm {
            code,
            nodes: b.slots.into_boxed_slice(),
            lps: lps.into_boxed_slice(),
            words: b.words,
            log1: 0.0 - log_total,
        })
    }

    /// Number of distinct words.
    pub(crate) fn len(&self) -> usize {
        self.words
    }

    #[inline(always)]
    fn code_of(&self, c: u32) -> u16 {
        self.code.get(c as usize).copied().unwrap_or(0)
    }

    /// The child of node `s` on `code`, if there is one.
    #[inline(always)]
    fn step(&self, s: usize, code: u16) -> Option<usize> {
        let t = self.nodes[s].base() + usize::from(code);
        (code != 0 && self.nodes[t].check() == s as u32).then_some(t)
    }

    /// Whether `word` is in the dictionary (jieba's `has_word`).
    pub(crate) fn has_word(&self, word: &str) -> bool {
        let mut s = 0;
        for c in word.chars() {
            match self.step(s, self.code_of(c as u32)) {
                Some(t) => s = t,
                None => return false,
            }
        }
        s != 0 && self.nodes[s].lp_index() != 0
    }

    /// Call `emit(word, char_start)` for every token of `jieba.cut(text, false)`, in order.
    pub(crate) fn cut<'a>(&self, text: &'a str, emit: &mut impl FnMut(&'a str, usize)) {
        self.cut_kinds::<false>(text, &mut |w, start, _| emit(w, start));
    }

    /// Call `emit(word, char_start, kind)` for every token of `jieba.cut(text, false)`, in
    /// order, with the token's [`Kind`]; with `TERMS` only for the Word and Latin tokens (the
    /// cutter knows the others without looking at them again).
    pub(crate) fn cut_kinds<'a, const TERMS: bool>(
        &self,
        text: &'a str,
        emit: &mut impl FnMut(&'a str, usize, Kind),
    ) {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => {
                self.cut_with::<TERMS>(text, &mut scratch, emit);
                let Scratch {
                    codes,
                    offs,
                    route,
                    second,
                } = &mut *scratch;
                let kept = codes.capacity().max(offs.capacity());
                if kept.max(route.capacity()).max(second.capacity()) > SCRATCH_KEEP {
                    *scratch = Scratch::default();
                }
            }
            // Only if `emit` itself cuts on this thread.
            Err(_) => self.cut_with::<TERMS>(text, &mut Scratch::default(), emit),
        })
    }

    fn cut_with<'a, const TERMS: bool>(
        &self,
        text: &'a str,
        s: &mut Scratch,
        emit: &mut impl FnMut(&'a str, usize, Kind),
    ) {
        let bytes = text.as_bytes();
        let (mut i, mut chars) = (0, 0);
        while i < bytes.len() {
            let (c, len) = decode(bytes, i);
            if !is_han_default(c) {
                let (len, n) = if c == u32::from(b'\r') && bytes.get(i + 1) == Some(&b'\n') {
                    (2, 2)
                } else {
                    (len, 1)
                };
                if let Some(kind) = outside_kind::<TERMS>(c, n) {
                    emit(&text[i..i + len], chars, kind);
                }
                chars += n;
                i += len;
                continue;
            }
            s.codes.clear();
            s.offs.clear();
            let (mut c, mut len, mut ascii) = (c, len, false);
            loop {
                ascii |= c < 0x80;
                s.codes.push(self.code_of(c));
                s.offs.push(i);
                i += len;
                match han_default_at(bytes, i) {
                    Some(next) => (c, len) = next,
                    None => break,
                }
            }
            s.offs.push(i);
            s.codes.push(0);
            self.route(&s.codes, &mut s.route, &mut s.second);
            let n = s.offs.len() - 1;
            let block = Block {
                text,
                offs: &s.offs,
                base: chars,
                ascii,
            };
            block.emit_route::<TERMS>(&s.route[..n], emit);
            chars += n;
        }
    }

    /// jieba's `calc` on the block `codes` (its last entry the 0 after the block): `route[i]`
    /// is the best score from character `i` and the end of its first word.
    #[inline]
    fn route(&self, codes: &[u16], route: &mut Vec<(f64, usize)>, second: &mut Vec<Node>) {
        let n = codes.len() - 1;
        route.clear();
        route.resize(n + 1, (0.0, n));
        let (nodes, lps) = (&self.nodes[..], &self.lps[..]);
        // Most steps past a word's first character miss the cache (the first character's slot
        // sits in the small, hot root region). The slots of every second step are loaded
        // first, in a loop without branches, where the CPU overlaps the misses; the walk
        // below then starts from them.
        second.clear();
        second.extend(
            (0..n).map(|j| nodes[nodes[usize::from(codes[j])].base() + usize::from(codes[j + 1])]),
        );
        for i in (0..n).rev() {
            let mut best = (f64::NAN, 0);
            let mut s = usize::from(codes[i]);
            let mut node = nodes[s];
            if s != 0 && node.check() == 0 {
                let (mut e, mut next) = (i + 1, second[i]);
                loop {
                    let k = node.lp_index();
                    if k != 0 {
                        let p = lps[k] + route[e].0;
                        // Ends grow: jieba's `p > best || (p == best && end > best.end)`.
                        if best.1 == 0 || p >= best.0 {
                            best = (p, e);
                        }
                    }
                    if codes[e] == 0 || next.check() != s as u32 {
                        break;
                    }
                    (s, node, e) = (node.base() + usize::from(codes[e]), next, e + 1);
                    next = nodes[node.base() + usize::from(codes[e])];
                }
            }
            route[i] = if best.1 == 0 {
                (self.log1 + route[i + 1].0, i + 1)
            } else {
                best
            };
        }
    }
}

/// `Ok` if `got` is at most `max`, what a [`Node`] holds.
fn fits(what: &'static str, got: usize, max: usize) -> Result<(), TooBig> {
    if got > max {
        Err(TooBig { what, got, max })
    } else {
        Ok(())
    }
}

/// What a token of [`NoHmm::cut_kinds`] holds: its [`TokenKind`], a Word told apart by
/// whether it has ASCII characters (only those can need lower-casing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A Word of Han characters only.
    Han,
    /// A Word with an ASCII character too (`T恤`).
    Word,
    /// Letters and digits outside Han.
    Latin,
    /// Punctuation, symbols.
    Punct,
    /// Whitespace.
    Space,
}

impl Kind {
    /// The [`TokenKind`]: what `classify` gives for the token.
    #[inline(always)]
    pub(crate) fn token_kind(self) -> TokenKind {
        match self {
            Kind::Han | Kind::Word => TokenKind::Word,
            Kind::Latin => TokenKind::Latin,
            Kind::Punct => TokenKind::Punct,
            Kind::Space => TokenKind::Space,
        }
    }
}

/// The kind of a token outside the blocks: the character `c` (`n` = 2: `\r\n`), which is no
/// Han character and, if ASCII, no letter or digit. With `TERMS`, `None` unless Latin.
#[inline(always)]
fn outside_kind<const TERMS: bool>(c: u32, n: usize) -> Option<Kind> {
    let ch = char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER);
    if c >= 0x80 && super::is_alnum(ch) {
        Some(Kind::Latin)
    } else if TERMS {
        None
    } else if n == 2 || ch.is_whitespace() {
        Some(Kind::Space)
    } else {
        Some(Kind::Punct)
    }
}

/// A block of `RE_HAN_DEFAULT` characters being emitted: its text, the byte offset of each
/// character and of its end, its first character's offset in the text, and whether it has an
/// ASCII character at all.
struct Block<'a, 'o> {
    text: &'a str,
    offs: &'o [usize],
    base: usize,
    ascii: bool,
}

impl<'a> Block<'a, '_> {
    /// The tokens of the block along its route, single ASCII letters and digits joined.
    #[inline]
    fn emit_route<const TERMS: bool>(
        &self,
        route: &[(f64, usize)],
        emit: &mut impl FnMut(&'a str, usize, Kind),
    ) {
        let (text, offs, base) = (self.text, self.offs, self.base);
        let (n, bytes) = (route.len(), text.as_bytes());
        if !self.ascii {
            // Han characters only: every token is a Han word.
            let mut x = 0;
            while x < n {
                let y = route[x].1;
                emit(&text[offs[x]..offs[y]], base + x, Kind::Han);
                x = y;
            }
            return;
        }
        let (mut x, mut left) = (0, None);
        while x < n {
            let y = route[x].1;
            if y == x + 1 && bytes[offs[x]].is_ascii_alphanumeric() {
                left.get_or_insert(x);
            } else {
                if let Some(l) = left.take() {
                    emit(&text[offs[l]..offs[x]], base + l, Kind::Latin);
                }
                let word = &text[offs[x]..offs[y]];
                if let Some(kind) = block_kind::<TERMS>(word) {
                    emit(word, base + x, kind);
                }
            }
            x = y;
        }
        if let Some(l) = left {
            emit(&text[offs[l]..offs[n]], base + l, Kind::Latin);
        }
    }
}

/// The kind of a token of a block with ASCII characters (none of them whitespace); with
/// `TERMS`, `None` for punctuation.
#[inline]
fn block_kind<const TERMS: bool>(word: &str) -> Option<Kind> {
    let b = word.as_bytes();
    if b.iter().all(|&x| x >= 0x80) {
        Some(Kind::Han)
    } else if b.iter().any(|&x| x >= 0x80) {
        Some(Kind::Word)
    } else if b.iter().any(u8::is_ascii_alphanumeric) {
        Some(Kind::Latin)
    } else if TERMS {
        None
    } else {
        Some(Kind::Punct)
    }
}

mod build;
#[cfg(test)]
mod tests;
