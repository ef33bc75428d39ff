//! Overview: what does this workspace hold, and what can each panel show? The first thing a
//! class sees — counts of sites, pages, snapshots and jobs, and a guide to each panel with the
//! book chapter it follows.

use egui::{RichText, Ui};

use super::{Panel, WorkbenchApp};

fn card(ui: &mut Ui, title: &str, value: Option<i64>, note: &str) {
    egui::Frame::group(ui.style())
        .inner_margin(12.0)
        .corner_radius(8.0)
        .show(ui, |ui| {
            ui.set_min_width(150.0);
            ui.vertical(|ui| {
                ui.label(RichText::new(title).size(16.0));
                let v = value.map_or_else(|| "…".to_string(), |v| v.to_string());
                ui.label(RichText::new(v).size(34.0).strong());
                ui.label(RichText::new(note).small().weak());
            });
        });
}

/// Guide entries: panel, what it does, which part of the book it follows.
fn guide(lang: super::Lang, panel: Panel) -> (&'static str, &'static str) {
    match panel {
        Panel::Overview => (lang.t("guide.overview"), lang.t("guide.overview_book")),
        Panel::Sample => (lang.t("guide.sample"), lang.t("guide.sample_book")),
        Panel::Crawl => (lang.t("guide.crawl"), lang.t("guide.crawl_book")),
        Panel::Pages => (lang.t("guide.pages"), lang.t("guide.pages_book")),
        Panel::DocView => (lang.t("guide.docview"), lang.t("guide.docview_book")),
        Panel::Jobs => (lang.t("guide.jobs"), lang.t("guide.jobs_book")),
    }
}

pub(crate) fn show(app: &mut WorkbenchApp, ui: &mut Ui) {
    let lang = app.prefs.lang;
    ui.heading(lang.t("overview.heading"));
    ui.add_space(4.0);
    let Some(sess) = &app.session else {
        if app.opening.is_some() {
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
            RichText::new(lang.tf(
                "overview.meta",
                &[
                    &s.created_at.as_deref().unwrap_or("?"),
                    &s.schema_version,
                    &super::shell::human_bytes(s.file_bytes),
                ],
            ))
            .weak(),
        );
    }
    ui.add_space(10.0);
    ui.horizontal_wrapped(|ui| {
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
    for p in Panel::ALL {
        let (what, book) = guide(lang, p);
        egui::Frame::group(ui.style())
            .inner_margin(10.0)
            .corner_radius(6.0)
            .show(ui, |ui| {
                ui.set_width(ui.available_width().min(900.0));
                ui.horizontal(|ui| {
                    if ui
                        .link(
                            RichText::new(format!("{} →", p.label(lang)))
                                .size(17.0)
                                .strong(),
                        )
                        .clicked()
                    {
                        app.prefs.panel = p;
                    }
                    ui.label(RichText::new(lang.tf("overview.book_ref", &[&book])).weak());
                });
                ui.label(what);
            });
        ui.add_space(4.0);
    }
    ui.add_space(16.0);
    ui.label(RichText::new(lang.t("overview.tips")).weak());
}
