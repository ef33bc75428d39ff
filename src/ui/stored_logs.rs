//! The picker of the query logs stored in the open workspace (`querylog import`, book ch. 9
//! [L3162–L3393]), shared by the query-log panel (statistics of a stored log) and the cache
//! panel (a stored log as the request stream). The list is read in the background when first
//! shown and after [`StoredLogs::invalidate`]; a new workspace re-reads it and forgets the pick.
//!
//! ```ignore
//! self.stored.ui(ui, lang, cx.session.map(|s| s.path.as_path()), lang.t("ql.no_stored"));
//! if let Some(id) = self.stored.pick { /* LogSource::Stored { log_id: id } */ }
//! ```

use std::path::{Path, PathBuf};

use egui::{RichText, Ui};

use super::Lang;
use super::task::Loaded;
use crate::engine::querylog::persist::{self, LogRow};

#[derive(Default)]
pub(crate) struct StoredLogs {
    rows: Loaded<Vec<LogRow>>,
    /// The workspace the list was read from.
    workspace: Option<PathBuf>,
    /// The log picked (`querylogs.id`).
    pub pick: Option<i64>,
}

impl StoredLogs {
    /// Re-read the list at the next opportunity (a log was imported).
    pub fn invalidate(&mut self) {
        self.rows.invalidate();
    }

    /// Follow the open workspace: another one re-reads the list and forgets the pick (a pick
    /// made before the first workspace was seen, e.g. by re-opening a logged run, is kept).
    fn follow(&mut self, workspace: Option<&Path>) {
        if self.workspace.as_deref() == workspace {
            return;
        }
        if self.workspace.is_some() {
            self.pick = None;
        }
        self.workspace = workspace.map(Path::to_path_buf);
        self.rows = Loaded::default();
    }

    /// One radio button per stored log (`#id name (format, n records)`), or `empty` when the
    /// workspace has none. Returns whether there is any to pick.
    pub fn ui(&mut self, ui: &mut Ui, lang: Lang, workspace: Option<&Path>, empty: &str) -> bool {
        self.follow(workspace);
        if let Some(path) = self.workspace.clone() {
            self.rows.update(ui.ctx(), move || {
                persist::list_at(&path).map_err(|e| lang.error(&e))
            });
        }
        match &self.rows.value {
            Some(rows) if !rows.is_empty() => {
                for r in rows {
                    ui.radio_value(&mut self.pick, Some(r.id), label(lang, r));
                }
                true
            }
            _ => {
                if self.rows.is_loading() {
                    ui.spinner();
                } else {
                    ui.label(RichText::new(empty).weak());
                }
                false
            }
        }
    }
}

/// A stored log as the picker shows it (the workspace's own logs by their names in the UI's
/// language).
fn label(lang: Lang, r: &LogRow) -> String {
    use crate::engine::querylog::own::{Own, which};
    let name = match which(&r.source) {
        Some(Own::Queries) => lang.t("ql.own_queries"),
        Some(Own::Clicks) => lang.t("ql.own_clicks"),
        None => r.name.as_str(),
    };
    format!(
        "#{} {} ({}, {} {})",
        r.id,
        name,
        r.format,
        r.records,
        lang.t("ql.records")
    )
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;
    use crate::engine::querylog::Normalise;
    use crate::engine::querylog::read::ReadConfig;
    use crate::engine::querylog::{Format, persist};
    use crate::engine::store::Workspace;

    /// A workspace with one stored SogouQ log of two records.
    fn workspace_with_a_log(dir: &Path) -> PathBuf {
        let ws = dir.join("w.tianwang");
        let log = dir.join("two.log");
        std::fs::write(
            &log,
            "00:00:01\tu1\t[天网]\t1 1\ta.cn\n00:00:09\tu2\t[北大]\t2 1\tb.cn\n",
        )
        .unwrap();
        let mut w = Workspace::open_or_create(&ws).unwrap();
        persist::import(
            w.conn_mut(),
            &log,
            &ReadConfig::new(Format::Sogouq),
            Normalise::default(),
            "two",
            None,
            false,
            &(),
        )
        .unwrap();
        ws
    }

    fn harness(ws: Option<PathBuf>) -> Harness<'static, StoredLogs> {
        Harness::builder().with_size([600.0, 300.0]).build_ui_state(
            move |ui, picker: &mut StoredLogs| {
                picker.ui(ui, Lang::En, ws.as_deref(), "nothing stored");
            },
            StoredLogs::default(),
        )
    }

    fn settle(h: &mut Harness<'static, StoredLogs>, until: impl Fn(&Harness<StoredLogs>) -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !until(h) {
            assert!(std::time::Instant::now() < deadline, "the list never came");
            h.step();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    #[test]
    fn the_stored_logs_are_listed_and_one_can_be_picked() {
        let d = tempfile::tempdir().unwrap();
        let mut h = harness(Some(workspace_with_a_log(d.path())));
        settle(&mut h, |h| h.query_by_label_contains("#1 two").is_some());
        h.get_by_label("#1 two (sogouq, 2 records)").click();
        h.run();
        assert_eq!(h.state().pick, Some(1));
    }

    #[test]
    fn no_workspace_or_an_empty_one_says_so() {
        let mut h = harness(None);
        h.run();
        h.get_by_label("nothing stored");
        let d = tempfile::tempdir().unwrap();
        let ws = d.path().join("empty.tianwang");
        Workspace::open_or_create(&ws).unwrap();
        let mut h = harness(Some(ws));
        settle(&mut h, |h| h.query_by_label("nothing stored").is_some());
    }

    #[test]
    fn another_workspace_forgets_the_pick_but_the_first_keeps_it() {
        let mut p = StoredLogs {
            pick: Some(4),
            ..StoredLogs::default()
        };
        p.follow(Some(Path::new("/a.tianwang")));
        assert_eq!(
            p.pick,
            Some(4),
            "a pick re-opened before the workspace was seen"
        );
        p.follow(Some(Path::new("/b.tianwang")));
        assert_eq!(p.pick, None);
    }
}
