//! Chinese word segmentation: the book's string-matching segmenters next to jieba-rs.
//!
//! Book §5.3 "Chinese word segmentation" [L1478–1596]. TSE indexes words, not characters
//! [L1484], so every text goes through a segmenter first ("我的笔记本" → 我/的/笔记本 [L1482]).
//!
//! * **Methods** ([`Method`]): jieba-rs with and without HMM and in search mode, and the book's
//!   mechanical methods [L1492–1516]: forward decreasing maximum match FMM = ASM(+,−,+)
//!   [L1528–1594], reverse RMM = ASM(−,−,+) [L1504–1516], and FMM with backtracking [L1596]
//!   ([`fmm`], [`rmm`], [`fmm_bt`] over the `&[char]` of a Han run).
//! * **Dictionary** ([`Dictionary`]). The book's has 108,782 entries [L1486]; ours is jieba's
//!   (349,045 entries), vendored (jieba-rs 0.11 keeps its copy private and cannot list its
//!   words), and the default backend is the double-array trie `nohmm` cuts with, which answers
//!   as jieba's `has_word` does. [`Dictionary::from_words`]
//!   and [`Dictionary::from_dict_text`] build the book's hash table [L1543] from any word list.
//!   No entry is filtered out: the golden cases hold with the whole dictionary (史 is a word
//!   there, so the book's rule does not fire on 学历史知识, but the tie-break below fixes it).
//! * **MaxLen** counts characters; the default 4 is the book's 8 GB2312 bytes [L1545]. A longer
//!   dictionary word can never match (ambiguity (b)).
//! * **Backtracking** ([`fmm_bt`]), defined by the book only by example [L1596]. First the
//!   book's rule: a single FMM character that is not a word takes the last character of the
//!   previous token when both the shortened token and the new pair are words. Then FMM and RMM
//!   are aligned, and in every stretch where they differ the side with fewer non-dictionary
//!   single characters wins, then the one with fewer tokens, then with fewer single-character
//!   tokens, and RMM on a full tie: reverse matching errs less, 1/245 against 1/169 [L1502].
//! * **Non-Han text** (ambiguity (c): the book's `Preprocess` skips it [L1552–1575]). For the
//!   matching methods the text is split into runs. Han runs are segmented. A run of other
//!   letters and digits (ASCII, also `é`, kana, fullwidth), keeping a `.` between two digits,
//!   is one [`TokenKind::Latin`] token (`HTTP`, `1.95`). A whitespace run is one
//!   [`TokenKind::Space`], anything else one [`TokenKind::Punct`] per character. An unknown
//!   single Han character is a 1-character word (ambiguity (d)). jieba's tokens are classified
//!   by the same character classes.
//! * **Partition.** Every input character is in exactly one token, so the words concatenate
//!   back to the input. [`Method::Search`] is the exception: before a compound it adds the
//!   dictionary sub-words inside it (中华, 人民, … before 中华人民共和国).
//! * **Terms** ([`Segmenter::terms`], allocation-free [`Segmenter::for_each_term`]), what
//!   indexing uses: Word and Latin tokens, lower-cased, without stop words ([`is_stop_word`],
//!   listed in `stopwords.rs`). Single-character words that are not stop words stay terms.
//!   With [`Method::JiebaNoHmm`] the cutter hands each token over with its kind, so `terms`
//!   never classifies a token again and never sees punctuation or white space.
//! * **Traces** ([`Segmenter::fmm_trace`], [`Segmenter::rmm_trace`]) record every candidate
//!   window tried, shrinking one character at a time [L1541], for the GUI to animate.
//!
//! [`Method::JiebaNoHmm`] runs on `nohmm`, our own cutter that gives jieba-rs's tokens exactly
//! (tests compare every token on real text) at a fraction of its cost; the other jieba methods
//! call jieba-rs, built on first use, on one line at a time, and on one sentence at a time
//! within long lines.
//!
//! ```
//! use tianwang::engine::text::segment::{Method, Segmenter};
//! let seg = Segmenter::shared();
//! let words = |m| seg.cut("学历史知识", m).into_iter().map(|t| t.word).collect::<Vec<_>>();
//! assert_eq!(words(Method::Fmm), ["学历", "史", "知识"]); // FMM's error [L1596]
//! assert_eq!(words(Method::FmmBt), ["学", "历史", "知识"]); // fixed by backtracking
//! assert_eq!(seg.terms("Rust 和 HTTP/2 的笔记本", Method::Jieba), ["rust", "http", "2", "笔记本"]);
//! ```

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, OnceLock};

use jieba_rs::Jieba;
use serde::{Deserialize, Serialize};

use self::nohmm::{Kind, NoHmm};
use self::terms::{lowercase, term_kind};
pub use super::stopwords::{is_stop_word, stop_word_list};

/// The book's MaxLen: 8 GB2312 bytes = 4 characters [L1545].
pub(crate) const DEFAULT_MAX_LEN: usize = 4;
/// Largest MaxLen [`Segmenter::with_max_len`] accepts.
pub(crate) const MAX_MAX_LEN: usize = 16;
/// Lines longer than this (bytes) go to jieba one sentence at a time.
const CHUNK_BYTES: usize = 2048;

/// A segmentation method; serde and [`Method::parse`] use the CLI names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// jieba-rs: dictionary DAG plus HMM for unknown words.
    Jieba,
    /// jieba-rs without HMM (what search engines index with).
    #[serde(rename = "jieba-nohmm")]
    JiebaNoHmm,
    /// jieba-rs search mode: the HMM cut plus the dictionary words inside longer words.
    Search,
    /// Forward decreasing maximum match, ASM(+,−,+) [L1528–1594].
    Fmm,
    /// Reverse decreasing maximum match, ASM(−,−,+) [L1504–1516].
    Rmm,
    /// FMM checked against RMM, with backtracking [L1596].
    FmmBt,
}

impl Method {
    /// Every method.
    pub const ALL: [Method; 6] = [
        Method::Jieba,
        Method::JiebaNoHmm,
        Method::Search,
        Method::Fmm,
        Method::Rmm,
        Method::FmmBt,
    ];

    /// The method called `name` on the command line (exact).
    pub fn parse(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Jieba => "jieba",
            Method::JiebaNoHmm => "jieba-nohmm",
            Method::Search => "search",
            Method::Fmm => "fmm",
            Method::Rmm => "rmm",
            Method::FmmBt => "fmm-bt",
        }
    }

    /// The book's ASM(d, a, m) [L1504–1516] of a matching method (`±`: both directions).
    pub fn asm(self) -> Option<&'static str> {
        match self {
            Method::Fmm => Some("ASM(+,−,+)"),
            Method::Rmm => Some("ASM(−,−,+)"),
            Method::FmmBt => Some("ASM(±,−,+)"),
            _ => None,
        }
    }

    /// Whether this is one of the book's dictionary-matching methods (they use MaxLen).
    pub(crate) fn is_matching(self) -> bool {
        matches!(self, Method::Fmm | Method::Rmm | Method::FmmBt)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a token holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenKind {
    /// A Chinese word: any token with a Han character.
    Word,
    /// A run of letters and digits outside Han: ASCII words, numbers such as `1.95`.
    Latin,
    /// One punctuation mark, symbol or emoji.
    Punct,
    /// Whitespace, newlines included.
    Space,
}

/// One token of a segmented text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Token {
    /// The text of the token, as in the input.
    pub word: String,
    /// Offset in characters (not bytes) of the token in the input.
    pub start: usize,
    /// What the token holds.
    pub kind: TokenKind,
}

impl Token {
    /// Character offset just past the token.
    pub fn end(&self) -> usize {
        self.start + self.word.chars().count()
    }
}

/// One candidate window W of a matching trace [L1541].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct FmmStep {
    /// Character offset in the sentence of the window's first character.
    pub pos: usize,
    /// The candidate W.
    pub candidate: String,
    /// Whether W is in the dictionary.
    pub in_dict: bool,
    /// Whether W was emitted: a dictionary word, or down to a single character.
    pub accepted: bool,
}

/// The dictionary of the matching methods. Cheap to clone.
#[derive(Clone)]
pub struct Dictionary {
    backend: Backend,
    len: usize,
}

#[derive(Clone)]
enum Backend {
    /// jieba's dictionary as `nohmm`'s double-array trie.
    Jieba(&'static NoHmm),
    /// A hash table of words [L1543].
    Set(Arc<HashSet<Box<str>>>),
}

impl Dictionary {
    /// jieba's default dictionary, the one `Jieba::new()` segments with.
    pub(crate) fn jieba_default() -> Self {
        let dict = NoHmm::shared();
        Dictionary {
            backend: Backend::Jieba(dict),
            len: dict.len(),
        }
    }

    /// A hash-table dictionary of `words`, trimmed, blanks ignored.
    pub fn from_words<I: IntoIterator<Item = S>, S: AsRef<str>>(words: I) -> Self {
        let set: HashSet<Box<str>> = words
            .into_iter()
            .filter_map(|w| {
                Some(w.as_ref().trim())
                    .filter(|w| !w.is_empty())
                    .map(Box::from)
            })
            .collect();
        Dictionary {
            len: set.len(),
            backend: Backend::Set(Arc::new(set)),
        }
    }

    /// A hash-table dictionary from jieba/ChSeg-style text: `word [freq] [tag]` per line,
    /// `#` comment lines ignored.
    pub fn from_dict_text(text: &str) -> Self {
        let lines = text.lines().filter(|l| !l.trim_start().starts_with('#'));
        Self::from_words(lines.filter_map(|l| l.split_whitespace().next()))
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `word` is an entry.
    #[inline]
    pub fn contains(&self, word: &str) -> bool {
        match &self.backend {
            Backend::Jieba(d) => d.has_word(word),
            Backend::Set(s) => s.contains(word),
        }
    }

    /// Whether the characters `word` make an entry.
    pub fn contains_chars(&self, word: &[char]) -> bool {
        self.contains(&word.iter().collect::<String>())
    }

    /// `"jieba-trie"` or `"hash-set"`, for display.
    pub(crate) fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Jieba(_) => "jieba-trie",
            Backend::Set(_) => "hash-set",
        }
    }
}

impl fmt::Debug for Dictionary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Dictionary({}, {} entries)",
            self.backend_name(),
            self.len
        )
    }
}

/// A Han character: the CJK Unified Ideographs blocks jieba-rs treats as Chinese.
#[inline(always)]
pub(crate) fn is_han(c: char) -> bool {
    // The main block on its own first: a single compare for nearly every character.
    matches!(c, '\u{4E00}'..='\u{9FFF}') || (c >= '\u{3400}' && is_han_extension(c))
}

#[inline(never)]
fn is_han_extension(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' | '\u{20000}'..='\u{2A6DF}')
        || matches!(c, '\u{2A700}'..='\u{2EBEF}' | '\u{2F800}'..='\u{2FA1F}')
}

/// `c.is_alphanumeric()`, without the Unicode tables for the punctuation blocks Chinese text
/// uses most (general punctuation, CJK symbols, fullwidth forms).
#[inline]
fn is_alnum(c: char) -> bool {
    match c {
        '\u{2000}'..='\u{206F}' | '\u{3000}'..='\u{3004}' | '\u{3008}'..='\u{3020}' => false,
        '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}' | '\u{FF3B}'..='\u{FF40}' => false,
        '\u{FF5B}'..='\u{FF65}' => false,
        _ => c.is_alphanumeric(),
    }
}

#[inline]
fn is_latin(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && is_alnum(c) && !is_han(c))
}

/// The kind of a jieba token: a Han character makes a word, else a letter or digit makes it
/// Latin, else all whitespace is space, else punctuation.
#[inline(always)]
fn classify(word: &str) -> TokenKind {
    let (mut alnum, mut space) = (false, true);
    for c in word.chars() {
        if is_han(c) {
            return TokenKind::Word;
        }
        alnum |= is_alnum(c);
        space &= c.is_whitespace();
    }
    match (alnum, space) {
        (true, _) => TokenKind::Latin,
        (false, true) => TokenKind::Space,
        (false, false) => TokenKind::Punct,
    }
}

/// The runs the matching methods see, as `(kind, text, char offset, chars)`; a Han run comes
/// as one `Word` and is segmented afterwards.
fn runs(text: &str) -> impl Iterator<Item = (TokenKind, &str, usize, usize)> {
    let (mut chars, mut pos) = (text.char_indices().peekable(), 0);
    std::iter::from_fn(move || {
        let (b0, c) = chars.next()?;
        let (mut end, mut n, mut prev) = (b0 + c.len_utf8(), 1, c);
        let kind = match c {
            c if is_han(c) => TokenKind::Word,
            c if is_latin(c) => TokenKind::Latin,
            c if c.is_whitespace() => TokenKind::Space,
            _ => TokenKind::Punct,
        };
        while let Some(&(b, d)) = chars.peek() {
            let more = match kind {
                TokenKind::Word => is_han(d),
                TokenKind::Latin => {
                    let digit_after = || text[b + 1..].starts_with(|x: char| x.is_ascii_digit());
                    is_latin(d) || (d == '.' && prev.is_ascii_digit() && digit_after())
                }
                TokenKind::Space => d.is_whitespace(),
                TokenKind::Punct => false,
            };
            if !more {
                break;
            }
            (end, n, prev) = (b + d.len_utf8(), n + 1, d);
            chars.next();
        }
        pos += n;
        Some((kind, &text[b0..end], pos - n, n))
    })
}

/// A half-open span of characters of a Han run.
type Span = (usize, usize);

/// A Han run with the byte offset of every character boundary, so that candidate words are
/// plain slices of the text.
struct Run<'t, 'o> {
    text: &'t str,
    offs: &'o [usize],
    dict: &'o Dictionary,
}

impl<'t, 'o> Run<'t, 'o> {
    fn new(text: &'t str, offs: &'o mut Vec<usize>, dict: &'o Dictionary) -> Self {
        offs.clear();
        offs.extend(text.char_indices().map(|(i, _)| i).chain([text.len()]));
        Run { text, offs, dict }
    }

    #[inline]
    fn word(&self, a: usize, b: usize) -> &'t str {
        &self.text[self.offs[a]..self.offs[b]]
    }

    #[inline]
    fn is_word(&self, a: usize, b: usize) -> bool {
        self.dict.contains(self.word(a, b))
    }

    /// FMM [L1541]: from the left, try the longest window and drop its right-most character
    /// until it is a word or a single character. `visit(pos, len, in_dict, accepted)` sees
    /// every window; a forced single character is not looked up (`None`).
    fn fmm_walk(&self, max_len: usize, mut visit: impl FnMut(usize, usize, Option<bool>, bool)) {
        let (n, mut pos) = (self.offs.len() - 1, 0);
        while pos < n {
            let mut len = max_len.min(n - pos);
            while len > 1 && !self.is_word(pos, pos + len) {
                visit(pos, len, Some(false), false);
                len -= 1;
            }
            visit(pos, len, (len > 1).then_some(true), true);
            pos += len;
        }
    }

    /// RMM: the mirror image of [`Run::fmm_walk`], from the right, dropping the left-most
    /// character; windows come right to left.
    fn rmm_walk(&self, max_len: usize, mut visit: impl FnMut(usize, usize, Option<bool>, bool)) {
        let mut end = self.offs.len() - 1;
        while end > 0 {
            let mut len = max_len.min(end);
            while len > 1 && !self.is_word(end - len, end) {
                visit(end - len, len, Some(false), false);
                len -= 1;
            }
            visit(end - len, len, (len > 1).then_some(true), true);
            end -= len;
        }
    }

    fn segment(&self, method: Method, max_len: usize, out: &mut Vec<Span>) {
        let first = out.len();
        let mut push = |p, l, _, ok| {
            if ok {
                out.push((p, p + l))
            }
        };
        match method {
            Method::Rmm => self.rmm_walk(max_len, &mut push),
            Method::FmmBt => return self.fmm_bt(max_len, out),
            _ => self.fmm_walk(max_len, &mut push),
        }
        if method == Method::Rmm {
            out[first..].reverse();
        }
    }

    /// (non-dictionary single characters, tokens, single characters): lower is better.
    fn score(&self, spans: &[Span]) -> (usize, usize, usize) {
        let singles = spans.iter().filter(|s| s.1 - s.0 == 1);
        let oov = singles.clone().filter(|s| !self.is_word(s.0, s.1)).count();
        (oov, spans.len(), singles.count())
    }

    /// The book's rule [L1596]: 学历/史 → 学/历史 when 史 is no word but 学 and 历史 are.
    fn book_fix(&self, f: &mut [Span]) {
        for i in 1..f.len() {
            let ((a, b), (c, d)) = (f[i - 1], f[i]);
            let single_oov = d - c == 1 && b - a >= 2 && !self.is_word(c, d);
            if single_oov && self.is_word(a, b - 1) && self.is_word(b - 1, d) {
                (f[i - 1].1, f[i].0) = (b - 1, c - 1);
            }
        }
    }

    /// FMM with backtracking; the rule is in the module docs.
    fn fmm_bt(&self, max_len: usize, out: &mut Vec<Span>) {
        let (mut f, mut r) = (Vec::new(), Vec::new());
        self.segment(Method::Fmm, max_len, &mut f);
        self.book_fix(&mut f);
        self.segment(Method::Rmm, max_len, &mut r);
        // Walk both; a stretch ends where both have a boundary.
        let (mut i, mut j) = (0, 0);
        while i < f.len() && j < r.len() {
            let (si, sj) = (i, j);
            let (mut ef, mut er) = (f[i].1, r[j].1);
            (i, j) = (i + 1, j + 1);
            while ef != er {
                if ef < er {
                    (ef, i) = (f[i].1, i + 1);
                } else {
                    (er, j) = (r[j].1, j + 1);
                }
            }
            let (fs, rs) = (&f[si..i], &r[sj..j]);
            let fmm_wins = fs != rs && self.score(fs) < self.score(rs);
            out.extend_from_slice(if fmm_wins { fs } else { rs });
        }
    }
}

fn split_chars<'c>(chars: &'c [char], dict: &Dictionary, n: usize, m: Method) -> Vec<&'c [char]> {
    let (text, mut offs, mut spans) = (chars.iter().collect::<String>(), Vec::new(), Vec::new());
    Run::new(&text, &mut offs, dict).segment(m, n.clamp(1, MAX_MAX_LEN), &mut spans);
    spans.iter().map(|&(a, b)| &chars[a..b]).collect()
}

/// Forward decreasing maximum match, ASM(+,−,+) [L1528–1594], of a Han run.
pub fn fmm<'c>(chars: &'c [char], dict: &Dictionary, max_len: usize) -> Vec<&'c [char]> {
    split_chars(chars, dict, max_len, Method::Fmm)
}

/// Reverse decreasing maximum match, ASM(−,−,+) [L1504–1516], of a Han run.
pub fn rmm<'c>(chars: &'c [char], dict: &Dictionary, max_len: usize) -> Vec<&'c [char]> {
    split_chars(chars, dict, max_len, Method::Rmm)
}

/// FMM with the book's backtracking [L1596] and the FMM/RMM tie-break of the module docs.
pub fn fmm_bt<'c>(chars: &'c [char], dict: &Dictionary, max_len: usize) -> Vec<&'c [char]> {
    split_chars(chars, dict, max_len, Method::FmmBt)
}

/// Bytes of the next piece of `rest` for jieba: through the next newline or, in a line longer
/// than [`CHUNK_BYTES`], through the first sentence end after that many bytes. jieba splits
/// at both anyway, so the pieces segment exactly as the whole would.
fn next_chunk(rest: &str) -> usize {
    let line = rest.find('\n').map_or(rest.len(), |i| i + 1);
    if line <= CHUNK_BYTES {
        return line;
    }
    let from = rest.ceil_char_boundary(CHUNK_BYTES);
    rest[from..line]
        .char_indices()
        .find(|&(_, c)| matches!(c, '。' | '！' | '？' | '；' | '!' | '?' | ';'))
        .map_or(line, |(i, c)| from + i + c.len_utf8())
}

/// A segmenter: one jieba instance (built on first use) and one dictionary. Cheap to clone,
/// `Send + Sync`.
#[derive(Clone, Debug)]
pub struct Segmenter {
    jieba: Arc<OnceLock<Arc<Jieba>>>,
    dict: Dictionary,
    max_len: usize,
}

impl Default for Segmenter {
    fn default() -> Self {
        Self::new()
    }
}

impl Segmenter {
    /// A new segmenter on jieba's bundled dictionary, which also serves the matching methods.
    /// jieba-rs itself (about 0.1 s to build) is built only when a method needs it (HMM,
    /// search mode); prefer [`Segmenter::shared`].
    pub fn new() -> Self {
        Segmenter {
            jieba: Arc::new(OnceLock::new()),
            dict: Dictionary::jieba_default(),
            max_len: DEFAULT_MAX_LEN,
        }
    }

    /// The process-wide segmenter, built on first use.
    pub fn shared() -> &'static Segmenter {
        static SHARED: OnceLock<Segmenter> = OnceLock::new();
        SHARED.get_or_init(Segmenter::new)
    }

    /// This segmenter with MaxLen `n` characters, clamped to 1..=[`MAX_MAX_LEN`].
    pub(crate) fn with_max_len(mut self, n: usize) -> Self {
        self.max_len = n.clamp(1, MAX_MAX_LEN);
        self
    }

    /// This segmenter with another dictionary for the matching methods (jieba keeps its own).
    pub fn with_dictionary(mut self, dict: Dictionary) -> Self {
        self.dict = dict;
        self
    }

    /// MaxLen in characters.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// The matching methods' dictionary.
    pub fn dictionary(&self) -> &Dictionary {
        &self.dict
    }

    /// The jieba instance, for other jieba features; built on the first call.
    pub fn jieba(&self) -> &Arc<Jieba> {
        self.jieba.get_or_init(|| Arc::new(Jieba::new()))
    }

    /// Entries in the matching methods' dictionary.
    pub(crate) fn dict_len(&self) -> usize {
        self.dict.len()
    }

    /// Whether `word` is in the matching methods' dictionary.
    pub fn contains(&self, word: &str) -> bool {
        self.dict.contains(word)
    }

    /// The tokens of `text`, in order, covering every character once (but see
    /// [`Method::Search`]).
    pub fn cut(&self, text: &str, method: Method) -> Vec<Token> {
        let mut out = Vec::with_capacity(text.len() / 3);
        let mut push = |w: &str, start, kind| {
            out.push(Token {
                word: w.into(),
                start,
                kind,
            })
        };
        if method.is_matching() {
            self.scan_matching(text, method, &mut push);
        } else if method == Method::JiebaNoHmm {
            let push = &mut |w: &str, start, k: Kind| push(w, start, k.token_kind());
            NoHmm::shared().cut_kinds::<false>(text, push);
        } else {
            self.scan_jieba(text, method, &mut |w, start| push(w, start, classify(w)));
        }
        out
    }

    /// The index terms of `text`: Word and Latin tokens, lower-cased, stop words removed.
    /// [`Segmenter::for_each_term`] gives the same without allocating a `String` per term.
    pub fn terms(&self, text: &str, method: Method) -> Vec<String> {
        let mut out = Vec::with_capacity(text.len() / 6);
        self.for_each_term(text, method, |t| out.push(t.into_owned()));
        out
    }

    /// [`Segmenter::terms`] one at a time, each borrowed from `text` unless lower-casing
    /// changed it: the fast path for indexing.
    pub(crate) fn for_each_term<'a>(
        &self,
        text: &'a str,
        method: Method,
        mut f: impl FnMut(Cow<'a, str>),
    ) {
        self.for_each_token_at(text, method, true, false, |w, _| f(w))
    }

    /// The index terms of `text` with their character offsets, for positional indexes: Word
    /// and Latin tokens, lower-cased; stop words removed when `drop_stop_words`. Search mode
    /// gives the dictionary words inside longer words at their own offsets too.
    pub fn for_each_term_at<'a>(
        &self,
        text: &'a str,
        method: Method,
        drop_stop_words: bool,
        f: impl FnMut(Cow<'a, str>, usize),
    ) {
        self.for_each_token_at(text, method, drop_stop_words, false, f)
    }

    /// [`Segmenter::for_each_term_at`], or with `all_tokens` every token but whitespace, as
    /// cut and not lower-cased (what tantivy-jieba indexes).
    pub(crate) fn for_each_token_at<'a>(
        &self,
        text: &'a str,
        method: Method,
        drop_stop_words: bool,
        all_tokens: bool,
        mut f: impl FnMut(Cow<'a, str>, usize),
    ) {
        if method == Method::JiebaNoHmm && drop_stop_words && !all_tokens {
            return terms::nohmm_terms(text, f);
        }
        if drop_stop_words && !all_tokens && !method.is_matching() {
            // The terms without stop words (the cleaner's and the index's default analysis):
            // `term_kind` decides a token that starts with a main-block Han character from
            // that character, without classifying the whole token.
            self.scan_jieba(text, method, &mut |w, start| {
                if let Some(kind) = term_kind(w) {
                    f(lowercase(w, kind), start);
                }
            });
            return;
        }
        let mut keep = |w: &'a str, start: usize, kind: TokenKind| {
            let wanted = if all_tokens {
                kind != TokenKind::Space
            } else {
                matches!(kind, TokenKind::Word | TokenKind::Latin)
            };
            if wanted && !(drop_stop_words && is_stop_word(w)) {
                f(
                    if all_tokens {
                        Cow::Borrowed(w)
                    } else {
                        lowercase(w, kind)
                    },
                    start,
                );
            }
        };
        if method.is_matching() {
            self.scan_matching(text, method, &mut keep);
        } else if method == Method::JiebaNoHmm {
            let keep = &mut |w: &'a str, start, k: Kind| keep(w, start, k.token_kind());
            match all_tokens {
                true => NoHmm::shared().cut_kinds::<false>(text, keep),
                false => NoHmm::shared().cut_kinds::<true>(text, keep),
            }
        } else {
            self.scan_jieba(text, method, &mut |w, start| keep(w, start, classify(w)));
        }
    }

    /// Call `emit(word, char_start)` for every jieba token of `text`.
    fn scan_jieba<'a>(&self, text: &'a str, method: Method, emit: &mut impl FnMut(&'a str, usize)) {
        if method == Method::JiebaNoHmm {
            return NoHmm::shared().cut_kinds::<false>(text, &mut |w, start, _| emit(w, start));
        }
        let jieba = self.jieba();
        let (mut rest, mut base) = (text, 0);
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(next_chunk(rest));
            rest = tail;
            let tokens = match method {
                Method::Search => jieba.cut_for_search(chunk, true),
                _ => jieba.cut(chunk, true),
            };
            for t in &tokens {
                emit(t.word, base + t.start);
            }
            base += tokens.iter().map(|t| t.end).max().unwrap_or(0);
        }
    }

    /// Call `emit(word, char_start, kind)` for every token of a matching method.
    fn scan_matching<'a>(
        &self,
        text: &'a str,
        m: Method,
        emit: &mut impl FnMut(&'a str, usize, TokenKind),
    ) {
        let (mut offs, mut spans) = (Vec::new(), Vec::new());
        for (kind, run, pos, _) in runs(text) {
            if kind != TokenKind::Word {
                emit(run, pos, kind);
                continue;
            }
            let run = Run::new(run, &mut offs, &self.dict);
            spans.clear();
            run.segment(m, self.max_len, &mut spans);
            for &(a, b) in &spans {
                emit(run.word(a, b), pos + a, TokenKind::Word);
            }
        }
    }

    fn trace(&self, sentence: &str, reverse: bool) -> Vec<FmmStep> {
        let (mut steps, mut offs) = (Vec::new(), Vec::new());
        for (_, run, pos, _) in runs(sentence).filter(|r| r.0 == TokenKind::Word) {
            let run = Run::new(run, &mut offs, &self.dict);
            let visit = |p: usize, l: usize, in_dict: Option<bool>, accepted| {
                let candidate = run.word(p, p + l).to_owned();
                let in_dict = in_dict.unwrap_or_else(|| run.is_word(p, p + l));
                steps.push(FmmStep {
                    pos: pos + p,
                    candidate,
                    in_dict,
                    accepted,
                });
            };
            if reverse {
                run.rmm_walk(self.max_len, visit);
            } else {
                run.fmm_walk(self.max_len, visit);
            }
        }
        steps
    }

    /// Every FMM window tried on the Han runs of `sentence`, in order [L1541]; the accepted
    /// ones are [`Method::Fmm`]'s words. Other characters are skipped, as by the book's
    /// `Preprocess` [L1552–1575].
    pub(crate) fn fmm_trace(&self, sentence: &str) -> Vec<FmmStep> {
        self.trace(sentence, false)
    }

    /// [`Segmenter::fmm_trace`] for RMM: windows end at the right and lose their left-most
    /// character; within a Han run the words are accepted right to left.
    pub(crate) fn rmm_trace(&self, sentence: &str) -> Vec<FmmStep> {
        self.trace(sentence, true)
    }
}

pub mod compare;
pub(crate) mod nohmm;
mod terms;
#[cfg(test)]
mod tests;
