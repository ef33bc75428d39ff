//! The performance-model tab's Stirling check ([L2834–L2858]): for small M and k, the sum
//! Σ i·S(k,i)·P_M^i / M^k behind (8-1) in exact 128-bit integers, term by term, beside the
//! closed form M(1 − (1 − 1/M)^k) and a seeded Monte Carlo estimate (rerun only when the
//! inputs change).

use egui::{DragValue, RichText, Ui};

use super::perfmodel::badge;
use crate::engine::export::Table;
use crate::engine::index::perfmodel::{StirlingCheck, verify_stirling};
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};

/// (M, k, trials, seed): what a result was computed for.
type Key = (u64, u32, u32, u64);

/// The Stirling verifier's inputs and its last result (recomputed when they change).
pub(crate) struct Stirling {
    m: u64,
    k: u32,
    trials: u32,
    seed: u64,
    last: Option<(Key, Result<StirlingCheck, String>)>,
}

impl Default for Stirling {
    /// The digest's check: M = 5, k = 3.
    fn default() -> Self {
        Stirling {
            m: 5,
            k: 3,
            trials: 10_000,
            seed: 1,
            last: None,
        }
    }
}

pub(crate) fn stirling_ui(s: &mut Stirling, ui: &mut Ui, lang: Lang, ex: &mut Exports) {
    ui.label(RichText::new(lang.t("perf.st_intro")).weak());
    ui.horizontal_wrapped(|ui| {
        let l = ui.label("M");
        ui.add(DragValue::new(&mut s.m).range(1..=1000))
            .labelled_by(l.id);
        let l = ui.label("k");
        ui.add(DragValue::new(&mut s.k).range(0..=40))
            .labelled_by(l.id);
        let l = ui.label(lang.t("perf.st_trials"));
        ui.add(DragValue::new(&mut s.trials).range(1..=100_000).speed(10.0))
            .labelled_by(l.id);
        let l = ui.label(lang.t("perf.st_seed"));
        ui.add(DragValue::new(&mut s.seed)).labelled_by(l.id);
        if ui.button(lang.t("perf.st_book")).clicked() {
            (s.m, s.k) = (5, 3);
        }
    });
    let key = (s.m, s.k, s.trials, s.seed);
    if s.last.as_ref().is_none_or(|(k, _)| *k != key) {
        let r = verify_stirling(s.m, s.k, s.trials, s.seed).map_err(|e| lang.error(&e));
        s.last = Some((key, r));
    }
    let Some((_, result)) = &s.last else { return };
    let c = match result {
        Ok(c) => c,
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
            return;
        }
    };
    ui.add_space(4.0);
    egui::Grid::new("perf_stirling_sum")
        .num_columns(3)
        .spacing([8.0, 4.0])
        .striped(true)
        .show(ui, |ui| {
            let eq = (lang.t("perf.st_equal"), lang.t("perf.st_differ"));
            let row = |ui: &mut Ui, a: &str, b: String, ok: Option<(bool, (&str, &str))>| {
                ui.label(a);
                ui.label(RichText::new(b).monospace());
                match ok {
                    Some((ok, (yes, no))) => badge(ui, ok, yes, no),
                    None => {
                        ui.label("");
                    }
                }
                ui.end_row();
            };
            match &c.exact {
                Some(x) => {
                    row(ui, lang.t("perf.st_sum"), x.sum.to_string(), None);
                    row(
                        ui,
                        lang.t("perf.st_closed_num"),
                        x.closed.to_string(),
                        Some((x.closed == x.sum, eq)),
                    );
                    row(
                        ui,
                        lang.t("perf.st_identity"),
                        format!("{} = {}", x.identity, x.total),
                        Some((x.identity == x.total, eq)),
                    );
                    let (p, q) = x.reduced();
                    row(
                        ui,
                        lang.t("perf.st_exact"),
                        format!("{}/{} = {p}/{q} = {:.6}", x.sum, x.total, x.value()),
                        None,
                    );
                }
                None => row(
                    ui,
                    lang.t("perf.st_exact"),
                    lang.t("perf.st_overflow").to_string(),
                    None,
                ),
            }
            row(
                ui,
                lang.t("perf.st_closed"),
                format!("{:.6}", c.closed_form),
                c.exact.as_ref().map(|x| {
                    (
                        (x.value() - c.closed_form).abs() <= 1e-9 * c.closed_form.max(1.0),
                        eq,
                    )
                }),
            );
            let mc = &c.monte_carlo;
            row(
                ui,
                lang.t("perf.st_mc"),
                format!("{:.4} ± {:.4}", mc.mean, mc.std_error),
                Some((
                    (mc.mean - c.closed_form).abs() <= 4.0 * mc.std_error.max(1e-12),
                    (lang.t("perf.st_within"), lang.t("perf.st_outside")),
                )),
            );
        });
    let Some(x) = &c.exact else { return };
    ui.add_space(6.0);
    let table = || {
        let mut t = Table::new(
            lang.tf("perf.st_table_title", &[&x.m, &x.k]),
            ["i", "S(k,i)", "P_M^i", "i·S·P", "f(i)"],
        );
        for term in &x.terms {
            t.push([
                term.i.to_string(),
                term.s.to_string(),
                term.falling.to_string(),
                term.product.to_string(),
                format!("{:.6}", x.probability(term)),
            ]);
        }
        t
    };
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.tf("perf.st_table_title", &[&x.m, &x.k])).strong());
        table_button(ui, lang, ex, table);
    });
    egui::Grid::new("perf_stirling_terms")
        .num_columns(5)
        .spacing([16.0, 2.0])
        .striped(true)
        .show(ui, |ui| {
            for h in ["i", "S(k,i)", "P_M^i", "i·S(k,i)·P_M^i", "f_{M,k}(i)"] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for term in &x.terms {
                ui.label(term.i.to_string());
                ui.label(RichText::new(term.s.to_string()).monospace());
                ui.label(RichText::new(term.falling.to_string()).monospace());
                ui.label(RichText::new(term.product.to_string()).monospace());
                ui.label(RichText::new(format!("{:.6}", x.probability(term))).monospace());
                ui.end_row();
            }
        });
}
