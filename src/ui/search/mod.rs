//! The search panel (检索与排序, book ch. 5, 8 and 10): the workspace's index (built by the
//! logged `index-build` job, with a banner when it is missing or older than the crawl), a query
//! box with the ranked, explained results and their dynamic abstracts (`results`), the
//! highlighted snapshot of a page [L807–L811], and the ranking parameters beside them
//! (`tuning`): every change re-ranks in the background and each result shows how far it moved.
//! Opening the index, searching and building snapshots run in [`Task`]s; the panel draws the
//! plain `SearchResult` it gets. It searches through the composition root's query service
//! (`workbench::service`): near-duplicates folded, categories shown and filtered, a result cache
//! of any policy in front (`serving`), each query submitted and each result opened appended to
//! the workspace's own query and click logs.

mod browse;
mod evaluation;
mod links;
pub mod perfmodel;
mod perfmodel_plots;
mod perfmodel_stirling;
mod results;
mod serving;
mod tuning;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use egui::{RichText, Ui};
use serde_json::Value;

use super::Lang;
use super::panel::{Cx, LabPanel, logged};
use super::task::Task;
use crate::engine::crawl::Crawl;
use crate::engine::error::EngineError;
use crate::engine::index::build::IndexConfig;
use crate::engine::index::job::{IndexBuildJob, IndexBuildParams};
use crate::engine::index::reader::sidecar;
use crate::engine::index::score::RankConfig;
use crate::engine::index::search::{SearchOptions, SearchResult, Searcher};
use crate::engine::index::source::Source;
use crate::engine::jobs::TypedJob;
use crate::engine::sample::load::LoadSample;
use crate::ui::job_watch::{Finished, JobWatch};
use crate::workbench::service::{self, Logger, ResultCache};

/// The day decay k of the click weights WU reads from the workspace's own click log (the
/// CLI's `--click-decay` default).
const OWN_CLICK_DECAY: f64 = 0.8;

/// How deep a ranking is remembered to mark each result's move (↑3, ↓1, new).
const RANK_DEPTH: usize = 200;
/// Results per page (the book's 10 [L706]).
const PER_PAGE: usize = 10;

/// What the panel knows of the workspace's index.
enum IndexState {
    /// Not looked at yet, or being opened.
    Unknown,
    /// No usable index: whether there is none at all (else it is damaged or unreadable), and
    /// why, in the UI's language.
    Missing { none: bool, why: String },
    Ready {
        searcher: Arc<Searcher>,
        /// The workspace has snapshots newer than the index.
        stale: bool,
        /// The categories the pages carry, with how many each (counted when opened).
        categories: Vec<(String, usize)>,
    },
}

/// What opening the index found (off the UI thread).
struct Opened {
    searcher: Result<Arc<Searcher>, (bool, String)>,
    stale: bool,
    categories: Vec<(String, usize)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tab {
    Search,
    Browse,
    Compare,
    Eval,
    Links,
    Perf,
    /// The book experiments of chapters 8 and 10, through the registry.
    Book,
}

/// A ranking as the panel keeps it.
pub(crate) struct Ranked {
    pub result: SearchResult,
    pub cfg: RankConfig,
    pub page: usize,
    /// docID → rank (1-based) over the top [`RANK_DEPTH`].
    pub ranks: HashMap<u32, usize>,
    /// With a result cache in front: whether this page came from it, and the cache's
    /// requests and hits so far.
    pub cache: Option<(bool, u64, u64)>,
}

/// A search to run.
#[derive(Debug, Clone, PartialEq)]
struct Ask {
    query: String,
    cfg: RankConfig,
    page: usize,
    /// The user asked (a query submitted, a page turned): goes to the query log. A re-ranking
    /// after a parameter moved does not.
    log: bool,
    fold: bool,
    category: Option<String>,
}

impl Ask {
    /// A search of `query` on page `page` with the panel's current settings.
    fn new(p: &SearchPanel, query: String, page: usize, log: bool) -> Ask {
        Ask {
            query,
            cfg: p.cfg.clone(),
            page,
            log,
            fold: p.fold,
            category: p.category.clone(),
        }
    }

    /// The same search under settings changed since.
    fn same_settings(&self, p: &SearchPanel) -> bool {
        self.cfg == p.cfg && self.fold == p.fold && self.category == p.category
    }
}

pub(crate) struct SearchPanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    tab: Tab,
    /// The workspace the index state belongs to.
    ws: Option<PathBuf>,
    index: IndexState,
    open_task: Option<Task<Opened>>,
    build: Option<JobWatch<IndexBuildJob>>,
    build_config: IndexConfig,
    /// Where "Build index" runs (native, DataFusion, Spark).
    build_engine: crate::engine::exec::EngineConfig,
    /// The last finished job seen (a finished crawl or load may make the index stale).
    seen_finished: Option<i64>,
    query: String,
    cfg: RankConfig,
    search_task: Option<Task<Result<Ranked, String>>>,
    /// The search asked for while another ran: only the newest is kept (slider moves coalesce).
    pending: Option<Ask>,
    /// The last search asked for.
    asked: Option<Ask>,
    current: Option<Ranked>,
    /// The ranks before the last re-ranking of the same query.
    base: Option<HashMap<u32, usize>>,
    /// The result whose score breakdown is open.
    selected: Option<u32>,
    snapshot: Option<results::SnapView>,
    snap_task: Option<Task<Result<results::SnapView, String>>>,
    browse: browse::Browser,
    perf: perfmodel::PerfModelView,
    eval: evaluation::EvalTab,
    links: links::LinksTab,
    error: Option<String>,
    /// One result per group of near-duplicates.
    fold: bool,
    /// Only results of this category.
    category: Option<String>,
    /// The result cache in front of the service (its policy and size chosen in `serving`).
    cache_policy: Option<crate::engine::cache::policy::PolicyKind>,
    cache_size: u64,
    cache: Option<Arc<Mutex<ResultCache>>>,
    /// Writes this session's queries and opened results to the workspace's own logs.
    logger: Option<Logger>,
}

impl Default for SearchPanel {
    fn default() -> Self {
        SearchPanel {
            book: Default::default(),
            tab: Tab::Search,
            ws: None,
            index: IndexState::Unknown,
            open_task: None,
            build: None,
            build_config: IndexConfig::default(),
            build_engine: Default::default(),
            seen_finished: None,
            query: String::new(),
            cfg: RankConfig::default(),
            search_task: None,
            pending: None,
            asked: None,
            current: None,
            base: None,
            selected: None,
            snapshot: None,
            snap_task: None,
            browse: browse::Browser::default(),
            perf: perfmodel::PerfModelView::default(),
            eval: evaluation::EvalTab::default(),
            links: links::LinksTab::default(),
            error: None,
            fold: true,
            category: None,
            cache_policy: None,
            cache_size: 100,
            cache: None,
            logger: None,
        }
    }
}

impl SearchPanel {
    fn searcher(&self) -> Option<Arc<Searcher>> {
        match &self.index {
            IndexState::Ready { searcher, .. } => Some(searcher.clone()),
            _ => None,
        }
    }

    /// Open (or re-open) the workspace's index in the background.
    fn open_index(&mut self, cx: &Cx<'_>, ctx: &egui::Context) {
        let Some(sess) = cx.session else {
            return;
        };
        let path = sess.path.clone();
        let reader = sess.reader.clone();
        let lang = cx.lang;
        self.open_task = Some(Task::spawn(ctx, move || {
            match Searcher::open(&sidecar(&path)) {
                Err(e) => Opened {
                    searcher: Err((matches!(e, EngineError::NoIndex { .. }), lang.error(&e))),
                    stale: false,
                    categories: Vec::new(),
                },
                Ok(mut s) => {
                    // What the workspace keeps for serving: groups to fold, categories, and
                    // its own click log for WU (Tianwang's model; clicks of this session count
                    // from the next time the index opens).
                    let attached = reader.read(lang, |ws| {
                        service::attach(&mut s, ws)?;
                        if let Err(e) = service::use_own_clicks(&mut s, ws, OWN_CLICK_DECAY) {
                            tracing::warn!("WU without the workspace's own clicks: {e}");
                        }
                        s.index.is_stale(ws)
                    });
                    match attached {
                        Ok(stale) => Opened {
                            categories: s.category_counts(),
                            searcher: Ok(Arc::new(s)),
                            stale,
                        },
                        Err(why) => Opened {
                            searcher: Err((false, why)),
                            stale: false,
                            categories: Vec::new(),
                        },
                    }
                }
            }
        }));
    }

    /// Follow the open workspace and the jobs that change its index.
    fn follow(&mut self, cx: &Cx<'_>, ctx: &egui::Context) {
        let now = cx.session.map(|s| s.path.clone());
        if now != self.ws {
            self.logger = now.as_ref().map(|w| Logger::new(w, &session_id()));
            self.ws = now;
            self.cache = None;
            self.category = None;
            self.index = IndexState::Unknown;
            self.current = None;
            self.snapshot = None;
            self.browse = browse::Browser::default();
            self.open_index(cx, ctx);
        }
        if let Some(r) = Task::take_finished(&mut self.open_task) {
            self.index = match r {
                Ok(Opened {
                    searcher: Ok(searcher),
                    stale,
                    categories,
                }) => IndexState::Ready {
                    searcher,
                    stale,
                    categories,
                },
                Ok(Opened {
                    searcher: Err((none, why)),
                    ..
                }) => IndexState::Missing { none, why },
                Err(why) => IndexState::Missing { none: false, why },
            };
            self.browse.index_changed();
            // The old index's pages are not the new one's.
            self.cache = None;
            // Results of the old index are re-asked of the new one.
            if let Some(mut a) = self.asked.clone()
                && self.searcher().is_some()
            {
                a.log = false;
                self.ask(cx.lang, ctx, a);
            }
        }
        if let Some(end) = JobWatch::take_finished(&mut self.build) {
            if let Finished::Failed(code) = end.outcome {
                self.error = Some(cx.lang.error_code(&code));
            }
            self.open_index(cx, ctx);
        }
        if let Some(s) = &cx.hub.last_finished
            && s.id != self.seen_finished
        {
            self.seen_finished = s.id;
            let changes_index = [
                LoadSample::KIND,
                Crawl::KIND,
                IndexBuildJob::KIND,
                crate::engine::dedup::stored::GroupPagesJob::KIND,
                crate::engine::classify::stored::ClassifyPagesJob::KIND,
                crate::workbench::pipeline::BuildJob::KIND,
            ];
            if changes_index.contains(&s.kind) && self.build.is_none() {
                self.open_index(cx, ctx);
            }
        }
    }

    fn start_build(&mut self, cx: &mut Cx<'_>) {
        let params = IndexBuildParams {
            source: Source::Workspace { path: None },
            out: None,
            config: self.build_config.clone(),
            engine: self.build_engine.clone(),
        };
        match IndexBuildJob::from_params(params) {
            Err(e) => self.error = Some(cx.lang.error(&e)),
            Ok(job) => {
                self.error = None;
                self.build = JobWatch::start(cx, job);
            }
        }
    }

    /// The banner above the tabs: no workspace, no index, a stale index, a build running.
    fn index_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        if cx.session.is_none() {
            ui.label(RichText::new(lang.t("search.no_workspace")).strong());
            return;
        }
        let building = self.build.is_some() || cx.is_running(IndexBuildJob::KIND);
        let warn = ui.visuals().warn_fg_color;
        ui.horizontal_wrapped(|ui| {
            let mut offer = false;
            match &self.index {
                IndexState::Unknown => {
                    ui.spinner();
                    ui.label(lang.t("search.opening"));
                }
                IndexState::Missing { none, why } => {
                    let head = if *none {
                        "search.no_index"
                    } else {
                        "search.index_unusable"
                    };
                    ui.colored_label(warn, RichText::new(lang.t(head)).strong());
                    ui.label(RichText::new(why).weak());
                    offer = true;
                }
                IndexState::Ready {
                    searcher, stale, ..
                } => {
                    let m = &searcher.index.meta;
                    ui.label(lang.tf(
                        "search.index_line",
                        &[
                            &crate::ui::shell::grouped(m.docs),
                            &crate::ui::shell::grouped(m.terms),
                            &crate::ui::shell::grouped(m.postings),
                            &crate::ui::shell::to_second(&m.built_at),
                        ],
                    ));
                    if *stale {
                        ui.colored_label(warn, RichText::new(lang.t("search.stale")).strong());
                        offer = true;
                    }
                }
            }
            if building {
                ui.spinner();
                ui.label(lang.t("search.building"));
            } else if ui
                .add(egui::Button::new(if offer {
                    RichText::new(lang.t("search.build")).strong()
                } else {
                    RichText::new(lang.t("search.rebuild"))
                }))
                .on_hover_text(lang.t("search.build_tip"))
                .clicked()
            {
                self.start_build(cx);
            }
        });
        egui::CollapsingHeader::new(lang.t("search.build_engine"))
            .id_salt("search_build_engine")
            .show(ui, |ui| {
                if let IndexState::Ready { searcher, .. } = &self.index {
                    let e = &searcher.index.meta.engine;
                    if e.engine == crate::engine::exec::Engine::Native {
                        ui.label(lang.t("search.built_native"));
                    } else {
                        ui.label(lang.tf(
                            "search.built_on",
                            &[
                                &crate::ui::engine_choice::engine_label(lang, e.engine),
                                &e.tuples,
                                &format!("{:.1}", e.spilled_bytes as f64 / 1e6),
                            ],
                        ));
                    }
                }
                crate::ui::engine_choice::engine_row(ui, lang, &mut self.build_engine, None);
            });
        if let Some(e) = &self.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }

    /// Run `a` now, or after the running search (only the newest waiting one is kept).
    fn ask(&mut self, lang: Lang, ctx: &egui::Context, a: Ask) {
        let Some(s) = self.searcher() else {
            return;
        };
        self.asked = Some(a.clone());
        if self.search_task.is_some() {
            self.pending = Some(a);
            return;
        }
        let cache = self.cache.clone();
        let log = self.logger.clone().filter(|_| a.log);
        self.search_task = Some(Task::spawn(ctx, move || {
            let opt = SearchOptions {
                top: PER_PAGE,
                page: a.page,
                fold: a.fold,
                category: a.category.clone(),
                ..SearchOptions::default()
            };
            let served = service::serve(&s, &a.query, &a.cfg, &opt, cache.as_deref(), log.as_ref())
                .map_err(|e| lang.error(&e))?;
            let cache = served.hit.zip(cache.as_deref()).map(|(hit, c)| {
                let c = c.lock().unwrap_or_else(|p| p.into_inner());
                (hit, c.requests, c.hits)
            });
            let result = served.result;
            let depth = SearchOptions {
                top: RANK_DEPTH,
                page: 0,
                explain: false,
                abstracts: false,
                fold: a.fold,
                category: a.category.clone(),
                ..SearchOptions::default()
            };
            let ranks = s
                .search(&a.query, &a.cfg, &depth)
                .map_err(|e| lang.error(&e))?
                .hits
                .iter()
                .map(|h| (h.id, h.rank))
                .collect();
            Ok(Ranked {
                result,
                cfg: a.cfg,
                page: a.page,
                ranks,
                cache,
            })
        }));
    }

    /// Take a finished search; start the waiting one.
    fn poll_search(&mut self, lang: Lang, ctx: &egui::Context) {
        let Some(r) = Task::take_result(&mut self.search_task) else {
            return;
        };
        match r {
            Ok(new) => {
                self.error = None;
                match &self.current {
                    Some(old) if old.result.query == new.result.query => {
                        if old.cfg != new.cfg {
                            self.base = Some(old.ranks.clone());
                        }
                    }
                    _ => {
                        self.base = None;
                        self.selected = None;
                    }
                }
                self.current = Some(new);
            }
            Err(e) => self.error = Some(e),
        }
        if let Some(a) = self.pending.take() {
            self.ask(lang, ctx, a);
        }
    }

    fn searching(&self) -> bool {
        self.search_task.is_some()
    }
}

/// This app session's id in the query log (the book's IP): the process and when it started.
fn session_id() -> String {
    static START: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    START
        .get_or_init(|| {
            format!(
                "gui-{}-{}",
                std::process::id(),
                chrono::Utc::now().format("%H%M%S")
            )
        })
        .clone()
}

impl LabPanel for SearchPanel {
    fn set_data_dir(&mut self, data: &crate::engine::data::DataDir) {
        self.eval.data = Some(data.clone());
    }

    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        self.follow(cx, &ctx);
        self.poll_search(cx.lang, &ctx);
        let lang = cx.lang;
        ui.heading(lang.t("search.heading"));
        ui.label(RichText::new(lang.t("search.intro")).weak());
        self.index_ui(cx, ui);
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.tab, Tab::Search, lang.t("search.tab_search"));
            ui.selectable_value(&mut self.tab, Tab::Browse, lang.t("search.tab_browse"));
            ui.selectable_value(&mut self.tab, Tab::Compare, lang.t("search.tab_compare"));
            ui.selectable_value(&mut self.tab, Tab::Eval, lang.t("search.tab_eval"));
            ui.selectable_value(&mut self.tab, Tab::Links, lang.t("search.tab_links"));
            ui.selectable_value(&mut self.tab, Tab::Perf, lang.t("search.tab_perf"));
            ui.selectable_value(&mut self.tab, Tab::Book, lang.t("book.title"));
        });
        ui.separator();
        match self.tab {
            Tab::Search => {
                if !super::wrap::is_narrow(ui) {
                    egui::Panel::right("search_tuning")
                        .resizable(false)
                        .default_size(320.0)
                        .show(ui, |ui| {
                            egui::ScrollArea::vertical()
                                .id_salt("search_tuning_scroll")
                                .auto_shrink([false, false])
                                .show(ui, |ui| tuning::tuning_ui(lang, ui, &mut self.cfg));
                        });
                    egui::CentralPanel::default()
                        .frame(egui::Frame::NONE)
                        .show(ui, |ui| results::search_ui(self, lang, ui));
                } else {
                    // Narrow (200 % zoom): the tuning folds above the results instead of
                    // taking half the width beside them.
                    egui::CollapsingHeader::new(lang.t("search.tuning"))
                        .id_salt("search_tuning_folded")
                        .show(ui, |ui| tuning::tuning_ui(lang, ui, &mut self.cfg));
                    results::search_ui(self, lang, ui);
                }
                // A changed parameter re-ranks the query shown (coalesced while one runs).
                if let Some(a) = &self.asked
                    && !a.same_settings(self)
                    && self.current.is_some()
                {
                    let a = Ask::new(self, a.query.clone(), 0, false);
                    self.ask(lang, &ctx, a);
                }
            }
            Tab::Browse => {
                let s = self.searcher();
                browse::browse_ui(&mut self.browse, s, lang, ui);
            }
            Tab::Compare => {
                let s = self.searcher();
                egui::ScrollArea::vertical()
                    .id_salt("search_compare_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.eval.compare_ui(lang, ui, s));
            }
            Tab::Eval => {
                let s = self.searcher();
                egui::ScrollArea::vertical()
                    .id_salt("search_eval_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.eval.eval_ui(lang, ui, s));
            }
            Tab::Book => {
                egui::ScrollArea::vertical()
                    .id_salt("search_book_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.book.ui(cx, ui, "search"));
            }
            Tab::Links => {
                let ws = cx.session.map(|s| s.path.clone());
                egui::ScrollArea::vertical()
                    .id_salt("search_links_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.links.ui(lang, ui, ws));
            }
            Tab::Perf => {
                // The calculator compares the book's magnitudes with this index's own.
                let stats = self.searcher().map(|s| {
                    let m = &s.index.meta;
                    crate::engine::index::perfmodel::CorpusStats {
                        docs: m.docs,
                        terms: m.terms,
                        postings: m.postings,
                        occurrences: m.occurrences,
                    }
                });
                self.perf.set_corpus(stats);
                self.perf.set_export_folder(cx.hub.exports.folder.clone());
                egui::ScrollArea::vertical()
                    .id_salt("search_perf_scroll")
                    .auto_shrink([false, false])
                    .show(ui, |ui| self.perf.ui(ui, lang));
            }
        }
    }

    fn reopen(&mut self, kind: &str, _id: i64, params: &Value, lang: Lang) -> Result<(), String> {
        if kind == crate::engine::rank::stored::PageRankJob::KIND {
            // PageRank over the crawl graph: the link-analysis tab computes and explains it.
            self.tab = Tab::Links;
            return Ok(());
        }
        let p: IndexBuildParams = logged(params, lang)?;
        if !matches!(p.source, Source::Workspace { .. }) {
            return Err(lang.t("search.reopen_not_workspace").to_string());
        }
        self.build_config = p.config;
        self.build_engine = p.engine;
        Ok(())
    }
}
