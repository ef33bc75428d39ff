//! Why a line of a query log cannot be read, said in the UI's language (book ch. 9.1
//! [L3194–L3234]: the logs a search engine keeps): the table [`LOG_LINE`] of the log readers'
//! mistakes — a SogouQ line with four fields, a rank that is not a number, a time with minute
//! 61, a line that is not valid GB18030 — so the Query logs panel lists a log's bad lines in
//! Chinese in the zh UI while the CLI prints the English it always printed.
//!
//! Each entry is a key of the string tables and an English pattern: `{1}`, `{2}` … are the
//! arguments (the UI's sentence has them too; `{0}` is the location said before it), `{*}` a
//! detail the CLI says in English only (which part of a time is wrong, "missing" or "extra").
//! A bad line is stored (a stored log's summary, a job's result, `stats --json`) as its English
//! only, as before; [`Reason::from_log_english`] finds the key and arguments back from it, so
//! the summaries of old workspaces read in Chinese too.
//!
//! ```ignore
//! let r = Reason::log_line("error.log_time_range", &[&"00:61:01", &61, &0, &59], "minute");
//! assert_eq!(r.english, "bad time `00:61:01`: minute 61 is out of range 0–59");
//! assert_eq!(Reason::from_log_english(&r.english), r);
//! // zh UI: "输入有误，位置 第 3 行：时间 `00:61:01` 有误：61 超出了范围 0–59"
//! ```

use super::Reason;

/// The log lines' mistakes: key and English pattern (`{1}` … the arguments, `{*}` an
/// English-only detail). Read back in this order: a pattern before the looser ones it is a
/// case of (the time's range before any bad time).
pub(crate) const LOG_LINE: &[(&str, &str)] = &[
    ("error.log_empty_line", "empty line"),
    (
        "error.log_sogouq_fields",
        "missing fields: a SogouQ line has 5 tab-separated fields (time, user, [query], rank order, URL), found {1}",
    ),
    (
        "error.log_no_query",
        "missing fields: no query between the user and the rank",
    ),
    (
        "error.log_query_fields",
        "{*} fields: a query-log line has 5 fields (time, IP, cache flag, query, page), tab-separated; found {1}",
    ),
    (
        "error.log_click_fields",
        "{*} fields: a click-log line has 5 fields (time, IP, query, URL, rank), tab-separated; found {1}",
    ),
    (
        "error.log_query_tokens",
        "missing fields: a query-log line has 5 fields (time, IP, cache flag, query, page); found {1} space-separated tokens",
    ),
    (
        "error.log_click_tokens",
        "missing fields: a click-log line has 5 fields (time, IP, query, URL, rank); found {1} space-separated tokens",
    ),
    (
        "error.log_tsv_fields",
        "missing fields: {1} columns expected, found {2}",
    ),
    (
        "error.log_rank_order",
        "bad rank/order `{1}`: expected two numbers \"rank order\"",
    ),
    ("error.log_rank", "bad rank `{1}`: {*}"),
    (
        "error.log_order",
        "bad click order `{1}`: not a whole number",
    ),
    ("error.log_page", "bad page `{1}`: {*}"),
    (
        "error.log_time_range",
        "bad time `{1}`: {*} {2} is out of range {3}–{4}",
    ),
    ("error.log_time", "bad time `{1}`: {*}"),
    (
        "error.log_too_long",
        "longer than {1} bytes: not a log line",
    ),
    (
        "error.log_not_utf8",
        "not valid UTF-8 at byte {1} (a line in another encoding?)",
    ),
    (
        "error.log_not_decoded",
        "not valid {1} (a line in another encoding?)",
    ),
    ("error.log_read", "read error: {1}"),
];

/// A pattern's pieces: text said as it is, an argument (`{1}` is 0), the English detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece<'p> {
    Text(&'p str),
    Arg(usize),
    Detail,
}

/// The pieces of `pattern`, in order.
fn pieces(pattern: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        let piece = match inner {
            "*" => Piece::Detail,
            _ => match inner.parse::<usize>() {
                Ok(i) if i >= 1 => Piece::Arg(i - 1),
                _ => {
                    // Not a hole: said as it is.
                    out.push(Piece::Text(&rest[..open + len + 1]));
                    rest = &rest[open + len + 1..];
                    continue;
                }
            },
        };
        if open > 0 {
            out.push(Piece::Text(&rest[..open]));
        }
        out.push(piece);
        rest = &rest[open + len + 1..];
    }
    if !rest.is_empty() {
        out.push(Piece::Text(rest));
    }
    out
}

/// The arguments (and the detail) `text` gives the holes of `pattern`, if it fits. A hole
/// takes the text up to the next piece's first occurrence; the last text piece ends `text`.
fn fit(pattern: &str, text: &str) -> Option<(Vec<String>, String)> {
    let ps = pieces(pattern);
    let mut args: Vec<Option<String>> = Vec::new();
    let mut detail = String::new();
    let mut hole: Option<Piece<'_>> = None;
    let mut rest = text;
    let mut take = |h: Piece<'_>, s: &str, args: &mut Vec<Option<String>>| {
        if let Piece::Arg(i) = h {
            if args.len() <= i {
                args.resize(i + 1, None);
            }
            args[i] = Some(s.to_string());
        } else {
            detail = s.to_string();
        }
    };
    for (n, p) in ps.iter().enumerate() {
        match *p {
            Piece::Text(t) => match hole.take() {
                None => rest = rest.strip_prefix(t)?,
                Some(h) => {
                    let at = if n + 1 == ps.len() {
                        rest.strip_suffix(t)?.len()
                    } else {
                        rest.find(t)?
                    };
                    take(h, &rest[..at], &mut args);
                    rest = &rest[at + t.len()..];
                }
            },
            // Two holes side by side cannot be told apart (a test keeps the table clear).
            _ if hole.is_some() => return None,
            h => hole = Some(h),
        }
    }
    match hole {
        Some(h) => {
            take(h, rest, &mut args);
        }
        None if !rest.is_empty() => return None,
        None => {}
    }
    let args = args.into_iter().collect::<Option<Vec<String>>>()?;
    Some((args, detail))
}

impl Reason {
    /// A bad line of a log for the reason `key` of [`LOG_LINE`], with its arguments and the
    /// English-only `detail` its pattern's `{*}` stands for (empty if it has none). A key not
    /// in the table (a bug) still says its arguments, under the generic `error.bad_input`.
    pub(crate) fn log_line(
        key: &'static str,
        args: &[&dyn std::fmt::Display],
        detail: &str,
    ) -> Reason {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let Some((key, pattern)) = LOG_LINE.iter().find(|(k, _)| *k == key) else {
            let english = format!("{key} {}", args.join(" "));
            return Reason::new("error.bad_input", vec![english.clone()], english);
        };
        let mut english = String::new();
        for p in pieces(pattern) {
            match p {
                Piece::Text(t) => english.push_str(t),
                Piece::Arg(i) => english.push_str(args.get(i).map_or("", String::as_str)),
                Piece::Detail => english.push_str(detail),
            }
        }
        Reason::new(key, args, english)
    }

    /// Back from the English of [`Reason::log_line`] (a stored bad line): the key and the
    /// arguments of the first pattern of [`LOG_LINE`] it fits; other text (a reason an older
    /// build worded otherwise) as it is, under the generic `error.bad_input`.
    pub(crate) fn from_log_english(text: &str) -> Reason {
        for (key, pattern) in LOG_LINE {
            if let Some((args, _)) = fit(pattern, text) {
                return Reason::new(key, args, text.to_string());
            }
        }
        Reason::new("error.bad_input", vec![text.to_string()], text.to_string())
    }

    /// The same reason refusing a whole `--strict` read: the CLI adds that nothing was read.
    pub(crate) fn strict(mut self) -> Reason {
        self.english.push_str(" (--strict: nothing was read)");
        self
    }

    /// The number of arguments of a [`LOG_LINE`] key, the location included.
    pub(crate) fn log_line_arity(key: &str) -> Option<usize> {
        let (_, p) = LOG_LINE.iter().find(|(k, _)| *k == key)?;
        let args = pieces(p)
            .iter()
            .filter(|p| matches!(p, Piece::Arg(_)))
            .count();
        Some(1 + args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_reason_says_its_pattern_with_the_arguments_and_the_detail() {
        let r = Reason::log_line(
            "error.log_time_range",
            &[&"00:61:01", &61, &0, &59],
            "minute",
        );
        assert_eq!(
            r.english,
            "bad time `00:61:01`: minute 61 is out of range 0–59"
        );
        assert_eq!(r.args, ["00:61:01", "61", "0", "59"]);
        assert_eq!(Reason::log_line_arity("error.log_time_range"), Some(5));
        assert_eq!(Reason::log_line_arity("error.log_empty_line"), Some(1));
        let s = Reason::log_line("error.log_rank", &[&"x"], "not a positive whole number");
        assert_eq!(s.english, "bad rank `x`: not a positive whole number");
        assert_eq!(
            s.clone().strict().english,
            "bad rank `x`: not a positive whole number (--strict: nothing was read)"
        );
        assert_eq!(s.clone().strict().key, s.key);
        let unknown = Reason::log_line("error.log_unheard_of", &[&1], "");
        assert_eq!(unknown.key, "error.bad_input");
    }

    /// Every pattern read back from its English gives its key and arguments, even when an
    /// argument holds the pattern's own words; text of no pattern stays as it is.
    #[test]
    fn every_log_reason_is_read_back_from_its_english() {
        for (key, pattern) in LOG_LINE {
            let n = Reason::log_line_arity(key).unwrap() - 1;
            for sample in ["7", "a b`: c"] {
                let args: Vec<String> = (1..=n).map(|i| format!("{sample}{i}")).collect();
                let shown: Vec<&dyn std::fmt::Display> =
                    args.iter().map(|a| a as &dyn std::fmt::Display).collect();
                let detail = if pattern.contains("{*}") { "hour" } else { "" };
                let r = Reason::log_line(key, &shown, detail);
                let back = Reason::from_log_english(&r.english);
                if sample == "7" || !pattern.contains("`{1}`: ") {
                    assert_eq!(back, r, "{key}");
                } else {
                    // An argument with the pattern's own words is cut at them: still the
                    // same kind of reason, its whole English kept.
                    assert_eq!((back.key, &back.english), (r.key, &r.english), "{key}");
                }
            }
        }
        let other = Reason::from_log_english("a reason of an older build");
        assert_eq!(other.key, "error.bad_input");
        assert_eq!(other.args, ["a reason of an older build"]);
        assert_eq!(other.english, "a reason of an older build");
        // The detail is English only: a time out of range is told from any bad time.
        let t = Reason::from_log_english("bad time `25:00:00`: hour 25 is out of range 0–23");
        assert_eq!(t.key, "error.log_time_range");
        assert_eq!(t.args, ["25:00:00", "25", "0", "23"]);
        let t = Reason::from_log_english("bad time `x`: not a time (HH:MM:SS)");
        assert_eq!(
            (t.key, t.args.as_slice()),
            ("error.log_time", &["x".to_string()][..])
        );
    }

    #[test]
    fn every_log_key_is_unique_and_no_two_holes_touch() {
        for (i, (k, p)) in LOG_LINE.iter().enumerate() {
            assert!(LOG_LINE[..i].iter().all(|(o, _)| o != k), "{k} twice");
            assert!(
                super::super::input::INPUT.iter().all(|(o, _)| o != k),
                "{k} is an input key too"
            );
            let ps = pieces(p);
            assert!(
                ps.windows(2)
                    .all(|w| matches!(w[0], Piece::Text(_)) || matches!(w[1], Piece::Text(_))),
                "{k}: two holes side by side"
            );
            let n = Reason::log_line_arity(k).unwrap() - 1;
            for j in 0..n {
                assert!(ps.contains(&Piece::Arg(j)), "{k}: gap at {{{}}}", j + 1);
            }
        }
    }
}
