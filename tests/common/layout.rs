//! Where the app's widgets sit on screen, read from the accessibility tree the UI pass builds
//! (nothing is rendered): labelled widgets that run past the window's right edge, widgets that
//! overlap, and a walk over every panel and tab at a zoom. Used by `gui_layout` (the checks)
//! and `gui_sweep` (the review pictures).

use egui::Rect;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use tianwang::ui::WorkbenchApp;

use super::frames;

/// A labelled widget on screen: its text (cut to 40 characters) and its box in points.
pub struct Boxed {
    pub label: String,
    pub rect: Rect,
}

/// The window in points at the harness's zoom (1280×800 pixels unless [`tall_200`] made it
/// taller).
pub fn window(h: &Harness<'_, WorkbenchApp>) -> Rect {
    h.ctx.content_rect()
}

/// At 200 %, a window four times as tall as the harness's 800 pixels and as wide: what lies
/// below a view's fold is laid out too (a scroll area lays out only what it shows).
pub fn tall_200(h: &mut Harness<'_, WorkbenchApp>) {
    // In points at the zoom already set: egui scaled the 1280 × 800 pixels once, when the
    // zoom changed.
    h.set_size(egui::vec2(640.0, 1600.0));
    frames::settle(h, 5);
}

/// Every widget with a label or a value and a box at least a point wide and high.
pub fn labelled(h: &Harness<'_, WorkbenchApp>) -> Vec<Boxed> {
    let mut out = Vec::new();
    for n in h.root().children_recursive() {
        let a = n.accesskit_node();
        let Some(label) = a.label().or_else(|| a.value()) else {
            continue;
        };
        if label.trim().is_empty() || a.bounding_box().is_none() {
            continue;
        }
        let rect = n.rect();
        if rect.width() >= 1.0 && rect.height() >= 1.0 {
            out.push(Boxed {
                label: label.chars().take(40).collect(),
                rect,
            });
        }
    }
    out
}

/// Labelled widgets that start inside the window and end past its right edge (below the
/// window's bottom too: there the panel scrolls).
pub fn past_right_edge(h: &Harness<'_, WorkbenchApp>) -> Vec<String> {
    let w = window(h);
    labelled(h)
        .into_iter()
        .filter(|b| b.rect.min.x < w.max.x && b.rect.max.x > w.max.x + 1.0)
        .map(|b| format!("{:?} {:?}", b.label, b.rect))
        .collect()
}

/// Texts on screen that hold an English phrase ([`has_english_phrase`]): in the Chinese UI
/// that is engine English nobody translated. Text fields
/// (page source, headers, a query typed) hold the user's data and are left out.
pub fn english_phrases(h: &Harness<'_, WorkbenchApp>) -> Vec<String> {
    use egui::accesskit::Role;
    let mut out = Vec::new();
    for n in h.root().children_recursive() {
        let a = n.accesskit_node();
        if matches!(a.role(), Role::TextInput | Role::MultilineTextInput) {
            continue;
        }
        let Some(text) = a.label().or_else(|| a.value()) else {
            continue;
        };
        if has_english_phrase(&text) {
            out.push(text.chars().take(120).collect());
        }
    }
    out
}

/// Whether `text` has four words of two or more ASCII letters in a row, one space apart, two
/// of them in lower case (a proper name such as "Noto Sans CJK SC" is capitalised).
pub fn has_english_phrase(text: &str) -> bool {
    let (mut run, mut lower) = (0, 0);
    for token in text.split(' ') {
        let word = token.trim_end_matches([',', '.', ';', ':']);
        if word.len() >= 2 && word.bytes().all(|b| b.is_ascii_alphabetic()) {
            run += 1;
            lower += usize::from(word.bytes().all(|b| b.is_ascii_lowercase()));
            if run >= 4 && lower >= 2 {
                return true;
            }
        } else {
            (run, lower) = (0, 0);
        }
    }
    false
}

/// Pairs of boxes that overlap by more than 2 points each way, neither inside the other (a
/// button's label lies inside the button).
pub fn overlapping(boxes: &[Boxed]) -> Vec<(&Boxed, &Boxed)> {
    let mut out = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let x = a.rect.intersect(b.rect);
            if x.width() > 2.0
                && x.height() > 2.0
                && !a.rect.contains_rect(b.rect)
                && !b.rect.contains_rect(a.rect)
            {
                out.push((a, b));
            }
        }
    }
    out
}

/// Zooms the harness to 200 % (four steps of Ctrl+=).
pub fn zoom_200(h: &mut Harness<'_, WorkbenchApp>) {
    for _ in 0..4 {
        h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Equals);
        h.step();
    }
    frames::settle(h, 30);
}

/// Opens the panel whose navigation label is `nav`, scrolled into view first (at 200 % the
/// last panels lie below the navigation's fold, and a widget outside its scroll area's view
/// takes no click).
pub fn open_panel(h: &mut Harness<'_, WorkbenchApp>, nav: &str, secs: u64) {
    if let Some(n) = h.query_all_by_label(nav).next() {
        n.scroll_to_me();
    }
    for _ in 0..20 {
        h.step();
    }
    frames::click(h, nav);
    frames::settle(h, secs);
}

/// Every panel and each of its tabs, `visit` called on each with a name (`Panel_k`) in Chinese
/// and again in English (the language switched back after). With `prepare`, each panel is
/// first driven as the frame test drives it (the query log's statistics, a cache run); a tab
/// that cannot be found is reported to `visit` as a name ending in `_missing`.
pub fn every_view(
    h: &mut Harness<'_, WorkbenchApp>,
    d: frames::Drive,
    prepare: bool,
    mut visit: impl FnMut(&mut Harness<'_, WorkbenchApp>, &str),
) {
    for (id, nav, tabs) in frames::PANELS {
        if prepare {
            let _ = frames::drive_panel(h, id, d);
        } else {
            open_panel(h, nav, d.secs);
        }
        let views: Vec<&str> = if tabs.is_empty() {
            vec![""]
        } else {
            tabs.to_vec()
        };
        for (k, tab) in views.iter().enumerate() {
            let name = format!("{id}_{k}");
            if !tab.is_empty() {
                let clicked = h.query_all_by_label(tab).next().map(|n| n.click());
                if clicked.is_none() {
                    visit(h, &format!("{name}_missing"));
                    continue;
                }
                frames::settle(h, d.secs);
            }
            visit(h, &format!("{name}_zh"));
            // A few frames after each switch: a table's auto-sized columns take a frame to
            // fit the other language's words.
            frames::click(h, "English");
            h.run_steps(4);
            visit(h, &format!("{name}_en"));
            frames::click(h, "中文");
            h.run_steps(4);
        }
    }
}
