//! Teaching steppers. **SimHash** (seed 004 [004:L16–L58]): a text and an edited copy, every
//! weighted term with its 64-bit hash, the per-bit sums as a bar chart, the two fingerprints
//! with their XOR — edit a word and watch bits flip. **Hash collisions** (seed 002
//! [002:L91–L113], digest D-8): the eight string hashes into B buckets over random trials,
//! the observed collisions beside the expectation `k − B(1 − (1 − 1/B)^k)` and the seed's table,
//! which shows the table measured bucket collisions, not a better hash.

use egui_plot::{Bar, BarChart, HLine, Legend, Plot, Points};

use super::*;
use crate::engine::dedup::pair::{SimStep, simhash_step};
use crate::engine::dedup::strhash::{CollisionRow, collision_bench, expected_collisions};
use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries, Table};
use crate::ui::export::{plot_buttons, table_button};

const TEXT_A: &str = "北京大学网络实验室开发的天网搜索引擎今天发布了新版本。新版本改进了网页搜集系统，每天可以抓取更多网页。研究人员表示，下一步将改进中文分词和网页消重。";
const TEXT_B: &str = "北京大学网络实验室开发的天网搜索引擎今天发布了新版本。新版本改进了网页搜集系统，每天能够抓取更多网页。研究人员指出，下一步将改进中文分词和网页消重。";

pub(crate) struct TeachState {
    pub text_a: String,
    pub text_b: String,
    step: Option<SimStep>,
    step_task: Option<Task<SimStep>>,
    stepped: (String, String),
    pub keys: usize,
    pub buckets: u32,
    pub trials: usize,
    pub seed: u64,
    bench_task: Option<Task<Vec<CollisionRow>>>,
    rows: Vec<CollisionRow>,
    bench_for: (usize, u32),
}

impl Default for TeachState {
    fn default() -> Self {
        TeachState {
            text_a: TEXT_A.into(),
            text_b: TEXT_B.into(),
            step: None,
            step_task: None,
            stepped: (String::new(), String::new()),
            // 1,000 documents with 419 duplicates leave 581 distinct strings (digest D-8).
            keys: 581,
            buckets: 1000,
            trials: 50,
            seed: 1,
            bench_task: None,
            rows: Vec::new(),
            bench_for: (0, 0),
        }
    }
}

impl TeachState {
    pub(super) fn poll(&mut self) {
        if let Some(r) = Task::take_finished(&mut self.step_task)
            && let Ok(s) = r
        {
            self.step = Some(s);
        }
        if let Some(r) = Task::take_finished(&mut self.bench_task)
            && let Ok(rows) = r
        {
            self.rows = rows;
        }
    }

    pub(super) fn start_bench(&mut self, ctx: &egui::Context) {
        if self.bench_task.is_some() {
            return;
        }
        let (k, b, t, s) = (self.keys, self.buckets, self.trials, self.seed);
        self.bench_for = (k, b);
        self.bench_task = Some(Task::spawn(ctx, move || collision_bench(k, b, t, s)));
    }
}

impl DedupPanel {
    pub(super) fn simhash_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        let t = &mut self.teach;
        ui.label(RichText::new(lang.t("dedup.sim_intro")).weak());
        ui.columns(2, |cols| {
            let l = cols[0].label(RichText::new(lang.t("dedup.sim_a")).strong());
            cols[0]
                .add(
                    egui::TextEdit::multiline(&mut t.text_a)
                        .desired_rows(4)
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(l.id);
            let l = cols[1].label(RichText::new(lang.t("dedup.sim_b")).strong());
            cols[1]
                .add(
                    egui::TextEdit::multiline(&mut t.text_b)
                        .desired_rows(4)
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(l.id);
        });
        let inputs = (t.text_a.clone(), t.text_b.clone());
        if t.step_task.is_none() && t.stepped != inputs {
            t.stepped = inputs.clone();
            let cfg = Config::default();
            t.step_task = Some(Task::spawn(ui.ctx(), move || {
                simhash_step(&inputs.0, &inputs.1, &cfg)
            }));
        }
        let Some(s) = &t.step else {
            ui.spinner();
            return;
        };
        let k = Config::default().simhash_k;
        let verdict = if s.bits.hamming <= k {
            "dedup.sim_same"
        } else {
            "dedup.sim_diff"
        };
        ui.label(
            RichText::new(lang.tf(verdict, &[&s.bits.hamming, &k]))
                .size(17.0)
                .strong(),
        );
        super::pairs::bits_row(ui, "A", s.bits.a, s.bits.xor);
        super::pairs::bits_row(ui, "B", s.bits.b, s.bits.xor);
        super::pairs::bits_row(ui, "A ⊕ B", s.bits.xor, s.bits.xor);
        if !s.flipped.is_empty() {
            let list: Vec<String> = s.flipped.iter().map(|b| b.to_string()).collect();
            ui.label(lang.tf("dedup.sim_flipped", &[&list.join(", ")]));
        }
        // Per-bit sums: a bar per bit, A left of B.
        let bars = |sums: &[f64], dx: f64, rgb: (u8, u8, u8)| -> Vec<Bar> {
            sums.iter()
                .enumerate()
                .map(|(i, &v)| {
                    Bar::new(i as f64 + dx, v)
                        .width(0.4)
                        .fill(Color32::from_rgb(rgb.0, rgb.1, rgb.2))
                })
                .collect()
        };
        let (sa, sb) = (s.bits.sums_a.clone(), s.bits.sums_b.clone());
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.t("dedup.sim_sums")).strong());
            let title = lang.t("dedup.sim_sums");
            let (x, y) = (lang.t("dedup.axis_bit"), lang.t("dedup.axis_sum"));
            let (a, b) = (sa.clone(), sb.clone());
            plot_buttons(ui, lang, &mut cx.hub.exports, move || {
                let pts = |v: &[f64]| {
                    v.iter()
                        .enumerate()
                        .map(|(i, &s)| [i as f64, s])
                        .collect::<Vec<_>>()
                };
                XPlot::new(title, x, y)
                    .series(XSeries::bars("A", pts(&a)))
                    .series(XSeries::bars("B", pts(&b)))
            });
        });
        Plot::new("dedup_sim_sums")
            .height(220.0)
            .legend(Legend::default())
            .x_axis_label(lang.t("dedup.axis_bit"))
            .y_axis_label(lang.t("dedup.axis_sum"))
            .show(ui, |pl| {
                pl.bar_chart(BarChart::new("A", bars(&sa, -0.2, (70, 120, 200))));
                pl.bar_chart(BarChart::new("B", bars(&sb, 0.2, (230, 140, 40))));
                pl.hline(HLine::new("0", 0.0));
            });
        ui.label(RichText::new(lang.t("dedup.sim_sums_note")).weak());
        // The heaviest features of each text, side by side or, where the panel is narrow,
        // one above the other.
        let narrow = crate::ui::wrap::is_narrow(ui);
        let features = |ui: &mut Ui, i: usize| {
            let f = if i == 0 { &s.features_a } else { &s.features_b };
            ui.label(RichText::new(lang.tf("dedup.sim_features", &[&f.len()])).strong());
            egui::Grid::new(format!("dedup_sim_f{i}"))
                .striped(true)
                .show(ui, |ui| {
                    for (w, x, h) in f.iter().take(12) {
                        ui.label(w);
                        ui.label(format!("{x:.3}"));
                        ui.label(RichText::new(format!("{:016x}", h)).monospace());
                        ui.end_row();
                    }
                });
        };
        let a = |ui: &mut Ui, _: &mut ()| {
            features(ui, 0);
            if narrow {
                ui.add_space(6.0);
            }
        };
        crate::ui::wrap::two_up(ui, &mut (), a, |ui, _| features(ui, 1));
    }

    pub(super) fn hashes_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("dedup.hash_intro")).weak());
        let t = &mut self.teach;
        let mut run = false;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label(lang.t("dedup.hash_keys"));
            ui.add(egui::DragValue::new(&mut t.keys).range(10..=100_000))
                .labelled_by(l.id);
            let l = ui.label(lang.t("dedup.hash_buckets"));
            ui.add(egui::DragValue::new(&mut t.buckets).range(0..=10_000_000))
                .labelled_by(l.id);
            let l = ui.label(lang.t("dedup.hash_trials"));
            ui.add(egui::DragValue::new(&mut t.trials).range(1..=1000))
                .labelled_by(l.id);
            let l = ui.label(lang.t("dedup.hash_seed"));
            ui.add(egui::DragValue::new(&mut t.seed)).labelled_by(l.id);
            run = ui
                .add_enabled(
                    t.bench_task.is_none(),
                    egui::Button::new(lang.t("dedup.hash_run")),
                )
                .clicked();
            if t.bench_task.is_some() {
                ui.spinner();
            }
        });
        if run {
            t.start_bench(ui.ctx());
        }
        ui.label(lang.tf(
            "dedup.hash_expected",
            &[
                &format!("{:.1}", expected_collisions(t.keys, t.buckets)),
                &t.keys,
                &t.buckets,
            ],
        ));
        if t.rows.is_empty() {
            return;
        }
        let headers = [
            lang.t("dedup.col_hash"),
            lang.t("dedup.col_observed"),
            lang.t("dedup.col_range"),
            lang.t("dedup.col_expected"),
            lang.t("dedup.col_seed_extra"),
        ];
        let rows: Vec<Vec<String>> = t
            .rows
            .iter()
            .map(|r| {
                vec![
                    hash_name(&r.hash),
                    format!("{:.1}", r.observed),
                    format!("{}–{}", r.min, r.max),
                    format!("{:.1}", r.expected),
                    r.seed_extra.to_string(),
                ]
            })
            .collect();
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(lang.tf("dedup.hash_table", &[&t.bench_for.0, &t.bench_for.1]))
                    .strong(),
            );
            table_button(ui, lang, &mut cx.hub.exports, || {
                Table::new(lang.t("dedup.tab_hashes"), headers).with_rows(rows.clone())
            });
        });
        super::table::simple_grid(ui, "dedup_hash_rows", &headers, &rows);
        let obs: Vec<[f64; 2]> = t
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| [i as f64, r.observed])
            .collect();
        let seed: Vec<[f64; 2]> = t
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| [i as f64, f64::from(r.seed_extra)])
            .collect();
        let expected = t.rows.first().map_or(0.0, |r| r.expected);
        let names: Vec<String> = t.rows.iter().map(|r| hash_name(&r.hash)).collect();
        // Headroom above the tallest mark for the legend.
        let top = obs
            .iter()
            .chain(&seed)
            .map(|p| p[1])
            .fold(expected, f64::max)
            * 1.9;
        ui.horizontal(|ui| {
            let title = lang.t("dedup.hash_plot");
            ui.label(RichText::new(title).strong());
            let (x, y) = (lang.t("dedup.axis_hash"), lang.t("dedup.axis_collisions"));
            let (o, s2) = (obs.clone(), seed.clone());
            let (lo, ls, le) = (
                lang.t("dedup.col_observed"),
                lang.t("dedup.col_seed_extra"),
                lang.t("dedup.col_expected"),
            );
            plot_buttons(ui, lang, &mut cx.hub.exports, move || {
                let mut p = XPlot::new(title, x, y)
                    .series(XSeries::bars(lo, o.clone()))
                    .series(XSeries::points(ls, s2.clone()));
                p.marks = vec![Mark::HLine {
                    y: expected,
                    label: le.into(),
                }];
                p
            });
        });
        Plot::new("dedup_hash_plot")
            .height(220.0)
            .legend(Legend::default())
            .x_axis_label(lang.t("dedup.axis_hash"))
            .y_axis_label(lang.t("dedup.axis_collisions"))
            .include_y(0.0)
            .include_y(top)
            .x_axis_formatter(move |m, _| {
                let i = m.value.round();
                if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .show(ui, |pl| {
                let bars: Vec<Bar> = obs
                    .iter()
                    .map(|p| Bar::new(p[0], p[1]).width(0.6))
                    .collect();
                pl.bar_chart(BarChart::new(lang.t("dedup.col_observed"), bars));
                pl.points(Points::new(lang.t("dedup.col_seed_extra"), seed.clone()).radius(5.0));
                pl.hline(HLine::new(lang.t("dedup.col_expected"), expected));
            });
        ui.label(RichText::new(lang.t("dedup.hash_note")).weak());
    }
}

/// The seed's spelling: `ap` → `APhash`.
fn hash_name(h: &str) -> String {
    format!("{}hash", h.to_uppercase())
}
