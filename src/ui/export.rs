//! Export buttons: every table and plot of every panel can leave the app — a table as CSV
//! (UTF-8 with BOM), a plot as PNG at 1×/2×/3× or as SVG — through one pair of functions.
//! The panel hands over plain data ([`Table`], [`Plot`]); choosing the file (rfd's dialog, on
//! a background thread) and writing it (`engine::export`) never block the UI thread. With an
//! export folder set ([`Exports::folder`], e.g. for a class that exports many plots, and in
//! tests), files go straight there under a generated name.

use std::path::{Path, PathBuf};

use egui::Ui;

use super::Lang;
use super::task::Task;
use crate::engine::export::{self, Plot, Table};

/// What is being exported, and how.
enum Item {
    Table(Table),
    Plot { plot: Plot, scale: f32, svg: bool },
}

/// An export being written: `Ok(None)` when the save dialog was cancelled.
type Writing = Task<Result<Option<PathBuf>, String>>;

/// Exports in flight and where they go; kept in the panels' shared `Hub`.
#[derive(Default)]
pub(crate) struct Exports {
    /// Write here without asking (file name from the title and the time).
    pub folder: Option<PathBuf>,
    /// By file name.
    pending: Vec<(String, Writing)>,
}

/// A file name from a title: letters, digits and CJK kept, the rest as `_`.
fn file_stem(title: &str) -> String {
    let s: String = title
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '_' })
        .collect();
    let s = s.trim_matches('_');
    if s.is_empty() {
        "export".into()
    } else {
        s.chars().take(60).collect()
    }
}

fn write(lang: Lang, item: &Item, path: &Path) -> Result<(), String> {
    match item {
        Item::Table(t) => export::save_table(t, path),
        Item::Plot { plot, scale, .. } => export::save_plot(plot, path, 900, 560, *scale),
    }
    .map_err(|e| lang.error(&e))
}

impl Exports {
    fn start(&mut self, lang: Lang, ctx: &egui::Context, item: Item) {
        let (title, ext) = match &item {
            Item::Table(t) => (t.title.clone(), "csv"),
            Item::Plot { plot, svg, .. } => (plot.title.clone(), if *svg { "svg" } else { "png" }),
        };
        let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S%.3f");
        let name = format!("{}-{stamp}.{ext}", file_stem(&title));
        let folder = self.folder.clone();
        let task = Task::spawn(ctx, {
            let name = name.clone();
            move || {
                let path = match folder {
                    Some(dir) => dir.join(&name),
                    None => {
                        let Some(p) = rfd::FileDialog::new()
                            .set_file_name(&name)
                            .add_filter(ext, &[ext])
                            .save_file()
                        else {
                            return Ok(None);
                        };
                        p
                    }
                };
                write(lang, &item, &path)?;
                Ok(Some(path))
            }
        });
        self.pending.push((name, task));
    }

    /// Finished exports: `Ok(path)` written, `Err(message)`; cancelled dialogs are dropped.
    pub fn poll(&mut self) -> Vec<Result<PathBuf, String>> {
        Task::drain_keyed(&mut self.pending)
            .into_iter()
            .filter_map(|(_, r)| r.and_then(|x| x).transpose())
            .collect()
    }
}

/// A small "CSV" button that exports the table `make` builds (built only when clicked).
pub(crate) fn table_button(
    ui: &mut Ui,
    lang: Lang,
    ex: &mut Exports,
    make: impl FnOnce() -> Table,
) {
    if ui
        .small_button(lang.t("export.csv"))
        .on_hover_text(lang.t("export.csv_hint"))
        .clicked()
    {
        ex.start(lang, ui.ctx(), Item::Table(make()));
    }
}

/// "PNG ▾" (1×, 2×, 3×) and "SVG" buttons that export the plot `make` builds.
pub(crate) fn plot_buttons(ui: &mut Ui, lang: Lang, ex: &mut Exports, make: impl Fn() -> Plot) {
    ui.menu_button(lang.t("export.png"), |ui| {
        for scale in [1.0f32, 2.0, 3.0] {
            if ui
                .button(lang.tf("export.png_scale", &[&format!("{scale:.0}")]))
                .clicked()
            {
                ex.start(
                    lang,
                    ui.ctx(),
                    Item::Plot {
                        plot: make(),
                        scale,
                        svg: false,
                    },
                );
                ui.close();
            }
        }
    });
    if ui
        .small_button(lang.t("export.svg"))
        .on_hover_text(lang.t("export.svg_hint"))
        .clicked()
    {
        ex.start(
            lang,
            ui.ctx(),
            Item::Plot {
                plot: make(),
                scale: 1.0,
                svg: true,
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_keep_chinese_and_drop_punctuation() {
        assert_eq!(file_stem("命中率 / hit ratio"), "命中率___hit_ratio");
        assert_eq!(file_stem("::"), "export");
    }
}
