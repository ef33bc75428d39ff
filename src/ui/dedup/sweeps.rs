//! The sweeps tab: a parameter against quality — recall (and the book's detection rate) against
//! N for algorithm 5, the shape of Fig 7-10 [L2599–L2602]; SimHash's k and MinHash's threshold
//! as precision/recall curves — each with the sources' setting marked and exportable.

use egui_plot::{Line, Plot, PlotPoints, Points, VLine};

use super::*;
use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries};
use crate::ui::export::plot_buttons;

/// Precision, recall, F1, detection rate; the sources' value.
const COLORS: [Color32; 4] = [
    Color32::from_rgb(200, 60, 60),
    Color32::from_rgb(50, 110, 200),
    Color32::from_rgb(60, 160, 70),
    Color32::from_rgb(160, 80, 190),
];
const MARK: Color32 = Color32::from_rgb(20, 160, 160);

/// The sources' setting for a swept parameter, with its i18n note.
fn reference(name: &str) -> Option<(f64, &'static str)> {
    match name {
        "n-keywords" => Some((10.0, "dedup.ref_n")),
        "simhash-k" => Some((3.0, "dedup.ref_k")),
        "threshold" => Some((0.8, "dedup.ref_t")),
        _ => None,
    }
}

/// (x, precision, recall, F1, found/docs) of every point with a numeric value.
fn series(points: &[SweepPoint]) -> Vec<[f64; 5]> {
    points
        .iter()
        .filter_map(|p| {
            let x: f64 = p.value.parse().ok()?;
            let s = p.row.scores.as_ref();
            Some([
                x,
                s.map_or(f64::NAN, |s| s.near.precision),
                s.map_or(f64::NAN, |s| s.near.recall),
                s.map_or(f64::NAN, |s| s.near.f1),
                p.row.detection_rate / 100.0,
            ])
        })
        .collect()
}

impl DedupPanel {
    pub(super) fn sweeps_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("dedup.sweeps_hint")).weak());
        if self.sweeps.is_empty() {
            ui.label(RichText::new(lang.t("dedup.no_sweep")).weak());
            return;
        }
        let names = [
            lang.t("dedup.s_precision"),
            lang.t("dedup.s_recall"),
            "F1",
            lang.t("dedup.s_rate"),
        ];
        for (param, method, points) in &self.sweeps {
            let pts = series(points);
            let title = lang.tf("dedup.sweep_title", &[method, param]);
            let x_label = param.clone();
            let y_label = lang.t("dedup.axis_share");
            let lines: Vec<(String, Vec<[f64; 2]>)> = (1..5)
                .map(|j| {
                    (
                        names[j - 1].to_string(),
                        pts.iter()
                            .filter(|p| p[j].is_finite())
                            .map(|p| [p[0], p[j]])
                            .collect(),
                    )
                })
                .filter(|(_, v): &(String, Vec<[f64; 2]>)| !v.is_empty())
                .collect();
            let refm = reference(param);
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label(RichText::new(&title).size(16.0).strong());
                let (l, t, xl) = (lines.clone(), title.clone(), x_label.clone());
                plot_buttons(ui, lang, &mut cx.hub.exports, move || {
                    let mut p = XPlot::new(t.clone(), xl.clone(), y_label);
                    for (n, v) in &l {
                        p = p.series(XSeries::line(n.clone(), v.clone()));
                    }
                    if let Some((x, key)) = refm {
                        p.marks = vec![Mark::VLine {
                            x,
                            label: lang.t(key).into(),
                        }];
                    }
                    p
                });
            });
            if let Some((_, key)) = refm {
                ui.label(
                    RichText::new(format!("{} {}", lang.t("dedup.book_says"), lang.t(key))).weak(),
                );
            }
            // The legend above the plot, so it never covers a curve.
            ui.horizontal_wrapped(|ui| {
                for (i, (n, _)) in lines.iter().enumerate() {
                    ui.label(RichText::new(format!("━ {n}")).color(COLORS[i % COLORS.len()]));
                }
                if let Some((x, _)) = refm {
                    ui.label(
                        RichText::new(format!("┃ {param} = {x} ({})", lang.t("dedup.book_mark")))
                            .color(MARK),
                    );
                }
            });
            ui.horizontal_wrapped(|ui| {
                let w = (ui.available_width() / 2.0 - 8.0).max(320.0);
                ui.vertical(|ui| {
                    ui.set_width(w);
                    Plot::new(format!("dedup_sweep_{param}"))
                        .height(280.0)
                        .x_axis_label(x_label.as_str())
                        .y_axis_label(y_label)
                        .include_y(0.0)
                        .include_y(1.0)
                        .show(ui, |pl| {
                            for (i, (n, v)) in lines.iter().enumerate() {
                                pl.line(
                                    Line::new(n.clone(), PlotPoints::from(v.clone()))
                                        .color(COLORS[i % COLORS.len()]),
                                );
                            }
                            if let Some((x, _)) = refm {
                                pl.vline(VLine::new(lang.t("dedup.book_mark"), x).color(MARK));
                            }
                        });
                });
                // Precision against recall, each point one value of the parameter.
                let pr: Vec<[f64; 2]> = pts
                    .iter()
                    .filter(|p| p[1].is_finite() && p[2].is_finite())
                    .map(|p| [p[2], p[1]])
                    .collect();
                if !pr.is_empty() {
                    ui.vertical(|ui| {
                        ui.set_width(w);
                        Plot::new(format!("dedup_pr_{param}"))
                            .height(280.0)
                            .x_axis_label(lang.t("dedup.s_recall"))
                            .y_axis_label(lang.t("dedup.s_precision"))
                            .include_x(0.0)
                            .include_x(1.0)
                            .include_y(0.0)
                            .include_y(1.0)
                            .show(ui, |pl| {
                                pl.line(Line::new(
                                    lang.t("dedup.pr_curve"),
                                    PlotPoints::from(pr.clone()),
                                ));
                                pl.points(
                                    Points::new(
                                        lang.t("dedup.pr_curve"),
                                        PlotPoints::from(pr.clone()),
                                    )
                                    .radius(3.0),
                                );
                            });
                    });
                }
            });
            // The numbers, for the record.
            egui::CollapsingHeader::new(lang.t("dedup.sweep_values"))
                .id_salt(format!("dedup_sweep_vals_{param}"))
                .show(ui, |ui| {
                    egui::Grid::new(format!("dedup_sweep_grid_{param}"))
                        .striped(true)
                        .show(ui, |ui| {
                            ui.label(RichText::new(param.as_str()).strong());
                            for n in names {
                                ui.label(RichText::new(n).strong());
                            }
                            ui.end_row();
                            for p in &pts {
                                ui.label(format!("{}", p[0]));
                                for v in &p[1..] {
                                    ui.label(format!("{v:.3}"));
                                }
                                ui.end_row();
                            }
                        });
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_swept_parameter_of_the_book_has_its_mark() {
        for p in ["n-keywords", "simhash-k", "threshold"] {
            assert!(reference(p).is_some());
        }
        assert!(series(&[]).is_empty());
    }
}
