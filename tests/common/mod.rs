//! Helpers shared by the integration tests: for the GUI tests a kittest harness on a
//! workspace file, waiting for background work to land and saving a screenshot; for the tests
//! of the binary, [`cli`]'s (re-exported here).

#![allow(dead_code)]

mod cli;
pub mod mirror;
mod runs;
mod wait;

use std::path::Path;

#[allow(unused_imports)]
pub use cli::*;
use egui_kittest::Harness;
#[allow(unused_imports)]
pub use runs::{calibrations, workspace_after};
use tianwang::ui::{AppOptions, WorkbenchApp};
#[allow(unused_imports)]
pub use wait::{run_settled, settle};

/// The app on workspace `ws` (see [`harness_with`]), without loading the sample web.
pub fn harness(ws: &Path) -> Harness<'static, WorkbenchApp> {
    harness_with(ws, false)
}

/// The app on workspace `ws` (created empty if missing) once it is open, exporting into
/// `export_dir` when given.
pub fn opened_with(ws: &Path, export_dir: Option<&Path>) -> Harness<'static, WorkbenchApp> {
    tianwang::engine::store::Workspace::open_or_create(ws).unwrap();
    let mut h = harness_full(ws, false, export_dir);
    wait_secs(&mut h, "the workspace", 30, |h| {
        h.state().workspace_path().is_some()
    });
    h
}

/// The app on workspace `ws` with the data folder `data` given explicitly, once it is open.
pub fn opened_on_data(ws: &Path, data: &Path) -> Harness<'static, WorkbenchApp> {
    tianwang::engine::store::Workspace::open_or_create(ws).unwrap();
    let mut h = harness_data(ws, false, None, Some(data));
    wait_secs(&mut h, "the workspace", 30, |h| {
        h.state().workspace_path().is_some()
    });
    h
}

/// [`opened_with`] without an export folder.
pub fn opened(ws: &Path) -> Harness<'static, WorkbenchApp> {
    opened_with(ws, None)
}

/// How long a screenshot waits for the frame: until the app settles, or a number of frames
/// (for plots and panels that keep repainting).
#[derive(Debug, Clone, Copy)]
pub enum Settle {
    Run,
    Steps(usize),
}

/// Saves a docs screenshot `dir/name`: the pointer gone (no hover highlight), the frame
/// settled as `how` says, then rendered.
pub fn shot<S>(h: &mut Harness<'_, S>, dir: &Path, name: &str, how: Settle) {
    h.remove_cursor();
    match how {
        Settle::Run => run_settled(h, name, 30),
        Settle::Steps(n) => h.run_steps(n),
    }
    h.render().unwrap().save(dir.join(name)).unwrap();
}

/// A SogouQ log of five lines, two of them bad: line 2 has two fields, line 4 an hour of 25.
pub const BAD_SOGOU_LOG: &str = "00:00:01\tu1\t[天网]\t1 1\ta.cn/1\nbad\tline\n\
    00:00:05\tu1\t[天网]\t2 2\ta.cn/2\n25:00:00\tu2\t[北大]\t1 1\tb.cn/1\n\
    00:00:09\tu2\t[北大]\t1 1\tb.cn/1\n";

/// The app at 1280×800, light theme, bundled fonts only (pixel-stable), on workspace `ws`
/// (`sample_if_new`: load the sample web if opening creates it).
pub fn harness_with(ws: &Path, sample_if_new: bool) -> Harness<'static, WorkbenchApp> {
    harness_full(ws, sample_if_new, None)
}

/// [`harness_with`], exporting tables and plots into `export_dir` without a dialog.
pub fn harness_full(
    ws: &Path,
    sample_if_new: bool,
    export_dir: Option<&Path>,
) -> Harness<'static, WorkbenchApp> {
    harness_data(ws, sample_if_new, export_dir, None)
}

/// [`harness_full`] on the data folder `data_dir` (as `tianwang --data DIR` gives it).
pub fn harness_data(
    ws: &Path,
    sample_if_new: bool,
    export_dir: Option<&Path>,
    data_dir: Option<&Path>,
) -> Harness<'static, WorkbenchApp> {
    let ws = ws.to_path_buf();
    let export_dir = export_dir.map(Path::to_path_buf);
    let data_dir = data_dir.map(Path::to_path_buf);
    Harness::builder()
        .with_size([1280.0, 800.0])
        .with_theme(egui::Theme::Light)
        .build_eframe(move |cc| {
            WorkbenchApp::new(
                cc,
                AppOptions {
                    workspace: Some(ws),
                    system_fonts: false,
                    sample_if_new,
                    export_dir: export_dir.clone(),
                    data_dir: data_dir.clone(),
                },
            )
        })
}

/// Step frames (sleeping a little between) until `done` holds, for at most `secs` seconds.
pub fn wait_secs(
    h: &mut Harness<'_, WorkbenchApp>,
    what: &str,
    secs: u64,
    done: impl Fn(&Harness<'_, WorkbenchApp>) -> bool,
) {
    wait::wait(h, what, secs, done);
    h.step();
}

/// The app for the docs' screenshots: 1400×1000, light theme, the system CJK font first, on
/// workspace `ws` (created empty if missing), with the workspace open.
pub fn screenshot_harness(ws: &Path) -> Harness<'static, WorkbenchApp> {
    tianwang::engine::store::Workspace::open_or_create(ws).unwrap();
    let ws = ws.to_path_buf();
    let mut h = Harness::builder()
        .with_size([1400.0, 1000.0])
        .with_theme(egui::Theme::Light)
        .build_eframe(move |cc| {
            WorkbenchApp::new(
                cc,
                AppOptions {
                    workspace: Some(ws.clone()),
                    system_fonts: true,
                    sample_if_new: false,
                    export_dir: None,
                    data_dir: None,
                },
            )
        });
    wait_secs(&mut h, "the workspace", 20, |h| {
        h.state().workspace_path().is_some()
    });
    h
}
