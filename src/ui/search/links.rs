//! The link-analysis tab (book ch. 10.2 [L3599–L3647]): for class, a five-page graph whose
//! PageRank vector is shown one power iteration at a time beside the converged one; then
//! PageRank and HITS over the workspace's crawl graph (a [`Task`]), the top pages of each, the
//! L1 change per iteration on a log axis.

use egui::{RichText, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints};

use super::super::Lang;
use super::super::task::Task;
use crate::engine::rank::graph::{Graph, GraphStats};
use crate::engine::rank::hits::{HitsConfig, HitsResult, hits};
use crate::engine::rank::pagerank::{PageRankConfig, PageRankResult, pagerank, rank_desc};

/// The workspace's link analysis.
pub(super) struct LinkOutcome {
    pub urls: Vec<String>,
    pub pr: PageRankResult,
    pub hits: HitsResult,
}

pub(super) struct LinksTab {
    pub damping: f64,
    task: Option<Task<Result<LinkOutcome, String>>>,
    pub outcome: Option<LinkOutcome>,
    /// The stepper: iterations done on the small graph.
    pub steps: usize,
    error: Option<String>,
}

impl Default for LinksTab {
    fn default() -> Self {
        LinksTab {
            damping: 0.85,
            task: None,
            outcome: None,
            steps: 0,
            error: None,
        }
    }
}

/// The class graph: A→B, A→C, B→C, C→A, D→C, E has no out-link (dangling).
const SMALL: [(u32, u32); 5] = [(0, 1), (0, 2), (1, 2), (2, 0), (3, 2)];
const NAMES: [&str; 5] = ["A", "B", "C", "D", "E"];

fn small_graph(lang: Lang) -> Result<Graph, String> {
    Graph::from_edges(
        NAMES.iter().map(|s| s.to_string()).collect(),
        vec![None; 5],
        SMALL.to_vec(),
        GraphStats::default(),
    )
    .map_err(|e| lang.error(&e))
}

/// PageRank of the class graph after exactly `iters` iterations (0 = the uniform start).
fn small_after(lang: Lang, iters: usize, damping: f64) -> Result<Vec<f64>, String> {
    let g = small_graph(lang)?;
    if iters == 0 {
        return Ok(vec![0.2; 5]);
    }
    let cfg = PageRankConfig {
        damping,
        tol: 0.0,
        max_iter: iters,
        ..PageRankConfig::default()
    };
    pagerank(&g, &cfg, &(), &mut ())
        .map(|r| r.scores)
        .map_err(|e| lang.error(&e))
}

impl LinksTab {
    fn poll(&mut self) {
        if let Some(r) = Task::take_result(&mut self.task) {
            match r {
                Ok(o) => self.outcome = Some(o),
                Err(e) => self.error = Some(e),
            }
        }
    }

    pub fn ui(&mut self, lang: Lang, ui: &mut Ui, workspace: Option<std::path::PathBuf>) {
        self.poll();
        self.stepper_ui(lang, ui);
        ui.separator();
        ui.label(RichText::new(lang.t("search.links_intro")).weak());
        ui.horizontal(|ui| {
            let l = ui.label(lang.t("search.damping"));
            ui.add(egui::Slider::new(&mut self.damping, 0.05..=0.99).fixed_decimals(2))
                .labelled_by(l.id);
            let can = self.task.is_none() && workspace.is_some();
            if ui
                .add_enabled(can, egui::Button::new(lang.t("search.links_run")))
                .clicked()
                && let Some(path) = workspace.clone()
            {
                let d = self.damping;
                self.error = None;
                self.task = Some(Task::spawn(ui.ctx(), move || {
                    let err = |e: crate::engine::error::EngineError| lang.error(&e);
                    let ws = crate::engine::store::Workspace::open_existing(&path).map_err(err)?;
                    let g = Graph::from_workspace(&ws).map_err(err)?;
                    let cfg = PageRankConfig {
                        damping: d,
                        ..PageRankConfig::default()
                    };
                    let pr = pagerank(&g, &cfg, &(), &mut ()).map_err(err)?;
                    let h = hits(&g, &HitsConfig::default(), &(), &mut ()).map_err(err)?;
                    let urls = (0..g.node_count())
                        .map(|v| g.url(v).unwrap_or(g.id(v)).to_string())
                        .collect();
                    Ok(LinkOutcome { urls, pr, hits: h })
                }));
            }
            if self.task.is_some() {
                ui.spinner();
            }
        });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if let Some(o) = &self.outcome {
            ui.label(lang.tf(
                "search.links_line",
                &[
                    &o.pr.nodes,
                    &o.pr.edges,
                    &o.pr.iterations,
                    &o.hits.iterations,
                ],
            ));
            ui.columns(3, |cols| {
                let top = |v: &[f64]| rank_desc(v, Some(10));
                for (col, (head, v)) in cols.iter_mut().zip([
                    (lang.t("search.links_pr"), &o.pr.scores),
                    (lang.t("search.links_auth"), &o.hits.authority),
                    (lang.t("search.links_hub"), &o.hits.hub),
                ]) {
                    col.label(RichText::new(head).strong());
                    for (i, &n) in top(v).iter().enumerate() {
                        let url = o.urls[n].trim_start_matches("http://");
                        col.add(
                            egui::Label::new(format!("{}. {:.4}  {url}", i + 1, v[n])).truncate(),
                        )
                        .on_hover_text(&o.urls[n]);
                    }
                }
            });
            let line = |h: &[f64], name: &str| {
                let pts: PlotPoints = h
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| **v > 0.0)
                    .map(|(i, v)| [i as f64 + 1.0, v.log10()])
                    .collect();
                Line::new(name.to_string(), pts)
            };
            Plot::new("search_links_conv")
                .height(200.0)
                .legend(Legend::default())
                .x_axis_label(lang.t("search.links_axis_x"))
                .y_axis_label(lang.t("search.links_axis_y"))
                .y_axis_formatter(|m, _| format!("1e{:.0}", m.value))
                .show(ui, |p| {
                    p.line(line(&o.pr.history, "PageRank"));
                    p.line(line(&o.hits.history, "HITS"));
                });
        }
    }

    fn stepper_ui(&mut self, lang: Lang, ui: &mut Ui) {
        ui.label(RichText::new(lang.t("search.step_head")).strong());
        ui.label(RichText::new(lang.t("search.step_graph")).weak());
        ui.horizontal(|ui| {
            if ui.button(lang.t("search.step_next")).clicked() {
                self.steps += 1;
            }
            if ui.button(lang.t("search.step_reset")).clicked() {
                self.steps = 0;
            }
            ui.label(lang.tf("search.step_count", &[&self.steps]));
        });
        let now = small_after(lang, self.steps, self.damping);
        let done = small_after(lang, 1000, self.damping);
        match (now, done) {
            (Ok(now), Ok(done)) => {
                egui::Grid::new("search_step").striped(true).show(ui, |ui| {
                    ui.label(RichText::new(lang.t("search.step_page")).strong());
                    ui.label(RichText::new(lang.t("search.step_now")).strong());
                    ui.label(RichText::new(lang.t("search.step_final")).strong());
                    ui.end_row();
                    for i in 0..5 {
                        ui.label(NAMES[i]);
                        ui.label(format!("{:.4}", now[i]));
                        ui.label(format!("{:.4}", done[i]));
                        ui.end_row();
                    }
                });
                let l1: f64 = now.iter().zip(&done).map(|(a, b)| (a - b).abs()).sum();
                ui.label(lang.tf("search.step_l1", &[&format!("{l1:.2e}")]));
            }
            (Err(e), _) | (_, Err(e)) => {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
        }
    }
}
