//! The performance-model tab's Stirling check ([L2834–L2858]): for small M and k, the sum
//! Σ i·S(k,i)·P_M^i / M^k behind (8-1) in exact 128-bit integers, term by term, beside the
//! closed form M(1 − (1 − 1/M)^k) and a seeded Monte Carlo estimate. The sum (at most 40
//! terms) is computed when M or k changes; the Monte Carlo (up to 4·10⁶ draws) runs in a
//! background task, one at a time: inputs changed while it draws are drawn when it lands, and
//! the row says "computing…" meanwhile.
//!
//! ```ignore
//! stirling_ui(&mut self.stirling, ui, lang, &mut exports);
//! ```

use egui::{DragValue, RichText, Ui};

use super::perfmodel::badge;
use crate::engine::export::Table;
use crate::engine::index::perfmodel::{
    MonteCarlo, StirlingSum, expected_lists, expected_lists_exact, monte_carlo_lists,
};
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};
use crate::ui::memo::Memo;
use crate::ui::task::Task;

/// (M, k, trials, seed): what a Monte Carlo estimate was drawn for.
type Key = (u64, u32, u32, u64);

/// The exact sum (`None`: past `u128`) and the closed form, for one (M, k).
type Exact = (Option<StirlingSum>, f64);

/// The Stirling verifier's inputs and its results (each recomputed only when its inputs change).
pub(crate) struct Stirling {
    m: u64,
    k: u32,
    trials: u32,
    seed: u64,
    /// The exact sum and the closed form, by (M, k).
    exact: Memo<(u64, u32), Exact>,
    /// The last Monte Carlo estimate and what it was drawn for.
    mc: Option<(Key, Result<MonteCarlo, String>)>,
    /// The estimate being drawn.
    drawing: Option<(Key, Task<Result<MonteCarlo, String>>)>,
    /// How many estimates were started.
    draws: u64,
}

impl Default for Stirling {
    /// The digest's check: M = 5, k = 3.
    fn default() -> Self {
        Stirling {
            m: 5,
            k: 3,
            trials: 10_000,
            seed: 1,
            exact: Memo::default(),
            mc: None,
            drawing: None,
            draws: 0,
        }
    }
}

impl Stirling {
    /// Take a landed estimate; start one for the current inputs when none is drawing and the
    /// last is for other inputs. The estimate for the current inputs, once drawn.
    fn monte_carlo(
        &mut self,
        ctx: &egui::Context,
        lang: Lang,
    ) -> Option<&Result<MonteCarlo, String>> {
        if let Some((key, r)) = Task::take_keyed(&mut self.drawing) {
            self.mc = Some((key, r.and_then(|x| x)));
        }
        let key = (self.m, self.k, self.trials, self.seed);
        if self.drawing.is_none() && self.mc.as_ref().is_none_or(|(k, _)| *k != key) {
            let (m, k, trials, seed) = key;
            let task = Task::spawn(ctx, move || {
                monte_carlo_lists(m, u64::from(k), trials, seed).map_err(|e| lang.error(&e))
            });
            self.drawing = Some((key, task));
            self.draws += 1;
        }
        self.mc.as_ref().filter(|(k, _)| *k == key).map(|(_, r)| r)
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
    let mc = s.monte_carlo(ui.ctx(), lang).cloned();
    let (exact, closed_form) = s.exact.get((s.m, s.k), |&(m, k)| {
        (
            expected_lists_exact(m, k),
            expected_lists(m as f64, u64::from(k)),
        )
    });
    ui.add_space(4.0);
    checks_grid(ui, lang, exact.as_ref(), *closed_form, mc.as_ref());
    let Some(x) = exact else { return };
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

/// The sum, the closed form, the identity, the exact expectation and the Monte Carlo estimate,
/// each with whether it agrees.
fn checks_grid(
    ui: &mut Ui,
    lang: Lang,
    exact: Option<&StirlingSum>,
    closed_form: f64,
    mc: Option<&Result<MonteCarlo, String>>,
) {
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
            match exact {
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
                format!("{:.6}", closed_form),
                exact.as_ref().map(|x| {
                    (
                        (x.value() - closed_form).abs() <= 1e-9 * closed_form.max(1.0),
                        eq,
                    )
                }),
            );
            match mc {
                Some(Ok(mc)) => row(
                    ui,
                    lang.t("perf.st_mc"),
                    format!("{:.4} ± {:.4}", mc.mean, mc.std_error),
                    Some((
                        (mc.mean - closed_form).abs() <= 4.0 * mc.std_error.max(1e-12),
                        (lang.t("perf.st_within"), lang.t("perf.st_outside")),
                    )),
                ),
                Some(Err(e)) => {
                    ui.label(lang.t("perf.st_mc"));
                    ui.colored_label(ui.visuals().error_fg_color, e);
                    ui.end_row();
                }
                None => {
                    ui.label(lang.t("perf.st_mc"));
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label(lang.t("perf.st_computing"));
                    });
                    ui.end_row();
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;

    type State = (Stirling, Exports);

    fn harness() -> Harness<'static, State> {
        Harness::builder()
            .with_size([1000.0, 900.0])
            .with_context_setup(crate::ui::fonts::install_bundled)
            .build_ui_state(
                |ui, (s, ex): &mut State| stirling_ui(s, ui, Lang::En, ex),
                (Stirling::default(), Exports::default()),
            )
    }

    /// Step frames until the estimate for the current inputs is shown.
    fn drawn(h: &mut Harness<'static, State>) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            h.step();
            let s = &h.state().0;
            let key = (s.m, s.k, s.trials, s.seed);
            if s.mc.as_ref().is_some_and(|(k, _)| *k == key)
                && h.query_by_label("computing…").is_none()
            {
                return;
            }
            assert!(Instant::now() < deadline, "the estimate never came");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn the_sum_is_computed_and_the_monte_carlo_drawn_once_per_input_change() {
        let mut h = harness();
        h.step();
        // The exact rows at once, the Monte Carlo in the background.
        h.get_by_label("305/125 = 61/25 = 2.440000");
        drawn(&mut h);
        h.get_by_label_contains("agrees (within 4 standard errors)");
        h.run_steps(10);
        assert_eq!(h.state().0.exact.builds(), 1, "one sum for many frames");
        assert_eq!(h.state().0.draws, 1, "one estimate for many frames");
        // The same draw as the engine's, for the same inputs.
        let direct = monte_carlo_lists(5, 3, 10_000, 1).unwrap();
        assert_eq!(h.state().0.mc.as_ref().unwrap().1, Ok(direct));
        // Another M: one more sum and one more estimate.
        h.state_mut().0.m = 6;
        drawn(&mut h);
        h.run_steps(10);
        assert_eq!((h.state().0.exact.builds(), h.state().0.draws), (2, 2));
        // Only the seed: no new sum, one new estimate.
        h.state_mut().0.seed = 2;
        drawn(&mut h);
        assert_eq!((h.state().0.exact.builds(), h.state().0.draws), (2, 3));
    }

    #[test]
    fn changes_while_drawing_are_coalesced_into_one_estimate_of_the_latest() {
        let mut h = harness();
        drawn(&mut h);
        assert_eq!(h.state().0.draws, 1);
        // The heaviest estimate the form allows (4·10⁶ draws) …
        (h.state_mut().0.trials, h.state_mut().0.k) = (100_000, 40);
        h.step();
        assert_eq!(h.state().0.draws, 2);
        assert!(h.state().0.drawing.is_some());
        // … while it draws, the seed moves twice: nothing new starts …
        for seed in [7, 8] {
            h.state_mut().0.seed = seed;
            h.step();
            h.get_by_label("computing…");
        }
        assert_eq!(h.state().0.draws, 2, "no estimate starts while one draws");
        // … and when it lands, one estimate for the latest inputs only.
        drawn(&mut h);
        assert_eq!(h.state().0.draws, 3);
        let (key, r) = h.state().0.mc.as_ref().unwrap();
        assert_eq!(*key, (5, 40, 100_000, 8));
        assert!(r.is_ok());
    }
}
