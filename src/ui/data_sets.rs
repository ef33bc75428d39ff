//! The Overview's Data section: every data set of the manifest (`engine::data`) with its size
//! and whether it is installed in the data folder, and how to install it. The listing stats
//! each file, so it is computed on a background task when the section first shows and when
//! Refresh is pressed, never per frame.
//!
//! ```text
//! 数据集 — /home/u/.local/share/tianwang-workbench/datasets
//! thucnews_titles  THUCNews 新闻标题（10 类）   1.1 MB   已安装
//! hollins          hollins.edu 网页链接图        0.7 MB   未安装
//! ```

use std::sync::{Arc, Mutex};

use egui::{RichText, Ui};

use crate::engine::data::{DataDir, Listing};
use crate::ui::Lang;
use crate::ui::task::Task;

/// The section's state, kept in egui's memory (the Overview panel has none of its own).
#[derive(Default)]
struct State {
    task: Option<Task<Result<Listing, String>>>,
    listing: Option<Result<Listing, String>>,
}

type Shared = Arc<Mutex<State>>;

fn refresh(ctx: &egui::Context, st: &mut State, lang: Lang, data: Option<&DataDir>) {
    let data = data.cloned();
    st.task = Some(Task::spawn(ctx, move || {
        data.map(|d| d.list())
            .ok_or_else(|| lang.t("data.no_folder").to_string())
    }));
}

/// Draw the section for the app's data folder `data` (`None`: it could not be resolved).
pub(crate) fn section(ui: &mut Ui, lang: Lang, data: Option<&DataDir>) {
    let id = egui::Id::NULL.with("overview-data-sets");
    let shared: Shared = ui
        .ctx()
        .data_mut(|d| d.get_temp_mut_or_default::<Shared>(id).clone());
    let Ok(mut st) = shared.lock() else {
        return;
    };
    if st.listing.is_none() && st.task.is_none() {
        refresh(ui.ctx(), &mut st, lang, data);
    }
    if let Some(r) = Task::take_finished(&mut st.task) {
        st.listing = Some(r.and_then(|x| x));
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new(lang.t("data.title")).size(18.0).strong());
        if st.task.is_some() {
            ui.spinner();
        } else if ui.button(lang.t("data.refresh")).clicked() {
            refresh(ui.ctx(), &mut st, lang, data);
        }
    });
    ui.label(lang.t("data.intro"));
    match &st.listing {
        None => {}
        Some(Err(e)) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        Some(Ok(l)) => {
            ui.label(
                RichText::new(lang.tf("data.folder", &[&l.data_dir.display()]))
                    .monospace()
                    .weak(),
            );
            // A table where the panel is wide; a set a (wrapping) line where it is narrow
            // (200 % zoom), so the fetch command is not cut at the panel's edge.
            let wide = !super::wrap::is_narrow(ui);
            let set_ui = |ui: &mut Ui, s: &crate::engine::data::Listed| {
                ui.label(RichText::new(&s.name).monospace());
                let key = format!("data.set.{}", s.name);
                ui.label(lang.t_dyn(&key).unwrap_or(s.name.as_str()));
                ui.label(format!("{:.1} MB", s.bytes as f64 / 1e6));
                if s.installed {
                    ui.label(lang.t("data.installed"));
                } else {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        lang.tf("data.not_installed", &[&s.name]),
                    );
                }
            };
            if wide {
                egui::Grid::new("data_sets_grid")
                    .num_columns(4)
                    .striped(true)
                    .show(ui, |ui| {
                        for s in &l.sets {
                            set_ui(ui, s);
                            ui.end_row();
                        }
                    });
            } else {
                for s in &l.sets {
                    ui.horizontal_wrapped(|ui| set_ui(ui, s));
                }
            }
        }
    }
}
