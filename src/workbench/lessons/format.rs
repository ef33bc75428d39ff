//! The lesson file: Markdown with a small front matter, one `## ` heading per step, so a
//! teacher edits it in any editor and diffs it in git. Every error names `file:line`.
//!
//! ```text
//! ---
//! id: caching
//! chapter: 9
//! title.zh: 查询结果缓存
//! title.en: Caching query results
//! book: [L3240]–[L3440]
//! ---
//!
//! ## Table 9-2
//! experiment: table-9-2
//! check: LRU hit ratio at 100000 | tolerance 0.012
//!
//! ::: zh
//! ### 表 9-2
//! 缓存越大，命中率越高 [L3433]。
//! :::
//! ::: en
//! ### Table 9-2
//! The larger the cache, the higher the hit ratio [L3433].
//! :::
//! ```
//!
//! A step's directives are the `key: value` lines right under its heading (up to the first
//! blank line): one action — `open: PANEL` (with `reopen: KIND` and `params: {JSON}`, the
//! experiment log's re-open path), `experiment: ID`, or `run: KIND` with `params:` — plus
//! `focus: NAME`, and a `check:` (a figure of an experiment beside the book's) or a
//! `question:` (an accepted answer range). Text outside `::: zh` / `::: en` blocks is shown
//! in both languages. `docs/lessons.md` is the full reference.

use serde_json::Value;

use super::{Action, Check, Lesson, Step, Text};
use crate::engine::error::{EngineError, Result};
use crate::workbench;

/// A lesson file's parse: `name` is how errors name the file.
pub fn parse(name: &str, src: &str) -> Result<Lesson> {
    let lines: Vec<&str> = src.lines().collect();
    let mut lesson = front_matter(name, &lines)?;
    let mut i = lesson.body_start;
    let mut intro = TextBuf::default();
    // Text before the first step is the lesson's introduction.
    while i < lines.len() && !lines[i].starts_with("## ") {
        intro.push(lines[i], i + 1, name)?;
        i += 1;
    }
    lesson.intro = intro.finish(name)?;
    while i < lines.len() {
        let (step, next) = step(name, &lines, i)?;
        lesson.steps.push(step);
        i = next;
    }
    if lesson.steps.is_empty() {
        return Err(EngineError::bad_line(
            name,
            lines.len().max(1),
            "error.lesson_no_step",
            &[],
        ));
    }
    Ok(lesson)
}

/// The front matter between the first two `---` lines.
fn front_matter(name: &str, lines: &[&str]) -> Result<Lesson> {
    let bad = |line: usize, key: &'static str| EngineError::bad_line(name, line, key, &[]);
    if lines.first().map(|l| l.trim_end()) != Some("---") {
        return Err(bad(1, "error.lesson_no_front"));
    }
    let (mut id, mut chapter, mut title, mut book) = (None, None, Text::default(), String::new());
    let mut end = None;
    for (k, raw) in lines.iter().enumerate().skip(1) {
        let n = k + 1;
        let l = raw.trim();
        if l == "---" {
            end = Some(k);
            break;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let Some((key, value)) = l.split_once(':') else {
            return Err(bad(n, "error.lesson_front_line"));
        };
        let value = value.trim().to_string();
        match key.trim() {
            "id" => {
                let ok = !value.is_empty()
                    && value
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
                if !ok {
                    return Err(bad(n, "error.lesson_id"));
                }
                id = Some(value);
            }
            "chapter" => match value.parse::<u8>() {
                Ok(c) if (1..=13).contains(&c) => chapter = Some(c),
                _ => return Err(bad(n, "error.lesson_chapter")),
            },
            "title" => {
                title.zh = value.clone();
                title.en = value;
            }
            "title.zh" => title.zh = value,
            "title.en" => title.en = value,
            "book" => book = value,
            other => {
                return Err(EngineError::bad_line(
                    name,
                    n,
                    "error.lesson_front_key",
                    &[&other],
                ));
            }
        }
    }
    let Some(end) = end else {
        return Err(bad(1, "error.lesson_front_open"));
    };
    let at = end + 1;
    let id = id.ok_or_else(|| bad(at, "error.lesson_no_id"))?;
    let chapter = chapter.ok_or_else(|| bad(at, "error.lesson_no_chapter"))?;
    if title.zh.is_empty() && title.en.is_empty() {
        return Err(bad(at, "error.lesson_no_title"));
    }
    Ok(Lesson {
        id,
        chapter,
        title,
        book,
        source: name.to_string(),
        intro: Text::default(),
        steps: Vec::new(),
        body_start: end + 1,
    })
}

/// Step text: lines for both languages, or inside a `::: zh` / `::: en` block.
#[derive(Default)]
struct TextBuf {
    zh: Vec<String>,
    en: Vec<String>,
    /// The open block: its language and its line.
    block: Option<(bool, usize)>,
}

impl TextBuf {
    fn push(&mut self, line: &str, n: usize, name: &str) -> Result<()> {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix(":::") {
            let lang = rest.trim();
            return match (lang, self.block) {
                ("", Some(_)) => {
                    self.block = None;
                    Ok(())
                }
                ("", None) => Err(EngineError::bad_line(
                    name,
                    n,
                    "error.lesson_block_none",
                    &[],
                )),
                (_, Some((_, open))) => Err(EngineError::bad_line(
                    name,
                    n,
                    "error.lesson_block_open_at",
                    &[&open],
                )),
                ("zh", None) => {
                    self.block = Some((false, n));
                    Ok(())
                }
                ("en", None) => {
                    self.block = Some((true, n));
                    Ok(())
                }
                (other, None) => Err(EngineError::bad_line(
                    name,
                    n,
                    "error.lesson_language",
                    &[&other],
                )),
            };
        }
        match self.block {
            Some((true, _)) => self.en.push(line.to_string()),
            Some((false, _)) => self.zh.push(line.to_string()),
            None => {
                self.zh.push(line.to_string());
                self.en.push(line.to_string());
            }
        }
        Ok(())
    }

    fn finish(self, name: &str) -> Result<Text> {
        if let Some((_, open)) = self.block {
            return Err(EngineError::bad_line(
                name,
                open,
                "error.lesson_block_open",
                &[],
            ));
        }
        let join = |v: Vec<String>| v.join("\n").trim().to_string();
        Ok(Text {
            zh: join(self.zh),
            en: join(self.en),
        })
    }
}

const DIRECTIVES: &[&str] = &[
    "open",
    "reopen",
    "params",
    "experiment",
    "run",
    "focus",
    "check",
    "question",
];

/// A `key: value` line that looks like a directive (lower-case key).
fn directive(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let ok = !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    ok.then(|| (k, v.trim()))
}

/// The step whose heading is line `at` (0-based); returns it and where the next one starts.
fn step(name: &str, lines: &[&str], at: usize) -> Result<(Step, usize)> {
    let bad = |line: usize, key: &'static str, args: &[&dyn std::fmt::Display]| {
        EngineError::bad_line(name, line, key, args)
    };
    let label = lines[at].trim_start_matches('#').trim().to_string();
    let mut d: Vec<(&str, &str, usize)> = Vec::new();
    let mut i = at + 1;
    while i < lines.len() && !lines[i].trim().is_empty() {
        let Some((k, v)) = directive(lines[i].trim()) else {
            break;
        };
        if !DIRECTIVES.contains(&k) {
            return Err(bad(i + 1, "error.lesson_directive", &[&k]));
        }
        if d.iter().any(|(key, _, _)| *key == k) {
            return Err(bad(i + 1, "error.lesson_twice", &[&k]));
        }
        d.push((k, v, i + 1));
        i += 1;
    }
    let mut text = TextBuf::default();
    while i < lines.len() && !(text.block.is_none() && lines[i].starts_with("## ")) {
        text.push(lines[i], i + 1, name)?;
        i += 1;
    }
    let get = |k: &str| d.iter().find(|(key, _, _)| *key == k).map(|x| (x.1, x.2));
    let action = action(name, &get)?;
    let experiment_run = match &action {
        Some(Action::Experiment { id }) => Some(*id),
        _ => None,
    };
    let check = match (get("check"), get("question")) {
        (Some(_), Some((_, n))) => {
            return Err(bad(n, "error.lesson_check_and_question", &[]));
        }
        (Some((v, n)), None) => Some(check(name, n, v, experiment_run, false)?),
        (None, Some((v, n))) => Some(check(name, n, v, experiment_run, true)?),
        (None, None) => None,
    };
    // `focus: 中文 | English`, or one name for both.
    let focus = get("focus").map(|(v, _)| match v.split_once('|') {
        Some((zh, en)) => Text {
            zh: zh.trim().to_string(),
            en: en.trim().to_string(),
        },
        None => Text {
            zh: v.to_string(),
            en: v.to_string(),
        },
    });
    if let Some((v, n)) = get("focus")
        && v.is_empty()
    {
        return Err(bad(n, "error.lesson_focus", &[]));
    }
    Ok((
        Step {
            line: at + 1,
            label,
            text: text.finish(name)?,
            action,
            focus,
            check,
        },
        i,
    ))
}

type Get<'a> = dyn Fn(&str) -> Option<(&'a str, usize)> + 'a;

/// The step's one action from its directives.
fn action(name: &str, get: &Get<'_>) -> Result<Option<Action>> {
    let bad = |line: usize, key: &'static str, args: &[&dyn std::fmt::Display]| {
        EngineError::bad_line(name, line, key, args)
    };
    let given: Vec<(&str, usize)> = ["open", "experiment", "run"]
        .into_iter()
        .filter_map(|k| get(k).map(|(_, n)| (k, n)))
        .collect();
    if let [_, (k, n), ..] = given.as_slice() {
        return Err(bad(*n, "error.lesson_one_action", &[k]));
    }
    let params = |kind: &'static str, at: usize| -> Result<Value> {
        let Some((v, n)) = get("params") else {
            return Err(bad(at, "error.lesson_needs_params", &[&kind]));
        };
        job_params(name, n, kind, v)
    };
    if let (None, Some((_, n))) = (get("reopen").or(get("run")), get("params")) {
        return Err(bad(n, "error.lesson_params_alone", &[]));
    }
    if let Some((v, n)) = get("experiment") {
        if get("reopen").is_some() {
            return Err(bad(n, "error.lesson_reopen_experiment", &[]));
        }
        let e = workbench::experiments::find(v)
            .ok_or_else(|| bad(n, "error.lesson_experiment_list", &[&v]))?;
        return Ok(Some(Action::Experiment { id: e.id }));
    }
    if let Some((v, n)) = get("run") {
        if get("reopen").is_some() {
            return Err(bad(n, "error.lesson_reopen_run", &[]));
        }
        let k = workbench::find(v).ok_or_else(|| bad(n, "error.lesson_job_kind", &[&v]))?;
        return Ok(Some(Action::Job {
            kind: k.kind,
            params: params(k.kind, n)?,
        }));
    }
    let reopen = match get("reopen") {
        Some((v, n)) => {
            let k = workbench::find(v).ok_or_else(|| bad(n, "error.lesson_job_kind", &[&v]))?;
            Some((k.kind, params(k.kind, n)?, n))
        }
        None => None,
    };
    let panel = match (get("open"), &reopen) {
        (Some((v, n)), _) => {
            let p = workbench::panel(v).ok_or_else(|| {
                let ids: Vec<&str> = workbench::PANELS.iter().map(|p| p.id).collect();
                bad(n, "error.lesson_panel", &[&v, &ids.join(", ")])
            })?;
            if let Some((kind, _, rn)) = &reopen
                && !p.starts(kind)
            {
                return Err(bad(*rn, "error.lesson_panel_kind", &[&p.id, kind]));
            }
            p
        }
        (None, Some((kind, _, n))) => {
            workbench::owner_of(kind).ok_or_else(|| bad(*n, "error.lesson_no_reopen", &[kind]))?
        }
        (None, None) => return Ok(None),
    };
    Ok(Some(Action::Open {
        panel: panel.id,
        reopen: reopen.map(|(k, p, _)| (k, p)),
    }))
}

/// `params: {JSON}` for a job of `kind`: the job must accept it, and every name in it must be
/// one of the job's parameters (the logged parameters it round-trips to).
fn job_params(name: &str, n: usize, kind: &'static str, v: &str) -> Result<Value> {
    let bad = |key: &'static str, args: &[&dyn std::fmt::Display]| {
        EngineError::bad_line(name, n, key, args)
    };
    let p: Value = serde_json::from_str(v).map_err(|e| bad("error.lesson_params_json", &[&e]))?;
    if !p.is_object() {
        return Err(bad("error.lesson_params_object", &[]));
    }
    let k = workbench::find(kind).ok_or_else(|| bad("error.lesson_job_kind", &[&kind]))?;
    let job = (k.rebuild)(&p).map_err(|e| bad("error.lesson_refuses", &[&kind, &e]))?;
    if let Some(path) = unknown_name(&p, &job.params(), "") {
        return Err(bad("error.lesson_no_param", &[&kind, &path]));
    }
    Ok(p)
}

/// The first name in `given` that `known` lacks (objects compared key by key, recursively).
fn unknown_name(given: &Value, known: &Value, prefix: &str) -> Option<String> {
    let (Value::Object(g), Value::Object(k)) = (given, known) else {
        return None;
    };
    for (key, v) in g {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match k.get(key) {
            None => return Some(path),
            Some(kv) => {
                if let Some(p) = unknown_name(v, kv, &path) {
                    return Some(p);
                }
            }
        }
    }
    None
}

/// `check: ROW | book X | tolerance T | experiment ID` or
/// `question: MIN..MAX | unit U | row ROW | experiment ID`.
fn check(
    name: &str,
    n: usize,
    v: &str,
    step_experiment: Option<&'static str>,
    question: bool,
) -> Result<Check> {
    let bad = |key: &'static str, args: &[&dyn std::fmt::Display]| {
        EngineError::bad_line(name, n, key, args)
    };
    let mut parts = v.split('|').map(str::trim);
    let head = parts.next().unwrap_or_default();
    if head.is_empty() {
        return Err(bad(
            if question {
                "error.lesson_question_missing"
            } else {
                "error.lesson_check_missing"
            },
            &[],
        ));
    }
    let (mut book, mut tolerance, mut experiment, mut unit, mut row) =
        (None, None, step_experiment, String::new(), None);
    for part in parts {
        let (k, val) = part.split_once(' ').unwrap_or((part, ""));
        let val = val.trim();
        let number = |what: &str| -> Result<f64> {
            val.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad("error.lesson_not_number", &[&what, &val]))
        };
        match (k, question) {
            ("book", false) => book = Some(number("book")?),
            ("tolerance", false) => {
                let t = number("tolerance")?;
                if t < 0.0 {
                    return Err(bad("error.lesson_tolerance", &[]));
                }
                tolerance = Some(t);
            }
            ("unit", true) => unit = val.to_string(),
            ("row", true) if !val.is_empty() => row = Some(val.to_string()),
            ("experiment", _) => {
                let e = workbench::experiments::find(val)
                    .ok_or_else(|| bad("error.lesson_experiment", &[&val]))?;
                experiment = Some(e.id);
            }
            _ => {
                return Err(bad(
                    if question {
                        "error.lesson_question_part"
                    } else {
                        "error.lesson_check_part"
                    },
                    &[&k],
                ));
            }
        }
    }
    if question {
        let range = head
            .split_once("..")
            .and_then(|(a, b)| Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?)))
            .filter(|(a, b)| a.is_finite() && b.is_finite() && a <= b);
        let Some((min, max)) = range else {
            return Err(bad("error.lesson_range", &[&head]));
        };
        if row.is_some() && experiment.is_none() {
            return Err(bad("error.lesson_row_needs_experiment", &[]));
        }
        return Ok(Check::Question {
            line: n,
            min,
            max,
            unit,
            experiment: experiment.filter(|_| row.is_some()),
            row,
        });
    }
    let Some(experiment) = experiment else {
        return Err(bad("error.lesson_check_needs_experiment", &[]));
    };
    Ok(Check::Figure {
        line: n,
        experiment,
        row: head.to_string(),
        book,
        tolerance,
    })
}
