//! Frame times of every panel on a large workspace, shared by the frame benchmark
//! (`benches/gui.rs`) and its regression tests (`tests/gui_frames.rs`): build a workspace with
//! the real binary (crawl of the generated bench site → clean → dedup → index → PageRank, a
//! stored synthetic query log), open the app on it headless, drive every panel and tab by
//! label, let the background work finish, then time frames while the pointer hovers and the
//! wheel scrolls over the panel.
//!
//! The clock is the app's UI pass (`Harness::step`: `egui::Context::run` with our panels and
//! egui's layout, plus the accessibility tree kittest reads); nothing is rendered.

#![allow(dead_code)]

#[path = "wait.rs"]
mod wait;
pub use wait::wait;

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tianwang::ui::{AppOptions, WorkbenchApp};

/// How big a workspace to build.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sizes {
    /// Pages in the workspace.
    pub pages: u64,
    /// Of them, crawled from the generated site and run through the whole pipeline (clean,
    /// dedup, index, PageRank); the rest are page rows without snapshots (the lists that grow
    /// with the workspace still see every one). The benchmark crawls all of them.
    pub pipeline_pages: u64,
    /// Lines of the stored synthetic query log.
    pub log_lines: u64,
}

/// The workspace of `sizes` in a temporary folder, built once by the `tianwang` binary for all
/// the tests of one test binary (they share it; it goes when the binary exits).
pub fn shared(sizes: Sizes) -> &'static PathBuf {
    static WS: std::sync::OnceLock<(tempfile::TempDir, PathBuf)> = std::sync::OnceLock::new();
    &WS.get_or_init(|| {
        let d = tempfile::tempdir().expect("tempdir");
        let ws = workspace(Path::new(env!("CARGO_BIN_EXE_tianwang")), d.path(), sizes);
        (d, ws)
    })
    .1
}

/// Runs `bin` with `args`, panicking with its stderr when it fails.
fn run(bin: &Path, args: &[&str]) {
    let out = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run tianwang");
    assert!(
        out.status.success(),
        "tianwang {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The workspace `dir/frames.tianwang` with `sizes` (built by `bin` once; a marker file
/// `dir/frames.built` names the sizes it was built with, so a later run reuses it).
pub fn workspace(bin: &Path, dir: &Path, sizes: Sizes) -> PathBuf {
    std::fs::create_dir_all(dir).expect("workspace folder");
    let ws = dir.join("frames.tianwang");
    let marker = dir.join("frames.built");
    let want = format!("{sizes:?}");
    if std::fs::read_to_string(&marker).ok().as_deref() == Some(want.as_str()) && ws.exists() {
        return ws;
    }
    let _ = std::fs::remove_file(&marker);
    let _ = std::fs::remove_file(&ws);
    let wsa = ws.to_str().expect("utf-8 path");
    let t = Instant::now();
    // The generated bench site on loopback: every page distinct, built from the sample
    // articles (so DocView, dedup and the index have real text to work on).
    let mut server = Command::new(bin)
        .args([
            "serve-sample",
            "--addr",
            "127.0.0.1:0",
            "--bench",
            &sizes.pipeline_pages.to_string(),
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve the sample web");
    let mut first = String::new();
    std::io::BufReader::new(server.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("server's first line");
    let v: serde_json::Value = serde_json::from_str(&first).expect("server JSON");
    let addr = v["addr"].as_str().expect("addr").to_string();
    let port = addr.rsplit(':').next().expect("port");
    let seed = format!("http://bench.localhost:{port}/");
    let max = sizes.pipeline_pages.to_string();
    run(
        bin,
        &[
            "--workspace",
            wsa,
            "crawl",
            "--seed",
            &seed,
            "--max-pages",
            &max,
            "--workers",
            "32",
            "--per-host",
            "32",
            "--ignore-robots",
            "--no-url-filter",
        ],
    );
    // The rest of the pipeline: clean, dedup, index, PageRank (the crawl stage resumes an
    // exhausted frontier).
    run(
        bin,
        &[
            "--workspace",
            wsa,
            "build",
            "--seed",
            &seed,
            "--max-pages",
            &max,
        ],
    );
    let _ = server.kill();
    let _ = server.wait();
    bulk_pages(&ws, sizes.pages);
    eprintln!("pages and pipeline: {:.1} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let log = dir.join("frames-log.txt");
    let loga = log.to_str().expect("utf-8 path");
    run(
        bin,
        &[
            "querylog",
            "generate",
            "--lines",
            &sizes.log_lines.to_string(),
            "--out",
            loga,
        ],
    );
    run(
        bin,
        &[
            "--workspace",
            wsa,
            "querylog",
            "import",
            loga,
            "--format",
            "sogouq",
        ],
    );
    let _ = std::fs::remove_file(&log);
    eprintln!("query log stored: {:.1} s", t.elapsed().as_secs_f64());
    std::fs::write(&marker, want).expect("marker");
    ws
}

/// Adds page rows (no snapshot) on host `bulk.localhost` until the workspace has `pages`.
fn bulk_pages(ws: &Path, pages: u64) {
    let mut c = rusqlite::Connection::open(ws).expect("open the workspace");
    let have: i64 = c
        .query_row("SELECT COUNT(*) FROM pages", [], |r| r.get(0))
        .expect("count pages");
    let (have, pages) = (have as u64, pages);
    if have >= pages {
        return;
    }
    let tx = c.transaction().expect("transaction");
    tx.execute(
        "INSERT OR IGNORE INTO sites(host, first_seen) VALUES ('bulk.localhost', 'x')",
        [],
    )
    .expect("site");
    let site: i64 = tx
        .query_row(
            "SELECT id FROM sites WHERE host = 'bulk.localhost'",
            [],
            |r| r.get(0),
        )
        .expect("site id");
    {
        let mut st = tx
            .prepare(
                "INSERT INTO pages(url, site_id, first_seen, status) VALUES (?1, ?2, 'x', 200)",
            )
            .expect("prepare");
        for i in have..pages {
            st.execute((format!("http://bulk.localhost/p{i}.html"), site))
                .expect("insert page");
        }
    }
    tx.commit().expect("commit");
}

/// The app on `ws` at 1280×800 (bundled fonts, light theme), and the cold start: from the
/// harness's creation to the first frame showing the Pages panel's list of all the pages the
/// workspace holds (at least `pages`: a crawl also stores the pages it was redirected to).
pub fn open(ws: &Path, pages: u64) -> (Harness<'static, WorkbenchApp>, Duration) {
    let have: i64 = rusqlite::Connection::open(ws)
        .and_then(|c| c.query_row("SELECT COUNT(*) FROM pages", [], |r| r.get(0)))
        .expect("count the workspace's pages");
    assert!(have as u64 >= pages, "{have} pages, fewer than {pages}");
    let pages = have;
    let ws = ws.to_path_buf();
    let t = Instant::now();
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_theme(egui::Theme::Light)
        .build_eframe(move |cc| {
            WorkbenchApp::new(
                cc,
                AppOptions {
                    workspace: Some(ws.clone()),
                    system_fonts: false,
                    sample_if_new: false,
                    export_dir: None,
                    data_dir: None,
                },
            )
        });
    h.step();
    click(&mut h, "网页与快照");
    let want = format!("共 {pages} 个网页");
    let deadline = Instant::now() + Duration::from_secs(60);
    while h.query_by_label_contains(&want).is_none() {
        assert!(
            Instant::now() < deadline,
            "the page list never showed {want}"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(1));
    }
    (h, t.elapsed())
}

/// Clicks the first widget labelled `label` (the navigation comes before the panel).
pub fn click(h: &mut Harness<'_, WorkbenchApp>, label: &str) {
    match h.query_all_by_label(label).next() {
        Some(n) => n.click(),
        None => panic!("no widget labelled {label:?}"),
    }
    h.step();
}

/// Lets background work land: steps while a job runs, then a few frames with short pauses (the
/// panels' tasks reading the workspace answer within them).
pub fn settle(h: &mut Harness<'_, WorkbenchApp>, secs: u64) {
    wait(h, "the running jobs", secs, |h| {
        h.state().running_jobs().is_empty()
    });
    for _ in 0..30 {
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Frame times of one panel's tab.
#[derive(Debug, Clone)]
pub struct Timed {
    pub panel: String,
    pub tab: String,
    pub frames: Vec<Duration>,
}

impl Timed {
    /// The `q`-quantile (nearest rank) in ms.
    pub fn quantile_ms(&self, q: f64) -> f64 {
        let mut v: Vec<Duration> = self.frames.clone();
        v.sort();
        if v.is_empty() {
            return 0.0;
        }
        let i = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
        v[i].as_secs_f64() * 1e3
    }

    pub fn max_ms(&self) -> f64 {
        self.frames
            .iter()
            .max()
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "panel": self.panel,
            "tab": self.tab,
            "frames": self.frames.len(),
            "p50_ms": (self.quantile_ms(0.5) * 100.0).round() / 100.0,
            "p99_ms": (self.quantile_ms(0.99) * 100.0).round() / 100.0,
            "max_ms": (self.max_ms() * 100.0).round() / 100.0,
        })
    }
}

/// Times `n` frames: the pointer sweeps the panel's area (hover) and the wheel scrolls down,
/// then back up, one event a frame.
pub fn time_frames(h: &mut Harness<'_, WorkbenchApp>, n: usize) -> Vec<Duration> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let f = i as f32 / n.max(1) as f32;
        let pos = egui::pos2(
            260.0 + 980.0 * f,
            120.0 + 600.0 * ((i * 37) % 100) as f32 / 100.0,
        );
        if i % 2 == 0 {
            h.event(egui::Event::PointerMoved(pos));
        } else {
            let dy = if f < 0.5 { -60.0 } else { 60.0 };
            h.event(egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Point,
                delta: egui::vec2(0.0, dy),
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
                modifiers: egui::Modifiers::NONE,
            });
        }
        let t = Instant::now();
        h.step();
        out.push(t.elapsed());
    }
    out
}

/// The panels (navigation labels, zh) and their tabs, in the navigation's order.
pub const PANELS: &[(&str, &str, &[&str])] = &[
    ("Overview", "概览", &[]),
    ("Sample", "样例网站", &[]),
    ("Crawl", "网页搜集", &[]),
    ("Pages", "网页与快照", &[]),
    ("DocView", "网页净化", &["抽取", "分词", "评测"]),
    (
        "Dedup",
        "网页消重",
        &[
            "比较",
            "参数扫描",
            "簇与镜像度",
            "文档对",
            "SimHash 步进",
            "哈希碰撞",
        ],
    ),
    (
        "search",
        "检索与排序",
        &[
            "检索",
            "索引浏览",
            "配置对比",
            "评测",
            "链接分析",
            "性能模型（§8.4）",
        ],
    ),
    ("Classify", "分类器训练", &[]),
    (
        "querylog",
        "查询日志",
        &[
            "总量",
            "频度频级",
            "覆盖率",
            "雷同衰减",
            "相邻偏差",
            "翻页",
            "点击位置",
            "点击 URL",
            "自相似性",
            "查询长度",
            "时段",
        ],
    ),
    ("cache", "缓存策略", &[]),
    ("Jobs", "任务", &[]),
];

/// The 14 policies the cache panel does not tick by default (fifo, lru and lfu-decay are).
const MORE_POLICIES: &[&str] = &[
    "clock",
    "lfu",
    "lfu-perfect",
    "slru",
    "2q",
    "arc",
    "lirs",
    "s3fifo",
    "sieve",
    "gdsf",
    "gd-size",
    "opt",
    "random",
    "infinite",
];

/// What a panel needs before its frames are timed: the query-log panel computes the stored
/// log's statistics, the cache panel runs all 17 policies at 20 sizes.
fn prepare(h: &mut Harness<'_, WorkbenchApp>, id: &str, d: Drive) {
    let secs = d.secs;
    match id {
        "querylog" => {
            click(h, "已存日志");
            wait(h, "the stored logs", 30, |h| {
                h.query_by_label_contains("#1 ").is_some()
            });
            match h.query_by_label_contains("#1 ") {
                Some(n) => n.click(),
                None => panic!("no stored log"),
            }
            h.step();
            click(h, "计算统计");
            h.step();
            wait(h, "the statistics", secs, |h| {
                h.query_by_label("取消统计").is_none() && h.query_by_label("频度频级").is_some()
            });
        }
        "cache" => {
            for p in MORE_POLICIES {
                click(h, p);
            }
            // Log-spaced sizes from 20 objects on (×1.5 each: 20 sizes reach about 44,000).
            let sizes: Vec<String> = (0..d.cache_sizes as i32)
                .map(|i| ((20.0 * 1.5f64.powi(i)).round() as u64).to_string())
                .collect();
            h.get_by_label("大小（对象数；字节用 64k/1M；或百分比）")
                .focus();
            h.step();
            h.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
            h.step();
            h.get_by_label("大小（对象数；字节用 64k/1M；或百分比）")
                .type_text(&sizes.join(","));
            h.step();
            click(h, "运行");
            h.step();
            wait(h, "the cache run", secs, |h| {
                h.query_by_label("运行中…").is_none()
            });
        }
        _ => {}
    }
}

/// How to drive the panels.
#[derive(Debug, Clone, Copy)]
pub struct Drive {
    /// Frames timed per panel or tab.
    pub frames: usize,
    /// The longest wait for background work, seconds.
    pub secs: u64,
    /// Sizes of the cache panel's run of all 17 policies.
    pub cache_sizes: usize,
}

/// Drives every panel and each of its tabs, timing `d.frames` frames of each after its work
/// landed.
pub fn drive(h: &mut Harness<'_, WorkbenchApp>, d: Drive) -> Vec<Timed> {
    PANELS
        .iter()
        .flat_map(|(id, _, _)| drive_panel(h, id, d))
        .collect()
}

/// [`drive`] for the one panel `id` (its id in `workbench::PANELS`).
pub fn drive_panel(h: &mut Harness<'_, WorkbenchApp>, id: &str, d: Drive) -> Vec<Timed> {
    let (n, secs) = (d.frames, d.secs);
    let Some((_, nav, tabs)) = PANELS.iter().find(|(p, _, _)| *p == id) else {
        panic!("no panel {id}");
    };
    let mut out = Vec::new();
    click(h, nav);
    settle(h, secs);
    prepare(h, id, d);
    settle(h, secs);
    if tabs.is_empty() {
        out.push(Timed {
            panel: id.to_string(),
            tab: String::new(),
            frames: time_frames(h, n),
        });
    }
    for tab in *tabs {
        click(h, tab);
        settle(h, secs);
        out.push(Timed {
            panel: id.to_string(),
            tab: tab.to_string(),
            frames: time_frames(h, n),
        });
    }
    out
}
