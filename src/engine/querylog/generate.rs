//! A seeded synthetic query and click log, calibrated to targets (digest Appendix E
//! [DERIVED]: an i.i.d. Zipf stream cannot reproduce the book's cache hit ratios; a mixture
//! that repeats one of the last W requests with probability ρ, else draws Zipf(s, V), does).
//!
//! The model, per request:
//! * with probability ρ_t repeat the query (and user) of one of the last `window` requests,
//!   chosen uniformly — short-range repetition (page turns, re-clicks);
//! * else draw a query from Zipf(s) over V queries (rejection-inversion sampling, Hörmann and
//!   Derflinger 1996: O(1), no table) and a user from Zipf(0.8) over the user pool;
//! * ρ_t = ρ + a·Z_t, where Z is a unit-variance sum of AR(1) processes with time scales
//!   1, 2, 4, … blocks of 100 requests and variances τ^(2H−2) — a long-range-dependent
//!   modulation whose aggregated variance falls as m^(2H−2), so the distinct-queries-per-500
//!   series the lab measures has Hurst ≈ H (H = 0.5: no modulation);
//! * a click at result page p with the target page shares (default Table 9-1's 47.3 / 12.2 /
//!   7.4 / 5.0 / 3.7 %, the remaining 24.4 % over pages 6–100 decaying geometrically), rank
//!   within the page ∝ 1/j^0.7.
//!
//! **Calibration.** V is solved (bisection on log V) so that the expected number of distinct
//! queries, Σ_i 1 − (1 − p_i)^{(1−ρ)N}, equals the target distinct/total ratio × N (the
//! repeats never add a new query). s is the popularity exponent: the lab's Zipf fit over the
//! head of the ranking (ranks 1–100) measures it back within ±0.1 (1 M lines: 0.95 for 0.97);
//! the all-rank fit is flatter (≈ 0.89–0.94), because the count-1 tail is a plateau. The
//! Hurst target sets the modulation's spectrum and amplitude; R/S on one realisation of
//! 1 M lines lands within ±0.1 of it (the estimator's own spread is ±0.05). Page shares land
//! within 0.1 point. Every output is labelled synthetic.
//!
//! ```
//! use tianwang::engine::querylog::generate::{GenConfig, generate};
//! let cfg = GenConfig { lines: 2000, ..GenConfig::default() };
//! let mut n = 0;
//! generate(&cfg, &(), &mut |r| { n += 1; assert!(r.rank >= 1); Ok(()) })?;
//! assert_eq!(n, 2000);
//! # Ok::<(), tianwang::engine::error::EngineError>(())
//! ```

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Format, book};
use crate::engine::error::{EngineError, Flaw, Result};
use crate::engine::jobs::Tick;
use crate::engine::rng::Rng;

/// Generator parameters (the targets; defaults from the book and the digest's Appendix E).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenConfig {
    pub lines: u64,
    pub seed: u64,
    /// Zipf popularity exponent s (digest App. E: 0.97).
    pub zipf: f64,
    /// Target distinct queries / requests (book: 1.6e5 / 9.6e5 = 1/6 [L3247]).
    pub distinct_ratio: f64,
    /// Vocabulary V; None: calibrated from `distinct_ratio`.
    pub vocabulary: Option<u64>,
    /// Probability ρ of repeating one of the last `window` requests (App. E: 0.55, W = 10).
    pub repeat: f64,
    pub window: usize,
    /// Hurst target of the distinct-per-500 series (book: 0.67 [L3393]).
    pub hurst: f64,
    /// Click shares (%) of result pages 1, 2, …; the rest goes to the following pages up to
    /// 100, decaying geometrically (book Table 9-1 [L3306]).
    pub page_shares_pct: Vec<f64>,
    /// Users in the pool; None: lines / 8.
    pub users: Option<u64>,
    /// sogouq, tianwang-query or tianwang-click.
    pub format: Format,
    /// "utf-8" or "gb18030".
    pub encoding: String,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            lines: 100_000,
            seed: 1,
            zipf: 0.97,
            distinct_ratio: book::DISTINCT / book::REQUESTS,
            vocabulary: None,
            repeat: 0.55,
            window: 10,
            hurst: book::HURST,
            page_shares_pct: book::PAGE_SHARES_PCT.to_vec(),
            users: None,
            format: Format::Sogouq,
            encoding: "utf-8".into(),
        }
    }
}

impl GenConfig {
    pub(crate) fn validate(&self) -> Result<()> {
        let bad = |n: &str, m: &str| Err(EngineError::invalid(n, m.to_string()));
        if self.lines == 0 || self.lines > 2_000_000_000 {
            return bad("--lines", "must be in 1..=2,000,000,000");
        }
        if !(self.zipf > 0.1 && self.zipf <= 3.0) {
            return bad("--zipf", "must be in (0.1, 3]");
        }
        if !(self.distinct_ratio > 0.0 && self.distinct_ratio < 1.0) {
            return bad("--distinct-ratio", "must be in (0, 1)");
        }
        // --repeat alone first: a --repeat of 1.5 is its own fault, not --distinct-ratio's.
        if !(0.0..=0.95).contains(&self.repeat) {
            return bad("--repeat", "must be in [0, 0.95]");
        }
        if self.distinct_ratio > 1.0 - self.repeat {
            return bad(
                "--distinct-ratio",
                "cannot exceed 1 − repeat: repeated requests never bring a new query",
            );
        }
        if self.window == 0 || self.window > 100_000 {
            return bad("--window", "must be in 1..=100000");
        }
        if !(0.5..=0.95).contains(&self.hurst) {
            return bad("--hurst", "must be in [0.5, 0.95]");
        }
        let sum: f64 = self.page_shares_pct.iter().sum();
        if self.page_shares_pct.is_empty()
            || self.page_shares_pct.len() > 100
            || self.page_shares_pct.iter().any(|p| p.is_nan() || *p < 0.0)
            || sum > 100.0 + 1e-9
        {
            return bad(
                "--page-shares",
                "1 to 100 non-negative percentages summing to at most 100",
            );
        }
        if self.vocabulary == Some(0) {
            return bad("--vocabulary", "must be positive");
        }
        if self.users == Some(0) {
            return bad("--users", "must be positive");
        }
        if !matches!(
            self.format,
            Format::Sogouq | Format::TianwangQuery | Format::TianwangClick
        ) {
            return bad("--format", "sogouq, tianwang-query or tianwang-click");
        }
        if !matches!(self.encoding.as_str(), "utf-8" | "gb18030") {
            return bad("--encoding", "utf-8 or gb18030");
        }
        Ok(())
    }
}

/// Zipf(s) over 1..=n by rejection-inversion (Hörmann and Derflinger 1996).
#[derive(Debug, Clone)]
pub(crate) struct Zipf {
    s: f64,
    n: f64,
    h_x1: f64,
    h_n: f64,
    sv: f64,
}

fn helper1(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
    }
}

fn helper2(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + 0.25 * x))
    }
}

impl Zipf {
    pub fn new(n: u64, s: f64) -> Zipf {
        let mut z = Zipf {
            s,
            n: n as f64,
            h_x1: 0.0,
            h_n: 0.0,
            sv: 0.0,
        };
        z.h_x1 = z.h_integral(1.5) - 1.0;
        z.h_n = z.h_integral(n as f64 + 0.5);
        z.sv = 2.0 - z.h_integral_inv(z.h_integral(2.5) - z.h(2.0));
        z
    }

    fn h(&self, x: f64) -> f64 {
        (-self.s * x.ln()).exp()
    }

    fn h_integral(&self, x: f64) -> f64 {
        let lx = x.ln();
        helper2((1.0 - self.s) * lx) * lx
    }

    fn h_integral_inv(&self, x: f64) -> f64 {
        let t = (x * (1.0 - self.s)).max(-1.0);
        (helper1(t) * x).exp()
    }

    /// A rank in 1..=n.
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        loop {
            let u01 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let u = self.h_n + u01 * (self.h_x1 - self.h_n);
            let x = self.h_integral_inv(u);
            let k = (x + 0.5).floor().clamp(1.0, self.n);
            if k - x <= self.sv || u >= self.h_integral(k + 0.5) - self.h(k) {
                return k as u64;
            }
        }
    }
}

/// Expected distinct items among `draws` i.i.d. Zipf(s, v) draws (exact to rank 20,000,
/// geometric buckets of 0.2 % beyond).
pub(crate) fn expected_distinct(v: u64, s: f64, draws: f64) -> f64 {
    let mut terms: Vec<(f64, f64)> = Vec::new(); // (weight i^-s, multiplicity)
    let exact = v.min(20_000);
    for i in 1..=exact {
        terms.push(((i as f64).powf(-s), 1.0));
    }
    let mut a = exact as f64 + 1.0;
    while a <= v as f64 {
        let b = (a * 1.002).ceil().min(v as f64 + 1.0).max(a + 1.0);
        let mid = ((a + b - 1.0) / 2.0).max(a);
        terms.push((mid.powf(-s), b - a));
        a = b;
    }
    let h: f64 = terms.iter().map(|(w, k)| w * k).sum();
    terms
        .iter()
        .map(|(w, k)| k * (1.0 - (-draws * w / h).exp()))
        .sum()
}

/// V such that the expected distinct count of the fresh draws meets the target.
pub(crate) fn calibrate_vocabulary(cfg: &GenConfig) -> Result<u64> {
    let n = cfg.lines as f64;
    let target = cfg.distinct_ratio * n;
    let draws = (1.0 - cfg.repeat) * n;
    let hi_max: u64 = 4_000_000_000;
    if expected_distinct(hi_max, cfg.zipf, draws) < target {
        return Err(EngineError::invalid(
            "--distinct-ratio",
            format!(
                "not reachable with zipf {} and repeat {}: even V = 4e9 gives {:.4}",
                cfg.zipf,
                cfg.repeat,
                expected_distinct(hi_max, cfg.zipf, draws) / n
            ),
        ));
    }
    let (mut lo, mut hi) = ((target.max(1.0)).ln(), (hi_max as f64).ln());
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if expected_distinct(mid.exp() as u64, cfg.zipf, draws) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(hi.exp().round().max(1.0) as u64)
}

/// One generated request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GenRecord {
    /// Seconds of the day.
    pub time: u32,
    pub user: u64,
    /// Query id, 1-based popularity rank.
    pub query: u64,
    pub page: u32,
    pub rank: u32,
    pub order: u32,
}

/// A unit-variance long-range-dependent series (sum of AR(1)s, see the module doc).
pub(crate) struct LrdNoise {
    phi: Vec<f64>,
    sd: Vec<f64>,
    state: Vec<f64>,
}

impl LrdNoise {
    pub(crate) fn new(h: f64, blocks: u64, rng: &mut Rng) -> LrdNoise {
        let mut phi = Vec::new();
        let mut var = Vec::new();
        let mut tau = 1.0f64;
        while tau <= (blocks as f64).max(2.0) * 2.0 {
            phi.push((-1.0 / tau).exp());
            var.push(tau.powf(2.0 * h - 2.0));
            tau *= 2.0;
        }
        let total: f64 = var.iter().sum();
        let sd: Vec<f64> = var.iter().map(|v| (v / total).sqrt()).collect();
        let state = sd.iter().map(|s| s * normal(rng)).collect();
        LrdNoise { phi, sd, state }
    }

    pub(crate) fn next(&mut self, rng: &mut Rng) -> f64 {
        let mut z = 0.0;
        for k in 0..self.phi.len() {
            let p = self.phi[k];
            self.state[k] = p * self.state[k] + self.sd[k] * (1.0 - p * p).sqrt() * normal(rng);
            z += self.state[k];
        }
        z
    }
}

fn normal(rng: &mut Rng) -> f64 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

fn uniform(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Block of the ρ modulation, requests.
const BLOCK: u64 = 100;
/// Amplitude of the ρ modulation per unit of (H − 0.5): tuned so that the lab's R/S on the
/// distinct-per-500 series lands near the target.
const AMPLITUDE: f64 = 0.5;

/// The cumulative page distribution: targets, then a geometric tail to page 100.
fn page_cdf(shares_pct: &[f64]) -> Vec<f64> {
    let mut w: Vec<f64> = shares_pct.iter().map(|p| p / 100.0).collect();
    let rest = (1.0 - w.iter().sum::<f64>()).max(0.0);
    let tail_pages = 100usize.saturating_sub(w.len());
    if tail_pages > 0 && rest > 0.0 {
        let r: f64 = 0.8;
        let norm: f64 = (0..tail_pages).map(|k| r.powi(k as i32)).sum();
        for k in 0..tail_pages {
            w.push(rest * r.powi(k as i32) / norm);
        }
    }
    let total: f64 = w.iter().sum();
    let mut acc = 0.0;
    w.iter()
        .map(|x| {
            acc += x / total;
            acc
        })
        .collect()
}

/// Cumulative request rate over the 1,440 minutes of a day (low at 04:00, high at 21:00).
fn day_cdf() -> Vec<f64> {
    let rate: Vec<f64> = (0..1440)
        .map(|m| {
            let h = m as f64 / 60.0;
            1.0 + 0.85 * ((h - 15.0) / 24.0 * 2.0 * std::f64::consts::PI).sin()
        })
        .collect();
    let total: f64 = rate.iter().sum();
    let mut acc = 0.0;
    rate.iter()
        .map(|r| {
            acc += r / total;
            acc
        })
        .collect()
}

/// Generates `cfg.lines` requests into `sink`, in time order.
pub fn generate(
    cfg: &GenConfig,
    tick: &dyn Tick,
    sink: &mut dyn FnMut(&GenRecord) -> Result<()>,
) -> Result<()> {
    cfg.validate()?;
    let v = match cfg.vocabulary {
        Some(v) => v,
        None => calibrate_vocabulary(cfg)?,
    };
    let mut rng = Rng::new(cfg.seed ^ 0x5147_4C4F_4731);
    let queries = Zipf::new(v, cfg.zipf);
    let users = Zipf::new(cfg.users.unwrap_or((cfg.lines / 8).max(1)), 0.8);
    let pages = page_cdf(&cfg.page_shares_pct);
    let in_page: Vec<f64> = {
        let w: Vec<f64> = (1..=10).map(|j| (j as f64).powf(-0.7)).collect();
        let t: f64 = w.iter().sum();
        let mut a = 0.0;
        w.iter()
            .map(|x| {
                a += x / t;
                a
            })
            .collect()
    };
    let day = day_cdf();
    let blocks = cfg.lines.div_ceil(BLOCK);
    let mut noise = LrdNoise::new(cfg.hurst, blocks, &mut rng);
    let amp = AMPLITUDE * (cfg.hurst - 0.5);
    let mut recent: Vec<(u64, u64)> = Vec::with_capacity(cfg.window);
    let mut rho = cfg.repeat;
    let mut clicks_of: std::collections::HashMap<(u64, u64), u32> = Default::default();
    for i in 0..cfg.lines {
        if i.is_multiple_of(BLOCK) {
            rho = (cfg.repeat + amp * noise.next(&mut rng)).clamp(0.0, 0.95);
            if clicks_of.len() > 1 << 16 {
                clicks_of.clear();
            }
        }
        if i.is_multiple_of(65_536) {
            tick.tick(i as f32 / cfg.lines as f32, "generating")?;
        }
        let (query, user) = if !recent.is_empty() && uniform(&mut rng) < rho {
            recent[rng.below(recent.len())]
        } else {
            (queries.sample(&mut rng), users.sample(&mut rng))
        };
        if recent.len() < cfg.window {
            recent.push((query, user));
        } else {
            recent[(i as usize) % cfg.window] = (query, user);
        }
        let u = uniform(&mut rng);
        let page = pages.partition_point(|c| *c < u).min(pages.len() - 1) as u32 + 1;
        let u = uniform(&mut rng);
        let j = in_page.partition_point(|c| *c < u).min(9) as u32 + 1;
        let order = clicks_of.entry((user, query)).or_insert(0);
        *order += 1;
        let f = (i as f64 + 0.5) / cfg.lines as f64;
        let minute = day.partition_point(|c| *c < f).min(1439);
        let lo = if minute == 0 { 0.0 } else { day[minute - 1] };
        let within = ((f - lo) / (day[minute] - lo)).clamp(0.0, 0.9999);
        let time = minute as u32 * 60 + (within * 60.0) as u32;
        sink(&GenRecord {
            time,
            user,
            query,
            page,
            rank: (page - 1) * 10 + j,
            order: *order,
        })?;
    }
    tick.tick(1.0, "generated")?;
    Ok(())
}

/// 100 common two-character words: a query id is written as its base-100 digits in words
/// (fixed-width, so distinct ids give distinct strings; popular ids are short).
const WORDS: [&str; 100] = [
    "天网", "北京", "大学", "电影", "音乐", "下载", "游戏", "小说", "手机", "图片", "新闻", "免费",
    "中国", "上海", "汽车", "软件", "视频", "在线", "地图", "天气", "招聘", "房产", "股票", "医院",
    "银行", "考试", "英语", "教育", "公司", "工作", "购物", "女装", "旅游", "明星", "美食", "菜谱",
    "健康", "减肥", "论坛", "博客", "网站", "邮箱", "搜索", "引擎", "技术", "原理", "系统", "程序",
    "设计", "学习", "资料", "大全", "排行", "价格", "报价", "评测", "攻略", "影视", "歌词", "歌曲",
    "动画", "漫画", "足球", "篮球", "体育", "比赛", "直播", "电视", "节目", "新浪", "网易", "搜狐",
    "百度", "腾讯", "淘宝", "京东", "深圳", "广州", "杭州", "南京", "武汉", "成都", "西安", "重庆",
    "天津", "历史", "文化", "艺术", "科学", "数学", "物理", "化学", "生物", "医学", "法律", "经济",
    "管理", "金融", "保险", "证券",
];

/// The text of query id `id` (1-based).
pub(crate) fn query_text(id: u64) -> String {
    let mut x = id - 1;
    let mut s = String::new();
    loop {
        s.push_str(WORDS[(x % 100) as usize]);
        x /= 100;
        if x == 0 {
            break;
        }
        x -= 1; // bijective base 100: every digit string is used once
    }
    s
}

fn user_text(user: u64, seed: u64, format: Format) -> String {
    let h = super::hash64(&format!("{seed}:{user}"));
    if format == Format::Sogouq {
        format!("{h:016x}")
    } else {
        format!(
            "{}.{}.{}.{}",
            10 + (h >> 56) % 200,
            (h >> 48) & 0xFF,
            (h >> 40) & 0xFF,
            1 + (h >> 32) % 254
        )
    }
}

/// The URL at `rank` for `query`: half the results are shared by every query of the same
/// topic (its first word), so per-query click vectors differ from the global one (§9.7).
fn url_text(query: u64, rank: u32) -> String {
    let h = super::hash64(&format!("{query}/{rank}"));
    if h.is_multiple_of(2) {
        format!("www.topic{}.com/{rank}.html", (query - 1) % 100)
    } else {
        format!("www.site{}.com/{:x}/{rank}.html", h % 5000, h >> 40)
    }
}

/// One record as a line of `format` (no newline).
pub(crate) fn format_line(r: &GenRecord, seed: u64, format: Format) -> String {
    let (h, m, s) = (r.time / 3600, r.time / 60 % 60, r.time % 60);
    let q = query_text(r.query);
    let user = user_text(r.user, seed, format);
    match format {
        Format::TianwangQuery => format!(
            "Fri Mar 21 {h:02}:{m:02}:{s:02} 2003\t{user}\t{}\t{q}\t{}",
            if r.page == 1 { "Database" } else { "Cache" },
            r.page
        ),
        Format::TianwangClick => format!(
            "Fri Mar 21 {h:02}:{m:02}:{s:02} 2003\t{user}\t{q}\thttp://{}\t{}",
            url_text(r.query, r.rank),
            r.rank
        ),
        _ => format!(
            "{h:02}:{m:02}:{s:02}\t{user}\t[{q}]\t{} {}\t{}",
            r.rank,
            r.order,
            url_text(r.query, r.rank)
        ),
    }
}

/// Writes the log to `out` in the configured format and encoding; `dest` names `out` in
/// errors (a full disk or an unwritable file is the user's to fix).
pub(crate) fn write_log(
    cfg: &GenConfig,
    out: &mut dyn Write,
    dest: &Path,
    tick: &dyn Tick,
) -> Result<u64> {
    let gb = cfg.encoding == "gb18030";
    let mut n = 0u64;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, out);
    let io = |e: std::io::Error| {
        EngineError::path_flaw(dest, Flaw::with_detail("flaw.log_unwritable", &[], e))
    };
    generate(cfg, tick, &mut |r| {
        let mut line = format_line(r, cfg.seed, cfg.format);
        line.push('\n');
        if gb {
            let (b, _, _) = encoding_rs::GB18030.encode(&line);
            w.write_all(&b).map_err(io)?;
        } else {
            w.write_all(line.as_bytes()).map_err(io)?;
        }
        n += 1;
        Ok(())
    })?;
    w.flush().map_err(io)?;
    Ok(n)
}

/// Writes the log to `path` whole or not at all (a temporary file renamed at the end).
pub fn write_file(cfg: &GenConfig, path: &Path, tick: &dyn Tick) -> Result<u64> {
    cfg.validate()?;
    let tmp = path.with_extension("tmp-generating");
    let bad = |e: std::io::Error| EngineError::path_os(path.to_path_buf(), e);
    let mut f = std::fs::File::create(&tmp).map_err(bad)?;
    let r = write_log(cfg, &mut f, path, tick).and_then(|n| {
        f.sync_all().map_err(bad)?;
        Ok(n)
    });
    match r {
        Ok(n) => {
            std::fs::rename(&tmp, path).map_err(bad)?;
            Ok(n)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}
