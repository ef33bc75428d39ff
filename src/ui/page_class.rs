//! The page inspector's "what is this page about?": a classifier stored in the workspace (the
//! Classifier panel's Save as) applied to the selected page's DocView title and body, with the
//! class scores and the features that decided (book ch. 11 [L3996–L4411]). Models are listed
//! and pages classified in background tasks.

use std::path::{Path, PathBuf};

use egui::{RichText, Ui};

use super::Lang;
use super::task::Task;
use crate::engine::classify::pages::{PagePrediction, predict_page};
use crate::engine::classify::persist::{self, ModelRow};
use crate::engine::store::Workspace;

#[derive(Default)]
pub(crate) struct ClassifyBox {
    models: Option<Vec<ModelRow>>,
    loading: Option<Task<Result<Vec<ModelRow>, String>>>,
    chosen: Option<i64>,
    task: Option<Task<Result<PagePrediction, String>>>,
    shown: Option<PagePrediction>,
    error: Option<String>,
}

impl ClassifyBox {
    fn poll(&mut self) {
        if let Some(r) = Task::take_result(&mut self.loading) {
            match r {
                Ok(m) => {
                    self.chosen = self.chosen.or_else(|| m.last().map(|x| x.id));
                    self.models = Some(m);
                }
                Err(e) => self.error = Some(e),
            }
        }
        if let Some(r) = Task::take_result(&mut self.task) {
            match r {
                Ok(p) => self.shown = Some(p),
                Err(e) => self.error = Some(e),
            }
        }
    }

    /// Draw the box for the page `url` of the workspace at `path`.
    pub(crate) fn ui(&mut self, lang: Lang, ui: &mut Ui, path: &Path, url: &str) {
        self.poll();
        egui::CollapsingHeader::new(RichText::new(lang.t("pages.classify")).strong())
            .id_salt("pages_classify")
            .show(ui, |ui| {
                ui.label(RichText::new(lang.t("pages.classify_hint")).weak());
                if self.models.is_none() && self.loading.is_none() {
                    let p: PathBuf = path.to_path_buf();
                    self.loading = Some(Task::spawn(ui.ctx(), move || {
                        Workspace::open_existing(&p)
                            .and_then(|ws| persist::list(ws.conn()))
                            .map_err(|e| lang.error(&e))
                    }));
                }
                let Some(models) = &self.models else {
                    ui.spinner();
                    return;
                };
                if models.is_empty() {
                    ui.label(lang.t("pages.classify_none"));
                    return;
                }
                let name = |m: &ModelRow| format!("#{} {} ({})", m.id, m.name, m.kind);
                let mut run = false;
                ui.horizontal(|ui| {
                    let current = models
                        .iter()
                        .find(|m| Some(m.id) == self.chosen)
                        .map(name)
                        .unwrap_or_default();
                    let l = ui.label(lang.t("pages.classify_model"));
                    egui::ComboBox::from_id_salt("page_class_model")
                        .selected_text(current)
                        .show_ui(ui, |ui| {
                            for m in models {
                                ui.selectable_value(&mut self.chosen, Some(m.id), name(m));
                            }
                        })
                        .response
                        .labelled_by(l.id);
                    run = ui
                        .add_enabled(
                            self.task.is_none() && self.chosen.is_some(),
                            egui::Button::new(lang.t("pages.classify_run")),
                        )
                        .clicked();
                    if self.task.is_some() {
                        ui.spinner();
                    }
                });
                if run && let Some(id) = self.chosen {
                    let (p, u) = (path.to_path_buf(), url.to_string());
                    self.error = None;
                    self.task = Some(Task::spawn(ui.ctx(), move || {
                        Workspace::open_existing(&p)
                            .and_then(|ws| predict_page(&ws, id, &u, 10))
                            .map_err(|e| lang.error(&e))
                    }));
                }
                if let Some(e) = &self.error {
                    ui.colored_label(ui.visuals().error_fg_color, e);
                }
                let Some(p) = self.shown.as_ref().filter(|p| p.url == url) else {
                    return;
                };
                let e = &p.explanation;
                ui.label(
                    RichText::new(lang.tf(
                        "pages.classify_result",
                        &[&e.predicted.join("、"), &p.model, &p.chars],
                    ))
                    .size(17.0)
                    .strong(),
                );
                ui.label(
                    e.class_scores
                        .iter()
                        .take(4)
                        .map(|c| format!("{} {:.3}", c.label, c.score))
                        .collect::<Vec<_>>()
                        .join(" · ")
                        + &format!("  ({})", e.score_kind),
                );
                ui.label(RichText::new(lang.t("pages.classify_why")).strong());
                ui.label(
                    e.top_features
                        .iter()
                        .map(|f| format!("{} {:.3}", f.term, f.weight))
                        .collect::<Vec<_>>()
                        .join(" · "),
                );
            });
    }
}
