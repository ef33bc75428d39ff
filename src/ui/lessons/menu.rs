//! The Lessons menu: the bundled lessons, a lesson file or a folder of them (rfd's dialogs on a
//! background thread, the files read there too), a new lesson from the runs ticked in the
//! experiment log (each run a step that re-opens it), and the students' answers as CSV. The
//! bundled lessons follow the book chapter by chapter (ch. 2 [L589]–[L735] to ch. 11
//! [L4057]–[L4351]).
//!
//! ```ignore
//! menu::menu(app, ui); // in the top bar, after the File menu
//! ```

use std::path::PathBuf;

use egui::Ui;

use super::super::task::Task;
use super::WorkbenchApp;
use crate::workbench::lessons::{self, answers};

/// What a file dialog was opened for.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Pick {
    File,
    Folder,
    /// Where to write a new lesson from the ticked runs.
    NewFromRuns,
}

fn dialog(app: &mut WorkbenchApp, pick: Pick, ctx: &egui::Context) {
    let lang = app.prefs.lang;
    let task = Task::spawn(ctx, move || {
        let d = rfd::FileDialog::new();
        match pick {
            Pick::File => d
                .set_title(lang.t("lesson.open_file"))
                .add_filter("Markdown", &["md"])
                .pick_file(),
            Pick::Folder => d.set_title(lang.t("lesson.open_folder")).pick_folder(),
            Pick::NewFromRuns => d
                .set_title(lang.t("lesson.new_from_runs"))
                .set_file_name("my-lesson.md")
                .save_file(),
        }
    });
    app.lessons.dialog = Some((pick, task));
}

/// Read `path` off the UI thread and play it.
pub(crate) fn open_file(app: &mut WorkbenchApp, path: PathBuf, ctx: &egui::Context) {
    let lang = app.prefs.lang;
    app.lessons.file_task = Some(Task::spawn(ctx, move || {
        let mtime = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        lessons::read_file(&path)
            .map(|l| (path, mtime, l))
            .map_err(|e| lang.error(&e))
    }));
}

fn read_folder(app: &mut WorkbenchApp, dir: PathBuf, ctx: &egui::Context) {
    let lang = app.prefs.lang;
    app.lessons.folder_task = Some(Task::spawn(ctx, move || {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "md"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
            .into_iter()
            .map(|p| {
                let l = lessons::read_file(&p).map_err(|e| lang.error(&e));
                (p, l)
            })
            .collect()
    }));
}

/// The runs ticked in the experiment log, as (kind, params), oldest tick first.
fn ticked_runs(app: &WorkbenchApp) -> Vec<(String, serde_json::Value)> {
    let Some(log) = app.session.as_ref().and_then(|s| s.log.value.as_ref()) else {
        return Vec::new();
    };
    app.hub
        .ticked_runs
        .iter()
        .filter_map(|id| log.iter().find(|r| r.id == *id))
        .map(|r| (r.kind.clone(), r.params.clone()))
        .collect()
}

/// Finished dialogs and reads.
pub(crate) fn poll(app: &mut WorkbenchApp, ctx: &egui::Context) {
    let lang = app.prefs.lang;
    if let Some((pick, r)) = Task::take_keyed(&mut app.lessons.dialog)
        && let Ok(Some(path)) = r
    {
        match pick {
            Pick::File => open_file(app, path, ctx),
            Pick::Folder => read_folder(app, path, ctx),
            Pick::NewFromRuns => {
                let runs = ticked_runs(app);
                let text = lessons::from_runs("my-lesson", "My lesson", 1, &runs);
                let p = path.clone();
                app.lessons.file_task = Some(Task::spawn(ctx, move || {
                    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
                    let mtime = std::fs::metadata(&p).and_then(|m| m.modified()).ok();
                    lessons::read_file(&p)
                        .map(|l| (p, mtime, l))
                        .map_err(|e| lang.error(&e))
                }));
            }
        }
    }
    if let Some(r) = Task::take_finished(&mut app.lessons.folder_task) {
        match r {
            Ok(found) => app.lessons.folder = found,
            Err(e) => app.lessons.status = Some((true, e)),
        }
    }
    if let Some(r) = Task::take_result(&mut app.lessons.file_task) {
        match r {
            Ok((path, mtime, lesson)) => app.lessons.play(lesson, Some((path, mtime))),
            Err(e) => app.set_status("status.error", vec![e.into()], true),
        }
    }
}

/// The Lessons menu in the top bar.
pub(crate) fn menu(app: &mut WorkbenchApp, ui: &mut Ui) {
    let ctx = ui.ctx().clone();
    let lang = app.prefs.lang;
    let en = lang == super::Lang::En;
    ui.menu_button(lang.t("menu.lessons"), |ui| {
        let mut chosen = None;
        for l in &app.bundled_lessons {
            let label = lang.tf("lesson.ch_title", &[&l.chapter, &l.title.get(en)]);
            if ui.button(label).clicked() {
                chosen = Some((l.clone(), None));
            }
        }
        if !app.lessons.folder.is_empty() {
            ui.separator();
            for (p, l) in &app.lessons.folder {
                match l {
                    Ok(l) => {
                        if ui.button(l.title.get(en)).clicked() {
                            chosen = Some((l.clone(), Some(p.clone())));
                        }
                    }
                    Err(e) => {
                        ui.colored_label(ui.visuals().error_fg_color, e);
                    }
                }
            }
        }
        if let Some((l, file)) = chosen {
            match file {
                Some(p) => open_file(app, p, &ctx),
                None => app.lessons.play(l, None),
            }
            ui.close();
        }
        ui.separator();
        if ui.button(lang.t("lesson.open_file")).clicked() {
            dialog(app, Pick::File, &ctx);
            ui.close();
        }
        if ui.button(lang.t("lesson.open_folder")).clicked() {
            dialog(app, Pick::Folder, &ctx);
            ui.close();
        }
        let ticked = !app.hub.ticked_runs.is_empty();
        if ui
            .add_enabled(ticked, egui::Button::new(lang.t("lesson.new_from_runs")))
            .on_disabled_hover_text(lang.t("lesson.new_from_runs_hint"))
            .clicked()
        {
            dialog(app, Pick::NewFromRuns, &ctx);
            ui.close();
        }
    });
}

/// Students' answers: load them, export as CSV.
pub(crate) fn answers_section(app: &mut WorkbenchApp, ui: &mut Ui) {
    let lang = app.prefs.lang;
    ui.collapsing(lang.t("lesson.answers"), |ui| {
        let Some(sess) = &app.session else {
            ui.label(lang.t("ws.none"));
            return;
        };
        match &app.lessons.answers_loaded {
            None => {
                if app.lessons.answers.is_none() {
                    let r = sess.reader.clone();
                    app.lessons.answers =
                        Some(Task::spawn(ui.ctx(), move || r.read(lang, answers::list)));
                }
                ui.spinner();
            }
            Some(all) => {
                ui.horizontal(|ui| {
                    ui.label(lang.tf("lesson.answers_count", &[&all.len()]));
                    let t = answers::table(all);
                    super::super::export::table_button(ui, lang, &mut app.hub.exports, || t);
                });
            }
        }
    });
}
