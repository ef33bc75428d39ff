//! The Evaluation tab: the cleaner over the sample web, the workspace's pages or a folder pair
//! (`NAME.html` beside `NAME.txt`, the ccwe layout) against ground truth. The run is an engine
//! job (`clean-eval`) on the app's runner, so it shows in the top bar with progress and Cancel
//! and lands in the experiment log; its result is read back here as totals and a per-page table,
//! worst body F1 first. A click on a page opens it in the Extract tab.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{RichText, Sense, TextStyle, Ui};
use egui_extras::{Column, TableBuilder};

use super::{PageRef, fmt3, score_color, tick};
use crate::engine::docview::eval::{CleanEval, EvalPage, EvalReport, EvalSource};
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};
use crate::ui::job_watch::{Finished, JobWatch};
use crate::ui::panel::Cx;
use crate::ui::task::Task;

/// The ccwe pages and their hand-extracted text, subfolders of the `ccwe` data set.
const CCWE: (&str, &str) = ("original", "cleaned");

/// The ccwe folders in the app's data folder (`engine::data`) when the set is installed.
fn ccwe_dirs(data: Option<&crate::engine::data::DataDir>) -> Option<(PathBuf, PathBuf)> {
    let dir = data?.require("ccwe").ok()?;
    Some((dir.join(CCWE.0), dir.join(CCWE.1)))
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Src {
    #[default]
    Sample,
    Workspace,
    Dir,
}

/// A report, pages worst first, and where the truth files of a folder run are.
struct Report {
    r: EvalReport,
    truth_dir: Option<PathBuf>,
}

#[derive(Default)]
pub(crate) struct EvalState {
    src: Src,
    html_dir: String,
    truth_dir: String,
    defaults: Option<Task<Option<(String, String)>>>,
    defaults_asked: bool,
    /// The app's data folder (where the ccwe pages are).
    pub(super) data: Option<crate::engine::data::DataDir>,
    handle: Option<JobWatch<CleanEval>>,
    /// The truth folder of the running job (folder runs only).
    run_truth: Option<PathBuf>,
    parsing: Option<Task<Result<Report, String>>>,
    report: Option<Arc<Report>>,
    error: Option<String>,
    cancelled: bool,
    only_mistyped: bool,
}

impl EvalState {
    /// Select the source of a logged run (re-open).
    pub(super) fn set_source(&mut self, src: &EvalSource) {
        match src {
            EvalSource::Sample => self.src = Src::Sample,
            EvalSource::Workspace => self.src = Src::Workspace,
            EvalSource::Dir { html, truth } => {
                self.src = Src::Dir;
                self.html_dir = html.display().to_string();
                self.truth_dir = truth.display().to_string();
            }
            // The panel has no aeb source (`tianwang clean --aeb` runs it): the form keeps its
            // choice and the re-opened report is shown as it was logged.
            EvalSource::Aeb { .. } => {}
        }
    }
}

/// Errors first, then pages by body F1 (lowest first), then pages without a truth body
/// (wrong type first).
fn order(p: &EvalPage) -> (u8, f64) {
    if p.error.is_some() {
        return (0, 0.0);
    }
    if let Some(f) = p.f1 {
        return (1, f);
    }
    let wrong = p.truth_type.as_ref().is_some_and(|t| *t != p.page_type);
    (if wrong { 2 } else { 3 }, 0.0)
}

/// Attach a finished job's pages and order them (in a task).
fn parse(
    lang: Lang,
    mut r: EvalReport,
    run: Option<(PathBuf, i64)>,
    truth_dir: Option<PathBuf>,
) -> Result<Report, String> {
    if let Some((ws, id)) = run {
        let ws = crate::engine::store::Workspace::open_existing(&ws).map_err(|e| lang.error(&e))?;
        r = r.attach_pages(&ws, id).map_err(|e| lang.error(&e))?;
    }
    r.pages.sort_by(|a, b| {
        let (ga, fa) = order(a);
        let (gb, fb) = order(b);
        ga.cmp(&gb)
            .then(fa.total_cmp(&fb))
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(Report { r, truth_dir })
}

impl EvalState {
    pub(super) fn poll(&mut self, ctx: &egui::Context, lang: Lang, workspace: Option<&Path>) {
        if !self.defaults_asked {
            self.defaults_asked = true;
            let data = self.data.clone();
            self.defaults = Some(Task::spawn(ctx, move || {
                let (a, b) = ccwe_dirs(data.as_ref())?;
                Some((a.display().to_string(), b.display().to_string()))
            }));
        }
        if let Some(r) = Task::take_finished(&mut self.defaults)
            && let Ok(Some((a, b))) = r
            && self.html_dir.is_empty()
            && self.truth_dir.is_empty()
        {
            self.html_dir = a;
            self.truth_dir = b;
        }
        if let Some(end) = JobWatch::take_finished(&mut self.handle) {
            match end.outcome {
                Finished::Done(r) => {
                    let truth = self.run_truth.take();
                    let run = workspace.map(Path::to_path_buf).zip(end.id);
                    self.parsing = Some(Task::spawn(ctx, move || parse(lang, r, run, truth)));
                }
                Finished::Failed(code) => self.error = Some(lang.error_code(&code)),
                Finished::Cancelled => self.cancelled = true,
            }
        }
        if let Some(r) = Task::take_result(&mut self.parsing) {
            match r {
                Ok(rep) => self.report = Some(Arc::new(rep)),
                Err(e) => self.error = Some(e),
            }
        }
    }
}

/// Start the evaluation job with the Extract tab's parameters.
fn start(cx: &mut Cx<'_>, me: &mut super::DocViewPanel) {
    let params = me.ex.params.clone();
    let lang = cx.lang;
    let st = &mut me.ev;
    st.error = None;
    st.cancelled = false;
    let (source, truth) = match st.src {
        Src::Sample => (EvalSource::Sample, None),
        Src::Workspace => (EvalSource::Workspace, None),
        Src::Dir => {
            let (html, truth) = (st.html_dir.trim(), st.truth_dir.trim());
            if html.is_empty() || truth.is_empty() {
                st.error = Some(lang.t("docview.eval_need_dirs").to_string());
                return;
            }
            let truth = PathBuf::from(truth);
            (
                EvalSource::Dir {
                    html: PathBuf::from(html),
                    truth: truth.clone(),
                },
                Some(truth),
            )
        }
    };
    match CleanEval::new(source, params) {
        Ok(job) => {
            if let Some(w) = JobWatch::start(cx, job) {
                st.handle = Some(w);
                st.run_truth = truth;
            }
        }
        Err(e) => st.error = Some(lang.error(&e)),
    }
}

fn card(ui: &mut Ui, title: &str, value: String, note: String, colour: Option<egui::Color32>) {
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .corner_radius(6.0)
        .show(ui, |ui| {
            ui.set_min_width(130.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(title).size(15.0));
                let mut v = RichText::new(value).size(28.0).strong();
                if let Some(c) = colour {
                    v = v.color(c);
                }
                ui.label(v);
                ui.label(RichText::new(note).small().weak());
            });
        });
}

/// Draw the tab; a click on a page returns it (with its row) to open in the Extract tab.
pub(super) fn show(
    cx: &mut Cx<'_>,
    me: &mut super::DocViewPanel,
    ui: &mut Ui,
) -> Option<(PageRef, EvalPage)> {
    let lang = cx.lang;
    let has_ws = cx.session.is_some();
    ui.label(RichText::new(lang.t("docview.eval_intro")).weak());
    let mut run = false;
    {
        let st = &mut me.ev;
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(lang.t("docview.eval_source")).strong());
            ui.radio_value(&mut st.src, Src::Sample, lang.t("docview.src_sample"));
            ui.radio_value(&mut st.src, Src::Workspace, lang.t("docview.src_ws"));
            ui.radio_value(&mut st.src, Src::Dir, lang.t("docview.src_dir"));
        });
        if st.src == Src::Dir {
            egui::Grid::new("dv_eval_dirs")
                .num_columns(2)
                .show(ui, |ui| {
                    let l = ui.label(lang.t("docview.html_dir"));
                    ui.add(
                        egui::TextEdit::singleline(&mut st.html_dir)
                            .hint_text(format!(".../extraction/ccwe/{}", CCWE.0))
                            .desired_width(520.0),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                    let l = ui.label(lang.t("docview.truth_dir"));
                    ui.add(
                        egui::TextEdit::singleline(&mut st.truth_dir)
                            .hint_text(format!(".../extraction/ccwe/{}", CCWE.1))
                            .desired_width(520.0),
                    )
                    .labelled_by(l.id);
                    ui.end_row();
                });
            ui.label(RichText::new(lang.t("docview.dir_note")).weak().small());
        }
    }
    let p = &me.ex.params;
    ui.label(
        RichText::new(lang.tf(
            "docview.eval_params",
            &[
                &format!("{:.1}", p.lambda),
                &format!("{:.1}", p.hub_ratio),
                &format!("{:.0}", p.pic_ratio),
                &format!("{:.2}", p.beta_link),
                &super::method_label(lang, p.segmenter),
            ],
        ))
        .weak(),
    );
    let st = &mut me.ev;
    let busy = st.handle.is_some() || st.parsing.is_some();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                has_ws && !busy,
                egui::Button::new(RichText::new(lang.t("docview.eval_run")).size(17.0)),
            )
            .clicked()
        {
            run = true;
        }
        if let Some(w) = &st.handle {
            w.progress_row(ui, lang, lang.t("jobs.cancel"));
        }
        if st.parsing.is_some() {
            ui.spinner();
        }
    });
    if !has_ws {
        ui.label(RichText::new(lang.t("docview.no_ws")).italics());
    }
    if let Some(e) = &st.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if st.cancelled {
        ui.label(RichText::new(lang.t("docview.eval_cancelled")).italics());
    }
    if run {
        start(cx, me);
        return None;
    }
    let st = &mut me.ev;
    let rep = st.report.clone()?;
    ui.add_space(8.0);
    totals(lang, ui, &rep.r);
    ui.add_space(8.0);
    table(lang, ui, st, &rep, &mut cx.hub.exports)
}

/// A page type as the table says it (主题型; the engine's word `topic` when untranslated).
fn type_word(lang: Lang, page_type: &str) -> String {
    lang.t_or(&format!("docview.ptype_{page_type}"), page_type)
}

/// An evaluation's source as the UI says it: the sample web and the workspace by name, a
/// folder or the benchmark by its path.
fn source_name(lang: Lang, source: &str) -> String {
    lang.t_or(&format!("docview.source_{source}"), source)
}

fn totals(lang: Lang, ui: &mut Ui, r: &EvalReport) {
    let pct = |v: Option<f64>| v.map_or_else(|| "—".into(), |v| format!("{:.1}%", v * 100.0));
    ui.label(
        RichText::new(lang.tf(
            "docview.eval_source_was",
            &[&source_name(lang, &r.source), &r.pages.len()],
        ))
        .weak(),
    );
    ui.horizontal_wrapped(|ui| {
        let body_colour = (r.body_pages > 0).then(|| score_color(ui, r.body.f1));
        card(
            ui,
            lang.t("docview.eval_f1"),
            if r.body_pages > 0 {
                format!("{:.3}", r.body.f1)
            } else {
                "—".into()
            },
            lang.tf(
                "docview.eval_pr",
                &[
                    &format!("{:.3}", r.body.p),
                    &format!("{:.3}", r.body.r),
                    &r.body_pages,
                ],
            ),
            body_colour,
        );
        card(
            ui,
            lang.t("docview.eval_type"),
            pct(r.type_accuracy),
            lang.t("docview.eval_type_note").to_string(),
            None,
        );
        card(
            ui,
            lang.t("docview.eval_title"),
            pct(r.title_exact),
            lang.t("docview.eval_title_note").to_string(),
            None,
        );
        card(
            ui,
            lang.t("docview.eval_speed"),
            crate::ui::shell::grouped(r.pages_per_s.round() as u64),
            lang.tf(
                "docview.eval_speed_note",
                &[&r.threads, &format!("{:.2}", r.seconds)],
            ),
            None,
        );
        card(
            ui,
            lang.t("docview.eval_errors"),
            r.errors.to_string(),
            lang.t("docview.eval_errors_note").to_string(),
            (r.errors > 0).then(|| ui.visuals().error_fg_color),
        );
    });
}

fn table(
    lang: Lang,
    ui: &mut Ui,
    st: &mut EvalState,
    rep: &Report,
    ex: &mut Exports,
) -> Option<(PageRef, EvalPage)> {
    let rows: Vec<&EvalPage> = rep
        .r
        .pages
        .iter()
        .filter(|p| !st.only_mistyped || p.truth_type.as_ref().is_some_and(|t| *t != p.page_type))
        .collect();
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(lang.t("docview.eval_pages"))
                .size(17.0)
                .strong(),
        );
        ui.checkbox(&mut st.only_mistyped, lang.t("docview.eval_only_mistyped"));
        ui.label(
            RichText::new(lang.tf("docview.eval_shown", &[&rows.len(), &rep.r.pages.len()])).weak(),
        );
        table_button(ui, lang, ex, || rep.r.to_table());
    });
    ui.label(RichText::new(lang.t("docview.eval_click")).weak().small());
    let row_h = ui.text_style_height(&TextStyle::Body) + 8.0;
    let height = (ui.clip_rect().bottom() - ui.cursor().top() - 12.0).max(320.0);
    let mut open = None;
    ui.scope(|ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
        TableBuilder::new(ui)
            .id_salt("dv_eval_table")
            .striped(true)
            .sense(Sense::click())
            .max_scroll_height(height)
            .auto_shrink([false, true])
            .column(Column::auto().at_least(56.0))
            .column(Column::auto().at_least(56.0))
            .column(Column::auto().at_least(56.0))
            .column(Column::auto().at_least(110.0))
            .column(Column::auto().at_least(44.0))
            .column(Column::auto().at_least(100.0))
            .column(Column::remainder().at_least(200.0).clip(true))
            .header(row_h, |mut h| {
                for k in [
                    "docview.col_f1",
                    "docview.col_p",
                    "docview.col_r",
                    "docview.col_type",
                    "docview.col_title",
                    "docview.col_encoding",
                    "docview.col_page",
                ] {
                    h.col(|ui| {
                        ui.label(RichText::new(lang.t(k)).strong());
                    });
                }
            })
            .body(|body| {
                body.rows(row_h, rows.len(), |mut row| {
                    let Some(p) = rows.get(row.index()).copied() else {
                        return;
                    };
                    let mut clicked = false;
                    for v in [p.f1, p.p, p.r] {
                        row.col(|ui| {
                            let t = RichText::new(fmt3(v)).monospace();
                            ui.label(match v {
                                Some(x) => t.color(score_color(ui, x)),
                                None => t.weak(),
                            });
                        });
                    }
                    row.col(|ui| {
                        match &p.truth_type {
                            Some(t) if *t != p.page_type => ui.colored_label(
                                ui.visuals().error_fg_color,
                                lang.tf(
                                    "docview.type_vs",
                                    &[&type_word(lang, &p.page_type), &type_word(lang, t)],
                                ),
                            ),
                            _ => ui.label(type_word(lang, &p.page_type)),
                        };
                    });
                    row.col(|ui| {
                        match p.truth_title.as_deref().filter(|t| !t.is_empty()) {
                            Some(t) => {
                                tick(ui, t.trim() == p.title.trim())
                                    .on_hover_text(lang.tf("docview.title_vs", &[&p.title, &t]));
                            }
                            None => {
                                ui.label(RichText::new("—").weak());
                            }
                        };
                    });
                    row.col(|ui| {
                        // Who decided, in the UI's language ("header" is the engine's word).
                        let by = lang.t_or(&format!("docview.by_{}", p.decided_by), &p.decided_by);
                        ui.label(format!("{} · {by}", p.encoding));
                    });
                    row.col(|ui| {
                        let mut text = RichText::new(&p.name).monospace().small();
                        if p.error.is_some() {
                            text = text.color(ui.visuals().error_fg_color);
                        }
                        let r = ui.add(egui::Label::new(text).truncate().sense(Sense::click()));
                        let r = match &p.error {
                            Some(e) => r.on_hover_text(e),
                            None => r.on_hover_text(&p.location),
                        };
                        clicked |= r.clicked();
                    });
                    if clicked || row.response().clicked() {
                        open = Some(p);
                    }
                });
            });
    });
    let p = open?;
    let r = if p.location.starts_with("http://") || p.location.starts_with("https://") {
        PageRef::Url(p.location.clone())
    } else {
        let path = PathBuf::from(&p.location);
        let truth = rep.truth_dir.as_ref().and_then(|d| {
            path.file_stem()
                .map(|s| d.join(format!("{}.txt", s.to_string_lossy())))
        });
        PageRef::File { path, truth }
    };
    Some((r, p.clone()))
}
