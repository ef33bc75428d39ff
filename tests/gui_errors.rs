//! Engine errors said in the user's language (issue 23): the Search panel on a workspace whose
//! index is damaged says so in Chinese, naming the file and the remedy; a job that fails in the
//! app is reported in Chinese in the status bar; a failed run in the experiment log keeps its
//! error code, so the Jobs panel says it in Chinese too.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use common::{harness_with, wait_secs};
use egui_kittest::kittest::{NodeT, Queryable};
use serde_json::Value;
use tianwang::engine::error::{EngineError, Flaw};
use tianwang::engine::index::job::IndexBuildParams;
use tianwang::engine::index::reader::sidecar;
use tianwang::engine::index::source::Source;
use tianwang::engine::jobs::{Job, JobContext, JobRunner, JobState};
use tianwang::engine::store::Workspace;

type H = egui_kittest::Harness<'static, tianwang::ui::WorkbenchApp>;

/// An empty workspace with an index of a small TSV beside it (`<workspace>.index`).
fn workspace_with_index(dir: &Path) -> PathBuf {
    let path = dir.join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let tsv = dir.join("t.tsv");
    std::fs::write(
        &tsv,
        "北京大学图书馆\t1\n清华大学图书馆\t1\n北京的天气\t2\n",
    )
    .unwrap();
    IndexBuildParams {
        source: Source::Tsv { path: tsv },
        out: Some(sidecar(&path)),
        config: Default::default(),
        engine: Default::default(),
    }
    .execute(None, &())
    .unwrap();
    path
}

fn lexicon_of(ws: &Path) -> PathBuf {
    let ix = sidecar(ws);
    let cur = std::fs::read_to_string(ix.join("CURRENT")).unwrap();
    ix.join(cur.trim()).join("lexicon.bin")
}

fn open(path: &Path) -> H {
    let mut h = harness_with(path, false);
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h
}

/// Every label and value shown, for messages that say what was found.
fn texts(h: &H) -> Vec<String> {
    h.query_all_by(|_| true)
        .filter_map(|n| {
            let n = n.accesskit_node();
            n.label().or_else(|| n.value())
        })
        .collect()
}

#[test]
fn a_damaged_index_and_a_failed_build_are_said_in_chinese() {
    let d = tempfile::tempdir().unwrap();
    let path = workspace_with_index(d.path());
    let lexicon = lexicon_of(&path);
    std::fs::write(&lexicon, b"TWLX").unwrap();

    let mut h = open(&path);
    h.get_by_label("检索与排序").click();
    wait_secs(&mut h, "the banner", 30, |h| {
        h.query_by_label("索引无法使用。").is_some()
    });
    // The sentence is the string table's, the path is the user's.
    let said = h
        .query_by_label_contains("请重建索引")
        .unwrap_or_else(|| panic!("no remedy in {:?}", texts(&h)));
    let said = said.accesskit_node();
    let said = said.label().or_else(|| said.value()).unwrap_or_default();
    assert!(said.starts_with("索引文件 "), "{said}");
    assert!(said.contains(lexicon.to_str().unwrap()), "{said}");
    // What is wrong with the file is said in Chinese too, not in the engine's English.
    let own = said.replace(lexicon.to_str().unwrap(), "");
    let own: String = own.split('`').step_by(2).collect();
    let english: Vec<&str> = own
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 2 && !["TWLX", "UTF"].contains(w))
        .collect();
    assert!(
        english.is_empty(),
        "English in the zh sentence: {english:?} ({said})"
    );
    for english in ["damaged", "rebuild the index", "internal error"] {
        assert!(
            h.query_by_label_contains(english).is_none(),
            "English `{english}` in the zh UI: {:?}",
            texts(&h)
        );
    }

    // Building over it runs the index-build job, which fails: the workspace has no page.
    h.get_by_label("建立索引").click();
    wait_secs(&mut h, "the failure", 60, |h| {
        h.query_by_label_contains("任务「建索引」失败：").is_some()
    });
    let status = h
        .query_by_label_contains("任务「建索引」失败：")
        .and_then(|n| {
            let n = n.accesskit_node();
            n.label().or_else(|| n.value())
        })
        .unwrap_or_default();
    assert!(
        status.contains("参数 `--workspace` 不可用"),
        "the failure's own sentence in zh: {status}"
    );
    assert!(!status.contains("invalid parameter"), "{status}");
}

/// A job that fails as if it had read a damaged index file.
struct ReadsDamage(PathBuf);

impl Job for ReadsDamage {
    fn kind(&self) -> &'static str {
        "index-build"
    }
    fn params(&self) -> Value {
        Value::Null
    }
    fn run(&mut self, _: &JobContext) -> tianwang::engine::error::Result<Value> {
        Err(EngineError::corrupt(
            &self.0,
            Flaw::new("flaw.cut_short", &[]),
        ))
    }
}

#[test]
fn a_failed_run_in_the_log_is_said_in_chinese() {
    let d = tempfile::tempdir().unwrap();
    let path = d.path().join("w.tianwang");
    Workspace::open_or_create(&path).unwrap();
    let runner = JobRunner::new(path.clone(), Arc::new(|| {}));
    let file = d.path().join("ix").join("gen-1").join("postings.bin");
    let state = runner.spawn(Box::new(ReadsDamage(file))).wait();
    assert!(matches!(state, JobState::Failed { .. }), "{state:?}");

    let mut h = open(&path);
    h.get_by_label("任务").click();
    wait_secs(&mut h, "the log", 30, |h| {
        h.query_by_label_contains("索引文件 ").is_some()
    });
    for english in ["damaged", "cut short"] {
        assert!(
            h.query_by_label_contains(english).is_none(),
            "English in the zh log: {:?}",
            texts(&h)
        );
    }
    // The flaw, kept in the log as a code, is said in Chinese in the run's details.
    h.get_by_label("#1").click();
    wait_secs(&mut h, "the run's details", 30, |h| {
        h.query_by_label_contains("（文件不完整）").is_some()
    });
}
