//! Pages & snapshots: filter the stored pages; for one page see every snapshot with its time,
//! the response headers, the body decoded and as hex, out-links and in-links, replicas, and a
//! line diff between any two snapshots. Book ch. 5 网页快照 [L1774–1778].

use egui::{Color32, RichText, Ui};

use super::Lang;
use super::export::{Exports, table_button};
use super::panel::{Cx, LabPanel};
use super::task::{Loaded, Task};
use crate::engine::export::Table;
use crate::engine::inspect::{self, DiffLine, PageDetail, PageFilter, PageList, SnapshotView};
use crate::engine::store::Workspace;

#[derive(Default, Clone, Copy, PartialEq)]
enum Tab {
    Request,
    #[default]
    Headers,
    Text,
    Hex,
    OutLinks,
    InLinks,
    Diff,
}

/// Snapshot ids (A, B) and their line diff.
type SnapshotPair = (i64, i64);
type DiffLines = std::sync::Arc<Vec<DiffLine>>;

#[derive(Default)]
pub(crate) struct PagesPanel {
    text: String,
    host: Option<String>,
    status: Option<i64>,
    content_type: Option<String>,
    list: Loaded<PageList>,
    /// The media types the filter offers: a scan of every stored response, so loaded apart
    /// from the list (which shows first).
    types: Loaded<Vec<String>>,
    applied: (String, Option<String>, Option<i64>, Option<String>),
    selected: Option<String>,
    detail: Option<Task<Result<PageDetail, String>>>,
    current: Option<PageDetail>,
    /// Snapshots shown (A) and compared with (B).
    a: Option<i64>,
    b: Option<i64>,
    view_a: Option<Task<Result<SnapshotView, String>>>,
    view_b: Option<Task<Result<SnapshotView, String>>>,
    shown_a: Option<SnapshotView>,
    shown_b: Option<SnapshotView>,
    tab: Tab,
    error: Option<String>,
    /// The line diff of (A, B), computed once off the UI thread (an LCS table can be large).
    diff: Option<(SnapshotPair, Task<DiffLines>)>,
    diff_done: Option<(SnapshotPair, DiffLines)>,
    /// The page's category by a stored classifier.
    classify: super::page_class::ClassifyBox,
}

fn open_snapshot(
    lang: Lang,
    ctx: &egui::Context,
    path: std::path::PathBuf,
    id: i64,
) -> Task<Result<SnapshotView, String>> {
    Task::spawn(ctx, move || {
        Workspace::open_existing(&path)
            .and_then(|ws| inspect::snapshot(&ws, id, 4096))
            .map_err(|e| lang.error(&e))
    })
}

fn poll(p: &mut PagesPanel) {
    if let Some(r) = Task::take_result(&mut p.detail) {
        match r {
            Ok(d) => p.current = Some(d),
            Err(e) => p.error = Some(e),
        }
    }
    for (task, shown) in [
        (&mut p.view_a, &mut p.shown_a),
        (&mut p.view_b, &mut p.shown_b),
    ] {
        if let Some(r) = Task::take_result(task) {
            match r {
                Ok(v) => *shown = Some(v),
                Err(e) => p.error = Some(e),
            }
        }
    }
}

fn filters(lang: Lang, ui: &mut Ui, p: &mut PagesPanel) {
    let hosts = p
        .list
        .value
        .as_ref()
        .map(|l| l.hosts.clone())
        .unwrap_or_default();
    let types = p.types.value.clone().unwrap_or_default();
    let statuses = p
        .list
        .value
        .as_ref()
        .map(|l| l.statuses.clone())
        .unwrap_or_default();
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(lang.t("pages.filter"));
        ui.add(
            egui::TextEdit::singleline(&mut p.text)
                .hint_text(lang.t("pages.filter_hint"))
                .desired_width(220.0),
        )
        .labelled_by(l.id);
        egui::ComboBox::from_id_salt("pages_host")
            .selected_text(
                p.host
                    .clone()
                    .unwrap_or_else(|| lang.t("pages.all_hosts").into()),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.host, None, lang.t("pages.all_hosts"));
                for h in hosts {
                    ui.selectable_value(&mut p.host, Some(h.clone()), h);
                }
            });
        egui::ComboBox::from_id_salt("pages_status")
            .selected_text(
                p.status
                    .map_or_else(|| lang.t("pages.all_statuses").into(), |s| s.to_string()),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.status, None, lang.t("pages.all_statuses"));
                for s in statuses {
                    ui.selectable_value(&mut p.status, Some(s), s.to_string());
                }
            });
        egui::ComboBox::from_id_salt("pages_type")
            .selected_text(
                p.content_type
                    .clone()
                    .unwrap_or_else(|| lang.t("pages.all_types").into()),
            )
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut p.content_type, None, lang.t("pages.all_types"));
                for t in types {
                    ui.selectable_value(&mut p.content_type, Some(t.clone()), t);
                }
            });
        if let Some(l) = &p.list.value {
            ui.label(RichText::new(lang.tf("pages.count", &[&l.items.len(), &l.total])).weak());
        } else if p.list.is_loading() {
            ui.spinner();
            ui.label(RichText::new(lang.t("pages.loading")).weak());
        }
    });
}

fn detail_ui(
    lang: Lang,
    ui: &mut Ui,
    p: &mut PagesPanel,
    path: &std::path::Path,
    exports: &mut Exports,
) {
    let ctx = ui.ctx().clone();
    let Some(d) = p.current.clone() else {
        if p.detail.is_some() {
            ui.spinner();
        }
        return;
    };
    ui.label(RichText::new(&d.url).monospace().strong());
    ui.label(lang.tf(
        "pages.meta",
        &[
            &d.status.map_or("—".into(), |s| s.to_string()),
            &d.depth.map_or("—".into(), |s| s.to_string()),
            &super::shell::to_second(&d.first_seen),
        ],
    ));
    if let Some(r) = &d.replica_of {
        ui.label(RichText::new(lang.tf("pages.replica_of", &[r])).italics());
    }
    p.classify.ui(lang, ui, path, &d.url);
    if !d.replicas.is_empty() {
        ui.label(RichText::new(lang.tf("pages.replicas", &[&d.replicas.join("  ")])).italics());
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("pages.snapshots")).strong());
        table_button(ui, lang, exports, || {
            Table::new(
                format!("{} {}", lang.t("pages.snapshots"), d.url),
                ["id", "fetched_at", "status", "bytes", "md5", "origin"],
            )
            .with_rows(d.snapshots.iter().map(|s| {
                [
                    s.id.to_string(),
                    s.fetched_at.clone(),
                    s.status.map_or(String::new(), |x| x.to_string()),
                    s.bytes.to_string(),
                    s.md5.clone().unwrap_or_default(),
                    s.origin.clone().unwrap_or_default(),
                ]
            }))
        });
    });
    egui::Grid::new("snapshots").striped(true).show(ui, |ui| {
        for s in &d.snapshots {
            let is_a = p.a == Some(s.id);
            if ui.selectable_label(is_a, format!("A #{}", s.id)).clicked() {
                p.a = Some(s.id);
                p.view_a = Some(open_snapshot(lang, &ctx, path.to_path_buf(), s.id));
            }
            let is_b = p.b == Some(s.id);
            if ui.selectable_label(is_b, format!("B #{}", s.id)).clicked() {
                p.b = Some(s.id);
                p.view_b = Some(open_snapshot(lang, &ctx, path.to_path_buf(), s.id));
                p.tab = Tab::Diff;
            }
            ui.label(super::shell::to_second(&s.fetched_at))
                .on_hover_text(&s.fetched_at);
            ui.label(s.status.map_or("—".into(), |x| x.to_string()));
            ui.label(super::shell::human_bytes(s.bytes as u64));
            // MD5 shortened as git shortens commits: the whole hash ran past the panel's edge.
            let md5 = s.md5.as_deref().unwrap_or_default();
            ui.label(
                RichText::new(super::shell::short_hash(md5))
                    .monospace()
                    .small(),
            )
            .on_hover_text(format!("MD5 {md5}"));
            if let Some(o) = &s.origin {
                ui.label(RichText::new(lang.tf("pages.origin", &[o])).small());
            }
            ui.end_row();
        }
    });
    if d.snapshots.is_empty() {
        ui.label(RichText::new(lang.t("pages.no_snapshot")).weak());
    }
    ui.horizontal(|ui| {
        for (t, key) in [
            (Tab::Request, lang.t("pages.tab_request")),
            (Tab::Headers, lang.t("pages.tab_headers")),
            (Tab::Text, lang.t("pages.tab_text")),
            (Tab::Hex, lang.t("pages.tab_hex")),
            (Tab::OutLinks, lang.t("pages.tab_out")),
            (Tab::InLinks, lang.t("pages.tab_in")),
            (Tab::Diff, lang.t("pages.tab_diff")),
        ] {
            ui.selectable_value(&mut p.tab, t, key);
        }
    });
    ui.separator();
    // A read-only code view: wraps long lines without stretching them.
    let mono = |ui: &mut Ui, s: &str| {
        let mut text = s;
        ui.add(
            egui::TextEdit::multiline(&mut text)
                .code_editor()
                .desired_width(f32::INFINITY),
        );
    };
    match p.tab {
        Tab::Request => {
            if let Some(v) = &p.shown_a {
                match &v.request {
                    Some(r) => mono(ui, r),
                    None => {
                        ui.label(RichText::new(lang.t("pages.no_request")).weak());
                    }
                }
            }
        }
        Tab::Headers => {
            if let Some(v) = &p.shown_a {
                mono(ui, &v.head);
            }
        }
        Tab::Text => {
            if let Some(v) = &p.shown_a {
                ui.label(
                    RichText::new(lang.tf("pages.decoded", &[&v.encoding, &v.body_bytes])).weak(),
                );
                let why = lang.enc_notes(&v.encoding_notes);
                ui.label(RichText::new(why).small().weak());
                mono(ui, &v.text);
            }
        }
        Tab::Hex => {
            if let Some(v) = &p.shown_a {
                mono(ui, &v.hex);
            }
        }
        Tab::OutLinks => {
            for l in &d.out_links {
                ui.label(RichText::new(l).monospace().small());
            }
        }
        Tab::InLinks => {
            for l in &d.in_links {
                ui.label(RichText::new(l).monospace().small());
            }
        }
        Tab::Diff => match (&p.shown_a, &p.shown_b) {
            (Some(a), Some(b)) => {
                let key = (a.id, b.id);
                if let Some((k, r)) = Task::take_keyed(&mut p.diff)
                    && let Ok(lines) = r
                {
                    p.diff_done = Some((k, lines));
                }
                let ready = p
                    .diff_done
                    .as_ref()
                    .filter(|(k, _)| *k == key)
                    .map(|(_, l)| l.clone());
                let Some(lines) = ready else {
                    if p.diff.as_ref().is_none_or(|(k, _)| *k != key) {
                        let (ta, tb) = (a.text.clone(), b.text.clone());
                        p.diff = Some((
                            key,
                            Task::spawn(ui.ctx(), move || {
                                std::sync::Arc::new(inspect::diff(&ta, &tb))
                            }),
                        ));
                    }
                    ui.spinner();
                    return;
                };
                let changed = lines
                    .iter()
                    .filter(|l| !matches!(l, DiffLine::Same(_)))
                    .count();
                ui.label(lang.tf("pages.diff_summary", &[&a.id, &b.id, &changed]));
                for l in lines
                    .iter()
                    .filter(|l| !matches!(l, DiffLine::Same(_)))
                    .take(400)
                {
                    let (sign, text, color) = match l {
                        DiffLine::Added(t) => ("+", t, Color32::from_rgb(0x2e, 0x9e, 0x4f)),
                        DiffLine::Removed(t) => ("-", t, Color32::from_rgb(0xc6, 0x28, 0x28)),
                        DiffLine::Same(t) => (" ", t, ui.visuals().text_color()),
                    };
                    ui.add(
                        egui::Label::new(
                            RichText::new(format!("{sign} {text}"))
                                .monospace()
                                .color(color),
                        )
                        .wrap(),
                    );
                }
            }
            _ => {
                ui.label(RichText::new(lang.t("pages.diff_hint")).weak());
            }
        },
    }
}

impl LabPanel for PagesPanel {
    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        show(cx, self, ui);
    }
}

fn show(cx: &mut Cx<'_>, me: &mut PagesPanel, ui: &mut Ui) {
    let lang = cx.lang;
    ui.heading(lang.t("pages.heading"));
    let Some(sess) = cx.session else { return };
    let path = sess.path.clone();
    let exports = &mut cx.hub.exports;
    let p = me;
    poll(p);
    filters(lang, ui, p);
    let wanted = (
        p.text.clone(),
        p.host.clone(),
        p.status,
        p.content_type.clone(),
    );
    if wanted != p.applied {
        p.applied = wanted.clone();
        p.list.invalidate();
    }
    let pp = path.clone();
    let gate = cx.hub.first_reads.clone();
    p.list.update(ui.ctx(), move || {
        let _first = gate.hold();
        Workspace::open_existing(&pp)
            .and_then(|ws| {
                inspect::list(
                    &ws,
                    &PageFilter {
                        text: wanted.0,
                        host: wanted.1,
                        status: wanted.2,
                        content_type: wanted.3,
                        limit: 0,
                    },
                )
            })
            .map_err(|e| lang.error(&e))
    });
    // After the list: the scan must not slow the list's first load.
    let pp = path.clone();
    if p.list.value.is_some() {
        p.types.update(ui.ctx(), move || {
            Workspace::open_existing(&pp)
                .and_then(|ws| inspect::content_types(&ws))
                .map_err(|e| lang.error(&e))
        });
    }
    if let Some(e) = &p.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    let ctx = ui.ctx().clone();
    // The list beside the page, or above it where the panel is narrow (200 % zoom).
    let narrow = super::wrap::is_narrow(ui);
    let list_ui = |ui: &mut Ui, p: &mut PagesPanel| {
        // Every matching page, virtualised: only the rows in view are laid out, so a
        // 100,000-page workspace scrolls as fast as a 10-page one.
        let n = p.list.value.as_ref().map_or(0, |l| l.items.len());
        if p.list.value.is_some() && n == 0 {
            ui.label(RichText::new(lang.t("pages.empty")).italics());
        }
        let row_h = ui.text_style_height(&egui::TextStyle::Small) + 6.0;
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .id_salt("page_list")
            .max_height(if narrow { 240.0 } else { 640.0 })
            .auto_shrink([false, true])
            .show_rows(ui, row_h, n, |ui, rows| {
                // One line a row, as the virtual list counts them: a long URL is cut, and
                // shown whole on hover.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
                let Some(PageList { items, .. }) = &p.list.value else {
                    return;
                };
                for it in &items[rows.start.min(items.len())..rows.end.min(items.len())] {
                    let sel = p.selected.as_deref() == Some(it.url.as_str());
                    let label = format!(
                        "{} {}{}",
                        it.status.map_or("—".into(), |s| s.to_string()),
                        it.url,
                        if it.replica_of.is_some() { "  ⇄" } else { "" }
                    );
                    if ui
                        .selectable_label(sel, RichText::new(label).monospace().small())
                        .on_hover_text(&it.url)
                        .clicked()
                    {
                        clicked = Some(it.url.clone());
                    }
                }
            });
        if let Some(url) = clicked {
            p.selected = Some(url.clone());
            p.current = None;
            p.shown_a = None;
            p.shown_b = None;
            p.a = None;
            p.b = None;
            let pp = path.clone();
            p.detail = Some(Task::spawn(&ctx, move || {
                Workspace::open_existing(&pp)
                    .and_then(|ws| inspect::page(&ws, &url))
                    .map_err(|e| lang.error(&e))
            }));
        }
        // Open the latest snapshot as A when a page arrives.
        if let Some(d) = &p.current
            && p.a.is_none()
            && let Some(last) = d.snapshots.last()
        {
            p.a = Some(last.id);
            p.view_a = Some(open_snapshot(lang, &ctx, path.clone(), last.id));
        }
        if narrow {
            ui.separator();
        }
    };
    let detail = |ui: &mut Ui, p: &mut PagesPanel| detail_ui(lang, ui, p, &path, exports);
    super::wrap::two_up(ui, p, list_ui, detail);
}
