//! Which character encoding is this page in, and who decided?
//!
//! A crawler stores bytes, not text. Before cleaning, segmentation or indexing (chapter 4,
//! preprocessing) the bytes must become text, and for Chinese pages this is the first place things
//! go wrong: the book's own sample pages are GB2312 (Fig 4-2 \[L1407\]), many pages declare
//! nothing, and some declare an encoding they are not in.
//!
//! [`decide`] follows the order a browser uses (WHATWG HTML, "determining the character
//! encoding") and records in [`DecidedBy`] which step won: a user override, a byte-order mark,
//! the HTTP `Content-Type` `charset=`, a `<meta>` found by the WHATWG prescan of the first
//! [`PRESCAN_BYTES`] bytes (or later in the head, where a browser's parser meets it), or
//! chardetng's guess (Firefox's detector) over the page's non-ASCII bytes (at most
//! [`GUESS_EVIDENCE`] of them, wherever they are; a first [`FIRST_LOOK`] that names a
//! multi-byte encoding the rest decodes under stands) with the top-level domain as a hint.
//! Declarations are then checked against the bytes, because real pages lie (rules on
//! [`decide`]). Labels `gb2312` and `gbk` (GBK under WHATWG) are decoded as gb18030, a superset.
//! Every [`Decision`] carries a `note` saying what was seen, for the analysis-chain view (bytes →
//! encoding → text → tokens).
//!
//! ```
//! use tianwang::engine::text::encoding::{decide_and_decode, DecidedBy};
//! let (gbk, _, _) = encoding_rs::GBK.encode("天网搜索引擎，北京大学网络实验室");
//! let page = [b"<meta charset=gb2312><p>".as_slice(), &gbk].concat();
//! let (decision, text) = decide_and_decode(&page, None, None, Some(b"cn"))?;
//! assert_eq!(decision.decided_by, DecidedBy::Meta);
//! assert_eq!(decision.encoding_name(), "gb18030");
//! assert!(text.ends_with("天网搜索引擎，北京大学网络实验室"));
//! # Ok::<(), tianwang::engine::text::encoding::UnknownLabel>(())
//! ```

use std::borrow::Cow;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{
    BIG5, DecoderResult, Encoding, GB18030, GBK, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252,
    X_USER_DEFINED,
};
use serde::{Serialize, Serializer};

pub use self::note::Note;
pub(crate) use self::note::english as notes_english;
pub(crate) use self::note::serialize_english as note_english;
use self::prescan::prescan;

/// How many leading bytes the `<meta>` prescan looks at (WHATWG).
pub(crate) const PRESCAN_BYTES: usize = 1024;
/// How many leading bytes of a query log decide its encoding.
pub(crate) const GUESS_BYTES: usize = 64 * 1024;
/// At most this many bytes of non-ASCII evidence go to chardetng.
pub(crate) const GUESS_EVIDENCE: usize = 4 * 1024;
/// chardetng first reads this much of the evidence; a multi-byte answer that the whole evidence
/// decodes under without a malformed sequence stands (see [`guess`]).
pub(crate) const FIRST_LOOK: usize = 512;
/// A declaration is doubted when its replacement characters exceed this share of the non-ASCII
/// characters it decodes to.
pub(crate) const MAX_ERROR_SHARE: f64 = 0.01;

/// Which step of [`decide`] chose the encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DecidedBy {
    /// A byte-order mark at the start of the bytes.
    Bom,
    /// The `charset=` parameter of the HTTP `Content-Type` header.
    Header,
    /// A `<meta>` charset found by the prescan.
    Meta,
    /// The bytes themselves: chardetng, or evidence that overruled a declaration.
    Guess,
    /// The user's override label.
    Override,
}

/// The outcome of [`decide`]: the encoding, who chose it, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    /// The encoding used for decoding; serialised as its lower-case WHATWG name ("gb18030").
    #[serde(serialize_with = "serialize_encoding")]
    pub encoding: &'static Encoding,
    pub decided_by: DecidedBy,
    /// The label as written in the override, header or `<meta>`, whether used or overruled.
    pub declared_label: Option<String>,
    /// What the decision saw, in order: keys with arguments a view says in its own language;
    /// serialised as one English `note` ([`note::english`]).
    #[serde(rename = "note", serialize_with = "note_english")]
    pub notes: Vec<Note>,
    /// Whether decoding produced replacement characters (U+FFFD).
    pub had_errors: bool,
}

impl Decision {
    /// The lower-case WHATWG name of the chosen encoding, e.g. "gb18030", "big5", "utf-8".
    pub fn encoding_name(&self) -> String {
        name(self.encoding)
    }

    /// The notes in English, joined by "; " (for the command line).
    pub fn note(&self) -> String {
        notes_english(&self.notes)
    }
}

/// An override label that the Encoding Standard does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown character encoding label {label:?}")]
pub struct UnknownLabel {
    pub label: String,
}

/// Decides which encoding `bytes` are in.
///
/// `content_type` is the HTTP `Content-Type` value, `override_label` a user's choice (labels that
/// map to the WHATWG "replacement" encoding count as unknown), `tld` the host's top-level domain
/// (a whole host such as `news.sina.com.cn` works; a non-ASCII label is ignored). An override is
/// used as given and a BOM is trusted. A declaration (header, else `<meta>`) is checked:
///
/// * **WHATWG fix-ups**: a `<meta>` declaring UTF-16 means UTF-8; so does a header declaring
///   UTF-16 when the first 1,024 bytes hold no NUL byte; x-user-defined means windows-1252.
/// * **Latin-1 header**: a header saying iso-8859-1/windows-1252 (a common server default)
///   yields to a `<meta>` that says something else.
/// * **UTF-8 evidence**: a non-UTF-8 declaration over bytes that are valid UTF-8 with at least
///   two non-ASCII characters is overruled: UTF-8, decided by the other declaration if it said
///   UTF-8, else `Guess`.
/// * **Error evidence**: if decoding as declared gives more than [`MAX_ERROR_SHARE`] replacement
///   characters (per non-ASCII character), the other declaration, then chardetng's guess, is
///   tried; the first that decodes under that share with no more errors wins.
/// * **Windows-1252 evidence**: windows-1252 decodes any byte, so errors cannot expose it; when
///   it is declared over non-ASCII bytes and chardetng guesses a multi-byte encoding (GBK, Big5,
///   …) that decodes under the share, the guess wins. Single-byte guesses never overrule.
///
/// Not caught: Big5 bytes under a GBK label decode without errors (GBK's byte ranges cover
/// Big5's); checking every declaration with chardetng (about 9 MB/s here) would cost too much.
///
/// A `<meta>` past the prescan window (within [`GUESS_BYTES`]) counts as a declaration: a
/// browser's parser meets it in the head and changes to its encoding.
///
/// `declared_label` keeps an overruled label and the note says why. Without a declaration
/// chardetng decides (UTF-8 allowed); if it picks a single-byte encoding only because GBK or Big5
/// had a few malformed sequences (a character cut in half), it is asked again without them.
pub(crate) fn decide(
    bytes: &[u8],
    content_type: Option<&str>,
    override_label: Option<&str>,
    tld: Option<&[u8]>,
) -> Result<Decision, UnknownLabel> {
    decide_and_decode(bytes, content_type, override_label, tld).map(|(decision, _)| decision)
}

/// Decodes `bytes` as `d` says: strips a BOM that matches the encoding and replaces malformed
/// sequences with U+FFFD.
pub fn decode(bytes: &[u8], d: &Decision) -> String {
    decode_counted(bytes, d.encoding).text.into_owned()
}

/// [`decide`], then [`decode`].
pub fn decide_and_decode(
    bytes: &[u8],
    content_type: Option<&str>,
    override_label: Option<&str>,
    tld: Option<&[u8]>,
) -> Result<(Decision, String), UnknownLabel> {
    decide_and_decode_cow(bytes, content_type, override_label, tld)
        .map(|(d, t)| (d, t.into_owned()))
}

/// [`decide_and_decode`] with the text borrowed from `bytes` where decoding changes nothing
/// (valid UTF-8 read as UTF-8, pure ASCII read by an ASCII-based encoding): no copy of the page.
pub(crate) fn decide_and_decode_cow<'b>(
    bytes: &'b [u8],
    content_type: Option<&str>,
    override_label: Option<&str>,
    tld: Option<&[u8]>,
) -> Result<(Decision, Cow<'b, str>), UnknownLabel> {
    let mut notes = Vec::new();
    let decision = if let Some(raw) = override_label {
        let label = raw.trim();
        let unknown = || UnknownLabel { label: raw.into() };
        let enc = Encoding::for_label_no_replacement(label.as_bytes()).ok_or_else(unknown)?;
        let mut head = vec![Note::of("override", [label])];
        head.extend(superset(enc));
        verdict(enc, DecidedBy::Override, Some(label.into()), head, notes)
    } else if let Some((enc, len)) = Encoding::for_bom(bytes) {
        let head = vec![Note::of("bom", [name(enc), len.to_string()])];
        verdict(enc, DecidedBy::Bom, None, head, notes)
    } else {
        let header = content_type.and_then(header_charset).and_then(|label| {
            let enc = Encoding::for_label_no_replacement(label.as_bytes());
            if enc.is_none() {
                notes.push(Note::of("header_unknown", [label]));
            }
            Some(claim(enc?, DecidedBy::Header, label, bytes, &mut notes))
        });
        let meta = prescan(window(bytes, PRESCAN_BYTES))
            .map(|(enc, label, _)| claim(enc, DecidedBy::Meta, &label, bytes, &mut notes));
        match (header, meta) {
            (Some(h), Some(m)) if h.encoding == WINDOWS_1252 && m.encoding != WINDOWS_1252 => {
                notes.push(Note::of("server_default", [&h.label]));
                check(bytes, tld, m, None, notes)
            }
            (Some(h), m) => {
                if let Some(m) = m.as_ref().filter(|m| m.encoding != h.encoding) {
                    notes.push(Note::of("meta_overruled", [&m.label]));
                }
                check(bytes, tld, h, m, notes)
            }
            (None, Some(m)) => check(bytes, tld, m, None, notes),
            (None, None) => undeclared(bytes, tld, notes),
        }
    };
    let decoded = decode_memo(bytes, decision.encoding);
    let mut decision = Decision {
        had_errors: decoded.errors > 0,
        ..decision
    };
    let counted = |n: &Note| Note::template(n.key).contains("replacement");
    if decoded.errors > 0 && !decision.notes.iter().any(counted) {
        decision
            .notes
            .push(Note::of("replacements", [decoded.errors]));
    }
    Ok((decision, decoded.text))
}

fn verdict(
    encoding: &'static Encoding,
    decided_by: DecidedBy,
    declared_label: Option<String>,
    mut head: Vec<Note>,
    notes: Vec<Note>,
) -> Decision {
    head.extend(notes);
    let encoding = if encoding == GBK { GB18030 } else { encoding };
    let had_errors = false; // set once decoded
    Decision {
        encoding,
        decided_by,
        declared_label,
        notes: head,
        had_errors,
    }
}

/// A declaration from the header or a `<meta>`, after the WHATWG fix-ups.
struct Claim {
    encoding: &'static Encoding,
    by: DecidedBy,
    label: String,
}

impl Claim {
    /// "The header (or the `<meta>`) says …": `header_says` or `meta_says` by who said it.
    fn says(&self) -> Note {
        let key = if self.by == DecidedBy::Header {
            "header_says"
        } else {
            "meta_says"
        };
        Note::of(key, [&self.label])
    }
}

fn claim(
    raw: &'static Encoding,
    by: DecidedBy,
    label: &str,
    bytes: &[u8],
    notes: &mut Vec<Note>,
) -> Claim {
    let mut encoding = raw;
    if (raw == UTF_16LE || raw == UTF_16BE)
        && (by == DecidedBy::Meta || !window(bytes, PRESCAN_BYTES).contains(&0))
    {
        notes.push(Note::of("utf16_as_utf8", [label]));
        encoding = UTF_8;
    } else if raw == X_USER_DEFINED {
        notes.push(Note::new("user_defined"));
        encoding = WINDOWS_1252;
    }
    let label = label.trim().to_string();
    Claim {
        encoding,
        by,
        label,
    }
}

/// Applies the evidence rules listed on [`decide`] to the winning declaration.
fn check(
    bytes: &[u8],
    tld: Option<&[u8]>,
    declared: Claim,
    other: Option<Claim>,
    mut notes: Vec<Note>,
) -> Decision {
    let (enc, label) = (
        for_decoding(declared.encoding),
        Some(declared.label.clone()),
    );
    let mut head = vec![declared.says()];
    if enc != UTF_8 && looks_like_utf8(bytes) {
        let by = other
            .filter(|o| o.encoding == UTF_8)
            .map_or(DecidedBy::Guess, |o| o.by);
        head.push(Note::new("valid_utf8"));
        return verdict(UTF_8, by, label, head, notes);
    }
    let first = decode_counted(bytes, enc);
    // Each alternative: its encoding, who said it, and its note's key and first argument (the
    // label said, or the encoding guessed); the note's second is its replacement count.
    let mut alternatives: Vec<(&'static Encoding, DecidedBy, &'static str, String)> = Vec::new();
    if first.too_many_errors() {
        let share = first.errors as f64 * 100.0 / first.non_ascii as f64;
        head.push(Note::of(
            "errors_as",
            [name(enc), first.errors.to_string(), format!("{share:.1}")],
        ));
        if let Some(o) = other {
            let key = if o.by == DecidedBy::Header {
                "alt_header"
            } else {
                "alt_meta"
            };
            alternatives.push((o.encoding, o.by, key, o.label));
        }
        let (guessed, _) = guess(bytes, tld, &mut notes);
        alternatives.push((guessed, DecidedBy::Guess, "alt_guess", name(guessed)));
    } else if enc == WINDOWS_1252 && !bytes.is_ascii() {
        let (guessed, _) = guess(bytes, tld, &mut notes);
        if !guessed.is_single_byte() {
            head.push(Note::new("any_byte"));
            alternatives.push((guessed, DecidedBy::Guess, "alt_guess", name(guessed)));
        }
    }
    for (alt, by, key, what) in alternatives {
        let decoded = decode_counted(bytes, for_decoding(alt));
        if for_decoding(alt) != enc && decoded.errors <= first.errors && !decoded.too_many_errors()
        {
            head.push(Note::of(key, [what, decoded.errors.to_string()]));
            return verdict(alt, by, label, head, notes);
        }
    }
    if first.too_many_errors() {
        head.push(Note::new("stands"));
    }
    remember(bytes, enc, first);
    head.extend(superset(declared.encoding));
    verdict(enc, declared.by, label, head, notes)
}

fn undeclared(bytes: &[u8], tld: Option<&[u8]>, mut notes: Vec<Note>) -> Decision {
    // A <meta> past the prescan window: a browser's parser meets it in the head and changes to
    // its encoding (WHATWG "change the encoding"), so it is a declaration, checked against the
    // bytes like any other. A guess instead read a short Big5 page's 網頁 as ISO-8859-5.
    if let Some((late, said, at)) = prescan(window(bytes, GUESS_BYTES)) {
        notes.push(Note::of("late_meta", [at, PRESCAN_BYTES]));
        let late = claim(late, DecidedBy::Meta, &said, bytes, &mut notes);
        return check(bytes, tld, late, None, notes);
    }
    // Valid UTF-8 with non-ASCII text is UTF-8: chardetng (Utf8Detection::Allow) would answer
    // the same after a far longer look.
    if looks_like_utf8(bytes) {
        let head = vec![Note::of("undeclared_utf8", [PRESCAN_BYTES])];
        return verdict(UTF_8, DecidedBy::Guess, None, head, notes);
    }
    let (guessed, seen) = guess(bytes, tld, &mut notes);
    let (first, guessed_name, seen) = (PRESCAN_BYTES.to_string(), name(guessed), seen.to_string());
    let mut head = vec![match tld.and_then(clean_tld) {
        Some(t) => Note::of(
            "guessed_tld",
            [
                first,
                guessed_name,
                seen,
                String::from_utf8_lossy(&t).into_owned(),
            ],
        ),
        None => Note::of("guessed", [first, guessed_name, seen]),
    }];
    head.extend(superset(guessed));
    if bytes.is_ascii() {
        head.push(Note::new("pure_ascii"));
    }
    verdict(guessed, DecidedBy::Guess, None, head, notes)
}

/// Decoded text with its error statistics; the text borrows the bytes when decoding changed
/// nothing.
struct Decoded<'b> {
    text: Cow<'b, str>,
    errors: usize,
    non_ascii: usize,
}

impl Decoded<'_> {
    fn too_many_errors(&self) -> bool {
        self.errors as f64 > MAX_ERROR_SHARE * self.non_ascii as f64
    }
}

thread_local! {
    /// The last decode on this thread, keyed by input address, length and encoding: `check`
    /// decodes to count errors, and the final decode of the same bytes reuses that work.
    static LAST: std::cell::RefCell<Option<(usize, usize, &'static Encoding, Decoded<'static>)>> =
        const { std::cell::RefCell::new(None) };
}

/// [`decode_counted`], reusing this thread's previous decode of the same bytes.
fn decode_memo<'b>(bytes: &'b [u8], encoding: &'static Encoding) -> Decoded<'b> {
    let key = (bytes.as_ptr() as usize, bytes.len());
    let hit = LAST.with(|l| {
        let mut l = l.borrow_mut();
        match l.take() {
            Some((p, n, e, d)) if (p, n) == key && e == encoding => Some(d),
            _ => None,
        }
    });
    hit.unwrap_or_else(|| decode_counted(bytes, encoding))
}

/// Keeps a decode that made new text (a borrowed one is cheap to make again, and cannot be
/// kept past its bytes).
fn remember(bytes: &[u8], encoding: &'static Encoding, d: Decoded<'_>) {
    let kept = match d.text {
        Cow::Owned(text) => Some((
            bytes.as_ptr() as usize,
            bytes.len(),
            encoding,
            Decoded {
                text: Cow::Owned(text),
                errors: d.errors,
                non_ascii: d.non_ascii,
            },
        )),
        Cow::Borrowed(_) => None,
    };
    LAST.with(|l| *l.borrow_mut() = kept);
}

fn decode_counted<'b>(bytes: &'b [u8], encoding: &'static Encoding) -> Decoded<'b> {
    let body = match Encoding::for_bom(bytes) {
        Some((bom, len)) if bom == encoding => bytes.get(len..).unwrap_or_default(),
        _ => bytes,
    };
    let (text, had_errors) = encoding.decode_without_bom_handling(body);
    let (mut errors, mut non_ascii) = (0, 0);
    // Error statistics are only needed when there were errors.
    if had_errors {
        for c in text.chars().filter(|c| !c.is_ascii()) {
            non_ascii += 1;
            errors += usize::from(c == '\u{FFFD}');
        }
    }
    Decoded {
        text,
        errors,
        non_ascii,
    }
}

/// Valid UTF-8 (one character cut off at the very end is allowed) with at least two non-ASCII
/// characters.
fn looks_like_utf8(bytes: &[u8]) -> bool {
    let valid = Encoding::utf8_valid_up_to(bytes);
    let (body, tail) = bytes.split_at(valid);
    let cut_tail = match tail.split_first() {
        None => true,
        Some((&lead, rest)) => {
            tail.len() < 4 && (0xC2..=0xF4).contains(&lead) && rest.iter().all(|b| b & 0xC0 == 0x80)
        }
    };
    cut_tail && body.iter().filter(|&&b| b >= 0xC0).count() >= 2
}

/// The non-ASCII evidence of a page for chardetng: every run of bytes ≥ 0x80 with the byte
/// before it and the byte after it (legacy CJK trail bytes may be ASCII), runs joined by a space,
/// at most [`GUESS_EVIDENCE`] bytes. Markup, scripts and styles are ASCII, so a 60 KB page
/// usually shrinks to a few KB and chardetng (about 9 MB/s) takes a fraction of the time.
///
/// The evidence is taken from the whole page, not its head: a modern page may carry 64 KB of
/// scripts and styles before its first non-ASCII character, and an undeclared windows-1252 page
/// guessed from its first 64 KB alone came out UTF-8 (no evidence at all) or IBM866 (a few curly
/// quotes); runs of ASCII are skipped with encoding_rs's vectorised scan.
fn evidence(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(GUESS_EVIDENCE.min(bytes.len()) + 8);
    let mut i = 0;
    while i < bytes.len() && out.len() < GUESS_EVIDENCE {
        if bytes[i] < 0x80 {
            i += Encoding::ascii_valid_up_to(&bytes[i..]);
            continue;
        }
        let start = i.saturating_sub(1);
        while i < bytes.len() && bytes[i] >= 0x80 {
            i += 1;
        }
        let end = (i + 1).min(bytes.len());
        out.extend_from_slice(&bytes[start..end]);
        out.push(b' ');
        i = end;
    }
    out
}

/// chardetng's guess and how many bytes of evidence it read.
///
/// chardetng costs about 2,000 instructions a byte of evidence, so it first reads
/// [`FIRST_LOOK`] bytes (whole runs). When that look names a multi-byte encoding (GBK, Big5,
/// EUC-KR, Shift_JIS, EUC-JP) and all the evidence decodes under it without a malformed
/// sequence, the answer stands: chardetng rules a multi-byte encoding out only at a malformed
/// sequence, and a kilobyte of CJK text already ranks the candidates that stay. Anything else
/// (a single-byte guess, where the long tail of Latin text matters, or a malformed sequence
/// further on) reads the whole evidence as before.
fn guess(bytes: &[u8], tld: Option<&[u8]>, remarks: &mut Vec<Note>) -> (&'static Encoding, usize) {
    let condensed = evidence(bytes);
    let tld = tld.and_then(clean_tld);
    if let Some(head) = first_look(&condensed) {
        let first = detect(head, false, tld.as_deref());
        if !first.is_single_byte()
            && first != UTF_8
            && first
                .decode_without_bom_handling_and_without_replacement(&condensed)
                .is_some()
        {
            return (first, head.len());
        }
    }
    let guessed = guess_from(&condensed, bytes, tld.as_deref(), remarks);
    (guessed, condensed.len())
}

/// chardetng's answer on `evidence` (ISO-2022-JP off, UTF-8 allowed), `tld` already cleaned.
fn detect(evidence: &[u8], last: bool, tld: Option<&[u8]>) -> &'static Encoding {
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(evidence, last);
    detector.guess(tld, Utf8Detection::Allow)
}

/// The first [`FIRST_LOOK`] bytes of `evidence`, ending at a run boundary (the space
/// [`evidence`] puts after a run), or `None` when the evidence is no longer than that.
fn first_look(evidence: &[u8]) -> Option<&[u8]> {
    if evidence.len() <= FIRST_LOOK {
        return None;
    }
    let cut = evidence[..FIRST_LOOK].iter().rposition(|&b| b == b' ')?;
    Some(&evidence[..=cut])
}

/// chardetng's guess from `head`, the evidence of `bytes`; `tld` already cleaned.
fn guess_from(
    head: &[u8],
    bytes: &[u8],
    tld: Option<&[u8]>,
    remarks: &mut Vec<Note>,
) -> &'static Encoding {
    if head.is_empty() {
        // Pure ASCII: chardetng would say windows-1252; every ASCII-based encoding reads it alike.
        return detect(window(bytes, 1024), true, tld);
    }
    let first = detect(head, false, tld);
    if !first.is_single_byte() || head.is_ascii() {
        return first;
    }
    // chardetng rules a multi-byte encoding out at its first malformed sequence, and pages with a
    // character cut in half are common; ask again without those sequences.
    for cjk in [GBK, BIG5] {
        let (repaired, cut) = drop_malformed(head, cjk);
        let decoded = decode_counted(head, cjk);
        if cut > 0 && !decoded.too_many_errors() && detect(&repaired, false, tld) == cjk {
            remarks.push(Note::of(
                "malformed_retry",
                [name(first), cut.to_string(), name(cjk)],
            ));
            return cjk;
        }
    }
    first
}

/// `bytes` without the sequences `encoding` finds malformed, and how many there were.
fn drop_malformed(bytes: &[u8], encoding: &'static Encoding) -> (Vec<u8>, usize) {
    let mut kept = Vec::with_capacity(bytes.len());
    let mut scratch = vec![0u8; 32 * 1024];
    let (mut rest, mut cut) = (bytes, 0);
    let mut decoder = encoding.new_decoder_without_bom_handling();
    loop {
        let (result, read, _) =
            decoder.decode_to_utf8_without_replacement(rest, &mut scratch, true);
        let (good, next) = match result {
            DecoderResult::InputEmpty => {
                kept.extend_from_slice(rest);
                return (kept, cut);
            }
            DecoderResult::OutputFull => (read, read),
            DecoderResult::Malformed(bad, extra) => {
                cut += 1;
                decoder = encoding.new_decoder_without_bom_handling();
                let next = read.saturating_sub(usize::from(extra)).max(1);
                (next.saturating_sub(usize::from(bad)), next)
            }
        };
        kept.extend_from_slice(rest.get(..good).unwrap_or(rest));
        rest = rest.get(next..).unwrap_or_default();
    }
}

/// The last DNS label, lower-cased; `None` if empty or non-ASCII (chardetng panics on those).
fn clean_tld(host: &[u8]) -> Option<Vec<u8>> {
    let host = host.strip_suffix(b".").unwrap_or(host);
    let label = host.rsplit(|&b| b == b'.').next()?;
    (!label.is_empty() && label.is_ascii()).then(|| label.to_ascii_lowercase())
}

fn window(bytes: &[u8], len: usize) -> &[u8] {
    bytes.get(..len).unwrap_or(bytes)
}

fn for_decoding(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == GBK { GB18030 } else { encoding }
}

/// The note that GBK is read with its superset's decoder, if `declared` is GBK.
fn superset(declared: &'static Encoding) -> Option<Note> {
    (declared == GBK).then(|| Note::new("superset"))
}

fn name(encoding: &'static Encoding) -> String {
    encoding.name().to_ascii_lowercase()
}

fn serialize_encoding<S: Serializer>(enc: &&'static Encoding, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&name(enc))
}

/// The `charset` parameter of a `Content-Type` value, unquoted and trimmed.
fn header_charset(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (key, value) = param.split_once('=')?;
        if !key.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let value = value.trim();
        let value = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or_default(),
            _ => value.split([' ', '\t', ',']).next().unwrap_or_default(),
        };
        let value = value.trim();
        (!value.is_empty()).then_some(value)
    })
}

mod note;
mod prescan;
#[cfg(test)]
mod tests;
