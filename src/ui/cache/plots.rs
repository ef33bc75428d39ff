//! The cache panel's plots and tables: the ratio against cache size on a log axis (Table 9-2's
//! points and the ceiling overlaid), the hit ratio over time (warm-up visible), the replacement
//! cost per policy and size, and the cost table — each with its CSV or PNG/SVG export, the
//! exported plot built from the same data (and colours) with axis titles in units and the
//! book's marks. The y range leaves the legend's corner free of the curves.

use egui::{Color32, RichText, Ui};
use egui_plot::{
    Corner, GridInput, GridMark, HLine, Line, LineStyle, MarkerShape, Plot, PlotPoint, PlotPoints,
    Points, VLine,
};

use super::Metric;
use super::cost::{Cost, cost_data, cost_ui};
use crate::engine::cache::policy::PolicyKind;
use crate::engine::cache::sim::{BOOK_CEILING, RunResult, SimReport, TABLE_9_2};
use crate::engine::export::plot::{MARK_COLOR, PALETTE};
use crate::engine::export::{Mark, Plot as XPlot, Series as XSeries, Table};
use crate::ui::Lang;
use crate::ui::export::{Exports, plot_buttons};
use crate::ui::legend::{self, Entry, Swatch};

/// Series colour `i`, the same on screen and in the export.
pub(super) fn color(i: usize) -> [u8; 3] {
    PALETTE[i % PALETTE.len()]
}

pub(super) fn c32(c: [u8; 3]) -> Color32 {
    Color32::from_rgb(c[0], c[1], c[2])
}

/// Table 9-2's tuned LFU-decay column (the LRU column has the marks' colour).
const BOOK_LFU_COLOR: [u8; 3] = [0x6a, 0x2c, 0x8a];

/// Grid marks of the size axis: decades thick; 2, 3 and 5 of each decade get labels (when
/// they fit), the other digits thin lines.
pub(super) fn log_grid(input: GridInput) -> Vec<GridMark> {
    crate::ui::log_axis::log_grid(input, &[2, 3, 5])
}

/// The label of a log10 grid mark: sizes with leading digit 1, 2, 3 or 5, compact from 10⁵.
pub(super) fn log_tick(v: f64) -> String {
    let n = 10f64.powf(v);
    let lead = (n / 10f64.powf(n.log10().floor())).round();
    if ![1.0, 2.0, 3.0, 5.0].contains(&lead) {
        return String::new();
    }
    for (div, suffix) in [(1e9, "G"), (1e6, "M"), (1e5, "k")] {
        if n >= div * 0.999 {
            let d = if suffix == "k" { 1e3 } else { div };
            return format!("{:.0}{suffix}", n / d);
        }
    }
    format!("{n:.0}")
}

/// Grid marks of a ratio axis: the finest 1-2-5 step egui allows as thin lines, labels every
/// 0.05 or 0.1 (or coarser) so a narrow range still gets more than one.
fn ratio_grid(input: GridInput) -> Vec<GridMark> {
    let up = |x: f64| {
        let p = 10f64.powf(x.abs().max(1e-9).log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * p)
            .find(|v| *v >= x * 0.999)
            .unwrap_or(10.0 * p)
    };
    let s = up(input.base_step_size);
    let mid = up(2.5 * s);
    let big = 10f64.powf((mid * 1.01).log10().ceil());
    egui_plot::uniform_grid_spacer(move |_| [s, mid, big])(input)
}

/// A ratio-axis label with as many decimals as its grid step needs (0.5, 0.65).
fn ratio_tick(mark: GridMark) -> String {
    let decimals = (-mark.step_size.log10().floor()).max(0.0) as usize;
    format!("{:.*}", decimals, mark.value)
}

/// y bounds that keep `entries` legend rows (in a bottom corner when `below`, else a top
/// corner) clear of data spanning [lo, hi], within `clamp`.
pub(super) fn legend_room(
    lo: f64,
    hi: f64,
    entries: usize,
    height: f32,
    below: bool,
    clamp: (f64, f64),
) -> (f64, f64) {
    let (lo, hi) = if hi - lo < 1e-3 {
        (lo - 0.05, hi + 0.05)
    } else {
        (lo, hi)
    };
    let f = ((entries as f64 * 22.0 + 16.0) / f64::from(height) + 0.06).min(0.8);
    if below {
        (((lo - f * hi) / (1.0 - f)).max(clamp.0), hi.min(clamp.1))
    } else {
        (lo.max(clamp.0), ((hi - f * lo) / (1.0 - f)).min(clamp.1))
    }
}

/// The (min, max) of the y values.
pub(super) fn y_span<'a>(ys: impl Iterator<Item = &'a f64>) -> (f64, f64) {
    ys.filter(|y| y.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
            (a.min(*y), b.max(*y))
        })
}

fn value(r: &RunResult, m: Metric) -> f64 {
    match m {
        Metric::Hit => r.hit_ratio,
        Metric::Miss => r.miss_ratio,
        Metric::ByteHit => r.byte_hit_ratio,
    }
}

/// The y axis title (with its unit) of a metric.
fn metric_axis(lang: Lang, m: Metric) -> &'static str {
    match m {
        Metric::Hit => lang.t("cache.axis_hit"),
        Metric::Miss => lang.t("cache.axis_miss"),
        Metric::ByteHit => lang.t("cache.axis_byte_hit"),
    }
}

/// The x axis title: sizes count objects, or bytes.
pub(super) fn size_axis(lang: Lang, bytes: bool) -> &'static str {
    if bytes {
        lang.t("cache.axis_size_bytes")
    } else {
        lang.t("cache.axis_size")
    }
}

/// Every run counts bytes (then sizes are bytes).
fn all_bytes(reports: &[(String, SimReport)]) -> bool {
    !reports.is_empty() && reports.iter().all(|(_, r)| r.bytes)
}

/// Table 9-2's values at `size` for a policy the table has (LRU, tuned LFU-decay).
pub(super) fn book_value(kind: PolicyKind, size: u64) -> Option<f64> {
    let row = TABLE_9_2.iter().find(|t| t.0 == size)?;
    match kind {
        PolicyKind::Lru => Some(row.1),
        PolicyKind::LfuDecay => Some(row.2),
        _ => None,
    }
}

/// (label, points) per (run, policy): x = size in units, sorted.
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
                .map(|r| [r.size.max(1) as f64, value(r, m)])
                .collect();
            pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
            let book = if k.book_ref().is_some() { "" } else { " *" };
            out.push((format!("{label} {}{book}", k.name()), pts));
        }
    }
    out
}

/// Points with x as log10(x), for egui_plot's linear axis.
fn log_x(pts: &[[f64; 2]]) -> Vec<[f64; 2]> {
    pts.iter().map(|p| [p[0].max(1.0).log10(), p[1]]).collect()
}

/// The ceilings (1 − compulsory misses) as (label, y, includes the book's): each run's, and
/// the book's 0.833 when the book's overlay applies; ceilings closer than 0.015 share one
/// label, so the exported labels never print over each other.
fn ceilings(lang: Lang, reports: &[(String, SimReport)], book: bool) -> Vec<(String, f64, bool)> {
    let mut all: Vec<(String, f64, bool)> = Vec::new();
    if book {
        all.push((lang.t("cache.book_ceiling").to_string(), BOOK_CEILING, true));
    }
    for (label, r) in reports {
        let y = 1.0 - r.trace.compulsory_miss_ratio;
        all.push((
            format!("{label} {} {y:.3}", lang.t("cache.ceiling")),
            y,
            false,
        ));
    }
    let mut out: Vec<(String, f64, bool)> = Vec::new();
    for (l, y, b) in all {
        match out.iter_mut().find(|o| (o.1 - y).abs() < 0.015) {
            Some(o) => {
                o.0 = format!("{} · {l}", o.0);
                o.2 |= b;
            }
            None => out.push((l, y, b)),
        }
    }
    out
}

/// The exported ratio-against-size plot.
fn curves_export(lang: Lang, reports: &[(String, SimReport)], m: Metric, book: bool) -> XPlot {
    let title = match m {
        Metric::Hit if book => lang.t("cache.export_curves_book"),
        _ => lang.t("cache.plot_curves"),
    };
    let x_label = size_axis(lang, all_bytes(reports));
    let mut p = XPlot::new(title, x_label, metric_axis(lang, m)).log_x();
    for (i, (name, pts)) in curve_series(reports, m).into_iter().enumerate() {
        p = p.series(XSeries::line(name, pts).color(color(i)));
    }
    if book {
        // The LRU value labelled (the two columns differ by < 0.01, two labels would collide).
        for (s, lru, lfu) in TABLE_9_2 {
            let x = s as f64;
            let label = format!("{lru:.3}");
            p = p.mark(Mark::Point { x, y: lru, label });
            let label = String::new();
            p = p.mark(Mark::Point { x, y: lfu, label });
        }
    }
    if m == Metric::Hit {
        for (label, y, _) in ceilings(lang, reports, book) {
            p = p.mark(Mark::HLine { y, label });
        }
    }
    p
}

/// The ratio-against-size plot's data, made when the runs or the metric change.
struct Curves {
    /// Table 9-2's points and the book's ceiling are overlaid.
    book: bool,
    bytes: bool,
    /// (name, points with log10 x, colour) per (run, policy).
    series: Vec<(String, Vec<PlotPoint>, Color32)>,
    /// The ceilings: (label, y, includes the book's).
    lines: Vec<(String, f64, bool)>,
    book_lru: Vec<PlotPoint>,
    book_lfu: Vec<PlotPoint>,
    /// The y range that keeps the legend clear, and the legend's corner.
    y: (f64, f64),
    corner: Corner,
    /// The legend drawn below the plot when it has too many entries to fit inside (empty:
    /// egui_plot's legend, inside).
    legend: Vec<Entry>,
}

const CURVES_HEIGHT: f32 = 300.0;

pub(super) fn log_points(pts: &[[f64; 2]]) -> Vec<PlotPoint> {
    log_x(pts).into_iter().map(PlotPoint::from).collect()
}

fn curves_data(lang: Lang, reports: &[(String, SimReport)], m: Metric) -> Curves {
    let counted = reports.iter().any(|(_, r)| !r.bytes);
    let book = m == Metric::Hit && counted;
    let raw = curve_series(reports, m);
    let lines = if m == Metric::Hit {
        ceilings(lang, reports, book)
    } else {
        Vec::new()
    };
    let book_ys: Vec<f64> = if book {
        TABLE_9_2.iter().flat_map(|t| [t.1, t.2]).collect()
    } else {
        Vec::new()
    };
    let (lo, hi) = y_span(
        raw.iter()
            .flat_map(|(_, p)| p.iter().map(|q| &q[1]))
            .chain(&book_ys)
            .chain(lines.iter().map(|l| &l.1)),
    );
    // Falling curves (miss ratio) keep the legend top right, rising ones bottom right.
    let below = m != Metric::Miss;
    let entries = raw.len() + lines.len() + if book { 2 } else { 0 };
    let y = if lo.is_finite() {
        legend_room(
            lo,
            hi,
            legend::room(entries),
            CURVES_HEIGHT,
            below,
            (0.0, 1.0),
        )
    } else {
        (0.0, 1.0)
    };
    let (book_lru, book_lfu) = if book {
        let lru: Vec<[f64; 2]> = TABLE_9_2.iter().map(|(s, l, _)| [*s as f64, *l]).collect();
        let lfu: Vec<[f64; 2]> = TABLE_9_2.iter().map(|(s, _, f)| [*s as f64, *f]).collect();
        (log_points(&lru), log_points(&lfu))
    } else {
        (Vec::new(), Vec::new())
    };
    let series: Vec<(String, Vec<PlotPoint>, Color32)> = raw
        .into_iter()
        .enumerate()
        .map(|(i, (name, pts))| (name, log_points(&pts), c32(color(i))))
        .collect();
    // Below the plot, in the order egui_plot's legend would list them.
    let legend = if legend::inside(entries) {
        Vec::new()
    } else {
        let mut l: Vec<Entry> = (series.iter())
            .map(|(name, _, col)| Entry::new(name.clone(), *col, Swatch::Line))
            .collect();
        if book {
            l.push(Entry::new(
                lang.t("cache.book_lru"),
                c32(MARK_COLOR),
                Swatch::Diamond,
            ));
            l.push(Entry::new(
                lang.t("cache.book_lfu"),
                c32(BOOK_LFU_COLOR),
                Swatch::Square,
            ));
        }
        l.extend((lines.iter()).map(|(name, _, has_book)| {
            Entry::new(name.clone(), line_color(*has_book), Swatch::Dashed)
        }));
        l
    };
    Curves {
        book,
        bytes: all_bytes(reports),
        series,
        lines,
        book_lru,
        book_lfu,
        y,
        corner: if below {
            Corner::RightBottom
        } else {
            Corner::RightTop
        },
        legend,
    }
}

/// A ceiling's colour: the book's red when the line includes the book's ceiling, else grey.
fn line_color(has_book: bool) -> Color32 {
    if has_book {
        c32(MARK_COLOR)
    } else {
        Color32::from_gray(120)
    }
}

fn curves_ui(
    lang: Lang,
    ui: &mut Ui,
    ex: &mut Exports,
    reports: &[(String, SimReport)],
    m: Metric,
    c: Option<&Curves>,
) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("cache.plot_curves")).strong());
        if let Some(c) = c {
            let book = c.book;
            plot_buttons(ui, lang, ex, || curves_export(lang, reports, m, book));
        }
    });
    let Some(c) = c else {
        ui.label(RichText::new(lang.t("cache.no_runs")).weak());
        return;
    };
    let plot = Plot::new("cache_curves").height(CURVES_HEIGHT);
    legend::on_plot(plot, &c.legend, c.corner)
        .x_axis_label(size_axis(lang, c.bytes))
        .y_axis_label(metric_axis(lang, m))
        .x_grid_spacer(log_grid)
        .x_axis_formatter(|mark, _| log_tick(mark.value))
        .y_grid_spacer(ratio_grid)
        .y_axis_formatter(|mark, _| ratio_tick(mark))
        .include_y(c.y.0)
        .include_y(c.y.1)
        .show(ui, |pl| {
            for (name, pts, col) in &c.series {
                pl.line(Line::new(name.as_str(), PlotPoints::Borrowed(pts)).color(*col));
                pl.points(
                    Points::new(name.as_str(), PlotPoints::Borrowed(pts))
                        .radius(2.5)
                        .color(*col),
                );
            }
            if c.book {
                pl.points(
                    Points::new(lang.t("cache.book_lru"), PlotPoints::Borrowed(&c.book_lru))
                        .radius(5.0)
                        .shape(MarkerShape::Diamond)
                        .color(c32(MARK_COLOR)),
                );
                pl.points(
                    Points::new(lang.t("cache.book_lfu"), PlotPoints::Borrowed(&c.book_lfu))
                        .radius(4.0)
                        .shape(MarkerShape::Square)
                        .filled(false)
                        .color(c32(BOOK_LFU_COLOR)),
                );
            }
            for (name, y, has_book) in &c.lines {
                pl.hline(
                    HLine::new(name.as_str(), *y)
                        .color(line_color(*has_book))
                        .style(LineStyle::dashed_loose()),
                );
            }
        });
    legend::below(ui, &c.legend);
    if c.book {
        ui.label(RichText::new(lang.t("cache.book_overlay_note")).weak());
    }
}

/// The largest size of the last run: its hit ratio over time, per policy.
fn over_time(reports: &[(String, SimReport)]) -> Option<(&str, &SimReport, u64)> {
    let (label, rep) = reports.last()?;
    let size = rep.results.iter().map(|r| r.size).max()?;
    Some((label, rep, size))
}

/// The colour of the last run's first policy in the curves plot (the plots below use the
/// same colour for the same policy).
pub(super) fn last_offset(reports: &[(String, SimReport)]) -> usize {
    let n = reports.len().saturating_sub(1);
    reports[..n]
        .iter()
        .map(|(_, r)| {
            let mut k: Vec<_> = r.results.iter().map(|x| x.policy).collect();
            k.dedup();
            k.len()
        })
        .sum()
}

/// The last run's policies, in the order the curves plot has them.
pub(super) fn kinds(rep: &SimReport) -> Vec<PolicyKind> {
    let mut k: Vec<PolicyKind> = rep.results.iter().map(|r| r.policy).collect();
    k.dedup();
    k
}

/// (policy, points (% of trace, hit ratio), warm-up end in % when there is one).
type TimeSeries = Vec<(PolicyKind, Vec<[f64; 2]>, Option<f64>)>;

fn time_series(rep: &SimReport, size: u64) -> TimeSeries {
    rep.results
        .iter()
        .filter(|r| r.size == size)
        .map(|r| {
            let n = r.series.len().max(1) as f64;
            let pts = r
                .series
                .iter()
                .enumerate()
                .filter(|(_, v)| v.is_finite())
                .map(|(i, v)| [(i as f64 + 1.0) / n * 100.0, *v])
                .collect();
            let warm = (r.warmup_end > 0)
                .then(|| r.warmup_end as f64 / rep.trace.requests.max(1) as f64 * 100.0);
            (r.policy, pts, warm)
        })
        .collect()
}

/// Table 9-2's row at `size` as (label, LRU, LFU-decay), when the run counts objects.
fn book_row(lang: Lang, rep: &SimReport, size: u64) -> Option<(String, f64, f64)> {
    if rep.bytes {
        return None;
    }
    let (_, lru, lfu) = TABLE_9_2.iter().find(|t| t.0 == size)?;
    Some((lang.tf("cache.book_at", &[&size]), *lru, *lfu))
}

/// One policy's line over time as drawn: (policy, points, warm-up end, colour).
type TimeLine = (PolicyKind, Vec<PlotPoint>, Option<f64>, [u8; 3]);

/// The hit-ratio-over-time plot's data (the last run's largest size).
struct OverTime {
    title: String,
    series: Vec<TimeLine>,
    /// The same points as pairs, for the export.
    raw: TimeSeries,
    book: Option<(String, f64, f64)>,
    y: (f64, f64),
    /// The legend below the plot (empty: inside it), as in [`Curves`].
    legend: Vec<Entry>,
}

const TIME_HEIGHT: f32 = 220.0;

fn over_time_data(lang: Lang, reports: &[(String, SimReport)]) -> Option<OverTime> {
    let (label, rep, size) = over_time(reports)?;
    let raw = time_series(rep, size);
    let book = book_row(lang, rep, size);
    let (off, order) = (last_offset(reports), kinds(rep));
    let col = |k: PolicyKind| color(off + order.iter().position(|&x| x == k).unwrap_or(0));
    let (lo, hi) = y_span(
        raw.iter()
            .flat_map(|(_, p, _)| p.iter().map(|q| &q[1]))
            .chain(book.iter().map(|b| &b.1)),
    );
    let entries =
        raw.len() + raw.iter().filter(|s| s.2.is_some()).count() + book.is_some() as usize;
    let y = if lo.is_finite() {
        legend_room(lo, hi, legend::room(entries), TIME_HEIGHT, true, (0.0, 1.0))
    } else {
        (0.0, 1.0)
    };
    let mut legend = Vec::new();
    if !legend::inside(entries) {
        for (k, _, warm) in &raw {
            let c = c32(col(*k));
            legend.push(Entry::new(k.name(), c, Swatch::Line));
            if warm.is_some() {
                let name = format!("{} {}", k.name(), lang.t("cache.warmup_end"));
                legend.push(Entry::new(name, c, Swatch::Dashed));
            }
        }
        if let Some((l, lru, _)) = &book {
            let name = format!("{l} LRU {lru:.3}");
            legend.push(Entry::new(name, c32(MARK_COLOR), Swatch::Dashed));
        }
    }
    Some(OverTime {
        legend,
        title: lang.tf("cache.plot_time", &[&label, &size]),
        series: raw
            .iter()
            .map(|(k, pts, w)| {
                let pts = pts.iter().copied().map(PlotPoint::from).collect();
                (*k, pts, *w, col(*k))
            })
            .collect(),
        raw,
        book,
        y,
    })
}

/// The exported hit-ratio-over-time plot.
fn over_time_export(lang: Lang, d: &OverTime) -> XPlot {
    let mut p = XPlot::new(
        &d.title,
        lang.t("cache.axis_time"),
        lang.t("cache.axis_hit"),
    );
    for ((k, pts, _), (_, _, _, c)) in d.raw.iter().zip(&d.series) {
        p = p.series(XSeries::line(k.name(), pts.clone()).color(*c));
    }
    // Warm-up ends closer than 3 % of the trace share one label.
    let mut warm: Vec<(f64, String)> = Vec::new();
    for (k, _, w) in &d.raw {
        let Some(x) = *w else { continue };
        let name = format!("{} {}", k.name(), lang.t("cache.warmup_end"));
        match warm.iter_mut().find(|(o, _)| (o - x).abs() < 3.0) {
            Some(o) => o.1 = format!("{}, {name}", o.1),
            None => warm.push((x, name)),
        }
    }
    for (x, label) in warm {
        p = p.mark(Mark::VLine { x, label });
    }
    if let Some((l, lru, _)) = &d.book {
        p = p.mark(Mark::HLine {
            y: *lru,
            label: format!("{l} LRU {lru:.3}"),
        });
    }
    p
}

fn over_time_ui(lang: Lang, ui: &mut Ui, ex: &mut Exports, d: Option<&OverTime>) {
    let Some(d) = d else {
        return;
    };
    ui.horizontal(|ui| {
        ui.label(RichText::new(&d.title).strong());
        plot_buttons(ui, lang, ex, || over_time_export(lang, d));
    });
    let plot = Plot::new("cache_time").height(TIME_HEIGHT);
    legend::on_plot(plot, &d.legend, Corner::RightBottom)
        .x_axis_label(lang.t("cache.axis_time"))
        .y_axis_label(lang.t("cache.axis_hit"))
        .include_x(0.0)
        .include_x(100.0)
        .y_grid_spacer(ratio_grid)
        .y_axis_formatter(|mark, _| ratio_tick(mark))
        .include_y(d.y.0)
        .include_y(d.y.1)
        .show(ui, |pl| {
            for (k, pts, warm, c) in &d.series {
                let c = c32(*c);
                pl.line(Line::new(k.name(), PlotPoints::Borrowed(pts)).color(c));
                if let Some(x) = warm {
                    let name = format!("{} {}", k.name(), lang.t("cache.warmup_end"));
                    pl.vline(
                        VLine::new(name, *x)
                            .color(c)
                            .style(LineStyle::dashed_loose()),
                    );
                }
            }
            if let Some((l, lru, _)) = &d.book {
                pl.hline(
                    HLine::new(format!("{l} LRU {lru:.3}"), *lru)
                        .color(c32(MARK_COLOR))
                        .style(LineStyle::dashed_loose()),
                );
            }
        });
    legend::below(ui, &d.legend);
}

/// The plots' data, made when the runs, the metric or the language change; a frame only
/// draws it (rebuilding it every frame cost 14 ms on 17 policies × 20 sizes).
#[derive(Default)]
pub(crate) struct PlotCache {
    key: Option<(u64, Metric, Lang)>,
    curves: Option<Curves>,
    time: Option<OverTime>,
    cost: Option<Cost>,
}

/// The ratio-against-size plot, the hit ratio over time and the replacement cost of
/// `reports` (`generation` grows whenever they change).
pub(crate) fn plots_ui(
    lang: Lang,
    ui: &mut Ui,
    ex: &mut Exports,
    reports: &[(String, SimReport)],
    generation: u64,
    m: Metric,
    cache: &mut PlotCache,
) {
    let key = (generation, m, lang);
    if cache.key != Some(key) {
        *cache = PlotCache {
            key: Some(key),
            curves: (!reports.is_empty()).then(|| curves_data(lang, reports, m)),
            time: over_time_data(lang, reports),
            cost: cost_data(lang, reports),
        };
    }
    curves_ui(lang, ui, ex, reports, m, cache.curves.as_ref());
    over_time_ui(lang, ui, ex, cache.time.as_ref());
    cost_ui(lang, ui, ex, cache.cost.as_ref());
}

/// The tuned-δ table: (size, best δ, its hit ratio) beside Table 9-2's tuned LFU-decay.
pub(crate) fn tuned_table(lang: Lang, tuned: &[(u64, f64, f64)]) -> Table {
    let mut t = Table::new(
        lang.t("cache.tuned"),
        [
            lang.t("cache.size"),
            "δ",
            lang.t("cache.hit_ratio"),
            lang.t("cache.book_lfu"),
        ],
    );
    for (s, d, h) in tuned {
        let book = book_value(PolicyKind::LfuDecay, *s);
        t.push([
            s.to_string(),
            format!("{d}"),
            format!("{h:.6}"),
            book.map_or("—".into(), |b| format!("{b:.6}")),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coinciding_ceilings_share_one_label() {
        let c = ceilings(Lang::En, &[], true);
        assert_eq!(c.len(), 1);
        assert!(c[0].2);
        assert!((c[0].1 - BOOK_CEILING).abs() < 1e-12);
        assert_eq!(book_value(PolicyKind::Lru, 100), Some(0.629381));
        assert_eq!(book_value(PolicyKind::Fifo, 100), None);
        let t = tuned_table(Lang::En, &[(300, 0.998, 0.68), (7, 1.0, 0.1)]);
        assert_eq!(t.rows[0][3], "0.680690");
        assert_eq!(t.rows[1][3], "—");
    }

    #[test]
    fn log_ticks_label_1_2_3_5_and_leave_room_for_the_legend() {
        assert_eq!(log_tick(2.0), "100");
        assert_eq!(log_tick(3f64.log10() + 3.0), "3000");
        assert_eq!(log_tick(4f64.log10() + 3.0), "");
        assert_eq!(log_tick(5.0), "100k");
        assert_eq!(log_tick(2f64.log10() + 6.0), "2M");
        let tick = |value, step_size| ratio_tick(GridMark { value, step_size });
        assert_eq!(
            (tick(0.5, 0.5), tick(0.65, 0.05), tick(0.7, 0.1)),
            ("0.5".into(), "0.65".into(), "0.7".into())
        );
        let r = ratio_grid(GridInput {
            bounds: (0.62, 0.78),
            base_step_size: 0.0073,
        });
        let labelled: Vec<f64> = r
            .iter()
            .filter(|m| m.step_size >= 0.049)
            .map(|m| m.value)
            .collect();
        assert_eq!(labelled.len(), 3, "{r:?}");
        let marks = log_grid(GridInput {
            bounds: (2.0, 3.5),
            base_step_size: 0.01,
        });
        assert_eq!(marks.len(), 9 + 3); // 100…900, 1000…3000
        // Six legend rows in 300 points: the lowest data sits above the legend.
        let (y0, y1) = legend_room(0.6, 0.833, 6, 300.0, true, (0.0, 1.0));
        assert!(y0 < 0.6 && y0 > 0.0 && (y1 - 0.833).abs() < 1e-9);
        let (f, top) = (0.06 + (6.0 * 22.0 + 16.0) / 300.0, y1 - y0);
        assert!((0.6 - y0) / top >= f - 1e-9);
    }
}
