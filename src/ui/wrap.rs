//! Cards in a wrapping row. egui moves a widget of known size to the next row of a
//! `horizontal_wrapped` when it does not fit, but a group or frame has no size until it has
//! been drawn, so a card that did not fit ran past the panel's right edge instead (the
//! Overview's cards at 200 % zoom). [`item`] gives the card its width up front, so it wraps
//! like any widget. Below [`NARROW`] ([`is_narrow`]) panels lay out for a narrow window;
//! [`two_up`] stacks two columns there.
//!
//! ```ignore
//! wrap::row(ui, |ui| {
//!     for c in cards {
//!         wrap::item(ui, wrap::framed(150.0, 12.0), |ui| card(ui, c));
//!     }
//! });
//! ```

use egui::{Align, Layout, Ui, vec2};

/// Below this width (points) a panel lays out for a narrow window: at 200 % zoom the
/// 1280-pixel window is 640 points wide. Two columns then stand one above the other, a side
/// panel folds, a form puts one field a row.
pub(crate) const NARROW: f32 = 760.0;

/// Whether `ui` is narrower than [`NARROW`]: lay it out for a narrow window.
pub(crate) fn is_narrow(ui: &Ui) -> bool {
    ui.available_width() < NARROW
}

/// `left` and `right` in two columns, or one above the other where `ui` [`is_narrow`] (two
/// columns of a form or a list ran past the window's edge at 200 %); both work on `state`.
pub(crate) fn two_up<S>(
    ui: &mut Ui,
    state: &mut S,
    left: impl FnOnce(&mut Ui, &mut S),
    right: impl FnOnce(&mut Ui, &mut S),
) {
    if is_narrow(ui) {
        left(ui, state);
        right(ui, state);
    } else {
        ui.columns(2, |cols| {
            left(&mut cols[0], state);
            right(&mut cols[1], state);
        });
    }
}

/// A row that wraps, its items aligned at their tops (cards of different heights line up;
/// `horizontal_wrapped` centres each on the row's first line).
pub(crate) fn row<R>(ui: &mut Ui, add: impl FnOnce(&mut Ui) -> R) -> R {
    ui.with_layout(Layout::left_to_right(Align::TOP).with_main_wrap(true), add)
        .inner
}

/// Adds `add` as one item `width` wide of the wrapping row `ui` (to the next row when the
/// width is not left in this one). `add` should keep within `width` (e.g. a frame whose
/// content calls `ui.set_width`, see [`framed`]).
pub(crate) fn item<R>(ui: &mut Ui, width: f32, add: impl FnOnce(&mut Ui) -> R) -> R {
    let h = ui.spacing().interact_size.y;
    ui.allocate_ui(vec2(width, h), add).inner
}

/// The outer width of a frame whose content is `content` wide, with `margin` inside its
/// border on each side (a group's border is one point wide; the stroke of a card may be 1.5).
pub(crate) fn framed(content: f32, margin: f32) -> f32 {
    content + 2.0 * margin + 4.0
}
