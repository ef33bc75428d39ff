//! HITS (Kleinberg's hubs and authorities, IBM Clever) by power iteration.
//!
//! The book [L3633–L3635] prints both sums over `q → p`; the digest marks that as a typo
//! (§10.2.2): authority `x_p = Σ_{q→p} y_q`, hub `y_p = Σ_{p→q} x_q`, i.e. `x = Aᵀy`,
//! `y = Ax` [L3637–L3643], principal eigenvectors of `AᵀA` and `AAᵀ`. The book gives no
//! normalisation (values diverge without one) nor a stopping rule; here each step divides
//! both vectors by their L2 norm and stops when the L1 change of hub + authority (in that L2
//! scale) falls below `tol`. The reported vectors are normalised to **sum 1**, as networkx's
//! `hits(normalized=True)` does (it computes the top singular vectors with scipy's `svds`;
//! hubs = `A·a`), so values compare directly with `references/hollins_reference.json`;
//! [`HitsNorm::L2`] keeps the unit-length scale instead.
//!
//! ```
//! use tianwang::engine::rank::{graph::parse_graph, hits::{hits, HitsConfig}};
//! let g = parse_graph("h1 a1\nh1 a2\nh2 a1\n", "bip").unwrap();
//! let r = hits(&g, &HitsConfig::default(), &(), &mut ()).unwrap();
//! assert!(r.authority[g.find("a1").unwrap()] > r.authority[g.find("a2").unwrap()]);
//! ```

use serde::{Deserialize, Serialize};

use super::IterationObserver;
use super::graph::Graph;
use super::pagerank::rank_desc;
use crate::engine::error::{EngineError, Result};
use crate::engine::jobs::Tick;

/// Scale of the reported hub and authority vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum HitsNorm {
    /// Each vector sums to 1 (networkx).
    #[default]
    Sum,
    /// Each vector has unit L2 length (the digest's pseudo-code).
    L2,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HitsConfig {
    pub tol: f64,
    pub max_iter: usize,
    pub norm: HitsNorm,
}

impl Default for HitsConfig {
    fn default() -> Self {
        HitsConfig {
            tol: 1e-10,
            max_iter: 1000,
            norm: HitsNorm::Sum,
        }
    }
}

impl HitsConfig {
    pub fn new(tol: f64, max_iter: usize, norm: HitsNorm) -> Result<Self> {
        if !(tol.is_finite() && tol > 0.0) {
            return Err(EngineError::invalid(
                "--tol",
                format!("{tol} must be a positive number"),
            ));
        }
        if max_iter == 0 {
            return Err(EngineError::invalid("--max-iter", "must be at least 1"));
        }
        Ok(HitsConfig {
            tol,
            max_iter,
            norm,
        })
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct HitsResult {
    pub config: HitsConfig,
    pub nodes: usize,
    pub iterations: usize,
    pub converged: bool,
    /// L1 change (hub + authority, L2 scale) per iteration.
    pub history: Vec<f64>,
    pub hub: Vec<f64>,
    pub authority: Vec<f64>,
}

impl HitsResult {
    pub(crate) fn top_hubs(&self, k: usize) -> Vec<usize> {
        rank_desc(&self.hub, Some(k))
    }
    pub(crate) fn top_authorities(&self, k: usize) -> Vec<usize> {
        rank_desc(&self.authority, Some(k))
    }
}

fn l2_normalise(v: &mut [f64]) {
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm > 0.0 {
        v.iter_mut().for_each(|x| *x /= norm);
    }
}

/// Power iteration: `a = Aᵀh`, `h = A a`, both L2-normalised each step. The observer's
/// `on_iteration` receives the authority vector; `on_hits_iteration` both.
pub fn hits(
    g: &Graph,
    cfg: &HitsConfig,
    tick: &dyn Tick,
    observer: &mut dyn IterationObserver,
) -> Result<HitsResult> {
    let n = g.node_count();
    let mut hub = vec![if n > 0 { (1.0 / n as f64).sqrt() } else { 0.0 }; n];
    let mut auth = vec![0.0; n];
    let mut res = HitsResult {
        config: cfg.clone(),
        nodes: n,
        iterations: 0,
        converged: n == 0 || g.edge_count() == 0,
        history: Vec::new(),
        hub: Vec::new(),
        authority: Vec::new(),
    };
    if !res.converged {
        let mut last_tick = std::time::Instant::now();
        for it in 1..=cfg.max_iter {
            let mut new_auth: Vec<f64> = (0..n)
                .map(|p| {
                    g.in_neighbors(p)
                        .iter()
                        .fold(0.0, |acc, &q| acc + hub[q as usize])
                })
                .collect();
            l2_normalise(&mut new_auth);
            let mut new_hub: Vec<f64> = (0..n)
                .map(|p| {
                    g.out_neighbors(p)
                        .iter()
                        .fold(0.0, |acc, &q| acc + new_auth[q as usize])
                })
                .collect();
            l2_normalise(&mut new_hub);
            let delta: f64 = new_auth
                .iter()
                .zip(&auth)
                .map(|(a, b)| (a - b).abs())
                .sum::<f64>()
                + new_hub
                    .iter()
                    .zip(&hub)
                    .map(|(a, b)| (a - b).abs())
                    .sum::<f64>();
            auth = new_auth;
            hub = new_hub;
            res.history.push(delta);
            res.iterations = it;
            observer.on_iteration(it, &auth, delta);
            observer.on_hits_iteration(it, &hub, &auth, delta);
            if it == 1 || last_tick.elapsed().as_millis() >= 50 {
                tick.tick(
                    it as f32 / cfg.max_iter as f32,
                    &format!("HITS iteration {it}"),
                )?;
                last_tick = std::time::Instant::now();
            }
            if delta < cfg.tol {
                res.converged = true;
                break;
            }
        }
    }
    if cfg.norm == HitsNorm::Sum {
        for v in [&mut hub, &mut auth] {
            let s: f64 = v.iter().sum();
            if s > 0.0 {
                v.iter_mut().for_each(|x| *x /= s);
            }
        }
    }
    res.hub = hub;
    res.authority = auth;
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rank::graph::parse_graph;

    #[test]
    fn bipartite_hand_computed() {
        // h1 -> a1, a2 ; h2 -> a1. A (hubs × auths) = [[1,1],[1,0]].
        // AᵀA = [[2,1],[1,1]], eigenvalue (3+√5)/2, authority ∝ (1, (√5-1)/2) = (1, 0.618…).
        // Hubs = A·a ∝ (1 + 0.618, 1) .
        let g = parse_graph("h1 a1\nh1 a2\nh2 a1\n", "t").unwrap();
        let r = hits(&g, &HitsConfig::default(), &(), &mut ()).unwrap();
        assert!(r.converged);
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let (a1, a2) = (g.find("a1").unwrap(), g.find("a2").unwrap());
        let (h1, h2) = (g.find("h1").unwrap(), g.find("h2").unwrap());
        assert!(
            (r.authority[a1] - 1.0 / (1.0 + phi)).abs() < 1e-9,
            "{:?}",
            r.authority
        );
        assert!((r.authority[a2] - phi / (1.0 + phi)).abs() < 1e-9);
        assert!(
            (r.hub[h1] - (1.0 + phi) / (2.0 + phi)).abs() < 1e-9,
            "{:?}",
            r.hub
        );
        assert!((r.hub[h2] - 1.0 / (2.0 + phi)).abs() < 1e-9);
        // pure authorities have no hub score and vice versa
        assert_eq!(r.hub[a1], 0.0);
        assert!(r.hub[a1].is_sign_positive(), "no -0.0 in JSON");
        assert_eq!(r.authority[h1], 0.0);
        assert_eq!(r.top_authorities(1), vec![a1]);
        let l2 = hits(
            &g,
            &HitsConfig {
                norm: HitsNorm::L2,
                ..HitsConfig::default()
            },
            &(),
            &mut (),
        )
        .unwrap();
        let len: f64 = l2.authority.iter().map(|x| x * x).sum::<f64>();
        assert!((len - 1.0).abs() < 1e-12);
    }

    #[test]
    fn empty_graph_is_fine() {
        let g = Graph::default();
        let r = hits(&g, &HitsConfig::default(), &(), &mut ()).unwrap();
        assert!(r.converged && r.hub.is_empty());
    }
}
