//! One tab per chapter-9 statistic: the plot (egui_plot on screen; the same data as an export
//! `Plot` for PNG/SVG), the table as CSV, and the book's number beside ours.

use egui::{RichText, Ui};

use super::Tab;
use super::figure::{Fig, Kind, figure};
use crate::engine::export::{Mark, Table};
use crate::engine::querylog::book;
use crate::engine::querylog::stats::Stats;
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};

/// "ours … · book …" line.
fn versus(ui: &mut Ui, lang: Lang, what: &str, ours: String, book: String) {
    ui.label(
        RichText::new(format!(
            "{what}: {} {ours} · {} {book}",
            lang.t("ql.ours"),
            lang.t("ql.book")
        ))
        .strong(),
    );
}

fn pairs_table(
    title: &str,
    headers: [&str; 2],
    rows: impl Iterator<Item = (String, String)>,
) -> Table {
    Table::new(title, headers).with_rows(rows.map(|(a, b)| [a, b]))
}

pub(super) fn draw(ui: &mut Ui, lang: Lang, ex: &mut Exports, tab: Tab, st: &Stats) {
    let pct = |v: f64| format!("{:.1}%", 100.0 * v);
    match tab {
        Tab::Volume => {
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
                for (a, b, c) in rows {
                    ui.label(a);
                    ui.label(b);
                    ui.label(c);
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
                    ui.label(q.count.to_string());
                    ui.label(&q.query);
                    ui.end_row();
                }
            });
        }
        Tab::RankFrequency => {
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
        Tab::Coverage => {
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
        Tab::Decay => {
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
        Tab::Deviation => {
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
        Tab::Pages => {
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
        Tab::Clicks => {
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
        Tab::Urls => match &st.urls {
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
        },
        Tab::SelfSim => {
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
                Table::new("R/S", ["n", "rs", "log10_n", "log10_rs", "blocks"]).with_rows(
                    t.iter().map(|p| {
                        [
                            p.n.to_string(),
                            p.rs.to_string(),
                            p.log_n.to_string(),
                            p.log_rs.to_string(),
                            p.blocks.to_string(),
                        ]
                    }),
                )
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
        Tab::Lengths => {
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
        Tab::TimeOfDay => match &st.time_of_day {
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
        },
    }
}
