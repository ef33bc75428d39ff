//! The clusters tab (each method's clusters by size — the book's mirror degree [L2628–L2640] —
//! and its containments) and the pair view: two documents side by side with the text they
//! share highlighted, the top-N keywords with their weights, the full-stop signatures, the
//! SimHash bits and their XOR, and every method's verdict with its reason beside what the run
//! reported.

use egui::text::{LayoutJob, TextFormat};
use egui_plot::{Bar, BarChart, Plot};

use super::*;
use crate::engine::dedup::pair::explain;
use crate::engine::dedup::{Prepared, Relation};
use crate::ui::memo::Memo;

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
    /// Grows by one each time a pair is explained.
    shown_seq: u64,
    /// The two texts with the shared passages marked, by (pair, theme).
    texts: Memo<(u64, bool, Color32), [LayoutJob; 2]>,
    /// Whether the run reported the pair, per verdict, by (comparison, pair).
    reported: Memo<(u64, u64), Vec<Option<bool>>>,
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
                    self.shown_seq += 1;
                    self.error = None;
                }
                Err(e) => self.error = Some(e),
            }
        }
    }
}

/// One method's clusters as the clusters tab draws them, computed when the comparison or the
/// method changes (never per frame).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClusterView {
    /// Indices into the method's clusters, largest first (equal sizes in run order).
    order: Vec<usize>,
    /// (cluster size, how many clusters have it), smallest size first: the mirror degree.
    sizes: Vec<(usize, usize)>,
    /// Indices into the method's pairs that are containments.
    contains: Vec<usize>,
}

impl ClusterView {
    fn of(mp: &MethodPairs) -> ClusterView {
        let mut order: Vec<usize> = (0..mp.clusters.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(mp.clusters[i].len()));
        let mut sizes: std::collections::BTreeMap<usize, usize> = Default::default();
        for c in &mp.clusters {
            *sizes.entry(c.len()).or_default() += 1;
        }
        let contains = (0..mp.pairs.len())
            .filter(|&i| mp.pairs[i].2 == Relation::Contains)
            .collect();
        ClusterView {
            order,
            sizes: sizes.into_iter().collect(),
            contains,
        }
    }
}

/// For each verdict of the pair view: did the run's method report this pair (`None`: the run
/// did not use that method)?
fn reported_by_run(run: Option<&Vec<MethodPairs>>, ex: &Explained) -> Vec<Option<bool>> {
    let (a, b) = (&ex.names.0, &ex.names.1);
    ex.view
        .verdicts
        .iter()
        .map(|x| {
            let mp = run?.iter().find(|m| m.method == x.method)?;
            Some(
                mp.pairs
                    .iter()
                    .any(|p| (&p.0 == a && &p.1 == b) || (&p.0 == b && &p.1 == a)),
            )
        })
        .collect()
}

impl PairState {
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
    let mono = egui::FontId::monospace(13.0);
    let text = ui.visuals().text_color();
    // The 64 bits in bytes; in two lines of four bytes where one line does not fit beside the
    // label (200 % zoom).
    let job = |split: bool| {
        let mut job = LayoutJob::default();
        for i in 0..64 {
            let bit = (bits >> (63 - i)) & 1;
            let differs = (xor >> (63 - i)) & 1 == 1;
            let sep = match i {
                31 if split => "\n",
                _ if i % 8 == 7 => " ",
                _ => "",
            };
            job.append(
                &format!("{bit}{sep}"),
                0.0,
                TextFormat {
                    font_id: mono.clone(),
                    color: if differs {
                        Color32::from_rgb(210, 50, 50)
                    } else {
                        text
                    },
                    ..Default::default()
                },
            );
        }
        job
    };
    let (label_w, gap) = (60.0, ui.spacing().item_spacing.x);
    let one_line = ui.painter().layout_job(job(false));
    let split = one_line.size().x > ui.available_width() - label_w - gap;
    ui.horizontal(|ui| {
        ui.add_sized(
            [label_w, 18.0],
            egui::Label::new(RichText::new(label).strong()),
        );
        if split {
            ui.label(job(true));
        } else {
            ui.label(one_line);
        }
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
        ui.horizontal(|ui| {
            let l = ui.label(lang.t("dedup.method"));
            egui::ComboBox::from_id_salt("dedup_cluster_method")
                .selected_text(&c.pairs[idx].method)
                .show_ui(ui, |ui| {
                    for (i, m) in c.pairs.iter().enumerate() {
                        ui.selectable_value(&mut chosen, i, &m.method);
                    }
                })
                .response
                .labelled_by(l.id);
        });
        self.cluster_method = chosen;
        let mp = &c.pairs[chosen];
        let view = self
            .clusters
            .get((self.compared_seq, chosen), |_| ClusterView::of(mp));
        let clusters = || view.order.iter().map(|&i| &mp.clusters[i]);
        ui.label(lang.tf(
            "dedup.clusters_head",
            &[
                &view.order.len(),
                &mp.pairs.len(),
                &clusters().next().map_or(0, |c| c.len()),
            ],
        ));
        if !view.sizes.is_empty() {
            let bars: Vec<Bar> = view
                .sizes
                .iter()
                .map(|&(s, n)| Bar::new(s as f64, n as f64).width(0.7))
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
                for (i, cl) in clusters().take(300).enumerate() {
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
                if !view.contains.is_empty() {
                    let n = view.contains.len();
                    ui.label(RichText::new(lang.tf("dedup.contains_head", &[&n])).strong());
                    for p in view.contains.iter().take(300).map(|&i| &mp.pairs[i]) {
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
        let p = &mut self.pair;
        let Some(ex) = &p.shown else { return };
        let theme = (ui.visuals().dark_mode, ui.visuals().text_color());
        let texts = p.texts.get((p.shown_seq, theme.0, theme.1), |_| {
            [
                highlighted(ui, &ex.texts.0, &ex.view.shared_a),
                highlighted(ui, &ex.texts.1, &ex.view.shared_b),
            ]
        });
        let run = self.compared.as_ref().map(|c| &c.pairs);
        let reported = p.reported.get((self.compared_seq, p.shown_seq), |_| {
            reported_by_run(run, ex)
        });
        pair_view_ui(lang, ui, ex, texts, reported);
    }
}

/// The explained pair: both texts, every method's verdict, keywords, full stops, shingles and
/// SimHash bits. `texts` and `reported` are computed once per pair.
fn pair_view_ui(
    lang: Lang,
    ui: &mut Ui,
    ex: &Explained,
    texts: &[LayoutJob; 2],
    reported: &[Option<bool>],
) {
    let v = &ex.view;
    ui.add_space(4.0);
    ui.columns(2, |cols| {
        for (i, col) in cols.iter_mut().enumerate() {
            let name = if i == 0 { &ex.names.0 } else { &ex.names.1 };
            col.label(RichText::new(format!("{} {name}", if i == 0 { "A" } else { "B" })).strong());
            egui::ScrollArea::vertical()
                .id_salt(format!("dedup_text_{i}"))
                .max_height(240.0)
                .show(col, |ui| {
                    ui.add(egui::Label::new(texts[i].clone()).wrap());
                });
        }
    });
    ui.label(RichText::new(lang.t("dedup.shared_note")).weak());
    // Verdicts.
    ui.label(RichText::new(lang.t("dedup.verdicts")).size(16.0).strong());
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
            for (x, run) in v.verdicts.iter().zip(reported) {
                ui.label(&x.method);
                ui.label(yes_no(ui, x.same));
                ui.label(x.relation.map_or("—", |r| r.name()));
                ui.label(format!("{:.4}", x.measure));
                match *run {
                    Some(r) => ui.label(yes_no(ui, r)),
                    None => ui.label("—"),
                };
                ui.label(reason_text(lang, &x.reason));
                ui.end_row();
            }
        });
    ui.label(RichText::new(lang.t("dedup.verdict_note")).weak());
    ignored_ui(lang, ui, v);
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

/// What best and CCDet ignored in each document as boilerplate, and why.
fn ignored_ui(lang: Lang, ui: &mut Ui, v: &PairView) {
    ui.add_space(4.0);
    if v.ignored_a.is_empty() && v.ignored_b.is_empty() {
        ui.label(RichText::new(lang.t("dedup.ignored_none")).weak());
        return;
    }
    ui.label(
        RichText::new(lang.tf(
            "dedup.ignored_head",
            &[&v.ignored_a.len(), &v.ignored_b.len()],
        ))
        .size(16.0)
        .strong(),
    );
    egui::Grid::new("dedup_ignored")
        .striped(true)
        .show(ui, |ui| {
            for (side, list) in [("A", &v.ignored_a), ("B", &v.ignored_b)] {
                for x in list.iter().take(40) {
                    ui.label(RichText::new(side).strong());
                    ui.label(RichText::new(&x.text).strikethrough());
                    ui.label(reason_text(lang, &x.reason));
                    ui.end_row();
                }
            }
        });
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

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;
    use crate::ui::panel::Hub;

    fn method(name: &str, clusters: &[&[&str]], contains: usize) -> MethodPairs {
        let mut pairs: Vec<(String, String, Relation, f64)> = clusters
            .iter()
            .flat_map(|c| c.windows(2))
            .map(|w| (w[0].to_string(), w[1].to_string(), Relation::Near, 0.9))
            .collect();
        for i in 0..contains {
            pairs.push((
                format!("big{i}"),
                format!("part{i}"),
                Relation::Contains,
                0.5,
            ));
        }
        MethodPairs {
            method: name.into(),
            pairs,
            clusters: clusters
                .iter()
                .map(|c| c.iter().map(|s| s.to_string()).collect())
                .collect(),
        }
    }

    /// A panel showing a comparison of two methods.
    fn panel() -> DedupPanel {
        DedupPanel {
            compared: Some(Compared {
                source: Source::Sample { clean: true },
                config: Config::default(),
                docs: 12,
                rows: Vec::new(),
                overlap: Vec::new(),
                pairs: vec![
                    method("md5", &[&["a", "b"], &["c", "d", "e"], &["f", "g"]], 2),
                    method("simhash", &[&["a", "b", "c", "d"]], 0),
                ],
                has_truth: false,
            }),
            compared_seq: 1,
            ..DedupPanel::default()
        }
    }

    type State = (DedupPanel, Hub);

    fn harness() -> Harness<'static, State> {
        Harness::builder()
            .with_size([900.0, 900.0])
            .with_context_setup(crate::ui::fonts::install_bundled)
            .build_ui_state(
                |ui, (p, hub): &mut State| {
                    let mut cx = Cx::new(Lang::En, None, false, &[], hub);
                    p.clusters_ui(&mut cx, ui);
                },
                (panel(), Hub::default()),
            )
    }

    #[test]
    fn the_cluster_view_is_built_once_per_comparison_and_method_not_per_frame() {
        let mut h = harness();
        h.run_steps(6);
        assert_eq!(h.state().0.clusters.builds(), 1, "six frames, one build");
        // Largest first, the sizes counted, the containments found: what the tab shows.
        let md5 = &h.state().0.compared.as_ref().unwrap().pairs[0];
        let want = ClusterView {
            order: vec![1, 0, 2],
            sizes: vec![(2, 2), (3, 1)],
            contains: vec![4, 5],
        };
        assert_eq!(ClusterView::of(md5), want);
        h.get_by_label(
            "3 clusters, 6 compared pairs; the largest has 3 documents (the book's mirror degree). Clusters are the transitive closure of the near pairs: two members need not have been compared",
        );
        h.get_by_label("#1 (3)");
        h.get_by_label("Containment (partial reprints): 2 pairs");
        // Another method: one rebuild, then none while the frames go on.
        h.state_mut().0.cluster_method = 1;
        h.run_steps(6);
        assert_eq!(h.state().0.clusters.builds(), 2);
        h.get_by_label(
            "1 clusters, 3 compared pairs; the largest has 4 documents (the book's mirror degree). Clusters are the transitive closure of the near pairs: two members need not have been compared",
        );
        // A new comparison (same method): rebuilt once.
        h.state_mut().0.compared_seq += 1;
        h.run_steps(6);
        assert_eq!(h.state().0.clusters.builds(), 3);
    }
}
