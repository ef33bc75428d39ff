//! The WHATWG prescan for a `<meta>` charset ("prescan a byte stream to determine its
//! encoding"): comments, `<meta charset=…>`, `<meta http-equiv content="…; charset=…">`,
//! other tags skipped with their attributes, giving up where the bytes run out inside a
//! construct. [`super`] runs it over the first 1,024 bytes and, for a `<meta>` a browser's
//! parser meets later in the head, over the first 64 KB.
//!
//! ```
//! use tianwang::engine::text::encoding::{decide_and_decode, DecidedBy};
//! // The prescan skips the comment and finds the <meta>.
//! let (d, _) = decide_and_decode(b"<!-- <meta charset=big5> --><meta charset=gbk><p>", None, None, None)?;
//! assert_eq!((d.decided_by, d.encoding_name().as_str()), (DecidedBy::Meta, "gb18030"));
//! # Ok::<(), tianwang::engine::text::encoding::UnknownLabel>(())
//! ```

use encoding_rs::Encoding;

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b'\r' | b' ')
}

/// The input ran out inside a construct: the prescan gives up (WHATWG).
struct OutOfBytes;

/// WHATWG "prescan a byte stream to determine its encoding" over `buf`: the encoding, the label
/// as written and the offset of its `<meta`.
pub(super) fn prescan(buf: &[u8]) -> Option<(&'static Encoding, String, usize)> {
    let mut pos = 0;
    while let Some(rest) = buf.get(pos..).filter(|rest| !rest.is_empty()) {
        if rest[0] != b'<' {
            // Every case below starts at a '<': go straight to the next one.
            pos += memchr::memchr(b'<', rest).unwrap_or(rest.len());
            continue;
        }
        let at = |i: usize| rest.get(i).map_or(0, u8::to_ascii_lowercase);
        if rest.starts_with(b"<!--") {
            // To the '>' of the first "-->" after "<!" ("<!-->" closes itself).
            pos += 2 + rest.get(2..)?.windows(3).position(|w| w == b"-->")? + 2;
        } else if rest.len() > 5
            && rest[..5].eq_ignore_ascii_case(b"<meta")
            && (is_space(rest[5]) || rest[5] == b'/')
        {
            let start = pos;
            pos += 5;
            if let Some((encoding, label)) = meta_charset(buf, &mut pos).ok()? {
                return Some((encoding, label, start));
            }
        } else if at(0) == b'<'
            && (at(1).is_ascii_lowercase() || at(1) == b'/' && at(2).is_ascii_lowercase())
        {
            // Any other tag: skip its name and attributes, so a "<meta" inside an attribute
            // value is never seen.
            pos += rest.iter().position(|&b| is_space(b) || b == b'>')?;
            while attribute(buf, &mut pos, None).ok()? {}
        } else if at(0) == b'<' && matches!(at(1), b'!' | b'/' | b'?') {
            pos += rest.iter().position(|&b| b == b'>')?;
        }
        pos += 1;
    }
    None
}

/// The charset of one `<meta>`, from its attributes in any order; `Ok(None)` if it has none.
fn meta_charset(
    buf: &[u8],
    pos: &mut usize,
) -> Result<Option<(&'static Encoding, String)>, OutOfBytes> {
    let (mut seen, mut got_pragma, mut need_pragma) = (Vec::new(), false, None);
    // None: no charset yet; Some(None): a charset attribute with an unknown label.
    let mut charset = None;
    while let Some(attr) = get_attribute(buf, pos)? {
        if seen.contains(&attr.name) {
            continue;
        }
        match attr.name.as_slice() {
            b"http-equiv" => got_pragma |= attr.value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(found) = charset_from_content(&attr.value, &attr.raw) {
                    (charset, need_pragma) = (Some(Some(found)), Some(true));
                }
            }
            b"charset" => (charset, need_pragma) = (Some(lookup(&attr.raw)), Some(false)),
            _ => {}
        }
        seen.push(attr.name);
    }
    Ok(match need_pragma {
        Some(need) if got_pragma || !need => charset.flatten(),
        _ => None,
    })
}

fn lookup(raw: &[u8]) -> Option<(&'static Encoding, String)> {
    let encoding = Encoding::for_label_no_replacement(raw)?;
    Some((encoding, String::from_utf8_lossy(raw).trim().to_string()))
}

/// WHATWG "extracting a character encoding from a meta element"; `lower` is the lower-cased
/// `raw` content value.
fn charset_from_content(lower: &[u8], raw: &[u8]) -> Option<(&'static Encoding, String)> {
    let skip_spaces = |mut pos: usize| {
        while lower.get(pos).is_some_and(|&b| is_space(b)) {
            pos += 1;
        }
        pos
    };
    let mut pos = 0;
    let start = loop {
        pos += lower.get(pos..)?.windows(7).position(|w| w == b"charset")? + 7;
        pos = skip_spaces(pos);
        if lower.get(pos) == Some(&b'=') {
            break skip_spaces(pos + 1);
        }
    };
    let value = raw.get(start..)?;
    match *value.first()? {
        q @ (b'"' | b'\'') => lookup(&value[1..][..value[1..].iter().position(|&b| b == q)?]),
        _ => lookup(value.split(|&b| is_space(b) || b == b';').next()?),
    }
}

#[derive(Default)]
struct Attribute {
    name: Vec<u8>,
    /// The value lower-cased (for matching) and as written (for labels).
    value: Vec<u8>,
    raw: Vec<u8>,
}

/// WHATWG "get an attribute"; `Ok(None)` at the tag's closing '>'.
fn get_attribute(buf: &[u8], pos: &mut usize) -> Result<Option<Attribute>, OutOfBytes> {
    let mut attr = Attribute::default();
    Ok(attribute(buf, pos, Some(&mut attr))?.then_some(attr))
}

/// WHATWG "get an attribute" into `out` (`None`: read past it, keeping nothing); `Ok(false)`
/// at the tag's closing '>'.
fn attribute(
    buf: &[u8],
    pos: &mut usize,
    mut out: Option<&mut Attribute>,
) -> Result<bool, OutOfBytes> {
    let at = |p: usize| buf.get(p).copied().ok_or(OutOfBytes);
    while is_space(at(*pos)?) || at(*pos)? == b'/' {
        *pos += 1;
    }
    if at(*pos)? == b'>' {
        return Ok(false);
    }
    let mut name_len = 0usize;
    loop {
        match at(*pos)? {
            b'=' if name_len > 0 => break,
            b if is_space(b) => {
                while is_space(at(*pos)?) {
                    *pos += 1;
                }
                if at(*pos)? != b'=' {
                    return Ok(true);
                }
                break;
            }
            b'/' | b'>' => return Ok(true),
            b => {
                name_len += 1;
                if let Some(a) = out.as_deref_mut() {
                    a.name.push(b.to_ascii_lowercase());
                }
            }
        }
        *pos += 1;
    }
    *pos += 1; // past '='
    while is_space(at(*pos)?) {
        *pos += 1;
    }
    let quote = at(*pos)?;
    let quoted = quote == b'"' || quote == b'\'';
    *pos += usize::from(quoted);
    loop {
        let b = at(*pos)?;
        if quoted && b == quote {
            *pos += 1;
            return Ok(true);
        }
        if !quoted && (is_space(b) || b == b'>') {
            return Ok(true);
        }
        if let Some(a) = out.as_deref_mut() {
            a.value.push(b.to_ascii_lowercase());
            a.raw.push(b);
        }
        *pos += 1;
    }
}
