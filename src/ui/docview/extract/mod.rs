//! The Extract tab: a page picker (stored pages, an HTML file by dialog or typed path), the
//! cleaner's parameters, and side by side the raw HTML and the DocView the cleaner made of it —
//! or the block map, every content block coloured by its role [L2216–L2237, L2294–L2310].
//!
//! Extraction runs in one background task at a time: when a parameter moves while one runs, its
//! result is dropped on arrival and the latest parameters run next, so a slider never blocks a
//! frame and the screen never shows a result older than the one before it.

mod blocks;
mod params;
mod result;

use crate::ui::export::Exports;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{FontId, RichText, TextStyle, Ui, vec2};

use super::html::{self, HtmlView};
use super::{PageRef, fmt3};
use crate::engine::docview::eval::EvalPage;
use crate::engine::docview::{self as docview, DocView, Params};
use crate::engine::error::EngineError;
use crate::engine::inspect::{self, PageFilter, PageList};
use crate::engine::sample::web::{SampleWeb, page_key};
use crate::engine::store::Workspace;
use crate::engine::text::encoding;
use crate::engine::text::segment::Segmenter;
use crate::ui::Lang;
use crate::ui::memo::Memo;
use crate::ui::shell::human_bytes;
use crate::ui::task::{Loaded, Task};

/// Larger HTML files are refused (a page is rarely over a few hundred KB).
const MAX_FILE: u64 = 32 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Workspace,
    Sample,
    File,
}

/// A page's bytes and where they came from.
pub(super) struct Page {
    name: String,
    url: Option<String>,
    content_type: Option<String>,
    bytes: Vec<u8>,
    origin: Origin,
    /// The ground-truth body, when the page was opened from an evaluation.
    truth: Option<String>,
}

/// What an extraction depends on.
#[derive(Debug, Clone, PartialEq)]
struct Inputs {
    /// Which loaded page (counts up with every load).
    seq: u64,
    params: Params,
    charset: Option<&'static str>,
}

struct Extracted {
    dv: DocView,
    ms: f64,
    html: Option<HtmlView>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum View {
    Html,
    #[default]
    Result,
    Blocks,
}

type HtmlKey = (u64, Option<&'static str>);

/// One row of the page picker: a host's heading, or a page by its path under it.
enum PickRow {
    Host(String),
    Page { url: String, path: String },
}

/// The picker's rows: pages grouped by host (the list is sorted by URL), each by its path.
fn pick_rows(l: &PageList) -> Vec<PickRow> {
    let mut rows = Vec::with_capacity(l.items.len() + 8);
    let mut host: Option<&str> = None;
    for it in &l.items {
        if host != Some(it.host.as_str()) {
            host = Some(it.host.as_str());
            rows.push(PickRow::Host(it.host.clone()));
        }
        let path = url::Url::parse(&it.url).map_or_else(
            |_| it.url.clone(),
            |u| match u.query() {
                Some(q) => format!("{}?{q}", u.path()),
                None => u.path().to_string(),
            },
        );
        rows.push(PickRow::Page {
            url: it.url.clone(),
            path,
        });
    }
    rows
}

#[derive(Default)]
pub(crate) struct ExtractState {
    filter: String,
    list: Loaded<PageList>,
    list_key: Option<(PathBuf, String)>,
    /// The picker's rows, built once per loaded list (its generation).
    rows: Memo<u64, Vec<PickRow>>,
    path_text: String,
    dialog: Option<Task<Option<PathBuf>>>,
    loading: Option<Task<Result<Page, String>>>,
    selected: Option<PageRef>,
    page: Option<Arc<Page>>,
    seq: u64,
    load_error: Option<String>,
    eval_row: Option<EvalPage>,
    /// The cleaner's parameters (the Evaluation tab runs with them too).
    pub(super) params: Params,
    charset: Option<&'static str>,
    running: Option<(Inputs, Task<Result<Extracted, String>>)>,
    shown: Option<(Inputs, Arc<DocView>, f64)>,
    failed: Option<(Inputs, String)>,
    html: Option<(HtmlKey, Arc<HtmlView>)>,
    view: View,
    only_text: bool,
    block: Option<usize>,
}

/// The bundled sample web, built once on first need (called in a task).
fn sample_web(lang: Lang) -> Result<Arc<SampleWeb>, String> {
    SampleWeb::shared(false).map_err(|e| lang.error(&e))
}

/// Read a page (in a task).
fn load(lang: Lang, r: PageRef, ws: Option<PathBuf>, want_truth: bool) -> Result<Page, String> {
    match r {
        PageRef::File { path, truth } => {
            let shown = path.display().to_string();
            let meta = std::fs::metadata(&path)
                .map_err(|e| lang.error(&EngineError::path_os(&path, e)))?;
            if !meta.is_file() {
                return Err(lang.tf("docview.not_a_file", &[&shown]));
            }
            if meta.len() > MAX_FILE {
                return Err(lang.tf(
                    "docview.too_large",
                    &[&shown, &human_bytes(meta.len()), &human_bytes(MAX_FILE)],
                ));
            }
            let bytes =
                std::fs::read(&path).map_err(|e| lang.error(&EngineError::path_os(&path, e)))?;
            let truth = truth
                .and_then(|t| std::fs::read(t).ok())
                .map(|b| String::from_utf8_lossy(&b).into_owned());
            Ok(Page {
                name: shown,
                url: None,
                content_type: None,
                bytes,
                origin: Origin::File,
                truth,
            })
        }
        PageRef::Url(u) => {
            let truth = |web: &SampleWeb| {
                let k = page_key(&u)?;
                web.truth
                    .pages
                    .iter()
                    .find(|p| page_key(&p.url).as_deref() == Some(k.as_str()))
                    .map(|p| p.body.clone())
            };
            if let Some(ws) = ws {
                let ws = Workspace::open_existing(&ws).map_err(|e| lang.error(&e))?;
                if let Some((bytes, ct)) =
                    inspect::latest_content(&ws, &u).map_err(|e| lang.error(&e))?
                {
                    let truth = if want_truth {
                        sample_web(lang).ok().and_then(|w| truth(&w))
                    } else {
                        None
                    };
                    return Ok(Page {
                        name: u.clone(),
                        url: Some(u),
                        content_type: ct,
                        bytes,
                        origin: Origin::Workspace,
                        truth,
                    });
                }
            }
            // Not stored: the sample web has it when it is one of its pages.
            let web = sample_web(lang)?;
            let res = web
                .at(&u)
                .ok_or_else(|| lang.tf("docview.not_found", &[&u]))?;
            Ok(Page {
                name: u.clone(),
                content_type: res.content_type.clone(),
                bytes: res.body.clone(),
                origin: Origin::Sample,
                truth: if want_truth { truth(&web) } else { None },
                url: Some(u),
            })
        }
    }
}

/// Clean a page (in a task); with `need_html`, also decode and tokenize it for the raw view.
fn run(
    lang: Lang,
    page: &Page,
    params: &Params,
    charset: Option<&str>,
    need_html: bool,
) -> Result<Extracted, String> {
    let params = params.clone().validated().map_err(|e| lang.error(&e))?;
    // The first call loads the dictionary; keep it out of the timing.
    Segmenter::shared();
    let t0 = Instant::now();
    let dv = docview::extract(
        &page.bytes,
        page.url.as_deref(),
        page.content_type.as_deref(),
        charset,
        &params,
    )
    .map_err(|e| lang.error(&e))?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let html = need_html.then(|| {
        let tld = page
            .url
            .as_deref()
            .and_then(|u| url::Url::parse(u).ok())
            .and_then(|u| {
                u.host_str()
                    .and_then(|h| h.rsplit('.').next())
                    .map(str::to_string)
            });
        let text = encoding::decide_and_decode(
            &page.bytes,
            page.content_type.as_deref(),
            charset,
            tld.as_deref().map(str::as_bytes),
        )
        .map(|(_, t)| t)
        .unwrap_or_else(|_| String::from_utf8_lossy(&page.bytes).into_owned());
        html::build(&text)
    });
    Ok(Extracted { dv, ms, html })
}

impl ExtractState {
    /// Open a page in the background; the current one stays until it arrives.
    pub(super) fn open(
        &mut self,
        ctx: &egui::Context,
        lang: Lang,
        r: PageRef,
        ws: Option<PathBuf>,
        row: Option<EvalPage>,
    ) {
        self.selected = Some(r.clone());
        let want_truth = row.is_some();
        self.eval_row = row;
        self.load_error = None;
        self.loading = Some(Task::spawn(ctx, move || load(lang, r, ws, want_truth)));
    }

    /// The DocView on screen, if any (the Segmentation tab borrows its body).
    pub(super) fn shown(&self) -> Option<Arc<DocView>> {
        self.shown.as_ref().map(|s| s.1.clone())
    }

    fn inputs(&self) -> Option<Inputs> {
        self.page.as_ref().map(|_| Inputs {
            seq: self.seq,
            params: self.params.clone(),
            charset: self.charset,
        })
    }

    /// Take finished background work and start what is due.
    pub(super) fn poll(&mut self, ctx: &egui::Context, lang: Lang, ws: Option<PathBuf>) {
        if let Some(r) = Task::take_finished(&mut self.dialog)
            && let Ok(Some(path)) = r
        {
            self.path_text = path.display().to_string();
            self.open(ctx, lang, PageRef::File { path, truth: None }, ws, None);
        }
        if let Some(r) = Task::take_result(&mut self.loading) {
            match r {
                Ok(page) => {
                    self.seq += 1;
                    self.page = Some(Arc::new(page));
                    self.shown = None;
                    self.failed = None;
                    self.block = None;
                }
                Err(e) => self.load_error = Some(e),
            }
        }
        let current = self.inputs();
        if let Some((inp, r)) = Task::take_keyed(&mut self.running) {
            let is_current = current.as_ref() == Some(&inp);
            match r.and_then(|x| x) {
                Ok(x) => {
                    if let Some(h) = x.html
                        && current
                            .as_ref()
                            .is_some_and(|c| (c.seq, c.charset) == (inp.seq, inp.charset))
                    {
                        self.html = Some(((inp.seq, inp.charset), Arc::new(h)));
                    }
                    if is_current {
                        self.shown = Some((inp, Arc::new(x.dv), x.ms));
                        self.failed = None;
                    }
                }
                Err(e) if is_current => self.failed = Some((inp, e)),
                Err(_) => {}
            }
        }
        if self.running.is_none()
            && let (Some(cur), Some(page)) = (current, self.page.clone())
            && self.shown.as_ref().map(|s| &s.0) != Some(&cur)
            && self.failed.as_ref().map(|f| &f.0) != Some(&cur)
        {
            let need_html = self.html.as_ref().map(|h| h.0) != Some((cur.seq, cur.charset));
            let (params, charset) = (cur.params.clone(), cur.charset);
            self.running = Some((
                cur,
                Task::spawn(ctx, move || run(lang, &page, &params, charset, need_html)),
            ));
        }
    }
}

pub(super) fn rest_height(ui: &Ui, min: f32) -> f32 {
    (ui.clip_rect().bottom() - ui.cursor().top() - 8.0).max(min)
}

pub(super) fn show(
    lang: Lang,
    ui: &mut Ui,
    ex: &mut ExtractState,
    ws: Option<PathBuf>,
    exports: &mut Exports,
) {
    let ctx = ui.ctx().clone();
    if let Some(w) = &ws {
        let key = (w.clone(), ex.filter.trim().to_string());
        // An empty workspace may be filling (the sample web loads on first start): look again.
        let empty_for_a_while = ex.list.value.as_ref().is_some_and(|l| l.total == 0)
            && ex.list.age().is_some_and(|a| a > Duration::from_secs(2));
        if ex.list_key.as_ref() != Some(&key) || empty_for_a_while {
            ex.list_key = Some(key.clone());
            ex.list.invalidate();
        }
        ex.list.update(&ctx, move || {
            Workspace::open_existing(&key.0)
                .and_then(|ws| {
                    inspect::list(
                        &ws,
                        &PageFilter {
                            text: key.1,
                            content_type: Some("text/html".into()),
                            limit: 1000,
                            ..Default::default()
                        },
                    )
                })
                .map_err(|e| lang.error(&e))
        });
    }
    if ui.available_width() >= 1000.0 {
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(250.0);
                picker(lang, ui, ex, &ws, true);
            });
            ui.separator();
            ui.vertical(|ui| main_area(lang, ui, ex, exports));
        });
    } else {
        egui::CollapsingHeader::new(RichText::new(lang.t("docview.pick")).strong())
            .id_salt("dv_picker")
            .default_open(ex.page.is_none())
            .show(ui, |ui| picker(lang, ui, ex, &ws, false));
        main_area(lang, ui, ex, exports);
    }
}

fn picker(lang: Lang, ui: &mut Ui, ex: &mut ExtractState, ws: &Option<PathBuf>, title: bool) {
    let ctx = ui.ctx().clone();
    ui.horizontal(|ui| {
        if title {
            ui.label(RichText::new(lang.t("docview.pick")).strong());
        }
        if ex.list.is_loading() {
            ui.spinner();
        }
        if ui.small_button(lang.t("docview.refresh")).clicked() {
            ex.list.invalidate();
        }
    });
    ui.add(
        egui::TextEdit::singleline(&mut ex.filter)
            .hint_text(lang.t("docview.filter_hint"))
            .desired_width(f32::INFINITY),
    );
    if let Some(l) = &ex.list.value {
        ui.label(RichText::new(lang.tf("docview.pages_count", &[&l.items.len(), &l.total])).weak());
    }
    if let Some(e) = &ex.list.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if ws.is_none() {
        ui.label(RichText::new(lang.t("docview.no_ws")).italics());
    }
    let mut chosen = None;
    let row_h = ui.text_style_height(&egui::TextStyle::Button)
        + ui.spacing().button_padding.y * 2.0
        + ui.spacing().item_spacing.y;
    let no_pages = ex.list.value.as_ref().is_some_and(|l| l.items.is_empty());
    let rows: &[PickRow] = match &ex.list.value {
        Some(l) => ex.rows.get(ex.list.generation(), |_| pick_rows(l)),
        None => &[],
    };
    let selected = &ex.selected;
    egui::ScrollArea::vertical()
        .id_salt("dv_page_list")
        .max_height((rest_height(ui, 240.0) - 150.0).max(200.0))
        .auto_shrink([false, true])
        .show_rows(
            ui,
            row_h,
            rows.len().max(usize::from(no_pages)),
            |ui, range| {
                if no_pages {
                    ui.label(RichText::new(lang.t("docview.no_pages")).italics());
                    return;
                }
                // Only the rows in view are laid out (up to 1,000 pages are listed).
                for row in &rows[range] {
                    match row {
                        PickRow::Host(h) => {
                            ui.add_sized(
                                [ui.available_width(), row_h - ui.spacing().item_spacing.y],
                                egui::Label::new(RichText::new(h).small().strong()),
                            );
                        }
                        PickRow::Page { url, path } => {
                            let sel = matches!(selected, Some(PageRef::Url(u)) if u == url);
                            if ui
                                .add(
                                    egui::Button::selectable(
                                        sel,
                                        RichText::new(path.as_str()).monospace().small(),
                                    )
                                    .truncate(),
                                )
                                .on_hover_text(url.as_str())
                                .clicked()
                            {
                                chosen = Some(PageRef::Url(url.clone()));
                            }
                        }
                    }
                }
            },
        );
    ui.separator();
    if ui
        .add_enabled(
            ex.dialog.is_none(),
            egui::Button::new(lang.t("docview.open_file")),
        )
        .clicked()
    {
        let title = lang.t("docview.open_file");
        ex.dialog = Some(Task::spawn(&ctx, move || {
            rfd::FileDialog::new()
                .set_title(title)
                .add_filter("HTML", &["html", "htm", "shtml", "xhtml"])
                .add_filter("*", &["*"])
                .pick_file()
        }));
    }
    let label = ui.label(lang.t("docview.type_path"));
    let r = ui
        .add(
            egui::TextEdit::singleline(&mut ex.path_text)
                .hint_text("/home/me/page.html")
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
    let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
    if (ui.button(lang.t("docview.open")).clicked() || enter) && !ex.path_text.trim().is_empty() {
        chosen = Some(PageRef::File {
            path: PathBuf::from(ex.path_text.trim()),
            truth: None,
        });
    }
    if let Some(r) = chosen {
        ex.open(&ctx, lang, r, ws.clone(), None);
    }
}

fn main_area(lang: Lang, ui: &mut Ui, ex: &mut ExtractState, exports: &mut Exports) {
    // A wide widget (a long label in another language) may grow this ui; the views below keep
    // to the width there was at the start.
    let width = ui.available_width();
    ui.horizontal_wrapped(|ui| {
        if let Some(p) = &ex.page {
            let origin = match p.origin {
                Origin::Workspace => lang.t("docview.origin_ws"),
                Origin::Sample => lang.t("docview.origin_sample"),
                Origin::File => lang.t("docview.origin_file"),
            };
            ui.label(RichText::new(origin).weak());
            ui.label(RichText::new(&p.name).monospace().strong());
            ui.label(RichText::new(human_bytes(p.bytes.len() as u64)).weak());
        }
        if ex.loading.is_some() {
            ui.spinner();
            ui.label(lang.t("docview.loading"));
        }
        if ex.running.is_some() {
            ui.spinner();
            ui.label(lang.t("docview.extracting"));
        } else if let Some((_, _, ms)) = &ex.shown {
            ui.label(RichText::new(lang.tf("docview.took", &[&format!("{ms:.1}")])).weak());
        }
    });
    if let Some(e) = &ex.load_error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if let Some((_, e)) = &ex.failed {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    if let Some(row) = &ex.eval_row {
        let mut note = lang.tf(
            "docview.from_eval",
            &[&fmt3(row.f1), &fmt3(row.p), &fmt3(row.r)],
        );
        if let Some(t) = &row.truth_type {
            note.push(' ');
            note.push_str(&lang.tf("docview.from_eval_type", &[t]));
        }
        if let Some(t) = row.truth_title.as_deref().filter(|t| !t.is_empty()) {
            note.push(' ');
            note.push_str(&lang.tf("docview.from_eval_title", &[&t]));
        }
        ui.label(RichText::new(note).italics());
    }
    params::params_ui(lang, ui, ex);
    if ex.page.is_none() {
        ui.add_space(20.0);
        ui.label(RichText::new(lang.t("docview.pick_hint")).size(17.0).weak());
        return;
    }
    let side = width >= crate::ui::wrap::NARROW;
    if side && ex.view == View::Html {
        ex.view = View::Result;
    }
    if !side {
        view_tabs(lang, ui, ex, true);
    }
    if side {
        ui.allocate_ui(vec2(width, ui.available_height()), |ui| {
            ui.columns(2, |c| {
                html_view(lang, &mut c[0], ex);
                view_tabs(lang, &mut c[1], ex, false);
                match ex.view {
                    View::Blocks => blocks::block_map(lang, &mut c[1], ex),
                    _ => result::result_view(lang, &mut c[1], ex, exports),
                }
            });
        });
    } else {
        match ex.view {
            View::Html => html_view(lang, ui, ex),
            View::Result => result::result_view(lang, ui, ex, exports),
            View::Blocks => blocks::block_map(lang, ui, ex),
        }
    }
}

/// The view switch: raw HTML (when not side by side), extracted view, block map.
fn view_tabs(lang: Lang, ui: &mut Ui, ex: &mut ExtractState, with_html: bool) {
    ui.horizontal(|ui| {
        let mut views = vec![];
        if with_html {
            views.push((View::Html, lang.t("docview.raw_html")));
        }
        views.push((View::Result, lang.t("docview.view_result")));
        views.push((View::Blocks, lang.t("docview.view_blocks")));
        for (v, label) in views {
            if ui
                .add(egui::Button::selectable(
                    ex.view == v,
                    RichText::new(label).strong(),
                ))
                .clicked()
            {
                ex.view = v;
            }
        }
    });
}

fn html_view(lang: Lang, ui: &mut Ui, ex: &mut ExtractState) {
    ui.label(RichText::new(lang.t("docview.raw_html")).strong());
    let Some((_, v)) = &ex.html else {
        if ex.running.is_some() || ex.loading.is_some() {
            ui.spinner();
        }
        return;
    };
    let mut note = lang.tf(
        "docview.html_note",
        &[&v.lines, &human_bytes(v.total as u64)],
    );
    if v.coloured < v.shown {
        note.push_str(&lang.tf("docview.html_capped", &[&human_bytes(v.coloured as u64)]));
    }
    if v.shown < v.total {
        note.push_str(&lang.tf("docview.html_cut", &[&human_bytes(v.shown as u64)]));
    }
    ui.label(RichText::new(note).weak().small());
    let font: FontId = TextStyle::Monospace.resolve(ui.style());
    let row_h = ui.text_style_height(&TextStyle::Monospace);
    let dark = ui.visuals().dark_mode;
    let text = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let v = v.clone();
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 0.0;
        egui::ScrollArea::both()
            .id_salt("dv_html")
            .max_height(rest_height(ui, 300.0))
            .min_scrolled_height(300.0)
            .auto_shrink([false, false])
            .show_rows(ui, row_h, v.rows.len(), |ui, range| {
                for r in &v.rows[range] {
                    ui.add(
                        egui::Label::new(html::row_job(r, font.clone(), dark, text, weak)).extend(),
                    );
                }
            });
    });
}
