//! The performance-model tab's plots and tables: D against k on log axes (8-1 and both
//! approximations, the B·r line, k_max), Table 8-1 with ITF against rank (the crossing near
//! ITF = 4), Table 8-2, and T_N against m (the throughput hyperbola with the book's anchors).
//! Each plot has its PNG/SVG export built from the same points; log axes are drawn as log10 of
//! the values with decade labels, and exported as true log axes.

use egui::{Color32, RichText, Ui};
use egui_plot::{
    Corner, GridInput, GridMark, HLine, Legend, Line, LineStyle, MarkerShape, Plot, PlotPoints,
    Points, VLine,
};

use super::perfmodel::{bytes, num, sig};
use crate::engine::export::plot::{MARK_COLOR, PALETTE};
use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries, Table};
use crate::engine::index::perfmodel::{
    BOOK_TF_CHINESE, BOOK_TF_ENGLISH, ModelInput, Planner, PlannerReport, TABLE_8_1, TABLE_8_2,
    itf_crossing,
};
use crate::ui::Lang;
use crate::ui::export::{Exports, plot_buttons, table_button};

const HEIGHT: f32 = 340.0;

fn c32(c: [u8; 3]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// Grid marks of a log10 axis: decades (labelled) and 2–9 of each decade (thin).
fn log_grid(input: GridInput) -> Vec<GridMark> {
    crate::ui::log_axis::log_grid(input, &[])
}

/// The label of a decade mark (`10^v` written by `f`), nothing between decades.
fn decade(v: f64, f: fn(f64) -> String) -> String {
    if (v - v.round()).abs() > 1e-6 {
        return String::new();
    }
    f(10f64.powf(v.round()))
}

/// 1 B, 10 kB, 100 MB, 1 GB: decade byte labels.
fn bytes_short(v: f64) -> String {
    let (d, unit) = [
        (1e15, "PB"),
        (1e12, "TB"),
        (1e9, "GB"),
        (1e6, "MB"),
        (1e3, "kB"),
    ]
    .into_iter()
    .find(|(d, _)| v >= *d * 0.999)
    .unwrap_or((1.0, "B"));
    format!("{:.0} {unit}", v / d)
}

/// 1, 10, 100, 1k, 10k, 1M: decade counts.
fn count_short(v: f64) -> String {
    for (d, s) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] {
        if v >= d * 0.999 {
            return format!("{:.0}{s}", v / d);
        }
    }
    format!("{v:.0}")
}

fn lg(pts: &[[f64; 2]], log_x: bool) -> Vec<[f64; 2]> {
    pts.iter()
        .filter(|p| p[1] > 0.0 && (!log_x || p[0] > 0.0))
        .map(|p| [if log_x { p[0].log10() } else { p[0] }, p[1].log10()])
        .collect()
}

// -- D against k ------------------------------------------------------------------------------

/// (exact, dαk, second order) as [k, bytes], k log-spaced from 1 to 4M (at least 100).
fn d_curves(i: &ModelInput) -> [Vec<[f64; 2]>; 3] {
    let hi = (4.0 * i.m_terms).clamp(100.0, 1e9);
    let mut ks: Vec<u64> = (0..=240)
        .map(|j| 10f64.powf(f64::from(j) / 240.0 * hi.log10()).round() as u64)
        .collect();
    ks.dedup();
    let pts = |f: &dyn Fn(u64) -> f64| -> Vec<[f64; 2]> {
        ks.iter().map(|&k| [k as f64, f(k)]).collect()
    };
    [
        pts(&|k| i.data_exact(k)),
        pts(&|k| i.data_approx1(k)),
        pts(&|k| i.data_approx2(k))
            .into_iter()
            .filter(|p| p[1] > 0.0)
            .collect(),
    ]
}

fn d_export(lang: Lang, i: &ModelInput) -> XPlot {
    let [exact, a1, a2] = d_curves(i);
    let mut p = XPlot::new(
        lang.t("perf.plot_d"),
        lang.t("perf.axis_k"),
        lang.t("perf.axis_d"),
    )
    .log_x()
    .log_y()
    .series(XSeries::line(lang.t("perf.s_exact"), exact).color(PALETTE[0]))
    .series(XSeries::line(lang.t("perf.s_approx1"), a1).color(PALETTE[1]))
    .series(XSeries::line(lang.t("perf.s_approx2"), a2).color(PALETTE[2]))
    .mark(Mark::HLine {
        y: i.budget(),
        label: format!("B·r = {}", bytes(i.budget())),
    });
    if let Some(k) = i.k_max().filter(|k| *k >= 1) {
        p = p.mark(Mark::VLine {
            x: k as f64,
            label: format!("k_max = {k}"),
        });
    }
    if i.k >= 1 {
        p = p.mark(Mark::Point {
            x: i.k as f64,
            y: i.data_exact(i.k),
            label: format!("k = {}", i.k),
        });
    }
    p
}

/// D against k, log–log.
pub(crate) fn d_of_k(ui: &mut Ui, lang: Lang, ex: &mut Exports, i: &ModelInput) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("perf.plot_d")).strong());
        plot_buttons(ui, lang, ex, || d_export(lang, i));
    });
    let [exact, a1, a2] = d_curves(i);
    let budget = i.budget().log10();
    let kmax = i.k_max().filter(|k| *k >= 1);
    Plot::new("perf_d_of_k")
        .height(HEIGHT)
        .legend(
            Legend::default()
                .position(Corner::LeftTop)
                .follow_insertion_order(true),
        )
        .x_axis_label(lang.t("perf.axis_k"))
        .y_axis_label(lang.t("perf.axis_d"))
        .x_grid_spacer(log_grid)
        .y_grid_spacer(log_grid)
        .x_axis_formatter(|m, _| decade(m.value, count_short))
        .y_axis_formatter(|m, _| decade(m.value, bytes_short))
        .y_axis_min_width(56.0)
        .include_y(budget)
        .show(ui, |pl| {
            pl.line(
                Line::new(lang.t("perf.s_exact"), PlotPoints::from(lg(&exact, true)))
                    .color(c32(PALETTE[0]))
                    .width(2.5),
            );
            pl.line(
                Line::new(lang.t("perf.s_approx1"), PlotPoints::from(lg(&a1, true)))
                    .color(c32(PALETTE[1]))
                    .style(LineStyle::dashed_loose()),
            );
            pl.line(
                Line::new(lang.t("perf.s_approx2"), PlotPoints::from(lg(&a2, true)))
                    .color(c32(PALETTE[2]))
                    .style(LineStyle::dotted_dense()),
            );
            pl.hline(
                HLine::new(format!("B·r = {}", bytes(i.budget())), budget)
                    .color(c32(MARK_COLOR))
                    .style(LineStyle::dashed_loose()),
            );
            if let Some(k) = kmax {
                pl.vline(
                    VLine::new(format!("k_max = {k}"), (k as f64).log10())
                        .color(Color32::from_gray(110))
                        .style(LineStyle::dashed_dense()),
                );
            }
            if i.k >= 1 {
                let p = [(i.k as f64).log10(), i.data_exact(i.k).log10()];
                pl.points(
                    Points::new(lang.tf("perf.s_current_k", &[&i.k]), vec![p])
                        .radius(5.0)
                        .shape(MarkerShape::Circle)
                        .color(c32(PALETTE[4])),
                );
            }
        });
    ui.label(RichText::new(lang.t("perf.plot_d_note")).weak());
}

// -- Table 8-1 and ITF ------------------------------------------------------------------------

fn table_8_1_export(lang: Lang) -> Table {
    let mut t = Table::new(
        lang.t("perf.t81_title"),
        [
            lang.t("perf.t81_freq"),
            "ITF",
            lang.t("perf.t81_en"),
            lang.t("perf.t81_zh"),
        ],
    );
    for r in TABLE_8_1 {
        t.push([
            format!("{}%", r.freq_percent),
            format!("{:.3}", r.itf()),
            r.english_rank.to_string(),
            r.chinese_rank.to_string(),
        ]);
    }
    t
}

/// (English, Chinese) as [rank, ITF].
fn itf_points() -> (Vec<[f64; 2]>, Vec<[f64; 2]>) {
    let en = TABLE_8_1
        .iter()
        .map(|r| [f64::from(r.english_rank), r.itf()])
        .collect();
    let zh = TABLE_8_1
        .iter()
        .map(|r| [f64::from(r.chinese_rank), r.itf()])
        .collect();
    (en, zh)
}

fn crossing_label(lang: Lang) -> String {
    itf_crossing().map_or_else(String::new, |c| {
        lang.tf(
            "perf.crossing",
            &[&format!("{:.2}", c.itf), &format!("{:.0}", c.rank)],
        )
    })
}

fn itf_export(lang: Lang) -> XPlot {
    let (en, zh) = itf_points();
    let mut p = XPlot::new(
        lang.t("perf.plot_itf"),
        lang.t("perf.axis_rank"),
        lang.t("perf.axis_itf"),
    )
    .series(XSeries::line(lang.t("perf.s_english"), en).color(PALETTE[0]))
    .series(XSeries::line(lang.t("perf.s_chinese"), zh).color(PALETTE[1]))
    .mark(Mark::HLine {
        y: 4.0,
        label: "ITF = 4 (0.01%)".into(),
    });
    if let Some(c) = itf_crossing() {
        p = p.mark(Mark::Point {
            x: c.rank,
            y: c.itf,
            label: crossing_label(lang),
        });
    }
    p
}

/// Table 8-1, the ITF plot and the book's reading of them.
pub(crate) fn itf_tab(ui: &mut Ui, lang: Lang, ex: &mut Exports) {
    ui.label(RichText::new(lang.t("perf.itf_intro")).weak());
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.t("perf.t81_title")).strong());
            table_button(ui, lang, ex, || table_8_1_export(lang));
        });
        egui::Grid::new("perf_t81")
            .num_columns(5)
            .spacing([18.0, 3.0])
            .striped(true)
            .show(ui, |ui| {
                for h in [
                    lang.t("perf.t81_freq"),
                    "ITF",
                    lang.t("perf.t81_en"),
                    lang.t("perf.t81_zh"),
                    lang.t("perf.t81_more"),
                ] {
                    ui.label(RichText::new(h).strong());
                }
                ui.end_row();
                for r in TABLE_8_1 {
                    ui.label(format!("{}%", r.freq_percent));
                    ui.label(RichText::new(format!("{:.3}", r.itf())).monospace());
                    ui.label(RichText::new(r.english_rank.to_string()).monospace());
                    ui.label(RichText::new(r.chinese_rank.to_string()).monospace());
                    ui.label(if r.english_rank > r.chinese_rank {
                        lang.t("perf.t81_more_en")
                    } else {
                        lang.t("perf.t81_more_zh")
                    });
                    ui.end_row();
                }
            });
        let ui = &mut cols[1];
        ui.label(RichText::new(lang.t("perf.itf_facts_title")).strong());
        for key in [
            lang.t("perf.itf_fact_units"),
            lang.t("perf.itf_fact_high"),
            lang.t("perf.itf_fact_cum"),
            lang.t("perf.itf_fact_tf"),
            lang.t("perf.itf_fact_seg"),
        ] {
            ui.label(format!("• {key}"));
        }
        ui.label(RichText::new(crossing_label(lang)).strong());
    });
    ui.add_space(6.0);
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("perf.plot_itf")).strong());
        plot_buttons(ui, lang, ex, || itf_export(lang));
    });
    let (en, zh) = itf_points();
    Plot::new("perf_itf")
        .height(HEIGHT)
        .legend(
            Legend::default()
                .position(Corner::RightBottom)
                .follow_insertion_order(true),
        )
        .x_axis_label(lang.t("perf.axis_rank"))
        .y_axis_label(lang.t("perf.axis_itf"))
        .include_x(0.0)
        .include_y(2.8)
        .include_y(5.2)
        .show(ui, |pl| {
            for (name, pts, c) in [
                (lang.t("perf.s_english"), &en, PALETTE[0]),
                (lang.t("perf.s_chinese"), &zh, PALETTE[1]),
            ] {
                pl.line(
                    Line::new(name, PlotPoints::from(pts.clone()))
                        .color(c32(c))
                        .width(2.0),
                );
                pl.points(
                    Points::new(name, PlotPoints::from(pts.clone()))
                        .radius(3.5)
                        .color(c32(c)),
                );
            }
            pl.hline(
                HLine::new("ITF = 4 (0.01%)", 4.0)
                    .color(Color32::from_gray(60))
                    .width(1.5)
                    .style(LineStyle::dashed_loose()),
            );
            if let Some(c) = itf_crossing() {
                pl.points(
                    Points::new(crossing_label(lang), vec![[c.rank, c.itf]])
                        .radius(7.0)
                        .shape(MarkerShape::Diamond)
                        .color(c32(MARK_COLOR)),
                );
            }
        });
    ui.label(RichText::new(lang.t("perf.plot_itf_note")).weak());
}

// -- Table 8-2 ---------------------------------------------------------------------------------

fn table_8_2_export(lang: Lang) -> Table {
    let mut t = Table::new(
        lang.t("perf.t82_title"),
        [
            lang.t("perf.t82_model"),
            lang.t("perf.t82_gb"),
            lang.t("perf.t82_ms"),
            lang.t("perf.t82_rpm"),
            "IOPS",
            "MB/s",
            lang.t("perf.t82_if"),
        ],
    );
    for d in TABLE_8_2 {
        t.push([
            d.model.to_string(),
            d.size_gb.to_string(),
            d.access_ms.to_string(),
            d.rpm.to_string(),
            d.iops.to_string(),
            format!("{}–{}", d.mb_s.0, d.mb_s.1),
            d.interface.to_string(),
        ]);
    }
    t
}

pub(crate) fn table_8_2(ui: &mut Ui, lang: Lang, ex: &mut Exports) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("perf.t82_title")).strong());
        table_button(ui, lang, ex, || table_8_2_export(lang));
    });
    egui::Grid::new("perf_t82")
        .num_columns(7)
        .spacing([18.0, 3.0])
        .striped(true)
        .show(ui, |ui| {
            for h in [
                lang.t("perf.t82_model"),
                lang.t("perf.t82_gb"),
                lang.t("perf.t82_ms"),
                lang.t("perf.t82_rpm"),
                "IOPS",
                "MB/s",
                lang.t("perf.t82_if"),
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for d in TABLE_8_2 {
                ui.label(d.model);
                for v in [
                    d.size_gb.to_string(),
                    d.access_ms.to_string(),
                    d.rpm.to_string(),
                    d.iops.to_string(),
                    format!("{}–{}", d.mb_s.0, d.mb_s.1),
                ] {
                    ui.label(RichText::new(v).monospace());
                }
                ui.label(d.interface);
                ui.end_row();
            }
        });
    ui.label(RichText::new(lang.t("perf.t82_note")).weak());
}

// -- T_N against m -----------------------------------------------------------------------------

/// The anchors' colours: the Chinese one in the marks' colour, the English one purple, the
/// derived m ≈ 10 brown.
const ANCHOR_COLORS: [[u8; 3]; 3] = [MARK_COLOR, PALETTE[4], PALETTE[5]];

/// The book's anchors: (m, T_N, label).
fn anchors(lang: Lang) -> [(f64, f64, String); 3] {
    [
        (20.0, 4e8, lang.t("perf.anchor_zh").to_string()),
        (20.0, 4e9, lang.t("perf.anchor_en").to_string()),
        (10.0, 4e8, lang.t("perf.anchor_m10").to_string()),
    ]
}

/// The x range's end on screen: 1.5 × IOPS/L_q, at least 30 q/s.
fn tp_x_hi(r: &PlannerReport) -> f64 {
    (1.5 * r.m_simplified).max(30.0)
}

/// (full inequality, transfer only) as [m, T_N bytes] for m up to `x_hi`; the full curve
/// stops where T_N falls below `floor` (it drops to 0 at IOPS/L_q).
fn tp_curves(p: &Planner, x_hi: f64, floor: f64) -> (Vec<[f64; 2]>, Vec<[f64; 2]>) {
    let ms: Vec<f64> = (1..=300).map(|j| f64::from(j) / 300.0 * x_hi).collect();
    let full = ms
        .iter()
        .map(|&m| [m, p.t_n_at(m)])
        .filter(|q| q[1] >= floor)
        .collect();
    let transfer = ms
        .iter()
        .map(|&m| [m, p.t_n_transfer_only(m)])
        .filter(|q| q[1] <= 1e14)
        .collect();
    (full, transfer)
}

/// The exported plot: a wider x range than on screen so that the exporter's legend (middle
/// right) sits over empty space; the current point as a mark unless it is one of the anchors.
fn tp_export(lang: Lang, p: &Planner, r: &PlannerReport) -> XPlot {
    let (full, transfer) = tp_curves(p, (2.25 * r.m_simplified).max(45.0), 1e7);
    let mut x = XPlot::new(
        lang.t("perf.plot_tp"),
        lang.t("perf.axis_m"),
        lang.t("perf.axis_tn"),
    )
    .log_y()
    .series(XSeries::line(lang.t("perf.s_full"), full).color(PALETTE[0]))
    .series(XSeries::line(lang.t("perf.s_transfer"), transfer).color(PALETTE[1]))
    .mark(Mark::VLine {
        x: r.m_simplified,
        label: lang.tf("perf.s_iops_lq", &[&sig(r.m_simplified)]),
    });
    let anchors = anchors(lang);
    let on_anchor = anchors
        .iter()
        .any(|(m, t, _)| (r.m_full / m - 1.0).abs() < 0.02 && (p.t_n / t - 1.0).abs() < 0.02);
    for (m, t, label) in anchors {
        x = x.mark(Mark::Point { x: m, y: t, label });
    }
    if !on_anchor && p.t_n > 0.0 && r.m_full.is_finite() {
        x = x.mark(Mark::Point {
            x: r.m_full,
            y: p.t_n,
            label: lang.tf("perf.s_current_tp", &[&sig(r.m_full), &bytes(p.t_n)]),
        });
    }
    x
}

/// T_N against m: the hyperbola of the full inequality, the transfer-only curve, the
/// latency bound IOPS/L_q and the book's anchors.
pub(crate) fn t_n_of_m(ui: &mut Ui, lang: Lang, ex: &mut Exports, p: &Planner, r: &PlannerReport) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("perf.plot_tp")).strong());
        plot_buttons(ui, lang, ex, || tp_export(lang, p, r));
    });
    let x_hi = tp_x_hi(r);
    let (full, transfer) = tp_curves(p, x_hi, 1e5);
    Plot::new("perf_t_n_of_m")
        .height(HEIGHT)
        .legend(
            Legend::default()
                .position(Corner::LeftBottom)
                .follow_insertion_order(true),
        )
        .x_axis_label(lang.t("perf.axis_m"))
        .y_axis_label(lang.t("perf.axis_tn"))
        .y_grid_spacer(log_grid)
        .y_axis_formatter(|m, _| decade(m.value, bytes_short))
        .y_axis_min_width(56.0)
        .include_x(0.0)
        .include_x(x_hi)
        .include_y(6.0)
        .include_y(11.0)
        .show(ui, |pl| {
            pl.line(
                Line::new(lang.t("perf.s_full"), PlotPoints::from(lg(&full, false)))
                    .color(c32(PALETTE[0]))
                    .width(2.5),
            );
            pl.line(
                Line::new(
                    lang.t("perf.s_transfer"),
                    PlotPoints::from(lg(&transfer, false)),
                )
                .color(c32(PALETTE[1]))
                .style(LineStyle::dashed_loose()),
            );
            pl.vline(
                VLine::new(
                    lang.tf("perf.s_iops_lq", &[&sig(r.m_simplified)]),
                    r.m_simplified,
                )
                .color(Color32::from_gray(110))
                .style(LineStyle::dashed_dense()),
            );
            let shapes = [MarkerShape::Diamond, MarkerShape::Square, MarkerShape::Up];
            for (((m, t, label), shape), c) in
                anchors(lang).into_iter().zip(shapes).zip(ANCHOR_COLORS)
            {
                pl.points(
                    Points::new(label, vec![[m, t.log10()]])
                        .radius(6.0)
                        .shape(shape)
                        .color(c32(c)),
                );
            }
            if p.t_n > 0.0 && r.m_full.is_finite() {
                pl.points(
                    Points::new(
                        lang.tf("perf.s_current_tp", &[&sig(r.m_full), &bytes(p.t_n)]),
                        vec![[r.m_full, p.t_n.log10()]],
                    )
                    .radius(9.0)
                    .filled(false)
                    .color(c32(PALETTE[2])),
                );
            }
        });
    ui.label(
        RichText::new(lang.tf(
            "perf.plot_tp_note",
            &[&num(BOOK_TF_CHINESE * 100.0), &num(BOOK_TF_ENGLISH * 100.0)],
        ))
        .weak(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axis_labels() {
        assert_eq!(decade(6.0, bytes_short), "1 MB");
        assert_eq!(decade(8.0, bytes_short), "100 MB");
        assert_eq!(decade(9.0, bytes_short), "1 GB");
        assert_eq!(decade(6.3, bytes_short), "");
        assert_eq!(decade(4.0, count_short), "10k");
        assert_eq!(decade(0.0, count_short), "1");
    }

    /// Every exported plot renders (log axes get only positive values), in both languages.
    #[test]
    fn exports_render() {
        use crate::engine::export::plot::render_png;
        let p = Planner::default();
        let r = p.report().unwrap();
        for lang in [Lang::Zh, Lang::En] {
            let plots = [
                d_export(lang, &ModelInput::default()),
                itf_export(lang),
                tp_export(lang, &p, &r),
            ];
            for x in plots {
                let png = render_png(&x, 900, 560, 1.0).unwrap();
                assert_eq!(&png[1..4], b"PNG");
                if let Some(dir) = std::env::var_os("TIANWANG_PERF_EXPORTS") {
                    let name = format!("{}_{lang:?}.png", x.title.len());
                    std::fs::write(std::path::Path::new(&dir).join(name), png).unwrap();
                }
            }
            assert_eq!(table_8_1_export(lang).rows.len(), 9);
            assert_eq!(table_8_2_export(lang).rows.len(), 4);
        }
    }

    #[test]
    fn curves_cover_the_book_anchors() {
        let p = Planner::default();
        let r = p.report().unwrap();
        let (full, transfer) = tp_curves(&p, tp_x_hi(&r), 1e5);
        assert_eq!(tp_x_hi(&r), 30.0);
        // The full curve ends before IOPS/L_q, the transfer-only one runs on.
        assert!(full.last().unwrap()[0] < 20.0);
        assert!(transfer.last().unwrap()[0] > 20.0);
        let [exact, a1, a2] = d_curves(&ModelInput::default());
        assert_eq!(exact[0], [1.0, 1e6]);
        assert_eq!(a1[0][1], 1e6);
        assert!(a2.iter().all(|q| q[1] > 0.0));
        assert!(exact.last().unwrap()[0] >= 2e5 - 1.0);
    }
}
