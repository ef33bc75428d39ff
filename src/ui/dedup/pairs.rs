//! The clusters tab (each method's clusters by size — the book's mirror degree [L2628–L2640] —
//! and its containments) and the pair view: two documents side by side with the text they
//! share highlighted, the top-N keywords with their weights, the full-stop signatures, the
//! SimHash bits and their XOR, and every method's verdict with its reason beside what the run
//! reported.

use egui::text::{LayoutJob, TextFormat};
use egui_plot::{Bar, BarChart, Plot};

use super::*;
use crate::engine::dedup::Prepared;
use crate::engine::dedup::pair::explain;

/// A pair explained, with both texts.
pub(crate) struct Explained {
    names: (String, String),
    texts: (String, String),
    view: PairView,
}

#[derive(Default)]
pub(crate) struct PairState {
    pub a: String,
    pub b: String,
    task: Option<Task<Result<Explained, String>>>,
    shown: Option<Explained>,
    error: Option<String>,
    /// Explain this pair as soon as the corpus is loaded.
    pending: bool,
}

impl PairState {
    pub(super) fn poll(&mut self) {
        if let Some(r) = Task::take_result(&mut self.task) {
            match r {
                Ok(e) => {
                    self.shown = Some(e);
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
    }

    /// Ask for the pair `a`, `b` (explained once the corpus is there).
    pub(super) fn want(&mut self, a: &str, b: &str) {
        self.a = a.to_string();
        self.b = b.to_string();
        self.pending = true;
    }
}

fn highlighted(ui: &Ui, text: &str, ranges: &[(usize, usize)]) -> LayoutJob {
    let mut job = LayoutJob::default();
    let size = 15.0;
    let plain = TextFormat {
        font_id: egui::FontId::proportional(size),
        color: ui.visuals().text_color(),
        ..Default::default()
    };
    let mark = TextFormat {
        background: if ui.visuals().dark_mode {
            Color32::from_rgb(90, 70, 10)
        } else {
            Color32::from_rgb(255, 236, 150)
        },
        ..plain.clone()
    };
    let mut at = 0;
    for &(lo, hi) in ranges {
        if lo < at || hi > text.len() || !text.is_char_boundary(lo) || !text.is_char_boundary(hi) {
            continue;
        }
        job.append(&text[at..lo], 0.0, plain.clone());
        job.append(&text[lo..hi], 0.0, mark.clone());
        at = hi;
    }
    job.append(&text[at..], 0.0, plain);
    job.wrap.max_width = f32::INFINITY;
    job
}

pub(super) fn bits_row(ui: &mut Ui, label: &str, bits: u64, xor: u64) {
    let mut job = LayoutJob::default();
    let mono = egui::FontId::monospace(13.0);
    for i in 0..64 {
        let bit = (bits >> (63 - i)) & 1;
        let differs = (xor >> (63 - i)) & 1 == 1;
        job.append(
            &format!("{bit}{}", if i % 8 == 7 { " " } else { "" }),
            0.0,
            TextFormat {
                font_id: mono.clone(),
                color: if differs {
                    Color32::from_rgb(210, 50, 50)
                } else {
                    ui.visuals().text_color()
                },
                ..Default::default()
            },
        );
    }
    ui.horizontal(|ui| {
        ui.add_sized(
            [60.0, 18.0],
            egui::Label::new(RichText::new(label).strong()),
        );
        ui.label(job);
    });
}

impl DedupPanel {
    pub(super) fn clusters_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        let Some(c) = &self.compared else {
            ui.label(RichText::new(lang.t("dedup.no_result")).weak());
            return;
        };
        if c.pairs.is_empty() {
            ui.label(RichText::new(lang.t("dedup.no_pairs")).weak());
            return;
        }
        let idx = self.cluster_method.min(c.pairs.len() - 1);
        let mut chosen = idx;
        egui::ComboBox::from_label(lang.t("dedup.method"))
            .selected_text(&c.pairs[idx].method)
            .show_ui(ui, |ui| {
                for (i, m) in c.pairs.iter().enumerate() {
                    ui.selectable_value(&mut chosen, i, &m.method);
                }
            });
        self.cluster_method = chosen;
        let mp = &c.pairs[chosen];
        let mut clusters: Vec<&Vec<String>> = mp.clusters.iter().collect();
        clusters.sort_by_key(|c| std::cmp::Reverse(c.len()));
        // Mirror degree: how many clusters of each size.
        let mut sizes: std::collections::BTreeMap<usize, usize> = Default::default();
        for c in &clusters {
            *sizes.entry(c.len()).or_default() += 1;
        }
        ui.label(lang.tf(
            "dedup.clusters_head",
            &[
                &clusters.len(),
                &mp.pairs.len(),
                &clusters.first().map_or(0, |c| c.len()),
            ],
        ));
        if !sizes.is_empty() {
            let bars: Vec<Bar> = sizes
                .iter()
                .map(|(&s, &n)| Bar::new(s as f64, n as f64).width(0.7))
                .collect();
            Plot::new("dedup_sizes")
                .height(150.0)
                .x_axis_label(lang.t("dedup.axis_size"))
                .y_axis_label(lang.t("dedup.axis_clusters"))
                .include_y(0.0)
                .show(ui, |pl| {
                    pl.bar_chart(BarChart::new(lang.t("dedup.axis_clusters"), bars))
                });
        }
        let mut want = None;
        egui::ScrollArea::vertical()
            .id_salt("dedup_clusters")
            .max_height(300.0)
            .show(ui, |ui| {
                for (i, cl) in clusters.iter().take(300).enumerate() {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(RichText::new(format!("#{} ({})", i + 1, cl.len())).strong());
                        if cl.len() >= 2 && ui.small_button(lang.t("dedup.open_pair")).clicked() {
                            want = Some((cl[0].clone(), cl[1].clone()));
                        }
                        let shown: Vec<&str> = cl.iter().take(8).map(String::as_str).collect();
                        let more = cl.len().saturating_sub(8);
                        let tail = if more > 0 {
                            format!(" … +{more}")
                        } else {
                            String::new()
                        };
                        ui.label(format!("{}{tail}", shown.join(" · ")));
                    });
                }
                let contains: Vec<_> = mp
                    .pairs
                    .iter()
                    .filter(|p| p.2 == crate::engine::dedup::Relation::Contains)
                    .collect();
                if !contains.is_empty() {
                    ui.label(
                        RichText::new(lang.tf("dedup.contains_head", &[&contains.len()])).strong(),
                    );
                    for p in contains.iter().take(300) {
                        ui.horizontal_wrapped(|ui| {
                            if ui.small_button(lang.t("dedup.open_pair")).clicked() {
                                want = Some((p.0.clone(), p.1.clone()));
                            }
                            ui.label(format!("{} ⊃ {}  ({:.3})", p.0, p.1, p.3));
                        });
                    }
                }
            });
        if let Some((a, b)) = want {
            self.pair.want(&a, &b);
            self.tab = Tab::Pair;
        }
    }

    pub(super) fn pair_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        if self.compared.is_none() {
            ui.label(RichText::new(lang.t("dedup.no_result")).weak());
            return;
        }
        let corpus = self.corpus(cx, ui.ctx());
        let mut go = false;
        ui.horizontal_wrapped(|ui| {
            let l = ui.label("A");
            ui.add(egui::TextEdit::singleline(&mut self.pair.a).desired_width(220.0))
                .labelled_by(l.id);
            let l = ui.label("B");
            ui.add(egui::TextEdit::singleline(&mut self.pair.b).desired_width(220.0))
                .labelled_by(l.id);
            go = ui.button(lang.t("dedup.explain")).clicked();
            if self.pair.task.is_some() || (corpus.is_none() && self.pair.pending) {
                ui.spinner();
            }
        });
        ui.label(RichText::new(lang.t("dedup.pair_hint")).weak());
        let Some(corpus) = corpus else {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(lang.t("dedup.loading_corpus"));
            });
            return;
        };
        if (go || self.pair.pending) && self.pair.task.is_none() {
            self.pair.pending = false;
            let find = |n: &str| corpus.docs.iter().position(|d| d.name == n.trim());
            match (find(&self.pair.a), find(&self.pair.b)) {
                (Some(a), Some(b)) if a != b => {
                    let cfg = self
                        .compared
                        .as_ref()
                        .map(|c| c.config.clone())
                        .unwrap_or_default();
                    let corpus = corpus.clone();
                    self.pair.task = Some(Task::spawn(ui.ctx(), move || {
                        let prep = Prepared::new(&corpus.docs, &cfg);
                        let view = explain(&prep, a, b);
                        let (da, db) = (&corpus.docs[a], &corpus.docs[b]);
                        Ok(Explained {
                            names: (da.name.clone(), db.name.clone()),
                            texts: (da.text(), db.text()),
                            view,
                        })
                    }));
                }
                _ => self.pair.error = Some(lang.t("dedup.pair_unknown").into()),
            }
        }
        if let Some(e) = &self.pair.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        let Some(ex) = &self.pair.shown else { return };
        self.pair_view_ui(lang, ui, ex);
    }

    fn pair_view_ui(&self, lang: Lang, ui: &mut Ui, ex: &Explained) {
        let v = &ex.view;
        ui.add_space(4.0);
        ui.columns(2, |cols| {
            for (i, col) in cols.iter_mut().enumerate() {
                let (name, text, ranges) = if i == 0 {
                    (&ex.names.0, &ex.texts.0, &v.shared_a)
                } else {
                    (&ex.names.1, &ex.texts.1, &v.shared_b)
                };
                col.label(
                    RichText::new(format!("{} {name}", if i == 0 { "A" } else { "B" })).strong(),
                );
                egui::ScrollArea::vertical()
                    .id_salt(format!("dedup_text_{i}"))
                    .max_height(240.0)
                    .show(col, |ui| {
                        let job = highlighted(ui, text, ranges);
                        ui.add(egui::Label::new(job).wrap());
                    });
            }
        });
        ui.label(RichText::new(lang.t("dedup.shared_note")).weak());
        // Verdicts.
        ui.label(RichText::new(lang.t("dedup.verdicts")).size(16.0).strong());
        let run_pairs = self.compared.as_ref().map(|c| &c.pairs);
        let reported = |m: &str| -> Option<bool> {
            let mp = run_pairs?.iter().find(|x| x.method == m)?;
            let (a, b) = (&ex.names.0, &ex.names.1);
            Some(
                mp.pairs
                    .iter()
                    .any(|p| (&p.0 == a && &p.1 == b) || (&p.0 == b && &p.1 == a)),
            )
        };
        egui::Grid::new("dedup_verdicts")
            .striped(true)
            .show(ui, |ui| {
                for h in [
                    "dedup.col_method",
                    "dedup.col_rule",
                    "dedup.col_relation",
                    "dedup.col_measure",
                    "dedup.col_run",
                    "dedup.col_reason",
                ] {
                    ui.label(RichText::new(lang.t(h)).strong());
                }
                ui.end_row();
                for x in &v.verdicts {
                    ui.label(&x.method);
                    ui.label(yes_no(ui, x.same));
                    ui.label(x.relation.map_or("—", |r| r.name()));
                    ui.label(format!("{:.4}", x.measure));
                    match reported(&x.method) {
                        Some(r) => ui.label(yes_no(ui, r)),
                        None => ui.label("—"),
                    };
                    ui.label(reason_text(lang, &x.reason));
                    ui.end_row();
                }
            });
        ui.label(RichText::new(lang.t("dedup.verdict_note")).weak());
        // Keywords.
        ui.add_space(4.0);
        ui.label(RichText::new(lang.t("dedup.keywords")).size(16.0).strong());
        egui::Grid::new("dedup_kw").striped(true).show(ui, |ui| {
            for h in ["dedup.col_word", "dedup.col_in_a", "dedup.col_in_b"] {
                ui.label(RichText::new(lang.t(h)).strong());
            }
            ui.end_row();
            let cell = |x: Option<(usize, f64)>| {
                x.map_or("—".to_string(), |(r, w)| format!("#{r} · {w:.3}"))
            };
            for k in &v.keywords {
                let both = k.a.is_some() && k.b.is_some();
                let w = RichText::new(&k.word);
                ui.label(if both {
                    w.strong().color(Color32::from_rgb(40, 150, 60))
                } else {
                    w
                });
                ui.label(cell(k.a));
                ui.label(cell(k.b));
                ui.end_row();
            }
        });
        // Full stops and shingles.
        ui.add_space(4.0);
        ui.label(
            RichText::new(lang.tf(
                "dedup.stops_head",
                &[&v.stops_a.len(), &v.stops_b.len(), &v.stops_shared.len()],
            ))
            .size(16.0)
            .strong(),
        );
        ui.label(
            v.stops_shared
                .iter()
                .map(|s| format!("「{s}。」"))
                .collect::<Vec<_>>()
                .join(" "),
        );
        ui.label(
            RichText::new(lang.tf(
                "dedup.shingles_head",
                &[&v.shingles.0, &v.shingles.1, &v.shared_shingles.len()],
            ))
            .size(16.0)
            .strong(),
        );
        ui.label(
            v.shared_shingles
                .iter()
                .take(80)
                .cloned()
                .collect::<Vec<_>>()
                .join(" · "),
        );
        // SimHash bits.
        ui.add_space(4.0);
        ui.label(
            RichText::new(lang.tf("dedup.bits_head", &[&v.simhash.hamming]))
                .size(16.0)
                .strong(),
        );
        bits_row(ui, "A", v.simhash.a, v.simhash.xor);
        bits_row(ui, "B", v.simhash.b, v.simhash.xor);
        bits_row(ui, "A ⊕ B", v.simhash.xor, v.simhash.xor);
    }
}

/// A pair verdict's reason in the UI's language.
pub(super) fn reason_text(lang: Lang, r: &crate::engine::dedup::pair::Reason) -> String {
    let key = format!("dwhy.{}", r.key);
    let t = lang.t_dyn(&key);
    match t {
        Some(t) => {
            let mut s = t.to_string();
            for (i, a) in r.args.iter().enumerate() {
                s = s.replace(&format!("{{{i}}}"), a);
            }
            s
        }
        None => r.english(),
    }
}
