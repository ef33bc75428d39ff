//! A review sweep, not a check: every panel and each of its tabs on a workspace with work in
//! it (pages crawled, cleaned, grouped, indexed, a stored query log, a cache run), rendered in
//! Chinese and English at 100 % and 200 % into one folder, to look at as a user would
//! (Chinese renders, nothing overlaps, plots have axes). Beside the pictures, `report.txt`
//! lists what the layout helpers find in each view: labelled widgets past the window's right
//! edge (below the fold too: there the panel scrolls sideways), English phrases in a Chinese
//! view, and overlapping widgets (a hint
//! where to look: a widget clipped by a scroll area is listed too). A last pass renders 200 %
//! in a window four times as tall, to see below the fold. `gui_layout` is the check.
//!
//! ```sh
//! TW_SWEEP_DIR=/tmp/sweep cargo test --test gui_sweep -- --ignored --nocapture
//! ```

#[path = "common/frames.rs"]
mod frames;
#[path = "common/layout.rs"]
mod layout;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use tianwang::ui::WorkbenchApp;

const SIZES: frames::Sizes = frames::Sizes {
    pages: 2_000,
    pipeline_pages: 200,
    log_lines: 20_000,
};
const DRIVE: frames::Drive = frames::Drive {
    frames: 1,
    secs: 180,
    cache_sizes: 6,
};

fn out_dir() -> PathBuf {
    std::env::var_os("TW_SWEEP_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("sweep"))
}

/// Renders the view into `dir/name.png` and notes what the layout helpers find.
fn shot(h: &mut Harness<'_, WorkbenchApp>, dir: &Path, name: &str, report: &mut String) {
    h.remove_cursor();
    for _ in 0..6 {
        h.step();
    }
    h.render()
        .expect("render")
        .save(dir.join(format!("{name}.png")))
        .expect("save png");
    for o in layout::past_right_edge(h) {
        let _ = writeln!(report, "{name}: past the right edge: {o}");
    }
    if name.contains("_zh") {
        for t in layout::english_phrases(h) {
            let _ = writeln!(report, "{name}: English in the Chinese UI: {t:?}");
        }
    }
    let w = layout::window(h);
    let boxes: Vec<layout::Boxed> = layout::labelled(h)
        .into_iter()
        .filter(|b| w.contains_rect(b.rect))
        .collect();
    for (a, b) in layout::overlapping(&boxes) {
        let _ = writeln!(
            report,
            "{name}: overlap: {:?} {:?} × {:?} {:?}",
            a.label, a.rect, b.label, b.rect
        );
    }
}

#[test]
#[ignore = "renders every panel into a folder for review; run on demand"]
fn every_panel_and_tab_in_zh_and_en_at_100_and_200_percent() {
    let dir = out_dir();
    std::fs::create_dir_all(&dir).expect("sweep folder");
    let ws = frames::workspace(
        Path::new(env!("CARGO_BIN_EXE_tianwang")),
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("sweep-ws"),
        SIZES,
    );
    let mut report = String::new();
    let (mut h, _) = frames::open(&ws, SIZES.pages);
    // The third pass is 200 % in a window four times as tall (the same width): what lies
    // below the fold of each view, in one picture.
    for (zoom, prepare) in [("100", true), ("200", false), ("200tall", false)] {
        if zoom == "200" {
            layout::zoom_200(&mut h);
        }
        if zoom == "200tall" {
            layout::tall_200(&mut h);
        }
        layout::every_view(&mut h, DRIVE, prepare, |h, name| {
            if name.ends_with("_missing") {
                let _ = writeln!(report, "{name}_{zoom}: the tab is missing");
            }
            shot(h, &dir, &format!("{name}_{zoom}"), &mut report);
        });
    }
    std::fs::write(dir.join("report.txt"), &report).expect("report");
    println!(
        "wrote {} ({} findings)",
        dir.display(),
        report.lines().count()
    );
}
