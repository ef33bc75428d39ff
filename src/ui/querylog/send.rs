//! The query-log panel's request stream for the cache lab (book ch. 9.1 [L3194–L3234]: a
//! log's queries are the stream a result cache sees): the computed log read again on a
//! background thread, one object id a line written beside the workspace, and the cache panel
//! opened with it as its trace.
//!
//! ```ignore
//! panel.send_to_cache(cx, &ctx); // later: cache panel ← Request::Open { "trace": … }
//! ```

use std::path::PathBuf;

use super::QuerylogPanel;
use crate::engine::querylog::read::ReadConfig;
use crate::ui::panel::Cx;
use crate::ui::task::Task;

impl QuerylogPanel {
    /// Writes the request stream (one object id per line) for the cache lab.
    pub(super) fn send_to_cache(&mut self, cx: &mut Cx<'_>, ctx: &egui::Context) {
        let Some(c) = &self.computed else { return };
        let Some(file) = &c.file else {
            self.sent = Some(Err(cx.lang.t("ql.send_no_file").into()));
            return;
        };
        let read = if c.synthetic {
            ReadConfig::new(self.generator.format)
        } else {
            self.read_config()
        };
        // Beside the workspace, named after the log it came from (one file per log, not one
        // per process left in the temp folder).
        let out = generated_file(
            cx.session.map(|s| s.path.as_path()),
            "querylog-stream",
            &file.display().to_string(),
            "txt",
        );
        let lang = cx.lang;
        let cfg = self.stats_config(lang).unwrap_or_default();
        let file = file.clone();
        // Reading and writing on a background thread; `poll` records the outcome.
        self.sending = Some(Task::spawn(ctx, move || {
            let r = (|| -> crate::engine::error::Result<PathBuf> {
                let mut col = crate::engine::querylog::stats::Collector::new(cfg);
                crate::engine::querylog::read::read_file(&file, &read, &(), &mut |r| col.push(r))?;
                let text: String = col
                    .stream_ids(false)
                    .iter()
                    .map(|i| format!("{i}\n"))
                    .collect();
                std::fs::write(&out, text)
                    .map_err(|e| crate::engine::error::EngineError::path_os(out.clone(), e))?;
                Ok(out.clone())
            })();
            r.map_err(|e| lang.error(&e))
        }));
        self.sent = None;
    }
}

/// Where a file generated for a run goes: `<workspace>.files/<what>-<key>.<ext>` (the temp
/// folder without a workspace), the key standing for `from`, what it was made from.
pub(super) fn generated_file(
    workspace: Option<&std::path::Path>,
    what: &str,
    from: &str,
    ext: &str,
) -> PathBuf {
    let dir = workspace
        .map(crate::engine::store::files_dir)
        .unwrap_or_else(std::env::temp_dir);
    let _ = std::fs::create_dir_all(&dir);
    dir.join(format!(
        "{what}-{}.{ext}",
        crate::engine::store::key_of(from)
    ))
}
