//! The missing-data-set card, one widget every panel and book experiment uses when a set it
//! needs is not installed in the app's data folder (`engine::data`): which set, what it is,
//! its size, licence and terms of use (from the manifest compiled into the binary), with
//! **Download** (the `data-fetch` job: progress, cancel, logged) and **Import from folder…**
//! (a native folder dialog, then the `data-import` job). The card reports when the set is
//! installed, so the experiment behind it can run.
//!
//! ```text
//! ┌ 缺少数据集：THUCNews 新闻标题（10 类）  `thucnews_titles`
//! │ 用途：……   大小：1.1 MB   许可：MIT（仓库）……
//! │ [下载]  [从文件夹导入…]
//! ```

use std::path::PathBuf;

use egui::{RichText, Ui};

use crate::engine::data::job::{DataFetchJob, DataFetchParams, DataImportJob, DataImportParams};
use crate::engine::data::manifest;
use crate::engine::jobs::TypedJob;
use crate::ui::Lang;
use crate::ui::job_watch::{Finished, JobWatch};
use crate::ui::panel::Cx;
use crate::ui::task::Task;

/// One card's state: the download or import it started, the folder dialog, its last error.
#[derive(Default)]
pub(crate) struct DataCard {
    fetch: Option<JobWatch<DataFetchJob>>,
    import: Option<JobWatch<DataImportJob>>,
    dialog: Option<Task<Option<PathBuf>>>,
    error: Option<String>,
}

/// A set's text in the UI's language: `data.KIND.NAME` from the string tables, else the
/// manifest's (English) text.
pub(crate) fn set_text(lang: Lang, kind: &str, name: &str, fallback: &str) -> String {
    lang.t_or(&format!("data.{kind}.{name}"), fallback)
}

impl DataCard {
    /// Draw the card for data set `name`. True in the frame a download or an import of it
    /// finished well (the caller checks again and runs what waited for it).
    pub fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui, name: &str) -> bool {
        let lang = cx.lang;
        let installed = self.poll(lang);
        let Some(set) = manifest::get().set(name) else {
            return installed;
        };
        egui::Frame::group(ui.style())
            .stroke(egui::Stroke::new(1.0, ui.visuals().warn_fg_color))
            .show(ui, |ui| {
                let title = set_text(lang, "set", name, &set.title);
                ui.label(
                    RichText::new(lang.tf("card.missing", &[&title, &name]))
                        .strong()
                        .color(ui.visuals().warn_fg_color),
                );
                ui.label(lang.tf(
                    "card.purpose",
                    &[&set_text(lang, "purpose", name, &set.purpose)],
                ));
                let mb = format!("{:.1}", set.bytes() as f64 / 1e6);
                let licence = set_text(lang, "licence", name, &set.licence);
                ui.label(lang.tf("card.size_licence", &[&mb, &licence]));
                ui.label(
                    RichText::new(
                        lang.tf("card.terms", &[&set_text(lang, "terms", name, &set.terms)]),
                    )
                    .weak(),
                );
                self.buttons(cx, ui, name, set.import_only.is_some());
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
            });
        installed
    }

    fn buttons(&mut self, cx: &mut Cx<'_>, ui: &mut Ui, name: &str, import_only: bool) {
        let lang = cx.lang;
        if let Some(w) = &self.fetch {
            ui.horizontal(|ui| w.progress_row(ui, lang, lang.t("card.cancel")));
            return;
        }
        if let Some(w) = &self.import {
            ui.horizontal(|ui| w.progress_row(ui, lang, lang.t("card.cancel")));
            return;
        }
        let Some(data) = cx.hub.data.clone() else {
            ui.colored_label(ui.visuals().error_fg_color, lang.t("data.no_folder"));
            return;
        };
        let idle = self.dialog.is_none() && cx.session.is_some();
        ui.horizontal_wrapped(|ui| {
            let download = ui
                .add_enabled(
                    idle && !import_only,
                    egui::Button::new(lang.t("card.download")),
                )
                .on_hover_text(lang.tf("card.download_tip", &[&name]));
            if download.clicked() {
                self.error = None;
                let job = DataFetchJob::from_params(DataFetchParams {
                    sets: vec![name.to_string()],
                    data_dir: data.root().to_path_buf(),
                    options: Default::default(),
                });
                match job {
                    Ok(j) => self.fetch = JobWatch::start(cx, j),
                    Err(e) => self.error = Some(lang.error(&e)),
                }
            }
            let import = ui
                .add_enabled(idle, egui::Button::new(lang.t("card.import")))
                .on_hover_text(lang.t("card.import_tip"));
            if import.clicked() {
                self.error = None;
                let title = lang.t("card.import_title");
                self.dialog = Some(Task::spawn(ui.ctx(), move || {
                    rfd::FileDialog::new().set_title(title).pick_folder()
                }));
            }
            if import_only {
                ui.label(RichText::new(lang.t("card.import_only")).weak());
            }
            if cx.session.is_none() {
                ui.label(RichText::new(lang.t("card.need_workspace")).weak());
            }
        });
        if let Some(r) = Task::take_finished(&mut self.dialog)
            && let Ok(Some(from)) = r
        {
            let job = DataImportJob::from_params(DataImportParams {
                from,
                sets: vec![name.to_string()],
                data_dir: data.root().to_path_buf(),
            });
            match job {
                Ok(j) => self.import = JobWatch::start(cx, j),
                Err(e) => self.error = Some(lang.error(&e)),
            }
        }
    }

    /// Take a finished download or import: true when it installed the set.
    fn poll(&mut self, lang: Lang) -> bool {
        let mut ok = false;
        if let Some(end) = JobWatch::take_finished(&mut self.fetch) {
            ok |= self.ended(lang, end.outcome.map_done());
        }
        if let Some(end) = JobWatch::take_finished(&mut self.import) {
            ok |= self.ended(lang, end.outcome.map_done());
        }
        ok
    }

    fn ended(&mut self, lang: Lang, outcome: Finished<()>) -> bool {
        match outcome {
            Finished::Done(()) => {
                self.error = None;
                true
            }
            Finished::Failed(code) => {
                self.error = Some(lang.error_code(&code));
                false
            }
            Finished::Cancelled => false,
        }
    }
}

trait MapDone {
    fn map_done(self) -> Finished<()>;
}

impl<T> MapDone for Finished<T> {
    fn map_done(self) -> Finished<()> {
        match self {
            Finished::Done(_) => Finished::Done(()),
            Finished::Failed(c) => Finished::Failed(c),
            Finished::Cancelled => Finished::Cancelled,
        }
    }
}
