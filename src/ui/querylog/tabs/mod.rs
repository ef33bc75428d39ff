//! One tab per chapter-9 statistic (book ch. 9 [L3162–L3393]): the plot (egui_plot on screen;
//! the same data as an export `Plot` for PNG/SVG), the table as CSV, and the book's number
//! beside ours. One function per tab, grouped by what it shows: [`volume`] (totals,
//! rank–frequency, coverage, lengths), [`series`] (decay, deviation, self-similarity, time of
//! day), [`clicks`] (pages, click ranks, URLs).
//!
//! ```ignore
//! tabs::draw(ui, lang, &mut cx.hub.exports, Tab::Coverage, &computed.out.stats);
//! ```

mod clicks;
mod series;
mod volume;

use egui::{RichText, Ui};

use super::Tab;
use crate::engine::export::Table;
use crate::engine::querylog::stats::Stats;
use crate::ui::Lang;
use crate::ui::export::Exports;

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

/// A share as a percentage, one decimal.
fn pct(v: f64) -> String {
    format!("{:.1}%", 100.0 * v)
}

/// Draw the statistic of `tab`.
pub(super) fn draw(ui: &mut Ui, lang: Lang, ex: &mut Exports, tab: Tab, st: &Stats) {
    let draw_tab = match tab {
        Tab::Volume => volume::volume,
        Tab::RankFrequency => volume::rank_frequency,
        Tab::Coverage => volume::coverage,
        Tab::Lengths => volume::lengths,
        Tab::Decay => series::decay,
        Tab::Deviation => series::deviation,
        Tab::SelfSim => series::self_similarity,
        Tab::TimeOfDay => series::time_of_day,
        Tab::Pages => clicks::pages,
        Tab::Clicks => clicks::clicks,
        Tab::Urls => clicks::urls,
    };
    draw_tab(ui, lang, ex, st);
}
