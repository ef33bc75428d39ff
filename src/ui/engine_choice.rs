//! Where a big job runs, as one row a panel puts above its Run button: 本机 (native),
//! DataFusion (in-process, bounded memory pool) or Spark (`local[2]` or a master URL). A build
//! without the `bigjobs` feature shows the other engines greyed out, with the command that
//! builds them. The choice is plain data (`EngineConfig`): the job validates it.

use egui::{RichText, Ui};

use crate::engine::exec::{Engine, EngineConfig};
use crate::ui::i18n::Lang;

/// The label of an engine.
pub fn engine_label(lang: Lang, e: Engine) -> &'static str {
    match e {
        Engine::Native => lang.t("engine.native"),
        Engine::DataFusion => lang.t("engine.datafusion"),
        Engine::Spark => lang.t("engine.spark"),
    }
}

/// The engine row; `note` (e.g. which methods an engine runs) is shown beside it when an
/// engine other than native is chosen.
pub fn engine_row(ui: &mut Ui, lang: Lang, cfg: &mut EngineConfig, note: Option<&str>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(lang.t("engine.label")).strong());
        for e in Engine::ALL {
            let r = ui.add_enabled(
                e.available(),
                egui::RadioButton::new(cfg.engine == e, engine_label(lang, e)),
            );
            let r = if e.available() {
                r.on_hover_text(lang.t(match e {
                    Engine::Native => "engine.native_hint",
                    Engine::DataFusion => "engine.datafusion_hint",
                    Engine::Spark => "engine.spark_hint",
                }))
            } else {
                r.on_disabled_hover_text(lang.t("engine.unavailable"))
            };
            if r.clicked() {
                cfg.engine = e;
                if e != Engine::Spark {
                    cfg.cluster = None;
                }
            }
        }
        match cfg.engine {
            Engine::Spark => {
                let l = ui.label(lang.t("engine.cluster"));
                let mut url = cfg.cluster.clone().unwrap_or_default();
                let r = ui
                    .add(
                        egui::TextEdit::singleline(&mut url)
                            .hint_text("local[2]")
                            .desired_width(200.0),
                    )
                    .labelled_by(l.id);
                if r.changed() {
                    cfg.cluster = (!url.trim().is_empty()).then(|| url.trim().to_string());
                }
            }
            Engine::DataFusion => {
                let l = ui.label(lang.t("engine.pool"));
                ui.add(
                    egui::DragValue::new(&mut cfg.memory_mb)
                        .range(16..=65536)
                        .suffix(" MB"),
                )
                .labelled_by(l.id);
            }
            Engine::Native => {}
        }
        if cfg.engine != Engine::Native
            && let Some(n) = note
        {
            ui.label(RichText::new(n).weak());
        }
    });
    if let Err(e) = cfg.validate() {
        ui.colored_label(ui.visuals().error_fg_color, lang.error(&e));
    }
}
