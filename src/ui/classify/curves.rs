//! The classifier panel's book experiments (Tables 11-2, 11-5, one click each) and curves
//! (macro-F1 against features kept for DF/IG/MI/CHI, k and training-set size), each beside the
//! book's finding and exportable.

use super::*;

impl ClassifyPanel {
    pub(super) fn book_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("classify.book")).size(17.0).strong());
        // Tables 11-2 and 11-5 run through the experiment registry (`table-11-2`,
        // `table-11-5`): the same code path as `tianwang experiment run`. The curve buttons
        // below draw their plots and start the registry's run for the figures and the verdict
        // (`best-k`, `fig-11-8`, `fig-11-6`).
        self.book.ui(cx, ui, "Classify");
        let knn = |k: usize| {
            PipelineConfig::for_model(ModelConfig::Knn(KnnConfig {
                k,
                ..KnnConfig::default()
            }))
        };
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("classify.exp_k")).clicked() {
                self.book.start(cx, vec!["best-k".into()]);
                self.start_sweep(
                    cx,
                    What::K,
                    knn(15),
                    Vary::K(vec![1, 3, 5, 10, 15, 20, 25, 30, 40, 50]),
                );
            }
            if ui.button(lang.t("classify.exp_features")).clicked() {
                self.book.start(cx, vec!["fig-11-8".into()]);
                self.start_features(cx);
            }
            if ui.button(lang.t("classify.exp_size")).clicked() {
                self.book.start(cx, vec!["fig-11-6".into()]);
                self.start_size(cx);
            }
        });
    }

    fn start_features(&mut self, cx: &mut Cx<'_>) {
        let base = match self.form.config(cx.lang) {
            Ok(c) => c,
            Err(e) => {
                self.error = Some(e);
                return;
            }
        };
        let keeps: Vec<Keep> = [1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 100.0]
            .iter()
            .map(|&x| Keep::Percent(x))
            .collect();
        for m in [Method::Df, Method::Ig, Method::Mi, Method::Chi] {
            let mut c = base.clone();
            c.selection = Some(SelectionConfig {
                method: m,
                combine: Combine::Mean,
                keep: Keep::All,
            });
            self.start_sweep(cx, What::Features(m), c, Vary::Keep(keeps.clone()));
        }
    }

    fn start_size(&mut self, cx: &mut Cx<'_>) {
        match self.form.config(cx.lang) {
            Ok(c) => self.start_sweep(
                cx,
                What::Size,
                c,
                Vary::TrainPerClass(vec![5, 10, 15, 17, 19, 50, 100, 300, 1000]),
            ),
            Err(e) => self.error = Some(e),
        }
    }

    pub(super) fn curves_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("classify.curves")).size(17.0).strong());
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("classify.run_features")).clicked() {
                self.start_features(cx);
            }
            if ui.button(lang.t("classify.run_k")).clicked() {
                match self.form.config(lang) {
                    Ok(c) => self.start_sweep(
                        cx,
                        What::K,
                        c,
                        Vary::K(vec![1, 3, 5, 10, 15, 20, 25, 30, 40, 50]),
                    ),
                    Err(e) => self.error = Some(e),
                }
            }
            if ui.button(lang.t("classify.run_size")).clicked() {
                self.start_size(cx);
            }
            let n = self
                .training
                .keys()
                .filter(|w| !matches!(w, What::Train))
                .count()
                + self.sweeping.len();
            if n > 0 {
                ui.spinner();
                ui.label(lang.tf("classify.sweeps_running", &[&n]));
            }
        });
        let ex = &mut cx.hub.exports;
        if !self.features.is_empty() {
            let series: Vec<(String, Vec<[f64; 2]>)> = self
                .features
                .iter()
                .map(|(m, pts)| (method_name(*m).to_string(), pct_points(pts)))
                .collect();
            curve(
                ui,
                lang,
                ex,
                "cl_features",
                lang.t("classify.plot_features"),
                lang.t("classify.axis_features"),
                &series,
                vec![Mark::VLine {
                    x: 20.0,
                    label: lang.t("classify.ref_features").into(),
                }],
            );
        }
        if !self.k_curve.is_empty() {
            let pts = num_points(&self.k_curve);
            curve(
                ui,
                lang,
                ex,
                "cl_k",
                lang.t("classify.plot_k"),
                lang.t("classify.axis_k"),
                &[("macro-F1".into(), pts)],
                vec![Mark::VLine {
                    x: 15.0,
                    label: lang.t("classify.ref_k").into(),
                }],
            );
        }
        if !self.size_curve.is_empty() {
            let pts = num_points(&self.size_curve);
            curve(
                ui,
                lang,
                ex,
                "cl_size",
                lang.t("classify.plot_size"),
                lang.t("classify.axis_size"),
                &[("macro-F1".into(), pts)],
                vec![Mark::VLine {
                    x: 15.0,
                    label: lang.t("classify.ref_size").into(),
                }],
            );
        }
    }
}

/// A plot of macro-F1 curves with the book's reference marks, and its export buttons.
#[allow(clippy::too_many_arguments)]
fn curve(
    ui: &mut Ui,
    lang: Lang,
    ex: &mut Exports,
    id: &str,
    title: &str,
    x_label: &str,
    series: &[(String, Vec<[f64; 2]>)],
    marks: Vec<Mark>,
) {
    let y_label = lang.t("classify.axis_f1");
    ui.horizontal(|ui| {
        ui.label(RichText::new(title).strong());
        let s = series.to_vec();
        let m = marks.clone();
        plot_buttons(ui, lang, ex, move || {
            let mut p = XPlot::new(title, x_label, y_label);
            for (n, pts) in &s {
                p = p.series(XSeries::line(n.clone(), pts.clone()));
            }
            p.marks = m.clone();
            p
        });
    });
    for m in &marks {
        if let Mark::VLine { label, .. } = m {
            ui.label(RichText::new(format!("{} {label}", lang.t("classify.book_says"))).weak());
        }
    }
    Plot::new(id.to_string())
        .height(220.0)
        .legend(Legend::default().position(egui_plot::Corner::RightBottom))
        .x_axis_label(x_label)
        .y_axis_label(y_label)
        .include_y(0.0)
        .include_y(1.0)
        .show(ui, |pl| {
            for (n, pts) in series {
                pl.line(Line::new(n.clone(), PlotPoints::from(pts.clone())));
            }
            for m in &marks {
                if let Mark::VLine { x, .. } = m {
                    let name = format!("{} {x}", lang.t("classify.book_says"));
                    pl.vline(VLine::new(name, *x));
                }
            }
        });
}

/// Sweep points "N%" → (percent, macro-F1).
fn pct_points(pts: &[SweepPoint]) -> Vec<[f64; 2]> {
    pts.iter()
        .filter_map(|p| {
            let x = if p.value == "all" {
                100.0
            } else {
                p.value.trim_end_matches('%').parse().ok()?
            };
            Some([x, p.result.macro_f1])
        })
        .collect()
}

/// Sweep points "N" → (N, macro-F1).
fn num_points(pts: &[SweepPoint]) -> Vec<[f64; 2]> {
    pts.iter()
        .filter_map(|p| Some([p.value.parse().ok()?, p.result.macro_f1]))
        .collect()
}
