//! Runs side by side: tick two or more runs of one kind in the experiment log and see the
//! parameters that differ, every result figure with its change from the first run, and one
//! figure plotted across the runs (exportable, like every table and plot).

use egui::{RichText, Ui};
use egui_plot::{Line, Plot, PlotPoints, Points};

use crate::engine::export::{Plot as XPlot, Series as XSeries};
use crate::engine::jobs::JobRecord;
use crate::engine::jobs::compare::{Comparison, compare_records};
use crate::ui::Session;
use crate::ui::export::{plot_buttons, table_button};
use crate::ui::panel::Cx;

/// (log generation, ticked ids): when either changes the comparison is rebuilt.
type Key = (u64, Vec<i64>);

#[derive(Default)]
pub(super) struct CompareState {
    /// Ticked runs, in the order ticked.
    pub ids: Vec<i64>,
    /// The figure plotted across runs.
    figure: Option<String>,
    /// The comparison for (log generation, ids), or why there is none.
    cached: Option<(Key, Result<Comparison, String>)>,
}

impl CompareState {
    pub fn toggle(&mut self, id: i64) {
        match self.ids.iter().position(|&x| x == id) {
            Some(i) => {
                self.ids.remove(i);
            }
            None => self.ids.push(id),
        }
    }
}

fn build(log: &[JobRecord], ids: &[i64]) -> Result<Comparison, String> {
    let runs: Vec<JobRecord> = ids
        .iter()
        .filter_map(|id| log.iter().find(|r| r.id == *id).cloned())
        .collect();
    if let Some(other) = runs.iter().find(|r| r.kind != runs[0].kind) {
        return Err(format!("{} ≠ {}", runs[0].kind, other.kind));
    }
    Ok(compare_records(&runs))
}

fn fmt(v: Option<f64>) -> String {
    match v {
        None => "—".into(),
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => format!("{v:.0}"),
        Some(v) => format!("{v:.4}"),
    }
}

/// Draw the comparison of the ticked runs (nothing when fewer than two are ticked).
pub(super) fn section(cx: &mut Cx<'_>, st: &mut CompareState, ui: &mut Ui, sess: &Session) {
    let lang = cx.lang;
    if st.ids.len() < 2 {
        if !st.ids.is_empty() {
            ui.label(RichText::new(lang.t("jobs.compare_more")).weak());
        }
        return;
    }
    let key = (sess.log.generation(), st.ids.clone());
    if st.cached.as_ref().is_none_or(|(k, _)| *k != key) {
        let c = build(sess.log.value.as_deref().unwrap_or_default(), &st.ids);
        st.cached = Some((key, c));
    }
    let Some((_, c)) = &st.cached else { return };
    ui.add_space(12.0);
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            let c = match c {
                Ok(c) => c,
                Err(kinds) => {
                    ui.colored_label(
                        ui.visuals().error_fg_color,
                        lang.tf("jobs.compare_kinds", &[kinds]),
                    );
                    return;
                }
            };
            let ids: Vec<String> = c.runs.iter().map(|r| format!("#{}", r.id)).collect();
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(lang.tf(
                        "jobs.compare_title",
                        &[&lang.job_kind(&c.kind), &ids.join(" · ")],
                    ))
                    .size(17.0)
                    .strong(),
                );
                table_button(ui, lang, &mut cx.hub.exports, || c.to_table());
                if ui.small_button(lang.t("jobs.compare_clear")).clicked() {
                    st.ids.clear();
                }
            });
            ui.label(lang.tf("jobs.compare_params", &[&c.params.len(), &c.params_same]));
            egui::Grid::new("cmp_params").striped(true).show(ui, |ui| {
                if !c.params.is_empty() {
                    ui.label(RichText::new(lang.t("jobs.compare_param")).strong());
                    for id in &ids {
                        ui.label(RichText::new(id).strong());
                    }
                    ui.end_row();
                }
                for p in &c.params {
                    ui.label(RichText::new(&p.name).monospace());
                    for v in &p.values {
                        ui.label(v.as_ref().map_or("—".into(), |v| v.to_string()));
                    }
                    ui.end_row();
                }
            });
            ui.add_space(6.0);
            egui::Grid::new("cmp_figures").striped(true).show(ui, |ui| {
                ui.label(RichText::new(lang.t("jobs.compare_figure")).strong());
                for id in &ids {
                    ui.label(RichText::new(id).strong());
                }
                ui.end_row();
                for f in &c.figures {
                    let chosen = st.figure.as_deref() == Some(f.name.as_str());
                    if ui
                        .selectable_label(chosen, RichText::new(&f.name).monospace())
                        .on_hover_text(lang.t("jobs.compare_plot_hint"))
                        .clicked()
                    {
                        st.figure = Some(f.name.clone());
                    }
                    for (i, v) in f.values.iter().enumerate() {
                        let mut s = fmt(*v);
                        if i > 0
                            && let Some(r) = f.relative[i]
                        {
                            s.push_str(&format!(" ({:+.1} %)", r * 100.0));
                        }
                        ui.label(s);
                    }
                    ui.end_row();
                }
            });
            let Some(name) = st.figure.clone() else {
                return;
            };
            let Some(f) = c.figures.iter().find(|f| f.name == name) else {
                return;
            };
            let pts: Vec<[f64; 2]> = f
                .values
                .iter()
                .enumerate()
                .filter_map(|(i, v)| Some([(i + 1) as f64, (*v)?]))
                .collect();
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label(RichText::new(lang.tf("jobs.compare_plot", &[&name])).strong());
                plot_buttons(ui, lang, &mut cx.hub.exports, || {
                    XPlot::new(
                        format!("{} {name}", c.kind),
                        lang.t("jobs.compare_axis_run"),
                        name.clone(),
                    )
                    .series(XSeries::line(name.clone(), pts.clone()))
                    .series(XSeries::points(ids.join(" "), pts.clone()))
                });
            });
            let marks = ids.clone();
            Plot::new("cmp_plot")
                .height(180.0)
                .x_axis_formatter(move |m, _| {
                    let i = m.value.round();
                    if (m.value - i).abs() < 1e-9 && i >= 1.0 && (i as usize) <= marks.len() {
                        marks[i as usize - 1].clone()
                    } else {
                        String::new()
                    }
                })
                .x_axis_label(lang.t("jobs.compare_axis_run"))
                .y_axis_label(name.clone())
                .show(ui, |pl| {
                    pl.line(Line::new(name.clone(), PlotPoints::from(pts.clone())));
                    pl.points(Points::new(name.clone(), PlotPoints::from(pts.clone())).radius(4.0));
                });
        });
}
