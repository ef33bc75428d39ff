//! Volume and the popularity of queries (book §9.2 [L3238–L3256]): the totals beside the
//! book's, rank–frequency with its Zipf fit, coverage (9-1) with the book's fit (9-2), and query
//! lengths. One function per tab, called by [`super::draw`]:
//!
//! ```ignore
//! volume::coverage(ui, lang, &mut exports, &stats);
//! ```

use egui::{RichText, Ui};

use super::super::figure::{Fig, Kind, figure};
use super::{pairs_table, pct, versus};
use crate::engine::export::{Mark, Table};
use crate::engine::querylog::stats::Stats;
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};

/// Requests, distinct queries, users, sessions and repeats beside the book's totals, and the top queries.
pub(super) fn volume(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let v = &st.volume;
    let rows = vec![
        (
            lang.t("ql.requests"),
            v.requests.to_string(),
            format!("{:.0}", v.book_requests),
        ),
        (
            lang.t("ql.distinct"),
            v.distinct_queries.to_string(),
            format!("{:.0}", v.book_distinct),
        ),
        (
            lang.t("ql.users"),
            v.distinct_users.to_string(),
            String::new(),
        ),
        (lang.t("ql.sessions"), v.sessions.to_string(), String::new()),
        (
            lang.t("ql.seen_once"),
            v.queries_seen_once.to_string(),
            String::new(),
        ),
        (
            lang.t("ql.repeat_fraction"),
            format!("{:.4}", v.repeat_fraction),
            format!("{:.4}", 1.0 - v.book_distinct / v.book_requests),
        ),
        (
            lang.t("ql.per_query"),
            format!("{:.2}", v.requests_per_query),
            format!("{:.2}", v.book_requests / v.book_distinct),
        ),
    ];
    let t = rows.clone();
    table_button(ui, lang, ex, move || {
        Table::new(lang.t("ql.tab_volume"), ["figure", "ours", "book"]).with_rows(
            t.iter()
                .map(|(a, b, c)| [a.to_string(), b.clone(), c.clone()]),
        )
    });
    egui::Grid::new("ql_volume").striped(true).show(ui, |ui| {
        ui.label("");
        ui.label(RichText::new(lang.t("ql.ours")).strong());
        ui.label(RichText::new(lang.t("ql.book")).strong());
        ui.end_row();
        // Whole numbers grouped by thousands on screen (the exported table keeps them plain).
        let shown = |s: String| s.parse::<u64>().map_or(s, crate::ui::shell::grouped);
        for (a, b, c) in rows {
            ui.label(a);
            ui.label(shown(b));
            ui.label(shown(c));
            ui.end_row();
        }
    });
    ui.label(RichText::new(lang.t("ql.top_queries")).strong());
    let top = st.top_queries.clone();
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.top_queries"),
            ["query", "count"],
            top.iter().map(|q| (q.query.clone(), q.count.to_string())),
        )
    });
    egui::Grid::new("ql_top").striped(true).show(ui, |ui| {
        for q in st.top_queries.iter().take(20) {
            ui.label(crate::ui::shell::grouped(q.count));
            ui.label(&q.query);
            ui.end_row();
        }
    });
}

/// Query counts by rank on log–log axes with the Zipf fit.
pub(super) fn rank_frequency(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let pts: Vec<[f64; 2]> = st
        .rank_frequency
        .points
        .iter()
        .map(|&(r, c)| [r as f64, c as f64])
        .collect();
    let mut series = vec![(lang.t("ql.observed").to_string(), pts.clone(), Kind::Points)];
    if let Some(z) = st.rank_frequency.zipf {
        versus(
            ui,
            lang,
            lang.t("ql.zipf_slope"),
            format!("{:.3} (R² {:.3})", z.slope, z.r2),
            lang.t("ql.zipf_none").into(),
        );
        let fit: Vec<[f64; 2]> = [z.min_rank as f64, z.max_rank as f64]
            .iter()
            .map(|&r| [r, 10f64.powf(z.intercept + z.slope * r.log10())])
            .collect();
        series.push((lang.t("ql.fit").to_string(), fit, Kind::Line));
    }
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.tab_rank"),
            ["rank", "count"],
            pts.iter().map(|p| (p[0].to_string(), p[1].to_string())),
        )
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_rank",
            title: lang.t("ql.tab_rank").into(),
            x: lang.t("ql.axis_rank").into(),
            y: lang.t("ql.axis_count").into(),
            log: (true, true),
            series,
            marks: vec![],
        },
    );
}

/// How much of the volume the top queries cover (9-1), with the book's fit (9-2) and its 20 % → 80 % point.
pub(super) fn coverage(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let c = &st.coverage;
    versus(
        ui,
        lang,
        lang.t("ql.cov_20"),
        pct(c.at_20pct),
        pct(c.book_at_20pct),
    );
    ui.label(lang.tf("ql.cov_more", &[&pct(c.at_5pct), &pct(c.at_50pct)]));
    let ours: Vec<[f64; 2]> = c
        .points
        .iter()
        .map(|p| [p.top_fraction, p.volume_fraction])
        .collect();
    let fit: Vec<[f64; 2]> = c
        .points
        .iter()
        .filter_map(|p| p.book_fit.map(|y| [p.top_fraction, y]))
        .collect();
    let t = c.points.clone();
    table_button(ui, lang, ex, move || {
        Table::new(
            lang.t("ql.tab_coverage"),
            ["top_fraction", "volume_fraction", "book_fit_9_2"],
        )
        .with_rows(t.iter().map(|p| {
            [
                p.top_fraction.to_string(),
                p.volume_fraction.to_string(),
                p.book_fit.map_or(String::new(), |v| v.to_string()),
            ]
        }))
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_cov",
            title: lang.t("ql.tab_coverage").into(),
            x: lang.t("ql.axis_top").into(),
            y: lang.t("ql.axis_volume").into(),
            log: (false, false),
            series: vec![
                (lang.t("ql.ours").into(), ours, Kind::Line),
                (lang.t("ql.book_fit").into(), fit, Kind::Line),
            ],
            marks: vec![
                Mark::VLine {
                    x: 0.2,
                    label: lang.t("ql.mark_top20").into(),
                },
                Mark::HLine {
                    y: 0.8,
                    label: lang.t("ql.mark_volume80").into(),
                },
                Mark::Point {
                    x: 0.2,
                    y: 0.8,
                    label: lang.t("ql.book_point").into(),
                },
            ],
        },
    );
}

/// Query lengths in characters and words.
pub(super) fn lengths(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let l = &st.lengths;
    ui.label(lang.tf(
        "ql.mean_lengths",
        &[
            &format!("{:.2}", l.mean_chars),
            &l.mean_words.map_or("—".into(), |w| format!("{w:.2}")),
        ],
    ));
    let ch: Vec<[f64; 2]> = l
        .chars
        .iter()
        .filter(|p| p.0 <= 40)
        .map(|&(a, b)| [a as f64, b as f64])
        .collect();
    let mut series = vec![(lang.t("ql.len_chars").to_string(), ch, Kind::Line)];
    if let Some(w) = &l.words {
        series.push((
            lang.t("ql.len_words").into(),
            w.iter()
                .filter(|p| p.0 <= 40)
                .map(|&(a, b)| [a as f64, b as f64])
                .collect(),
            Kind::Line,
        ));
    }
    let t = l.chars.clone();
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.tab_lengths"),
            ["chars", "requests"],
            t.iter().map(|(a, b)| (a.to_string(), b.to_string())),
        )
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_len",
            title: lang.t("ql.tab_lengths").into(),
            x: lang.t("ql.axis_length").into(),
            y: lang.t("ql.requests").into(),
            log: (false, false),
            series,
            marks: vec![],
        },
    );
}
