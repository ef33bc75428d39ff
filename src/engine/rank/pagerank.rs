//! PageRank by power iteration over the CSR graph, with the book's form and the normalised
//! form, two dangling-node policies and optional personalisation.
//!
//! The book's formula [L3620]: `W_j = (1-d) + d · Σ_{i→j} W_i / n_i`, applied recursively
//! from "suitable initial values" [L3622]. The digest flags what the book leaves open
//! (§10.2.1 table): `d` is not given (default 0.85, Brin & Page), nor the stopping rule
//! (L1 change; default here 1e-10 so the result is within 1e-6 of networkx), nor dangling pages.
//!
//! - [`Form::Normalised`] (default): teleport `(1-d)/N`, start `1/N`, scores sum to 1 — the
//!   networkx / Google-matrix form. [`Form::Book`]: teleport `(1-d)`, start 1, scores sum to N.
//! - [`Dangling::Uniform`] (default, networkx's): the mass of pages without out-links is
//!   spread over all pages (by the personalisation vector when one is given).
//!   [`Dangling::Ignore`] (the book's formula taken literally): that mass is lost each step,
//!   so the scores sum to less than 1 (or N); the result reports the sum.
//!
//! Self-loops count as out-links (networkx does the same); the book's sum excludes `i = j`.
//!
//! ```
//! use tianwang::engine::rank::{graph::parse_graph, pagerank::{pagerank, PageRankConfig}};
//! let g = parse_graph("a b\nb c\nc a\n", "cycle").unwrap();
//! let r = pagerank(&g, &PageRankConfig::default(), &(), &mut ()).unwrap();
//! assert!(r.scores.iter().all(|s| (s - 1.0 / 3.0).abs() < 1e-12));
//! ```

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::IterationObserver;
use super::graph::Graph;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

/// Where the rank of a page without out-links goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Dangling {
    /// Spread over all pages (by the personalisation vector if any) — networkx's default.
    #[default]
    Uniform,
    /// Dropped, as the book's formula does literally: the total decays below 1 (or N).
    Ignore,
}

/// Scale of the scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// `(1-d)/N` teleport, start 1/N, sum 1.
    #[default]
    Normalised,
    /// The book's `(1-d)` teleport [L3620], start 1, sum N.
    Book,
}

/// Validated PageRank parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageRankConfig {
    pub damping: f64,
    pub dangling: Dangling,
    pub form: Form,
    /// Stop when the L1 change of one iteration is below this (in the normalised scale).
    pub tol: f64,
    pub max_iter: usize,
    /// Personalisation (teleport) weights per dense node, normalised to sum 1; None = uniform.
    pub personalization: Option<Vec<f64>>,
}

impl Default for PageRankConfig {
    fn default() -> Self {
        PageRankConfig {
            damping: 0.85,
            dangling: Dangling::Uniform,
            form: Form::Normalised,
            tol: 1e-10,
            max_iter: 1000,
            personalization: None,
        }
    }
}

impl PageRankConfig {
    /// Range-checks raw parameters; errors name the CLI flag.
    pub fn new(
        damping: f64,
        dangling: Dangling,
        form: Form,
        tol: f64,
        max_iter: usize,
    ) -> Result<Self> {
        if !(0.0..1.0).contains(&damping) {
            return Err(EngineError::invalid(
                "--damping",
                format!("{damping} must be in [0, 1)"),
            ));
        }
        if !(tol.is_finite() && tol > 0.0) {
            return Err(EngineError::invalid(
                "--tol",
                format!("{tol} must be a positive number"),
            ));
        }
        if max_iter == 0 {
            return Err(EngineError::invalid("--max-iter", "must be at least 1"));
        }
        Ok(PageRankConfig {
            damping,
            dangling,
            form,
            tol,
            max_iter,
            personalization: None,
        })
    }

    /// Sets teleport weights (one per dense node; non-negative, not all zero).
    pub fn with_personalization(mut self, weights: Vec<f64>) -> Result<Self> {
        let sum: f64 = weights.iter().sum();
        if weights.iter().any(|w| !w.is_finite() || *w < 0.0) || sum <= 0.0 {
            return Err(EngineError::invalid(
                "--personalize",
                "weights must be non-negative with a positive sum",
            ));
        }
        self.personalization = Some(weights.into_iter().map(|w| w / sum).collect());
        Ok(self)
    }
}

/// The outcome, with the per-iteration L1 change for a convergence plot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PageRankResult {
    pub config: PageRankConfig,
    pub nodes: usize,
    pub edges: usize,
    pub dangling_nodes: usize,
    pub iterations: usize,
    pub converged: bool,
    /// L1 change of each iteration (normalised scale).
    pub history: Vec<f64>,
    /// Sum of the scores (1 or N, less with `Dangling::Ignore`).
    pub sum: f64,
    /// Score per dense node, in the chosen form's scale.
    pub scores: Vec<f64>,
}

/// Why a page has its score: teleport share, dangling share and each in-link's share.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PageRankExplain {
    pub node: String,
    pub score: f64,
    pub in_degree: usize,
    pub out_degree: usize,
    /// `(1-d)·t_v` (times N in the book form).
    pub teleport: f64,
    /// `d · dangling mass · t_v` (0 with `Dangling::Ignore`).
    pub from_dangling: f64,
    /// `d · Σ_{i→v} x_i / n_i`.
    pub from_links: f64,
    /// Top in-links: (node, its score / its out-degree × d).
    pub top_in_links: Vec<(String, f64)>,
}

/// Power iteration (pull form over the reverse adjacency; rayon over nodes above 50k nodes).
pub fn pagerank(
    g: &Graph,
    cfg: &PageRankConfig,
    tick: &dyn Tick,
    observer: &mut dyn IterationObserver,
) -> Result<PageRankResult> {
    let n = g.node_count();
    let mut res = PageRankResult::start(g, cfg);
    if n == 0 {
        return Ok(res);
    }
    check_personalization(cfg, n)?;
    let d = cfg.damping;
    let uniform = 1.0 / n as f64;
    let tele = |v: usize| -> f64 { teleport(cfg, n, v) };
    let outdeg: Vec<f64> = (0..n).map(|v| g.out_degree(v) as f64).collect();
    let dangling: Vec<usize> = (0..n).filter(|&v| g.out_degree(v) == 0).collect();
    let parallel = n >= 50_000;
    let mut x: Vec<f64> = vec![uniform; n];
    let mut contrib = vec![0.0f64; n];
    let mut next = vec![0.0f64; n];
    res.converged = false;
    let mut last_tick = std::time::Instant::now();
    for it in 1..=cfg.max_iter {
        let dangling_mass: f64 = match cfg.dangling {
            Dangling::Uniform => dangling.iter().map(|&v| x[v]).sum(),
            Dangling::Ignore => 0.0,
        };
        let fill_contrib = |(c, (xi, od)): (&mut f64, (&f64, &f64))| {
            *c = if *od > 0.0 { xi / od } else { 0.0 };
        };
        if parallel {
            contrib
                .par_iter_mut()
                .zip(x.par_iter().zip(outdeg.par_iter()))
                .for_each(fill_contrib);
        } else {
            contrib
                .iter_mut()
                .zip(x.iter().zip(outdeg.iter()))
                .for_each(fill_contrib);
        }
        let compute = |(j, out): (usize, &mut f64)| {
            let s: f64 = g
                .in_neighbors(j)
                .iter()
                .fold(0.0, |acc, &i| acc + contrib[i as usize]);
            let t = tele(j);
            *out = (1.0 - d) * t + d * dangling_mass * t + d * s;
        };
        if parallel {
            next.par_iter_mut().enumerate().for_each(compute);
        } else {
            next.iter_mut().enumerate().for_each(compute);
        }
        let delta: f64 = if parallel {
            next.par_iter()
                .zip(x.par_iter())
                .map(|(a, b)| (a - b).abs())
                .sum()
        } else {
            next.iter().zip(x.iter()).map(|(a, b)| (a - b).abs()).sum()
        };
        std::mem::swap(&mut x, &mut next);
        res.history.push(delta);
        res.iterations = it;
        observer.on_iteration(it, &x, delta);
        if it == 1 || last_tick.elapsed().as_millis() >= 50 {
            tick.tick(
                it as f32 / cfg.max_iter as f32,
                &format!("iteration {it}, L1 change {delta:.3e}"),
            )?;
            last_tick = std::time::Instant::now();
        }
        if !delta.is_finite() {
            return Err(EngineError::Internal(format!(
                "PageRank diverged at iteration {it}"
            )));
        }
        if delta < cfg.tol {
            res.converged = true;
            break;
        }
    }
    Ok(finish(res, x))
}

/// A personalisation vector must have one weight per node.
pub(crate) fn check_personalization(cfg: &PageRankConfig, n: usize) -> Result<()> {
    if let Some(p) = &cfg.personalization
        && p.len() != n
    {
        return Err(EngineError::invalid(
            "--personalize",
            format!("{} weights for {n} nodes", p.len()),
        ));
    }
    Ok(())
}

/// Node `v`'s teleport weight `t_v` (normalised scale): its personalisation weight, else 1/N.
pub fn teleport(cfg: &PageRankConfig, n: usize, v: usize) -> f64 {
    let uniform = 1.0 / n as f64;
    cfg.personalization
        .as_ref()
        .map_or(uniform, |p| p.get(v).copied().unwrap_or(0.0))
}

/// The result from the last normalised-scale vector `x`: the form's scale applied and the sum
/// taken (the native iteration and the big-job plans share this).
pub fn finish(mut res: PageRankResult, mut x: Vec<f64>) -> PageRankResult {
    if res.config.form == Form::Book {
        let scale = x.len() as f64;
        x.iter_mut().for_each(|v| *v *= scale);
    }
    res.sum = x.iter().sum();
    res.scores = x;
    res
}

impl PageRankResult {
    /// The result before any iteration: the graph's sizes, no scores (an empty graph's
    /// result).
    pub fn start(g: &Graph, cfg: &PageRankConfig) -> PageRankResult {
        PageRankResult {
            config: cfg.clone(),
            nodes: g.node_count(),
            edges: g.edge_count(),
            dangling_nodes: g.stats.dangling,
            iterations: 0,
            converged: true,
            history: Vec::new(),
            sum: 0.0,
            scores: Vec::new(),
        }
    }

    /// Dense node ids sorted by score descending (ties by dense id), first `top` of them.
    pub fn ranking(&self, top: Option<usize>) -> Vec<usize> {
        rank_desc(&self.scores, top)
    }

    /// Breaks one node's score into its teleport, dangling and in-link shares.
    pub fn explain(&self, g: &Graph, v: usize, top_links: usize) -> Option<PageRankExplain> {
        self.explain_many(g, &[v], top_links).pop()
    }

    /// [`Self::explain`] for several nodes (the dangling mass is summed once); nodes out of
    /// range are skipped.
    pub(crate) fn explain_many(
        &self,
        g: &Graph,
        nodes: &[usize],
        top_links: usize,
    ) -> Vec<PageRankExplain> {
        let n = self.nodes;
        if self.scores.len() != n || g.node_count() != n {
            return Vec::new();
        }
        let d = self.config.damping;
        let scale = if self.config.form == Form::Book {
            n as f64
        } else {
            1.0
        };
        let dangling_mass: f64 = match self.config.dangling {
            Dangling::Uniform => (0..n)
                .filter(|&u| g.out_degree(u) == 0)
                .map(|u| self.scores[u] / scale)
                .sum(),
            Dangling::Ignore => 0.0,
        };
        nodes
            .iter()
            .filter(|&&v| v < n)
            .map(|&v| {
                let t = self
                    .config
                    .personalization
                    .as_ref()
                    .map_or(1.0 / n as f64, |p| p.get(v).copied().unwrap_or(0.0));
                let mut links: Vec<(String, f64)> = g
                    .in_neighbors(v)
                    .iter()
                    .map(|&i| {
                        let i = i as usize;
                        (
                            g.id(i).to_string(),
                            d * self.scores[i] / g.out_degree(i).max(1) as f64,
                        )
                    })
                    .collect();
                let from_links = links.iter().fold(0.0, |acc, l| acc + l.1);
                links.sort_by(|a, b| b.1.total_cmp(&a.1));
                links.truncate(top_links);
                PageRankExplain {
                    node: g.id(v).to_string(),
                    score: self.scores[v],
                    in_degree: g.in_degree(v),
                    out_degree: g.out_degree(v),
                    teleport: (1.0 - d) * t * scale,
                    from_dangling: d * dangling_mass * t * scale,
                    from_links,
                    top_in_links: links,
                }
            })
            .collect()
    }
}

/// Indices sorted by value descending, ties by index ascending.
pub(crate) fn rank_desc(v: &[f64], top: Option<usize>) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[b].total_cmp(&v[a]).then(a.cmp(&b)));
    if let Some(k) = top {
        idx.truncate(k);
    }
    idx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rank::graph::parse_graph;

    fn run(text: &str, cfg: &PageRankConfig) -> PageRankResult {
        pagerank(&parse_graph(text, "t").unwrap(), cfg, &(), &mut ()).unwrap()
    }

    #[test]
    fn three_cycle_is_uniform_in_both_forms() {
        let r = run("1 2\n2 3\n3 1\n", &PageRankConfig::default());
        assert!(r.converged);
        for s in &r.scores {
            assert!((s - 1.0 / 3.0).abs() < 1e-12);
        }
        let book = PageRankConfig {
            form: Form::Book,
            ..PageRankConfig::default()
        };
        let r = run("1 2\n2 3\n3 1\n", &book);
        assert!((r.sum - 3.0).abs() < 1e-9);
        assert!(r.scores.iter().all(|s| (s - 1.0).abs() < 1e-9));
    }

    #[test]
    fn two_nodes_with_a_dangling_one() {
        // a -> b, b dangling. Uniform: x_a = 0.15/2 + 0.85*x_b/2, x_b = x_a + x_a*... solve:
        // x_a = (1-d)/2 + d*x_b/2 ; x_b = (1-d)/2 + d*x_b/2 + d*x_a ; x_a + x_b = 1.
        // => x_a = 1/(2+d) ... check: x_b = 1 - x_a; x_a = 0.075 + 0.425(1 - x_a)
        // => 1.425 x_a = 0.5 => x_a = 0.350877..., x_b = 0.649122...
        let r = run("a b\n", &PageRankConfig::default());
        assert!((r.scores[0] - 0.5 / 1.425).abs() < 1e-10, "{:?}", r.scores);
        assert!((r.scores[1] - (1.0 - 0.5 / 1.425)).abs() < 1e-10);
        assert!((r.sum - 1.0).abs() < 1e-12);
        // Ignore (book's literal formula, normalised form): x_a = 0.075, x_b = 0.075 + 0.85*0.075.
        let ign = PageRankConfig {
            dangling: Dangling::Ignore,
            ..PageRankConfig::default()
        };
        let r = run("a b\n", &ign);
        assert!((r.scores[0] - 0.075).abs() < 1e-12);
        assert!((r.scores[1] - (0.075 + 0.85 * 0.075)).abs() < 1e-12);
        assert!(r.sum < 1.0);
        // Book form, ignore: W_a = 0.15, W_b = 0.15 + 0.85*0.15 = 0.2775.
        let book = PageRankConfig {
            form: Form::Book,
            ..ign
        };
        let r = run("a b\n", &book);
        assert!((r.scores[0] - 0.15).abs() < 1e-12);
        assert!((r.scores[1] - 0.2775).abs() < 1e-12);
    }

    #[test]
    fn star_hand_computed_and_explained() {
        // b, c, d -> a; a -> b. x_c = x_d = (1-d)/4 = 0.0375.
        // x_a = 0.0375 + 0.85 (x_b + 0.075); x_b = 0.0375 + 0.85 x_a.
        // => x_a = 0.0375 + 0.85*0.0375 + 0.7225 x_a + 0.06375 => x_a = 0.133125/0.2775.
        let g = parse_graph("b a\nc a\nd a\na b\n", "t").unwrap();
        let r = pagerank(&g, &PageRankConfig::default(), &(), &mut ()).unwrap();
        let a = g.find("a").unwrap();
        assert!((r.scores[a] - 0.133125 / 0.2775).abs() < 1e-10);
        assert!((r.sum - 1.0).abs() < 1e-12);
        assert_eq!(r.ranking(Some(1)), vec![a]);
        let e = r.explain(&g, a, 2).unwrap();
        assert!((e.teleport + e.from_dangling + e.from_links - e.score).abs() < 1e-9);
        assert_eq!(e.top_in_links[0].0, "b");
        // history is non-increasing at the end and below tol
        assert!(*r.history.last().unwrap() < 1e-10);
    }

    #[test]
    fn personalisation_teleports_only_to_chosen_nodes() {
        let g = parse_graph("a b\nb a\nc a\n", "t").unwrap();
        let cfg = PageRankConfig::default()
            .with_personalization(vec![1.0, 0.0, 0.0])
            .unwrap();
        let r = pagerank(&g, &cfg, &(), &mut ()).unwrap();
        assert!(r.scores[2].abs() < 1e-12);
        assert!((r.sum - 1.0).abs() < 1e-12);
        assert!(
            PageRankConfig::default()
                .with_personalization(vec![0.0])
                .is_err()
        );
    }

    #[test]
    fn config_rejects_bad_values_naming_the_flag() {
        let e =
            PageRankConfig::new(1.0, Dangling::Uniform, Form::Normalised, 1e-10, 10).unwrap_err();
        assert!(e.to_string().contains("--damping"));
        let e = PageRankConfig::new(0.85, Dangling::Uniform, Form::Normalised, f64::NAN, 10)
            .unwrap_err();
        assert!(e.to_string().contains("--tol"));
    }

    #[test]
    fn tick_error_cancels() {
        struct Cancel;
        impl Tick for Cancel {
            fn tick(&self, _f: f32, _m: &str) -> Result<()> {
                Err(EngineError::Cancelled)
            }
        }
        let g = parse_graph("a b\nb a\n", "t").unwrap();
        let e = pagerank(&g, &PageRankConfig::default(), &Cancel, &mut ()).unwrap_err();
        assert!(matches!(e, EngineError::Cancelled));
    }

    #[test]
    fn observer_sees_every_iteration() {
        struct Count(usize, f64);
        impl IterationObserver for Count {
            fn on_iteration(&mut self, _it: usize, s: &[f64], _d: f64) {
                self.0 += 1;
                self.1 = s.iter().sum();
            }
        }
        let g = parse_graph("a b\nb c\nc a\nc b\n", "t").unwrap();
        let mut c = Count(0, 0.0);
        let r = pagerank(&g, &PageRankConfig::default(), &(), &mut c).unwrap();
        assert_eq!(c.0, r.iterations);
        assert!((c.1 - 1.0).abs() < 1e-12);
    }
}
