//! The cache panel's plots: the ratio against cache size on a log axis (Table 9-2's points and
//! the ceiling overlaid), the hit ratio over time (warm-up visible) and the replacement cost.

use egui::{RichText, Ui};
use egui_plot::{HLine, Legend, Line, Plot, PlotPoints, Points, VLine};

use super::Metric;
use crate::engine::cache::sim::{BOOK_CEILING, SimReport, TABLE_9_2};
use crate::ui::Lang;

fn value(r: &crate::engine::cache::sim::RunResult, m: Metric) -> f64 {
    match m {
        Metric::Hit => r.hit_ratio,
        Metric::Miss => r.miss_ratio,
        Metric::ByteHit => r.byte_hit_ratio,
    }
}

/// (label, points) per (run, policy): x = log10(size).
pub(crate) fn curve_series(
    reports: &[(String, SimReport)],
    m: Metric,
) -> Vec<(String, Vec<[f64; 2]>)> {
    let mut out = Vec::new();
    for (label, rep) in reports {
        let mut kinds: Vec<_> = rep.results.iter().map(|r| r.policy).collect();
        kinds.dedup();
        for k in kinds {
            let mut pts: Vec<[f64; 2]> = rep
                .results
                .iter()
                .filter(|r| r.policy == k)
                .map(|r| [(r.size.max(1) as f64).log10(), value(r, m)])
                .collect();
            pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
            let book = if k.book_ref().is_some() { "" } else { " *" };
            out.push((format!("{label} {}{book}", k.name()), pts));
        }
    }
    out
}

pub(crate) fn curves_ui(lang: Lang, ui: &mut Ui, reports: &[(String, SimReport)], m: Metric) {
    ui.label(RichText::new(lang.t("cache.plot_curves")).strong());
    if reports.is_empty() {
        ui.label(RichText::new(lang.t("cache.no_runs")).weak());
    }
    let series = curve_series(reports, m);
    let counted = reports.iter().any(|(_, r)| !r.bytes);
    Plot::new("cache_curves")
        .height(260.0)
        .legend(Legend::default().position(egui_plot::Corner::RightBottom))
        .x_axis_label(lang.t("cache.axis_size"))
        .y_axis_label(match m {
            Metric::Hit => lang.t("cache.hit_ratio"),
            Metric::Miss => lang.t("cache.miss_ratio"),
            Metric::ByteHit => lang.t("cache.byte_hit_ratio"),
        })
        .x_axis_formatter(|mark, _| format!("{:.0}", 10f64.powf(mark.value)))
        .include_y(0.0)
        .include_y(1.0)
        .show(ui, |pl| {
            for (name, pts) in &series {
                pl.line(Line::new(name.clone(), PlotPoints::from(pts.clone())));
                pl.points(Points::new(name.clone(), PlotPoints::from(pts.clone())).radius(2.5));
            }
            if m == Metric::Hit && counted {
                let lru: Vec<[f64; 2]> = TABLE_9_2
                    .iter()
                    .map(|(s, l, _)| [(*s as f64).log10(), *l])
                    .collect();
                let lfu: Vec<[f64; 2]> = TABLE_9_2
                    .iter()
                    .map(|(s, _, f)| [(*s as f64).log10(), *f])
                    .collect();
                pl.points(
                    Points::new(lang.t("cache.book_lru"), PlotPoints::from(lru))
                        .radius(5.0)
                        .shape(egui_plot::MarkerShape::Diamond),
                );
                pl.points(
                    Points::new(lang.t("cache.book_lfu"), PlotPoints::from(lfu))
                        .radius(5.0)
                        .shape(egui_plot::MarkerShape::Square),
                );
                pl.hline(HLine::new(lang.t("cache.book_ceiling"), BOOK_CEILING));
            }
            if m == Metric::Hit {
                for (label, r) in reports {
                    let name = format!("{label} {}", lang.t("cache.ceiling"));
                    pl.hline(HLine::new(name, 1.0 - r.trace.compulsory_miss_ratio));
                }
            }
        });
    if m == Metric::Hit && counted {
        ui.label(RichText::new(lang.t("cache.book_overlay_note")).weak());
    }
}

pub(crate) fn over_time_ui(lang: Lang, ui: &mut Ui, reports: &[(String, SimReport)]) {
    let Some((label, rep)) = reports.last() else {
        return;
    };
    let Some(size) = rep.results.iter().map(|r| r.size).max() else {
        return;
    };
    ui.label(RichText::new(lang.tf("cache.plot_time", &[label, &size])).strong());
    Plot::new("cache_time")
        .height(200.0)
        .legend(Legend::default().position(egui_plot::Corner::RightBottom))
        .x_axis_label(lang.t("cache.axis_time"))
        .y_axis_label(lang.t("cache.hit_ratio"))
        .include_y(0.0)
        .include_y(1.0)
        .show(ui, |pl| {
            for r in rep.results.iter().filter(|r| r.size == size) {
                let n = r.series.len().max(1) as f64;
                let pts: Vec<[f64; 2]> = r
                    .series
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_finite())
                    .map(|(i, v)| [(i as f64 + 1.0) / n * 100.0, *v])
                    .collect();
                pl.line(Line::new(r.policy.name(), PlotPoints::from(pts)));
                if r.warmup_end > 0 {
                    let x = r.warmup_end as f64 / rep.trace.requests.max(1) as f64 * 100.0;
                    let name = format!("{} {}", r.policy.name(), lang.t("cache.warmup_end"));
                    pl.vline(VLine::new(name, x));
                }
            }
        });
}

pub(crate) fn cost_ui(lang: Lang, ui: &mut Ui, reports: &[(String, SimReport)]) {
    let Some((_, rep)) = reports.last() else {
        return;
    };
    ui.label(RichText::new(lang.t("cache.cost")).strong());
    egui::Grid::new("cache_cost").striped(true).show(ui, |ui| {
        ui.label(lang.t("cache.policy"));
        ui.label(lang.t("cache.size"));
        ui.label(lang.t("cache.ns_per_request"));
        ui.label(lang.t("cache.hit_ratio"));
        ui.label(lang.t("cache.book"));
        ui.end_row();
        for r in &rep.results {
            ui.label(r.policy.name());
            ui.label(r.size.to_string());
            ui.label(format!("{:.0}", r.ns_per_request));
            ui.label(format!("{:.4}", r.hit_ratio));
            ui.label(r.book.as_deref().unwrap_or(lang.t("cache.not_in_book")));
            ui.end_row();
        }
    });
    ui.label(RichText::new(lang.t("cache.cost_note")).weak());
}
