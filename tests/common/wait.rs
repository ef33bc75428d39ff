//! Stepping the app until something holds, shared by `tests/common/mod.rs` and
//! `frames.rs` (which the frame benchmark includes on its own).

use std::time::{Duration, Instant};

use egui_kittest::Harness;

/// Steps (sleeping a little between) until `done` holds, for at most `secs` seconds.
pub fn wait<S>(
    h: &mut Harness<'_, S>,
    what: &str,
    secs: u64,
    done: impl Fn(&Harness<'_, S>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done(h) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Steps (pausing between) until a frame asks for no other at once — no spinner of a
/// background task, no animated progress bar, no scroll or fade in motion — for at most `secs`
/// seconds. Background work a panel shows by a spinner is then done.
#[allow(dead_code)]
pub fn settle<S>(h: &mut Harness<'_, S>, what: &str, secs: u64) {
    h.step();
    let what = format!("{what} to settle (the app kept repainting)");
    wait(h, &what, secs, |h| {
        !(h.output().viewport_output.get(&egui::ViewportId::ROOT))
            .is_some_and(|v| v.repaint_delay.is_zero())
    });
}

/// `Harness::run` that gives background work time: `run` allows four frames without a pause
/// and panics if the app still repaints, and under load a panel's background read is often
/// not done by then (its spinner keeps asking for frames). This retries, pausing between,
/// for at most `secs` seconds; the settled frame is checked as `run` checks it
/// (accessibility).
#[allow(dead_code)]
pub fn run_settled<S>(h: &mut Harness<'_, S>, what: &str, secs: u64) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while h.run_ok().is_none() {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what} to settle (the app kept repainting)"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}
