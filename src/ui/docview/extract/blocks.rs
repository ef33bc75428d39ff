//! The block map: every content block of the tag tree [L2216–L2237] as a row, indented by
//! depth and coloured by the role the cleaner gave it, faded outside the main region; hover
//! (or click to pin) for the reason, the influence factor λ and the propagated weight.

use egui::text::LayoutJob;
use egui::{Color32, FontId, Rect, RichText, Sense, TextFormat, TextStyle, Ui, pos2, vec2};

use super::{ExtractState, rest_height};
use crate::engine::docview::{Block, BlockKind, Role};
use crate::ui::Lang;
use crate::ui::docview::preview;

pub(super) fn role_name(lang: Lang, r: Role) -> &'static str {
    match r {
        Role::Body => lang.t("docview.role_body"),
        Role::Title => lang.t("docview.role_title"),
        Role::Meta => lang.t("docview.role_meta"),
        Role::Navigation => lang.t("docview.role_navigation"),
        Role::LinkList => lang.t("docview.role_linklist"),
        Role::Ad => lang.t("docview.role_ad"),
        Role::Footer => lang.t("docview.role_footer"),
        Role::Picture => lang.t("docview.role_picture"),
        Role::Other => lang.t("docview.role_other"),
        Role::Container => lang.t("docview.role_container"),
    }
}

pub(super) fn role_colour(r: Role) -> Color32 {
    let (r, g, b) = match r {
        Role::Body => (0x2e, 0x9e, 0x4f),
        Role::Title => (0x1f, 0x6f, 0xeb),
        Role::Meta => (0x0f, 0x9d, 0x9a),
        Role::Navigation => (0xe8, 0x87, 0x1e),
        Role::LinkList => (0xc9, 0xa4, 0x00),
        Role::Ad => (0xd3, 0x2f, 0x2f),
        Role::Footer => (0x8d, 0x6e, 0x63),
        Role::Picture => (0x8e, 0x44, 0xad),
        Role::Other => (0x9e, 0x9e, 0x9e),
        Role::Container => (0xb0, 0xbe, 0xc5),
    };
    Color32::from_rgb(r, g, b)
}

fn kind_name(lang: Lang, k: BlockKind) -> &'static str {
    match k {
        BlockKind::Topic => lang.t("docview.kind_topic"),
        BlockKind::Hub => lang.t("docview.kind_hub"),
        BlockKind::Pic => lang.t("docview.kind_pic"),
    }
}

pub(super) fn block_map(lang: Lang, ui: &mut Ui, ex: &mut ExtractState) {
    let Some((_, dv, _)) = ex.shown.clone() else {
        if ex.running.is_some() {
            ui.spinner();
        }
        return;
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(lang.t("docview.legend")).strong());
        for r in Role::ALL {
            let (rect, _) = ui.allocate_exact_size(vec2(14.0, 14.0), Sense::hover());
            ui.painter().rect_filled(rect, 3.0, role_colour(r));
            ui.label(role_name(lang, r));
        }
    });
    let in_region = dv.blocks.iter().filter(|b| b.in_region).count();
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut ex.only_text, lang.t("docview.only_text"));
        ui.label(
            RichText::new(lang.tf("docview.blocks_note", &[&dv.blocks.len(), &in_region])).weak(),
        );
    });
    let idx: Vec<usize> = dv
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| !ex.only_text || b.chars > 0)
        .map(|(i, _)| i)
        .collect();
    if let Some(b) = ex.block.and_then(|i| dv.blocks.get(i)) {
        let mut close = false;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(lang.tf("docview.block_pinned", &[&b.id])).strong());
                if ui.small_button(lang.t("docview.close")).clicked() {
                    close = true;
                }
            });
            block_details(lang, ui, b);
        });
        if close {
            ex.block = None;
        }
    }
    let row_h =
        ui.text_style_height(&TextStyle::Body) + ui.text_style_height(&TextStyle::Small) + 12.0;
    let h = rest_height(ui, 240.0);
    let mut clicked = None;
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 2.0;
        egui::ScrollArea::vertical()
            .id_salt("dv_blocks")
            .max_height(h)
            .min_scrolled_height(240.0)
            .auto_shrink([false, false])
            .show_rows(ui, row_h, idx.len(), |ui, range| {
                for &i in &idx[range] {
                    let b = &dv.blocks[i];
                    let resp = block_row(lang, ui, b, row_h, ex.block == Some(i));
                    let resp = resp.on_hover_ui(|ui| {
                        ui.set_max_width(420.0);
                        block_details(lang, ui, b);
                    });
                    if resp.clicked() {
                        clicked = Some(i);
                    }
                }
            });
    });
    if let Some(i) = clicked {
        ex.block = if ex.block == Some(i) { None } else { Some(i) };
    }
}

fn block_row(lang: Lang, ui: &mut Ui, b: &Block, row_h: f32, selected: bool) -> egui::Response {
    let w = ui.available_width();
    let (rect, resp) = ui.allocate_exact_size(vec2(w, row_h), Sense::click());
    if !ui.is_rect_visible(rect) {
        return resp;
    }
    let indent = (b.depth as f32 * 14.0).min(w * 0.4);
    let c = role_colour(b.role);
    let inner = Rect::from_min_max(pos2(rect.left() + indent, rect.top()), rect.max);
    let painter = ui.painter().with_clip_rect(rect);
    let (fill, swatch) = if b.in_region {
        (c.gamma_multiply(0.30), c)
    } else {
        (c.gamma_multiply(0.10), c.gamma_multiply(0.45))
    };
    painter.rect_filled(inner, 3.0, fill);
    painter.rect_filled(
        Rect::from_min_size(inner.min, vec2(6.0, inner.height())),
        2.0,
        swatch,
    );
    if selected || resp.hovered() {
        painter.rect_stroke(
            inner,
            3.0,
            egui::Stroke::new(1.5, c),
            egui::StrokeKind::Inside,
        );
    }
    let text_col = if b.in_region {
        ui.visuals().text_color()
    } else {
        ui.visuals().weak_text_color()
    };
    // Two lines: the element and its figures; then the start of its own text.
    let body_font = TextStyle::Body.resolve(ui.style());
    let small_font = TextStyle::Small.resolve(ui.style());
    let weak = ui.visuals().weak_text_color();
    let fmt = |font: &FontId, color: Color32| TextFormat {
        font_id: font.clone(),
        color,
        valign: egui::Align::Center,
        ..Default::default()
    };
    let width = (inner.width() - 16.0).max(10.0);
    let mut head = LayoutJob::default();
    head.append(
        &format!("{}  <{}>{}", role_name(lang, b.role), b.tag, b.hint),
        0.0,
        TextFormat {
            font_id: small_font.clone(),
            color: text_col,
            ..Default::default()
        },
    );
    head.append(
        &format!(
            "   {}",
            lang.tf(
                "docview.block_stats",
                &[
                    &b.chars,
                    &b.anchor_chars,
                    &b.images,
                    &kind_name(lang, b.kind),
                    &format!("{:.2}", b.weight),
                ],
            )
        ),
        0.0,
        fmt(&small_font, weak),
    );
    head.wrap.max_rows = 1;
    head.wrap.max_width = width;
    let mut line = LayoutJob::default();
    if b.text.is_empty() {
        let sub = lang.tf(
            "docview.block_sub",
            &[&b.sub_chars, &b.sub_anchor_chars, &b.sub_images],
        );
        line.append(&sub, 0.0, fmt(&small_font, weak));
    } else {
        line.append(&preview(&b.text, 120), 0.0, fmt(&body_font, text_col));
    }
    line.wrap.max_rows = 1;
    line.wrap.max_width = width;
    let head = painter.layout_job(head);
    let line = painter.layout_job(line);
    let x = inner.left() + 12.0;
    painter.galley(pos2(x, inner.top() + 3.0), head, text_col);
    painter.galley(
        pos2(x, inner.bottom() - 3.0 - line.size().y),
        line,
        text_col,
    );
    resp
}

fn block_details(lang: Lang, ui: &mut Ui, b: &Block) {
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(vec2(14.0, 14.0), Sense::hover());
        ui.painter().rect_filled(rect, 3.0, role_colour(b.role));
        ui.label(RichText::new(role_name(lang, b.role)).strong());
        ui.label(RichText::new(format!("#{} <{}>{}", b.id, b.tag, b.hint)).monospace());
    });
    ui.label(lang.tf("docview.block_reason", &[&lang.why(&b.why)]));
    ui.label(lang.tf(
        "docview.block_weight",
        &[&format!("{:.2}", b.influence), &format!("{:.3}", b.weight)],
    ));
    ui.label(lang.tf(
        "docview.block_counts",
        &[
            &b.chars,
            &b.anchor_chars,
            &b.links,
            &b.images,
            &b.sub_chars,
            &b.sub_anchor_chars,
            &b.sub_images,
        ],
    ));
    ui.label(lang.tf(
        "docview.block_kind",
        &[
            &kind_name(lang, b.kind),
            &format!("{:.1}", b.score),
            &if b.in_region {
                lang.t("docview.yes")
            } else {
                lang.t("docview.no")
            },
        ],
    ));
    if !b.weighty.is_empty() {
        ui.label(RichText::new(lang.t("docview.weighty")).strong());
        for (tag, text, counted) in b.weighty.iter().take(12) {
            let note = if *counted {
                lang.t("docview.weighty_counted")
            } else {
                lang.t("docview.weighty_noise")
            };
            ui.label(format!("<{tag}> {} · {note}", preview(text, 40)));
        }
    }
    if !b.text.is_empty() {
        ui.label(RichText::new(preview(&b.text, 300)).weak());
    }
}
