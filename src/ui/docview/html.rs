//! The raw HTML view: a small tokenizer that tells tags, attributes, values, comments, entities
//! and script text apart, and a split into fixed-height display rows (long lines are cut into
//! chunks) so that a scroll area draws only the rows in view. Runs in a background task; the UI
//! turns the spans of the visible rows into coloured text.

use egui::text::LayoutJob;
use egui::{Color32, FontId, TextFormat};

/// At most this many bytes of decoded HTML are coloured; the rest is shown plain.
pub(super) const COLOUR_CAP: usize = 200 * 1024;
/// At most this many bytes are shown at all.
pub(super) const SHOW_CAP: usize = 4 * 1024 * 1024;
/// Characters per display row.
const CHUNK: usize = 100;

/// What a piece of HTML is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    Text,
    /// `<div`, `>`, `</p>`, `=`.
    Tag,
    Attr,
    Value,
    Comment,
    /// `<!DOCTYPE …>`, `<?xml …?>`.
    Doctype,
    Entity,
    /// The text inside `<script>` and `<style>`.
    Script,
}

/// One display row: a line of the page or a chunk of a long one.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Row {
    /// 1-based line number; 0 on a continuation chunk.
    pub line: usize,
    pub text: String,
    /// Byte ranges of `text` and what they are (gaps are plain text).
    pub spans: Vec<(usize, usize, Tok)>,
}

/// The page's HTML, ready to draw.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct HtmlView {
    pub rows: Vec<Row>,
    /// Bytes of decoded text, of it coloured, of it shown.
    pub total: usize,
    pub coloured: usize,
    pub shown: usize,
    pub lines: usize,
}

/// The largest char boundary of `s` at or below `i`.
fn floor_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Byte ranges of `s` by kind, in order, not overlapping; plain text is not listed.
pub(super) fn tokenize(s: &str) -> Vec<(usize, usize, Tok)> {
    let b = s.as_bytes();
    let n = b.len();
    let mut out: Vec<(usize, usize, Tok)> = Vec::new();
    let mut push = |a: usize, e: usize, t: Tok| {
        if e <= a || t == Tok::Text {
            return;
        }
        if let Some(last) = out.last_mut()
            && last.1 == a
            && last.2 == t
        {
            last.1 = e;
            return;
        }
        out.push((a, e, t));
    };
    let find = |from: usize, pat: &[u8]| -> Option<usize> {
        b.get(from..)?
            .windows(pat.len())
            .position(|w| w == pat)
            .map(|p| p + from)
    };
    let skip_ws = |mut j: usize| {
        while j < n && b[j].is_ascii_whitespace() {
            j += 1;
        }
        j
    };
    let mut i = 0;
    while i < n {
        match b[i] {
            b'<' if b[i..].starts_with(b"<!--") => {
                let e = find(i + 4, b"-->").map_or(n, |p| p + 3);
                push(i, e, Tok::Comment);
                i = e;
            }
            b'<' if i + 1 < n && (b[i + 1] == b'!' || b[i + 1] == b'?') => {
                let e = find(i, b">").map_or(n, |p| p + 1);
                push(i, e, Tok::Doctype);
                i = e;
            }
            b'<' if i + 1 < n && (b[i + 1].is_ascii_alphabetic() || b[i + 1] == b'/') => {
                let closing = b[i + 1] == b'/';
                let mut j = i + 1 + usize::from(closing);
                let name_start = j;
                while j < n && (b[j].is_ascii_alphanumeric() || b[j] == b'-' || b[j] == b':') {
                    j += 1;
                }
                let name = s[name_start..j].to_ascii_lowercase();
                push(i, j, Tok::Tag);
                let mut self_closed = false;
                loop {
                    j = skip_ws(j);
                    if j >= n {
                        break;
                    }
                    if b[j] == b'>' {
                        push(j, j + 1, Tok::Tag);
                        j += 1;
                        break;
                    }
                    if b[j] == b'/' {
                        self_closed = b.get(j + 1) == Some(&b'>');
                        push(j, j + 1, Tok::Tag);
                        j += 1;
                        continue;
                    }
                    let a = j;
                    while j < n
                        && !b[j].is_ascii_whitespace()
                        && b[j] != b'='
                        && b[j] != b'>'
                        && b[j] != b'/'
                    {
                        j += 1;
                    }
                    if j == a {
                        j += 1;
                    }
                    push(a, j, Tok::Attr);
                    let k = skip_ws(j);
                    if k < n && b[k] == b'=' {
                        push(k, k + 1, Tok::Tag);
                        let v = skip_ws(k + 1);
                        j = v;
                        if v < n && (b[v] == b'"' || b[v] == b'\'') {
                            j = find(v + 1, &[b[v]]).map_or(n, |p| p + 1);
                        } else {
                            while j < n && !b[j].is_ascii_whitespace() && b[j] != b'>' {
                                j += 1;
                            }
                        }
                        push(v, j, Tok::Value);
                    }
                }
                i = j;
                if !closing && !self_closed && (name == "script" || name == "style") {
                    // Raw text up to the matching end tag, in any letter case.
                    let mut e = i;
                    let end = loop {
                        match find(e, b"</") {
                            Some(p)
                                if b.get(p + 2..p + 2 + name.len())
                                    .is_some_and(|w| w.eq_ignore_ascii_case(name.as_bytes())) =>
                            {
                                break p;
                            }
                            Some(p) => e = p + 2,
                            None => break n,
                        }
                    };
                    push(i, end, Tok::Script);
                    i = end;
                }
            }
            b'&' => {
                let mut j = i + 1;
                while j < n && j - i < 12 && (b[j].is_ascii_alphanumeric() || b[j] == b'#') {
                    j += 1;
                }
                if j < n && b[j] == b';' && j > i + 1 {
                    push(i, j + 1, Tok::Entity);
                    i = j + 1;
                } else {
                    i += 1;
                }
            }
            _ => {
                let mut j = i + 1;
                while j < n && b[j] != b'<' && b[j] != b'&' {
                    j += 1;
                }
                i = j;
            }
        }
    }
    out
}

/// Tokenize the first [`COLOUR_CAP`] bytes and cut the text into display rows.
pub(super) fn build(text: &str) -> HtmlView {
    let shown_len = floor_boundary(text, SHOW_CAP);
    let shown = &text[..shown_len];
    let coloured = floor_boundary(shown, COLOUR_CAP);
    let spans = tokenize(&shown[..coloured]);
    let mut rows = Vec::new();
    let mut next_span = 0;
    let mut offset = 0;
    let mut lines = 0;
    for (no, line) in shown.split('\n').enumerate() {
        lines = no + 1;
        let line_start = offset;
        offset += line.len() + 1;
        let mut first = true;
        let mut chunk_start = 0;
        let mut chars = line.char_indices().peekable();
        loop {
            // The end of this chunk: CHUNK characters on.
            let mut end = line.len();
            let mut count = 0;
            while let Some(&(i, _)) = chars.peek() {
                if count == CHUNK {
                    end = i;
                    break;
                }
                chars.next();
                count += 1;
            }
            let (a, e) = (line_start + chunk_start, line_start + end);
            while next_span < spans.len() && spans[next_span].1 <= a {
                next_span += 1;
            }
            let mut row_spans = Vec::new();
            for &(sa, se, t) in spans[next_span..].iter().take_while(|s| s.0 < e) {
                row_spans.push((sa.max(a) - a, se.min(e) - a, t));
            }
            let text: String = line[chunk_start..end]
                .chars()
                .map(|c| if c == '\t' || c == '\r' { ' ' } else { c })
                .collect();
            rows.push(Row {
                line: if first { no + 1 } else { 0 },
                text,
                spans: row_spans,
            });
            first = false;
            chunk_start = end;
            if end >= line.len() {
                break;
            }
        }
    }
    HtmlView {
        rows,
        total: text.len(),
        coloured,
        shown: shown_len,
        lines,
    }
}

/// The colour of each kind, for light or dark backgrounds.
pub(super) fn colour(t: Tok, dark: bool, text: Color32) -> Color32 {
    let rgb = |l: (u8, u8, u8), d: (u8, u8, u8)| {
        let (r, g, b) = if dark { d } else { l };
        Color32::from_rgb(r, g, b)
    };
    match t {
        Tok::Text => text,
        Tok::Tag => rgb((0x1a, 0x4f, 0xb8), (0x7a, 0xb0, 0xff)),
        Tok::Attr => rgb((0x9a, 0x4a, 0x10), (0xe8, 0xa8, 0x6a)),
        Tok::Value => rgb((0x1d, 0x7a, 0x2e), (0x92, 0xd6, 0x8c)),
        Tok::Comment => rgb((0x80, 0x80, 0x80), (0x90, 0x90, 0x90)),
        Tok::Doctype => rgb((0x7b, 0x3f, 0xa0), (0xc8, 0x9e, 0xe6)),
        Tok::Entity => rgb((0xb0, 0x2a, 0x70), (0xf0, 0x8a, 0xc0)),
        Tok::Script => rgb((0x5a, 0x64, 0x70), (0xa8, 0xb0, 0xbc)),
    }
}

/// A row as coloured text: a weak line-number gutter, then the spans.
pub(super) fn row_job(
    row: &Row,
    font: FontId,
    dark: bool,
    text: Color32,
    weak: Color32,
) -> LayoutJob {
    let mut job = LayoutJob::default();
    let fmt = |c: Color32, italics: bool| TextFormat {
        font_id: font.clone(),
        color: c,
        italics,
        ..Default::default()
    };
    let gutter = if row.line > 0 {
        format!("{:>5}  ", row.line)
    } else {
        "       ".to_string()
    };
    job.append(&gutter, 0.0, fmt(weak, false));
    let mut at = 0;
    for &(a, e, t) in &row.spans {
        if a > at {
            job.append(&row.text[at..a], 0.0, fmt(text, false));
        }
        job.append(
            &row.text[a..e],
            0.0,
            fmt(colour(t, dark, text), t == Tok::Comment),
        );
        at = e;
    }
    if at < row.text.len() {
        job.append(&row.text[at..], 0.0, fmt(text, false));
    }
    job.wrap.max_width = f32::INFINITY;
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(&str, Tok)> {
        tokenize(s)
            .into_iter()
            .map(|(a, e, t)| (&s[a..e], t))
            .collect()
    }

    #[test]
    fn tags_attributes_values_comments_and_entities() {
        let k = kinds("<!DOCTYPE html><!-- c --><a href=\"/x\" id=n>新闻&amp;</a>");
        assert_eq!(
            k,
            vec![
                ("<!DOCTYPE html>", Tok::Doctype),
                ("<!-- c -->", Tok::Comment),
                ("<a", Tok::Tag),
                ("href", Tok::Attr),
                ("=", Tok::Tag),
                ("\"/x\"", Tok::Value),
                ("id", Tok::Attr),
                ("=", Tok::Tag),
                ("n", Tok::Value),
                (">", Tok::Tag),
                ("&amp;", Tok::Entity),
                ("</a>", Tok::Tag),
            ]
        );
    }

    #[test]
    fn script_text_runs_to_its_end_tag() {
        let k = kinds("<SCRIPT>if (a<b) x();</Script><p>");
        assert_eq!(k[1], ("if (a<b) x();", Tok::Script));
        assert_eq!(k[2], ("</Script><p>", Tok::Tag));
    }

    #[test]
    fn unterminated_input_does_not_panic() {
        for s in [
            "<",
            "<a href=\"",
            "<!--",
            "&",
            "<a b",
            "<script>",
            "<a/",
            "中<文",
        ] {
            let _ = build(s);
        }
    }

    #[test]
    fn long_lines_become_chunks_with_spans_clipped() {
        let line = format!("<p class=\"{}\">", "x".repeat(250));
        let v = build(&format!("{line}\n中文"));
        assert_eq!(v.rows.len(), 4);
        assert_eq!(v.rows[0].line, 1);
        assert_eq!(v.rows[1].line, 0);
        assert_eq!(v.rows[3].line, 2);
        assert_eq!(v.rows[3].text, "中文");
        let joined: String = v.rows[..3].iter().map(|r| r.text.as_str()).collect();
        assert_eq!(joined, line);
        // The value span is split across the chunks.
        assert!(v.rows[1].spans.iter().any(|s| s.2 == Tok::Value));
        for r in &v.rows {
            for &(a, e, _) in &r.spans {
                assert!(a < e && e <= r.text.len());
            }
        }
    }

    #[test]
    fn colouring_stops_at_the_cap() {
        let big = "<b>x</b>".repeat(COLOUR_CAP / 4);
        let v = build(&big);
        assert_eq!(v.coloured, COLOUR_CAP);
        assert!(v.total > v.coloured);
    }
}
