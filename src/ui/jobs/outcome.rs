//! How a logged run's parameters and result read: a summary of label / value lines in the
//! UI's language (`field.KEY` in the tables: "网页数 434" for `{"pages":434}`) for the last
//! finished job and a run's details, its first fields on one line for the log's table
//! ([`headline`]), compact JSON for the parameters, and the raw JSON indented and capped. A cache run's result is megabytes of
//! JSON: everything here reads only what it shows, and the panel makes it once per run, not
//! per frame.
//!
//! ```ignore
//! let v = serde_json::json!({"pages": 434, "body": {"f1": 0.9998}});
//! let lines = summary(Lang::Zh, &v, SUMMARY_LINES);
//! assert_eq!(lines[0].value, "0.9998"); // 正文 · F1
//! assert_eq!(lines[1].value, "434"); // 网页数
//! ```

use serde_json::Value;

use super::Lang;

/// Lines the last finished job's summary shows at most (a result with more fields ends in
/// "… N more").
pub(super) const SUMMARY_LINES: usize = 14;

/// Lines a run's details show at most.
pub(super) const DETAIL_LINES: usize = 80;

/// Characters of indented JSON a run's details show.
const RAW_CHARS: usize = 20_000;

/// One line of a summary: what (the field's name, a nested one as "body · f1") and its value.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Line {
    pub label: String,
    pub value: String,
}

/// Fields holding a sentence of the engine's, in English: their lab's panel shows them in the
/// UI's language, a summary leaves them out.
const PROSE: &[&str] = &["encoding_note", "note"];

/// A field a summary shows: its key, the key inside it (one level down) and its value.
type Field<'v> = (&'v str, Option<&'v str>, &'v Value);

/// The fields a summary shows, in order, as (key, the key of the field inside it, value):
/// an object's own fields one level down, at most `max`; and how many were left off.
fn fields(v: &Value, max: usize) -> (Vec<Field<'_>>, usize) {
    let mut out = Vec::new();
    let Value::Object(map) = v else {
        return (out, 0);
    };
    for (k, x) in map.iter().filter(|(k, _)| !PROSE.contains(&k.as_str())) {
        match x {
            Value::Object(inner) if !inner.is_empty() => out.extend(
                (inner.iter())
                    .filter(|(k2, _)| !PROSE.contains(&k2.as_str()))
                    .map(|(k2, y)| (k.as_str(), Some(k2.as_str()), y)),
            ),
            _ => out.push((k.as_str(), None, x)),
        }
    }
    let left = out.len().saturating_sub(max);
    out.truncate(max);
    (out, left)
}

/// The result `v` as label / value lines: its fields in order, an object's own fields one
/// level down ("正文 · F1"), a list as its length; at most `max`, then a line saying how many
/// were left off. A value that is not an object is one line without a label.
pub(super) fn summary(lang: Lang, v: &Value, max: usize) -> Vec<Line> {
    if !v.is_object() {
        return vec![Line {
            label: String::new(),
            value: value_text(lang, v),
        }];
    }
    let (shown, left) = fields(v, max);
    let mut out: Vec<Line> = shown
        .into_iter()
        .map(|(k, k2, x)| Line {
            label: match k2 {
                Some(k2) => format!("{} · {}", label(lang, k, None), label(lang, k2, Some(x))),
                None => label(lang, k, Some(x)),
            },
            value: value_text(lang, x),
        })
        .collect();
    if left > 0 {
        out.push(Line {
            label: String::new(),
            value: lang.tf("jobs.more_fields", &[&left]),
        });
    }
    out
}

/// The summary of `v` on one line ("MD5 MB/秒 450.65 · MD5 网页数 12,752 · …"), cut to
/// `max` characters: a log row's result column.
pub(super) fn headline(lang: Lang, v: &Value, max: usize) -> String {
    let mut out = String::new();
    for l in summary(lang, v, SUMMARY_LINES) {
        if !out.is_empty() {
            out.push_str(" · ");
        }
        if !l.label.is_empty() {
            out.push_str(&l.label);
            out.push(' ');
        }
        out.push_str(&l.value);
        if out.chars().count() > max {
            break;
        }
    }
    match out.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &out[..i]),
        None => out,
    }
}

/// The keys a summary of `v` labels by name, for the test that every one has a name in both
/// tables. A key that is not an identifier (`体育` in a count per category, a URL) is data and
/// shows as it is.
pub fn summary_keys(v: &Value) -> Vec<&str> {
    let mut keys = Vec::new();
    for (k, k2, _) in fields(v, DETAIL_LINES).0 {
        keys.push(k);
        keys.extend(k2);
    }
    keys.retain(|k| is_field_name(k));
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// Whether a result's key names a field (`pages_per_s`, `n-keywords`) rather than being data
/// (a category, a URL).
fn is_field_name(key: &str) -> bool {
    !key.is_empty() && (key.bytes()).all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// A field's name in this language (`field.KEY`), else the key with spaces for underscores;
/// a key that is data as it is. A yes / no field whose key also names a count elsewhere
/// (`bytes`: a cache run's byte-based capacity, a crawl's bytes fetched) has its own name,
/// `flag.KEY`.
fn label(lang: Lang, key: &str, value: Option<&Value>) -> String {
    if !is_field_name(key) {
        return key.to_string();
    }
    let flag = match value {
        Some(Value::Bool(_)) => lang.t_dyn(&format!("flag.{key}")),
        _ => None,
    };
    match flag {
        Some(f) => f.to_string(),
        None => lang.t_or(&format!("field.{key}"), &key.replace('_', " ")),
    }
}

/// A value as a summary shows it: whole numbers grouped by thousands, fractions to four
/// significant places (at most two decimals from 100 on), yes / no, a list as its length, text cut
/// to 60 characters.
fn value_text(lang: Lang, v: &Value) -> String {
    match v {
        Value::Null => "—".into(),
        Value::Bool(b) => lang.t(if *b { "jobs.yes" } else { "jobs.no" }).into(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => crate::ui::shell::grouped(u),
            (None, Some(i), _) => crate::ui::shell::grouped(i),
            (None, None, Some(f)) => float_text(f),
            _ => n.to_string(),
        },
        Value::String(s) if is_stamp(s) => crate::ui::shell::to_second(&s[..19]),
        Value::String(s) => match s.char_indices().nth(60) {
            Some((i, _)) => format!("{}…", &s[..i]),
            None => s.clone(),
        },
        Value::Array(a) => lang.tf("jobs.items", &[&crate::ui::shell::grouped(a.len())]),
        Value::Object(o) => lang.tf("jobs.fields", &[&o.len()]),
    }
}

/// Whether `s` starts as an RFC 3339 time does (`2026-11-29T17:58:36…`), as an index's
/// `built_at` is written: shown to the second, as every table shows times.
fn is_stamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 19
        && (b[..19].iter().enumerate()).all(|(i, &c)| match i {
            4 | 7 => c == b'-',
            10 => c == b'T',
            13 | 16 => c == b':',
            _ => c.is_ascii_digit(),
        })
}

/// 0.99984337 → "0.9998", 4328.3562 → "4,328.36", 270.5 → "270.5", 3.0 → "3".
fn float_text(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    let a = f.abs();
    if a >= 100.0 || f.fract() == 0.0 {
        let sign = if f < 0.0 { "-" } else { "" };
        let whole = a.trunc();
        let cents = ((a - whole) * 100.0).round();
        // 99.999… rounds up into the next whole number.
        let (whole, cents) = if cents >= 100.0 {
            (whole + 1.0, 0.0)
        } else {
            (whole, cents)
        };
        let grouped = crate::ui::shell::grouped(format!("{whole:.0}"));
        let cents = cents as u64;
        return match (cents, cents % 10) {
            (0, _) => format!("{sign}{grouped}"),
            (_, 0) => format!("{sign}{grouped}.{}", cents / 10),
            _ => format!("{sign}{grouped}.{cents:02}"),
        };
    }
    // Four significant digits, trailing zeros dropped.
    let digits = (3 - a.log10().floor() as i32).clamp(0, 12) as usize;
    let s = format!("{f:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A run's parameters or result as indented JSON at full precision (a δ of 0.998 is not
/// 1.0), cut to [`RAW_CHARS`].
pub(super) fn raw(v: &Value) -> String {
    capped(v, RAW_CHARS, true)
}

/// A JSON value with its floats rounded for display (the log keeps full precision),
/// serialised as it is walked: nothing is copied.
struct Rounded<'a>(&'a serde_json::Value);

impl serde::Serialize for Rounded<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        use serde_json::Value;
        match self.0 {
            Value::Number(n) if n.is_f64() => match n.as_f64() {
                Some(f) if f.is_finite() => s.serialize_f64((f * 100.0).round() / 100.0),
                _ => n.serialize(s),
            },
            Value::Array(a) => {
                let mut q = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    q.serialize_element(&Rounded(x))?;
                }
                q.end()
            }
            Value::Object(o) => {
                let mut m = s.serialize_map(Some(o.len()))?;
                for (k, x) in o {
                    m.serialize_entry(k, &Rounded(x))?;
                }
                m.end()
            }
            v => v.serialize(s),
        }
    }
}

/// A writer that takes `cap` bytes and then refuses (which stops the serialiser).
struct Capped {
    buf: Vec<u8>,
    cap: usize,
}

impl std::io::Write for Capped {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let room = self.cap - self.buf.len();
        if room == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        let n = b.len().min(room);
        self.buf.extend_from_slice(&b[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `v` as compact JSON with rounded floats, cut to `max` characters (then "…").
pub(super) fn compact_json(v: &serde_json::Value, max: usize) -> String {
    capped_json(&Rounded(v), max)
}

/// `v` as compact JSON cut to `max` characters (then "…"). Only the first `max` characters
/// are ever serialised, so a result of megabytes costs no more than a small one.
pub(super) fn capped_json(v: &impl serde::Serialize, max: usize) -> String {
    capped(v, max, false)
}

/// `v` as JSON (indented with `pretty`) cut to `max` characters (then "…").
fn capped(v: &impl serde::Serialize, max: usize, pretty: bool) -> String {
    // A character takes at most 4 bytes; one more byte tells "longer than max".
    let mut w = Capped {
        buf: Vec::new(),
        cap: 4 * max + 1,
    };
    // An error means the cap was reached: the text so far is what we show.
    let cut = if pretty {
        serde_json::to_writer_pretty(&mut w, v).is_err()
    } else {
        serde_json::to_writer(&mut w, v).is_err()
    };
    let text = match std::str::from_utf8(&w.buf) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&w.buf[..e.valid_up_to()]).unwrap_or_default(),
    };
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None if cut => format!("{text}…"),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_read_as_a_person_writes_them() {
        assert_eq!(float_text(0.99984337475201), "0.9998");
        assert_eq!(float_text(4328.356245580202), "4,328.36");
        assert_eq!(float_text(3.0), "3");
        assert_eq!(float_text(0.100269011), "0.1003");
        assert_eq!(float_text(12.5), "12.5");
        assert_eq!(float_text(-1234.5), "-1,234.5");
        assert_eq!(float_text(270.5), "270.5");
        assert_eq!(float_text(100.05), "100.05");
        assert_eq!(float_text(199.999), "200");
        assert_eq!(float_text(0.0), "0");
        assert_eq!(float_text(0.000012345), "0.00001234");
        assert_eq!(float_text(1e20), "100,000,000,000,000,000,000");
        assert_eq!(value_text(Lang::En, &json!(-1234567)), "-1,234,567");
    }

    #[test]
    fn a_result_reads_in_the_ui_language_with_nested_fields_and_lists() {
        let v = json!({"pages": 434, "body": {"f1": 0.99984, "p": 1.0}, "rows": [1, 2, 3],
                       "ok": true, "source": "sample", "none": null});
        let zh = summary(Lang::Zh, &v, SUMMARY_LINES);
        let en = summary(Lang::En, &v, SUMMARY_LINES);
        let find = |lines: &[Line], value: &str| {
            lines
                .iter()
                .find(|l| l.value == value)
                .map(|l| l.label.clone())
        };
        // serde_json keeps keys sorted: body.f1, body.p, none, ok, pages, rows, source.
        assert_eq!(zh.len(), 7);
        assert_eq!(find(&en, "434").as_deref(), Some("pages"));
        assert_eq!(find(&zh, "434").as_deref(), Some("网页数"));
        assert_eq!(find(&zh, "0.9998").as_deref(), Some("正文 · F1"));
        assert_eq!(zh[3].value, "是");
        let t = summary(
            Lang::En,
            &json!({"built_at": "2026-11-29T17:58:36.144733074+00:00"}),
            SUMMARY_LINES,
        );
        assert_eq!(t[0].value, "2026-11-29 17:58:36");
        assert_eq!(
            summary(Lang::En, &json!({"a": "2026-11-29"}), SUMMARY_LINES)[0].value,
            "2026-11-29"
        );
        assert_eq!(en[3].value, "yes");
        assert_eq!(zh[2].value, "—");
        assert!(zh[5].value.contains('3'), "{:?}", zh[5]);
        // An unknown key falls back to itself, underscores as spaces.
        let odd = summary(Lang::Zh, &json!({"no_such_key": 1}), SUMMARY_LINES);
        assert_eq!(odd[0].label, "no such key");
        // Keys that are data show as they are and need no name.
        let data = json!({"by_category": {"体育": 3, "http://a/b_c": 1}, "pages": 4});
        let lines = summary(Lang::En, &data, SUMMARY_LINES);
        assert_eq!(lines[0].label, "by category · http://a/b_c");
        assert_eq!(lines[1].label, "by category · 体育");
        assert_eq!(summary_keys(&data), ["by_category", "pages"]);
        // A yes / no field is named as one where its key also names a count.
        let flag = summary(Lang::Zh, &json!({"bytes": false}), SUMMARY_LINES);
        assert_eq!(
            (flag[0].label.as_str(), flag[0].value.as_str()),
            ("按字节计容量", "否")
        );
        let count = summary(Lang::Zh, &json!({"bytes": 1024}), SUMMARY_LINES);
        assert_eq!(
            (count[0].label.as_str(), count[0].value.as_str()),
            ("字节数", "1,024")
        );
    }

    #[test]
    fn a_log_row_shows_the_first_fields_on_one_line() {
        let v = json!({"md5_mb_per_s": 450.65, "md5_pages": 12752, "seconds": 0.8248});
        assert_eq!(
            headline(Lang::Zh, &v, 64),
            "MD5 MB/秒 450.65 · MD5 网页数 12,752 · 秒数 0.8248"
        );
        let cut = headline(Lang::En, &v, 20);
        assert_eq!(cut.chars().count(), 21);
        assert!(
            cut.starts_with("MD5 MB/s 450.65 · ") && cut.ends_with('…'),
            "{cut}"
        );
        assert_eq!(headline(Lang::En, &json!(3), 10), "3");
    }

    #[test]
    fn a_long_result_is_cut_and_says_how_much_was_left_off() {
        let v: serde_json::Map<String, Value> =
            (0..40).map(|i| (format!("k{i:02}"), json!(i))).collect();
        let lines = summary(Lang::En, &Value::Object(v), SUMMARY_LINES);
        assert_eq!(lines.len(), SUMMARY_LINES + 1);
        assert!(
            lines[SUMMARY_LINES].value.contains("26"),
            "{:?}",
            lines.last()
        );
    }

    #[test]
    fn raw_json_of_megabytes_is_capped() {
        let big = json!({"series": vec![0.123456789; 1_000_000]});
        let t = raw(&big);
        assert!(t.chars().count() <= RAW_CHARS + 1 && t.ends_with('…'));
        assert!(t.contains("0.123456789"), "full precision: {}", &t[..60]);
        let small = raw(&json!({"a": 1}));
        assert_eq!(small, "{\n  \"a\": 1\n}");
    }
}
