//! Two teaching tools inside the Crawl panel: the book's capacity calculator (13 KB pages,
//! 100 Mbit/s, 50 % → 8,333 frames/s, < 4,000 pages/s; 2·RTT + SPT = 500 ms; 100 gatherers →
//! 2,160,000 pages/day [L1138–1154], with the frame-equals-page simplification as a switch), and
//! a distributed-crawl simulator over this workspace's own fetch log: hosts assigned to n nodes
//! by hash(host) mod n, load per node over time and its variance, and how many hosts move when
//! a node is added — plain rehash vs the book's two-level mapping [L1987–2126].

use egui::{RichText, Ui};
use egui_plot::{Legend, Line, Plot, PlotPoints};

use super::Lang;
use super::export::{Exports, plot_buttons, table_button};
use super::task::Task;
use crate::engine::capacity::{self, CapacityInputs, KbUnit, Simulation};
use crate::engine::export::{Plot as XPlot, Series as XSeries, Table};
use crate::engine::store::Workspace;

#[derive(Default)]
pub(crate) struct CapacityPanel {
    pub inputs: CapacityInputs,
    pub sim: Option<Simulation>,
    pub task: Option<Task<Result<Simulation, String>>>,
    pub shown_n: usize,
    pub error: Option<String>,
}

fn figure_label(lang: Lang, key: &str) -> &'static str {
    match key {
        "page_bytes" => lang.t("cap.page_bytes"),
        "frames_per_s_full" => lang.t("cap.frames_per_s_full"),
        "page_over_mtu" => lang.t("cap.page_over_mtu"),
        "frames_per_page" => lang.t("cap.frames_per_page"),
        "pages_per_s_full" => lang.t("cap.pages_per_s_full"),
        "frames_per_s_at_utilisation" => lang.t("cap.frames_at_util"),
        "pages_per_s_at_utilisation" => lang.t("cap.pages_at_util"),
        "gatherers_per_node_max" => lang.t("cap.gatherers_max"),
        "t_txn_ms" => lang.t("cap.t_txn"),
        "t_page_s" => lang.t("cap.t_page"),
        "pages_per_day_node" => lang.t("cap.per_day_node"),
        _ => lang.t("cap.per_day_all"),
    }
}

fn calculator(lang: Lang, ui: &mut Ui, p: &mut CapacityPanel, ex: &mut Exports) {
    let i = &mut p.inputs;
    egui::Grid::new("cap_inputs")
        .num_columns(4)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            ui.label(lang.t("cap.in_page"));
            ui.add(
                egui::DragValue::new(&mut i.page_kb)
                    .range(0.1..=10_000.0)
                    .suffix(" KB"),
            );
            ui.label(lang.t("cap.in_link"));
            ui.add(
                egui::DragValue::new(&mut i.link_mbps)
                    .range(0.01..=100_000.0)
                    .suffix(" Mbit/s"),
            );
            ui.end_row();
            ui.label(lang.t("cap.in_util"));
            ui.add(egui::Slider::new(&mut i.utilisation, 0.01..=1.0));
            ui.label(lang.t("cap.in_mtu"));
            ui.add(
                egui::DragValue::new(&mut i.mtu_bytes)
                    .range(46.0..=9000.0)
                    .suffix(" B"),
            );
            ui.end_row();
            ui.label("RTT");
            ui.add(
                egui::DragValue::new(&mut i.rtt_ms)
                    .range(0.1..=10_000.0)
                    .suffix(" ms"),
            );
            ui.label("SPT");
            ui.add(
                egui::DragValue::new(&mut i.spt_ms)
                    .range(0.1..=10_000.0)
                    .suffix(" ms"),
            );
            ui.end_row();
            ui.label(lang.t("cap.in_gatherers"));
            ui.add(egui::DragValue::new(&mut i.gatherers).range(1.0..=100_000.0));
            ui.label(lang.t("cap.in_nodes"));
            ui.add(egui::DragValue::new(&mut i.nodes).range(1.0..=1000.0));
            ui.end_row();
        });
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut i.frame_equals_page, lang.t("cap.frame_is_page"));
        ui.checkbox(&mut i.round_like_book, lang.t("cap.round"));
        ui.selectable_value(&mut i.kb_bytes, KbUnit::Kib1024, "1 KB = 1024 B");
        ui.selectable_value(&mut i.kb_bytes, KbUnit::Kb1000, "1 KB = 1000 B");
        if ui.button(lang.t("cap.book_defaults")).clicked() {
            *i = CapacityInputs::default();
        }
    });
    // A dozen multiplications: cheap enough to redo every frame.
    match capacity::capacity(i) {
        Ok(r) => {
            table_button(ui, lang, ex, || {
                Table::new(
                    lang.t("cap.title"),
                    ["key", "figure", "value", "unit", "book", "line", "formula"],
                )
                .with_rows(r.figures.iter().map(|f| {
                    [
                        f.key.to_string(),
                        figure_label(lang, f.key).to_string(),
                        f.value.to_string(),
                        f.unit.to_string(),
                        f.book_value.map_or(String::new(), |b| b.to_string()),
                        f.line.to_string(),
                        f.formula.clone(),
                    ]
                }))
            });
            egui::Grid::new("cap_figures")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for h in [
                        lang.t("cap.col_figure"),
                        lang.t("cap.col_value"),
                        lang.t("cap.col_book"),
                        lang.t("cap.col_formula"),
                    ] {
                        ui.label(RichText::new(h).strong());
                    }
                    ui.end_row();
                    for f in &r.figures {
                        ui.label(format!("{} {}", figure_label(lang, f.key), f.line));
                        ui.label(
                            RichText::new(format!("{} {}", fmt_num(f.value), f.unit)).strong(),
                        );
                        ui.label(f.book_value.map_or(String::new(), fmt_num));
                        ui.label(RichText::new(&f.formula).monospace().small());
                        ui.end_row();
                    }
                });
            for n in &r.notes {
                ui.label(RichText::new(n).small().weak());
            }
        }
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }
}

fn fmt_num(v: f64) -> String {
    if v.abs() >= 100.0 {
        let s = format!("{:.0}", v);
        let (sign, digits) = s.strip_prefix('-').map_or(("", s.as_str()), |d| ("-", d));
        let mut out = String::new();
        for (k, c) in digits.chars().enumerate() {
            if k > 0 && (digits.len() - k) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        format!("{sign}{out}")
    } else {
        format!("{v:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

fn simulate(lang: Lang, path: std::path::PathBuf) -> Result<Simulation, String> {
    Workspace::open_existing(&path)
        .and_then(|ws| capacity::simulate_workspace(&ws))
        .map_err(|e| lang.error(&e))
}

fn simulator(
    lang: Lang,
    ui: &mut Ui,
    p: &mut CapacityPanel,
    ws: Option<&std::path::Path>,
    ex: &mut Exports,
) {
    if let Some(r) = Task::take_result(&mut p.task) {
        match r {
            Ok(s) => {
                p.sim = Some(s);
                p.error = None;
            }
            Err(e) => p.error = Some(e),
        }
    }
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                ws.is_some() && p.task.is_none(),
                egui::Button::new(lang.t("sim.run")),
            )
            .clicked()
            && let Some(path) = ws
        {
            let path = path.to_path_buf();
            p.task = Some(Task::spawn(ui.ctx(), move || simulate(lang, path)));
        }
        if p.task.is_some() {
            ui.spinner();
        }
    });
    if let Some(e) = &p.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    let Some(s) = &p.sim else { return };
    ui.horizontal(|ui| {
        ui.label(lang.tf("sim.summary", &[&s.fetches, &s.hosts]));
        table_button(ui, lang, ex, || {
            Table::new(
                lang.t("sim.title"),
                [
                    "nodes",
                    "totals",
                    "variance",
                    "max_over_mean",
                    "rehash_moved_hosts",
                    "rehash_fraction",
                    "two_level_moved_hosts",
                    "two_level_fraction",
                    "total_hosts",
                ],
            )
            .with_rows(s.loads.iter().zip(&s.rehash).zip(&s.two_level).map(
                |((l, r), t)| {
                    [
                        l.nodes.to_string(),
                        format!("{:?}", l.totals),
                        l.variance.to_string(),
                        l.max_over_mean.to_string(),
                        r.moved_hosts.to_string(),
                        r.fraction.to_string(),
                        t.moved_hosts.to_string(),
                        t.fraction.to_string(),
                        r.total_hosts.to_string(),
                    ]
                },
            ))
        });
    });
    egui::Grid::new("sim_table")
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            for h in [
                lang.t("sim.col_nodes"),
                lang.t("sim.col_totals"),
                lang.t("sim.col_variance"),
                lang.t("sim.col_max_mean"),
                lang.t("sim.col_rehash"),
                lang.t("sim.col_two_level"),
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for ((l, r), t) in s.loads.iter().zip(&s.rehash).zip(&s.two_level) {
                if ui
                    .selectable_label(p.shown_n == l.nodes, format!("n = {}", l.nodes))
                    .clicked()
                {
                    p.shown_n = l.nodes;
                }
                ui.label(RichText::new(format!("{:?}", l.totals)).monospace().small());
                ui.label(format!("{:.1}", l.variance));
                ui.label(format!("{:.2}", l.max_over_mean));
                ui.label(format!(
                    "{}/{} ({:.0}%)",
                    r.moved_hosts,
                    r.total_hosts,
                    r.fraction * 100.0
                ));
                ui.label(format!(
                    "{}/{} ({:.0}%)",
                    t.moved_hosts,
                    t.total_hosts,
                    t.fraction * 100.0
                ));
                ui.end_row();
            }
        });
    let shown = s
        .loads
        .iter()
        .find(|l| l.nodes == p.shown_n)
        .or(s.loads.first());
    if let Some(l) = shown {
        let cumulative = |node: usize| -> Vec<[f64; 2]> {
            let mut acc = 0u64;
            l.buckets
                .iter()
                .enumerate()
                .map(|(t, b)| {
                    acc += b.get(node).copied().unwrap_or(0);
                    [(t + 1) as f64 * l.bucket_s, acc as f64]
                })
                .collect()
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.tf("sim.plot", &[&l.nodes])).strong());
            plot_buttons(ui, lang, ex, || {
                let mut plot = XPlot::new(
                    lang.tf("sim.plot", &[&l.nodes]),
                    lang.t("export.axis_seconds"),
                    lang.t("export.axis_pages"),
                );
                for node in 0..l.nodes {
                    plot = plot.series(XSeries::line(
                        lang.tf("sim.node", &[&node]),
                        cumulative(node),
                    ));
                }
                plot
            });
        });
        Plot::new("sim_load")
            .height(180.0)
            .legend(Legend::default())
            .x_axis_label("s")
            .show(ui, |pl| {
                for node in 0..l.nodes {
                    pl.line(Line::new(
                        lang.tf("sim.node", &[&node]),
                        PlotPoints::from(cumulative(node)),
                    ));
                }
            });
    }
}

pub(crate) fn show(
    lang: Lang,
    ui: &mut Ui,
    p: &mut CapacityPanel,
    ws: Option<&std::path::Path>,
    ex: &mut Exports,
) {
    egui::CollapsingHeader::new(RichText::new(lang.t("cap.title")).strong())
        .id_salt("capacity")
        .show(ui, |ui| calculator(lang, ui, p, ex));
    egui::CollapsingHeader::new(RichText::new(lang.t("sim.title")).strong())
        .id_salt("simulator")
        .show(ui, |ui| simulator(lang, ui, p, ws, ex));
}

#[cfg(test)]
mod tests {
    #[test]
    fn numbers_read_well() {
        assert_eq!(super::fmt_num(2_160_000.0), "2,160,000");
        assert_eq!(super::fmt_num(8333.0), "8,333");
        assert_eq!(super::fmt_num(0.5), "0.5");
        assert_eq!(super::fmt_num(4.0), "4");
    }
}
