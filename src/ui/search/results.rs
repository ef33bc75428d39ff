//! The Search tab: the query form, the page of results (title, URL, the dynamic abstract with
//! the query terms coloured, the score and its move since the last ranking), the score
//! breakdown of a clicked result, paging, and the snapshot view: the stored text with every
//! query term in its own colour, a legend with "jump to the first occurrence", and the banner
//! the book asks for [L807–L811].

use std::collections::HashMap;

use egui::text::{CCursor, LayoutJob, TextFormat};
use egui::{Color32, RichText, Ui};

use super::{Ask, PER_PAGE, SearchPanel};
use crate::engine::index::score::Model;
use crate::engine::index::search::Hit;
use crate::engine::index::snippet::{self, Snapshot};
use crate::ui::Lang;
use crate::ui::memo::Memo;
use crate::ui::task::Task;

/// A page's stored text marked for the query (built off the UI thread).
pub(crate) struct SnapView {
    pub doc: u32,
    pub title: String,
    pub url: String,
    pub crawled_at: Option<String>,
    pub terms: Vec<String>,
    pub snap: Snapshot,
    /// Where each span starts, in characters.
    pub span_chars: Vec<usize>,
    /// The span to scroll to on the next frame.
    pub jump: Option<usize>,
    /// The whole text as one layout, by (wrap width, dark mode, text colours): built when the
    /// snapshot opens and when the window or the theme changes, never per frame.
    pub layout: Memo<SnapLayoutKey, LayoutJob>,
}

/// What the snapshot's layout depends on besides the text: wrap width (bits), dark mode,
/// plain and strong text colours.
type SnapLayoutKey = (u32, bool, Color32, Color32);

/// Term `i`'s highlight: a background each term has to itself.
pub(crate) fn term_colour(i: usize, dark: bool) -> Color32 {
    const LIGHT: [Color32; 6] = [
        Color32::from_rgb(255, 235, 110),
        Color32::from_rgb(160, 230, 255),
        Color32::from_rgb(170, 240, 160),
        Color32::from_rgb(255, 180, 200),
        Color32::from_rgb(215, 190, 255),
        Color32::from_rgb(255, 200, 140),
    ];
    const DARK: [Color32; 6] = [
        Color32::from_rgb(120, 100, 0),
        Color32::from_rgb(0, 90, 120),
        Color32::from_rgb(30, 100, 30),
        Color32::from_rgb(120, 40, 70),
        Color32::from_rgb(80, 50, 130),
        Color32::from_rgb(130, 70, 10),
    ];
    if dark {
        DARK[i % DARK.len()]
    } else {
        LIGHT[i % LIGHT.len()]
    }
}

/// `spans` as one layout: term occurrences on their colour.
fn coloured<'a>(
    ui: &Ui,
    spans: impl Iterator<Item = (&'a str, Option<usize>)>,
    size: f32,
    width: f32,
) -> LayoutJob {
    let dark = ui.visuals().dark_mode;
    let plain = TextFormat {
        font_id: egui::FontId::proportional(size),
        color: ui.visuals().text_color(),
        ..Default::default()
    };
    let mut job = LayoutJob::default();
    for (text, term) in spans {
        match term {
            Some(t) => job.append(
                text,
                0.0,
                TextFormat {
                    background: term_colour(t, dark),
                    color: ui.visuals().strong_text_color(),
                    ..plain.clone()
                },
            ),
            None => job.append(text, 0.0, plain.clone()),
        }
    }
    job.wrap.max_width = width;
    job
}

/// How far a result moved since the previous ranking of the same query.
fn move_marker(lang: Lang, base: &HashMap<u32, usize>, h: &Hit) -> (String, Color32) {
    match base.get(&h.id) {
        None => (
            lang.t("search.move_new").to_string(),
            Color32::from_rgb(30, 120, 200),
        ),
        Some(&old) if old > h.rank => {
            (format!("↑{}", old - h.rank), Color32::from_rgb(20, 140, 60))
        }
        Some(&old) if old < h.rank => {
            (format!("↓{}", h.rank - old), Color32::from_rgb(200, 60, 40))
        }
        Some(_) => ("=".to_string(), Color32::GRAY),
    }
}

fn model_key(m: Model) -> &'static str {
    match m {
        Model::Bm25 => "search.model_bm25",
        Model::Tfidf => "search.model_tfidf",
        Model::Tianwang => "search.model_tianwang",
    }
}

pub(super) fn search_ui(p: &mut SearchPanel, lang: Lang, ui: &mut Ui) {
    if let Some(r) = Task::take_result(&mut p.snap_task) {
        match r {
            Ok(v) => p.snapshot = Some(v),
            Err(e) => p.error = Some(e),
        }
    }
    if p.snapshot.is_some() {
        snapshot_ui(p, lang, ui);
        return;
    }
    let ready = p.searcher().is_some();
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(lang.t("search.query"));
        let r = ui
            .add(
                egui::TextEdit::singleline(&mut p.query)
                    .desired_width(320.0)
                    .hint_text(lang.t("search.query_hint")),
            )
            .labelled_by(l.id);
        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let clicked = ui
            .add_enabled(ready, egui::Button::new(lang.t("search.go")))
            .clicked();
        if (enter || clicked) && ready && !p.query.trim().is_empty() {
            let a = Ask::new(p, p.query.trim().to_string(), 0, true);
            p.ask(lang, ui.ctx(), a);
        }
        if p.searching() || p.snap_task.is_some() {
            ui.spinner();
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("search.model"));
        for m in Model::ALL {
            ui.radio_value(&mut p.cfg.model, m, lang.t(model_key(m)));
        }
    });
    super::serving::settings_ui(p, lang, ui);
    let Some(cur) = &p.current else {
        ui.label(RichText::new(lang.t("search.none_yet")).weak());
        return;
    };
    let r = &cur.result;
    let terms = r.terms.join(" / ");
    ui.label(lang.tf(
        "search.status",
        &[
            &r.total_hits,
            &format!("{:.1}", r.elapsed_ms),
            &terms,
            &r.retrieval.postings_read,
            &r.model,
        ],
    ));
    super::serving::status_ui(cur, lang, ui);
    if !r.retrieval.missing.is_empty() {
        ui.label(
            RichText::new(lang.tf("search.missing_terms", &[&r.retrieval.missing.join(" / ")]))
                .weak(),
        );
    }
    let pages = r.total_hits.div_ceil(PER_PAGE).max(1);
    let page = cur.page;
    let mut goto = None;
    let mut open_snap = None;
    let mut selected = p.selected;
    egui::ScrollArea::vertical()
        .id_salt("search_results")
        .auto_shrink([false, false])
        .max_height(ui.available_height() - 34.0)
        .show(ui, |ui| {
            if r.hits.is_empty() {
                ui.label(RichText::new(lang.t("search.no_hits")).weak());
            }
            for h in &r.hits {
                hit_ui(lang, ui, h, p.base.as_ref(), &mut selected, &mut open_snap);
            }
            if r.hits.is_empty() && r.matched > 0 && p.category.is_some() {
                ui.label(RichText::new(lang.t("search.none_in_category")).weak());
            }
        });
    ui.horizontal(|ui| {
        if ui
            .add_enabled(page > 0, egui::Button::new(lang.t("search.prev")))
            .clicked()
        {
            goto = Some(page - 1);
        }
        ui.label(lang.tf("search.page", &[&(page + 1), &pages]));
        if ui
            .add_enabled(page + 1 < pages, egui::Button::new(lang.t("search.next")))
            .clicked()
        {
            goto = Some(page + 1);
        }
    });
    let query = r.query.clone();
    p.selected = selected;
    let terms = r.terms.clone();
    if let Some(page) = goto {
        let a = Ask::new(p, query.clone(), page, true);
        p.ask(lang, ui.ctx(), a);
    }
    if let Some((doc, rank, title, url)) = open_snap {
        // The result opened goes to the workspace's own click log (query, rank, URL).
        if let Some(l) = p.logger.clone() {
            let (q, u) = (query.clone(), url.clone());
            std::thread::spawn(move || {
                if let Err(e) = l.click(&q, rank, &u) {
                    tracing::warn!("the click log: {e}");
                }
            });
        }
        open_snapshot(p, lang, ui.ctx(), doc, title, url, terms);
    }
}

fn hit_ui(
    lang: Lang,
    ui: &mut Ui,
    h: &Hit,
    base: Option<&HashMap<u32, usize>>,
    selected: &mut Option<u32>,
    open_snap: &mut Option<(u32, usize, String, String)>,
) {
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("{}.", h.rank)).weak());
        if let Some(base) = base {
            let (text, colour) = move_marker(lang, base, h);
            ui.label(RichText::new(text).color(colour).strong());
        }
        let title = if h.title.trim().is_empty() {
            h.doc.as_str()
        } else {
            h.title.as_str()
        };
        let open = *selected == Some(h.id);
        if ui
            .add(egui::Link::new(RichText::new(title).size(16.0)))
            .on_hover_text(lang.t("search.explain_tip"))
            .clicked()
        {
            *selected = if open { None } else { Some(h.id) };
        }
        ui.label(RichText::new(format!("{:.4}", h.score)).monospace());
    });
    if !h.url.is_empty() || h.category.is_some() {
        ui.horizontal_wrapped(|ui| {
            super::serving::category_chip(lang, ui, h);
            ui.label(
                RichText::new(&h.url)
                    .small()
                    .color(Color32::from_rgb(0, 128, 60)),
            );
        });
    }
    if let Some(a) = &h.abstract_parts {
        let job = coloured(ui, a.spans(), 14.0, ui.available_width());
        ui.label(job);
    } else if !h.abstract_text.is_empty() {
        ui.label(&h.abstract_text);
    }
    ui.horizontal(|ui| {
        if ui.link(lang.t("search.snapshot")).clicked() {
            *open_snap = Some((h.id, h.rank, h.title.clone(), h.url.clone()));
        }
        if h.doc != h.url {
            ui.label(
                RichText::new(lang.tf("search.doc_id", &[&h.doc]))
                    .weak()
                    .small(),
            );
        }
    });
    super::serving::similar_ui(lang, ui, h);
    if *selected == Some(h.id)
        && let Some(x) = &h.explain
    {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.label(
                RichText::new(lang.tf(
                    "search.explain_head",
                    &[&x.model, &format!("{:.4}", x.total)],
                ))
                .strong(),
            );
            egui::Grid::new(("search_explain", h.id))
                .striped(true)
                .show(ui, |ui| {
                    for k in [
                        "search.col_part",
                        "search.col_term",
                        "search.col_value",
                        "search.col_detail",
                    ] {
                        ui.label(RichText::new(lang.t(k)).strong());
                    }
                    ui.end_row();
                    for part in &x.parts {
                        ui.label(&part.name);
                        ui.label(part.term.as_deref().unwrap_or("—"));
                        ui.label(RichText::new(format!("{:.4}", part.value)).monospace());
                        ui.label(RichText::new(&part.detail).small());
                        ui.end_row();
                    }
                });
        });
    }
    ui.add_space(6.0);
}

/// Read the page's stored text and mark the query terms, in the background.
fn open_snapshot(
    p: &mut SearchPanel,
    lang: Lang,
    ctx: &egui::Context,
    doc: u32,
    title: String,
    url: String,
    terms: Vec<String>,
) {
    let Some(s) = p.searcher() else {
        return;
    };
    p.snap_task = Some(Task::spawn(ctx, move || {
        let text = s.index.text(doc).map_err(|e| lang.error(&e))?;
        let snap = snippet::snapshot(&text, &terms);
        let mut at = 0;
        let span_chars = snap
            .spans
            .iter()
            .map(|sp| {
                let start = at;
                at += sp.text.chars().count();
                start
            })
            .collect();
        Ok(SnapView {
            doc,
            title,
            url,
            crawled_at: s
                .index
                .docs
                .get(doc as usize)
                .and_then(|d| d.crawled_at.clone()),
            terms,
            snap,
            span_chars,
            jump: None,
            layout: Memo::default(),
        })
    }));
}

fn snapshot_ui(p: &mut SearchPanel, lang: Lang, ui: &mut Ui) {
    let Some(v) = &mut p.snapshot else {
        return;
    };
    let mut close = false;
    ui.horizontal(|ui| {
        if ui.button(lang.t("search.back")).clicked() {
            close = true;
        }
        ui.label(RichText::new(&v.title).strong());
        ui.label(RichText::new(&v.url).weak());
    });
    let when = v.crawled_at.clone().unwrap_or_else(|| "—".into());
    egui::Frame::new()
        .fill(ui.visuals().faint_bg_color)
        .stroke(egui::Stroke::new(1.0, ui.visuals().warn_fg_color))
        .inner_margin(8.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(lang.tf("search.snap_banner", &[&when])).strong());
            ui.label(RichText::new(lang.t("search.snap_note")).weak());
        });
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("search.legend"));
        let dark = ui.visuals().dark_mode;
        for (i, t) in v.terms.iter().enumerate() {
            let n = v.snap.counts.get(i).copied().unwrap_or(0);
            ui.label(
                RichText::new(format!(" {t} ×{n} "))
                    .background_color(term_colour(i, dark))
                    .color(ui.visuals().strong_text_color()),
            );
            let first = v.snap.first_occurrence.get(i).copied().flatten();
            if ui
                .add_enabled(
                    first.is_some(),
                    egui::Button::new(lang.tf("search.jump", &[t])).small(),
                )
                .clicked()
            {
                v.jump = first;
            }
        }
    });
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt(("search_snapshot", v.doc))
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let width = ui.available_width();
            let vis = ui.visuals();
            let key = (
                width.to_bits(),
                vis.dark_mode,
                vis.text_color(),
                vis.strong_text_color(),
            );
            let spans = &v.snap.spans;
            let job = v.layout.get(key, |_| {
                coloured(
                    ui,
                    spans.iter().map(|s| (s.text.as_str(), s.term)),
                    15.0,
                    width,
                )
            });
            let galley = ui.painter().layout_job(job.clone());
            let r = ui.add(egui::Label::new(galley.clone()).selectable(true));
            if let Some(span) = v.jump.take() {
                let at = v.span_chars.get(span).copied().unwrap_or(0);
                let rect = galley
                    .pos_from_cursor(CCursor::new(at))
                    .translate(r.rect.min.to_vec2())
                    .expand(4.0);
                ui.scroll_to_rect(rect, Some(egui::Align::Center));
            }
        });
    if close {
        p.snapshot = None;
    }
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;

    const TEXT: &str = "北京大学的天网搜索引擎。天网由北京大学开发，网页消重是天网的一部分。";

    fn snap_view() -> SnapView {
        let terms = vec!["天网".to_string(), "北京大学".to_string()];
        let snap = snippet::snapshot(TEXT, &terms);
        SnapView {
            doc: 1,
            title: "天网".into(),
            url: "http://tianwang.localhost/".into(),
            crawled_at: None,
            terms,
            span_chars: vec![0; snap.spans.len()],
            snap,
            jump: None,
            layout: Memo::default(),
        }
    }

    fn harness() -> Harness<'static, SearchPanel> {
        let panel = SearchPanel {
            snapshot: Some(snap_view()),
            ..SearchPanel::default()
        };
        Harness::builder()
            .with_size([700.0, 500.0])
            .with_context_setup(crate::ui::fonts::install_bundled)
            .build_ui_state(
                |ui, p: &mut SearchPanel| snapshot_ui(p, Lang::Zh, ui),
                panel,
            )
    }

    fn builds(h: &Harness<'static, SearchPanel>) -> u64 {
        h.state().snapshot.as_ref().map_or(0, |v| v.layout.builds())
    }

    #[test]
    fn the_snapshot_is_laid_out_once_per_width_not_per_frame() {
        let mut h = harness();
        h.run_steps(8);
        assert_eq!(builds(&h), 1, "eight frames, one layout");
        // The layout is the whole text, every occurrence of a term on its colour.
        let marked = |h: &Harness<'static, SearchPanel>| -> Vec<String> {
            let v = h.state().snapshot.as_ref().unwrap();
            let job = v.layout.last().unwrap();
            assert_eq!(job.text, TEXT);
            job.sections
                .iter()
                .filter(|s| s.format.background != Color32::TRANSPARENT)
                .map(|s| job.text[s.byte_range.start.0..s.byte_range.end.0].to_string())
                .collect()
        };
        let want = ["北京大学", "天网", "天网", "北京大学", "天网"];
        assert_eq!(marked(&h), want);
        // A narrower window lays it out again, once.
        h.set_size(egui::vec2(400.0, 500.0));
        h.run_steps(8);
        assert_eq!(builds(&h), 2);
        assert_eq!(marked(&h), want);
        h.get_by_label("← 返回结果");
    }
}
