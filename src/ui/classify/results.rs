//! The classifier panel's results: cards, per-class bars, the confusion heat map with the
//! documents of a cell and the features that decided, and the teaching view of one document.

use super::*;

impl ClassifyPanel {
    pub(super) fn results_ui(&mut self, lang: Lang, ui: &mut Ui, ex: &mut Exports) {
        let Some(t) = &self.trained else {
            ui.label(RichText::new(lang.t("classify.no_result")).weak());
            return;
        };
        let r = &t.out.result;
        ui.label(
            RichText::new(lang.tf(
                "classify.result_heading",
                &[
                    &r.model,
                    &r.train_docs,
                    &r.test_docs,
                    &r.features_kept,
                    &r.features_total,
                ],
            ))
            .size(17.0)
            .strong(),
        );
        ui.horizontal_wrapped(|ui| {
            card(ui, lang.t("classify.accuracy"), r.accuracy);
            card(ui, lang.t("classify.micro_f1"), r.micro_f1);
            card(ui, lang.t("classify.macro_f1"), r.macro_f1);
            ui.label(
                RichText::new(lang.tf(
                    "classify.times",
                    &[
                        &format!("{:.2}", r.tokenize_s),
                        &format!("{:.2}", r.train_s),
                        &format!("{:.2}", r.test_s),
                    ],
                ))
                .weak(),
            );
        });
        if let Some(id) = t.out.model_id {
            ui.label(lang.tf("classify.saved", &[&id]));
        }
        // per-class bars
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.t("classify.per_class")).strong());
            let per = r.per_class.clone();
            table_button(ui, lang, ex, || {
                Table::new(
                    lang.t("classify.per_class"),
                    [
                        lang.t("classify.col_class"),
                        "P",
                        "R",
                        "F1",
                        lang.t("classify.col_support"),
                    ],
                )
                .with_rows(per.iter().map(|c| {
                    vec![
                        c.label.clone(),
                        format!("{:.4}", c.p),
                        format!("{:.4}", c.r),
                        format!("{:.4}", c.f1),
                        c.support.to_string(),
                    ]
                }))
            });
        });
        egui::Grid::new("cl_per_class")
            .num_columns(5)
            .show(ui, |ui| {
                for c in &r.per_class {
                    ui.label(&c.label);
                    for (name, v) in [("P", c.p), ("R", c.r), ("F1", c.f1)] {
                        ui.add(
                            egui::ProgressBar::new(v as f32)
                                .desired_width(120.0)
                                .text(format!("{name} {v:.3}")),
                        );
                    }
                    ui.label(c.support.to_string());
                    ui.end_row();
                }
            });
        // confusion heat map
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(lang.t("classify.confusion"))
                    .size(17.0)
                    .strong(),
            );
            let (labels, conf) = (r.labels.clone(), r.confusion.clone());
            table_button(ui, lang, ex, || {
                let mut h = vec![lang.t("classify.truth_pred").to_string()];
                h.extend(labels.iter().cloned());
                Table::new(lang.t("classify.confusion"), h).with_rows(conf.iter().enumerate().map(
                    |(i, row)| {
                        let mut v = vec![labels.get(i).cloned().unwrap_or_default()];
                        v.extend(row.iter().map(u64::to_string));
                        v
                    },
                ))
            });
            if ui.button(lang.t("classify.worst_cell")).clicked() {
                let mut best = None;
                for (i, row) in r.confusion.iter().enumerate() {
                    for (j, &n) in row.iter().enumerate() {
                        if i != j && n > 0 && best.is_none_or(|(_, _, m)| n > m) {
                            best = Some((i, j, n));
                        }
                    }
                }
                self.cell = best.map(|(i, j, _)| (i, j));
                self.doc = None;
            }
        });
        ui.label(RichText::new(lang.t("classify.confusion_hint")).weak());
        let max = r
            .confusion
            .iter()
            .flatten()
            .copied()
            .max()
            .unwrap_or(1)
            .max(1);
        let dark = ui.visuals().dark_mode;
        let mut clicked = None;
        egui::Grid::new("cl_confusion")
            .spacing([2.0, 2.0])
            .show(ui, |ui| {
                ui.label(RichText::new(lang.t("classify.truth_pred")).small());
                for l in &r.labels {
                    ui.label(RichText::new(short(l)).small());
                }
                ui.end_row();
                for (i, row) in r.confusion.iter().enumerate() {
                    ui.label(r.labels.get(i).map(String::as_str).unwrap_or(""));
                    for (j, &n) in row.iter().enumerate() {
                        let a = n as f32 / max as f32;
                        let fill = heat(a, i == j, dark);
                        let text_col = if a > 0.55 {
                            Color32::WHITE
                        } else {
                            ui.visuals().text_color()
                        };
                        let sel = self.cell == Some((i, j));
                        let b = egui::Button::new(RichText::new(n.to_string()).color(text_col))
                            .fill(fill)
                            .min_size(egui::vec2(44.0, 24.0))
                            .stroke(if sel {
                                egui::Stroke::new(2.0, ui.visuals().selection.stroke.color)
                            } else {
                                egui::Stroke::NONE
                            });
                        let resp = ui.add(b).on_hover_text(format!(
                            "{} → {}: {n}",
                            r.labels.get(i).map(String::as_str).unwrap_or(""),
                            r.labels.get(j).map(String::as_str).unwrap_or("")
                        ));
                        if resp.clicked() {
                            clicked = Some((i, j));
                        }
                    }
                    ui.end_row();
                }
            });
        if clicked.is_some() {
            self.cell = clicked;
            self.doc = None;
        }
        self.cell_ui(lang, ui);
        self.teaching_ui(lang, ui);
    }

    fn cell_ui(&mut self, lang: Lang, ui: &mut Ui) {
        let (Some(t), Some((i, j))) = (&self.trained, self.cell) else {
            return;
        };
        let r = &t.out.result;
        let (truth, pred) = (
            r.labels.get(i).cloned().unwrap_or_default(),
            r.labels.get(j).cloned().unwrap_or_default(),
        );
        ui.add_space(6.0);
        ui.label(
            RichText::new(lang.tf("classify.cell_docs", &[&truth, &pred]))
                .size(17.0)
                .strong(),
        );
        let docs: Vec<usize> = t
            .preds
            .iter()
            .enumerate()
            .filter(|(_, p)| p.truth == truth && p.predicted() == pred)
            .map(|(k, _)| k)
            .collect();
        if docs.is_empty() {
            ui.label(RichText::new(lang.t("classify.cell_empty")).weak());
            return;
        }
        let mut open = None;
        egui::Grid::new("cl_cell_docs")
            .striped(true)
            .num_columns(3)
            .show(ui, |ui| {
                ui.label(RichText::new(lang.t("classify.col_doc")).strong());
                ui.label(RichText::new(lang.t("classify.col_top_features")).strong());
                ui.label("");
                ui.end_row();
                for &k in docs.iter().take(50) {
                    let p = &t.preds[k];
                    ui.label(crate::ui::docview::preview(&p.text, 40));
                    let feats: Vec<String> = p
                        .explanation
                        .top_features
                        .iter()
                        .take(6)
                        .map(|f| format!("{} {:.2}", f.term, f.weight))
                        .collect();
                    ui.label(feats.join(" · "));
                    if ui.small_button(lang.t("classify.explain")).clicked() {
                        open = Some(k);
                    }
                    ui.end_row();
                }
            });
        if open.is_some() {
            self.doc = open;
        }
    }

    fn teaching_ui(&mut self, lang: Lang, ui: &mut Ui) {
        let Some(t) = &self.trained else { return };
        if t.preds.is_empty() {
            return;
        }
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("classify.teach")).size(17.0).strong());
        let mut idx = self.doc.unwrap_or(0);
        ui.horizontal(|ui| {
            let l = ui.label(lang.t("classify.test_doc"));
            ui.add(egui::DragValue::new(&mut idx).range(0..=t.preds.len() - 1))
                .labelled_by(l.id);
        });
        self.doc = Some(idx);
        let Some(p) = t.preds.get(idx) else { return };
        ui.label(RichText::new(&p.text).size(16.0));
        ui.label(lang.tf(
            "classify.truth_vs_pred",
            &[
                &p.truth,
                &p.explanation.predicted.join(", "),
                &p.explanation.score_kind,
            ],
        ));
        ui.columns(3, |cols| {
            cols[0].label(RichText::new(lang.t("classify.class_scores")).strong());
            for c in p.explanation.class_scores.iter().take(10) {
                cols[0].label(format!("{}  {:.4}", c.label, c.score));
            }
            cols[1].label(RichText::new(lang.t("classify.col_top_features")).strong());
            for f in &p.explanation.top_features {
                cols[1].label(format!("{}  {:.4}", f.term, f.weight));
            }
            cols[2].label(RichText::new(lang.t("classify.neighbours")).strong());
            if p.explanation.neighbours.is_empty() {
                cols[2].label(RichText::new(lang.t("classify.no_neighbours")).weak());
            }
            for n in &p.explanation.neighbours {
                cols[2].label(format!("{:.3}  {}  {}", n.similarity, n.label, n.location));
            }
        });
    }
}

fn short(l: &str) -> String {
    l.chars().take(6).collect()
}

/// Blue for the diagonal, red for errors, by intensity `a` in 0..=1.
fn heat(a: f32, diagonal: bool, dark: bool) -> Color32 {
    let a = a.clamp(0.0, 1.0);
    let base = if dark {
        Color32::from_gray(40)
    } else {
        Color32::from_gray(245)
    };
    let full = if diagonal {
        Color32::from_rgb(0x1f, 0x5f, 0xb0)
    } else {
        Color32::from_rgb(0xc0, 0x30, 0x30)
    };
    let mix = |b: u8, f: u8| (b as f32 + (f as f32 - b as f32) * a.sqrt()) as u8;
    Color32::from_rgb(
        mix(base.r(), full.r()),
        mix(base.g(), full.g()),
        mix(base.b(), full.b()),
    )
}

fn card(ui: &mut Ui, title: &str, v: f64) {
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .corner_radius(6.0)
        .show(ui, |ui| {
            ui.set_min_width(130.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(title).size(15.0));
                ui.label(RichText::new(format!("{v:.4}")).size(28.0).strong());
            });
        });
}
