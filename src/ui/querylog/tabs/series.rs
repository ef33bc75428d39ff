//! The log as a sequence of requests (book §9.3, §9.4, §9.8 [L3258–L3294], [L3347–L3393]):
//! repeat decay (9-3), adjacent-group deviation (9-4), self-similarity (R/S, 9-10) and the time
//! of day. One function per tab, called by [`super::draw`]:
//!
//! ```ignore
//! series::self_similarity(ui, lang, &mut exports, &stats);
//! ```

use egui::Ui;

use super::super::figure::{Fig, Kind, figure};
use super::{pairs_table, pct, versus};
use crate::engine::export::{Mark, Table};
use crate::engine::querylog::book;
use crate::engine::querylog::stats::Stats;
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};

/// How the repeats of a group of requests decay (9-3), with the book's first zero.
pub(super) fn decay(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let d = &st.decay;
    versus(
        ui,
        lang,
        lang.t("ql.first_zero"),
        d.first_zero.map_or("—".into(), |z| z.to_string()),
        d.book_first_zero.to_string(),
    );
    let pts: Vec<[f64; 2]> =
        d.y.iter()
            .enumerate()
            .take(200)
            .map(|(i, &y)| [(i + 1) as f64, y as f64])
            .collect();
    let lag: Vec<[f64; 2]> = d
        .mean_by_lag
        .iter()
        .enumerate()
        .map(|(i, &y)| [(i + 1) as f64, y * d.group_size as f64])
        .collect();
    let t = pts.clone();
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.tab_decay"),
            ["group", "Y"],
            t.iter().map(|p| (p[0].to_string(), p[1].to_string())),
        )
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_decay",
            title: lang.t("ql.tab_decay").into(),
            x: lang.t("ql.axis_group").into(),
            y: "Y".into(),
            log: (false, false),
            series: vec![
                (lang.t("ql.decay_y").into(), pts, Kind::Line),
                (lang.t("ql.decay_mean").into(), lag, Kind::Line),
            ],
            marks: vec![Mark::VLine {
                x: d.book_first_zero as f64,
                label: lang.t("ql.book").into(),
            }],
        },
    );
}

/// The deviation S between adjacent groups (9-4) against the book's band.
pub(super) fn deviation(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let d = &st.deviation;
    versus(
        ui,
        lang,
        lang.t("ql.in_band"),
        d.share_in_band.map_or("—".into(), pct),
        "0.02–0.06".into(),
    );
    let pts: Vec<[f64; 2]> =
        d.s.iter()
            .enumerate()
            .map(|(i, &s)| [(i + 1) as f64, s])
            .collect();
    let t = pts.clone();
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.tab_deviation"),
            ["pair", "S"],
            t.iter().map(|p| (p[0].to_string(), p[1].to_string())),
        )
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_dev",
            title: lang.t("ql.tab_deviation").into(),
            x: lang.t("ql.axis_group").into(),
            y: "S".into(),
            log: (false, false),
            series: vec![("S".into(), pts, Kind::Line)],
            marks: vec![
                Mark::HLine {
                    y: book::DEVIATION_BAND.0,
                    label: "0.02".into(),
                },
                Mark::HLine {
                    y: book::DEVIATION_BAND.1,
                    label: "0.06".into(),
                },
            ],
        },
    );
}

/// Self-similarity: the R/S fit (9-10) beside the book's H, and the series at several group sizes.
pub(super) fn self_similarity(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let s = &st.selfsim;
    versus(
        ui,
        lang,
        "H (R/S)",
        s.hurst.rs.map_or("—".into(), |h| format!("{h:.3}")),
        format!("{:.2}", s.book_h),
    );
    ui.label(lang.tf(
        "ql.vt_h",
        &[&s.variance_time_h.map_or("—".into(), |h| format!("{h:.3}"))],
    ));
    let pts: Vec<[f64; 2]> = s
        .hurst
        .fit_points
        .iter()
        .map(|p| [p.log_n, p.log_rs])
        .collect();
    let mut series = vec![(
        lang.t("ql.rs_points").to_string(),
        pts.clone(),
        Kind::Points,
    )];
    if let (Some(h), Some(c), Some(a), Some(b)) =
        (s.hurst.rs, s.hurst.intercept, pts.first(), pts.last())
    {
        series.push((
            lang.t("ql.fit").into(),
            vec![[a[0], c + h * a[0]], [b[0], c + h * b[0]]],
            Kind::Line,
        ));
        for (slope, name) in [
            (0.5, "0.5"),
            (book::HURST_BOUNDS.0, "0.58"),
            (book::HURST_BOUNDS.1, "0.82"),
            (1.0, "1.0"),
        ] {
            series.push((
                format!("{} {name}", lang.t("ql.slope")),
                vec![[0.0, 0.0], [b[0], slope * b[0]]],
                Kind::Line,
            ));
        }
    }
    let t = s.hurst.fit_points.clone();
    table_button(ui, lang, ex, move || {
        Table::new("R/S", ["n", "rs", "log10_n", "log10_rs", "blocks"]).with_rows(t.iter().map(
            |p| {
                [
                    p.n.to_string(),
                    p.rs.to_string(),
                    p.log_n.to_string(),
                    p.log_rs.to_string(),
                    p.blocks.to_string(),
                ]
            },
        ))
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_rs",
            title: "R/S".into(),
            x: "log10 n".into(),
            y: "log10 R/S".into(),
            log: (false, false),
            series,
            marks: vec![],
        },
    );
    let levels: Vec<(String, Vec<[f64; 2]>, Kind)> = s
        .levels
        .iter()
        .map(|l| {
            (
                format!("{}", l.group_size),
                l.series
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        [
                            i as f64 / l.series.len().max(1) as f64,
                            v as f64 / l.group_size as f64,
                        ]
                    })
                    .collect(),
                Kind::Line,
            )
        })
        .collect();
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_levels",
            title: lang.t("ql.levels").into(),
            x: lang.t("ql.axis_position").into(),
            y: lang.t("ql.axis_distinct_share").into(),
            log: (false, false),
            series: levels,
            marks: vec![],
        },
    );
}

/// Requests by hour of the day.
pub(super) fn time_of_day(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    match &st.time_of_day {
        None => {
            ui.label(lang.t("ql.no_time"));
        }
        Some(h) => {
            let pts: Vec<[f64; 2]> = h
                .iter()
                .enumerate()
                .map(|(i, &v)| [i as f64, v as f64])
                .collect();
            let t = pts.clone();
            table_button(ui, lang, ex, move || {
                pairs_table(
                    lang.t("ql.tab_time"),
                    ["hour", "requests"],
                    t.iter().map(|p| (p[0].to_string(), p[1].to_string())),
                )
            });
            figure(
                ui,
                lang,
                ex,
                Fig {
                    id: "ql_time",
                    title: lang.t("ql.tab_time").into(),
                    x: lang.t("ql.axis_hour").into(),
                    y: lang.t("ql.requests").into(),
                    log: (false, false),
                    series: vec![(lang.t("ql.requests").into(), pts, Kind::Bars)],
                    marks: vec![],
                },
            );
        }
    }
}
