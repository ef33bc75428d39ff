//! The cleaner's parameters: every value the book names, as sliders and menus; a change
//! re-extracts in the background (see [`super::ExtractState::poll`]).

use egui::{RichText, Ui};

use super::ExtractState;
use crate::engine::docview::{AbstractMode, Params, Propagation};
use crate::engine::text::segment::Method;
use crate::ui::Lang;

/// Encodings offered as overrides (the decision is automatic by default).
const CHARSETS: [&str; 8] = [
    "utf-8",
    "gbk",
    "gb18030",
    "big5",
    "windows-1252",
    "shift_jis",
    "euc-kr",
    "utf-16le",
];

pub(super) fn params_ui(lang: Lang, ui: &mut Ui, ex: &mut ExtractState) {
    egui::CollapsingHeader::new(RichText::new(lang.t("docview.params")).strong())
        .id_salt("dv_params")
        // Open on a wide screen; on a narrow one (a projector at 250 %) the results come first.
        .default_open(ui.available_width() >= 600.0)
        .show(ui, |ui| {
            // Three groups: keyword weights, page type and links, abstract and decoding.
            let weights = |ui: &mut Ui, p: &mut Params| {
                ui.add(
                    egui::Slider::new(&mut p.lambda, 1.0..=8.0)
                        .step_by(0.1)
                        .text(lang.t("docview.p_lambda")),
                )
                .on_hover_text(lang.t("docview.p_lambda_tip"));
                ui.horizontal(|ui| {
                    ui.label(lang.t("docview.p_propagation"))
                        .on_hover_text(lang.t("docview.p_propagation_tip"));
                    let name = |m: Propagation| match m {
                        Propagation::Geometric => lang.t("docview.prop_geometric"),
                        Propagation::Constant => lang.t("docview.prop_constant"),
                        Propagation::TwoLevel => lang.t("docview.prop_two"),
                    };
                    egui::ComboBox::from_id_salt("dv_propagation")
                        .selected_text(name(p.propagation))
                        .show_ui(ui, |ui| {
                            for m in [
                                Propagation::Geometric,
                                Propagation::Constant,
                                Propagation::TwoLevel,
                            ] {
                                ui.selectable_value(&mut p.propagation, m, name(m));
                            }
                        });
                });
                ui.add(
                    egui::Slider::new(&mut p.beta_kw, 0.0..=3.0)
                        .step_by(0.05)
                        .text(lang.t("docview.p_beta_kw")),
                )
                .on_hover_text(lang.t("docview.p_beta_kw_tip"));
                ui.add(
                    egui::Slider::new(&mut p.max_keywords, 1..=100)
                        .text(lang.t("docview.p_max_kw")),
                );
            };
            let types = |ui: &mut Ui, p: &mut Params| {
                ui.add(
                    egui::Slider::new(&mut p.hub_ratio, 0.5..=20.0)
                        .logarithmic(true)
                        .text(lang.t("docview.p_hub")),
                )
                .on_hover_text(lang.t("docview.p_hub_tip"));
                ui.add(
                    egui::Slider::new(&mut p.pic_ratio, 10.0..=1000.0)
                        .logarithmic(true)
                        .text(lang.t("docview.p_pic")),
                )
                .on_hover_text(lang.t("docview.p_pic_tip"));
                ui.add(
                    egui::Slider::new(&mut p.beta_link, 0.0..=1.0)
                        .step_by(0.01)
                        .text(lang.t("docview.p_beta_link")),
                )
                .on_hover_text(lang.t("docview.p_beta_link_tip"));
                ui.horizontal(|ui| {
                    ui.label(lang.t("docview.p_segmenter"));
                    egui::ComboBox::from_id_salt("dv_segmenter")
                        .selected_text(crate::ui::docview::method_label(lang, p.segmenter))
                        .show_ui(ui, |ui| {
                            for m in Method::ALL {
                                ui.selectable_value(
                                    &mut p.segmenter,
                                    m,
                                    crate::ui::docview::method_label(lang, m),
                                );
                            }
                        });
                });
            };
            let summary = |ui: &mut Ui, p: &mut Params, charset: &mut Option<&'static str>| {
                ui.horizontal(|ui| {
                    ui.label(lang.t("docview.p_abstract"));
                    let name = |m: AbstractMode| match m {
                        AbstractMode::Sentences => lang.t("docview.abs_sentences"),
                        AbstractMode::Static => lang.t("docview.abs_static"),
                    };
                    egui::ComboBox::from_id_salt("dv_abstract_mode")
                        .selected_text(name(p.abstract_mode))
                        .show_ui(ui, |ui| {
                            for m in [AbstractMode::Sentences, AbstractMode::Static] {
                                ui.selectable_value(&mut p.abstract_mode, m, name(m));
                            }
                        });
                });
                ui.add(
                    egui::Slider::new(&mut p.abstract_bytes, 64..=2048)
                        .step_by(16.0)
                        .text(lang.t("docview.p_abstract_bytes")),
                )
                .on_hover_text(lang.t("docview.p_abstract_bytes_tip"));
                ui.add(
                    egui::Slider::new(&mut p.sentences_per_paragraph, 1..=5)
                        .text(lang.t("docview.p_sentences")),
                );
                ui.horizontal(|ui| {
                    ui.label(lang.t("docview.charset"));
                    egui::ComboBox::from_id_salt("dv_charset")
                        .selected_text(charset.unwrap_or(lang.t("docview.charset_auto")))
                        .show_ui(ui, |ui| {
                            ui.selectable_value(charset, None, lang.t("docview.charset_auto"));
                            for c in CHARSETS {
                                ui.selectable_value(charset, Some(c), c);
                            }
                        });
                });
            };
            let (p, charset) = (&mut ex.params, &mut ex.charset);
            let w = ui.available_width();
            ui.spacing_mut().slider_width = 90.0;
            if w >= 780.0 {
                ui.columns(3, |c| {
                    weights(&mut c[0], p);
                    types(&mut c[1], p);
                    summary(&mut c[2], p, charset);
                });
            } else if w >= 600.0 {
                ui.columns(2, |c| {
                    weights(&mut c[0], p);
                    types(&mut c[0], p);
                    summary(&mut c[1], p, charset);
                });
            } else {
                weights(ui, p);
                types(ui, p);
                summary(ui, p, charset);
            }
            if ui.button(lang.t("docview.defaults")).clicked() {
                ex.params = Params::default();
                ex.charset = None;
            }
        });
}
