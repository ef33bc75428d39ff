//! The inverted-file performance model of §8.4 [L2754–L2965] as one tab of the Search panel
//! (性能模型): four sub-tabs drawing `engine::index::perfmodel`.
//!
//! * **Model** — every input of (8-1)/(8-2) with its unit, the book's values or this index's,
//!   the full-text switch; D exact and both approximations, D/B against r with a badge,
//!   k_max; D against k on log axes (`perfmodel_plots`); the book beside this index.
//! * **Table 8-1** — English words against Chinese characters, ITF against rank, the crossing.
//! * **Throughput** — a Table 8-2 disk (or the book's rule of thumb), RAID-N, L_q, TF, T_N; m
//!   by the full inequality and the simplified IOPS/L_q; T_N against m with the book's anchors.
//! * **Stirling** — Σ i·S(k,i)·P_M^i / M^k exact, the closed form and a Monte Carlo estimate.
//!
//! Everything is computed on the UI thread: closed forms, and a Monte Carlo capped at 10⁶ draws
//! that reruns only when its inputs change.

use std::path::PathBuf;

use egui::{Color32, DragValue, RichText, Ui};

use super::perfmodel_plots as plots;
use super::perfmodel_stirling::{Stirling, stirling_ui};
use crate::engine::index::perfmodel::{
    BOOK_L_Q, BOOK_TF_CHINESE, BOOK_TF_ENGLISH, CorpusStats, ModelInput, Planner, TABLE_8_2,
};
use crate::ui::export::Exports;
use crate::ui::{Lang, wrap};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Model,
    Itf,
    Throughput,
    Stirling,
}

/// The performance-model widget: embed it with [`PerfModelView::ui`].
pub struct PerfModelView {
    tab: Tab,
    input: ModelInput,
    corpus: Option<CorpusStats>,
    planner: Planner,
    /// The Table 8-2 row the planner's disk came from (`None`: the book's rule of thumb).
    disk: Option<usize>,
    stirling: Stirling,
    exports: Exports,
    export_note: Option<String>,
}

impl Default for PerfModelView {
    fn default() -> Self {
        PerfModelView {
            tab: Tab::Model,
            input: ModelInput::default(),
            corpus: None,
            planner: Planner::default(),
            disk: None,
            stirling: Stirling::default(),
            exports: Exports::default(),
            export_note: None,
        }
    }
}

/// A number for a drag value: plain below 10⁵, else `3e7` (which the parser reads back).
pub(crate) fn num(v: f64) -> String {
    if v == 0.0 || (1e-3..1e5).contains(&v.abs()) {
        let s = format!("{v:.4}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        return s.to_string();
    }
    let s = format!("{v:.3e}");
    match s.split_once('e') {
        Some((m, e)) => {
            let m = m.trim_end_matches('0').trim_end_matches('.');
            format!("{m}e{e}")
        }
        None => s,
    }
}

/// `3e7`, `30000000`, `30,000,000` or `3×10^7`.
fn parse_num(s: &str) -> Option<f64> {
    let s: String = s
        .chars()
        .filter(|c| !matches!(c, ',' | '_' | ' '))
        .collect();
    if let Some((m, e)) = s.split_once("×10^") {
        return Some(m.parse::<f64>().ok()? * 10f64.powf(e.parse().ok()?));
    }
    s.parse().ok()
}

/// Bytes with a decimal unit (MB = 10⁶ B, as the book counts), 4 significant digits.
pub(crate) fn bytes(v: f64) -> String {
    if !v.is_finite() {
        return "∞".into();
    }
    let (d, unit) = [
        (1e15, "PB"),
        (1e12, "TB"),
        (1e9, "GB"),
        (1e6, "MB"),
        (1e3, "kB"),
    ]
    .into_iter()
    .find(|(d, _)| v.abs() >= *d * 0.9995)
    .unwrap_or((1.0, "B"));
    let x = v / d;
    let decimals = if unit == "B" {
        0
    } else if x.abs() < 10.0 {
        3
    } else if x.abs() < 100.0 {
        2
    } else {
        1
    };
    format!("{x:.decimals$} {unit}")
}

/// A value with 4 significant digits (plain) or as `1.23e9`.
pub(crate) fn sig(v: f64) -> String {
    if v == 0.0 || (1e-3..1e6).contains(&v.abs()) {
        let decimals = (3 - v.abs().max(1e-300).log10().floor() as i32).clamp(0, 6) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.3e}")
    }
}

/// Below this width (points) a form's unit goes into its value's cell, after the value
/// (wrapping under it), instead of a third column: the three columns of the model's inputs
/// need about 440 points, the 200 % window leaves about 470 beside the navigation.
const FORM_THREE_COLUMNS: f32 = 520.0;

/// A form row of a grid: the label, the value `add` makes (given the label's id, to be
/// named by it) and its unit, weak; the unit in a third column, or after the value in its
/// cell (wrapping under it) when `narrow`.
fn form_row<R>(
    ui: &mut Ui,
    narrow: bool,
    label: &str,
    unit: &str,
    add: impl FnOnce(&mut Ui, egui::Id) -> R,
) -> R {
    let l = ui.label(label).id;
    let unit = RichText::new(unit).weak();
    let r = if narrow {
        ui.horizontal_wrapped(|ui| {
            let r = add(ui, l);
            ui.add(egui::Label::new(unit).wrap());
            r
        })
        .inner
    } else {
        let r = add(ui, l);
        ui.label(unit);
        r
    };
    ui.end_row();
    r
}

/// A drag value for a large positive quantity (speed relative to its size, `3e7` shown), with
/// its label and unit: a row of its own.
fn big_drag(
    ui: &mut Ui,
    narrow: bool,
    label: &str,
    v: &mut f64,
    range: [f64; 2],
    unit: &str,
) -> bool {
    let speed = (v.abs() * 0.004).max(0.01);
    form_row(ui, narrow, label, unit, |ui, l| {
        ui.add(
            DragValue::new(v)
                .range(range[0]..=range[1])
                .speed(speed)
                .custom_formatter(|x, _| num(x))
                .custom_parser(parse_num),
        )
        .labelled_by(l)
        .changed()
    })
}

/// The pass/fail badge.
pub(crate) fn badge(ui: &mut Ui, ok: bool, yes: &str, no: &str) {
    let (text, bg) = if ok {
        (yes, Color32::from_rgb(0x2e, 0x7d, 0x32))
    } else {
        (no, Color32::from_rgb(0xc6, 0x28, 0x28))
    };
    ui.label(
        RichText::new(format!(" {text} "))
            .strong()
            .color(Color32::WHITE)
            .background_color(bg),
    );
}

/// One half of a two-column view: draws into `ui`.
impl PerfModelView {
    /// The statistics of this workspace's index (`None`: no index yet): enables "this index's
    /// values" and the book-beside-ours comparison.
    pub fn set_corpus(&mut self, stats: Option<CorpusStats>) {
        self.corpus = stats;
    }

    /// Export tables and plots into `dir` without a dialog (the Hub's export folder).
    pub fn set_export_folder(&mut self, dir: Option<PathBuf>) {
        self.exports.folder = dir;
    }

    /// Draw the widget.
    pub fn ui(&mut self, ui: &mut Ui, lang: Lang) {
        for r in self.exports.poll() {
            self.export_note = Some(match r {
                Ok(p) => lang.tf("perf.exported", &[&p.display()]),
                Err(e) => e,
            });
        }
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.tab, Tab::Model, lang.t("perf.tab_model"));
            ui.selectable_value(&mut self.tab, Tab::Itf, lang.t("perf.tab_itf"));
            ui.selectable_value(
                &mut self.tab,
                Tab::Throughput,
                lang.t("perf.tab_throughput"),
            );
            ui.selectable_value(&mut self.tab, Tab::Stirling, lang.t("perf.tab_stirling"));
            if let Some(n) = &self.export_note {
                ui.label(RichText::new(n).weak());
            }
        });
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("perf_scroll")
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tab {
                Tab::Model => self.model_ui(ui, lang),
                Tab::Itf => plots::itf_tab(ui, lang, &mut self.exports),
                Tab::Throughput => self.throughput_ui(ui, lang),
                Tab::Stirling => stirling_ui(&mut self.stirling, ui, lang, &mut self.exports),
            });
    }

    // -- the model --------------------------------------------------------------------------

    fn model_ui(&mut self, ui: &mut Ui, lang: Lang) {
        ui.label(RichText::new(lang.t("perf.model_intro")).weak());
        wrap::two_up(
            ui,
            self,
            |ui, me| me.inputs_ui(ui, lang),
            |ui, me| me.outputs_ui(ui, lang),
        );
        ui.add_space(6.0);
        match self.input.report() {
            Ok(_) => plots::d_of_k(ui, lang, &mut self.exports, &self.input),
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, lang.error(&e));
            }
        }
    }

    fn inputs_ui(&mut self, ui: &mut Ui, lang: Lang) {
        ui.label(RichText::new(lang.t("perf.inputs")).strong());
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("perf.preset_book")).clicked() {
                self.input = ModelInput {
                    k: self.input.k,
                    ..ModelInput::default()
                };
            }
            let corpus = ui
                .add_enabled(
                    self.corpus.is_some(),
                    egui::Button::new(lang.t("perf.preset_corpus")),
                )
                .on_disabled_hover_text(lang.t("perf.no_corpus"));
            if corpus.clicked()
                && let Some(s) = &self.corpus
                && let Ok(m) = self.input.with_corpus(s)
            {
                self.input = m;
            }
            if ui
                .button(lang.t("perf.preset_vertical"))
                .on_hover_text(lang.t("perf.preset_vertical_hint"))
                .clicked()
            {
                self.input.m_terms = 200.0;
            }
        });
        let i = &mut self.input;
        let narrow = ui.available_width() < FORM_THREE_COLUMNS;
        egui::Grid::new("perf_inputs")
            .num_columns(if narrow { 2 } else { 3 })
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                for (label, v, range, unit) in [
                    ("perf.in_n", &mut i.n_docs, [1.0, 1e13], "perf.unit_docs"),
                    ("perf.in_m", &mut i.m_terms, [1.0, 1e10], "perf.unit_terms"),
                    ("perf.in_c", &mut i.c_bytes, [0.01, 1e6], "perf.unit_bytes"),
                    (
                        "perf.in_alpha",
                        &mut i.alpha,
                        [0.0, 1e13],
                        "perf.unit_alpha",
                    ),
                    ("perf.in_tn", &mut i.t_n, [0.0, 1e16], "perf.unit_occ"),
                ] {
                    big_drag(ui, narrow, lang.t(label), v, range, lang.t(unit));
                }
                let (label, unit) = (lang.t("perf.in_full"), lang.t("perf.formula_8_2"));
                form_row(ui, narrow, label, unit, |ui, _| {
                    ui.checkbox(&mut i.full_text, lang.t("perf.full_text"))
                });
                let mut mb = i.bandwidth_bps / 1e6;
                if big_drag(
                    ui,
                    narrow,
                    lang.t("perf.in_b"),
                    &mut mb,
                    [1e-3, 1e7],
                    "MB/s",
                ) {
                    i.bandwidth_bps = mb * 1e6;
                }
                let (label, unit) = (lang.t("perf.in_r"), lang.t("perf.unit_s"));
                form_row(ui, narrow, label, unit, |ui, l| {
                    ui.add(
                        DragValue::new(&mut i.response_s)
                            .range(0.001..=100.0)
                            .speed(0.01),
                    )
                    .labelled_by(l)
                });
                let (label, unit) = (lang.t("perf.in_k"), lang.t("perf.unit_queries"));
                form_row(ui, narrow, label, unit, |ui, l| {
                    ui.add(DragValue::new(&mut i.k).range(0..=1_000_000_000).speed(0.2))
                        .labelled_by(l)
                });
            });
        let source = if is_corpus(&self.input, self.corpus.as_ref()) {
            lang.t("perf.source_corpus")
        } else if is_book(&self.input) {
            lang.t("perf.source_book")
        } else {
            lang.t("perf.source_custom")
        };
        ui.label(RichText::new(source).weak());
    }

    fn outputs_ui(&mut self, ui: &mut Ui, lang: Lang) {
        ui.label(RichText::new(lang.t("perf.outputs")).strong());
        let r = match self.input.report() {
            Ok(r) => r,
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, lang.error(&e));
                return;
            }
        };
        let rel = |x: f64| {
            if r.data_exact > 0.0 {
                let pct = (x / r.data_exact - 1.0) * 100.0;
                if pct == 0.0 || pct.abs() >= 1e-3 {
                    format!("{pct:+.3}%")
                } else {
                    format!("{pct:+.1e}%")
                }
            } else {
                String::new()
            }
        };
        let kmax_note = match (r.k_max, r.k_max_real) {
            (Some(_), Some(x)) => lang.tf("perf.kmax_note", &[&sig(x), &sig(r.k_max_approx)]),
            _ => lang.t("perf.unbounded_note").to_string(),
        };
        egui::Grid::new("perf_outputs")
            .num_columns(3)
            .spacing([8.0, 4.0])
            .striped(true)
            .show(ui, |ui| {
                let row = |ui: &mut Ui, a: &str, b: String, c: String| {
                    ui.label(a);
                    ui.label(RichText::new(b).monospace());
                    ui.label(RichText::new(c).weak());
                    ui.end_row();
                };
                row(
                    ui,
                    lang.t("perf.out_d_alpha"),
                    bytes(r.d_alpha),
                    String::new(),
                );
                row(
                    ui,
                    lang.t("perf.out_lists"),
                    sig(r.distinct_lists),
                    String::new(),
                );
                row(
                    ui,
                    lang.t("perf.out_exact"),
                    bytes(r.data_exact),
                    String::new(),
                );
                row(
                    ui,
                    lang.t("perf.out_approx1"),
                    bytes(r.data_approx1),
                    rel(r.data_approx1),
                );
                row(
                    ui,
                    lang.t("perf.out_approx2"),
                    bytes(r.data_approx2),
                    rel(r.data_approx2),
                );
                row(
                    ui,
                    lang.t("perf.out_budget"),
                    bytes(r.budget),
                    String::new(),
                );
                ui.label(lang.t("perf.out_seconds"));
                ui.label(RichText::new(format!("D/B = {} s", sig(r.seconds))).monospace());
                badge(ui, r.meets, lang.t("perf.meets"), lang.t("perf.misses"));
                ui.end_row();
                let kmax = match r.k_max {
                    Some(k) => k.to_string(),
                    None => lang.t("perf.unbounded").to_string(),
                };
                row(ui, lang.t("perf.out_kmax"), kmax, String::new());
                row(
                    ui,
                    lang.t("perf.out_file"),
                    bytes(r.posting_file),
                    String::new(),
                );
            });
        // k_max's note under the table, wrapped to the column (in a third column it ran past
        // the panel's edge).
        ui.label(RichText::new(format!("k_max: {kmax_note}")).weak());
        ui.add_space(4.0);
        self.compare_ui(ui, lang);
    }

    /// The book's inputs beside this index's, with the same c, B, r, k and index kind.
    fn compare_ui(&self, ui: &mut Ui, lang: Lang) {
        let Some(stats) = &self.corpus else {
            ui.label(RichText::new(lang.t("perf.no_corpus")).weak());
            return;
        };
        let book = ModelInput {
            c_bytes: self.input.c_bytes,
            full_text: self.input.full_text,
            bandwidth_bps: self.input.bandwidth_bps,
            response_s: self.input.response_s,
            k: self.input.k,
            ..ModelInput::default()
        };
        let (Ok(a), Ok(b)) = (
            book.report(),
            book.with_corpus(stats).and_then(|m| m.report()),
        ) else {
            ui.label(RichText::new(lang.t("perf.corpus_empty")).weak());
            return;
        };
        ui.label(RichText::new(lang.t("perf.compare")).strong());
        egui::Grid::new("perf_compare")
            .num_columns(3)
            .striped(true)
            .show(ui, |ui| {
                ui.label("");
                ui.label(RichText::new(lang.t("perf.col_book")).strong());
                ui.label(RichText::new(lang.t("perf.col_ours")).strong());
                ui.end_row();
                let kmax = |r: &crate::engine::index::perfmodel::Report| {
                    r.k_max
                        .map_or(lang.t("perf.unbounded").to_string(), |k| k.to_string())
                };
                let rows: [(&str, String, String); 8] = [
                    ("N", num(a.input.n_docs), num(b.input.n_docs)),
                    ("M", num(a.input.m_terms), num(b.input.m_terms)),
                    ("α", num(a.input.alpha), num(b.input.alpha)),
                    ("T_N", num(a.input.t_n), num(b.input.t_n)),
                    ("dα", bytes(a.d_alpha), bytes(b.d_alpha)),
                    ("dαM", bytes(a.posting_file), bytes(b.posting_file)),
                    ("D(k)", bytes(a.data_exact), bytes(b.data_exact)),
                    ("k_max", kmax(&a), kmax(&b)),
                ];
                for (name, x, y) in rows {
                    ui.label(name);
                    ui.label(RichText::new(x).monospace());
                    ui.label(RichText::new(y).monospace());
                    ui.end_row();
                }
            });
    }

    // -- the throughput planner -------------------------------------------------------------

    fn throughput_ui(&mut self, ui: &mut Ui, lang: Lang) {
        ui.label(RichText::new(lang.t("perf.tp_intro")).weak());
        wrap::two_up(
            ui,
            self,
            |ui, me| me.planner_inputs(ui, lang),
            |ui, me| me.planner_outputs(ui, lang),
        );
        ui.add_space(6.0);
        if let Ok(r) = self.planner.report() {
            plots::t_n_of_m(ui, lang, &mut self.exports, &self.planner, &r);
        }
        ui.add_space(6.0);
        plots::table_8_2(ui, lang, &mut self.exports);
    }

    fn disk_name(&self, lang: Lang, i: Option<usize>) -> String {
        match i {
            None => lang.t("perf.disk_book").to_string(),
            Some(i) => {
                let d = &TABLE_8_2[i];
                format!(
                    "{} ({} ms, {} IOPS, {} MB/s)",
                    d.model, d.access_ms, d.iops, d.mb_s.0
                )
            }
        }
    }

    fn planner_inputs(&mut self, ui: &mut Ui, lang: Lang) {
        ui.label(RichText::new(lang.t("perf.tp_inputs")).strong());
        ui.horizontal(|ui| {
            let l = ui.label(lang.t("perf.disk"));
            let mut choice = self.disk;
            egui::ComboBox::from_id_salt("perf_disk")
                .selected_text(self.disk_name(lang, self.disk))
                .width(320.0)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut choice, None, self.disk_name(lang, None));
                    for i in 0..TABLE_8_2.len() {
                        ui.selectable_value(&mut choice, Some(i), self.disk_name(lang, Some(i)));
                    }
                })
                .response
                .labelled_by(l.id);
            if choice != self.disk {
                self.disk = choice;
                let p = &mut self.planner;
                *p = match choice {
                    None => Planner {
                        raid_n: p.raid_n,
                        l_q: p.l_q,
                        tf: p.tf,
                        t_n: p.t_n,
                        ..Planner::default()
                    },
                    Some(i) => p.with_disk(&TABLE_8_2[i]),
                };
            }
        });
        let p = &mut self.planner;
        let narrow = ui.available_width() < FORM_THREE_COLUMNS;
        egui::Grid::new("perf_planner")
            .num_columns(if narrow { 2 } else { 3 })
            .spacing([8.0, 4.0])
            .show(ui, |ui| {
                let mut ms = p.latency_s * 1000.0;
                let changed = form_row(ui, narrow, lang.t("perf.tp_latency"), "ms", |ui, l| {
                    ui.add(DragValue::new(&mut ms).range(0.0..=1000.0).speed(0.1))
                        .labelled_by(l)
                        .changed()
                });
                if changed {
                    p.latency_s = ms / 1000.0;
                }
                form_row(ui, narrow, "IOPS", lang.t("perf.unit_iops"), |ui, l| {
                    ui.add(DragValue::new(&mut p.iops).range(1.0..=1e7).speed(1.0))
                        .labelled_by(l)
                });
                let mut mb = p.bandwidth_bps / 1e6;
                let bw = lang.t("perf.tp_bandwidth");
                if big_drag(ui, narrow, bw, &mut mb, [0.01, 1e6], "MB/s") {
                    p.bandwidth_bps = mb * 1e6;
                }
                let (label, unit) = (lang.t("perf.tp_raid"), lang.t("perf.unit_disks"));
                form_row(ui, narrow, label, unit, |ui, l| {
                    ui.add(egui::Slider::new(&mut p.raid_n, 1..=16))
                        .labelled_by(l)
                });
                let (label, unit) = (lang.t("perf.tp_lq"), lang.t("perf.unit_terms_q"));
                form_row(ui, narrow, label, unit, |ui, l| {
                    ui.add(egui::Slider::new(&mut p.l_q, 1.0..=20.0).step_by(1.0))
                        .labelled_by(l)
                });
                let mut pct = p.tf * 100.0;
                let changed = form_row(ui, narrow, lang.t("perf.tp_tf"), "", |ui, l| {
                    ui.add(
                        egui::Slider::new(&mut pct, 0.0001..=1.0)
                            .logarithmic(true)
                            .custom_formatter(|v, _| sig(v))
                            .suffix(" %"),
                    )
                    .labelled_by(l)
                    .changed()
                });
                if changed {
                    p.tf = pct / 100.0;
                }
                let mut mb = p.t_n / 1e6;
                let unit = lang.t("perf.unit_tn_mb");
                if big_drag(ui, narrow, lang.t("perf.tp_tn"), &mut mb, [0.0, 1e10], unit) {
                    p.t_n = mb * 1e6;
                }
            });
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("perf.tp_chinese")).clicked() {
                (p.tf, p.l_q, p.t_n) = (BOOK_TF_CHINESE, BOOK_L_Q, 4e8);
            }
            if ui.button(lang.t("perf.tp_english")).clicked() {
                (p.tf, p.l_q, p.t_n) = (BOOK_TF_ENGLISH, BOOK_L_Q, 4e9);
            }
        });
    }

    fn planner_outputs(&mut self, ui: &mut Ui, lang: Lang) {
        ui.label(RichText::new(lang.t("perf.tp_outputs")).strong());
        let r = match self.planner.report() {
            Ok(r) => r,
            Err(e) => {
                ui.colored_label(ui.visuals().error_fg_color, lang.error(&e));
                return;
            }
        };
        egui::Grid::new("perf_planner_out")
            .num_columns(2)
            .spacing([8.0, 4.0])
            .striped(true)
            .show(ui, |ui| {
                let row = |ui: &mut Ui, a: &str, b: String| {
                    ui.label(a);
                    ui.label(RichText::new(b).monospace());
                    ui.end_row();
                };
                row(
                    ui,
                    lang.t("perf.tp_raid_eff"),
                    format!(
                        "{} ms · {} IOPS · {}/s",
                        sig(r.latency_s * 1000.0),
                        sig(r.iops),
                        bytes(r.bandwidth_bps)
                    ),
                );
                row(ui, lang.t("perf.tp_list"), bytes(r.list_bytes));
                row(
                    ui,
                    lang.t("perf.tp_list_s"),
                    format!("{} ms", sig(r.list_s * 1000.0)),
                );
                row(
                    ui,
                    lang.t("perf.tp_m_full"),
                    lang.tf("perf.qps", &[&sig(r.m_full)]),
                );
                row(
                    ui,
                    lang.t("perf.tp_m_simple"),
                    lang.tf("perf.qps", &[&sig(r.m_simplified)]),
                );
                row(ui, lang.t("perf.tp_per_query"), bytes(r.bytes_per_query));
                row(ui, lang.t("perf.tp_tn_max"), bytes(r.t_n_max));
            });
        ui.add_space(4.0);
        ui.label(RichText::new(lang.t("perf.tp_book")).weak());
    }
}

/// The inputs are the book's (k and the index kind aside).
fn is_book(i: &ModelInput) -> bool {
    let b = ModelInput {
        k: i.k,
        full_text: i.full_text,
        ..ModelInput::default()
    };
    *i == b
}

/// The inputs are the book's others with this index's N, M, α and T_N.
fn is_corpus(i: &ModelInput, stats: Option<&CorpusStats>) -> bool {
    stats
        .and_then(|s| i.with_corpus(s).ok())
        .is_some_and(|m| m == *i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_through_the_drag_value_text() {
        for v in [3e7, 5e4, 10.0, 1e10, 0.5, 12345.0, 2e-5, 0.0] {
            let back = parse_num(&num(v)).unwrap();
            assert!(
                (back - v).abs() <= 1e-3 * v.abs(),
                "{v} → {} → {back}",
                num(v)
            );
        }
        assert_eq!(num(3e7), "3e7");
        assert_eq!(parse_num("3×10^7"), Some(3e7));
        assert_eq!(parse_num("30,000,000"), Some(3e7));
        assert_eq!(bytes(2e7), "20.00 MB");
        assert_eq!(bytes(1.9998e7), "20.00 MB");
        assert_eq!(bytes(4e8), "400.0 MB");
        assert_eq!(bytes(5e10), "50.00 GB");
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(sig(0.99980), "0.9998");
        assert_eq!(sig(20.0), "20.00");
    }
}
