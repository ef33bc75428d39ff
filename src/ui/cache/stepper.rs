//! The teaching stepper: a small cache drawn as slots, one request at a time, the same short
//! trace under two policies side by side; hits green, misses amber, evicted objects red. The
//! trace is parsed when it changes and both policies replayed when the trace, the size, a
//! policy or the step changes — never per frame.

use egui::{Color32, RichText, Ui};

use crate::engine::cache::policy::{Policy, PolicyKind, PolicyParams, build};
use crate::ui::Lang;
use crate::ui::memo::Memo;

/// A trace's distinct keys (in order of first use) and the requests as indices into them.
type Parsed = (Vec<String>, Vec<u32>);

/// What both replays depend on: the trace, the size, the two policies, the step.
type ReplayKey = (String, u64, PolicyKind, PolicyKind, usize);

pub(crate) struct Stepper {
    pub trace: String,
    pub capacity: u64,
    pub left: PolicyKind,
    pub right: PolicyKind,
    pub step: usize,
    parsed: Memo<String, Parsed>,
    replays: Memo<ReplayKey, [Replay; 2]>,
}

impl Default for Stepper {
    fn default() -> Self {
        // The classic reference string: FIFO with 3 frames misses 9, with 4 frames 10.
        Stepper {
            trace: "1 2 3 4 1 2 5 1 2 3 4 5".into(),
            capacity: 3,
            left: PolicyKind::Fifo,
            right: PolicyKind::Lru,
            step: 0,
            parsed: Memo::default(),
            replays: Memo::default(),
        }
    }
}

/// One policy replayed to a step: what it holds, what the last request did.
#[derive(Debug, Clone, PartialEq)]
struct Replay {
    resident: Vec<(&'static str, Vec<u32>)>,
    last_hit: Option<bool>,
    evicted: Vec<u32>,
    hits: usize,
}

fn replay(kind: PolicyKind, cap: u64, ids: &[u32], upto: usize) -> Replay {
    let next = crate::engine::cache::trace::next_uses(ids);
    let mut p: Box<dyn Policy> = build(kind, cap, &PolicyParams::default());
    let (mut hits, mut last_hit, mut evicted) = (0, None, Vec::new());
    for i in 0..upto.min(ids.len()) {
        let before: Vec<u32> = resident_ids(p.as_ref());
        let hit = p.access(ids[i], 1, next[i]);
        hits += hit as usize;
        last_hit = Some(hit);
        let after = resident_ids(p.as_ref());
        evicted = before.into_iter().filter(|x| !after.contains(x)).collect();
    }
    Replay {
        resident: p.resident(),
        last_hit,
        evicted,
        hits,
    }
}

fn resident_ids(p: &dyn Policy) -> Vec<u32> {
    p.resident()
        .into_iter()
        .filter(|(name, _)| !name.contains("ghost"))
        .flat_map(|(_, ids)| ids)
        .collect()
}

/// The trace's requests (split at spaces and commas) as key indices.
fn parse(trace: &str) -> Parsed {
    let mut keys: Vec<String> = Vec::new();
    let ids: Vec<u32> = trace
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| match keys.iter().position(|k| k == t) {
            Some(i) => i as u32,
            None => {
                keys.push(t.to_string());
                (keys.len() - 1) as u32
            }
        })
        .collect();
    (keys, ids)
}

pub(crate) fn stepper_ui(lang: Lang, ui: &mut Ui, s: &mut Stepper) {
    ui.label(RichText::new(lang.t("cache.stepper")).size(17.0).strong());
    ui.label(RichText::new(lang.t("cache.stepper_intro")).weak());
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(lang.t("cache.stepper_trace"));
        if ui
            .add(egui::TextEdit::singleline(&mut s.trace).desired_width(320.0))
            .labelled_by(l.id)
            .changed()
        {
            s.step = 0;
        }
        let l = ui.label(lang.t("cache.stepper_slots"));
        if ui
            .add(egui::DragValue::new(&mut s.capacity).range(1..=12))
            .labelled_by(l.id)
            .changed()
        {
            s.step = 0;
        }
    });
    let (keys, ids) = s.parsed.get(s.trace.clone(), |t| parse(t));
    ui.horizontal_wrapped(|ui| {
        for (side, id, key) in [
            (&mut s.left, "step_left", "cache.stepper_left"),
            (&mut s.right, "step_right", "cache.stepper_right"),
        ] {
            let l = ui.label(lang.t(key));
            egui::ComboBox::from_id_salt(id)
                .selected_text(side.name())
                .show_ui(ui, |ui| {
                    for k in PolicyKind::ALL {
                        ui.selectable_value(side, k, k.name());
                    }
                })
                .response
                .labelled_by(l.id);
        }
        if ui.button(lang.t("cache.stepper_reset")).clicked() {
            s.step = 0;
        }
        if ui.button(lang.t("cache.stepper_back")).clicked() {
            s.step = s.step.saturating_sub(1);
        }
        if ui.button(lang.t("cache.stepper_next")).clicked() && s.step < ids.len() {
            s.step += 1;
        }
        if ui.button(lang.t("cache.stepper_end")).clicked() {
            s.step = ids.len();
        }
    });
    // The trace with the current request marked.
    ui.horizontal_wrapped(|ui| {
        for (i, &id) in ids.iter().enumerate() {
            let text = RichText::new(&keys[id as usize]).monospace().size(16.0);
            let text = if i + 1 == s.step {
                text.strong()
                    .background_color(Color32::from_rgb(255, 230, 140))
            } else if i < s.step {
                text.weak()
            } else {
                text
            };
            ui.label(text);
        }
    });
    let key = (s.trace.clone(), s.capacity, s.left, s.right, s.step);
    let replays = s.replays.get(key, |&(_, cap, left, right, step)| {
        [left, right].map(|kind| replay(kind, cap, ids, step))
    });
    ui.columns(2, |cols| {
        for ((col, kind), r) in cols.iter_mut().zip([s.left, s.right]).zip(replays) {
            col.label(
                RichText::new(format!(
                    "{}  {}",
                    kind.name(),
                    lang.tf("cache.stepper_score", &[&r.hits, &s.step])
                ))
                .strong(),
            );
            let current = s.step.checked_sub(1).and_then(|i| ids.get(i)).copied();
            match r.last_hit {
                Some(true) => {
                    col.colored_label(Color32::from_rgb(40, 150, 60), lang.t("cache.hit"));
                }
                Some(false) => {
                    col.colored_label(Color32::from_rgb(200, 130, 0), lang.t("cache.miss"));
                }
                None => {}
            }
            for (name, members) in &r.resident {
                col.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{name}:")).weak());
                    for &m in members {
                        let fill = if Some(m) == current && r.last_hit == Some(true) {
                            Color32::from_rgb(170, 230, 170)
                        } else if Some(m) == current {
                            Color32::from_rgb(255, 220, 150)
                        } else {
                            Color32::from_gray(225)
                        };
                        let key = keys.get(m as usize).map(String::as_str).unwrap_or("?");
                        ui.label(
                            RichText::new(format!(" {key} "))
                                .monospace()
                                .size(18.0)
                                .background_color(fill)
                                .color(Color32::BLACK),
                        );
                    }
                });
            }
            if !r.evicted.is_empty() {
                let names: Vec<&str> = r
                    .evicted
                    .iter()
                    .filter_map(|&m| keys.get(m as usize).map(String::as_str))
                    .collect();
                col.colored_label(
                    Color32::from_rgb(200, 40, 40),
                    lang.tf("cache.evicted", &[&names.join(" ")]),
                );
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::*;

    fn harness() -> Harness<'static, Stepper> {
        Harness::builder()
            .with_size([900.0, 600.0])
            .with_context_setup(crate::ui::fonts::install_bundled)
            .build_ui_state(
                |ui, s: &mut Stepper| stepper_ui(Lang::En, ui, s),
                Stepper::default(),
            )
    }

    fn builds(h: &Harness<'static, Stepper>) -> (u64, u64) {
        (h.state().parsed.builds(), h.state().replays.builds())
    }

    #[test]
    fn the_trace_is_parsed_and_replayed_once_per_change_not_per_frame() {
        let mut h = harness();
        h.run_steps(6);
        assert_eq!(builds(&h), (1, 1), "six frames: one parse, one replay");
        h.get_by_label("To the end").click();
        h.run_steps(6);
        assert_eq!(
            builds(&h),
            (1, 2),
            "a new step replays, the trace is not parsed again"
        );
        // Belady's anomaly at the end of the default trace: FIFO 3 hits, LRU 2, as replayed
        // directly.
        let ids = [0u32, 1, 2, 3, 0, 1, 4, 0, 1, 2, 3, 4];
        let direct = [
            replay(PolicyKind::Fifo, 3, &ids, 12),
            replay(PolicyKind::Lru, 3, &ids, 12),
        ];
        assert_eq!(h.state().replays.last(), Some(&direct));
        h.get_by_label("fifo  3 hits of 12");
        h.get_by_label("lru  2 hits of 12");
        // Another trace: parsed and replayed once more (the step goes back to 0).
        h.state_mut().trace = "a b a".into();
        h.state_mut().step = 3;
        h.run_steps(6);
        assert_eq!(builds(&h), (2, 3));
        h.get_by_label("fifo  1 hits of 3");
    }

    #[test]
    fn replay_counts_beladys_anomaly() {
        let ids = [1u32, 2, 3, 4, 1, 2, 5, 1, 2, 3, 4, 5];
        assert_eq!(replay(PolicyKind::Fifo, 3, &ids, 12).hits, 3);
        assert_eq!(replay(PolicyKind::Fifo, 4, &ids, 12).hits, 2);
        let r = replay(PolicyKind::Lru, 3, &ids, 4);
        assert_eq!((r.last_hit, r.evicted.clone()), (Some(false), vec![1]));
    }
}
