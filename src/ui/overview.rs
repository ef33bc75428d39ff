//! Overview: what does this workspace hold, and what can each panel show? The first thing a
//! class sees — counts of sites, pages, snapshots and jobs, the whole engine built in one click
//! with its stages as a row ([`super::pipeline_view`]), and a guide to each panel with the book
//! chapter it follows.

use egui::{RichText, Ui};

use super::panel::{Cx, LabPanel, logged};
use super::pipeline_view::PipelineView;

/// A card's content width and its margin inside the border.
const CARD: (f32, f32) = (150.0, 12.0);

fn card(ui: &mut Ui, title: &str, value: Option<i64>, note: &str) {
    super::wrap::item(ui, super::wrap::framed(CARD.0, CARD.1), |ui| {
        card_frame(ui, title, value, note)
    });
}

fn card_frame(ui: &mut Ui, title: &str, value: Option<i64>, note: &str) {
    egui::Frame::group(ui.style())
        .inner_margin(CARD.1)
        .corner_radius(8.0)
        .show(ui, |ui| {
            ui.set_width(CARD.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(title).size(16.0));
                let v = value.map_or_else(|| "…".to_string(), |v| v.to_string());
                ui.label(RichText::new(v).size(34.0).strong());
                ui.label(RichText::new(note).small().weak());
            });
        });
}

fn show(cx: &mut Cx<'_>, ui: &mut Ui, pipeline: &mut PipelineView) {
    let lang = cx.lang;
    ui.heading(lang.t("overview.heading"));
    ui.add_space(4.0);
    let Some(sess) = cx.session else {
        if cx.opening {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(lang.t("ws.opening"));
            });
        } else {
            ui.label(lang.t("ws.none_hint"));
        }
        return;
    };
    ui.label(RichText::new(sess.path.display().to_string()).monospace());
    let sum = sess.summary.value.as_ref();
    if let Some(e) = &sess.summary.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if let Some(s) = sum {
        ui.label(
            RichText::new(
                lang.tf(
                    "overview.meta",
                    &[
                        &s.created_at
                            .as_deref()
                            .map_or("?".into(), super::shell::to_second),
                        &s.schema_version,
                        &super::shell::human_bytes(s.file_bytes),
                    ],
                ),
            )
            .weak(),
        );
    }
    if sum.is_some_and(|s| s.read_only) {
        ui.colored_label(ui.visuals().warn_fg_color, lang.t("overview.read_only"));
    }
    ui.add_space(10.0);
    super::wrap::row(ui, |ui| {
        card(
            ui,
            lang.t("overview.sites"),
            sum.map(|s| s.sites),
            lang.t("overview.sites_note"),
        );
        card(
            ui,
            lang.t("overview.pages"),
            sum.map(|s| s.pages),
            lang.t("overview.pages_note"),
        );
        card(
            ui,
            lang.t("overview.snapshots"),
            sum.map(|s| s.snapshots),
            lang.t("overview.snapshots_note"),
        );
        card(
            ui,
            lang.t("overview.jobs"),
            sum.map(|s| s.jobs),
            lang.t("overview.jobs_note"),
        );
    });
    if sum.is_some_and(|s| s.pages == 0) {
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("overview.empty_hint")).italics());
    }

    ui.add_space(12.0);
    pipeline.ui(cx, ui);

    ui.add_space(16.0);
    ui.label(
        RichText::new(lang.t("overview.pipeline_title"))
            .size(18.0)
            .strong(),
    );
    ui.label(lang.t("overview.pipeline"));

    ui.add_space(16.0);
    ui.label(
        RichText::new(lang.t("overview.guide_title"))
            .size(18.0)
            .strong(),
    );
    let mut goto = None;
    for p in crate::workbench::PANELS {
        let (what, book) = (lang.t(p.guide), lang.t(p.book));
        egui::Frame::group(ui.style())
            .inner_margin(10.0)
            .corner_radius(6.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width().min(900.0));
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .link(
                            RichText::new(format!("{} →", lang.t(p.label)))
                                .size(17.0)
                                .strong(),
                        )
                        .clicked()
                    {
                        goto = Some(p.id);
                    }
                    ui.label(RichText::new(lang.tf("overview.book_ref", &[&book])).weak());
                });
                ui.label(what);
            });
        ui.add_space(4.0);
    }
    if let Some(id) = goto {
        cx.goto(id);
    }
    ui.add_space(16.0);
    super::data_sets::section(ui, lang, cx.hub.data.as_ref());
    ui.add_space(16.0);
    ui.label(RichText::new(lang.t("overview.tips")).weak());
}

/// The overview panel: the pipeline's form and view are its only state.
#[derive(Default)]
pub(crate) struct OverviewPanel {
    pipeline: PipelineView,
}

impl LabPanel for OverviewPanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        show(cx, ui, &mut self.pipeline);
    }

    fn reopen(
        &mut self,
        _kind: &str,
        _id: i64,
        params: &serde_json::Value,
        lang: super::Lang,
    ) -> Result<(), String> {
        self.pipeline.reopen(&logged(params, lang)?);
        Ok(())
    }
}
