//! Sample web: which sites ship with the workbench, what is true about them, and a switch to
//! serve them over HTTP (for the crawler, or a browser) or load them into the workspace.

use egui::{RichText, Ui};

use super::Lang;
use super::export::{Exports, table_button};
use super::job_watch::{Finished, JobWatch};
use super::panel::{Cx, LabPanel, logged};
use super::task::Task;
use crate::engine::export::Table;
use crate::engine::jobs::TypedJob;
use crate::engine::sample::load::LoadSample;
use crate::engine::sample::server::{SampleServer, ServeOptions};
use crate::engine::sample::web::{SampleWeb, Truth};

#[derive(Default)]
pub(crate) struct SamplePanel {
    pub truth: super::task::Loaded<Truth>,
    pub starting: Option<Task<Result<SampleServer, String>>>,
    pub error: Option<String>,
    pub serve_changed: bool,
    pub load_changed: bool,
    /// The load this panel started, and why the last one failed.
    load: Option<JobWatch<LoadSample>>,
    load_error: Option<String>,
}

fn site_note(lang: Lang, key: &str) -> &'static str {
    match key {
        "huaxia" => lang.t("sample.site_huaxia"),
        "mirror" => lang.t("sample.site_mirror"),
        "xinzhi" => lang.t("sample.site_xinzhi"),
        "jiangnan" => lang.t("sample.site_jiangnan"),
        "wenhua" => lang.t("sample.site_wenhua"),
        "guangying" => lang.t("sample.site_guangying"),
        _ => lang.t("sample.site_kuaixun"),
    }
}

fn server_section(cx: &mut Cx<'_>, me: &mut SamplePanel, ui: &mut Ui) {
    let lang = cx.lang;
    let ctx = ui.ctx().clone();
    let p = &mut *me;
    let server = &mut cx.hub.sample_server;
    if let Some(r) = Task::take_result(&mut p.starting) {
        match r {
            Ok(s) => {
                (*server) = Some(s);
                p.error = None;
            }
            Err(e) => p.error = Some(e),
        }
    }
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("sample.serve_title")).strong());
            ui.horizontal_wrapped(|ui| {
                match &(*server) {
                    None => {
                        let busy = p.starting.is_some();
                        if ui
                            .add_enabled(!busy, egui::Button::new(lang.t("sample.start")))
                            .clicked()
                        {
                            let changed = p.serve_changed;
                            p.starting = Some(Task::spawn(&ctx, move || {
                                SampleServer::start(ServeOptions {
                                    changed,
                                    ..Default::default()
                                })
                                .map_err(|e| lang.error(&e))
                            }));
                        }
                        if busy {
                            ui.spinner();
                        }
                    }
                    Some(_) => {
                        if ui.button(lang.t("sample.stop")).clicked()
                            && let Some(s) = server.take()
                        {
                            // Stopping waits for open connections: not on the UI thread.
                            std::thread::spawn(move || s.stop());
                        }
                    }
                }
                if ui
                    .checkbox(&mut p.serve_changed, lang.t("sample.changed"))
                    .changed()
                    && let Some(s) = &(*server)
                {
                    s.set_changed(p.serve_changed);
                }
            });
            if let Some(e) = &p.error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            if let Some(s) = &(*server) {
                let stats = s.stats();
                ui.label(lang.tf(
                    "sample.serving",
                    &[
                        &s.addr(),
                        &stats.requests.load(std::sync::atomic::Ordering::Relaxed),
                    ],
                ));
                ui.label(RichText::new(lang.t("sample.seeds")).weak());
                for seed in &s.web().truth.seeds {
                    ui.hyperlink(seed);
                }
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_millis(500));
            } else {
                ui.label(RichText::new(lang.t("sample.serve_hint")).weak());
            }
        });
}

fn load_section(cx: &mut Cx<'_>, me: &mut SamplePanel, ui: &mut Ui) {
    let lang = cx.lang;
    if let Some(end) = JobWatch::take_finished(&mut me.load) {
        me.load_error = match end.outcome {
            Finished::Failed(code) => Some(lang.error_code(&code)),
            Finished::Done(_) | Finished::Cancelled => None,
        };
    }
    egui::Frame::group(ui.style())
        .inner_margin(10.0)
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("sample.load_title")).strong());
            ui.label(lang.t("sample.load_desc"));
            ui.horizontal_wrapped(|ui| {
                let running = me.load.is_some() || cx.is_running(LoadSample::KIND);
                if ui
                    .add_enabled(
                        cx.session.is_some() && !running,
                        egui::Button::new(lang.t("sample.load")),
                    )
                    .clicked()
                {
                    let changed = me.load_changed;
                    me.load_error = None;
                    me.load = JobWatch::start(cx, LoadSample { changed });
                }
                ui.checkbox(&mut me.load_changed, lang.t("sample.load_changed"));
            });
            if let Some(e) = &me.load_error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
        });
}

fn truth_section(lang: Lang, ui: &mut Ui, t: &Truth, ex: &mut Exports) {
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(lang.t("sample.sites_title"))
                .size(18.0)
                .strong(),
        );
        table_button(ui, lang, ex, || {
            Table::new(
                lang.t("sample.sites_title"),
                [
                    lang.t("sample.col_site"),
                    lang.t("sample.col_host"),
                    lang.t("sample.col_encoding"),
                    lang.t("sample.col_pages"),
                    "topic",
                    "hub",
                    "picture",
                ],
            )
            .with_rows(t.sites.iter().map(|s| {
                [
                    s.name.clone(),
                    s.host.clone(),
                    s.encoding.clone(),
                    s.pages.to_string(),
                    s.topic.to_string(),
                    s.hub.to_string(),
                    s.picture.to_string(),
                ]
            }))
        });
    });
    if super::wrap::is_narrow(ui) {
        sites_list(lang, ui, t);
    } else {
        sites_grid(lang, ui, t);
    }
    ui.add_space(10.0);
    ui.label(
        RichText::new(lang.t("sample.truth_title"))
            .size(18.0)
            .strong(),
    );
    let counts = t.relation_counts();
    let n = |k: &str| counts.get(k).copied().unwrap_or(0);
    let rows = [
        (lang.t("sample.rel_exact"), n("exact")),
        (lang.t("sample.rel_near"), n("near")),
        (lang.t("sample.rel_contains"), n("contains")),
        (lang.t("sample.rel_mirror"), n("mirror")),
        (lang.t("sample.hard_negatives"), t.hard_negatives.len()),
        (lang.t("sample.robots"), t.robots_disallowed.len()),
        (lang.t("sample.broken"), t.broken_links.len()),
        (lang.t("sample.redirects"), t.redirects.len()),
        (lang.t("sample.canonical"), t.canonical_cases.len()),
        (lang.t("sample.changed_pages"), t.changed.len()),
    ];
    table_button(ui, lang, ex, || {
        Table::new(
            lang.t("sample.truth_title"),
            [lang.t("sample.truth_title"), lang.t("export.col_count")],
        )
        .with_rows(rows.iter().map(|(l, c)| [l.to_string(), c.to_string()]))
    });
    egui::Grid::new("sample_truth")
        .num_columns(2)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            // The count first: a long label wraps in the last column.
            for (label, count) in rows {
                ui.label(RichText::new(count.to_string()).strong());
                ui.add(egui::Label::new(label).wrap());
                ui.end_row();
            }
        });
    ui.label(RichText::new(lang.t("sample.truth_cli")).weak());
}

/// The sites as a table, one column per fact.
fn sites_grid(lang: Lang, ui: &mut Ui, t: &Truth) {
    egui::Grid::new("sample_sites")
        .striped(true)
        .num_columns(6)
        .spacing([14.0, 6.0])
        .show(ui, |ui| {
            for h in [
                lang.t("sample.col_site"),
                lang.t("sample.col_host"),
                lang.t("sample.col_encoding"),
                lang.t("sample.col_pages"),
                lang.t("sample.col_types"),
                lang.t("sample.col_note"),
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for (s, def) in t.sites.iter().zip(crate::engine::sample::web::SITES) {
                ui.label(&s.name);
                ui.label(RichText::new(&s.host).monospace());
                ui.label(s.encoding.to_uppercase());
                ui.label(s.pages.to_string());
                ui.label(lang.tf("sample.types", &[&s.topic, &s.hub, &s.picture]));
                ui.add(egui::Label::new(site_note(lang, def.key)).wrap());
                ui.end_row();
            }
        });
}

/// The sites one below the other where the panel is narrow (200 % zoom: the table's six
/// columns ran past the window's edge): name and host, the facts named, the note.
fn sites_list(lang: Lang, ui: &mut Ui, t: &Truth) {
    for (s, def) in t.sites.iter().zip(crate::engine::sample::web::SITES) {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&s.name).strong());
            ui.label(RichText::new(&s.host).monospace());
        });
        ui.horizontal_wrapped(|ui| {
            let facts = [
                (lang.t("sample.col_encoding"), s.encoding.to_uppercase()),
                (lang.t("sample.col_pages"), s.pages.to_string()),
                (
                    lang.t("sample.col_types"),
                    lang.tf("sample.types", &[&s.topic, &s.hub, &s.picture]),
                ),
            ];
            for (name, value) in facts {
                ui.label(RichText::new(name).weak());
                ui.label(value);
                ui.add_space(8.0);
            }
        });
        ui.add(egui::Label::new(site_note(lang, def.key)).wrap());
        ui.separator();
    }
}

impl LabPanel for SamplePanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        show(cx, self, ui);
    }

    fn reopen(
        &mut self,
        _kind: &str,
        _id: i64,
        params: &serde_json::Value,
        lang: Lang,
    ) -> Result<(), String> {
        let p: crate::engine::sample::load::LoadSampleParams = logged(params, lang)?;
        self.load_changed = p.changed;
        Ok(())
    }
}

fn show(cx: &mut Cx<'_>, me: &mut SamplePanel, ui: &mut Ui) {
    let lang = cx.lang;
    ui.heading(lang.t("sample.heading"));
    ui.label(lang.tf(
        "sample.intro",
        &[&me.truth.value.as_ref().map_or(0, |t| t.pages.len())],
    ));
    ui.add_space(6.0);
    let ctx = ui.ctx().clone();
    me.truth.update(&ctx, move || {
        SampleWeb::build(80, false)
            .map(|w| w.truth)
            .map_err(|e| lang.error(&e))
    });
    server_section(cx, me, ui);
    ui.add_space(6.0);
    load_section(cx, me, ui);
    ui.add_space(10.0);
    match &me.truth.value {
        Some(t) => truth_section(lang, ui, t, &mut cx.hub.exports),
        None => {
            ui.spinner();
        }
    }
}
