//! UI strings in Chinese and English: one table per language (`assets/i18n/zh.txt`,
//! `assets/i18n/en.txt`, lines of `key = value`). A test fails if a key is missing in either
//! table or if the code uses a key neither has.

use std::collections::HashMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::engine::error::{EngineError, ErrorCode};

/// The interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

pub(crate) const ZH: &str = include_str!("../../assets/i18n/zh.txt");
pub(crate) const EN: &str = include_str!("../../assets/i18n/en.txt");

/// Parse a table. Errors name the line (`zh.txt:12: …`).
pub(crate) fn parse(
    name: &str,
    text: &'static str,
) -> Result<Vec<(&'static str, &'static str)>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((k, v)) = line.split_once(" = ") else {
            return Err(format!("{name}:{}: expected `key = value`", i + 1));
        };
        out.push((k.trim(), v.trim()));
    }
    Ok(out)
}

static TABLES: LazyLock<[HashMap<&'static str, &'static str>; 2]> = LazyLock::new(|| {
    let load = |name, text| {
        parse(name, text)
            .unwrap_or_else(|e| {
                tracing::error!("{e}");
                Vec::new()
            })
            .into_iter()
            .collect()
    };
    [load("zh.txt", ZH), load("en.txt", EN)]
});

impl Lang {
    /// The string for `key`; the key itself if missing (tests keep that from happening).
    pub fn t(self, key: &'static str) -> &'static str {
        let table = &TABLES[self as usize];
        table.get(key).copied().unwrap_or(key)
    }

    /// The string for a key built at run time, if the table has it.
    pub fn t_dyn(self, key: &str) -> Option<&'static str> {
        TABLES[self as usize].get(key).copied()
    }

    /// A job kind in this language (`jobkind.KIND`: "建索引" for `index-build`), else the kind
    /// itself (test-only kinds have no entry).
    pub fn job_kind(self, kind: &str) -> String {
        self.t_or(&format!("jobkind.{kind}"), kind)
    }

    /// The string for a key built at run time, else `fallback` (the engine's own word or
    /// English, for a key the tables do not have).
    pub fn t_or(self, key: &str, fallback: &str) -> String {
        self.t_dyn(key).unwrap_or(fallback).to_string()
    }

    /// A reason the engine gave ([`crate::engine::docview::Why`]) in this language: the table's
    /// `why.KEY` template with the arguments filled in, else the engine's English.
    pub fn why(self, why: &crate::engine::docview::Why) -> String {
        self.keyed("why.", why.key, &why.args)
            .unwrap_or_else(|| why.english())
    }

    /// What an encoding decision saw ([`crate::engine::text::encoding::Note`]) in this
    /// language: each note's `enc.KEY` template with its arguments (else its English), joined.
    pub fn enc_notes(self, notes: &[crate::engine::text::encoding::Note]) -> String {
        let said: Vec<String> = notes
            .iter()
            .map(|n| {
                self.keyed("enc.", n.key, &n.args)
                    .unwrap_or_else(|| n.english())
            })
            .collect();
        said.join(match self {
            Lang::Zh => "；",
            Lang::En => "; ",
        })
    }

    /// The table's `PREFIX KEY` template with `args` filled in, if the table has it.
    fn keyed(self, prefix: &str, key: &str, args: &[String]) -> Option<String> {
        let t = self.t_dyn(&format!("{prefix}{key}"))?;
        Some(crate::engine::error::fill(t, args, 0))
    }

    /// An engine error in this language: its code's sentence ([`EngineError::code`]) with the
    /// user's data and the engine's detail as the arguments. Every error panel and status
    /// shows engine errors through this (never `to_string()`, which is English).
    pub fn error(self, e: &EngineError) -> String {
        self.error_code(&e.code())
    }

    /// [`Lang::error`] of an error carried as its code (a failed job, the experiment log).
    /// A code's detail (a damaged file's flaw, the system's error) is said in this language
    /// in place of its last argument, the detail's English.
    pub fn error_code(self, c: &ErrorCode) -> String {
        let mut args = c.args.clone();
        if let (Some(d), Some(last)) = (&c.detail, args.last_mut())
            && self.t_dyn(d.key).is_some()
        {
            *last = self.error_code(d);
        }
        let args: Vec<&dyn std::fmt::Display> =
            args.iter().map(|a| a as &dyn std::fmt::Display).collect();
        self.tf(c.key, &args)
    }

    /// `t(key)` with `{0}`, `{1}` … replaced by `args`.
    pub fn tf(self, key: &'static str, args: &[&dyn std::fmt::Display]) -> String {
        let mut s = self.t(key).to_string();
        for (i, a) in args.iter().enumerate() {
            s = s.replace(&format!("{{{i}}}"), &a.to_string());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::error::Flaw;
    use std::collections::BTreeSet;

    fn keys(name: &str, text: &'static str) -> BTreeSet<&'static str> {
        let rows = parse(name, text).unwrap();
        let set: BTreeSet<_> = rows.iter().map(|(k, _)| *k).collect();
        assert_eq!(set.len(), rows.len(), "{name} has a duplicate key");
        for (k, v) in rows {
            assert!(!v.is_empty(), "{name}: {k} is empty");
        }
        set
    }

    #[test]
    fn both_tables_have_the_same_keys() {
        let zh = keys("zh.txt", ZH);
        let en = keys("en.txt", EN);
        let only_zh: Vec<_> = zh.difference(&en).collect();
        let only_en: Vec<_> = en.difference(&zh).collect();
        assert!(only_zh.is_empty(), "missing in en.txt: {only_zh:?}");
        assert!(only_en.is_empty(), "missing in zh.txt: {only_en:?}");
    }

    /// Every key the UI code asks for (`.t("…")`, `.tf("…"`) exists in both tables.
    #[test]
    fn every_key_used_in_the_ui_exists() {
        let zh = keys("zh.txt", ZH);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
        let mut used = BTreeSet::new();
        // Every .rs file under src/ui, subfolders included.
        let mut files = Vec::new();
        let mut dirs = vec![dir];
        while let Some(d) = dirs.pop() {
            for entry in std::fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else {
                    files.push(path);
                }
            }
        }
        for path in files {
            // (This file holds the scanner's own patterns.)
            if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("i18n.rs") {
                let src = std::fs::read_to_string(&path).unwrap();
                // `.t("key")` and `.tf(\n "key"`, as rustfmt may break the call.
                for pat in [".t(", ".tf(", "set_status("] {
                    for (pos, _) in src.match_indices(pat) {
                        let rest = src[pos + pat.len()..].trim_start();
                        if let Some(rest) = rest.strip_prefix('"')
                            && let Some(end) = rest.find('"')
                        {
                            used.insert(rest[..end].to_string());
                        }
                    }
                }
            }
        }
        assert!(used.len() > 20, "scanner found too few keys: {used:?}");
        let missing: Vec<_> = used.iter().filter(|k| !zh.contains(k.as_str())).collect();
        assert!(
            missing.is_empty(),
            "keys used but not in the tables: {missing:?}"
        );
    }

    #[test]
    fn every_note_of_the_encoding_decision_is_translated() {
        use crate::engine::text::encoding::Note;
        for key in Note::KEYS {
            let note = Note {
                key,
                args: vec!["A".into(), "B".into(), "C".into(), "D".into()],
            };
            for lang in [Lang::Zh, Lang::En] {
                let k = format!("enc.{key}");
                assert!(
                    TABLES[lang as usize].contains_key(k.as_str()),
                    "{k} missing"
                );
                let text = lang.enc_notes(std::slice::from_ref(&note));
                for (i, a) in ["A", "B", "C", "D"].iter().enumerate() {
                    if Note::template(key).contains(&format!("{{{i}}}")) {
                        assert!(text.contains(a), "{k} in {lang:?} drops argument {i}");
                    }
                }
            }
            // The English table says what the engine's English says.
            assert_eq!(
                Lang::En.enc_notes(std::slice::from_ref(&note)),
                note.english()
            );
        }
    }

    #[test]
    fn every_reason_of_the_cleaner_is_translated() {
        use crate::engine::docview::Why;
        for key in Why::KEYS {
            let why = Why {
                key,
                args: vec!["A".into(), "B".into(), "C".into()],
            };
            assert!(!why.english().is_empty(), "{key}: no English template");
            for lang in [Lang::Zh, Lang::En] {
                let k = format!("why.{key}");
                assert!(
                    TABLES[lang as usize].contains_key(k.as_str()),
                    "{k} missing"
                );
                // The same arguments appear in every language.
                let text = lang.why(&why);
                for (i, a) in ["A", "B", "C"].iter().enumerate() {
                    if Why::template(key).contains(&format!("{{{i}}}")) {
                        assert!(text.contains(a), "{k} in {lang:?} drops argument {i}");
                    }
                }
            }
        }
        assert_eq!(
            Lang::En.why(&Why {
                key: "link_text",
                args: vec!["3".into(), "4".into()]
            }),
            "3 of 4 characters are link text"
        );
    }

    #[test]
    fn every_reason_of_the_dedup_pair_view_is_translated() {
        use crate::engine::dedup::pair::Reason;
        for (key, english) in Reason::TEMPLATES {
            for lang in [Lang::Zh, Lang::En] {
                let k = format!("dwhy.{key}");
                let t = lang
                    .t_dyn(&k)
                    .unwrap_or_else(|| panic!("{k} missing in {lang:?}"));
                for i in 0..4 {
                    let arg = format!("{{{i}}}");
                    assert_eq!(
                        t.contains(&arg),
                        english.contains(&arg),
                        "{k} in {lang:?}: {arg}"
                    );
                }
            }
        }
    }

    /// Every error key is in both tables with exactly its arguments; in English the UI says
    /// what the CLI says; in Chinese no English sentence of the table's own is left.
    #[test]
    fn every_error_is_said_in_both_languages() {
        for (key, n) in &ErrorCode::all_keys() {
            for lang in [Lang::Zh, Lang::En] {
                let t = lang
                    .t_dyn(key)
                    .unwrap_or_else(|| panic!("{key} missing in {lang:?}"));
                for i in 0..4 {
                    assert_eq!(
                        t.contains(&format!("{{{i}}}")),
                        i < *n,
                        "{key} {lang:?}: {{{i}}}"
                    );
                }
            }
            // The arguments as markers, so what is left is the table's own text.
            let code = ErrorCode::new(key, (0..*n).map(|i| format!("⟦{i}⟧")).collect());
            let zh = Lang::Zh.error_code(&code);
            for i in 0..*n {
                assert!(
                    zh.contains(&format!("⟦{i}⟧")),
                    "{key}: zh drops argument {i}"
                );
            }
            assert_own_text_is_chinese(key, &zh, &strip_code_spans(&zh));
        }
    }

    /// `own`, a zh sentence without its arguments and code spans, has Chinese and no English
    /// word (names and units every language writes so aside).
    fn assert_own_text_is_chinese(key: &str, zh: &str, own: &str) {
        const NAMES: [&str; 7] = ["Parquet", "TREC", "UTF", "GB", "JSON", "RFC", "TWLX"];
        let english: Vec<&str> = own
            .split(|c: char| !c.is_ascii_alphabetic())
            .filter(|w| w.len() >= 2 && !NAMES.contains(w))
            .collect();
        assert!(
            english.is_empty(),
            "{key}: English in zh: {english:?} ({zh})"
        );
        assert!(
            own.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
            "{key}: {zh}"
        );
    }

    /// A file format's mistake says in the English table exactly what the CLI prints after
    /// the location (`{0}: ` and the engine's template).
    #[test]
    fn input_mistakes_say_in_english_what_the_cli_says() {
        for (key, template) in crate::engine::error::input_templates() {
            assert_eq!(
                Lang::En.t_dyn(key),
                Some(format!("{{0}}: {template}").as_str()),
                "{key}"
            );
        }
    }

    /// A log line's mistake says in the English table what the CLI prints after the
    /// location; a pattern with an English-only detail (`{*}`) says what comes before it.
    #[test]
    fn log_line_mistakes_say_in_english_what_the_cli_says() {
        for (key, pattern) in crate::engine::error::log_line_patterns() {
            let en = Lang::En
                .t_dyn(key)
                .unwrap_or_else(|| panic!("{key} missing"));
            match pattern.split_once("{*}") {
                None => assert_eq!(en, format!("{{0}}: {pattern}"), "{key}"),
                Some((before, _)) => {
                    assert!(en.starts_with(&format!("{{0}}: {before}")), "{key}: {en}")
                }
            }
        }
    }

    /// Every flaw of a damaged file, and every system error, is in both tables: in English
    /// what the CLI says (the English-only detail `{*}` as the argument after the others), in
    /// Chinese every argument but that detail, and no English word of its own.
    #[test]
    fn flaws_are_said_in_both_languages() {
        for (key, template) in crate::engine::error::flaw_templates() {
            let (own, detail) = crate::engine::error::flaw_arity(key).unwrap();
            let en = Lang::En
                .t_dyn(key)
                .unwrap_or_else(|| panic!("{key} missing in en"));
            assert_eq!(en, template.replace("{*}", &format!("{{{own}}}")), "{key}");
            let zh = Lang::Zh
                .t_dyn(key)
                .unwrap_or_else(|| panic!("{key} missing in zh"));
            for i in 0..own {
                assert!(zh.contains(&format!("{{{i}}}")), "{key}: zh drops {{{i}}}");
            }
            assert!(
                !(detail && zh.contains(&format!("{{{own}}}"))),
                "{key}: zh says the English-only detail"
            );
            let mut text = strip_code_spans(zh);
            for i in 0..=own {
                text = text.replace(&format!("{{{i}}}"), "");
            }
            assert_own_text_is_chinese(key, zh, &text);
        }
    }

    /// A teacher's lesson file with a mistake reads in Chinese, the reason included; in
    /// English the UI says what `tianwang lesson check` prints.
    #[test]
    fn a_bad_lesson_is_said_in_chinese() {
        let head = "---\nid: x\nchapter: 9\ntitle: X\n---\n## one\n";
        let cases = [
            (
                "---\nid: X!\n---\n".to_string(),
                "l.md:2：`id` 只能由小写字母",
            ),
            (
                format!("{head}open: nowhere\n"),
                "l.md:7：未知的面板 `nowhere`",
            ),
            (
                format!("{head}open: cache\nquestion: 5..1\n"),
                "l.md:8：`5..1` 不是 `MIN..MAX` 形式的范围",
            ),
        ];
        for (src, want) in &cases {
            let e = crate::workbench::lessons::parse("l.md", src).unwrap_err();
            let zh = Lang::Zh.error(&e);
            assert!(zh.contains(want), "{zh}");
            assert_eq!(Lang::En.error(&e), e.to_string());
        }
    }

    /// Text outside `code spans` (commands keep their spelling in every language).
    fn strip_code_spans(s: &str) -> String {
        s.split('`').step_by(2).collect()
    }

    #[test]
    fn engine_errors_render_in_the_ui_language() {
        let sql = |code| {
            EngineError::Sql(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(code),
                None,
            ))
        };
        let all = [
            EngineError::NotAWorkspace {
                path: "/w/a.db".into(),
                reason: "not SQLite".into(),
            },
            EngineError::TooNew {
                path: "/w/a.tianwang".into(),
                found: 12,
                known: 10,
            },
            EngineError::BadPath {
                path: "/w/x".into(),
                reason: "No such file".into(),
            },
            EngineError::NoIndex {
                dir: "/w/a.tianwang.index".into(),
            },
            EngineError::corrupt("/w/ix/gen-1/lexicon.bin", Flaw::new("flaw.cut_short", &[])),
            EngineError::corrupt(
                "/w/p.parquet",
                Flaw::with_detail("flaw.not_json", &[], "expected value"),
            ),
            EngineError::corrupt(
                "/w/a.tianwang",
                Flaw::with_detail("flaw.model_decode", &[&3], "EOF while parsing"),
            ),
            EngineError::corrupt("/w/t.txt", Flaw::new("flaw.doc_count", &[&3, &5])),
            EngineError::Io {
                path: "/w/y".into(),
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            },
            EngineError::path_flaw("/w/b.tianwang", Flaw::new("flaw.path_exists", &[])),
            EngineError::path_flaw(
                "/w/c.tianwang",
                Flaw::new("flaw.path_read_only_old", &[&9, &12]),
            ),
            EngineError::path_os(
                "/w/d",
                std::io::Error::from(std::io::ErrorKind::PermissionDenied),
            ),
            EngineError::path_flaw(
                "/w/t.txt",
                Flaw::os_for(
                    &std::io::Error::from(std::io::ErrorKind::NotFound),
                    "--trace",
                ),
            ),
            EngineError::path_flaw("/w", Flaw::new("flaw.path_folder_for", &[&"--queries"])),
            EngineError::path_flaw("/w/p", Flaw::new("flaw.parquet_none_of", &[&"pages", &1])),
            EngineError::invalid_flaw("sizes", Flaw::new("flaw.param_not_size", &[&"1q"])),
            EngineError::invalid_flaw(
                "--cluster",
                Flaw::new("flaw.param_spark_url", &[&"http://m:7077"]),
            ),
            EngineError::invalid_flaw(
                "QUERY",
                Flaw::new("flaw.param_no_searchable_word", &[&"\"的\""]),
            ),
            EngineError::invalid_flaw(
                "seed",
                Flaw::with_detail(
                    "flaw.param_bad_url",
                    &[&"h t"],
                    "relative URL without a base",
                ),
            ),
            EngineError::bad_input("/w/t.tsv", 7, "no tab"),
            EngineError::unreadable(
                "/w/a.warc",
                crate::engine::error::Reason::cannot_open("No such file"),
            ),
            EngineError::unreadable(
                "/w/dir",
                crate::engine::error::Reason::folder_not_file("WARC"),
            ),
            EngineError::invalid("--top", "must be at least 1"),
            EngineError::Cancelled,
            EngineError::Io {
                path: "/w/x".into(),
                source: std::io::Error::other("EIO"),
            },
            sql(rusqlite::ffi::SQLITE_FULL),
            sql(rusqlite::ffi::SQLITE_READONLY),
            sql(rusqlite::ffi::SQLITE_CORRUPT),
            sql(rusqlite::ffi::SQLITE_BUSY),
            sql(rusqlite::ffi::SQLITE_IOERR),
            sql(rusqlite::ffi::SQLITE_MISMATCH),
            EngineError::Internal("bug".into()),
            EngineError::MissingData {
                set: "hollins".into(),
            },
            EngineError::DataFile {
                set: "hollins".into(),
                file: "hollins.dat".into(),
                problem: crate::engine::error::DataProblem::Checksum {
                    expected: "ab".into(),
                    found: "cd".into(),
                },
            },
            EngineError::DataFile {
                set: "hollins".into(),
                file: "hollins.dat".into(),
                problem: crate::engine::error::DataProblem::Http {
                    url: "http://m/hollins/hollins.dat".into(),
                    status: 404,
                },
            },
        ];
        for e in &all {
            // English: the CLI's message, word for word.
            assert_eq!(Lang::En.error(e), e.to_string());
            let zh = Lang::Zh.error(e);
            assert_ne!(zh, e.to_string(), "{zh}");
            // A detail is said in Chinese in place of the last argument, its English.
            let code = e.code();
            let said = code.args.len() - usize::from(code.detail.is_some());
            if let Some(d) = &code.detail {
                let english = &code.args[said];
                assert!(!zh.contains(english.as_str()), "{zh} says {english}");
                for a in d.args.iter().take(d.args.len().saturating_sub(1)) {
                    assert!(zh.contains(a.as_str()), "{zh} lacks the detail's {a}");
                }
            }
            for a in &code.args[..said] {
                assert!(zh.contains(a.as_str()), "{zh} lacks {a}");
            }
        }
        assert_eq!(
            Lang::Zh.error(&EngineError::invalid("--top", "x")),
            "参数 `--top` 不可用：x"
        );
        assert!(
            Lang::Zh
                .error(&EngineError::corrupt(
                    "/w/ix/gen-1/postings.bin",
                    Flaw::new("flaw.cut_short", &[])
                ))
                .contains("请重建索引")
        );
    }

    #[test]
    fn format_arguments() {
        assert_eq!(
            Lang::En.tf("status.opened", &[&"a.tianwang"]),
            "Opened a.tianwang"
        );
        assert!(
            Lang::Zh
                .tf("status.opened", &[&"a.tianwang"])
                .contains("a.tianwang")
        );
    }

    /// Every job kind the composition root registers has its name in both tables, so the
    /// status bar and the top bar never show a raw kind id in the zh UI.
    #[test]
    fn every_job_kind_has_a_name_in_both_languages() {
        for k in crate::workbench::kinds() {
            for lang in [Lang::Zh, Lang::En] {
                assert!(
                    lang.t_dyn(&format!("jobkind.{}", k.kind)).is_some(),
                    "jobkind.{} missing in {lang:?}",
                    k.kind
                );
            }
        }
        assert_eq!(Lang::Zh.job_kind("index-build"), "建索引");
        assert_eq!(Lang::En.job_kind("no-such-kind"), "no-such-kind");
    }

    #[test]
    fn parse_errors_name_the_line() {
        let e = parse("x.txt", "# c\na = b\nbroken line\n").unwrap_err();
        assert_eq!(e, "x.txt:3: expected `key = value`");
    }
}
