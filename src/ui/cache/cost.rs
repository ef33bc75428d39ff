//! The cache panel's replacement-cost plot and table: nanoseconds per request against cache
//! size for each policy of the last run (the book recommends LRU because LFU-decay costs O(size) per replacement [L3444]),
//! and the table of every (policy, size) row with the hit ratio beside Table 9-2's — made once
//! when the runs change ([`cost_data`]) and drawn virtualised when long (`table_rows`): 17
//! policies × 20 sizes are 340 rows.
//!
//! ```ignore
//! let cost = cost_data(lang, &reports); // when the runs change
//! cost_ui(lang, ui, &mut exports, cost.as_ref()); // each frame
//! ```

use egui::{Color32, RichText, Ui};
use egui_plot::{Corner, Line, Plot, PlotPoint, PlotPoints, Points};

use super::plots::{
    book_value, c32, color, kinds, last_offset, legend_room, log_grid, log_points, log_tick,
    size_axis, y_span,
};
use crate::engine::cache::sim::SimReport;
use crate::engine::export::{Plot as XPlot, Series as XSeries, Table};
use crate::ui::Lang;
use crate::ui::export::{Exports, plot_buttons, table_button};
use crate::ui::legend::{self, Entry, Swatch};

/// The cost table as shown: one row per (policy, size) of the last run.
fn cost_table(lang: Lang, label: &str, rep: &SimReport) -> Table {
    let title = format!("{} {label}", lang.t("cache.cost"));
    let mut t = Table::new(
        title,
        [
            lang.t("cache.policy"),
            lang.t("cache.size"),
            lang.t("cache.ns_per_request"),
            lang.t("cache.hit_ratio"),
            lang.t("cache.col_table_9_2"),
            lang.t("cache.book"),
        ],
    );
    for r in &rep.results {
        let b = (!rep.bytes).then(|| book_value(r.policy, r.size)).flatten();
        t.push([
            r.policy.name().to_string(),
            r.size.to_string(),
            format!("{:.0}", r.ns_per_request),
            format!("{:.4}", r.hit_ratio),
            b.map_or("—".into(), |b| format!("{b:.4}")),
            r.book
                .clone()
                .unwrap_or_else(|| lang.t("cache.not_in_book").into()),
        ]);
    }
    t
}

/// The replacement-cost plot and table of the last run.
pub(super) struct Cost {
    title: String,
    bytes: bool,
    /// (policy, points (size, ns per request), colour).
    raw: Vec<(String, Vec<[f64; 2]>, [u8; 3])>,
    /// The same with log10 x, as drawn.
    series: Vec<(String, Vec<PlotPoint>, Color32)>,
    y1: f64,
    table: Table,
    /// The legend below the plot (empty: inside it), see [`crate::ui::legend`].
    legend: Vec<Entry>,
}

const COST_HEIGHT: f32 = 200.0;

pub(super) fn cost_data(lang: Lang, reports: &[(String, SimReport)]) -> Option<Cost> {
    let (label, rep) = reports.last()?;
    // ns per request against size, one line per policy, coloured as in the curves plot.
    let off = last_offset(reports);
    let raw: Vec<(String, Vec<[f64; 2]>, [u8; 3])> = kinds(rep)
        .iter()
        .enumerate()
        .map(|(j, &k)| {
            let mut pts: Vec<[f64; 2]> = rep
                .results
                .iter()
                .filter(|r| r.policy == k)
                .map(|r| [r.size.max(1) as f64, r.ns_per_request])
                .collect();
            pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
            (k.name().to_string(), pts, color(off + j))
        })
        .collect();
    let (_, hi) = y_span(raw.iter().flat_map(|s| s.1.iter().map(|q| &q[1])));
    let y1 = if hi.is_finite() && hi > 0.0 {
        let room = legend::room(raw.len());
        legend_room(0.0, hi, room, COST_HEIGHT, false, (0.0, f64::INFINITY)).1
    } else {
        1.0
    };
    let legend = if legend::inside(raw.len()) {
        Vec::new()
    } else {
        (raw.iter())
            .map(|(n, _, c)| Entry::new(n.clone(), c32(*c), Swatch::Line))
            .collect()
    };
    Some(Cost {
        legend,
        title: format!("{} ({label})", lang.t("cache.plot_cost")),
        bytes: rep.bytes,
        series: raw
            .iter()
            .map(|(n, pts, c)| (n.clone(), log_points(pts), c32(*c)))
            .collect(),
        raw,
        y1,
        table: cost_table(lang, label, rep),
    })
}

pub(super) fn cost_ui(lang: Lang, ui: &mut Ui, ex: &mut Exports, d: Option<&Cost>) {
    let Some(d) = d else {
        return;
    };
    let x_label = size_axis(lang, d.bytes);
    ui.horizontal(|ui| {
        ui.label(RichText::new(&d.title).strong());
        plot_buttons(ui, lang, ex, || {
            let mut p = XPlot::new(&d.title, x_label, lang.t("cache.axis_ns")).log_x();
            for (n, pts, c) in &d.raw {
                p = p.series(XSeries::line(n.clone(), pts.clone()).color(*c));
            }
            p
        });
    });
    let plot = Plot::new("cache_cost_plot").height(COST_HEIGHT);
    legend::on_plot(plot, &d.legend, Corner::LeftTop)
        .x_axis_label(x_label)
        .y_axis_label(lang.t("cache.axis_ns"))
        .x_grid_spacer(log_grid)
        .x_axis_formatter(|mark, _| log_tick(mark.value))
        .include_y(0.0)
        .include_y(d.y1)
        .show(ui, |pl| {
            for (n, pts, c) in &d.series {
                pl.line(Line::new(n.as_str(), PlotPoints::Borrowed(pts)).color(*c));
                pl.points(
                    Points::new(n.as_str(), PlotPoints::Borrowed(pts))
                        .radius(2.5)
                        .color(*c),
                );
            }
        });
    legend::below(ui, &d.legend);
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("cache.cost")).strong());
        table_button(ui, lang, ex, || d.table.clone());
    });
    table_rows(ui, "cache_cost", &d.table);
    ui.label(RichText::new(lang.t("cache.cost_note")).weak());
}

/// Rows a table lays out whole (a frame's cost that does not grow with the data).
const SHORT_TABLE: usize = 40;

/// A table in a scrolled area, virtualised: rows of one height, only those in view laid out
/// (17 policies × 20 sizes are 340 rows).
fn table_rows(ui: &mut Ui, id: &str, t: &Table) {
    use egui_extras::{Column, TableBuilder};
    // A short table is laid out whole (every row readable by a screen reader and a test,
    // wherever the panel is scrolled); only a long one is virtualised.
    if t.rows.len() <= SHORT_TABLE {
        egui::Grid::new(id).striped(true).show(ui, |ui| {
            for h in &t.headers {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for row in &t.rows {
                for c in row {
                    ui.label(c);
                }
                ui.end_row();
            }
        });
        return;
    }
    let row_h = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    ui.push_id(id, |ui| {
        ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
        let mut b = TableBuilder::new(ui)
            .id_salt(id)
            .striped(true)
            .max_scroll_height(320.0)
            .auto_shrink([false, true]);
        for i in 0..t.headers.len() {
            b = b.column(if i + 1 == t.headers.len() {
                Column::remainder().at_least(80.0).clip(true)
            } else {
                Column::auto().at_least(60.0)
            });
        }
        b.header(row_h, |mut h| {
            for c in &t.headers {
                h.col(|ui| {
                    ui.label(RichText::new(c).strong());
                });
            }
        })
        .body(|body| {
            body.rows(row_h, t.rows.len(), |mut row| {
                let Some(r) = t.rows.get(row.index()) else {
                    return;
                };
                for c in r {
                    row.col(|ui| {
                        ui.label(c);
                    });
                }
            });
        });
    });
}
