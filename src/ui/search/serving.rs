//! How the query service serves the Search tab (`workbench::service`): the fold switch (one
//! result per group of near-duplicates, "N similar pages" expanding to the others — §7.2), the
//! category filter (ch. 11: browsing by category, when the pipeline classified the pages), the
//! result cache in front of the service (§8.6, §9.10: any of the cache lab's online policies and
//! a size; each search says hit or miss and the running hit ratio), and, per result, its
//! category and its similar pages.

use std::sync::{Arc, Mutex};

use egui::{Color32, RichText, Ui};

use super::{IndexState, Ranked, SearchPanel};
use crate::engine::cache::policy::PolicyKind;
use crate::engine::index::search::Hit;
use crate::ui::Lang;
use crate::workbench::service::{CacheSpec, ResultCache};

/// The fold switch, the category filter and the cache in front.
pub(super) fn settings_ui(p: &mut SearchPanel, lang: Lang, ui: &mut Ui) {
    ui.horizontal_wrapped(|ui| {
        let folds = matches!(&p.index, IndexState::Ready { searcher, .. }
            if searcher.folding().is_some());
        ui.add_enabled(
            folds,
            egui::Checkbox::new(&mut p.fold, lang.t("search.fold")),
        )
        .on_hover_text(lang.t("search.fold_tip"))
        .on_disabled_hover_text(lang.t("search.fold_none"));
        if let IndexState::Ready { categories, .. } = &p.index
            && !categories.is_empty()
        {
            ui.separator();
            let l = ui.label(lang.t("search.category"));
            let shown = p
                .category
                .clone()
                .unwrap_or_else(|| lang.t("search.category_all").to_string());
            egui::ComboBox::from_id_salt("search_category")
                .selected_text(shown)
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut p.category, None, lang.t("search.category_all"));
                    for (c, n) in categories {
                        ui.selectable_value(&mut p.category, Some(c.clone()), format!("{c} ({n})"));
                    }
                })
                .response
                .labelled_by(l.id);
        }
        ui.separator();
        cache_ui(p, lang, ui);
    });
}

/// The policy (or none) and size of the cache in front; a change starts an empty cache.
fn cache_ui(p: &mut SearchPanel, lang: Lang, ui: &mut Ui) {
    let l = ui
        .label(lang.t("search.cache"))
        .on_hover_text(lang.t("search.cache_tip"));
    let before = (p.cache_policy, p.cache_size);
    let shown = p.cache_policy.map_or_else(
        || lang.t("search.cache_off").to_string(),
        |k| k.name().to_string(),
    );
    egui::ComboBox::from_id_salt("search_cache_policy")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut p.cache_policy, None, lang.t("search.cache_off"));
            for k in PolicyKind::ALL.into_iter().filter(|k| !k.is_offline()) {
                ui.selectable_value(&mut p.cache_policy, Some(k), k.name());
            }
        })
        .response
        .labelled_by(l.id);
    if p.cache_policy.is_some() {
        ui.add(
            egui::DragValue::new(&mut p.cache_size)
                .range(1..=1_000_000)
                .suffix(lang.t("search.cache_pages")),
        );
    }
    let changed = before != (p.cache_policy, p.cache_size);
    if changed || (p.cache_policy.is_some() && p.cache.is_none()) {
        p.cache = p
            .cache_policy
            .and_then(|k| CacheSpec::new(k, p.cache_size).ok())
            .map(|spec| Arc::new(Mutex::new(ResultCache::new(spec))));
    }
}

/// Hit or miss of the page shown, and the hit ratio so far; how many results were folded.
pub(super) fn status_ui(cur: &Ranked, lang: Lang, ui: &mut Ui) {
    let r = &cur.result;
    ui.horizontal_wrapped(|ui| {
        if r.folded > 0 {
            ui.label(RichText::new(lang.tf("search.folded", &[&r.matched, &r.folded])).weak());
        }
        if let Some((hit, requests, hits)) = cur.cache {
            let (text, colour) = if hit {
                (lang.t("search.cache_hit"), Color32::from_rgb(20, 140, 60))
            } else {
                (lang.t("search.cache_miss"), Color32::from_rgb(200, 120, 0))
            };
            ui.label(RichText::new(text).color(colour).strong());
            let ratio = if requests == 0 {
                0.0
            } else {
                hits as f64 / requests as f64
            };
            ui.label(lang.tf(
                "search.cache_ratio",
                &[&hits, &requests, &format!("{:.1}", ratio * 100.0)],
            ));
        }
    });
}

/// A result's category, as a small tag.
pub(super) fn category_chip(_lang: Lang, ui: &mut Ui, h: &Hit) {
    if let Some(c) = &h.category {
        ui.label(
            RichText::new(format!(" {c} "))
                .small()
                .background_color(ui.visuals().faint_bg_color)
                .color(Color32::from_rgb(120, 60, 160)),
        );
    }
}

/// "N similar pages", expanding to their URLs.
pub(super) fn similar_ui(lang: Lang, ui: &mut Ui, h: &Hit) {
    if h.similar.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(
        RichText::new(lang.tf("search.similar", &[&h.similar.len()])).small(),
    )
    .id_salt(("search_similar", h.id))
    .show(ui, |ui| {
        for u in &h.similar {
            ui.label(
                RichText::new(u)
                    .small()
                    .color(Color32::from_rgb(0, 128, 60)),
            );
        }
    });
}
