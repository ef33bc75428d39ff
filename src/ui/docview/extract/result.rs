//! The extracted view: encoding decision, page type with its ratios, title, body, abstract,
//! keywords with their weights (formula 7-1) and the links with their relatedness
//! [L2294–L2398].

use crate::engine::export::Table;
use crate::ui::export::{Exports, table_button};
use egui::{Rect, RichText, Sense, TextStyle, Ui, vec2};
use egui_extras::{Column, TableBuilder};

use super::{ExtractState, rest_height};
use crate::engine::docview::{DocView, PageType, TitleSource};
use crate::engine::text::encoding::DecidedBy;
use crate::ui::Lang;
use crate::ui::docview::{preview, tick};

/// At most this many characters of the body are drawn.
const BODY_SHOWN: usize = 20_000;

pub(super) fn type_name(lang: Lang, t: PageType) -> &'static str {
    match t {
        PageType::Topic => lang.t("docview.type_topic"),
        PageType::Hub => lang.t("docview.type_hub"),
        PageType::Pic => lang.t("docview.type_pic"),
    }
}

fn decided_name(lang: Lang, d: DecidedBy) -> &'static str {
    match d {
        DecidedBy::Bom => lang.t("docview.by_bom"),
        DecidedBy::Header => lang.t("docview.by_header"),
        DecidedBy::Meta => lang.t("docview.by_meta"),
        DecidedBy::Guess => lang.t("docview.by_guess"),
        DecidedBy::Override => lang.t("docview.by_override"),
    }
}

fn title_source_name(lang: Lang, s: TitleSource) -> &'static str {
    match s {
        TitleSource::Heading => lang.t("docview.ts_heading"),
        TitleSource::Tag => lang.t("docview.ts_tag"),
        TitleSource::Keyword => lang.t("docview.ts_keyword"),
        TitleSource::None => lang.t("docview.ts_none"),
    }
}

/// From the cursor to the bottom of the visible area (at least `min`).
fn section(ui: &mut Ui, title: &str) {
    ui.add_space(8.0);
    ui.label(RichText::new(title).size(17.0).strong());
}

pub(super) fn result_view(lang: Lang, ui: &mut Ui, ex: &mut ExtractState, exports: &mut Exports) {
    let Some((inputs, dv, _)) = ex.shown.clone() else {
        if ex.running.is_some() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(lang.t("docview.extracting"));
            });
        }
        return;
    };
    let truth = ex.page.as_ref().and_then(|p| p.truth.clone());
    egui::ScrollArea::vertical()
        .id_salt("dv_result")
        .max_height(rest_height(ui, 300.0))
        .min_scrolled_height(300.0)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let p = &inputs.params;
            section(ui, lang.t("docview.encoding"));
            let e = &dv.encoding;
            ui.label(lang.tf(
                "docview.enc_line",
                &[&e.name, &decided_name(lang, e.decided_by)],
            ));
            if let Some(d) = &e.declared {
                ui.label(lang.tf("docview.enc_declared", &[d]));
            }
            if !e.notes.is_empty() {
                ui.label(RichText::new(lang.enc_notes(&e.notes)).weak());
            }

            section(ui, lang.t("docview.page_type"));
            ui.label(
                RichText::new(type_name(lang, dv.page_type))
                    .size(18.0)
                    .strong()
                    .color(ui.visuals().hyperlink_color),
            );
            let r = &dv.type_ratios;
            let ratio = |v: Option<f64>| v.map_or_else(|| "—".to_string(), |v| format!("{v:.1}"));
            ui.label(lang.tf(
                "docview.ratios",
                &[
                    &ratio(r.text_per_anchor),
                    &format!("{:.1}", p.hub_ratio),
                    &ratio(r.text_per_image),
                    &format!("{:.0}", p.pic_ratio),
                ],
            ));
            ui.label(
                RichText::new(lang.tf(
                    "docview.type_counts",
                    &[
                        &r.text_chars,
                        &r.list_anchor_chars,
                        &r.anchor_chars,
                        &r.images,
                        &r.region,
                    ],
                ))
                .weak(),
            );
            if !r.why.key.is_empty() {
                ui.label(RichText::new(lang.why(&r.why)).weak());
            }

            section(ui, lang.t("docview.title"));
            ui.label(RichText::new(&dv.title).size(20.0).strong());
            ui.label(
                RichText::new(lang.tf(
                    "docview.title_source",
                    &[&title_source_name(lang, dv.title_source), &dv.raw_title],
                ))
                .weak(),
            );

            section(ui, lang.t("docview.body"));
            let body_chars = dv.body.chars().count();
            let times = if body_chars > 0 {
                format!("{:.1}", dv.html_chars as f64 / body_chars as f64)
            } else {
                "—".into()
            };
            ui.label(
                RichText::new(lang.tf("docview.body_note", &[&body_chars, &dv.html_chars, &times]))
                    .weak(),
            );
            egui::Frame::group(ui.style()).show(ui, |ui| {
                if dv.body.is_empty() {
                    ui.label(RichText::new(lang.t("docview.body_empty")).italics());
                } else if body_chars > BODY_SHOWN {
                    ui.label(preview(&dv.body, BODY_SHOWN));
                } else {
                    ui.label(&dv.body);
                }
            });
            if let Some(t) = truth {
                egui::CollapsingHeader::new(lang.t("docview.truth_body"))
                    .id_salt("dv_truth")
                    .show(ui, |ui| {
                        ui.label(RichText::new(preview(&t, BODY_SHOWN)).weak());
                    });
            }

            section(ui, lang.t("docview.abstract"));
            ui.label(
                RichText::new(lang.tf(
                    "docview.abstract_note",
                    &[&p.abstract_bytes, &p.sentences_per_paragraph],
                ))
                .weak(),
            );
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(if dv.abstract_text.is_empty() {
                    "—"
                } else {
                    &dv.abstract_text
                });
            });

            section(ui, lang.t("docview.keywords"));
            table_button(ui, lang, exports, || {
                Table::new(
                    format!("{} {}", lang.t("docview.keywords"), dv.title),
                    ["word", "weight", "tf", "weighted_tf"],
                )
                .with_rows(dv.keywords.iter().map(|k| {
                    [
                        k.word.clone(),
                        k.weight.to_string(),
                        k.tf.to_string(),
                        k.weighted_tf.to_string(),
                    ]
                }))
            });
            keywords_table(lang, ui, &dv);
            section(ui, lang.t("docview.links"));
            table_button(ui, lang, exports, || {
                Table::new(
                    format!("{} {}", lang.t("docview.links"), dv.title),
                    ["url", "anchor", "related", "similarity", "block"],
                )
                .with_rows(dv.links.iter().map(|l| {
                    [
                        l.url.clone(),
                        l.anchor.clone(),
                        l.related.to_string(),
                        l.similarity.map_or(String::new(), |x| x.to_string()),
                        l.block.to_string(),
                    ]
                }))
            });
            links_table(lang, ui, &dv);
        });
}

fn keywords_table(lang: Lang, ui: &mut Ui, dv: &DocView) {
    if dv.keywords.is_empty() {
        ui.label(RichText::new("—").weak());
        return;
    }
    let max = dv
        .keywords
        .iter()
        .map(|k| k.weight)
        .fold(0.0_f64, f64::max)
        .max(1e-9);
    let row_h = ui.text_style_height(&TextStyle::Body) + 8.0;
    let accent = ui.visuals().selection.bg_fill;
    let faint = ui.visuals().faint_bg_color;
    TableBuilder::new(ui)
        .id_salt("dv_keywords")
        .striped(true)
        .vscroll(false)
        .column(Column::auto().at_least(90.0))
        .column(Column::exact(190.0))
        .column(Column::auto().at_least(40.0))
        .column(Column::auto().at_least(60.0))
        .header(row_h, |mut h| {
            for k in [
                "docview.kw_word",
                "docview.kw_weight",
                "docview.kw_tf",
                "docview.kw_wtf",
            ] {
                h.col(|ui| {
                    ui.label(RichText::new(lang.t(k)).strong());
                });
            }
        })
        .body(|mut body| {
            for k in &dv.keywords {
                body.row(row_h, |mut row| {
                    row.col(|ui| {
                        ui.label(RichText::new(&k.word).strong());
                    });
                    row.col(|ui| {
                        ui.horizontal(|ui| {
                            let (rect, _) =
                                ui.allocate_exact_size(vec2(110.0, row_h * 0.5), Sense::hover());
                            let frac = (k.weight / max).clamp(0.0, 1.0) as f32;
                            ui.painter().rect_filled(rect, 2.0, faint);
                            ui.painter().rect_filled(
                                Rect::from_min_size(
                                    rect.min,
                                    vec2(rect.width() * frac, rect.height()),
                                ),
                                2.0,
                                accent,
                            );
                            ui.label(format!("{:.3}", k.weight));
                        });
                    });
                    row.col(|ui| {
                        ui.label(k.tf.to_string());
                    });
                    row.col(|ui| {
                        ui.label(format!("{:.2}", k.weighted_tf));
                    });
                });
            }
        });
}

fn links_table(lang: Lang, ui: &mut Ui, dv: &DocView) {
    let related = dv.links.iter().filter(|l| l.related).count();
    ui.label(RichText::new(lang.tf("docview.links_note", &[&dv.links.len(), &related])).weak());
    if dv.links.is_empty() {
        return;
    }
    let row_h = ui.text_style_height(&TextStyle::Body) + 8.0;
    TableBuilder::new(ui)
        .id_salt("dv_links")
        .striped(true)
        .vscroll(false)
        .column(Column::auto().at_least(40.0))
        .column(Column::initial(160.0).at_least(80.0).clip(true))
        .column(Column::auto().at_least(60.0))
        .column(Column::remainder().at_least(120.0).clip(true))
        .header(row_h, |mut h| {
            for k in [
                "docview.link_related",
                "docview.link_anchor",
                "docview.link_similarity",
                "docview.link_url",
            ] {
                h.col(|ui| {
                    ui.label(RichText::new(lang.t(k)).strong());
                });
            }
        })
        .body(|body| {
            body.rows(row_h, dv.links.len(), |mut row| {
                let Some(l) = dv.links.get(row.index()) else {
                    return;
                };
                row.col(|ui| {
                    tick(ui, l.related);
                });
                row.col(|ui| {
                    ui.add(egui::Label::new(&l.anchor).truncate());
                });
                row.col(|ui| {
                    match l.similarity {
                        // (A tiny negative cosine would print as "-0.00".)
                        Some(s) => {
                            ui.label(format!("{:.2}", if s.abs() < 0.005 { 0.0 } else { s }))
                        }
                        None => ui.label(RichText::new(lang.t("docview.in_body")).weak()),
                    };
                });
                row.col(|ui| {
                    ui.add(egui::Label::new(RichText::new(&l.url).monospace().small()).truncate());
                });
            });
        });
}
