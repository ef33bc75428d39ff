//! A plot's legend drawn below the plot, for plots with many series. egui_plot draws its
//! legend inside the plot's frame and does not clip it: a legend taller than the plot ran over
//! the controls above it and over the next plot (the cache lab with all 17 policies, at 100 %
//! zoom already). A plot with up to [`INSIDE_MAX`] entries keeps egui_plot's legend (a click
//! hides a series); one with more draws none and calls [`below`] after it, where the entries
//! wrap to the panel's width.
//!
//! ```ignore
//! let below = if legend::inside(n) { vec![] } else { entries };
//! legend::on_plot(Plot::new("p"), &below, Corner::RightTop).show(ui, |pl| { /* series */ });
//! legend::below(ui, &below);
//! ```

use egui::{Color32, Rect, Sense, Stroke, TextStyle, Ui, pos2, vec2};
use egui_plot::{Corner, Legend, Plot};

/// Entries a legend inside the plot may hold; more go below it.
pub(crate) const INSIDE_MAX: usize = 6;

/// Whether a legend of `entries` stays inside its plot.
pub(crate) fn inside(entries: usize) -> bool {
    entries <= INSIDE_MAX
}

/// The legend rows a plot of `entries` must keep its data clear of: all of them when the
/// legend is inside the plot, none when it goes below.
pub(crate) fn room(entries: usize) -> usize {
    if inside(entries) { entries } else { 0 }
}

/// `plot` with egui_plot's legend in `corner` (series in the order they were added), unless
/// `below` holds the entries drawn under the plot instead.
pub(crate) fn on_plot<'a>(plot: Plot<'a>, below: &[Entry], corner: Corner) -> Plot<'a> {
    if below.is_empty() {
        plot.legend(
            Legend::default()
                .position(corner)
                .follow_insertion_order(true),
        )
    } else {
        plot
    }
}

/// How an entry's series is drawn, shown beside its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Swatch {
    Line,
    Dashed,
    Diamond,
    Square,
}

/// One legend entry: the series' name, colour and mark.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub name: String,
    pub color: Color32,
    pub swatch: Swatch,
}

impl Entry {
    pub(crate) fn new(name: impl Into<String>, color: Color32, swatch: Swatch) -> Self {
        Entry {
            name: name.into(),
            color,
            swatch,
        }
    }
}

/// The entries in rows under the plot, each a mark and its name, wrapped to the width.
pub(crate) fn below(ui: &mut Ui, entries: &[Entry]) {
    if entries.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 14.0;
        for e in entries {
            entry_ui(ui, e);
        }
    });
}

/// One entry as a single widget (mark and name), so a row wraps between entries only.
fn entry_ui(ui: &mut Ui, e: &Entry) {
    let font = TextStyle::Body.resolve(ui.style());
    let text_color = ui.visuals().text_color();
    let galley = ui
        .painter()
        .layout_no_wrap(e.name.clone(), font, text_color);
    let h = galley.size().y;
    let mark_w = 1.6 * h;
    let gap = 0.3 * h;
    let (rect, response) =
        ui.allocate_exact_size(vec2(mark_w + gap + galley.size().x, h), Sense::hover());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &e.name));
    if ui.is_rect_visible(rect) {
        let mark = Rect::from_min_size(rect.min, vec2(mark_w, h));
        paint(ui, mark, e.color, e.swatch);
        ui.painter()
            .galley(pos2(mark.max.x + gap, rect.min.y), galley, text_color);
    }
}

fn paint(ui: &Ui, r: Rect, color: Color32, swatch: Swatch) {
    let p = ui.painter();
    let (c, y) = (r.center(), r.center().y);
    let stroke = Stroke::new(2.0, color);
    match swatch {
        Swatch::Line => {
            p.line_segment([pos2(r.min.x, y), pos2(r.max.x, y)], stroke);
            p.circle_filled(c, 2.5, color);
        }
        Swatch::Dashed => {
            let dash = r.width() / 5.0;
            for k in [0.0, 2.0, 4.0] {
                let x = r.min.x + k * dash;
                p.line_segment([pos2(x, y), pos2(x + dash, y)], stroke);
            }
        }
        Swatch::Diamond => {
            let s = r.height() * 0.3;
            let pts = vec![
                pos2(c.x, c.y - s),
                pos2(c.x + s, c.y),
                pos2(c.x, c.y + s),
                pos2(c.x - s, c.y),
            ];
            p.add(egui::Shape::convex_polygon(pts, color, Stroke::NONE));
        }
        Swatch::Square => {
            let s = r.height() * 0.25;
            p.rect_stroke(
                Rect::from_center_size(c, vec2(2.0 * s, 2.0 * s)),
                0.0,
                Stroke::new(1.5, color),
                egui::StrokeKind::Middle,
            );
        }
    }
}
