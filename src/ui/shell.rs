//! The shell around every panel: top bar (File menu, workspace, running jobs, language, theme,
//! zoom), left navigation, status bar, and the dialogs.

use std::path::PathBuf;

use egui::{Align, Layout, RichText};

use super::Lang;
use super::app::{FileAction, WorkbenchApp, ZOOM_MAX, ZOOM_MIN, ZOOM_STEP};
use super::task::Task;

/// Show a native file dialog on a background thread (rfd blocks while it is open).
fn native_dialog(app: &mut WorkbenchApp, action: FileAction, ctx: &egui::Context) {
    let title = match action {
        FileAction::New => app.t("file.new"),
        FileAction::Open => app.t("file.open"),
        FileAction::SaveAs => app.t("file.save_as"),
    };
    let is_open = matches!(action, FileAction::Open);
    let task = Task::spawn(ctx, move || {
        let d = rfd::FileDialog::new()
            .set_title(title)
            .add_filter("Tianwang workspace", &["tianwang", "sqlite", "db"])
            .add_filter("*", &["*"]);
        if is_open {
            d.pick_file()
        } else {
            d.set_file_name("lab.tianwang").save_file()
        }
    });
    app.dialog = Some((action, task));
}

fn file_menu(app: &mut WorkbenchApp, ui: &mut egui::Ui) {
    let ctx = ui.ctx().clone();
    ui.menu_button(app.t("menu.file"), |ui| {
        if ui.button(app.t("file.new")).clicked() {
            native_dialog(app, FileAction::New, &ctx);
            ui.close();
        }
        if ui.button(app.t("file.open")).clicked() {
            native_dialog(app, FileAction::Open, &ctx);
            ui.close();
        }
        let has_ws = app.session.is_some();
        if ui
            .add_enabled(has_ws, egui::Button::new(app.t("file.save_as")))
            .clicked()
        {
            native_dialog(app, FileAction::SaveAs, &ctx);
            ui.close();
        }
        if ui.button(app.t("file.type_path")).clicked() {
            app.path_prompt = Some((FileAction::Open, String::new()));
            ui.close();
        }
        ui.separator();
        ui.menu_button(app.t("file.recent"), |ui| {
            if app.prefs.recent.is_empty() {
                ui.label(app.t("file.recent_none"));
            }
            let mut chosen = None;
            for p in &app.prefs.recent {
                if ui.button(p.display().to_string()).clicked() {
                    chosen = Some(p.clone());
                }
            }
            if let Some(p) = chosen {
                app.open_workspace(p);
                ui.close();
            }
        });
        ui.separator();
        if ui.button(app.t("file.quit")).clicked() {
            ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
        }
    });
}

fn format_duration(d: std::time::Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Progress bar text: "42 % · 0:03 left".
pub(crate) fn progress_text(lang: super::Lang, s: &crate::engine::jobs::JobSnapshot) -> String {
    let pct = s
        .progress
        .fraction
        .map(|f| format!("{:.0}%", f * 100.0))
        .unwrap_or_default();
    match s.eta {
        Some(eta) => lang.tf("jobs.eta", &[&pct, &format_duration(eta)]),
        None => pct,
    }
}

pub(crate) fn top_bar(app: &mut WorkbenchApp, ui: &mut egui::Ui) {
    egui::Panel::top("top_bar").show(ui, |ui| {
        ui.add_space(2.0);
        ui.horizontal(|ui| {
            // The controls on the right first, so the rest fits in what they leave (clipped
            // there): nothing on the left can run under them however narrow the window or large
            // the zoom.
            ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                bar_controls(app, ui);
                ui.with_layout(Layout::left_to_right(Align::Center), |ui| {
                    let room = ui.max_rect().intersect(ui.clip_rect());
                    ui.set_clip_rect(room);
                    bar_left(app, ui);
                });
            });
        });
        ui.add_space(2.0);
    });
}

/// The left of the top bar: menus, the title, the workspace, the running jobs.
fn bar_left(app: &mut WorkbenchApp, ui: &mut egui::Ui) {
    file_menu(app, ui);
    super::lessons::menu(app, ui);
    ui.separator();
    ui.label(RichText::new(app.t("app.title")).strong());
    let name = app
        .session
        .as_ref()
        .and_then(|s| s.path.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| app.t("ws.none").to_string());
    let full = app
        .session
        .as_ref()
        .map(|s| s.path.display().to_string())
        .unwrap_or_default();
    // The workspace's name gives way (truncated, its full path on hover) when the bar is
    // narrow: at 200 % in English the controls on the right would otherwise cover it.
    ui.add(egui::Label::new(RichText::new(format!("· {name}")).monospace()).truncate())
        .on_hover_text(full);
    if app.opening.is_some() || app.saving.is_some() {
        ui.spinner();
    }

    // Running jobs: kind, progress, cancel.
    let mut cancel = None;
    for (i, h) in app.running.iter().enumerate() {
        let s = h.snapshot();
        ui.separator();
        ui.label(app.prefs.lang.job_kind(s.kind));
        ui.add(
            egui::ProgressBar::new(s.progress.fraction.unwrap_or(0.0))
                .desired_width(140.0)
                .text(progress_text(app.prefs.lang, &s))
                .animate(true),
        );
        let cancelling = matches!(s.state, crate::engine::jobs::JobState::Cancelling);
        if ui
            .add_enabled(!cancelling, egui::Button::new(app.t("jobs.cancel")))
            .clicked()
        {
            cancel = Some(i);
        }
    }
    if let Some(i) = cancel {
        app.running[i].cancel();
    }
}

/// The right of the top bar, laid out right to left: zoom, theme, language.
fn bar_controls(app: &mut WorkbenchApp, ui: &mut egui::Ui) {
    // Zoom for projectors: 100–250 %.
    if ui
        .add_enabled(app.prefs.zoom < ZOOM_MAX, egui::Button::new("+"))
        .on_hover_text(app.t("zoom.in"))
        .clicked()
    {
        app.set_zoom(app.prefs.zoom + ZOOM_STEP);
    }
    ui.label(format!("{:.0}%", app.prefs.zoom * 100.0))
        .on_hover_text(app.t("zoom.hint"));
    if ui
        .add_enabled(app.prefs.zoom > ZOOM_MIN, egui::Button::new("-"))
        .on_hover_text(app.t("zoom.out"))
        .clicked()
    {
        app.set_zoom(app.prefs.zoom - ZOOM_STEP);
    }
    ui.separator();
    let theme_label = if app.prefs.dark {
        app.t("theme.light")
    } else {
        app.t("theme.dark")
    };
    if ui.button(theme_label).clicked() {
        app.prefs.dark = !app.prefs.dark;
        app.apply_style();
    }
    ui.separator();
    // Each language is named in itself, so anyone can find their way back.
    if ui
        .selectable_label(app.prefs.lang == Lang::En, "English")
        .clicked()
    {
        app.prefs.lang = Lang::En;
    }
    if ui
        .selectable_label(app.prefs.lang == Lang::Zh, "中文")
        .clicked()
    {
        app.prefs.lang = Lang::Zh;
    }
}

/// The navigation; returns its rectangle (presenter mode dims it).
pub(crate) fn navigation(app: &mut WorkbenchApp, ui: &mut egui::Ui) -> egui::Rect {
    egui::Panel::left("navigation")
        .resizable(false)
        .default_size(150.0)
        .show(ui, |ui| {
            // Scrolls when zoomed on a short screen (200 % on a 800-pixel projector), so every
            // panel stays reachable.
            egui::ScrollArea::vertical()
                .id_salt("navigation_scroll")
                .auto_shrink([true, false])
                .show(ui, |ui| {
                    ui.add_space(8.0);
                    for panel in crate::workbench::PANELS {
                        let selected = app.prefs.panel == panel.id;
                        let text = RichText::new(app.prefs.lang.t(panel.label)).size(17.0);
                        if ui
                            .add_sized(
                                [ui.available_width(), 34.0],
                                egui::Button::selectable(selected, text),
                            )
                            .clicked()
                        {
                            app.prefs.panel = panel.id.to_string();
                        }
                    }
                });
        })
        .response
        .rect
}

pub(crate) fn status_bar(app: &mut WorkbenchApp, ui: &mut egui::Ui) {
    egui::Panel::bottom("status_bar").show(ui, |ui| {
        ui.horizontal(|ui| {
            match &app.status {
                Some(s) if s.error => {
                    ui.colored_label(ui.visuals().error_fg_color, s.text(app.prefs.lang));
                }
                Some(s) => {
                    ui.label(s.text(app.prefs.lang));
                }
                None => {
                    ui.label(app.t("status.ready"));
                }
            }
            ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                let font = match &app.system_font {
                    Some(p) => app.prefs.lang.tf(
                        "status.font_system",
                        &[&p.file_name().unwrap_or_default().to_string_lossy()],
                    ),
                    None => app.t("status.font_bundled").to_string(),
                };
                ui.label(RichText::new(font).small());
                if let Some(sum) = app.session.as_ref().and_then(|s| s.summary.value.as_ref()) {
                    ui.separator();
                    ui.label(
                        RichText::new(app.prefs.lang.tf(
                            "status.schema",
                            &[&sum.schema_version, &human_bytes(sum.file_bytes)],
                        ))
                        .small(),
                    );
                }
            });
        });
    });
}

/// A whole number with its thousands grouped: 349045 → "349,045", -1234 → "-1,234"; what
/// is not a whole number is shown as it is.
pub(crate) fn grouped(n: impl std::fmt::Display) -> String {
    let s = n.to_string();
    let (sign, digits) = s.strip_prefix('-').map_or(("", s.as_str()), |d| ("-", d));
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    out.push_str(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub(crate) fn human_bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} KB", b / 1e3)
    } else {
        format!("{b} B")
    }
}

/// A stored RFC 3339 time (`2026-11-29T14:37:05.294Z`) to the second, as a table shows it
/// (`2026-11-29 14:37:05`): the fraction made columns cut the time off.
pub(crate) fn to_second(stamp: &str) -> String {
    stamp
        .replace('T', " ")
        .trim_end_matches('Z')
        .split('.')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The first 8 hex digits of a content hash, as git shortens commits (the whole on hover).
pub(crate) fn short_hash(hash: &str) -> &str {
    hash.get(..8).unwrap_or(hash)
}

pub(crate) fn dialogs(app: &mut WorkbenchApp, ctx: &egui::Context) {
    if let Some(msg) = app.error_modal.clone() {
        let mut close = false;
        egui::Window::new(app.t("error.title"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.set_max_width(520.0);
                ui.label(RichText::new(msg).color(ui.visuals().error_fg_color));
                ui.add_space(8.0);
                if ui.button(app.t("dialog.ok")).clicked() {
                    close = true;
                }
            });
        if close {
            app.error_modal = None;
        }
    }

    // Typed path: works where no native file dialog is available (and in tests).
    if let Some((action, text)) = &mut app.path_prompt {
        let lang = app.prefs.lang;
        let mut submit = None;
        let mut cancel = false;
        egui::Window::new(lang.t("path.title"))
            .collapsible(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.horizontal(|ui| {
                    for (a, key) in [
                        (FileAction::Open, "file.open"),
                        (FileAction::New, "file.new"),
                        (FileAction::SaveAs, "file.save_as"),
                    ] {
                        let selected = std::mem::discriminant(action) == std::mem::discriminant(&a);
                        if ui.selectable_label(selected, lang.t(key)).clicked() {
                            *action = a;
                        }
                    }
                });
                ui.label(lang.t("path.hint"));
                let r = ui.add(
                    egui::TextEdit::singleline(text)
                        .desired_width(480.0)
                        .hint_text("/home/me/lab.tianwang"),
                );
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                ui.horizontal(|ui| {
                    if ui.button(lang.t("dialog.go")).clicked() || enter {
                        submit = Some(PathBuf::from(text.trim()));
                    }
                    if ui.button(lang.t("dialog.cancel")).clicked() {
                        cancel = true;
                    }
                });
            });
        if let Some(p) = submit.filter(|p| !p.as_os_str().is_empty()) {
            if let Some((action, _)) = app.path_prompt.take() {
                match action {
                    FileAction::New => app.create_workspace(p),
                    FileAction::Open => app.open_workspace(p),
                    FileAction::SaveAs => app.save_workspace_as(p),
                }
            }
        } else if cancel {
            app.path_prompt = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_to_the_second_and_short_hashes() {
        assert_eq!(to_second("2026-11-29T14:37:05.294Z"), "2026-11-29 14:37:05");
        assert_eq!(
            to_second("2026-11-29T14:37:19.587151343+00:00"),
            "2026-11-29 14:37:19"
        );
        assert_eq!(to_second("2026-11-29T14:37:05Z"), "2026-11-29 14:37:05");
        assert_eq!(short_hash("3d0fada65e877bf3fb7a058a68c30d5c"), "3d0fada6");
        assert_eq!(short_hash("ab"), "ab");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(349_045), "349,045");
        assert_eq!(grouped(10_000_000), "10,000,000");
        assert_eq!(grouped(-1234i64), "-1,234");
        assert_eq!(grouped(65064usize), "65,064");
        assert_eq!(grouped("0.5"), "0.5");
        assert_eq!(grouped("—"), "—");
    }
}
