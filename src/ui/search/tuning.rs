//! The ranking parameters beside the results (book ch. 10): BM25's k1 and b, the VSM
//! weighting and cosine [L3556–L3575], Tianwang's kB / kL / kU, the AND combination, DS, the
//! source of WL and PageRank's d, linear or product combination [L3743–L3918]. Any change
//! re-ranks the shown query in the background (the panel coalesces rapid moves). Table 10-2's
//! tag weights are shown read-only: they are baked into the index (WBT), so changing them
//! needs a rebuild.

use egui::{RichText, Ui};

use crate::engine::index::query::Op;
use crate::engine::index::score::{AndOp, Combine, DsMode, RankConfig, Vsm, WlSource};
use crate::engine::index::tagweight::TagWeights;
use crate::ui::Lang;

fn slider(ui: &mut Ui, label: &str, v: &mut f64, range: std::ops::RangeInclusive<f64>) {
    ui.horizontal(|ui| {
        let l = ui.label(label);
        ui.add(egui::Slider::new(v, range).fixed_decimals(2))
            .labelled_by(l.id);
    });
}

fn heading(ui: &mut Ui, text: &str) {
    ui.add_space(6.0);
    ui.label(RichText::new(text).strong());
}

pub(super) fn tuning_ui(lang: Lang, ui: &mut Ui, cfg: &mut RankConfig) {
    ui.heading(lang.t("search.tuning"));
    ui.label(RichText::new(lang.t("search.tuning_note")).weak());
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("search.op"));
        ui.radio_value(&mut cfg.op, Op::And, "AND");
        ui.radio_value(&mut cfg.op, Op::Or, "OR");
    });

    heading(ui, lang.t("search.sec_bm25"));
    slider(ui, "k1", &mut cfg.k1, 0.0..=3.0);
    slider(ui, "b", &mut cfg.b, 0.0..=1.0);

    heading(ui, lang.t("search.sec_vsm"));
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut cfg.vsm, Vsm::NormTf, lang.t("search.vsm_normtf"));
        ui.radio_value(&mut cfg.vsm, Vsm::Binary, lang.t("search.vsm_binary"));
        ui.radio_value(&mut cfg.vsm, Vsm::TfIdf, "tf·idf");
    });
    ui.checkbox(&mut cfg.cosine, lang.t("search.cosine"));

    heading(ui, lang.t("search.sec_tianwang"));
    slider(ui, "kB", &mut cfg.kb, 0.0..=1.0);
    slider(ui, "kL", &mut cfg.kl, 0.0..=1.0);
    slider(ui, "kU", &mut cfg.ku, 0.0..=1.0);
    let sum = cfg.kb + cfg.kl + cfg.ku;
    let text = lang.tf("search.k_sum", &[&format!("{sum:.2}")]);
    if (sum - 1.0).abs() > 1e-9 {
        ui.colored_label(ui.visuals().warn_fg_color, text);
    } else {
        ui.label(RichText::new(text).weak());
    }
    if sum <= 0.0 {
        // validate() refuses kB + kL + kU = 0: keep the ranking valid.
        cfg.kb = 0.01;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("search.and_op"));
        ui.radio_value(&mut cfg.and_op, AndOp::Mean, lang.t("search.and_mean"));
        ui.radio_value(&mut cfg.and_op, AndOp::Min, lang.t("search.and_min"));
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("DS");
        ui.radio_value(&mut cfg.ds, DsMode::Book, "ln(Smax/S)");
        ui.radio_value(&mut cfg.ds, DsMode::Smooth, "ln(1+Smax/S)");
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("WL");
        ui.radio_value(&mut cfg.wl, WlSource::Lhn, "ln(LHN+1)");
        ui.radio_value(&mut cfg.wl, WlSource::Pagerank, "PageRank");
    });
    ui.add_enabled_ui(cfg.wl == WlSource::Pagerank, |ui| {
        slider(ui, lang.t("search.damping"), &mut cfg.damping, 0.5..=0.99);
    });
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("search.combine"));
        ui.radio_value(&mut cfg.combine, Combine::Linear, lang.t("search.linear"));
        ui.radio_value(&mut cfg.combine, Combine::Product, lang.t("search.product"));
    });
    ui.add_space(6.0);
    if ui.button(lang.t("search.defaults")).clicked() {
        *cfg = RankConfig {
            model: cfg.model,
            ..RankConfig::default()
        };
    }
    ui.separator();
    egui::CollapsingHeader::new(lang.t("search.tags"))
        .id_salt("search_tags")
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("search.tags_note")).weak());
            egui::Grid::new("search_tag_weights")
                .striped(true)
                .show(ui, |ui| {
                    for (tag, w) in TagWeights::table_10_2() {
                        ui.label(RichText::new(tag).monospace());
                        ui.label(format!("{w}"));
                        ui.end_row();
                    }
                });
        });
}
