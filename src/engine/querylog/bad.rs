//! A log's bad lines (book ch. 9.1 [L3194–L3234]: real logs hold lines that are not records):
//! why one line is bad, as the readers find it ([`LineError`], borrowed from the line and made
//! for every bad line of a 100 M-line log, so it allocates nothing), and the few kept with
//! their line numbers ([`BadLines`]), each with a [`Reason`] the UI says in its language and
//! the CLI in the English it always printed.
//!
//! ```ignore
//! let why = LineError::Rank("x");
//! assert_eq!(why.reason().english, "bad rank `x`: not a positive whole number");
//! assert_eq!(why.reason().key, "error.log_rank"); // zh: 名次 `x` 不是正整数……
//! ```

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::error::Reason;

/// A bad line: where and why. Stored and printed (`stats --json`, a stored log's summary) as
/// `{"line": 3, "reason": "bad rank `x`: …"}`, the reason in English; read back with its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    pub line: u64,
    pub reason: Reason,
}

#[derive(Serialize, Deserialize)]
struct BadLineText<'a> {
    line: u64,
    reason: std::borrow::Cow<'a, str>,
}

impl Serialize for BadLine {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        BadLineText {
            line: self.line,
            reason: self.reason.english.as_str().into(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for BadLine {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BadLine, D::Error> {
        let t = BadLineText::deserialize(d)?;
        Ok(BadLine {
            line: t.line,
            reason: Reason::from_log_english(&t.reason),
        })
    }
}

/// Bad lines: how many, and the first few.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadLines {
    pub count: u64,
    pub first: Vec<BadLine>,
}

/// The part of a time that is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    Year,
    Month,
    Day,
    Hour,
    Minute,
    Second,
}

impl Unit {
    fn name(self) -> &'static str {
        match self {
            Unit::Year => "year",
            Unit::Month => "month",
            Unit::Day => "day",
            Unit::Hour => "hour",
            Unit::Minute => "minute",
            Unit::Second => "second",
        }
    }
}

/// Why a log time cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeError<'a> {
    Empty,
    NotNumber(Unit, &'a str),
    TooLarge(Unit, &'a str),
    OutOfRange {
        unit: Unit,
        value: u32,
        lo: u32,
        hi: u32,
    },
    ExpectedHms,
    UnknownMonth(&'a str),
    NotATime,
}

impl std::fmt::Display for TimeError<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeError::Empty => f.write_str("empty"),
            TimeError::NotNumber(u, s) => write!(f, "{} `{s}` is not a number", u.name()),
            TimeError::TooLarge(u, s) => write!(f, "{} `{s}` is too large", u.name()),
            TimeError::OutOfRange {
                unit,
                value,
                lo,
                hi,
            } => write!(f, "{} {value} is out of range {lo}–{hi}", unit.name()),
            TimeError::ExpectedHms => f.write_str("expected HH:MM:SS"),
            TimeError::UnknownMonth(m) => write!(f, "unknown month `{m}`"),
            TimeError::NotATime => f.write_str(
                "not a time (HH:MM:SS, YYYYMMDDHHMMSS, YYYY-MM-DD HH:MM:SS or `Fri Mar 21 00:00:02 2003`)",
            ),
        }
    }
}

/// Why one line of a log is bad, as a reader finds it: the parts of the line it names
/// borrowed, nothing allocated. [`LineError::reason`] says it (only for the lines kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineError<'a> {
    Empty,
    /// A SogouQ line with fewer than 5 tab-separated fields: how many.
    SogouqFields(usize),
    /// A SogouQ line with no field between the user and the rank.
    NoQuery,
    /// A tab-separated Tianwang line without 5 fields: a click log's?, how many.
    TabFields {
        click: bool,
        found: usize,
    },
    /// A space-separated Tianwang line with too few tokens: a click log's?, how many.
    Tokens {
        click: bool,
        found: usize,
    },
    /// A TSV line with fewer fields than columns.
    TsvFields {
        expected: usize,
        found: usize,
    },
    /// SogouQ's "rank order" field that is not two fields.
    RankOrder(&'a str),
    Rank(&'a str),
    RankZero,
    Order(&'a str),
    Page(&'a str),
    PageZero,
    /// A time field (as it is in the line) and what is wrong with it.
    Time(&'a str, TimeError<'a>),
    /// A line longer than this many bytes.
    TooLong(usize),
    /// Not UTF-8 from this byte of the line (1-based) on.
    NotUtf8(usize),
    /// Not valid in the log's encoding (its lower-case name).
    NotDecoded(&'a str),
}

impl LineError<'_> {
    /// This reason said: key, arguments and the English the CLI prints.
    pub(crate) fn reason(&self) -> Reason {
        let l = Reason::log_line;
        let (query, click) = ("error.log_query_fields", "error.log_click_fields");
        match *self {
            LineError::Empty => l("error.log_empty_line", &[], ""),
            LineError::SogouqFields(n) => l("error.log_sogouq_fields", &[&n], ""),
            LineError::NoQuery => l("error.log_no_query", &[], ""),
            LineError::TabFields { click: c, found } => l(
                if c { click } else { query },
                &[&found],
                if found < 5 { "missing" } else { "extra" },
            ),
            LineError::Tokens { click: c, found } => l(
                if c {
                    "error.log_click_tokens"
                } else {
                    "error.log_query_tokens"
                },
                &[&found],
                "",
            ),
            LineError::TsvFields { expected, found } => {
                l("error.log_tsv_fields", &[&expected, &found], "")
            }
            LineError::RankOrder(s) => l("error.log_rank_order", &[&s], ""),
            LineError::Rank(s) => l("error.log_rank", &[&s], "not a positive whole number"),
            LineError::RankZero => l("error.log_rank", &[&0], "ranks start at 1"),
            LineError::Order(s) => l("error.log_order", &[&s], ""),
            LineError::Page(s) => l("error.log_page", &[&s], "not a positive whole number"),
            LineError::PageZero => l("error.log_page", &[&0], "pages start at 1"),
            LineError::Time(
                s,
                TimeError::OutOfRange {
                    unit,
                    value,
                    lo,
                    hi,
                },
            ) => l("error.log_time_range", &[&s, &value, &lo, &hi], unit.name()),
            LineError::Time(s, e) => l("error.log_time", &[&s], &e.to_string()),
            LineError::TooLong(max) => l("error.log_too_long", &[&max], ""),
            LineError::NotUtf8(byte) => l("error.log_not_utf8", &[&byte], ""),
            LineError::NotDecoded(enc) => l("error.log_not_decoded", &[&enc], ""),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each reason says what the readers said before it had a key, word for word (the CLI's
    /// output and `stats --json` are unchanged), and reads back from that English.
    #[test]
    fn each_line_error_says_the_english_of_before_and_reads_back() {
        let time = |e| LineError::Time("t", e);
        let cases = [
            (LineError::Empty, "empty line"),
            (
                LineError::SogouqFields(4),
                "missing fields: a SogouQ line has 5 tab-separated fields (time, user, [query], rank order, URL), found 4",
            ),
            (
                LineError::NoQuery,
                "missing fields: no query between the user and the rank",
            ),
            (
                LineError::TabFields {
                    click: false,
                    found: 6,
                },
                "extra fields: a query-log line has 5 fields (time, IP, cache flag, query, page), tab-separated; found 6",
            ),
            (
                LineError::TabFields {
                    click: true,
                    found: 3,
                },
                "missing fields: a click-log line has 5 fields (time, IP, query, URL, rank), tab-separated; found 3",
            ),
            (
                LineError::Tokens {
                    click: false,
                    found: 7,
                },
                "missing fields: a query-log line has 5 fields (time, IP, cache flag, query, page); found 7 space-separated tokens",
            ),
            (
                LineError::TsvFields {
                    expected: 5,
                    found: 2,
                },
                "missing fields: 5 columns expected, found 2",
            ),
            (
                LineError::RankOrder("3"),
                "bad rank/order `3`: expected two numbers \"rank order\"",
            ),
            (
                LineError::Rank("x"),
                "bad rank `x`: not a positive whole number",
            ),
            (LineError::RankZero, "bad rank `0`: ranks start at 1"),
            (
                LineError::Order("z"),
                "bad click order `z`: not a whole number",
            ),
            (
                LineError::Page("p"),
                "bad page `p`: not a positive whole number",
            ),
            (LineError::PageZero, "bad page `0`: pages start at 1"),
            (
                time(TimeError::OutOfRange {
                    unit: Unit::Minute,
                    value: 61,
                    lo: 0,
                    hi: 59,
                }),
                "bad time `t`: minute 61 is out of range 0–59",
            ),
            (
                time(TimeError::NotNumber(Unit::Hour, "x")),
                "bad time `t`: hour `x` is not a number",
            ),
            (time(TimeError::Empty), "bad time `t`: empty"),
            (
                time(TimeError::UnknownMonth("Foo")),
                "bad time `t`: unknown month `Foo`",
            ),
            (
                LineError::TooLong(65536),
                "longer than 65536 bytes: not a log line",
            ),
            (
                LineError::NotUtf8(3),
                "not valid UTF-8 at byte 3 (a line in another encoding?)",
            ),
            (
                LineError::NotDecoded("gb18030"),
                "not valid gb18030 (a line in another encoding?)",
            ),
        ];
        for (e, english) in cases {
            let r = e.reason();
            assert_eq!(r.english, english);
            assert!(r.key.starts_with("error.log_"), "{e:?}: {}", r.key);
            let line = BadLine { line: 9, reason: r };
            let json = serde_json::to_string(&line).unwrap();
            assert_eq!(
                json,
                serde_json::json!({"line": 9, "reason": english}).to_string()
            );
            assert_eq!(serde_json::from_str::<BadLine>(&json).unwrap(), line);
        }
        assert_eq!(
            LineError::Time(
                "t",
                TimeError::OutOfRange {
                    unit: Unit::Minute,
                    value: 61,
                    lo: 0,
                    hi: 59
                }
            )
            .reason()
            .args,
            ["t", "61", "0", "59"]
        );
    }

    /// A summary stored by an older build (the English only) reads with its key; a reason no
    /// pattern fits keeps its English.
    #[test]
    fn an_old_stored_summary_reads_with_keys() {
        let old = r#"[{"line":9,"reason":"bad rank `x`: not a positive whole number"},
                      {"line":12,"reason":"something else"}]"#;
        let v: Vec<BadLine> = serde_json::from_str(old).unwrap();
        assert_eq!(v[0].reason.key, "error.log_rank");
        assert_eq!(v[0].reason.args, ["x"]);
        assert_eq!(v[1].reason.key, "error.bad_input");
        assert_eq!(v[1].reason.english, "something else");
    }
}
