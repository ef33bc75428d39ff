//! Stepping the app until something holds, shared by `tests/common/mod.rs` and
//! `frames.rs` (which the frame benchmark includes on its own).

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use tianwang::ui::WorkbenchApp;

/// Steps (sleeping a little between) until `done` holds, for at most `secs` seconds.
pub fn wait(
    h: &mut Harness<'_, WorkbenchApp>,
    what: &str,
    secs: u64,
    done: impl Fn(&Harness<'_, WorkbenchApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !done(h) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}
