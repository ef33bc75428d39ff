//! What users click (book §9.5–9.7 [L3296–L3345]): result pages turned (9-5, Table 9-1), click
//! ranks, clicked URLs and the query-conditioned cosine (9-6). One function per tab, called by
//! [`super::draw`]:
//!
//! ```ignore
//! clicks::pages(ui, lang, &mut exports, &stats);
//! ```

use egui::{RichText, Ui};

use super::super::figure::{Fig, Kind, figure};
use super::{pairs_table, pct, versus};
use crate::engine::export::Mark;
use crate::engine::querylog::stats::Stats;
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};

/// Result pages turned (9-5) beside the book's Table 9-1.
pub(super) fn pages(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let p = &st.pages;
    let ours: Vec<[f64; 2]> = p
        .share_pct
        .iter()
        .enumerate()
        .map(|(i, &v)| [(i + 1) as f64 - 0.2, v])
        .collect();
    let bk: Vec<[f64; 2]> = p
        .book_share_pct
        .iter()
        .enumerate()
        .map(|(i, &v)| [(i + 1) as f64 + 0.2, v])
        .collect();
    versus(
        ui,
        lang,
        lang.t("ql.page1"),
        format!("{:.1}%", p.share_pct.first().copied().unwrap_or(0.0)),
        "47.3%".into(),
    );
    if let Some(ppq) = p.pages_per_query {
        versus(
            ui,
            lang,
            lang.t("ql.pages_per_query"),
            format!("{ppq:.2}"),
            "< 2".into(),
        );
    }
    let t = p.by_page.clone();
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.tab_pages"),
            ["page", "count"],
            t.iter().map(|(a, b)| (a.to_string(), b.to_string())),
        )
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_pages",
            title: lang.t("ql.tab_pages").into(),
            x: lang.t("ql.axis_page").into(),
            y: lang.t("ql.axis_share_pct").into(),
            log: (false, false),
            series: vec![
                (lang.t("ql.ours").into(), ours, Kind::Bars),
                (lang.t("ql.book").into(), bk, Kind::Bars),
            ],
            marks: vec![],
        },
    );
}

/// Clicks by the rank of the clicked result.
pub(super) fn clicks(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    let c = &st.clicks;
    ui.label(lang.tf("ql.clicks_total", &[&c.clicks]));
    ui.label(RichText::new(lang.t("ql.clicks_book_note")).weak());
    let ours: Vec<[f64; 2]> = c
        .rank_share_pct
        .iter()
        .enumerate()
        .map(|(i, &v)| [(i + 1) as f64, v])
        .collect();
    let t = c.by_rank.clone();
    table_button(ui, lang, ex, move || {
        pairs_table(
            lang.t("ql.tab_clicks"),
            ["rank", "count"],
            t.iter().map(|(a, b)| (a.to_string(), b.to_string())),
        )
    });
    figure(
        ui,
        lang,
        ex,
        Fig {
            id: "ql_clicks",
            title: lang.t("ql.tab_clicks").into(),
            x: lang.t("ql.axis_click_rank").into(),
            y: lang.t("ql.axis_click_share").into(),
            log: (false, false),
            series: vec![(lang.t("ql.ours").into(), ours, Kind::Bars)],
            marks: vec![],
        },
    );
}

/// Clicked-URL concentration and the query-conditioned cosine (9-6).
pub(super) fn urls(ui: &mut Ui, lang: Lang, ex: &mut Exports, st: &Stats) {
    match &st.urls {
        None => {
            ui.label(lang.t("ql.no_urls"));
        }
        Some(u) => {
            versus(
                ui,
                lang,
                lang.t("ql.urls_once"),
                pct(u.share_clicked_once),
                "> 50%".into(),
            );
            versus(
                ui,
                lang,
                lang.t("ql.urls_two_thirds"),
                pct(u.share_for_two_thirds),
                "< 33%".into(),
            );
            versus(
                ui,
                lang,
                lang.t("ql.cosine"),
                u.cosine.share_above_08.map_or("—".into(), pct),
                lang.t("ql.most").into(),
            );
            ui.label(lang.tf(
                "ql.cosine_multi",
                &[
                    &u.cosine.share_above_08_multi_url.map_or("—".into(), pct),
                    &u.cosine.multi_url_queries,
                ],
            ));
            let cov: Vec<[f64; 2]> = u.coverage.iter().map(|p| [p.0, p.1]).collect();
            let t = cov.clone();
            table_button(ui, lang, ex, move || {
                pairs_table(
                    lang.t("ql.tab_urls"),
                    ["top_fraction", "click_fraction"],
                    t.iter().map(|p| (p[0].to_string(), p[1].to_string())),
                )
            });
            figure(
                ui,
                lang,
                ex,
                Fig {
                    id: "ql_urls",
                    title: lang.t("ql.tab_urls").into(),
                    x: lang.t("ql.axis_top").into(),
                    y: lang.t("ql.axis_volume").into(),
                    log: (false, false),
                    series: vec![(lang.t("ql.ours").into(), cov, Kind::Line)],
                    marks: vec![Mark::Point {
                        x: 1.0 / 3.0,
                        y: 2.0 / 3.0,
                        label: lang.t("ql.book_point").into(),
                    }],
                },
            );
        }
    }
}
