//! URL policy of the crawler: which URLs it fetches, in what canonical form, with what priority.
//!
//! * **Canonical form** for the visited-URL set. The book's `CUrl` [L835–890] only splits
//!   `scheme://net_loc/path;params?query#fragment` [L871] and says nothing about default ports or
//!   fragments, so [`canonicalize`] follows RFC 3986 §6.2 on top of the WHATWG parser of the
//!   `url` crate (which already lower-cases scheme and host, drops default ports and resolves dot
//!   segments), and adds what `url` leaves alone: a trailing host dot, fragments, `%7e` vs `~`,
//!   query order and, as an option, `//` in the path. [`explain_canonicalization`] lists each step.
//! * **Link resolution** as browsers do it ([`resolve_link`]): WHATWG URL parsing against the
//!   page's URL, the query encoded in the page's encoding (GBK pages give GBK bytes), the path
//!   always UTF-8.
//! * **Priority weight** of §4.12 [L1317–1326] ([`book_weight`]): start at 10, −1 per `/`, `?`,
//!   `&`, −2 per `search`, `proxy`, `gate`, never below 0 [L1321–1323].
//! * **Link filter and MIME allow-list** of §4.13: TSE's `IsFilterLink` with its 25 substrings
//!   [L1338–1366] ([`UrlFilter`]) and the 9 accepted content types [L1334] ([`mime_allowed`]).
//!
//! ```
//! use tianwang::engine::urls::{book_weight, canonicalize, resolve_link, UrlFilter};
//! let page = url::Url::parse("http://WWW.PKU.edu.cn:80/cs/index.html")?;
//! let link = resolve_link(&page, " ../search?q=中文#top", encoding_rs::GBK).expect("http link");
//! assert_eq!(link.as_str(), "http://www.pku.edu.cn/search?q=%D6%D0%CE%C4#top");
//! assert_eq!(canonicalize(&link).as_str(), "http://www.pku.edu.cn/search?q=%D6%D0%CE%C4");
//! assert_eq!(book_weight(&link).score, 6); // 10 − 1 × '/' − 1 × '?' − 2 × 1 'search'
//! assert!(UrlFilter::default().check(link.as_str()).is_err()); // "search" is on the book's list
//! # Ok::<(), url::ParseError>(())
//! ```

use std::borrow::Cow;
use std::net::Ipv6Addr;

use encoding_rs::{EncoderResult, Encoding, UTF_8};
use url::{Host, Position, Url};

// ---- Canonical form -----------------------------------------------------------------------------

/// The choices of [`canonicalize_with`] that are not safe for every server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CanonOptions {
    /// Sort the query's `&`-separated pairs by key, then value (stable; compared as the
    /// normalised percent-encoded text) and drop empty pairs (`a=1&&b=2`). Default **on**: the
    /// same page reached through links that order their parameters differently is one page.
    pub sort_query: bool,
    /// Collapse runs of `/` in the path (`/a//b` → `/a/b`). Default **off**: RFC 3986 treats
    /// them as different paths and some servers do serve different resources.
    pub collapse_slashes: bool,
}

impl Default for CanonOptions {
    fn default() -> Self {
        CanonOptions {
            sort_query: true,
            collapse_slashes: false,
        }
    }
}

/// The canonical form used for the visited set, with the default [`CanonOptions`].
pub fn canonicalize(u: &Url) -> Url {
    canonicalize_with(u, &CanonOptions::default())
}

/// The canonical form with explicit options. Idempotent: canonicalising twice changes nothing.
pub(crate) fn canonicalize_with(u: &Url, opts: &CanonOptions) -> Url {
    explain_canonicalization(u, opts).0
}

/// The canonical form and, in order, each step that changed the URL (for a GUI to show why two
/// URLs are the same). Steps done by the `url` crate itself (lower-case scheme and host, default
/// port `:80`/`:443` removed — also by `set_port` — dot segments resolved, empty http path → `/`)
/// are not visible in a `Url`; use [`explain_str`] to see them as well.
pub(crate) fn explain_canonicalization(u: &Url, opts: &CanonOptions) -> (Url, Vec<String>) {
    let mut out = u.clone();
    let mut steps = Vec::new();
    let mut note = |what: &str, before: &str, after: &str| {
        steps.push(format!("{what}: `{before}` → `{after}`"));
    };
    // Host: lower case (the parser does it for http/https, not for other schemes), no final dot.
    if let Some(host) = out.host_str().map(str::to_owned) {
        let lower = host.to_ascii_lowercase();
        if lower != host && out.set_host(Some(&lower)).is_ok() {
            note("lower-cased the host", &host, &lower);
        }
        let trimmed = lower.trim_end_matches('.');
        if !trimmed.is_empty() && trimmed != lower && out.set_host(Some(trimmed)).is_ok() {
            note("removed the trailing dot of the host", &lower, trimmed);
        }
    }
    if let Some(fragment) = out.fragment().map(|f| format!("#{f}")) {
        out.set_fragment(None);
        note("removed the fragment", &fragment, "");
    }
    if !out.cannot_be_a_base() {
        let path = out.path().to_owned();
        let normalised = normalize_percent(&path).into_owned();
        let mut collapsed = normalised.clone();
        while opts.collapse_slashes && collapsed.contains("//") {
            collapsed = collapsed.replace("//", "/");
        }
        if normalised != path {
            note("normalised the path's %-encoding", &path, &normalised);
        }
        if collapsed != normalised {
            note("collapsed `//` in the path", &normalised, &collapsed);
        }
        if collapsed.is_empty() && out.has_host() {
            note("empty path", "", "/");
            collapsed = "/".to_owned();
        }
        if collapsed != path {
            out.set_path(&collapsed);
        }
    }
    if let Some(query) = out.query().map(str::to_owned) {
        let normalised = normalize_percent(&query).into_owned();
        if normalised != query {
            note("normalised the query's %-encoding", &query, &normalised);
        }
        let sorted = sort_query(&normalised, opts.sort_query);
        if sorted != normalised {
            note("sorted the query by key, then value", &normalised, &sorted);
        }
        if sorted.is_empty() {
            out.set_query(None);
            note("removed the empty query", "?", "");
        } else if sorted != query {
            out.set_query(Some(&sorted));
        }
    }
    (out, steps)
}

/// [`explain_canonicalization`] for a typed URL: parses it (after trimming whitespace) and, when
/// the WHATWG parser already changed it, lists that as the first step.
pub fn explain_str(raw: &str, opts: &CanonOptions) -> Result<(Url, Vec<String>), url::ParseError> {
    let raw = raw.trim();
    let parsed = Url::parse(raw)?;
    let (canon, mut steps) = explain_canonicalization(&parsed, opts);
    if parsed.as_str() != raw {
        let note = format!(
            "URL parser: `{raw}` → `{parsed}` (lower-case scheme and host, default port removed, \
             dot segments resolved, non-ASCII percent-encoded)"
        );
        steps.insert(0, note);
    }
    Ok((canon, steps))
}

fn hex_value(b: Option<&u8>) -> Option<u8> {
    b.and_then(|b| char::from(*b).to_digit(16))
        .and_then(|d| u8::try_from(d).ok())
}

/// RFC 3986 §6.2.2: `%xx` of an unreserved character (ALPHA, DIGIT, `-`, `.`, `_`, `~`) is
/// decoded; every other `%xx` gets upper-case hex. A `%` without two hex digits is left alone,
/// and so is an encoded hex digit right after it (`%%41` stays: `%A` would read as a new byte).
fn normalize_percent(s: &str) -> Cow<'_, str> {
    let bytes = s.as_bytes();
    if !bytes.contains(&b'%') {
        return Cow::Borrowed(s);
    }
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let (h, l) = (hex_value(bytes.get(i + 1)), hex_value(bytes.get(i + 2)));
        let Some((h, l)) = h.zip(l).filter(|_| bytes[i] == b'%') else {
            out.push(bytes[i]);
            i += 1;
            continue;
        };
        let b = h * 16 + l;
        // A decoded hex digit after a stray `%` or `%h` would form a new, different triplet.
        let n = out.len();
        let after_stray = out.last() == Some(&b'%')
            || (n >= 2 && out[n - 2] == b'%' && out[n - 1].is_ascii_hexdigit());
        let unreserved = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
        if unreserved && !(after_stray && b.is_ascii_hexdigit()) {
            out.push(b);
        } else {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
        i += 3;
    }
    // Only ASCII triplets were replaced by ASCII bytes, so the text stays valid UTF-8.
    Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| s.to_owned()))
}

/// The query sorted by key, then value (stable), without empty pairs; unchanged if `!sort`.
fn sort_query(query: &str, sort: bool) -> String {
    if !sort {
        return query.to_owned();
    }
    let mut pairs: Vec<(&str, &str, &str)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k, v, p)
        })
        .collect();
    pairs.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1))); // `sort_by` is stable
    pairs.iter().map(|p| p.2).collect::<Vec<_>>().join("&")
}

// ---- Link resolution ----------------------------------------------------------------------------

/// Resolves an `href` found on the page at `base`, as a browser does, or `None` if the crawler
/// should ignore it.
///
/// `href` is the attribute value after HTML entity decoding. Rules (WHATWG URL Standard):
/// * leading and trailing C0 controls and spaces are trimmed; tabs and newlines inside are
///   removed (by the parser);
/// * empty and fragment-only (`#top`) hrefs point to the page itself: `None`;
/// * only `http`/`https` results are kept, so `javascript:`, `mailto:`, `tel:`, `data:`, `ftp:`
///   and any other scheme, in any letter case, give `None`;
/// * the **query** is encoded in the page's *output encoding* (`encoding.output_encoding()`:
///   UTF-16 pages use UTF-8), and only for the special schemes http/https/ftp/file; a character
///   the encoding cannot represent becomes `%26%23` + its decimal code point + `%3B`
///   (`&#NNNN;` percent-encoded), exactly as the standard's "percent-encode after encoding";
/// * the **path** and the fragment are always UTF-8, whatever the page's encoding.
///
/// The fragment is kept (a browser keeps it); [`canonicalize`] removes it.
pub fn resolve_link(base: &Url, href: &str, page_encoding: &'static Encoding) -> Option<Url> {
    let href = href.trim_matches(|c: char| c <= ' ');
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let encoding = page_encoding.output_encoding();
    let encode: &dyn Fn(&str) -> Cow<'_, [u8]> = &move |s| encode_query_part(encoding, s);
    let options = Url::options().base_url(Some(base));
    let options = if encoding == UTF_8 {
        options
    } else {
        options.encoding_override(Some(encode))
    };
    let url = options.parse(href).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(url)
}

/// Encodes a piece of a query in `encoding`; unmappable characters become the percent-encoded
/// decimal reference `%26%23NNNN%3B`, which the `url` crate passes through unchanged.
fn encode_query_part<'a>(encoding: &'static Encoding, s: &'a str) -> Cow<'a, [u8]> {
    if encoding == UTF_8 || s.is_ascii() {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut encoder = encoding.new_encoder();
    let mut out = Vec::with_capacity(s.len() * 2 + 16);
    let mut rest = s;
    loop {
        if out.capacity() - out.len() < 16 {
            out.reserve(rest.len() * 2 + 16);
        }
        let (result, read) =
            encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        rest = rest.get(read..).unwrap_or("");
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => out.reserve(rest.len() * 4 + 16),
            EncoderResult::Unmappable(c) => {
                out.extend_from_slice(format!("%26%23{}%3B", u32::from(c)).as_bytes());
            }
        }
    }
    Cow::Owned(out)
}

// ---- The book's priority weight (§4.12) ---------------------------------------------------------

/// The book's initial URL weight [L1322].
pub(crate) const BOOK_INITIAL_WEIGHT: i32 = 10;

/// A weight with the terms that produced it: `BOOK_INITIAL_WEIGHT + Σ parts == score` always.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlWeight {
    pub score: i32,
    /// The non-zero terms after the initial 10, in rule order, e.g. `("3 × '/'", -3)`,
    /// `("1 × 'search'", -2)`, and last `("floor at 0", 4)` when the sum went below 0.
    pub parts: Vec<(String, i32)>,
}

/// Which part of the URL the §4.12 rules scan (digest §4.12 ambiguity (b)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum WeightScope {
    /// Default, the digest's resolution: only the *localpath*, the path and `?query` after the
    /// host [L1284]. The scheme's `//` is not counted, nor a keyword in the host name
    /// (`search.example.com`).
    #[default]
    LocalPath,
    /// Everything before the fragment: `scheme://userinfo@host:port/path?query`. The scheme's
    /// `//` costs 2, so `http://www.pku.edu.cn` scores 8, not 10.
    WholeUrl,
}

/// The book's weight [L1321–1323] over the localpath ([`WeightScope::LocalPath`]).
pub fn book_weight(u: &Url) -> UrlWeight {
    book_weight_with(u, WeightScope::LocalPath)
}

/// The book's weight: 10, −1 per `/`, `?` or `&`, −2 per `search`, `proxy` or `gate`, floor 0.
///
/// What is counted (the digest's ambiguity notes on §4.12):
/// * (a) Rule 1 ("subtract the directory depth") *is* rule 3's count of `/`; nothing is
///   subtracted twice.
/// * (b) The scanned text is set by `scope`. The fragment is never scanned (it is not sent to
///   the server). A path of exactly `/` counts as no `/` in both scopes: the URL standard writes
///   `http://www.pku.edu.cn` as `http://www.pku.edu.cn/`, and the book gives that URL depth 0
///   [L1284]; `/cs` counts 1 (depth 1), `/cs/index.html` counts 2.
/// * (c) Keywords match case-insensitively (`Search` counts); none of the three can overlap
///   itself or another, so counting non-overlapping occurrences is exact.
///
/// Pass a canonical URL ([`canonicalize`]) so that equal pages get equal weights.
pub(crate) fn book_weight_with(u: &Url, scope: WeightScope) -> UrlWeight {
    let mut text = String::new();
    if scope == WeightScope::WholeUrl {
        text.push_str(&u[..Position::BeforePath]);
    }
    if u.path() != "/" {
        text.push_str(u.path());
    }
    if let Some(query) = u.query() {
        text.push('?');
        text.push_str(query);
    }
    let text = text.to_ascii_lowercase();

    let mut score = BOOK_INITIAL_WEIGHT;
    let mut parts = Vec::new();
    #[rustfmt::skip]
    let rules = [("/", 1), ("?", 1), ("&", 1), ("search", 2), ("proxy", 2), ("gate", 2)];
    for (needle, cost) in rules {
        let n = i32::try_from(text.matches(needle).count()).unwrap_or(i32::MAX);
        if n > 0 {
            let delta = n.saturating_mul(cost).saturating_neg();
            parts.push((format!("{n} × '{needle}'"), delta));
            score = score.saturating_add(delta);
        }
    }
    if score < 0 {
        parts.push(("floor at 0".to_owned(), score.saturating_neg()));
        score = 0;
    }
    UrlWeight { score, parts }
}

// ---- The book's link filter and MIME allow-list (§4.13) -----------------------------------------

/// TSE's `FILTER_STR` as printed [L1343–1366], without the OCR's stray `","` (25 entries,
/// `filter_str_num = 25` [L1355]). Kept verbatim, including two flaws of the original:
/// `"Counter?"` has an upper-case C (see [`UrlFilter::check_as_printed`]), and `"javascript."`
/// probably meant `"javascript:"` (other TSE versions list that; [`resolve_link`] drops
/// `javascript:` links before the filter sees them anyway).
#[rustfmt::skip]
pub(crate) const BOOK_FILTER_SUBSTRINGS: [&str; 25] = [
    "gate", "search", "library", "data/scop", "uhtbin", "staff/staff",
    "enter", "userid", "pstmail?", "pst?", "find?", "ccc?",
    "fwd?", "tcon?", "&", "Counter?", "forum", "cgisirsi",
    "+", "{", "}", "proxy", "login", "mailto:", "javascript.",
];

/// Default URL length limit in bytes. The book does not print TSE's `URL_LEN`; this is its
/// remark that URLs are generally shorter than 256 characters [L1305]. As in `IsFilterLink`,
/// a URL is rejected when it is *longer* than the limit.
pub(crate) const BOOK_URL_LEN: usize = 256;

/// The book's 9 accepted content types [L1334].
#[rustfmt::skip]
pub(crate) const BOOK_MIME_TYPES: [&str; 9] = [
    "text/html", "text/plain", "text/xml", "text/rtf",
    "application/msword", "application/pdf", "application/postscript",
    "application/vnd.ms-excel", "application/vnd.ms-powerpoint",
];

/// TSE's `CPage::IsFilterLink` [L1338–1366]: drops empty URLs, URLs longer than `max_len`
/// bytes, and URLs containing any of `substrings`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlFilter {
    pub substrings: Vec<String>,
    pub max_len: usize,
}

impl Default for UrlFilter {
    /// [`BOOK_FILTER_SUBSTRINGS`] and [`BOOK_URL_LEN`].
    fn default() -> Self {
        UrlFilter {
            substrings: BOOK_FILTER_SUBSTRINGS.map(String::from).to_vec(),
            max_len: BOOK_URL_LEN,
        }
    }
}

/// Why [`UrlFilter`] dropped a URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterReject {
    #[error("empty URL")]
    Empty,
    #[error("URL is {len} bytes long, over the limit of {max}")]
    TooLong { len: usize, max: usize },
    /// The first entry of the list (as written there) that the URL contains.
    #[error("URL contains the filtered substring {0:?}")]
    Substring(String),
}

impl UrlFilter {
    /// `Ok` if the crawler may keep the URL. Matching is case-insensitive on both sides, which
    /// repairs TSE's `"Counter?"` entry: `/counter?id=1` and `/Counter?id=1` are both dropped.
    pub fn check(&self, url: &str) -> Result<(), FilterReject> {
        self.check_impl(url, true)
    }

    #[cfg(test)]
    /// Book-faithful mode: like TSE, lower-case the URL but not the list, so an entry with an
    /// upper-case letter (`"Counter?"`) can never match — the latent bug of digest §4.13 (b).
    pub(crate) fn check_as_printed(&self, url: &str) -> Result<(), FilterReject> {
        self.check_impl(url, false)
    }

    fn check_impl(&self, url: &str, fold_list: bool) -> Result<(), FilterReject> {
        if url.is_empty() {
            return Err(FilterReject::Empty);
        }
        let (len, max) = (url.len(), self.max_len);
        if len > max {
            return Err(FilterReject::TooLong { len, max });
        }
        let link = url.to_ascii_lowercase();
        let hit = self.substrings.iter().find(|s| match fold_list {
            true => !s.is_empty() && link.contains(&s.to_ascii_lowercase()),
            false => !s.is_empty() && link.contains(s.as_str()),
        });
        match hit {
            Some(s) => Err(FilterReject::Substring(s.clone())),
            None => Ok(()),
        }
    }
}

/// Whether a `Content-Type` header value is one of the book's 9 types [L1334]. Parameters
/// (`; charset=gb2312`), surrounding whitespace and letter case are ignored; an empty or
/// missing type is not allowed.
pub(crate) fn mime_allowed(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    BOOK_MIME_TYPES.contains(&essence.to_ascii_lowercase().as_str())
}

// ---- Loopback hosts -----------------------------------------------------------------------------

/// True for `localhost` and any `*.localhost` (RFC 6761 §6.3, any letter case, with or without
/// a final dot), for 127.0.0.0/8 in any form the WHATWG host parser accepts (`127.1`,
/// `0x7f.0.0.1`), and for `::1` with or without brackets (also `::ffff:127.x.y.z`, the
/// IPv4-mapped form of 127.0.0.0/8).
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let v6_loopback =
        |a: Ipv6Addr| a.is_loopback() || a.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback());
    if let Ok(addr) = host.parse::<Ipv6Addr>() {
        // `Host::parse` wants IPv6 in brackets; accept the bare form too
        return v6_loopback(addr);
    }
    match Host::parse(host) {
        Ok(Host::Domain(d)) => {
            let d = d.strip_suffix('.').unwrap_or(&d);
            d == "localhost" || d.ends_with(".localhost")
        }
        Ok(Host::Ipv4(addr)) => addr.is_loopback(),
        Ok(Host::Ipv6(addr)) => v6_loopback(addr),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{GBK, UTF_16LE};

    fn url(s: &str) -> Url {
        Url::parse(s).expect("test URL parses")
    }
    /// The resolved link as text, "" for `None`.
    fn resolve(base: &Url, href: &str, enc: &'static Encoding) -> String {
        resolve_link(base, href, enc)
            .map(String::from)
            .unwrap_or_default()
    }
    fn assert_canon(opts: &CanonOptions, cases: &[(&str, &str)]) {
        for (input, want) in cases {
            let got = canonicalize_with(&url(input), opts);
            assert_eq!(got.as_str(), *want, "{input}");
            assert_eq!(canonicalize_with(&got, opts), got, "idempotent: {input}");
        }
    }

    #[test]
    fn canon_host_port_dots_fragment_empty_path() {
        #[rustfmt::skip]
        assert_canon(&CanonOptions::default(), &[
            ("http://WWW.Example.COM/", "http://www.example.com/"),
            ("HTTP://Example.com/Path", "http://example.com/Path"), // path case is kept
            ("http://example.com:80/a", "http://example.com/a"),
            ("https://example.com:443/a", "https://example.com/a"),
            ("http://example.com:8080/a", "http://example.com:8080/a"),
            ("https://example.com:80/a", "https://example.com:80/a"), // not https's default
            ("http://example.com/a/./b/../c", "http://example.com/a/c"),
            ("http://example.com/a/%2E%2e/c", "http://example.com/c"), // encoded dots too
            ("http://example.com/a#top", "http://example.com/a"),
            ("http://example.com/a?x=1#", "http://example.com/a?x=1"),
            ("http://Example.COM./x", "http://example.com/x"),
            ("http://example.com", "http://example.com/"),
            ("http://example.com?b=1", "http://example.com/?b=1"),
        ]);
        let mut edited = url("http://example.com:8080/");
        edited.set_port(Some(80)).expect("http has a port");
        assert_eq!(canonicalize(&edited).as_str(), "http://example.com/");
    }

    #[test]
    fn canon_percent_encoding() {
        #[rustfmt::skip]
        assert_canon(&CanonOptions::default(), &[
            ("http://example.com/%7euser/", "http://example.com/~user/"),
            ("http://example.com/%7Euser/", "http://example.com/~user/"),
            ("http://example.com/~user/", "http://example.com/~user/"),
            ("http://example.com/%41%2d%5F%2e?q=%7e%41", "http://example.com/A-_.?q=~A"),
            // reserved and non-ASCII bytes stay encoded, with upper-case hex; a lone '%' stays
            ("http://example.com/a%2fb%e4?q=%3a%26", "http://example.com/a%2Fb%E4?q=%3A%26"),
            ("http://example.com/100%", "http://example.com/100%"),
            ("http://example.com/%%41%4%42%43", "http://example.com/%%41%4%42C"),
        ]);
    }

    #[test]
    fn canon_query_order_and_options() {
        let default = CanonOptions::default();
        assert!(default.sort_query && !default.collapse_slashes);
        #[rustfmt::skip]
        assert_canon(&default, &[
            ("http://example.com/?b=2&a=1", "http://example.com/?a=1&b=2"),
            ("http://example.com/?a=2&b=0&a=1", "http://example.com/?a=1&a=2&b=0"),
            ("http://example.com/?b=1&&a", "http://example.com/?a&b=1"),
            ("http://example.com/?", "http://example.com/"),
            ("http://example.com/a//b///c", "http://example.com/a//b///c"),
        ]);
        let (mut keep, mut collapse) = (default, default);
        (keep.sort_query, collapse.collapse_slashes) = (false, true);
        assert_canon(&keep, &[("http://e.cn/?b=2&a=1", "http://e.cn/?b=2&a=1")]);
        assert_canon(&collapse, &[("http://e.cn//a//b///c", "http://e.cn/a/b/c")]);
    }

    #[test]
    fn canon_explained() {
        let opts = CanonOptions::default();
        let (u, steps) = explain_canonicalization(&url("http://e.cn./%7e?b=2&a=1#top"), &opts);
        assert_eq!(u.as_str(), "http://e.cn/~?a=1&b=2");
        assert_eq!(steps.len(), 4, "{steps:?}");
        assert!(steps[0].contains("trailing dot") && steps[1].contains("fragment"));
        assert!(steps[2].contains("path") && steps[3].contains("sorted"));
        let (_, none) = explain_canonicalization(&url("http://e.cn/"), &opts);
        assert!(none.is_empty());
        let (u, steps) = explain_str(" http://E.cn:80/a/./b ", &opts).expect("parses");
        assert_eq!((u.as_str(), steps.len()), ("http://e.cn/a/b", 1));
        assert!(steps[0].starts_with("URL parser"));
        assert!(explain_str("not a url", &opts).is_err());
    }

    #[test]
    fn resolve_query_in_page_encoding_path_in_utf8() {
        let base = url("http://e.cn/dir/page.html");
        let r = |href: &str, enc| resolve(&base, href, enc);
        assert_eq!(r("s?q=中文", GBK), "http://e.cn/dir/s?q=%D6%D0%CE%C4");
        assert_eq!(
            r("s?q=中文", UTF_8),
            "http://e.cn/dir/s?q=%E4%B8%AD%E6%96%87"
        );
        // UTF-16 pages encode with their output encoding, UTF-8
        assert_eq!(
            r("s?q=中文", UTF_16LE),
            "http://e.cn/dir/s?q=%E4%B8%AD%E6%96%87"
        );
        // the path (and the fragment) are UTF-8 whatever the page's encoding
        let want = "http://e.cn/%E4%B8%AD%E6%96%87/x?q=%D6%D0#%E4%B8%AD";
        assert_eq!(r("/中文/x?q=中#中", GBK), want);
        let want = "http://e.cn/%E4%B8%AD%E6%96%87/x?q=%E4%B8%AD#%E4%B8%AD";
        assert_eq!(r("/中文/x?q=中#中", UTF_8), want);
        // U+1F600 is not in GBK: "&#128512;", percent-encoded ("percent-encode after encoding")
        assert_eq!(r("/s?q=中😀", GBK), "http://e.cn/s?q=%D6%D0%26%23128512%3B");
    }

    #[test]
    fn resolve_relative_forms_and_whitespace() {
        let base = url("http://e.cn/a/b/c.html?x=1");
        let r = |h: &str| resolve(&base, h, UTF_8);
        assert_eq!(r("../d.html"), "http://e.cn/a/d.html");
        assert_eq!(r("  \n d.html\t "), "http://e.cn/a/b/d.html");
        assert_eq!(r("//other.org/p"), "http://other.org/p");
        assert_eq!(r("?y=2"), "http://e.cn/a/b/c.html?y=2");
        assert_eq!(r("HTTPS://E.cn/"), "https://e.cn/");
    }

    #[test]
    fn resolve_ignores_other_schemes_and_self_links() {
        let base = url("http://e.cn/a/");
        #[rustfmt::skip]
        let ignored = [
            "javascript:void(0)", "JavaScript:alert(1)", " java\nscript:alert(1)",
            "mailto:a@e.cn", "tel:+861062751234", "data:text/html,hi", "ftp://e.cn/f",
            "", "   ", "#top", " #", "http://[::1", // the last does not parse
        ];
        for href in ignored {
            assert_eq!(resolve_link(&base, href, UTF_8), None, "{href:?}");
        }
        assert_eq!(resolve_link(&url("ftp://e.cn/"), "x", UTF_8), None);
    }

    /// The score, after checking that 10 and the parts add up to it.
    fn weight(s: &str, scope: WeightScope) -> i32 {
        let w = book_weight_with(&url(s), scope);
        let sum: i32 = BOOK_INITIAL_WEIGHT + w.parts.iter().map(|p| p.1).sum::<i32>();
        assert_eq!(sum, w.score, "{s}: {:?}", w.parts);
        w.score
    }

    #[test]
    fn book_weight_examples() {
        let local = |s| weight(s, WeightScope::LocalPath);
        assert_eq!(local("http://www.pku.edu.cn"), 10); // "": 10 (depth 0 [L1284])
        assert_eq!(local("http://www.pku.edu.cn/cs"), 9); // "/cs": 10 − 1×'/' (depth 1)
        assert_eq!(local("http://www.pku.edu.cn/cs/index.html"), 8); // 10 − 2×'/'
        // "/s/search.php?q=1&r=2": 10 − 2×'/' − 1×'?' − 1×'&' − 2×1 'search' = 4
        assert_eq!(local("http://a.cn/s/search.php?q=1&r=2"), 4);
        // "/Proxy/navigate": 10 − 2×'/' − 2×1 'proxy' − 2×1 'gate' = 4 (any case)
        assert_eq!(local("http://a.cn/Proxy/navigate"), 4);
        assert_eq!(local("http://search.proxy.gate.cn/"), 10); // the host is not scanned
        assert_eq!(local("http://a.cn/a#x/y?z&w"), 9); // "/a": the fragment is not scanned
        // "/1/2/3/4/5/6/7/8?a&b&c": 10 − 8×'/' − 1×'?' − 2×'&' = −1 → floor 0
        let w = book_weight(&url("http://a.cn/1/2/3/4/5/6/7/8?a&b&c"));
        let parts: Vec<(&str, i32)> = w.parts.iter().map(|(s, n)| (s.as_str(), *n)).collect();
        #[rustfmt::skip]
        assert_eq!(parts, [("8 × '/'", -8), ("1 × '?'", -1), ("2 × '&'", -2), ("floor at 0", 1)]);
        assert_eq!(w.score, 0);
    }

    #[test]
    fn book_weight_whole_url_scope() {
        let whole = |s| weight(s, WeightScope::WholeUrl);
        assert_eq!(whole("http://www.pku.edu.cn/"), 8); // "http://…": 10 − 2×'/' (digest's 8)
        assert_eq!(whole("http://www.pku.edu.cn/cs"), 7); // 10 − 3×'/'
        assert_eq!(whole("http://search.a.cn/"), 6); // 10 − 2×'/' − 2×1 'search'
    }

    /// The list entry that made the default filter drop `u`.
    fn rejected_by(u: &str) -> String {
        match UrlFilter::default().check(u) {
            Err(FilterReject::Substring(s)) => s,
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn filter_each_book_substring_rejects() {
        let filter = UrlFilter::default();
        assert_eq!((filter.substrings.len(), filter.max_len), (25, 256));
        assert_eq!(filter.check("http://www.pku.edu.cn/cs/index.html"), Ok(()));
        for s in BOOK_FILTER_SUBSTRINGS {
            let u = format!("http://e.cn/x{s}y");
            assert_eq!(rejected_by(&u), s, "{u}");
        }
        assert!(filter.check("http://e.cn/LOGIN.html").is_err()); // the URL is lower-cased
    }

    #[test]
    fn filter_book_faithful_counter_bug() {
        let filter = UrlFilter::default();
        let u = "http://e.cn/Counter?id=1";
        assert_eq!(rejected_by(u), "Counter?");
        assert_eq!(filter.check_as_printed(u), Ok(())); // TSE never matches "Counter?"
        assert!(filter.check_as_printed("http://e.cn/forum/").is_err());
    }

    #[test]
    fn filter_quirks_length_and_empty() {
        let filter = UrlFilter::default();
        // over-aggressive entries, as printed in the book
        assert_eq!(rejected_by("http://a.cn/center/"), "enter");
        assert_eq!(rejected_by("http://a.cn/navigate"), "gate");
        assert_eq!(filter.check("javascript:void(0)"), Ok(())); // "javascript." ≠ "javascript:"
        assert_eq!(filter.check(""), Err(FilterReject::Empty));
        let ok = format!("http://a.cn/{}", "x".repeat(256 - 12));
        assert_eq!((ok.len(), filter.check(&ok)), (256, Ok(())));
        let too_long = FilterReject::TooLong { len: 257, max: 256 };
        assert_eq!(filter.check(&format!("{ok}x")), Err(too_long.clone()));
        assert!(too_long.to_string().contains("257"));
    }

    #[test]
    fn mime_list() {
        assert!(BOOK_MIME_TYPES.iter().all(|m| mime_allowed(m)));
        assert!(mime_allowed("text/html; charset=gb2312"));
        assert!(mime_allowed(" Text/HTML ;charset=UTF-8"));
        assert!(mime_allowed("application/pdf;"));
        for m in ["image/png", "text/css", "", "text/htmlx", "text"] {
            assert!(!mime_allowed(m), "{m}");
        }
    }

    #[test]
    fn loopback_hosts() {
        #[rustfmt::skip]
        let yes = [
            "localhost", "LocalHost", "localhost.", "a.localhost", "x.y.LOCALHOST", "127.0.0.1",
            "127.255.255.254", "127.1", "0x7f.0.0.1", "::1", "[::1]", "[::ffff:127.0.0.1]",
        ];
        #[rustfmt::skip]
        let no = [
            "", "example.com", "localhost.com", "notlocalhost", "128.0.0.1", "10.0.0.1", "::2",
            "[::]", "0.0.0.0",
        ];
        assert!(yes.iter().all(|h| is_loopback_host(h)));
        assert!(!no.iter().any(|h| is_loopback_host(h)));
    }
}
