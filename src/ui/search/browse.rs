//! The Index browser tab (what Luke is for Lucene): terms by prefix with their df, a term's
//! postings (document, d-gap, tf, WBT, positions) and the bytes its d-gaps take in every codec
//! of §8.3.1 beside the book's ratios [L2740] and the whole index's, and a document's terms
//! (tf, df). Lookups run in [`Task`]s on the shared searcher.

use std::sync::Arc;

use egui::{RichText, Ui};

use crate::engine::index::browse::{self, DocTerm, TermView};
use crate::engine::index::codec::Codec;
use crate::engine::index::search::Searcher;
use crate::ui::Lang;
use crate::ui::task::Task;

/// Rows of a postings or terms table shown at most.
const MAX_ROWS: usize = 300;

type Terms = Vec<(String, u32, u64)>;
/// A document's id, title and terms.
type DocRow = (u32, String, Vec<DocTerm>);

#[derive(Default)]
pub(crate) struct Browser {
    prefix: String,
    terms: Option<Terms>,
    terms_task: Option<Task<Terms>>,
    view: Option<Result<TermView, String>>,
    view_task: Option<Task<Result<Option<TermView>, String>>>,
    doc_key: String,
    doc: Option<Result<DocRow, String>>,
    doc_task: Option<Task<Result<DocRow, String>>>,
}

impl Browser {
    /// A new index: what was shown came from the old one.
    pub(crate) fn index_changed(&mut self) {
        *self = Browser {
            prefix: std::mem::take(&mut self.prefix),
            doc_key: std::mem::take(&mut self.doc_key),
            ..Browser::default()
        };
    }

    fn poll(&mut self) {
        if let Some(r) = Task::take_finished(&mut self.terms_task) {
            self.terms = r.ok();
        }
        if let Some(r) = Task::take_result(&mut self.view_task) {
            self.view = match r {
                Ok(Some(v)) => Some(Ok(v)),
                Ok(None) => Some(Err("∅".into())),
                Err(e) => Some(Err(e)),
            };
        }
        if let Some(r) = Task::take_result(&mut self.doc_task) {
            self.doc = Some(r);
        }
    }

    fn busy(&self) -> bool {
        self.terms_task.is_some() || self.view_task.is_some() || self.doc_task.is_some()
    }
}

fn open_term(b: &mut Browser, s: &Arc<Searcher>, lang: Lang, ctx: &egui::Context, term: String) {
    let s = s.clone();
    b.view_task = Some(Task::spawn(ctx, move || {
        browse::term_view(&s.index, &term).map_err(|e| lang.error(&e))
    }));
}

fn open_doc(b: &mut Browser, s: &Arc<Searcher>, lang: Lang, ctx: &egui::Context, key: String) {
    let s = s.clone();
    b.doc_task = Some(Task::spawn(ctx, move || {
        let ix = &s.index;
        let id = ix
            .find_doc(&key)
            .or_else(|| key.parse::<u32>().ok().filter(|&d| (d as usize) < ix.len()))
            .ok_or_else(|| format!("{key}: ∅"))?;
        let terms = browse::doc_terms(ix, id).map_err(|e| lang.error(&e))?;
        Ok((id, ix.docs[id as usize].title.clone(), terms))
    }));
}

pub(super) fn browse_ui(b: &mut Browser, s: Option<Arc<Searcher>>, lang: Lang, ui: &mut Ui) {
    b.poll();
    let Some(s) = s else {
        ui.label(RichText::new(lang.t("search.browse_no_index")).weak());
        return;
    };
    let ctx = ui.ctx().clone();
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(lang.t("search.prefix"));
        let r = ui
            .add(egui::TextEdit::singleline(&mut b.prefix).desired_width(160.0))
            .labelled_by(l.id);
        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button(lang.t("search.find_terms")).clicked() || enter {
            let (s, prefix) = (s.clone(), b.prefix.trim().to_string());
            b.terms_task = Some(Task::spawn(&ctx, move || {
                s.index
                    .terms_with_prefix(&prefix, MAX_ROWS)
                    .iter()
                    .map(|t| (t.term.clone(), t.df, t.cf))
                    .collect()
            }));
        }
        ui.separator();
        let l = ui.label(lang.t("search.doc_key"));
        let r = ui
            .add(egui::TextEdit::singleline(&mut b.doc_key).desired_width(220.0))
            .labelled_by(l.id);
        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button(lang.t("search.doc_terms")).clicked() || enter {
            let key = b.doc_key.trim().to_string();
            open_doc(b, &s, lang, &ctx, key);
        }
        if b.busy() {
            ui.spinner();
        }
    });
    ui.separator();
    let mut pick_term = None;
    let mut pick_doc = None;
    egui::Panel::left("browse_terms_panel")
        .resizable(false)
        .default_size(200.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("browse_terms")
                .auto_shrink([false, false])
                .show(ui, |ui| terms_ui(b, lang, ui, &mut pick_term));
        });
    egui::Panel::right("browse_doc_panel")
        .resizable(false)
        .default_size(280.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical()
                .id_salt("browse_doc")
                .auto_shrink([false, false])
                .show(ui, |ui| doc_ui(b, lang, ui, &mut pick_term));
        });
    egui::CentralPanel::default()
        .frame(egui::Frame::NONE)
        .show(ui, |ui| {
            egui::ScrollArea::both()
                .id_salt("browse_postings")
                .auto_shrink([false, false])
                .show(ui, |ui| match &b.view {
                    Some(Ok(v)) => term_ui(lang, ui, v, &s, &mut pick_doc),
                    Some(Err(e)) => {
                        ui.label(RichText::new(lang.tf("search.no_term", &[e])).weak());
                    }
                    None => {}
                });
        });
    if let Some(t) = pick_term {
        open_term(b, &s, lang, &ctx, t);
    }
    if let Some(k) = pick_doc {
        b.doc_key = k.clone();
        open_doc(b, &s, lang, &ctx, k);
    }
}

/// A term: its counts, the bytes per codec, its postings.
fn term_ui(lang: Lang, ui: &mut Ui, v: &TermView, s: &Searcher, pick_doc: &mut Option<String>) {
    ui.label(
        RichText::new(lang.tf(
            "search.term_head",
            &[&v.term, &v.df, &v.cf, &v.block_bytes, &v.golomb_b],
        ))
        .strong(),
    );
    let none = v
        .gap_bytes
        .iter()
        .find(|(c, _)| *c == Codec::None)
        .map_or(0, |&(_, b)| b)
        .max(1) as f64;
    let meta = &s.index.meta.bytes_by_codec;
    let index_none = meta.get("none").copied().unwrap_or(0).max(1) as f64;
    ui.label(RichText::new(lang.t("search.codec_note")).weak());
    egui::Grid::new("browse_codecs")
        .striped(true)
        .show(ui, |ui| {
            for k in [
                "search.col_codec",
                "search.col_bytes",
                "search.col_ratio",
                "search.col_index_ratio",
                "search.col_book",
            ] {
                ui.label(RichText::new(lang.t(k)).strong());
            }
            ui.end_row();
            for &(c, bytes) in &v.gap_bytes {
                ui.label(c.name());
                ui.label(bytes.to_string());
                ui.label(format!("{:.4}", bytes as f64 / none));
                ui.label(
                    meta.get(c.name())
                        .map_or("—".into(), |&b| format!("{:.4}", b as f64 / index_none)),
                );
                ui.label(match c {
                    Codec::Golomb => "0.2635",
                    Codec::VByte => "0.3359",
                    _ => "",
                });
                ui.end_row();
            }
        });
    ui.add_space(6.0);
    ui.label(RichText::new(lang.t("search.postings")).strong());
    egui::Grid::new("browse_postings_grid")
        .striped(true)
        .show(ui, |ui| {
            for h in [
                lang.t("search.col_doc"),
                lang.t("search.col_gap"),
                "tf",
                "WBT",
                lang.t("search.col_positions"),
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for i in 0..v.docs.len().min(MAX_ROWS) {
                let key = &v.keys[i];
                if ui
                    .link(key)
                    .on_hover_text(format!("#{}", v.docs[i]))
                    .clicked()
                {
                    *pick_doc = Some(key.clone());
                }
                ui.label(v.gaps.get(i).map_or(String::new(), |g| g.to_string()));
                ui.label(v.tfs.get(i).map_or(String::new(), |t| t.to_string()));
                ui.label(v.wbt.get(i).map_or(String::new(), |w| format!("{w:.1}")));
                let pos = v.positions.get(i).map_or(String::new(), |p| {
                    let shown: Vec<String> = p.iter().take(12).map(u32::to_string).collect();
                    let more = if p.len() > 12 { " …" } else { "" };
                    format!("{}{more}", shown.join(" "))
                });
                ui.label(RichText::new(pos).small());
                ui.end_row();
            }
        });
    if v.docs.len() > MAX_ROWS {
        ui.label(RichText::new(lang.tf("search.more_rows", &[&(v.docs.len() - MAX_ROWS)])).weak());
    }
}

fn terms_ui(b: &Browser, lang: Lang, ui: &mut Ui, pick_term: &mut Option<String>) {
    let Some(terms) = &b.terms else {
        return;
    };
    ui.label(RichText::new(lang.tf("search.terms_found", &[&terms.len()])).strong());
    egui::Grid::new("browse_terms_grid")
        .striped(true)
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("search.col_term")).strong());
            ui.label(RichText::new("df").strong());
            ui.label(RichText::new("cf").strong());
            ui.end_row();
            for (t, df, cf) in terms {
                if ui.link(t).clicked() {
                    *pick_term = Some(t.clone());
                }
                ui.label(df.to_string());
                ui.label(cf.to_string());
                ui.end_row();
            }
        });
}

fn doc_ui(b: &Browser, lang: Lang, ui: &mut Ui, pick_term: &mut Option<String>) {
    match &b.doc {
        Some(Ok((id, title, terms))) => {
            ui.label(
                RichText::new(lang.tf("search.doc_head", &[id, title, &terms.len()])).strong(),
            );
            egui::Grid::new("browse_doc_grid")
                .striped(true)
                .show(ui, |ui| {
                    ui.label(RichText::new(lang.t("search.col_term")).strong());
                    ui.label(RichText::new("tf").strong());
                    ui.label(RichText::new("df").strong());
                    ui.end_row();
                    for t in terms.iter().take(MAX_ROWS) {
                        if ui.link(&t.term).clicked() {
                            *pick_term = Some(t.term.clone());
                        }
                        ui.label(t.tf.to_string());
                        ui.label(t.df.to_string());
                        ui.end_row();
                    }
                });
        }
        Some(Err(e)) => {
            ui.label(RichText::new(e).weak());
        }
        None => {}
    }
}
