//! A lesson step's Markdown drawn with egui's own widgets: `#`/`##`/`###` headings, paragraphs,
//! `- ` and `1. ` lists, `**bold**` and `` `code` `` inside a line. Enough for a step's text
//! (formulas are text, `[Lnnnn]` references stay as they are).
//!
//! ```ignore
//! markdown::show(ui, "### Table 9-2\nThe **LRU** hit ratio [L3433].", 1.0);
//! ```

use egui::{RichText, Ui};

/// One block of a step's text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    Heading(String),
    Paragraph(String),
    Item(String),
}

/// The blocks of `text` (computed once per step, not per frame).
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let flush = |para: &mut Vec<&str>, out: &mut Vec<Block>| {
        if !para.is_empty() {
            out.push(Block::Paragraph(para.join(" ")));
            para.clear();
        }
    };
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() {
            flush(&mut para, &mut out);
        } else if t.starts_with('#') {
            flush(&mut para, &mut out);
            out.push(Block::Heading(t.trim_start_matches('#').trim().to_string()));
        } else if let Some(item) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
            flush(&mut para, &mut out);
            out.push(Block::Item(item.to_string()));
        } else if t
            .split_once(". ")
            .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        {
            flush(&mut para, &mut out);
            out.push(Block::Item(t.to_string()));
        } else {
            para.push(t);
        }
    }
    flush(&mut para, &mut out);
    out
}

/// Spans of a line: (text, bold, code).
fn spans(line: &str) -> Vec<(String, bool, bool)> {
    let mut out = Vec::new();
    for (i, part) in line.split("**").enumerate() {
        for (j, piece) in part.split('`').enumerate() {
            if !piece.is_empty() {
                out.push((piece.to_string(), i % 2 == 1, j % 2 == 1));
            }
        }
    }
    out
}

fn line(ui: &mut Ui, text: &str, size: f32) {
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        for (t, bold, code) in spans(text) {
            let mut r = RichText::new(t).size(size);
            if bold {
                r = r.strong();
            }
            if code {
                r = r.code();
            }
            ui.label(r);
        }
    });
}

/// Draw `blocks` with body text of `size` points.
pub(crate) fn show(ui: &mut Ui, blocks: &[Block], size: f32) {
    for b in blocks {
        match b {
            Block::Heading(h) => {
                ui.label(RichText::new(h).size(size * 1.3).strong());
            }
            Block::Paragraph(p) => line(ui, p, size),
            Block::Item(i) => {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new("•").size(size));
                    line(ui, i, size);
                });
            }
        }
        ui.add_space(size * 0.3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_paragraphs_lists_and_inline_marks() {
        let b = blocks("### Title\nfirst\nline\n\n- one\n2. two\n**bold** and `code`");
        assert_eq!(
            b,
            vec![
                Block::Heading("Title".into()),
                Block::Paragraph("first line".into()),
                Block::Item("one".into()),
                Block::Item("2. two".into()),
                Block::Paragraph("**bold** and `code`".into()),
            ]
        );
        assert_eq!(
            spans("**bold** and `code`"),
            vec![
                ("bold".to_string(), true, false),
                (" and ".to_string(), false, false),
                ("code".to_string(), false, true)
            ]
        );
    }
}
