//! The Segmentation tab [L1478–L1596]: one text cut by every method — jieba with and without its
//! HMM, jieba's search mode, forward and reverse maximum matching and FMM with the book's
//! backtracking — with the tokens that differ from jieba's highlighted and the throughput of
//! each measured in the background; and an FMM stepper that walks the window as it shrinks one
//! character at a time until it is a dictionary word or a single character.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::text::LayoutJob;
use egui::{Color32, RichText, TextFormat, TextStyle, Ui};
use egui_extras::{Column, TableBuilder};

use crate::engine::docview::DocView;
use crate::engine::export::Table;
use crate::engine::text::segment::compare::compare_methods;
use crate::engine::text::segment::{FmmStep, Method, Segmenter};
use crate::ui::Lang;
use crate::ui::export::{Exports, table_button};
use crate::ui::task::Task;

/// The book's examples [L1482, L1596, L692].
const EXAMPLES: [&str; 3] = ["我的笔记本", "学历史知识", "网络与分布式系统实验室"];
/// Longer texts are cut to this many characters.
const MAX_TEXT: usize = 20_000;
/// Tokens drawn per method.
const SHOWN_TOKENS: usize = 160;
/// The stepper walks the first sentence, at most this many characters of it.
const STEPPER_CHARS: usize = 40;
/// Time between steps when playing.
const PLAY_EVERY: Duration = Duration::from_millis(700);

#[derive(Debug, Clone, PartialEq)]
struct Inputs {
    text: String,
    max_len: usize,
}

struct Row {
    method: Method,
    /// Words (punctuation and whitespace dropped) and whether each differs from jieba's.
    tokens: Vec<(String, bool)>,
    count: usize,
    differing: usize,
    chars_per_ms: f64,
    mb_per_s: f64,
}

struct Cut {
    rows: Vec<Row>,
    chars: usize,
    sentence: String,
    /// FMM's and RMM's windows on the sentence.
    trace: Vec<FmmStep>,
    rtrace: Vec<FmmStep>,
    dict_len: usize,
}

pub(crate) struct SegState {
    text: String,
    max_len: usize,
    running: Option<(Inputs, Task<Cut>)>,
    shown: Option<(Inputs, Arc<Cut>)>,
    step: usize,
    /// Step RMM instead of FMM.
    reverse: bool,
    playing: bool,
    next_tick: Option<Instant>,
}

impl Default for SegState {
    fn default() -> Self {
        SegState {
            text: EXAMPLES[1].to_string(),
            max_len: 4,
            running: None,
            shown: None,
            step: 0,
            reverse: false,
            playing: false,
            next_tick: None,
        }
    }
}

/// Cut the text by every method and trace FMM on its first sentence (in a task).
fn cut(inp: &Inputs) -> Cut {
    let seg = Segmenter::shared().clone().with_max_len(inp.max_len);
    let text: String = inp.text.chars().take(MAX_TEXT).collect();
    let c = compare_methods(&seg, &text);
    let chars = c.chars;
    let rows = c
        .runs
        .into_iter()
        .map(|r| Row {
            method: r.method,
            count: r.words.len(),
            differing: r.differing,
            tokens: r
                .words
                .into_iter()
                .zip(r.differs)
                .take(SHOWN_TOKENS)
                .map(|((_, w), d)| (w, d))
                .collect(),
            chars_per_ms: r.chars_per_ms,
            mb_per_s: r.mb_per_s,
        })
        .collect();
    let sentence: String = text
        .split(['。', '！', '？', '；', '!', '?', ';', '\n'])
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or("")
        .chars()
        .take(STEPPER_CHARS)
        .collect();
    Cut {
        rows,
        chars,
        trace: seg.fmm_trace(&sentence),
        rtrace: seg.rmm_trace(&sentence),
        sentence,
        dict_len: seg.dict_len(),
    }
}

impl SegState {
    fn inputs(&self) -> Inputs {
        Inputs {
            text: self.text.clone(),
            max_len: self.max_len,
        }
    }

    pub(super) fn poll(&mut self, ctx: &egui::Context) {
        let current = self.inputs();
        if let Some((inp, r)) = Task::take_keyed(&mut self.running)
            && let Ok(c) = r
            && inp == current
        {
            let same_walk = self.shown.as_ref().is_some_and(|(_, old)| {
                old.sentence == c.sentence && old.trace.len() == c.trace.len()
            });
            if !same_walk {
                self.step = 0;
                self.playing = false;
            }
            self.shown = Some((inp, Arc::new(c)));
        }
        if self.running.is_none() && self.shown.as_ref().map(|s| &s.0) != Some(&current) {
            let inp = current.clone();
            self.running = Some((current, Task::spawn(ctx, move || cut(&inp))));
        }
        // The stepper's play button.
        if self.playing {
            let n = self
                .shown
                .as_ref()
                .map_or(0, |s| s.1.trace.len().max(s.1.rtrace.len()));
            if self.step >= n {
                self.playing = false;
                self.next_tick = None;
            } else {
                let now = Instant::now();
                match self.next_tick {
                    Some(t) if now >= t => {
                        self.step += 1;
                        self.next_tick = Some(now + PLAY_EVERY);
                    }
                    None => self.next_tick = Some(now + PLAY_EVERY),
                    _ => {}
                }
                let wait = self
                    .next_tick
                    .map_or(PLAY_EVERY, |t| t.saturating_duration_since(now));
                ctx.request_repaint_after(wait);
            }
        }
    }
}

fn highlight(ui: &Ui) -> Color32 {
    if ui.visuals().dark_mode {
        Color32::from_rgb(0x80, 0x5a, 0x10)
    } else {
        Color32::from_rgb(0xff, 0xd8, 0x70)
    }
}

/// "学历 / 史 / 知识" with the differing tokens on a highlight.
fn tokens_job(ui: &Ui, row: &Row, extra: usize, width: f32) -> LayoutJob {
    let font = egui::FontId::proportional(18.0);
    let text = ui.visuals().text_color();
    let weak = ui.visuals().weak_text_color();
    let hl = highlight(ui);
    let mut job = LayoutJob::default();
    for (i, (w, differs)) in row.tokens.iter().enumerate() {
        if i > 0 {
            job.append(
                " / ",
                0.0,
                TextFormat {
                    font_id: font.clone(),
                    color: weak,
                    ..Default::default()
                },
            );
        }
        job.append(
            w,
            0.0,
            TextFormat {
                font_id: font.clone(),
                color: text,
                background: if *differs { hl } else { Color32::TRANSPARENT },
                ..Default::default()
            },
        );
    }
    if extra > 0 {
        job.append(
            &format!("  (+{extra})"),
            0.0,
            TextFormat {
                font_id: font.clone(),
                color: weak,
                ..Default::default()
            },
        );
    }
    job.wrap.max_width = width;
    job
}

pub(super) fn show(
    lang: Lang,
    ui: &mut Ui,
    s: &mut SegState,
    page: Option<Arc<DocView>>,
    exports: &mut Exports,
) {
    ui.label(RichText::new(lang.t("docview.seg_intro")).weak());
    ui.horizontal_wrapped(|ui| {
        ui.label(lang.t("docview.seg_examples"));
        for e in EXAMPLES {
            if ui.button(RichText::new(e).size(17.0)).clicked() {
                s.text = e.to_string();
            }
        }
        let body = page.as_ref().map(|d| d.body.as_str()).unwrap_or("");
        if ui
            .add_enabled(
                !body.is_empty(),
                egui::Button::new(lang.t("docview.seg_use_body")),
            )
            .on_disabled_hover_text(lang.t("docview.seg_no_body"))
            .clicked()
        {
            s.text = body.chars().take(MAX_TEXT).collect();
        }
    });
    let label = ui.label(lang.t("docview.seg_text"));
    egui::ScrollArea::vertical()
        .id_salt("dv_seg_text")
        .max_height(120.0)
        .show(ui, |ui| {
            ui.add(
                egui::TextEdit::multiline(&mut s.text)
                    .desired_rows(1)
                    .desired_width(f32::INFINITY)
                    .font(egui::FontId::proportional(18.0)),
            )
            .labelled_by(label.id);
        });
    ui.horizontal_wrapped(|ui| {
        ui.add(egui::Slider::new(&mut s.max_len, 1..=8).text(lang.t("docview.seg_maxlen")))
            .on_hover_text(lang.t("docview.seg_maxlen_tip"));
        if s.running.is_some() {
            ui.spinner();
        }
        if let Some((_, c)) = &s.shown {
            ui.label(
                RichText::new(lang.tf(
                    "docview.seg_stats",
                    &[&c.chars, &crate::ui::shell::grouped(c.dict_len)],
                ))
                .weak(),
            );
        }
        ui.label(
            RichText::new(lang.t("docview.seg_book_rates"))
                .weak()
                .small(),
        );
    });
    let Some((_, c)) = s.shown.clone() else {
        return;
    };
    table_button(ui, lang, exports, || {
        Table::new(
            lang.t("docview.tab_segment"),
            [
                "method",
                "words",
                "differ_from_jieba",
                "chars_per_ms",
                "mb_per_s",
                "first_words",
            ],
        )
        .with_rows(c.rows.iter().map(|r| {
            [
                r.method.name().to_string(),
                r.count.to_string(),
                r.differing.to_string(),
                r.chars_per_ms.to_string(),
                r.mb_per_s.to_string(),
                r.tokens
                    .iter()
                    .map(|t| t.0.as_str())
                    .collect::<Vec<_>>()
                    .join("/"),
            ]
        }))
    });
    ui.scope(|ui| results_table(lang, ui, &c));
    ui.add_space(10.0);
    stepper(lang, ui, s, &c);
}

/// The methods' results: method, word count, speed and the words found in four columns;
/// where the panel is narrow (200 % zoom) the first three stack in one cell, so the words
/// keep a column wide enough to read.
fn results_table(lang: Lang, ui: &mut Ui, c: &Cut) {
    let row_h = ui.text_style_height(&TextStyle::Body) + 8.0;
    let narrow = crate::ui::wrap::is_narrow(ui);
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
    let heads: &[&str] = if narrow {
        &["docview.seg_method", "docview.seg_tokens"]
    } else {
        &[
            "docview.seg_method",
            "docview.seg_count",
            "docview.seg_speed",
            "docview.seg_tokens",
        ]
    };
    let mut table = TableBuilder::new(ui)
        .id_salt(("dv_seg_table", narrow))
        .striped(true)
        .vscroll(false)
        .column(Column::auto().at_least(140.0));
    if !narrow {
        table = table
            .column(Column::auto().at_least(70.0))
            .column(Column::auto().at_least(120.0));
    }
    table
        .column(Column::remainder().at_least(if narrow { 160.0 } else { 200.0 }))
        .header(row_h, |mut h| {
            for k in heads {
                h.col(|ui| {
                    ui.label(RichText::new(lang.t(k)).strong());
                });
            }
        })
        .body(|mut body| {
            let last = heads.len() - 1;
            let width = body.widths().get(last).copied().unwrap_or(300.0) - 8.0;
            for r in &c.rows {
                let job = tokens_job(
                    body.ui_mut(),
                    r,
                    r.count.saturating_sub(r.tokens.len()),
                    width.max(50.0),
                );
                let galley = body.ui_mut().painter().layout_job(job);
                let stacked = if narrow { 3.0 * row_h - 16.0 } else { row_h };
                let h = (galley.size().y + 8.0).max(stacked);
                body.row(h, |mut row| {
                    let count = if r.method == Method::Jieba {
                        r.count.to_string()
                    } else {
                        lang.tf("docview.seg_count_diff", &[&r.count, &r.differing])
                    };
                    let rate = lang.tf(
                        "docview.seg_rate",
                        &[
                            &crate::ui::shell::grouped(r.chars_per_ms.round() as u64),
                            &format!("{:.1}", r.mb_per_s),
                        ],
                    );
                    let method = |ui: &mut Ui| {
                        ui.label(RichText::new(super::method_label(lang, r.method)).strong())
                            .on_hover_text(r.method.name());
                    };
                    if narrow {
                        row.col(|ui| {
                            ui.vertical(|ui| {
                                method(ui);
                                ui.label(count);
                                ui.label(RichText::new(rate).weak());
                            });
                        });
                    } else {
                        row.col(method);
                        row.col(|ui| {
                            ui.label(count);
                        });
                        row.col(|ui| {
                            ui.label(rate);
                        });
                    }
                    row.col(|ui| {
                        ui.label(galley);
                    });
                });
            }
        });
}

fn stepper(lang: Lang, ui: &mut Ui, s: &mut SegState, c: &Cut) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(lang.t("docview.stepper")).size(18.0).strong());
        for (rev, label) in [
            (false, lang.t("docview.step_fmm")),
            (true, lang.t("docview.step_rmm")),
        ] {
            if ui.selectable_label(s.reverse == rev, label).clicked() && s.reverse != rev {
                s.reverse = rev;
                s.step = 0;
                s.playing = false;
            }
        }
    });
    ui.label(
        RichText::new(lang.tf(
            "docview.stepper_note",
            &[&s.max_len, &crate::ui::shell::grouped(c.dict_len)],
        ))
        .weak(),
    );
    let trace = if s.reverse { &c.rtrace } else { &c.trace };
    let n = trace.len();
    s.step = s.step.min(n);
    step_buttons(lang, ui, s, n);
    if c.sentence.is_empty() {
        return;
    }
    let current = s.step.checked_sub(1).and_then(|i| trace.get(i));
    let job = sentence_job(ui, s, c, current);
    // The sentence and what the step did on the left, the last steps on the right; one
    // above the other where the panel is narrow (200 % zoom).
    let step_ui = |ui: &mut Ui| {
        egui::Frame::group(ui.style())
            .inner_margin(10.0)
            .show(ui, |ui| {
                ui.add(egui::Label::new(job).wrap());
            });
        match current {
            Some(st) => {
                let args: [&dyn std::fmt::Display; 2] = [&st.pos, &st.candidate];
                let what = if st.in_dict && st.accepted {
                    lang.tf("docview.step_in_dict", &args)
                } else if st.accepted {
                    lang.tf("docview.step_single", &args)
                } else if s.reverse {
                    lang.tf("docview.step_shrink_left", &args)
                } else {
                    lang.tf("docview.step_shrink", &args)
                };
                ui.label(RichText::new(what).size(17.0));
            }
            None => {
                ui.label(RichText::new(lang.t("docview.step_start")).weak());
            }
        }
        // The words emitted so far, in reading order (RMM emits right to left).
        let mut done_steps: Vec<&FmmStep> = trace[..s.step].iter().filter(|t| t.accepted).collect();
        done_steps.sort_by_key(|t| t.pos);
        let words: Vec<&str> = done_steps.iter().map(|t| t.candidate.as_str()).collect();
        ui.label(RichText::new(lang.tf("docview.step_words", &[&words.join(" / ")])).size(17.0));
    };
    if crate::ui::wrap::is_narrow(ui) {
        step_ui(ui);
        ui.add_space(8.0);
        step_history(lang, ui, trace, s.step);
        return;
    }
    ui.horizontal_top(|ui| {
        ui.vertical(step_ui);
        ui.add_space(24.0);
        ui.vertical(|ui| {
            step_history(lang, ui, trace, s.step);
        });
    });
}

/// Reset, back, next, play/pause and the step counter.
fn step_buttons(lang: Lang, ui: &mut Ui, s: &mut SegState, n: usize) {
    ui.horizontal_wrapped(|ui| {
        if ui.button(lang.t("docview.step_reset")).clicked() {
            s.step = 0;
            s.playing = false;
        }
        if ui
            .add_enabled(s.step > 0, egui::Button::new(lang.t("docview.step_back")))
            .clicked()
        {
            s.step -= 1;
            s.playing = false;
        }
        if ui
            .add_enabled(s.step < n, egui::Button::new(lang.t("docview.step_next")))
            .clicked()
        {
            s.step += 1;
            s.playing = false;
        }
        let play = if s.playing {
            lang.t("docview.step_pause")
        } else {
            lang.t("docview.step_play")
        };
        if ui.add_enabled(n > 0, egui::Button::new(play)).clicked() {
            s.playing = !s.playing;
            if s.playing && s.step >= n {
                s.step = 0;
            }
            s.next_tick = None;
        }
        ui.label(RichText::new(lang.tf("docview.step_of", &[&s.step, &n])).strong());
    });
}

/// The sentence in large type: the part already emitted dimmed, the current window on a
/// colour (green a dictionary word, blue a single character kept, orange a shrink).
fn sentence_job(ui: &Ui, s: &SegState, c: &Cut, current: Option<&FmmStep>) -> LayoutJob {
    let chars: Vec<char> = c.sentence.chars().collect();
    let (done, window) = match current {
        Some(st) => (st.pos, st.pos + st.candidate.chars().count()),
        None => (0, 0),
    };
    let window_colour = match current {
        Some(st) if st.in_dict => Color32::from_rgb(0x9a, 0xe0, 0xa8),
        Some(st) if st.accepted => Color32::from_rgb(0xa8, 0xc8, 0xf0),
        _ => Color32::from_rgb(0xf6, 0xb0, 0x90),
    };
    let font = egui::FontId::proportional(30.0);
    let mut job = LayoutJob::default();
    for (i, ch) in chars.iter().enumerate() {
        let in_window = i >= done && i < window;
        // FMM has emitted what lies left of the window, RMM what lies right of it.
        let emitted = if s.reverse {
            current.is_some() && i >= window
        } else {
            i < done
        };
        job.append(
            &ch.to_string(),
            0.0,
            TextFormat {
                font_id: font.clone(),
                color: if in_window {
                    Color32::BLACK
                } else if emitted {
                    ui.visuals().weak_text_color()
                } else {
                    ui.visuals().text_color()
                },
                background: if in_window {
                    window_colour
                } else {
                    Color32::TRANSPARENT
                },
                ..Default::default()
            },
        );
    }
    job
}

/// The last eight steps, newest at the bottom.
fn step_history(lang: Lang, ui: &mut Ui, trace: &[FmmStep], step: usize) {
    if step > 0 {
        let from = step.saturating_sub(8);
        egui::Grid::new("dv_step_history")
            .striped(true)
            .num_columns(4)
            .show(ui, |ui| {
                for k in [
                    "docview.step_col_no",
                    "docview.step_col_pos",
                    "docview.step_col_window",
                    "docview.step_col_result",
                ] {
                    ui.label(RichText::new(lang.t(k)).strong());
                }
                ui.end_row();
                for (i, st) in trace[from..step].iter().enumerate() {
                    let current = from + i + 1 == step;
                    let t = |x: String| {
                        let r = RichText::new(x);
                        if current { r.strong() } else { r }
                    };
                    ui.label(t((from + i + 1).to_string()));
                    ui.label(t(st.pos.to_string()));
                    ui.label(t(st.candidate.clone()).size(17.0));
                    let result = if st.in_dict && st.accepted {
                        lang.t("docview.step_r_word")
                    } else if st.accepted {
                        lang.t("docview.step_r_single")
                    } else {
                        lang.t("docview.step_r_shrink")
                    };
                    ui.label(t(result.to_string()));
                    ui.end_row();
                }
            });
    }
}
