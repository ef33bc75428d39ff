//! Page cleaning (网页净化) with the book's DocView model [L2185–L2406], and Chinese word
//! segmentation [L1478–L1596], in three tabs:
//!
//! * **Extract** — pick a stored page (or open an HTML file) and see, side by side, the raw HTML
//!   (coloured) and what the cleaner made of it: the encoding decision, the page type with its
//!   ratios, title, body, abstract, keywords with their weights and the related links; a block
//!   map colours every content block by its role, with its weight and the reason on hover. The
//!   sliders (λ, β, the type thresholds, the abstract length, …) re-extract live in the
//!   background; only the latest result is shown.
//! * **Segmentation** — one text cut by jieba (HMM on/off, search mode) and by FMM, RMM and FMM
//!   with backtracking, differences from jieba highlighted, throughput measured; an FMM stepper
//!   shows the window shrinking character by character.
//! * **Evaluation** — the cleaner over the sample web, the workspace or a folder pair against
//!   ground truth, as a job; per-page P/R/F1 worst first, a click opens the page in Extract.
//!
//! Nothing here reads a file, queries SQLite or runs an algorithm on the UI thread: pages load,
//! extract, segment and parse in [`Task`]s, evaluation runs as an engine job.

mod eval;
mod extract;
mod html;
mod segment;

use std::path::PathBuf;

use egui::{Color32, RichText, Ui};

use super::Lang;
use super::panel::{Cx, LabPanel, logged};

/// The panel's tabs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Tab {
    #[default]
    Extract,
    Segment,
    Eval,
}

/// Where a page to clean comes from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PageRef {
    /// A URL: the workspace's latest snapshot, else the bundled sample web.
    Url(String),
    /// An HTML file; `truth` is its ground-truth text file, when known.
    File {
        path: PathBuf,
        truth: Option<PathBuf>,
    },
}

/// The DocView panel's state (one per app).
#[derive(Default)]
pub(crate) struct DocViewPanel {
    /// The panel's book experiments, run through the registry (`workbench::experiments`).
    book: crate::ui::book_runs::BookRuns,
    tab: Tab,
    ex: extract::ExtractState,
    seg: segment::SegState,
    ev: eval::EvalState,
}

/// Green, amber and red for good, middling and bad scores (readable on light and dark).
pub(super) fn score_color(ui: &Ui, v: f64) -> Color32 {
    let dark = ui.visuals().dark_mode;
    if v >= 0.8 {
        if dark {
            Color32::from_rgb(0x6c, 0xd0, 0x8a)
        } else {
            Color32::from_rgb(0x1e, 0x80, 0x3c)
        }
    } else if v >= 0.5 {
        if dark {
            Color32::from_rgb(0xf0, 0xc0, 0x50)
        } else {
            Color32::from_rgb(0xa8, 0x6a, 0x00)
        }
    } else {
        ui.visuals().error_fg_color
    }
}

/// "√" or "×" in green or red (both glyphs are in GB2312, so every font has them).
pub(super) fn tick(ui: &mut Ui, ok: bool) -> egui::Response {
    let (s, c) = if ok {
        ("√", score_color(ui, 1.0))
    } else {
        ("×", ui.visuals().error_fg_color)
    };
    ui.label(RichText::new(s).color(c).strong())
}

/// An optional ratio as "0.873" or "—".
pub(super) fn fmt3(v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_string(), |v| format!("{v:.3}"))
}

/// The first `n` characters of `s` on one line, with "…" when cut.
pub(super) fn preview(s: &str, n: usize) -> String {
    let mut out: String = s
        .chars()
        .take(n)
        .map(|c| if c == '\n' || c == '\r' { ' ' } else { c })
        .collect();
    if s.chars().nth(n).is_some() {
        out.push('…');
    }
    out
}

impl LabPanel for DocViewPanel {
    fn set_data_dir(&mut self, data: &crate::engine::data::DataDir) {
        self.ev.data = Some(data.clone());
    }

    fn ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        show(cx, self, ui);
    }

    fn reopen(
        &mut self,
        kind: &str,
        _id: i64,
        params: &serde_json::Value,
        lang: Lang,
    ) -> Result<(), String> {
        use crate::engine::jobs::TypedJob;
        if kind == crate::engine::docview::stored::CleanPagesJob::KIND {
            // The pipeline's cleaning of the workspace's pages: score them against the truth.
            self.ev
                .set_source(&crate::engine::docview::eval::EvalSource::Workspace);
            self.tab = Tab::Eval;
            return Ok(());
        }
        let p: crate::engine::docview::eval::CleanEvalParams = logged(params, lang)?;
        self.ex.params = p.params;
        self.ev.set_source(&p.source);
        self.tab = Tab::Eval;
        Ok(())
    }
}

fn show(cx: &mut Cx<'_>, me: &mut DocViewPanel, ui: &mut Ui) {
    let lang = cx.lang;
    ui.heading(lang.t("docview.heading"));
    ui.label(RichText::new(lang.t("docview.intro")).weak());
    ui.add_space(4.0);
    ui.horizontal(|ui| {
        let p = &mut *me;
        for (t, key) in [
            (Tab::Extract, lang.t("docview.tab_extract")),
            (Tab::Segment, lang.t("docview.tab_segment")),
            (Tab::Eval, lang.t("docview.tab_eval")),
        ] {
            let text = RichText::new(key).size(17.0);
            if ui.add(egui::Button::selectable(p.tab == t, text)).clicked() {
                p.tab = t;
            }
        }
    });
    ui.separator();
    // Work in the background keeps going whichever tab is shown.
    let ws = cx.session.as_ref().map(|s| s.path.clone());
    let ctx = ui.ctx().clone();
    me.ex.poll(&ctx, lang, ws.clone());
    me.seg.poll(&ctx);
    me.ev.poll(&ctx, lang, ws.as_deref());
    match me.tab {
        Tab::Extract => extract::show(lang, ui, &mut me.ex, ws, &mut cx.hub.exports),
        Tab::Segment => {
            let shown = me.ex.shown();
            segment::show(lang, ui, &mut me.seg, shown, &mut cx.hub.exports);
        }
        Tab::Eval => {
            if let Some((page, row)) = eval::show(cx, me, ui) {
                let p = &mut *me;
                p.tab = Tab::Extract;
                p.ex.open(&ctx, lang, page, ws, Some(row));
            }
        }
    }
    ui.separator();
    me.book.ui(cx, ui, "DocView");
}

/// The label of a segmentation method.
pub(super) fn method_label(lang: Lang, m: crate::engine::text::segment::Method) -> &'static str {
    match m.name() {
        "jieba" => lang.t("docview.m_jieba"),
        "jieba-nohmm" => lang.t("docview.m_jieba_nohmm"),
        "search" => lang.t("docview.m_search"),
        "fmm" => lang.t("docview.m_fmm"),
        "rmm" => lang.t("docview.m_rmm"),
        "fmm-bt" => lang.t("docview.m_fmm_bt"),
        other => other,
    }
}
