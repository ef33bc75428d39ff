//! Grid marks of a log10 plot axis, shared by every panel with a log axis (the cache lab's
//! sizes, the performance model's data volumes): each decade and each digit 2–9 inside it get
//! a mark; `step_size` is the gap to the next mark that may carry a label, so egui hides a
//! label only when it would run into the next one.

use egui_plot::{GridInput, GridMark};

/// Marks between `input.bounds` (in log10 units). Decades are always labelled; `labelled` are
/// the digits inside a decade that may be too (e.g. `[2, 3, 5]`; `[]` for decades only).
pub(crate) fn log_grid(input: GridInput, labelled: &[u32]) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi - lo > 40.0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for k in (lo.floor() as i64)..=(hi.ceil() as i64) {
        for d in 1..=9u32 {
            let value = k as f64 + f64::from(d).log10();
            if value < lo || value > hi {
                continue;
            }
            // A decade's label reaches to the next decade; a labelled digit's to the next
            // labelled digit; an unlabelled digit's mark is thin (the next digit).
            let next = if d == 1 {
                10
            } else if labelled.contains(&d) {
                labelled.iter().copied().find(|&l| l > d).unwrap_or(10)
            } else {
                d + 1
            };
            let step_size = (f64::from(next) / f64::from(d)).log10();
            out.push(GridMark { value, step_size });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(labelled: &[u32]) -> Vec<(f64, f64)> {
        log_grid(
            GridInput {
                bounds: (0.0, 0.99),
                base_step_size: 0.1,
            },
            labelled,
        )
        .into_iter()
        .map(|m| (10f64.powf(m.value).round(), 10f64.powf(m.step_size)))
        .collect()
    }

    #[test]
    fn decades_and_labelled_digits_step_to_the_next_label() {
        let s = steps(&[2, 3, 5]);
        // 1 → 10, 2 → 3, 3 → 5, 5 → 10, 4 → 5 (unlabelled digits step to the next digit).
        let ratio = |d: f64| s.iter().find(|m| m.0 == d).map(|m| m.1).unwrap();
        assert!((ratio(1.0) - 10.0).abs() < 1e-9);
        assert!((ratio(2.0) - 1.5).abs() < 1e-9);
        assert!((ratio(3.0) - 5.0 / 3.0).abs() < 1e-9);
        assert!((ratio(5.0) - 2.0).abs() < 1e-9);
        assert!((ratio(4.0) - 1.25).abs() < 1e-9);
        let s = steps(&[]);
        assert!((s[0].1 - 10.0).abs() < 1e-9);
        assert_eq!(s.len(), 9);
    }
}
