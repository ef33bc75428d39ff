//! Tables as CSV: UTF-8 with a byte-order mark (so Excel and WPS read Chinese as Chinese),
//! CRLF line ends, fields quoted when they hold a comma, a quote, a line break or leading or
//! trailing space (RFC 4180).

use serde::{Deserialize, Serialize};

/// A table as shown: a title (for the file name), headers and rows of text.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub title: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn new<S: Into<String>>(
        title: impl Into<String>,
        headers: impl IntoIterator<Item = S>,
    ) -> Self {
        Table {
            title: title.into(),
            headers: headers.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Append rows.
    pub fn with_rows<R, S>(mut self, rows: impl IntoIterator<Item = R>) -> Self
    where
        R: IntoIterator<Item = S>,
        S: Into<String>,
    {
        for r in rows {
            self.push(r);
        }
        self
    }

    /// Append one row.
    pub fn push<S: Into<String>>(&mut self, row: impl IntoIterator<Item = S>) {
        self.rows.push(row.into_iter().map(Into::into).collect());
    }

    /// The CSV text, starting with a byte-order mark.
    pub fn to_csv(&self) -> String {
        let mut out = String::from('\u{feff}');
        line(&mut out, &self.headers);
        for r in &self.rows {
            line(&mut out, r);
        }
        out
    }
}

fn line(out: &mut String, fields: &[String]) {
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let needs_quotes = f.contains([',', '"', '\n', '\r'])
            || f.starts_with(char::is_whitespace)
            || f.ends_with(char::is_whitespace);
        if needs_quotes {
            out.push('"');
            out.push_str(&f.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(f);
        }
    }
    out.push_str("\r\n");
}

/// Read CSV text as written by [`Table::to_csv`] (BOM, quotes, embedded line breaks): the
/// round trip the tests use, and what a user's spreadsheet program does.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_quoting_and_round_trip() {
        let t = Table::new("t", ["网页", "F1", "note"]).with_rows([
            ["新闻,首页", "0.967", "said \"hi\""],
            ["多行\n文本", "1", " padded "],
            ["plain", "", "普通"],
        ]);
        let csv = t.to_csv();
        assert!(csv.starts_with("\u{feff}网页,F1,note\r\n"));
        assert!(csv.contains("\"新闻,首页\",0.967,\"said \"\"hi\"\"\"\r\n"));
        let back = parse_csv(&csv);
        assert_eq!(back[0], t.headers);
        assert_eq!(&back[1..], &t.rows[..]);
    }
}
