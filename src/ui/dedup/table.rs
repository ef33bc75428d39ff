//! The comparison tab: every method's row (the book's Table 7-3 shape — found, the book's
//! "recall" as a detection rate — plus true P/R/F1 where the corpus has truth) beside the book's
//! Tables 7-3, 7-5 and 7-6; the overlap of the pages each method found (found(3) ⊆ found(2) ⊆
//! found(5), union = 1 ∪ 5); and the book experiments' buttons with the DocView raw-vs-cleaned
//! result beside Table 7-2.

use super::*;
use crate::engine::dedup::eval::BOOK_TABLE_7_3;
use crate::engine::export::Table;
use crate::ui::export::table_button;

/// Table 7-5 [L2610–L2616]: chunking, pages, minutes, recall %.
const BOOK_TABLE_7_5: [(&str, &str, u32, u32); 3] = [
    ("dedup.chunk_whole", "24,000,000", 2760, 17),
    ("dedup.chunk_4", "24,000,000", 2940, 22),
    ("dedup.chunk_2", "24,000,000", 3240, 22),
];

/// Table 7-4 [L2588–L2597]: algorithm, found, "recall" %, precision % at δ = 0.1.
const BOOK_TABLE_7_4: [(&str, u32, f64, f64); 2] = [
    ("tianwang3", 211_718, 17.90, 98.0),
    ("tianwang4", 222_151, 18.78, 97.0),
];

/// Table 7-6 [L2620–L2626]: algorithm, minutes on 1,182,899 pages, recall %.
const BOOK_TABLE_7_6: [(&str, u32, f64); 3] = [
    ("tianwang1", 5, 16.98),
    ("tianwang5", 4, 19.10),
    ("tianwang-union", 9, 22.47),
];

/// The subset chains the book states [L2575].
const CHAINS: [[&str; 3]; 2] = [
    ["tianwang3", "tianwang2", "tianwang5"],
    ["tianwang3", "tianwang4", "tianwang5"],
];

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or("—".into(), |v| format!("{v:.digits$}"))
}

impl DedupPanel {
    pub(super) fn book_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        ui.label(RichText::new(lang.t("dedup.book")).size(17.0).strong());
        let sample = Source::Sample { clean: true };
        let dev = self.form.devset();
        let base = Config::default();
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        ui.horizontal_wrapped(|ui| {
            if ui.button(lang.t("dedup.exp_73")).clicked() {
                self.book.start(cx, vec!["table-7-3".into()]);
                let m = names(&[
                    "md5",
                    "tianwang1",
                    "tianwang2",
                    "tianwang3",
                    "tianwang4",
                    "tianwang5",
                    "tianwang-union",
                    "segments",
                ]);
                self.start(
                    cx,
                    What::Compare,
                    Some(m),
                    Some(sample.clone()),
                    Some(base.clone()),
                    None,
                );
                self.tab = Tab::Compare;
            }
            if ui.button(lang.t("dedup.exp_72")).clicked() {
                self.book.start(cx, vec!["table-7-2".into()]);
                for clean in [false, true] {
                    self.start(
                        cx,
                        What::RawClean(clean),
                        Some(names(&["tianwang5"])),
                        Some(Source::Sample { clean }),
                        Some(base.clone()),
                        None,
                    );
                }
                self.tab = Tab::Compare;
            }
            // The sweeps: (button, method, source, parameter=range).
            for (key, method, src, spec) in [
                ("dedup.exp_n", "tianwang5", &sample, "n-keywords=2..30"),
                ("dedup.exp_k", "simhash", &dev, "simhash-k=0..12"),
                ("dedup.exp_t", "minhash", &dev, "threshold=0.3..0.95:0.05"),
            ] {
                if ui.button(lang.t(key)).clicked() {
                    let id = match key {
                        "dedup.exp_n" => "fig-7-10",
                        "dedup.exp_k" => "simhash-k",
                        _ => "minhash-threshold",
                    };
                    self.book.start(cx, vec![id.into()]);
                    let param = spec.split('=').next().unwrap_or(spec).to_string();
                    self.start(
                        cx,
                        What::Sweep(param),
                        Some(names(&[method])),
                        Some(src.clone()),
                        Some(base.clone()),
                        Some(spec),
                    );
                    self.tab = Tab::Sweeps;
                }
            }
            if ui.button(lang.t("dedup.exp_ccdet")).clicked() {
                self.book.start(cx, vec!["ccdet-containment".into()]);
                let m = names(&["md5", "tianwang5", "minhash", "simhash", "ccdet", "best"]);
                self.start(
                    cx,
                    What::Compare,
                    Some(m),
                    Some(dev.clone()),
                    Some(base.clone()),
                    None,
                );
                self.tab = Tab::Compare;
            }
            if ui.button(lang.t("dedup.exp_hash")).clicked() {
                self.book.start(cx, vec!["seed-002-hash-table".into()]);
                self.teach.start_bench(ui.ctx());
                self.tab = Tab::Hashes;
            }
            let n = self.running.len();
            if n > 0 {
                ui.spinner();
                ui.label(lang.tf("dedup.jobs_running", &[&n]));
            }
        });
        self.book.ui(cx, ui, "Dedup");
    }

    pub(super) fn compare_ui(&mut self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        self.raw_clean_ui(cx, ui);
        let Some(c) = &self.compared else {
            ui.label(RichText::new(lang.t("dedup.no_result")).weak());
            return;
        };
        ui.label(lang.tf(
            "dedup.result_head",
            &[&c.docs, &source_name(lang, &c.source), &c.rows.len()],
        ));
        let headers = [
            lang.t("dedup.col_method"),
            lang.t("dedup.col_found"),
            lang.t("dedup.col_rate"),
            lang.t("dedup.col_pairs"),
            lang.t("dedup.col_clusters"),
            lang.t("dedup.col_p"),
            lang.t("dedup.col_r"),
            lang.t("dedup.col_f1"),
            lang.t("dedup.col_contains"),
            lang.t("dedup.col_dps"),
            lang.t("dedup.col_book_found"),
            lang.t("dedup.col_book_rate"),
            lang.t("dedup.col_book_p"),
        ];
        let rows: Vec<Vec<String>> = c
            .rows
            .iter()
            .map(|r| {
                let s = r.scores.as_ref();
                let book = BOOK_TABLE_7_3.iter().find(|b| b.0 == r.method);
                vec![
                    r.method.clone(),
                    r.found.to_string(),
                    format!("{:.2}", r.detection_rate),
                    r.pairs.to_string(),
                    r.clusters.to_string(),
                    opt(s.map(|s| s.near.precision), 3),
                    opt(s.map(|s| s.near.recall), 3),
                    opt(s.map(|s| s.near.f1), 3),
                    opt(s.map(|s| 100.0 * s.contains_found), 1),
                    format!("{:.0}", r.docs_per_s),
                    book.map_or("—".into(), |b| b.1.to_string()),
                    book.map_or("—".into(), |b| format!("{:.2}", b.2)),
                    book.map_or("—".into(), |b| format!("{:.2}", b.3)),
                ]
            })
            .collect();
        ui.horizontal(|ui| {
            ui.label(RichText::new(lang.t("dedup.table")).strong());
            table_button(ui, lang, &mut cx.hub.exports, || {
                Table::new(lang.t("dedup.table"), headers).with_rows(rows.clone())
            });
        });
        egui::ScrollArea::horizontal()
            .id_salt("dedup_table_h")
            .show(ui, |ui| {
                egui::Grid::new("dedup_table")
                    .striped(true)
                    .num_columns(headers.len())
                    .show(ui, |ui| {
                        for h in headers {
                            ui.label(RichText::new(h).strong());
                        }
                        ui.end_row();
                        for r in &rows {
                            for (i, v) in r.iter().enumerate() {
                                if i >= 10 {
                                    ui.label(RichText::new(v).italics().weak());
                                } else {
                                    ui.label(v);
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
        ui.label(RichText::new(lang.t("dedup.table_note")).weak());
        if !c.has_truth {
            ui.label(RichText::new(lang.t("dedup.no_truth")).weak());
        }
        self.overlap_ui(lang, ui);
        ui.add_space(6.0);
        book_tables_ui(lang, ui, &self.compared);
    }

    fn overlap_ui(&self, lang: Lang, ui: &mut Ui) {
        let Some(c) = &self.compared else { return };
        if c.overlap.is_empty() {
            return;
        }
        ui.add_space(6.0);
        ui.label(RichText::new(lang.t("dedup.overlap")).size(16.0).strong());
        ui.label(RichText::new(lang.t("dedup.overlap_hint")).weak());
        let find = |a: &str, b: &str| {
            c.overlap
                .iter()
                .find(|o| o["a"] == a && o["b"] == b)
                .cloned()
        };
        // The book's chains first.
        for chain in CHAINS {
            let (Some(x), Some(y)) = (find(chain[0], chain[1]), find(chain[1], chain[2])) else {
                continue;
            };
            let ok = x["subset"] == true && y["subset"] == true;
            ui.horizontal(|ui| {
                ui.label(yes_no(ui, ok));
                ui.label(format!(
                    "found({}) = {} ⊆ found({}) = {} ⊆ found({}) = {}",
                    &chain[0][8..],
                    x["a_found"],
                    &chain[1][8..],
                    x["b_found"],
                    &chain[2][8..],
                    y["b_found"]
                ));
            });
        }
        let methods: Vec<&str> = c.rows.iter().map(|r| r.method.as_str()).collect();
        egui::ScrollArea::horizontal()
            .id_salt("dedup_overlap_h")
            .show(ui, |ui| {
                egui::Grid::new("dedup_overlap")
                    .striped(true)
                    .num_columns(methods.len() + 1)
                    .show(ui, |ui| {
                        ui.label(RichText::new("A \\ B").strong());
                        for m in &methods {
                            ui.label(RichText::new(*m).strong());
                        }
                        ui.end_row();
                        for a in &methods {
                            ui.label(RichText::new(*a).strong());
                            for b in &methods {
                                match find(a, b) {
                                    Some(o) => {
                                        let text = format!("{}/{}", o["both"], o["a_found"]);
                                        let t = if o["subset"] == true {
                                            RichText::new(format!("⊆ {text}"))
                                                .color(Color32::from_rgb(40, 150, 60))
                                        } else {
                                            RichText::new(text)
                                        };
                                        ui.label(t);
                                    }
                                    None => {
                                        ui.label("·");
                                    }
                                }
                            }
                            ui.end_row();
                        }
                    });
            });
    }

    fn raw_clean_ui(&self, cx: &mut Cx<'_>, ui: &mut Ui) {
        let lang = cx.lang;
        if self.raw_clean.iter().all(Option::is_none) {
            return;
        }
        ui.label(RichText::new(lang.t("dedup.t72")).size(16.0).strong());
        let headers = [
            lang.t("dedup.col_input"),
            lang.t("dedup.col_true_found"),
            lang.t("dedup.col_wrong"),
            lang.t("dedup.col_recall"),
            lang.t("dedup.col_book"),
        ];
        let book = ["1/26 · 0/27 (3.8 %)", "20/26 · 0/27 (76.9 %)"];
        let rows: Vec<Vec<String>> = self
            .raw_clean
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let s = r.as_ref()?.scores.as_ref()?;
                let truth = s.near.tp + s.near.fn_;
                Some(vec![
                    lang.t(if i == 0 { "dedup.raw" } else { "dedup.cleaned" })
                        .to_string(),
                    format!("{}/{}", s.near.tp, truth),
                    s.near.fp.to_string(),
                    format!("{:.1} %", 100.0 * s.near.recall),
                    book[i].to_string(),
                ])
            })
            .collect();
        ui.horizontal(|ui| {
            table_button(ui, lang, &mut cx.hub.exports, || {
                Table::new(lang.t("dedup.t72"), headers).with_rows(rows.clone())
            });
        });
        simple_grid(ui, "dedup_t72", &headers, &rows);
        ui.label(RichText::new(lang.t("dedup.t72_note")).weak());
        ui.separator();
    }
}

/// The book's Tables 7-5 and 7-6 with ours per page beside them.
fn book_tables_ui(lang: Lang, ui: &mut Ui, c: &Option<Compared>) {
    let ours = |m: &str| {
        c.as_ref()
            .and_then(|c| c.rows.iter().find(|r| r.method == m))
            .map(|r| (1000.0 / r.docs_per_s.max(1e-9), r.detection_rate))
    };
    egui::CollapsingHeader::new(lang.t("dedup.book_tables"))
        .id_salt("dedup_book_tables")
        .show(ui, |ui| {
            ui.label(RichText::new(lang.t("dedup.t75")).strong());
            egui::Grid::new("dedup_t75").striped(true).show(ui, |ui| {
                for h in [
                    "dedup.col_chunking",
                    "dedup.col_pages",
                    "dedup.col_minutes",
                    "dedup.col_book_rate",
                    "dedup.col_ms_page",
                ] {
                    ui.label(RichText::new(lang.t(h)).strong());
                }
                ui.end_row();
                for (k, pages, min, rate) in BOOK_TABLE_7_5 {
                    ui.label(lang.t(k));
                    ui.label(pages);
                    ui.label(min.to_string());
                    ui.label(rate.to_string());
                    ui.label(format!("{:.2}", f64::from(min) * 60_000.0 / 24.0e6));
                    ui.end_row();
                }
            });
            ui.label(RichText::new(lang.t("dedup.t74")).strong());
            let rows: Vec<Vec<String>> = BOOK_TABLE_7_4
                .iter()
                .map(|(m, found, rate, p)| {
                    let at_001 = BOOK_TABLE_7_3.iter().find(|b| b.0 == *m).map_or(0, |b| b.1);
                    vec![
                        m.to_string(),
                        found.to_string(),
                        format!("{rate:.2}"),
                        format!("{p:.0}"),
                        format!("+{}", found - at_001),
                    ]
                })
                .collect();
            simple_grid(
                ui,
                "dedup_t74",
                &[
                    lang.t("dedup.col_method"),
                    lang.t("dedup.col_book_found"),
                    lang.t("dedup.col_book_rate"),
                    lang.t("dedup.col_book_p"),
                    lang.t("dedup.col_vs_001"),
                ],
                &rows,
            );
            ui.label(RichText::new(lang.t("dedup.t74_note")).weak());
            ui.label(RichText::new(lang.t("dedup.t76")).strong());
            egui::Grid::new("dedup_t76").striped(true).show(ui, |ui| {
                for h in [
                    "dedup.col_method",
                    "dedup.col_minutes",
                    "dedup.col_book_rate",
                    "dedup.col_ms_page",
                    "dedup.col_our_ms",
                    "dedup.col_rate",
                ] {
                    ui.label(RichText::new(lang.t(h)).strong());
                }
                ui.end_row();
                for (m, min, rate) in BOOK_TABLE_7_6 {
                    ui.label(m);
                    ui.label(min.to_string());
                    ui.label(format!("{rate:.2}"));
                    ui.label(format!("{:.3}", f64::from(min) * 60_000.0 / 1_182_899.0));
                    let o = ours(m);
                    ui.label(opt(o.map(|x| x.0), 4));
                    ui.label(opt(o.map(|x| x.1), 2));
                    ui.end_row();
                }
            });
            ui.label(RichText::new(lang.t("dedup.t76_note")).weak());
        });
}

/// A striped grid of a header row and text rows.
pub(super) fn simple_grid(ui: &mut Ui, id: &str, headers: &[&str], rows: &[Vec<String>]) {
    egui::Grid::new(id)
        .striped(true)
        .num_columns(headers.len())
        .show(ui, |ui| {
            for h in headers {
                ui.label(RichText::new(*h).strong());
            }
            ui.end_row();
            for r in rows {
                for v in r {
                    ui.label(v);
                }
                ui.end_row();
            }
        });
}

pub(super) fn source_name(lang: Lang, s: &Source) -> String {
    match s {
        Source::Sample { clean } => format!(
            "{} ({})",
            lang.t("dedup.src_sample"),
            lang.t(if *clean { "dedup.cleaned" } else { "dedup.raw" })
        ),
        Source::Devset { .. } => lang.t("dedup.src_devset").to_string(),
        Source::Parquet { path } => format!("Parquet {}", path.display()),
        Source::Workspace { clean } => format!(
            "{} ({})",
            lang.t("dedup.src_workspace"),
            lang.t(if *clean { "dedup.cleaned" } else { "dedup.raw" })
        ),
        Source::Dir { path, .. } => path.display().to_string(),
    }
}
