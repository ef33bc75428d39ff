//! Who may import whom (ARCHITECTURE.md, "Layers"): every module of `src/` sits in one layer,
//! imports only from its own layer or below, and the modules form no circle.
//!
//! The check reads the source as text: comments and test code (`#[cfg(test)]` items, `tests.rs`
//! files) are left out, then every path that names another module — `crate::engine::x`,
//! `crate::engine::{x, y}`, `crate::ui`, `super::super::x` — is an import of that module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, bottom to top. A module imports only from its own layer or a lower one, and
/// modules of one layer form no circle.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundations",
        &[
            "engine::alloc",
            "engine::error",
            "engine::rng",
            "engine::text",
            "engine::formats",
            "engine::urls",
            "engine::export",
        ],
    ),
    ("store", &["engine::store"]),
    ("job runtime", &["engine::jobs"]),
    ("data sets", &["engine::data"]),
    ("execution layer", &["engine::exec"]),
    (
        "pages: cleaning, the sample web, stored pages",
        &["engine::docview", "engine::sample", "engine::inspect"],
    ),
    (
        "labs",
        &[
            "engine::calibrate",
            "engine::crawl",
            "engine::capacity",
            "engine::archive",
            "engine::dedup",
            "engine::rank",
            "engine::querylog",
            "engine::index",
            "engine::cache",
            "engine::classify",
        ],
    ),
    ("composition root", &["workbench"]),
    ("views", &["cli", "ui"]),
];

/// One import: the file and line it is on, and the module it names.
#[derive(Debug, Clone)]
struct Import {
    file: PathBuf,
    line: usize,
    to: String,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `src/engine/index/disk.rs` → `[engine, index, disk]`.
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" && stem != "main" {
        parts.push(stem.to_string());
    }
    parts
}

/// The module a path belongs to: `engine::X` for the engine, else the top folder.
fn room(path: &[String]) -> Option<String> {
    match path {
        [] => None,
        [e] if e == "engine" => None,
        [e, x, ..] if e == "engine" => Some(format!("engine::{x}")),
        [top, ..] => Some(top.clone()),
    }
}

/// `text` without comments; string and character literals kept but emptied, so their contents
/// are never read as paths. Line breaks are kept so line numbers stay right.
fn strip_comments(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('#') || next == Some('"')) && !ident_before(&b, i) {
            // raw string r#"…"#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            out.push_str("\"\"");
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                if b[j] == '\n' {
                    out.push('\n');
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            out.push_str("\"\"");
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if b.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // a character literal ('x', '\n', '\u{..}') or a lifetime ('a)
            if next == Some('\\') {
                let mut j = i + 2;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                out.push_str("' '");
                i = j + 1;
            } else if b.get(i + 2) == Some(&'\'') {
                out.push_str("' '");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// `text` without `#[cfg(test)]` items (the attribute and the item after it).
fn strip_test_items(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0i32;
        let mut end = item.len();
        let mut opened = false;
        for (k, ch) in item.char_indices().skip("#[cfg(test)]".len()) {
            match ch {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' => {
                    depth -= 1;
                    if depth == 0 && opened {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        // keep the line count
        out.extend(item[..end].chars().filter(|&c| c == '\n'));
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// Every module path named in `code`, as (line, absolute path segments).
fn paths_in(code: &str, here: &[String]) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    let mut line = 1;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        let starts_word = i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        let take = |w: &str| -> bool {
            starts_word
                && chars[i..].iter().take(w.len()).copied().eq(w.chars())
                && !chars
                    .get(i + w.len())
                    .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        };
        let (base, skip): (Vec<String>, usize) = if take("crate") {
            (Vec::new(), "crate".len())
        } else if take("super") {
            // super::super::… from this file's module
            let mut base = here.to_vec();
            let mut j = i;
            loop {
                base.pop();
                j += "super".len();
                if chars[j..].starts_with(&[':', ':', 's', 'u', 'p', 'e', 'r']) {
                    j += 2;
                } else {
                    break;
                }
            }
            (base, j - i)
        } else {
            i += 1;
            continue;
        };
        let mut j = i + skip;
        let mut prefixes = vec![base];
        collect_tail(&chars, &mut j, &mut prefixes, &mut found, line);
        i = j.max(i + 1);
    }
    found
}

/// Read `::a::b::{c, d::e}` after a path start at `*j`, pushing every full path found.
fn collect_tail(
    chars: &[char],
    j: &mut usize,
    prefixes: &mut Vec<Vec<String>>,
    found: &mut Vec<(usize, Vec<String>)>,
    line: usize,
) {
    let mut path = prefixes.pop().expect("a prefix");
    loop {
        if !(chars.get(*j) == Some(&':') && chars.get(*j + 1) == Some(&':')) {
            break;
        }
        *j += 2;
        while chars.get(*j).is_some_and(|c| c.is_whitespace()) {
            *j += 1;
        }
        if chars.get(*j) == Some(&'{') {
            *j += 1;
            loop {
                while chars
                    .get(*j)
                    .is_some_and(|c| c.is_whitespace() || *c == ',')
                {
                    *j += 1;
                }
                match chars.get(*j) {
                    None => return,
                    Some('}') => {
                        *j += 1;
                        break;
                    }
                    _ => {}
                }
                let name = ident(chars, j);
                if name.is_empty() {
                    *j += 1;
                    continue;
                }
                let mut sub = path.clone();
                if name != "self" {
                    sub.push(name);
                }
                prefixes.push(sub);
                collect_tail(chars, j, prefixes, found, line);
            }
            found.push((line, path));
            return;
        }
        let name = ident(chars, j);
        if name.is_empty() {
            break;
        }
        path.push(name);
    }
    found.push((line, path));
}

fn ident(chars: &[char], j: &mut usize) -> String {
    let mut s = String::new();
    while let Some(&c) = chars.get(*j) {
        if c.is_alphanumeric() || c == '_' {
            s.push(c);
            *j += 1;
        } else {
            break;
        }
    }
    s
}

/// Every import between two modules, by importing module.
fn imports() -> BTreeMap<String, Vec<Import>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    assert!(files.len() > 50, "src/ not found");
    let mut by_room: BTreeMap<String, Vec<Import>> = BTreeMap::new();
    for file in files {
        let here = module_path(&file);
        if here.iter().any(|s| s == "tests") {
            continue;
        }
        let Some(from) = room(&here) else { continue };
        let text = std::fs::read_to_string(&file).expect("read a source file");
        let code = strip_test_items(&strip_comments(&text));
        for (line, path) in paths_in(&code, &here) {
            let Some(to) = room(&path) else { continue };
            let list = by_room.entry(from.clone()).or_default();
            // one import per file and module named: the first line that names it
            if to != from && !list.iter().any(|i| i.file == file && i.to == to) {
                list.push(Import {
                    file: file.clone(),
                    line,
                    to,
                });
            }
        }
    }
    by_room
}

fn layer_of() -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for (rank, (_, rooms)) in LAYERS.iter().enumerate() {
        for r in rooms.iter() {
            assert!(m.insert(*r, rank).is_none(), "{r} is in two layers");
        }
    }
    m
}

fn rel(p: &Path) -> String {
    p.strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")))
        .unwrap_or(p)
        .display()
        .to_string()
}

#[test]
fn every_module_is_in_a_layer() {
    let layers = layer_of();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let rooms: BTreeSet<String> = files.iter().filter_map(|f| room(&module_path(f))).collect();
    let missing: Vec<_> = rooms
        .iter()
        .filter(|r| !layers.contains_key(r.as_str()) && *r != "lib" && *r != "main")
        .collect();
    assert!(
        missing.is_empty(),
        "modules in no layer of tests/architecture.rs (and ARCHITECTURE.md): {missing:?}"
    );
}

#[test]
fn no_import_runs_up_a_layer() {
    let layers = layer_of();
    let mut wrong = Vec::new();
    for (from, list) in imports() {
        let Some(&lf) = layers.get(from.as_str()) else {
            continue;
        };
        for imp in list {
            let Some(&lt) = layers.get(imp.to.as_str()) else {
                wrong.push(format!(
                    "{}:{}: {from} imports {}, a module in no layer",
                    rel(&imp.file),
                    imp.line,
                    imp.to
                ));
                continue;
            };
            if lt > lf {
                wrong.push(format!(
                    "{}:{}: {from} ({}) imports {} ({}), a higher layer",
                    rel(&imp.file),
                    imp.line,
                    LAYERS[lf].0,
                    imp.to,
                    LAYERS[lt].0
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that run up:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_circle_between_modules() {
    let all = imports();
    let mut graph: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (from, list) in &all {
        for imp in list {
            graph.entry(from).or_default().insert(&imp.to);
        }
    }
    // A module is in a circle when it reaches itself.
    let reach = |start: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<&str> = graph.get(start).into_iter().flatten().copied().collect();
        while let Some(n) = stack.pop() {
            if seen.insert(n.to_string()) {
                stack.extend(graph.get(n).into_iter().flatten().copied());
            }
        }
        seen
    };
    let mut circles = Vec::new();
    for from in graph.keys() {
        let from_reach = reach(from);
        if !from_reach.contains(*from) {
            continue;
        }
        // the imports of `from` that lead back to it
        for imp in &all[*from] {
            if imp.to == *from || reach(&imp.to).contains(*from) {
                circles.push(format!(
                    "{}:{}: {from} → {} (and back)",
                    rel(&imp.file),
                    imp.line,
                    imp.to
                ));
            }
        }
    }
    assert!(
        circles.is_empty(),
        "modules that import each other (directly or around a circle):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_reader_finds_paths() {
    let here: Vec<String> = ["engine", "index", "disk"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let code = strip_test_items(&strip_comments(
        "use crate::engine::{error::Result, store::{Workspace, now}};\n\
         // crate::engine::ui in a comment\n\
         let s = \"crate::engine::cli\";\n\
         use super::super::dedup::corpus;\n\
         #[cfg(test)]\nmod tests { use crate::engine::cache; }\n\
         fn f<'a>(x: &'a str) -> char { 'x' }\n\
         use crate::engine::rank::pagerank;\n",
    ));
    let rooms: Vec<(usize, String)> = paths_in(&code, &here)
        .into_iter()
        .filter_map(|(l, p)| room(&p).map(|r| (l, r)))
        .collect();
    let names: BTreeSet<&str> = rooms.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(
        names,
        BTreeSet::from([
            "engine::error",
            "engine::store",
            "engine::dedup",
            "engine::rank"
        ]),
        "{rooms:?}"
    );
    assert!(
        rooms.contains(&(8, "engine::rank".to_string())),
        "{rooms:?}"
    );
}

/// Every job kind a lab defines (`const KIND: &'static str = "…"` of a `TypedJob`, test code
/// left out) is registered in the composition root, so the experiment log can re-open and re-run
/// it; and every panel the root names has its drawing code (checked in `ui`'s unit tests).
#[test]
fn every_job_kind_is_registered_in_the_composition_root() {
    // The labs' jobs, and the composition root's own (the pipeline's `build`).
    let mut files = Vec::new();
    rust_files(&src().join("engine"), &mut files);
    rust_files(&src().join("workbench"), &mut files);
    let registered: BTreeSet<&str> = tianwang::workbench::kinds().map(|k| k.kind).collect();
    let mut defined = BTreeSet::new();
    for file in files {
        if module_path(&file).iter().any(|s| s == "tests") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read a source file");
        let code = strip_test_items(&text);
        for line in code.lines() {
            let line = line.trim();
            if let Some(rest) = line.strip_prefix("const KIND: &'static str = \"") {
                let kind = rest.split('"').next().unwrap_or_default().to_string();
                defined.insert((kind, rel(&file)));
            }
        }
    }
    assert!(defined.len() >= 10, "too few job kinds found: {defined:?}");
    let missing: Vec<_> = defined
        .iter()
        .filter(|(k, _)| !registered.contains(k.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "job kinds no panel of src/workbench/mod.rs registers: {missing:?}"
    );
    for k in &registered {
        assert!(
            defined.iter().any(|(d, _)| d == k),
            "{k} is registered but defined nowhere"
        );
    }
}
